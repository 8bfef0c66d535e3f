/* The timeline: what holds at time t, as a pure function of t.
 *
 * Settings are recomputed from the scene for every tick rather than
 * accumulated, so rendering frames 100-200 alone meets exactly the settings
 * a whole render meets there. Events (scatter, reset) are the only state,
 * and the driver fires them when the ticks run reach their time. */
#include <libavutil/eval.h>
#include <math.h>
#include <string.h>

#include "murmur/alloc.h"
#include "murmur/scene.h"
#include "driver.h"
#include "ease.h"
#include "../data/recording.h"
#include "hunt.h"

#define CAPTION_FADE 0.4  /* seconds of fade in and out */
#define PREDATOR_FAR 1e9  /* world units; far beyond any world (MUR_MAX_WORLD) */

void mur_scene_apply(const mur_change *set, int n, mur_params *p)
{
    for (int i = 0; i < n; i++)
        mur_setting_put(set[i].setting, p, set[i].value);
}

void mur_scene_params_at(const mur_scene *s, const mur_params *base, double t, mur_params *out)
{
    *out = *base;
    for (int i = 0; i < s->ncues && s->cues[i].at <= t; i++) {
        const mur_cue *q = &s->cues[i];
        mur_scene_apply(q->set, q->nset, out);
        double u = mur_ease_at(q->ease, (t - q->at) / q->over);
        for (int k = 0; k < q->nramp; k++) {
            const mur_setting *st = q->ramp[k].setting;
            /* Written as a blend so the end of a ramp is its target exactly
             * (from + (to - from) * 1 can miss it by an ulp). */
            double from = mur_setting_get(st, out);
            mur_setting_put(st, out, from * (1 - u) + q->ramp[k].value * u);
        }
    }
}

int mur_scene_frozen_at(const mur_scene *s, double t)
{
    int frozen = 0;
    for (int i = 0; i < s->ncues && s->cues[i].at <= t; i++) {
        if (s->cues[i].event == MUR_EVENT_FREEZE)
            frozen = 1;
        else if (s->cues[i].event == MUR_EVENT_UNFREEZE)
            frozen = 0;
    }
    return frozen;
}

const char *mur_scene_caption_at(const mur_scene *s, double t, double *alpha)
{
    const char *text = NULL;
    double a = 0;
    for (int i = 0; i < s->ncues && s->cues[i].at <= t; i++) {
        const mur_cue *q = &s->cues[i];
        if (!q->caption || t >= q->at + q->caption_for)
            continue;
        double fade = fmin(CAPTION_FADE, q->caption_for / 4);
        double in = (t - q->at) / fade, out = (q->at + q->caption_for - t) / fade;
        /* A caption at time 0 is there from the first frame, not faded in. */
        a = fmin(1, fmin(q->at > 0 ? in : 1, out));
        text = q->caption;  /* the latest caption wins */
    }
    if (alpha)
        *alpha = text ? a : 0;
    return text;
}

/* Catmull-Rom through every key (non-uniform times: Hermite with tangents
 * from the neighbouring keys), or linear. Holds the end keys outside. */
static void path_at(const mur_script_predator *pr, double t, double *x, double *y, double *z)
{
    double (*k)[4] = pr->path;
    double *out[3] = {x, y, z};
    int n = pr->npath;
    if (n == 1 || t <= k[0][0] || t >= k[n - 1][0]) {
        int e = n == 1 || t <= k[0][0] ? 0 : n - 1;
        for (int c = 1; c <= 3; c++)
            *out[c - 1] = k[e][c];
        return;
    }
    int i = 0;
    while (i + 1 < n && k[i + 1][0] <= t)
        i++;
    double t0 = k[i][0], t1 = k[i + 1][0], h = t1 - t0, u = (t - t0) / h;
    for (int c = 1; c <= 3; c++) {
        double p0 = k[i][c], p1 = k[i + 1][c], v;
        if (!pr->smooth) {
            v = p0 + (p1 - p0) * u;
        } else {
            double m0 = i > 0 ? (p1 - k[i - 1][c]) / (t1 - k[i - 1][0]) : (p1 - p0) / h;
            double m1 = i + 2 < n ? (k[i + 2][c] - p0) / (k[i + 2][0] - t0) : (p1 - p0) / h;
            double u2 = u * u, u3 = u2 * u;
            v = (2 * u3 - 3 * u2 + 1) * p0 + (u3 - 2 * u2 + u) * h * m0 +
                (-2 * u3 + 3 * u2) * p1 + (u3 - u2) * h * m1;
        }
        *out[c - 1] = v;
    }
}

