/* Sessions (session.h): the loop from a loaded scene to frames, stills and
 * videos, shared by `murmur render`, `murmur still` and any host program.
 *
 * The flocks always start at tick 0 and are stepped forward to each frame's
 * tick, so any frame (a still, a part of a render) is exactly the frame of a
 * whole render. A render runs the drawing in this thread (the flocks step
 * on their own worker pools) while the video writer converts and encodes on
 * a thread of its own behind a queue of frames, so all cores stay busy and
 * a render takes about as long as its slowest stage. */
#include "murmur/session.h"
#include "murmur/limits.h"
#include "murmur/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "murmur/presets.h"
#include "murmur/render.h"
#include "murmur/rng.h"
#include "murmur/twin.h"
#include "murmur/video.h"
#include "play.h"
#include "texts.h"

/* Runs an experiment may have (mur_experiment_def.runs). */
#define MAX_RUNS MUR_MAX_RUNS

typedef struct {
    mur_session *session;
    int panel;
} observer;

struct mur_session {
    const mur_scene *scene;
    mur_session_opts opts;
    int npanels;
    mur_flock *flocks[MUR_SESSION_MAX_PANELS];
    mur_driver *drivers[MUR_SESSION_MAX_PANELS];
    observer observers[MUR_SESSION_MAX_PANELS];
    mur_twin twins[MUR_SESSION_MAX_PANELS];   /* experiment.twin: each panel's twin, drawn as a ghost */
    mur_look look;       /* the scene's look; one panel when a condition is chosen */
    mur_renderer *renderer;
    mur_play *play;      /* a sequence file's: its entries' sessions, one after another (play.c) */
};

/* The driver's hook after every tick: the renderer records what trails,
 * plots and cluster colours need. */
static void observe(void *ctx, const mur_flock *f, long tick)
{
    observer *o = ctx;
    mur_renderer_observe(o->session->renderer, o->panel, f, tick);
}

/* Enters with ss's scene, opts and renderer set; leaves panel i's flock
 * created with the condition's overrides, warmed up, and its driver started.
 * The flock, its seed and its driver are made exactly as an experiment's
 * job makes them (experiment.c), so a chosen condition and run is that
 * job's flock tick for tick. */
static int start_panel(mur_session *ss, int i, mur_error *err)
{
    const mur_scene *s = ss->scene;
    int c = ss->opts.condition >= 0 ? ss->opts.condition : s->panels ? i : -1;
    uint64_t seed = ss->opts.run >= 0 ? mur_rng_derive(s->seed, (uint64_t)ss->opts.run) : s->seed;
    mur_params base = s->params;
    if (c >= 0)
        mur_scene_apply(s->conditions[c].set, s->conditions[c].nset, &base);
    int rc = mur_flock_create(&ss->flocks[i], &base, seed, err);
    if (rc || (rc = mur_flock_set_threads(ss->flocks[i], ss->opts.threads, err)) ||
        (rc = mur_driver_create(&ss->drivers[i], err)))
        return rc;
    /* the warm-up, a seek to a late frame and each tick answer the flag */
    mur_flock_set_stop(ss->flocks[i], ss->opts.stop);
    ss->observers[i] = (observer){ss, i};
    mur_driver *d = ss->drivers[i];
    mur_driver_set_on_tick(d, observe, &ss->observers[i]);
    mur_driver_set_stop(d, ss->opts.stop);
    mur_driver_set_observe_warm(d, 1);   /* the renderer's trails, when look.trails.warm asks */
    mur_driver_set_replay(d, mur_scene_replay_of(s, c));
    if ((rc = mur_driver_start(d, s, ss->flocks[i], &base, err)) || s->twin.kind == MUR_TWIN_NONE)
        return rc;
    mur_twin *tw = &ss->twins[i];
    if ((rc = mur_twin_start(tw, s, &base, seed, ss->opts.threads, ss->opts.stop, err)))
        return rc;
    double shift[3];
    mur_twin_offset(tw, shift);
    mur_renderer_set_ghost3(ss->renderer, i, tw->flock, shift);
    return MUR_OK;
}

