/* The camera: which part of the world a panel shows (look.h `camera_at`).
 *
 * A camera looks at a centre with a zoom; the world point at the centre is
 * drawn at the middle of the panel, at zoom times the scale that fits the
 * whole world. The view is the world's letterboxed rectangle grown by the
 * zoom until it fills the panel, so zooming in uses the whole frame while
 * the identity camera (the world's centre, zoom 1) draws no differently
 * from no camera at all: such a frame takes frame.c's own path, pixel for
 * pixel.
 *
 * Following. A camera that follows a boid, the largest cluster or a
 * predator is pulled to its target by a critically damped spring that
 * also matches the target's velocity: the camera's error e from the target
 * obeys e'' + 2w e' + w^2 e = 0, w = 4 / smooth, integrated exactly over
 * each observed tick. A target flying straight is held at the centre with
 * no lag (a turning one lags by its acceleration / w^2), while a jump (the
 * largest cluster changing, a reset) becomes a pan whose velocity never
 * jumps and that never overshoots; `smooth: 0` locks the camera to its
 * target. A new target (the timeline's `camera.follow`) is one more such
 * jump: the spring carries the camera over to it. The state depends only
 * on the ticks observed, so a still at T sees the camera of frame T of a
 * render.
 *
 * Wrapping worlds. The view may hold any part of the plane: a periodic
 * world is drawn as its images side by side, each image the world's own
 * drawing translated by whole periods with the seam copies of boids,
 * trails and rings left out (they are the neighbouring images' own), so
 * the view crosses a seam with nothing cut, doubled or shifted. */
#include "internal.h"
#include "view3d.h"
#include "murmur/alloc.h"

#include <math.h>
#include <string.h>

/* Periodic images drawn along each axis at most (zoomed far out). */
#define MAX_IMAGES 16

void mur_camera_free(mur_cam_state *c)
{
    mur_free(c->count);
    c->count = NULL;
    c->cap = 0;
}

/* Centre and velocity (per tick) of the largest cluster of f (ties: the
 * one with the smallest member), each member taken at its image nearest
 * that smallest member. 0, or -1 when the clusters cannot be computed. */
static int largest_cluster(mur_panel_state *ps, const mur_flock *f, double c[2], double v[2])
{
    int n = mur_flock_count(f);
    mur_metrics m;
    if (n < 1 || mur_metrics_compute_some(ps->mx, f, 1u << MUR_METRIC_CLUSTERS, &m))
        return -1;
    mur_cam_state *cs = &ps->cam;
    if ((size_t)n > cs->cap) {
        int *k = mur_realloc(cs->count, (size_t)n * sizeof *k);
        if (!k)
            return -1;
        cs->count = k;
        cs->cap = (size_t)n;
    }
    const int *label = mur_metrics_cluster_of(ps->mx);
    memset(cs->count, 0, (size_t)n * sizeof *cs->count);
    int best = 0;
    for (int i = 0; i < n; i++)
        cs->count[label[i]]++;
    for (int l = 1; l < n; l++)
        if (cs->count[l] > cs->count[best])
            best = l;
    const double *x = mur_flock_x(f), *y = mur_flock_y(f), *vx = mur_flock_vx(f), *vy = mur_flock_vy(f);
    double sx = 0, sy = 0, svx = 0, svy = 0;
    for (int i = 0; i < n; i++) {
        if (label[i] != best)
            continue;
        double dx, dy;
        mur_flock_offset(f, x[best], y[best], x[i], y[i], &dx, &dy);
        sx += dx;
        sy += dy;
        svx += vx[i];
        svy += vy[i];
    }
    int k = cs->count[best];
    c[0] = x[best] + sx / k;
    c[1] = y[best] + sy / k;
    v[0] = svx / k;
    v[1] = svy / k;
    return 0;
}

/* What the camera follows at t seconds, and the seconds its spring takes
 * to settle: the camera's own answer when it gives one (a scene's: its
 * timeline may change the target), else the look's. */
typedef struct follow_now {
    mur_follow kind;
    int index;
    double smooth;
} follow_now;