int mur_scene_predators_at(const mur_scene *s, double t, mur_predator *out, int max)
{
    int n = 0;
    for (int i = 0; i < s->npredators && n < max; i++) {
        const mur_script_predator *pr = &s->predators[i];
        if (t < pr->from || t >= pr->until)
            continue;
        double x, y, z = s->params.depth / 2;
        if (pr->pursue)   /* a hunter is where its pursuit took it: the driver's (hunt.c) */
            continue;
        if (pr->path) {
            path_at(pr, t, &x, &y, &z);
        } else {
            double vars[4] = {t, s->params.width, s->params.height, s->params.depth};
            x = av_expr_eval(pr->x_eval, vars, NULL);
            y = av_expr_eval(pr->y_eval, vars, NULL);
            if (pr->z_eval)
                z = av_expr_eval(pr->z_eval, vars, NULL);
        }
        /* An expression that blows up at t (NaN, inf, or so far out that
         * nearest-image arithmetic would lose every digit) hides the
         * predator for that tick instead of poisoning the flock. */
        if (!(fabs(x) <= PREDATOR_FAR) || !(fabs(y) <= PREDATOR_FAR) || !(fabs(z) <= PREDATOR_FAR))
            continue;
        out[n++] = (mur_predator){x, y, pr->radius, pr->strength, pr->attract, pr->burst, 0, z, i + 1};
    }
    return n;
}

long mur_scene_frames(const mur_scene *s) { return (long)floor(s->duration * s->fps + 1e-9); }
void mur_scene_size(const mur_scene *s, int *width, int *height)
{
    *width = s->width;
    *height = s->height;
}
double mur_scene_fps(const mur_scene *s) { return s->fps; }
double mur_scene_tps(const mur_scene *s) { return s->tps; }
int mur_scene_conditions(const mur_scene *s) { return s->nconditions; }
const char *mur_scene_condition_name(const mur_scene *s, int c)
{
    return c >= 0 && c < s->nconditions ? s->conditions[c].name : NULL;
}

double mur_scene_frame_time(const mur_scene *s, long k) { return k / s->fps; }

long mur_scene_frame_tick(const mur_scene *s, long k)
{
    return (long)floor((double)k * s->tps / s->fps + 1e-9);
}

/* ---- the driver ---------------------------------------------------------- */

/* Fire the events whose time the state has reached. An event at T changes
 * the state at time T, so it fires as soon as the ticks run bring the clock
 * to T or past it, before that state is observed or drawn: the frame at T
 * already shows a reset at T. Events sharing a time fire in file order. */
static void fire_events(mur_driver *d)
{
    const mur_scene *s = d->scene;
    double now = d->tick / s->tps;
    for (; d->next_cue < s->ncues && s->cues[d->next_cue].at <= now; d->next_cue++) {
        switch (s->cues[d->next_cue].event) {
        case MUR_EVENT_SCATTER: mur_flock_scatter(d->flock); break;
        case MUR_EVENT_RESET: mur_flock_reset(d->flock); break;
        default: break;  /* freeze/unfreeze: mur_scene_frozen_at reads them */
        }
    }
}

/* The settings at t are invalid only when ramps on tied settings (say
 * min_speed and max_speed) overlap; the loader checks every other case.
 * The message points at the latest entry that changed a setting. */
static int bad_settings(const mur_driver *d, double t, const mur_error *why, mur_error *err)
{
    const mur_scene *s = d->scene;
    int line = 1, col = 1;
    for (int i = 0; i < s->ncues && s->cues[i].at <= t; i++)
        if (s->cues[i].nset || s->cues[i].nramp) {
            line = s->cues[i].line;
            col = s->cues[i].col > 0 ? s->cues[i].col : 1;
        }
    return mur_error_set(err, MUR_EINPUT, "%s:%d:%d: error: at %gs the timeline gives %s",
                         s->path ? s->path : "scene", line, col, t, why->msg);
}

/* One tick: from time tick/tps to (tick+1)/tps. Warm-up ticks (negative)
 * run with the settings of time 0 and no predators: the warm-up lets a
 * flock form before the video starts, and a predator of the timeline
 * parked at its first position for all of it would carve a hole there. */