/* A chosen condition and run within range; a condition rendered alone is
 * held to the render's bound on work, which the loader checked only for
 * the flocks the scene itself draws. */
static int check_choice(const mur_scene *s, const mur_session_opts *o, mur_error *err)
{
    if (o->condition < -1 || o->condition >= s->nconditions)
        return mur_error_set(err, MUR_EINPUT, "condition %d is out of range [-1, %d)", o->condition,
                             s->nconditions);
    if (o->run < -1 || o->run >= MAX_RUNS)
        return mur_error_set(err, MUR_EINPUT, "run %d is out of range [-1, %d)", o->run, MAX_RUNS);
    if (o->condition < 0)
        return MUR_OK;
    const mur_condition *c = &s->conditions[o->condition];
    mur_params p = s->params;
    mur_scene_apply(c->set, c->nset, &p);
    double boids = mur_scene_max_count(s, &p);
    double ticks = s->duration * s->tps + s->warmup;
    if (boids * ticks > MUR_SCENE_MAX_BOID_TICKS)
        return mur_error_set(err, MUR_EINPUT,
                             "%s: error: condition %s needs %.0f boids x %.0f ticks = %.3g boid-ticks "
                             "(at most %.3g)", s->path, c->name, boids, ticks, boids * ticks,
                             MUR_SCENE_MAX_BOID_TICKS);
    return MUR_OK;
}

int mur_session_create(mur_session **out, const mur_scene *s, const mur_session_opts *opts,
                       mur_error *err)
{
    *out = NULL;
    if (opts && !MUR_VERSION_OK(opts->version, MUR_SESSION_OPTS_VERSION, MUR_SESSION_OPTS_VERSION))
        return mur_error_set(err, MUR_EINPUT, "session options of version %u (this murmur takes %d)",
                             opts->version, MUR_SESSION_OPTS_VERSION);
    mur_session_opts o = opts ? *opts : (mur_session_opts)MUR_SESSION_OPTS_INIT;
    int rc = check_choice(s, &o, err);
    if (rc)
        return rc;
    mur_look look = *mur_scene_look(s);
    if (o.condition >= 0) {   /* one condition alone: one flock, no panel labels */
        look.panels = 1;
        look.labels = NULL;
    }
    int npanels = look.panels;
    if (npanels > MUR_SESSION_MAX_PANELS)
        return mur_error_set(err, MUR_EINPUT, "%s: error: at most %d panels", s->path,
                             MUR_SESSION_MAX_PANELS);
    mur_session *ss = mur_calloc(1, sizeof *ss);
    if (!ss)
        return mur_error_set(err, MUR_ERUN, "out of memory");
    ss->scene = s;
    ss->opts = o;
    ss->look = look;
    ss->npanels = npanels;
    if (s->sequence) {   /* no flock of its own: its entries' sessions draw */
        ss->npanels = 0;
        if ((rc = mur_play_create(&ss->play, s, &o, err))) {
            mur_session_destroy(ss);
            return rc;
        }
        *out = ss;
        return MUR_OK;
    }
    rc = mur_renderer_create(&ss->renderer, &ss->look, s->width, s->height, err);
    if (!rc) {
        mur_renderer_set_stop(ss->renderer, ss->opts.stop);
    }
    if (!rc)
        rc = mur_renderer_set_threads(ss->renderer, ss->opts.threads, err);
    for (int i = 0; !rc && i < npanels; i++)
        rc = start_panel(ss, i, err);
    if (rc) {
        mur_session_destroy(ss);
        return rc;
    }
    *out = ss;
    return MUR_OK;
}

void mur_session_destroy(mur_session *ss)
{
    if (!ss)
        return;
    mur_play_destroy(ss->play);
    mur_renderer_destroy(ss->renderer);
    for (int i = 0; i < ss->npanels; i++) {
        mur_driver_destroy(ss->drivers[i]);
        mur_flock_destroy(ss->flocks[i]);
        mur_twin_free(&ss->twins[i]);
    }
    mur_free(ss);
}

const mur_scene *mur_session_scene(const mur_session *ss) { return ss->scene; }
int mur_session_panels(const mur_session *ss) { return ss->npanels; }