static follow_now follow_at(const mur_look *lk, double t)
{
    follow_now w = {lk->follow, lk->follow_index, lk->follow_smooth};
    if (lk->camera_at) {
        mur_camera cam = {0};   /* a camera_at that predates `follows` leaves it 0 */
        lk->camera_at(lk->ctx, t, &cam);
        if (cam.follows)
            w = (follow_now){cam.follow, cam.follow_index, cam.smooth};
    }
    return w;
}

/* Back inside [0, size) under wrap: the same view, one period over. */
static double wrap_into(double v, double size)
{
    v = fmod(v, size);
    return v < 0 ? v + size : v;
}

/* A 3D flock's centre and mean velocity (per tick): each bird at its
 * image nearest bird 0 in a wrapping world. 0, or -1 with no birds. (A
 * plane's flock is followed by its largest cluster, largest_cluster.) */
static int centre3d(const mur_flock *f, double c[3], double v[3])
{
    int n = mur_flock_count(f);
    if (n < 1)
        return -1;
    const mur_params *p = mur_flock_params(f);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f), *z = mur_flock_z(f);
    const double *vx = mur_flock_vx(f), *vy = mur_flock_vy(f), *vz = mur_flock_vz(f);
    double size[3] = {p->width, p->height, p->depth}, o[3] = {x[0], y[0], z[0]}, s[3] = {0}, sv[3] = {0};
    int wrap = p->boundary == MUR_BOUNDARY_WRAP;
    for (int i = 0; i < n; i++) {
        double q[3] = {x[i], y[i], z[i]}, u[3] = {vx[i], vy[i], vz[i]};
        for (int k = 0; k < 3; k++) {
            double d = q[k] - o[k];
            if (wrap && size[k] > 0)
                d -= size[k] * floor(d / size[k] + 0.5);
            s[k] += d;
            sv[k] += u[k];
        }
    }
    for (int k = 0; k < 3; k++) {
        c[k] = o[k] + s[k] / n;
        v[k] = sv[k] / n;
    }
    return 0;
}

/* A hunter's place at t (a predator with `pursue` moves itself: the
 * flock holds where each tick put it, tagged 1 + its index) and its
 * velocity per tick: its step from where the tick before put it, the
 * nearest image's under wrap (0 on the first tick seen or after a gap).
 * The place is kept for the next tick's step. 1 when predator `index` is
 * hunting now. */
static int hunter(mur_renderer *r, int panel, const mur_flock *f, double t, int index, double c[3], double v[3])
{
    int n = 0;
    const mur_predator *own = mur_flock_predators(f, &n);
    const mur_params *p = mur_flock_params(f);
    mur_cam_state *cs = &r->panels[panel].cam;
    long tick = lround(t * r->look->tps);
    for (int k = 0; k < n; k++) {
        if (!own[k].hunting || own[k].tag != index + 1)
            continue;
        const double at[3] = {own[k].x, own[k].y, own[k].z}, size[3] = {p->width, p->height, p->depth};
        int step = cs->hunter_seen && cs->hunter_tick + 1 == tick;
        for (int a = 0; a < (mur_flock_z(f) ? 3 : 2); a++) {
            c[a] = at[a];
            v[a] = step ? at[a] - cs->hunter[a] : 0;
            if (p->boundary == MUR_BOUNDARY_WRAP && size[a] > 0)
                v[a] -= size[a] * floor(v[a] / size[a] + 0.5);
            cs->hunter[a] = at[a];
        }
        cs->hunter_seen = 1;
        cs->hunter_tick = tick;
        return 1;
    }
    return 0;
}

/* Where the camera's target is after tick `tick` (at t seconds) and how
 * fast it moves (units per tick), in the flock's components (c[2] and
 * v[2] only in a 3D world): 1, or 0 when there is none now (the boid is
 * gone, the predator is not active). */