static int stopped(const mur_driver *d, mur_error *err)
{
    if (d->tick < 0)
        return mur_error_set(err, MUR_EINTR, "stopped in the warm-up, %ld ticks before the first frame",
                             -d->tick);
    return mur_error_set(err, MUR_EINTR, "stopped at tick %ld", d->tick);
}

/* A replay's tick: the flock shows the recording's frame at d->tick (the
 * last at or before it: a thinned trace holds each frame until the next),
 * with the timeline's settings, which shape the look and the metrics. */
static int show_recorded(mur_driver *d, mur_error *err)
{
    const mur_scene *s = d->scene;
    const mur_recording *r = d->replay;
    long k = mur_recording_frame_at(r, d->tick);
    long a = k < 0 ? 0 : r->first[k];
    int n = k < 0 ? 0 : (int)(r->first[k + 1] - a);
    mur_params p;
    mur_scene_params_at(s, &d->base, d->tick / s->tps, &p);
    p.count = n;
    int rc = MUR_OK;
    mur_error why;
    if (memcmp(&p, mur_flock_params(d->flock), sizeof p) != 0 &&
        (rc = mur_flock_set_params(d->flock, &p, &why)))
        return rc == MUR_EINPUT ? bad_settings(d, d->tick / s->tps, &why, err)
                                : mur_error_set(err, rc, "%s", why.msg);
    if (k == d->shown)
        return MUR_OK;
    d->shown = k;
    if (r->dimension == 3)   /* a 3D world's tracks (the loader matched the world's dimensions) */
        return mur_flock_set_frame3(d->flock, n, r->id + a, r->x + a, r->y + a, r->z + a, r->vx + a, r->vy + a,
                                    r->vz + a, err);
    return mur_flock_set_frame(d->flock, n, r->id + a, r->x + a, r->y + a, r->vx + a, r->vy + a, err);
}

static int step(mur_driver *d, mur_error *err)
{
    const mur_scene *s = d->scene;
    int warm = d->tick < 0;
    if (d->stop && *d->stop)
        return stopped(d, err);
    if (d->replay) {
        d->tick++;
        int rc = show_recorded(d, err);
        if (rc)
            return rc;
        if (d->on_tick && d->tick > 0)
            d->on_tick(d->on_tick_ctx, d->flock, d->tick);
        return MUR_OK;
    }
    double t = warm ? 0 : d->tick / s->tps;
    if (warm || !mur_scene_frozen_at(s, t)) {
        mur_params p;
        mur_scene_params_at(s, &d->base, t, &p);
        if (memcmp(&p, mur_flock_params(d->flock), sizeof p) != 0) {
            mur_error why;
            int rc = mur_flock_set_params(d->flock, &p, &why);
            if (rc == MUR_EINPUT)
                return bad_settings(d, t, &why, err);
            if (rc)
                return mur_error_set(err, rc, "%s", why.msg);  /* out of memory */
        }
        mur_predator pred[MUR_MAX_PREDATORS];
        int np = warm ? 0 : mur_scene_predators_at(s, t, pred, MUR_MAX_PREDATORS);
        for (int i = 0; i < np && (d->predator_shift[0] != 0 || d->predator_shift[1] != 0 ||
                                   d->predator_shift[2] != 0); i++) {
            pred[i].x += d->predator_shift[0];
            pred[i].y += d->predator_shift[1];
            pred[i].z += d->predator_shift[2];   /* 0 in 2D */
        }
        if (!warm)
            np = mur_hunt_predators(d, t, pred, np);
        mur_flock_set_predators(d->flock, pred, np);
        if (mur_flock_step(d->flock) == MUR_EINTR)
            return stopped(d, err);
        int hunted = warm ? MUR_OK : mur_hunt_step(d, err);
        if (hunted)
            return hunted;
    }
    d->tick++;
    if (d->tick >= 0)
        fire_events(d);
    /* look.trails.warm: the warm-up's last ticks too (and its end, tick 0),
     * so the first frame's trails are those a run reaching it without a
     * warm-up has (the renderer keeps only trails of ticks <= 0) */
    int warm_trail = d->observe_warm && s->look.trail_warm && d->tick <= 0 &&
                     d->tick > -2 * (long)s->look.trail_length - 2;   /* the ring's slots: length, a band, 2 */
    if (d->on_tick && (d->tick > 0 || warm_trail))
        d->on_tick(d->on_tick_ctx, d->flock, d->tick);
    return MUR_OK;
}