const mur_flock *mur_session_flock(const mur_session *ss, int panel)
{
    return panel >= 0 && panel < ss->npanels ? ss->flocks[panel] : NULL;
}

void mur_session_opts_init(mur_session_opts *out) { *out = (mur_session_opts)MUR_SESSION_OPTS_INIT; }
void mur_render_opts_init(mur_render_opts *out) { *out = (mur_render_opts)MUR_RENDER_OPTS_INIT; }
long mur_session_tick(const mur_session *ss) { return ss->play ? 0 : mur_driver_tick(ss->drivers[0]); }

/* A setting's value within its range (a choice by index), or MUR_EINPUT. */
static int check_setting(const mur_setting *st, const char *name, double v, mur_error *err)
{
    if (!st)
        return mur_error_set(err, MUR_EINPUT, "'%s' is not a model setting (docs/model.md)", name ? name : "");
    double lo = st->min, hi = st->max;
    if (st->type == MUR_SETTING_ENUM) {
        int n = 0;
        while (st->choices[n])
            n++;
        lo = 0;
        hi = n - 1;
    }
    if (!(v >= lo && v <= hi) || (st->type != MUR_SETTING_REAL && v != floor(v)))
        return mur_error_set(err, MUR_EINPUT, "%s = %g is out of range [%g, %g]%s", st->name, v, lo, hi,
                             st->type == MUR_SETTING_REAL ? "" : " (a whole number)");
    return MUR_OK;
}

/* One setting of a driver's settings before the timeline, from its next tick on. */
static void put_base(mur_driver *d, const mur_setting *st, double value)
{
    mur_params p = *mur_driver_base(d);
    mur_setting_put(st, &p, value);
    mur_driver_set_base(d, &p);
}

int mur_session_set(mur_session *ss, const char *name, double value, mur_error *err)
{
    if (ss->play)
        return mur_error_set(err, MUR_EINPUT, "%s is a sequence: set '%s' in the scene of its entry",
                             ss->scene->path, name ? name : "");
    const mur_setting *st = name ? mur_setting_find(name) : NULL;
    int rc = check_setting(st, name, value, err);
    for (int i = 0; !rc && i < ss->npanels; i++) {
        mur_params p = *mur_driver_base(ss->drivers[i]);
        mur_setting_put(st, &p, value);
        rc = mur_params_validate(&p, err);
    }
    for (int i = 0; !rc && i < ss->npanels; i++) {   /* every panel or none */
        put_base(ss->drivers[i], st, value);
        if (ss->twins[i].flock)
            put_base(ss->twins[i].driver, st, value);
    }
    return rc;
}

/* Frame k's tick, or MUR_EINPUT when the flocks are past it already. */
static int frame_tick(const mur_session *ss, long k, long *tick, mur_error *err)
{
    if (ss->play) {   /* a sequence steps its entries' flocks itself */
        *tick = k;
        return MUR_OK;
    }
    *tick = mur_scene_frame_tick(ss->scene, k);
    if (*tick < mur_driver_tick(ss->drivers[0]))
        return mur_error_set(err, MUR_EINPUT,
                             "frame %ld (tick %ld) is before the session's tick %ld: a session steps "
                             "forward only (create another for an earlier frame)", k, *tick,
                             mur_driver_tick(ss->drivers[0]));
    return MUR_OK;
}

int mur_session_run_to(mur_session *ss, long tick, mur_error *err)
{
    if (ss->play)
        return MUR_OK;
    for (int i = 0; i < ss->npanels; i++) {
        int rc = mur_driver_run_to(ss->drivers[i], tick, err);
        if (!rc && ss->twins[i].flock)
            rc = mur_twin_run_to(&ss->twins[i], tick, err);
        if (rc)
            return rc;
    }
    return MUR_OK;
}

int mur_session_frame(mur_session *ss, long k, const uint8_t **pixels, int *stride, mur_error *err)
{
    const mur_scene *s = ss->scene;
    long tick;
    int rc = frame_tick(ss, k, &tick, err);
    if (!rc)
        rc = mur_session_run_to(ss, tick, err);
    if (rc)
        return rc;
    if (ss->play)
        return mur_play_frame(ss->play, k, pixels, stride, err);
    return mur_renderer_draw_image(ss->renderer, (const mur_flock *const *)ss->flocks, ss->npanels,
                                   mur_scene_frame_time(s, k), pixels, stride, err);
}