static int target(mur_renderer *r, int panel, const mur_flock *f, double t, const follow_now *w, double c[3],
                  double v[3])
{
    const mur_look *lk = r->look;
    const double *z = mur_flock_z(f);
    switch (w->kind) {
    case MUR_FOLLOW_BOID: {
        int i = mur_flock_row(f, w->index);   /* on a replay, the boid with that id */
        if (i < 0)
            return 0;
        c[0] = mur_flock_x(f)[i];
        c[1] = mur_flock_y(f)[i];
        v[0] = mur_flock_vx(f)[i];
        v[1] = mur_flock_vy(f)[i];
        if (z)
            c[2] = z[i], v[2] = mur_flock_vz(f)[i];
        return 1;
    }
    case MUR_FOLLOW_FLOCK:
        return (z ? centre3d(f, c, v) : largest_cluster(&r->panels[panel], f, c, v)) == 0;
    case MUR_FOLLOW_PREDATOR: {
        if (hunter(r, panel, f, t, w->index, c, v))
            return 1;
        mur_camera now = {0}, before = {0};
        if (!lk->camera_at)
            return 0;
        lk->camera_at(lk->ctx, t, &now);
        lk->camera_at(lk->ctx, t - 1 / lk->tps, &before);
        if (!now.has_target)
            return 0;
        const double at[3] = {now.tx, now.ty, now.tz}, was[3] = {before.tx, before.ty, before.tz};
        for (int k = 0; k < (z ? 3 : 2); k++) {
            c[k] = at[k];
            v[k] = before.has_target ? at[k] - was[k] : 0;
        }
        return 1;
    }
    default:
        return 0;
    }
}

/* The camera's error e from where its target was a tick ago (c - v: it
 * moved at v over the tick), per component. A plane's camera lives on the
 * world's torus: under wrap the error is the nearest image's. A 3D camera
 * is not in the box (it stands on the ground): under `camera.wrap:
 * nearest` the target is taken at its image nearest the camera instead
 * (moving c), so a target crossing the seam goes on across it rather
 * than jumping back a box. */
static void follow_error(const mur_flock *f, const mur_look *lk, long tick, const mur_cam_state *cs, double c[3],
                         const double v[3], double e[3])
{
    const mur_params *p = mur_flock_params(f);
    if (!mur_flock_z(f)) {
        mur_params_offset(p, c[0] - v[0], c[1] - v[1], cs->p[0], cs->p[1], &e[0], &e[1]);
        return;
    }
    mur_camera cam = {0};
    if (lk->camera_at)
        lk->camera_at(lk->ctx, tick / lk->tps, &cam);
    const double size[3] = {p->width, p->height, p->depth};
    for (int k = 0; k < 3; k++) {
        if (cam.wrap_nearest && p->boundary == MUR_BOUNDARY_WRAP && size[k] > 0)
            c[k] -= size[k] * floor((c[k] - cs->p[k]) / size[k] + 0.5);
        e[k] = cs->p[k] - (c[k] - v[k]);
    }
}

/* One observed tick of the spring (the header's e'' + 2w e' + w^2 e = 0,
 * exactly): the error e and its velocity ev over d components, at wt =
 * w per tick; wt 0 (smooth: 0, or shorter than a tick) locks the camera
 * to its target. */
static void spring(double e[3], double ev[3], int d, double wt)
{
    if (!(wt > 0 && wt < 50)) {
        for (int k = 0; k < d; k++)
            e[k] = ev[k] = 0;
        return;
    }
    double kk = exp(-wt);
    for (int k = 0; k < d; k++) {
        double a = ev[k] + wt * e[k];
        e[k] = (e[k] + a) * kk;
        ev[k] = (ev[k] - wt * a) * kk;
    }
}