int mur_driver_create(mur_driver **out, mur_error *err)
{
    *out = mur_calloc(1, sizeof **out);
    if (!*out)
        return mur_error_set(err, MUR_ERUN, "out of memory for a timeline driver");
    (*out)->shown = -1;
    return MUR_OK;
}

void mur_driver_destroy(mur_driver *d) { mur_free(d); }

void mur_driver_set_on_tick(mur_driver *d, void (*on_tick)(void *ctx, const mur_flock *f, long tick),
                            void *ctx)
{
    d->on_tick = on_tick;
    d->on_tick_ctx = ctx;
}

void mur_driver_set_stop(mur_driver *d, volatile sig_atomic_t *stop) { d->stop = stop; }
void mur_driver_set_replay(mur_driver *d, const mur_recording *r) { d->replay = r; }
void mur_driver_set_observe_warm(mur_driver *d, int on) { d->observe_warm = on; }
long mur_driver_tick(const mur_driver *d) { return d->tick; }
const mur_params *mur_driver_base(const mur_driver *d) { return &d->base; }
void mur_driver_set_base(mur_driver *d, const mur_params *p) { d->base = *p; }

void mur_driver_set_predator_shift(mur_driver *d, double dx, double dy)
{
    d->predator_shift[0] = dx;
    d->predator_shift[1] = dy;
    d->predator_shift[2] = 0;
}

void mur_driver_set_predator_shift3(mur_driver *d, const double shift[3])
{
    for (int a = 0; a < 3; a++)
        d->predator_shift[a] = shift[a];
}

void mur_driver_predator_shift3(const mur_driver *d, double out[3])
{
    for (int a = 0; a < 3; a++)
        out[a] = d->predator_shift[a];
}

int mur_driver_start(mur_driver *d, const mur_scene *s, mur_flock *f, const mur_params *base,
                     mur_error *err)
{
    void (*on_tick)(void *, const mur_flock *, long) = d->on_tick;
    void *ctx = d->on_tick_ctx;
    volatile sig_atomic_t *stop = d->stop;
    const mur_recording *replay = d->replay ? d->replay : s->replay;
    double shift[3] = {d->predator_shift[0], d->predator_shift[1], d->predator_shift[2]};
    int observe_warm = d->observe_warm;
    memset(d, 0, sizeof *d);
    d->observe_warm = observe_warm;
    d->replay = replay;
    d->predator_shift[0] = shift[0];
    d->predator_shift[1] = shift[1];
    d->predator_shift[2] = shift[2];
    d->on_tick = on_tick;
    d->on_tick_ctx = ctx;
    d->stop = stop;
    d->scene = s;
    d->flock = f;
    d->base = *base;
    d->shown = -1;
    if (d->replay)   /* no warm-up (the loader refuses one): tick 0 is the recording's */
        return show_recorded(d, err);
    if (s->ngroups) {   /* the starting flock's shape, drawn from the seed */
        mur_start_group one = s->groups[0];
        one.count = base->count;   /* one shape holds the whole flock, whatever a condition makes it */
        int rc = mur_flock_set_start(f, s->ngroups == 1 ? &one : s->groups, s->ngroups, err);
        if (rc)
            return rc;
    }
    if (s->start) {  /* the saved state, its tick counter and stream: the saved run goes on */
        const mur_recording *r = s->start;
        int n = (int)r->first[1];
        int rc = r->dimension == 3 ? mur_flock_set_state3(f, n, r->x, r->y, r->z, r->vx, r->vy, r->vz, err)
                                   : mur_flock_set_state(f, n, r->x, r->y, r->vx, r->vy, err);
        if (rc)
            return rc;
        if (r->has_state) {
            mur_flock_set_tick(f, r->flock_tick);
            mur_flock_set_stream(f, r->stream);
        }
    }
    d->tick = -(long)s->warmup;
    while (d->tick < 0) {
        int rc = step(d, err);
        if (rc)
            return rc;
    }
    fire_events(d);  /* events at 0s act on the first frame */
    return MUR_OK;
}

const mur_recording *mur_scene_replay_of(const mur_scene *s, int c)
{
    return c >= 0 && c < s->nconditions && s->conditions[c].replay ? s->conditions[c].replay : s->replay;
}

int mur_driver_run_to(mur_driver *d, long target, mur_error *err)
{
    while (d->tick < target) {
        int rc = step(d, err);
        if (rc)
            return rc;
    }
    return MUR_OK;
}