/* A sequence's frame k painted onto cr, scaled to width x height. */
static int draw_played(mur_session *ss, long k, cairo_t *cr, double width, double height, mur_error *err)
{
    const uint8_t *px;
    int stride, rc = mur_play_frame(ss->play, k, &px, &stride, err);
    if (rc)
        return rc;
    const mur_scene *s = ss->scene;
    cairo_surface_t *img = cairo_image_surface_create_for_data((unsigned char *)px, CAIRO_FORMAT_ARGB32,
                                                               s->width, s->height, stride);
    cairo_save(cr);
    cairo_scale(cr, width / s->width, height / s->height);
    cairo_set_source_surface(cr, img, 0, 0);
    cairo_paint(cr);
    cairo_restore(cr);
    cairo_surface_destroy(img);
    return cairo_status(cr) ? mur_error_set(err, MUR_ERUN, "cairo: %s", cairo_status_to_string(cairo_status(cr)))
                            : MUR_OK;
}

int mur_session_draw(mur_session *ss, long k, cairo_t *cr, double width, double height,
                     mur_error *err)
{
    const mur_scene *s = ss->scene;
    long tick;
    int rc = frame_tick(ss, k, &tick, err);
    if (!rc)
        rc = mur_session_run_to(ss, tick, err);
    if (rc)
        return rc;
    if (ss->play)
        return draw_played(ss, k, cr, width, height, err);
    cairo_save(cr);
    cairo_scale(cr, width / s->width, height / s->height);
    rc = mur_renderer_draw(ss->renderer, cr, (const mur_flock *const *)ss->flocks, ss->npanels,
                           mur_scene_frame_time(s, k), err);
    cairo_restore(cr);
    return rc;
}

int mur_session_provenance(const mur_session *ss, const char *request, char **out, mur_error *err)
{
    const mur_scene *s = ss->scene;
    if (ss->play)
        return mur_play_provenance(s, request, out, err);
    int c = ss->opts.condition, r = ss->opts.run;
    uint64_t seed = r >= 0 ? mur_rng_derive(s->seed, (uint64_t)r) : s->seed;
    if (c < 0 && r < 0)
        return mur_scene_provenance(s, seed, request, out, err);
    size_t n = strlen(request ? request : "") + 256;
    char *req = mur_malloc(n);
    if (!req)
        return mur_error_set(err, MUR_ERUN, "out of memory writing the provenance");
    char run[24];
    snprintf(run, sizeof run, "%d", r);
    snprintf(req, n, "experiment: condition %.100s, run %s\n%s", c >= 0 ? s->conditions[c].name : "(the scene's)",
             r >= 0 ? run : "(the scene's seed)", request ? request : "");
    int rc = mur_scene_provenance(s, seed, req, out, err);
    mur_free(req);
    return rc;
}

int mur_session_still(mur_session *ss, long k, const char *path, mur_error *err)
{
    const mur_scene *s = ss->scene;
    if (ss->play)
        return mur_play_still(ss->play, k, path, err);
    long tick;
    int rc = frame_tick(ss, k, &tick, err);
    if (!rc)
        rc = mur_session_run_to(ss, tick, err);
    if (rc)
        return rc;
    /* every still says where it came from */
    char request[160], t[40], *meta = NULL;
    mur_number_format(t, sizeof t, mur_scene_frame_time(s, k));
    snprintf(request, sizeof request, "still: frame %ld (%ss of video, tick %ld)", k, t,
             mur_scene_frame_tick(s, k));
    if ((rc = mur_session_provenance(ss, request, &meta, err)))
        return rc;
    mur_renderer_set_provenance(ss->renderer, meta);
    rc = mur_renderer_write_still(ss->renderer, (const mur_flock *const *)ss->flocks, ss->npanels,
                                  mur_scene_frame_time(s, k), path, err);
    mur_renderer_set_provenance(ss->renderer, NULL);
    mur_free(meta);
    return rc;
}