void mur_camera_view3d(mur_renderer *r, int panel, const mur_flock *f, double t, mur_view3d *out)
{
    const mur_look *lk = r->look;
    const mur_params *p = mur_flock_params(f);
    mur_camera cam = {0};
    if (lk->camera_at)
        lk->camera_at(lk->ctx, t, &cam);
    out->mode = MUR_VIEW_PERSPECTIVE;
    if (cam.view3d) {
        out->mode = cam.orthographic ? MUR_VIEW_ORTHOGRAPHIC : MUR_VIEW_PERSPECTIVE;
        memcpy(out->pos, cam.position, sizeof out->pos);
        memcpy(out->target, cam.target, sizeof out->target);
        memcpy(out->up, cam.up, sizeof out->up);
        out->fov = cam.fov;
        out->height = cam.height;
    } else {   /* docs/scenes.md "Three dimensions": the default camera */
        double pos[3] = {p->width / 2, -0.6 * p->height, 0.15 * p->depth};
        double at[3] = {p->width / 2, p->height / 2, p->depth / 2}, up[3] = {0, 0, 1};
        memcpy(out->pos, pos, sizeof pos);
        memcpy(out->target, at, sizeof at);
        memcpy(out->up, up, sizeof up);
        out->fov = 50;
        out->height = 1.2 * fmax(p->depth, p->height);
    }
    follow_now w = follow_at(lk, t);
    if (w.kind != MUR_FOLLOW_NONE) {
        const mur_cam_state *cs = &r->panels[panel].cam;
        double c[3], v[3], was[3];
        memcpy(was, out->target, sizeof was);
        if (cs->init)
            memcpy(out->target, cs->p, sizeof cs->p);
        else if (target(r, panel, f, t, &w, c, v))   /* before the first tick */
            memcpy(out->target, c, sizeof c);
        /* the camera turns to keep the flock or a predator in the middle,
         * standing where it is; a boid is followed as a tracking shot: the
         * camera keeps its offset from the target, so the bird stays the
         * same size */
        if (w.kind == MUR_FOLLOW_BOID)
            for (int k = 0; k < 3; k++)
                out->pos[k] += out->target[k] - was[k];
    }
    if (!cam.view3d)
        return;
    /* the lens and the seam (docs/scenes.md "Depth of field", camera.wrap) */
    if (cam.aperture > 0 && out->mode == MUR_VIEW_PERSPECTIVE) {
        double c[3], v[3], q[3], l2 = 0, fq = 0;
        const double *at = out->target;
        if (cam.focus_flock && centre3d(f, c, v) == 0)
            at = c;
        for (int k = 0; k < 3; k++) {
            q[k] = out->target[k] - out->pos[k];
            l2 += q[k] * q[k];
        }
        for (int k = 0; k < 3; k++)   /* the depth of `at` along the view */
            fq += (at[k] - out->pos[k]) * q[k];
        out->aperture = cam.aperture;
        out->focus = cam.focus > 0 && !cam.focus_flock ? cam.focus : l2 > 0 ? fq / sqrt(l2) : 0;
    }
    if (cam.wrap_nearest && p->boundary == MUR_BOUNDARY_WRAP) {
        out->period[0] = p->width;
        out->period[1] = p->height;
        out->period[2] = p->depth;
    }
}


void mur_camera_observe(mur_renderer *r, int panel, const mur_flock *f, long tick)
{
    const mur_look *lk = r->look;
    follow_now w = follow_at(lk, tick / lk->tps);
    if (w.kind == MUR_FOLLOW_NONE)
        return;
    mur_cam_state *cs = &r->panels[panel].cam;
    const mur_params *p = mur_flock_params(f);
    int d = mur_flock_z(f) ? 3 : 2;
    double c[3] = {0}, v[3] = {0};
    int have = target(r, panel, f, tick / lk->tps, &w, c, v);
    if (!cs->init || tick != cs->tick + 1) {   /* the first tick, or after a gap: start on it */
        cs->init = have;
        cs->tick = tick;
        if (have)
            for (int k = 0; k < d; k++)
                cs->p[k] = c[k], cs->v[k] = v[k];
        return;
    }
    cs->tick = tick;
    if (!have) {   /* nothing to follow now: hold still where it is */
        for (int k = 0; k < d; k++)
            cs->v[k] = 0;
        return;
    }
    double e[3], ev[3];
    follow_error(f, lk, tick, cs, c, v, e);
    for (int k = 0; k < d; k++)
        ev[k] = cs->v[k] - v[k];
    spring(e, ev, d, w.smooth > 0 ? 4 / (w.smooth * lk->tps) : 0);
    for (int k = 0; k < d; k++) {
        cs->p[k] = c[k] + e[k];
        cs->v[k] = v[k] + ev[k];
    }
    if (d == 2 && p->boundary == MUR_BOUNDARY_WRAP) {   /* the plane's camera stays on the torus */
        cs->p[0] = wrap_into(cs->p[0], p->width);
        cs->p[1] = wrap_into(cs->p[1], p->height);
    }
}