int mur_session_frame_at(const mur_scene *s, const char *text, long *out)
{
    double t;
    if (mur_time_parse(text, s->tps, &t) || t < 0 || t > MUR_SCENE_MAX_SECONDS)
        return MUR_EINPUT;
    *out = (long)ceil(t * s->fps - 1e-9);
    return MUR_OK;
}

/* ---- a whole render ------------------------------------------------------ */

/* Enters with o checked; leaves *v open on o->path for the scene's frames
 * [first, ...), or an error. */
static int open_video(const mur_session *ss, const mur_render_opts *o, long first, long last, mur_video **v,
                      const mur_video_text *ch, int nch, const mur_video_text *subs, int nsubs,
                      mur_error *err)
{
    const mur_scene *s = ss->scene;
    mur_video_opts vo = {.version = MUR_VIDEO_OPTS_VERSION, .path = o->path, .width = s->width, .height = s->height,
                         .fps = (int)lround(s->fps), .quality = s->quality, .preset = o->preset,
                         .first_number = first, .queue = o->queue, .metadata = o->metadata,
                         .chapters = ch, .nchapters = nch, .subtitles = subs, .nsubtitles = nsubs,
                         .alpha = ss->look.transparent, .gif_colours = s->gif_colours,
                         .gif_dither = s->gif_dither};
    if (o->version >= 3 && o->chunk) {
        vo.chunk = o->chunk;
        vo.nchunks = o->nchunks;
        vo.chunk_frames = last - first;
    }
    mur_error why;
    if (vo.alpha && mur_video_check_alpha(o->path, &why))   /* the line that asked for alpha */
        return mur_error_set(err, MUR_EINPUT, "%s:%d:%d: error: %s", s->path, s->background_line,
                             s->background_col, why.msg);
    if (fabs(s->fps - vo.fps) > 1e-9)
        return mur_error_set(err, MUR_EINPUT,
                             "%s: error: video.fps must be a whole number for video output", s->path);
    return mur_video_open(v, &vo, err);
}

/* Enters with v open; draws and writes frames [first, last), calling the
 * progress hook after each. Leaves *done at the frames written; MUR_EINTR
 * when the stop flag ended the loop (between frames or inside one). */
/* Frame k of a looped render into *px: frame k itself, or within the
 * first `loop` frames, blended with the frame `tail_at` later (tail's
 * session), so the file's last frame leads into its first. */
static int loop_frame(mur_session *ss, mur_session *tail, long k, long first, long loop, long tail_at,
                      uint8_t *buf, const uint8_t **px, int *stride, mur_error *err)
{
    int rc = mur_session_frame(ss, k, px, stride, err);
    long j = k - first;
    if (rc || !tail || j >= loop)
        return rc;
    const uint8_t *end;
    int es;
    const mur_scene *s = ss->scene;
    if ((rc = mur_session_frame(tail, k + tail_at, &end, &es, err)))
        return rc;
    unsigned weight = (unsigned)lround(256.0 * (double)(j + 1) / (double)(loop + 1));
    mur_play_blend(buf, s->width * 4, end, es, *px, *stride, s->width, s->height, weight);
    *px = buf;
    *stride = s->width * 4;
    return MUR_OK;
}

static int frames_into(mur_session *ss, mur_video *v, const mur_render_opts *o, long first,
                       long last, long *done, mur_error *err)
{
    volatile sig_atomic_t *stop = ss->opts.stop;
    long loop = o->version >= 4 ? o->loop : 0, total = last - first;
    mur_session *tail = NULL;
    uint8_t *buf = NULL;
    int rc = MUR_OK;
    if (loop > 0 && (rc = mur_session_create(&tail, ss->scene, &ss->opts, err)))
        return rc;
    if (loop > 0 && !(buf = mur_malloc((size_t)ss->scene->width * 4 * (size_t)ss->scene->height)))
        rc = mur_error_set(err, MUR_ERUN, "out of memory for a looped frame");
    for (long k = first; !rc && k < last; k++) {
        if (stop && *stop) {
            rc = MUR_EINTR;
            break;
        }
        const uint8_t *px;
        int stride;
        rc = loop_frame(ss, tail, k, first, loop, total, buf, &px, &stride, err);
        if (rc || (rc = mur_video_write(v, px, stride, err)))
            break;
        ++*done;
        if (o->progress)
            o->progress(o->progress_ctx, *done, last - first, mur_video_bytes(v));
    }
    mur_session_destroy(tail);
    mur_free(buf);
    return rc;
}

int mur_session_render(mur_session *ss, const mur_render_opts *o, mur_render_result *res,
                       mur_error *err)
{
    mur_render_result none = {0, 0, 0};
    if (!res)
        res = &none;
    *res = none;
    if (!MUR_VERSION_OK(o->version, 1, MUR_RENDER_OPTS_VERSION))
        return mur_error_set(err, MUR_EINPUT, "render options of version %u (this murmur takes 1 to %d)",
                             o->version, MUR_RENDER_OPTS_VERSION);
    int subtitles = o->version >= 2 ? o->subtitles : 0;   /* version 1 ends before it */
    long frames = mur_scene_frames(ss->scene);
    long first = o->first, last = o->last < 0 || o->last > frames ? frames : o->last;
    if (first < 0 || first >= last)
        return mur_error_set(err, MUR_EINPUT,
                             "nothing to render: frames %ld to %ld of a video of %ld frames", first,
                             last, frames);
    int rc;
    long loop = o->version >= 4 ? o->loop : 0;
    if (loop < 0 || 2 * loop > last - first)
        return mur_error_set(err, MUR_EINPUT,
                             "a loop of %ld frames is longer than half the clip (%ld frames): the end "
                             "would crossfade into frames it is itself", loop, last - first);
    if (loop && o->version >= 3 && o->chunk)
        return mur_error_set(err, MUR_EINPUT, "a chunk takes no loop: render the loop whole");
    if (o->version >= 3 && o->chunk && (ss->scene->gif_colours || ss->scene->gif_dither))
        return mur_error_set(err, MUR_EINPUT, "%s: error: a scene with video.gif_colours or gif_dither "
                                              "renders whole: murmur join gives a GIF's chunks the default "
                                              "palette", ss->scene->path);
    last -= loop;   /* the last `loop` frames are blended into the first */
    if (o->version >= 3 && o->chunk) {   /* the chunk's frames of [first, last) */
        long a, n;
        if (subtitles)
            return mur_error_set(err, MUR_EINPUT,
                                 "a chunk carries no subtitles: murmur join could not make the "
                                 "whole render's captions of them");
        if ((rc = mur_video_chunk_frames(last - first, (int)lround(ss->scene->fps), o->chunk,
                                         o->nchunks, &a, &n, err)))
            return rc;
        first += a;
        last = first + n;
    }
    mur_video *v = NULL;
    mur_video_text *ch = NULL, *subs = NULL;
    int nch = 0, nsubs = 0;
    rc = mur_scene_texts(ss->scene, first, last, &ch, &nch, &subs, &nsubs, err);
    if (rc || (rc = open_video(ss, o, first, last, &v, ch, nch, subs,
                               subtitles & MUR_SUBTITLES_EMBED ? nsubs : 0, err)))
        goto out;
    mur_video_size(v, &res->width, &res->height);
    long done = 0;
    rc = frames_into(ss, v, o, first, last, &done, err);
    if (rc == MUR_EINTR && done == 0)
        rc = MUR_EINTR;   /* nothing drawn: no file (abort below) */
    else if (rc == MUR_OK || rc == MUR_EINTR) {
        /* Stopped after some frames: what was drawn is finalised. */
        int closed = mur_video_close(v, err);
        v = NULL;
        if (closed)
            rc = closed;
        else
            res->frames = done;
        if (!closed && (subtitles & MUR_SUBTITLES_FILES)) {
            int written = mur_session_sidecars(o->path, subs, nsubs, err);
            rc = written ? written : rc;
        }
    }
out:
    mur_video_abort(v);
    mur_free(ch);
    mur_free(subs);
    return rc;
}