void mur_renderer_view(mur_renderer *r, int panel, const mur_flock *f, double t, mur_view *out)
{
    if (panel < 0 || panel >= r->npanels)
        panel = 0;
    mur_camera_view(r, panel, f, t, out);
}

int mur_camera_view(mur_renderer *r, int panel, const mur_flock *f, double t, mur_view *out)
{
    const mur_look *lk = r->look;
    const mur_params *p = mur_flock_params(f);
    *out = (mur_view){p->width / 2, p->height / 2, 1};
    if (!lk->camera_at)
        return 0;
    mur_camera cam = {0};
    lk->camera_at(lk->ctx, t, &cam);
    if (!(cam.zoom > 0) || !isfinite(cam.zoom))   /* an embedder's camera: nothing to zoom by */
        cam.zoom = 1;
    out->zoom = cam.zoom;
    if (isfinite(cam.x) && isfinite(cam.y)) {
        out->x = cam.x;
        out->y = cam.y;
    }
    follow_now w = follow_at(lk, t);
    if (w.kind != MUR_FOLLOW_NONE) {
        const mur_cam_state *cs = &r->panels[panel].cam;
        double c[3], v[3];
        if (cs->init) {
            out->x = cs->p[0];
            out->y = cs->p[1];
        } else if (target(r, panel, f, t, &w, c, v)) {   /* before the first tick */
            out->x = c[0];
            out->y = c[1];
        }
    }
    if (p->boundary == MUR_BOUNDARY_WRAP) {
        out->x = wrap_into(out->x, p->width);
        out->y = wrap_into(out->y, p->height);
    }
    return w.kind != MUR_FOLLOW_NONE || out->zoom != 1 || out->x != p->width / 2 ||
           out->y != p->height / 2;
}

/* Clip cr to (x0, y0)-(x1, y1) on whole device pixels (as frame.c clips the
 * world: a region, not a mask) and leave those pixels in d. */
static void clip_pixels(cairo_t *cr, double x0, double y0, double x1, double y1, int d[4])
{
    cairo_user_to_device(cr, &x0, &y0);
    cairo_user_to_device(cr, &x1, &y1);
    x0 = round(x0); y0 = round(y0); x1 = round(x1); y1 = round(y1);
    d[0] = (int)x0;
    d[1] = (int)y0;
    d[2] = (int)(x1 - x0);
    d[3] = (int)(y1 - y0);
    cairo_device_to_user(cr, &x0, &y0);
    cairo_device_to_user(cr, &x1, &y1);
    cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
    cairo_clip(cr);
}

/* How far past its own period anything of one image may be drawn, world
 * units: a boid, a tick of trail, the watched boid's rings, arrows and
 * lines, a predator's ring and marker. */
static double reach(const mur_renderer *r, const mur_panel_ctx *pc)
{
    const mur_look *lk = r->look;
    const mur_params *p = mur_flock_params(pc->f);
    double far = 2 * lk->boid_size + 4 * p->max_speed + 1;
    far += 2 * fmax(p->separation_radius, fmax(p->alignment_radius, p->cohesion_radius));
    mur_predator pr[MUR_MAX_PREDATORS];
    int np = mur_render_predators(lk, pc->f, pc->t, pr);
    for (int k = 0; k < np; k++)
        far = fmax(far, pr[k].radius + 2 * lk->boid_size + 0.02 * fmin(p->width, p->height));
    return far;
}

/* First and last periods along one axis that can show in [lo, hi]. */
static void periods(double lo, double hi, double size, double far, int *first, int *last)
{
    double a = floor((lo - far) / size), b = floor((hi + far) / size);
    double mid = floor((lo + hi) / 2 / size);
    a = fmax(a, mid - MAX_IMAGES / 2);
    b = fmin(b, mid + MAX_IMAGES / 2);
    *first = (int)a;
    *last = (int)b;
}

int mur_camera_draw(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, const mur_view *v, double x,
                    double y, double w, double h, const int *start, int nb)
{
    const mur_params *p = mur_flock_params(pc->f);
    double fit = fmin(w / p->width, h / p->height), S = fit * v->zoom;
    double mx = x + w / 2, my = y + h / 2;
    double vw = fmin(w, p->width * fit * fmax(v->zoom, 1)), vh = fmin(h, p->height * fit * fmax(v->zoom, 1));
    double x0 = mx - vw / 2, x1 = mx + vw / 2, y0 = my - vh / 2, y1 = my + vh / 2;
    int wrap = p->boundary == MUR_BOUNDARY_WRAP;
    if (!wrap && p->boundary != MUR_BOUNDARY_OPEN) {   /* nothing lies outside a walled world */
        x0 = fmax(x0, mx - v->x * S);
        x1 = fmin(x1, mx + (p->width - v->x) * S);
        y0 = fmax(y0, my - v->y * S);
        y1 = fmin(y1, my + (p->height - v->y) * S);
        if (!(x1 > x0 && y1 > y0))
            return 0;
    }
    double keep[3] = {pc->ox, pc->oy, pc->scale};   /* the world's fit, for the panel's outline */
    pc->scale = S;
    int i0 = 0, i1 = 0, j0 = 0, j1 = 0, rc = 0;
    if (wrap) {
        double far = reach(r, pc);
        periods(v->x + (x0 - mx) / S, v->x + (x1 - mx) / S, p->width, far, &i0, &i1);
        periods(v->y + (y0 - my) / S, v->y + (y1 - my) / S, p->height, far, &j0, &j1);
    }
    cairo_save(cr);
    int d[4];
    clip_pixels(cr, x0, y0, x1, y1, d);
    const int none[4] = {0, 0, 0, 0};   /* the trails' layers hold one transform: stroke afresh */
    r->tiling = wrap;
    r->size_scale = r->look->camera_fixed_boids ? 1 / v->zoom : 1;
    r->cull[0] = v->x + (x0 - mx) / S;
    r->cull[1] = v->y + (y0 - my) / S;
    r->cull[2] = v->x + (x1 - mx) / S;
    r->cull[3] = v->y + (y1 - my) / S;
    r->tile_i0 = i0;
    r->tile_i1 = i1;
    r->tile_j0 = j0;
    r->tile_j1 = j1;
    /* Layer by layer across the images, so that each lies over the one
     * below in every image, as in the world drawn alone: one image's trails
     * never cover a neighbour's arrows. The trails of every image go into
     * one path per stroke (trails.c), where the joints of a trail crossing
     * a seam overlap once, as they do inside the world: drawn once, from
     * image 0. */
    for (int layer = 0; layer < MUR_LAYERS && !rc; layer++) {
        int one = layer == MUR_LAYER_TRAILS && wrap;
        for (int j = one ? 0 : j0; j <= (one ? 0 : j1) && !rc; j++)
            for (int i = one ? 0 : i0; i <= (one ? 0 : i1) && !rc; i++) {
                pc->ox = mx + (i * p->width - v->x) * S;
                pc->oy = my + (j * p->height - v->y) * S;
                r->tile_dx = i * p->width;
                r->tile_dy = j * p->height;
                cairo_save(cr);
                cairo_translate(cr, pc->ox, pc->oy);
                cairo_scale(cr, S, S);
                rc = mur_draw_world(r, cr, pc, start, nb, none, layer);
                cairo_restore(cr);
            }
    }
    r->tiling = 0;
    r->size_scale = 0;
    pc->ox = keep[0];
    pc->oy = keep[1];
    pc->scale = keep[2];
    pc->view[0] = x0;
    pc->view[1] = y0;
    pc->view[2] = x1 - x0;
    pc->view[3] = y1 - y0;
    cairo_restore(cr);
    return rc;
}
