/* A 3D world's frame as a paper's figure (docs/scenes.md `camera.views`):
 * the perspective view beside the box's three orthographic projections at
 * the same instant, top (x-y, seen from above), front (x-z, from -y) and
 * side (y-z, from +x), each under its title, with its axes ticked and
 * numbered in world units.
 *
 * The three projections share one scale, so a length reads the same in
 * each and the top view's x lines up with the front view's: a wall of the
 * box is as long in every panel that shows it. Each plots the box (an open
 * world: the birds' bounding box, since nothing bounds them), filled with
 * the sky's horizon colour, and its birds drawn as the camera draws them
 * (silhouettes or points, look.boid.size long) but without haze or depth
 * of field: a figure shows where each bird is, not how far. Each panel is
 * its own clip, so a vector still holds one clip group per view.
 *
 * Without `views` a frame is the camera's view alone, drawn by frame3d.c
 * as before: this file adds nothing to it. */
#include "internal.h"
#include "view3d.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const titles[] = {"perspective", "top (x-y)", "front (x-z)", "side (y-z)"};

/* Which world axes a projection plots across and up (0 x, 1 y, 2 z), and
 * the unit vector it looks along and its picture's up. */
static const int across[4] = {0, 0, 0, 1}, upward[4] = {0, 1, 2, 2};
static const double look_along[4][3] = {{0, 0, 0}, {0, 0, -1}, {0, 1, 0}, {-1, 0, 0}};
static const double picture_up[4][3] = {{0, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 1}};

/* What the projections show: the box, or in an open world where the birds
 * are (padded by a twentieth and a bird's length). lo, hi per axis. */
static void extent(const mur_look *lk, const mur_flock *f, double lo[3], double hi[3])
{
    const mur_params *p = mur_flock_params(f);
    double size[3] = {p->width, p->height, p->depth};
    for (int k = 0; k < 3; k++)
        lo[k] = 0, hi[k] = size[k];
    int n = mur_flock_count(f);
    if (p->boundary != MUR_BOUNDARY_OPEN || n < 1)
        return;
    const double *c[3] = {mur_flock_x(f), mur_flock_y(f), mur_flock_z(f)};
    for (int k = 0; k < 3; k++) {
        double a = c[k][0], b = c[k][0];
        for (int i = 1; i < n; i++)
            a = fmin(a, c[k][i]), b = fmax(b, c[k][i]);
        double pad = 0.05 * (b - a) + lk->boid_size;
        lo[k] = a - pad, hi[k] = b + pad;
    }
}

/* Ticks along [lo, hi] a step apart (1, 2 or 5 times a power of ten, about
 * five of them). */
static double tick_step(double lo, double hi)
{
    double span = hi - lo, e = pow(10, floor(log10(span / 5))), m = span / 5 / e;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * e;
}

/* The room a projection's cell keeps around its plot for the title, the
 * tick labels and the axis names, user units. */
typedef struct {
    double left, right, top, bottom;
} margins;

static margins room(double u)
{
    return (margins){6.8 * u, 1.6 * u, 1.0 * u, 5.4 * u};
}

/* One projection, its plot (rx, ry, pw, ph) at scale S (pixels per world
 * unit) of the world's [lo, hi]: the fill, the birds, the outline, the
 * ticks and the axis names. */
static int projection(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, int kind, double rx, double ry, double pw,
                      double ph, double S, const double lo[3], const double hi[3])
{
    const mur_look *lk = r->look;
    const mur_flock *f = pc->f;
    double u = pc->u;
    int a = across[kind], b = upward[kind], n = mur_flock_count(f);
    double rgb_fill[3] = {lk->sky_horizon.r, lk->sky_horizon.g, lk->sky_horizon.b};
    cairo_save(cr);
    cairo_rectangle(cr, rx, ry, pw, ph);
    cairo_clip(cr);
    cairo_set_source_rgb(cr, rgb_fill[0], rgb_fill[1], rgb_fill[2]);
    cairo_paint(cr);
    int rc = 0;
    if (n > 0) {
        /* an orthographic camera outside the extent, looking along the
         * projection's axis at its centre, S pixels a world unit */
        mur_view3d v;
        memset(&v, 0, sizeof v);
        v.mode = MUR_VIEW_ORTHOGRAPHIC;
        double far = 0;
        for (int k = 0; k < 3; k++)
            far = fmax(far, hi[k] - lo[k]);
        for (int k = 0; k < 3; k++) {
            v.target[k] = 0.5 * (lo[k] + hi[k]);
            v.pos[k] = v.target[k] - (far + 1) * look_along[kind][k];
            v.up[k] = picture_up[kind][k];
        }
        v.w = (int)ceil(pw);
        v.h = (int)ceil(ph);
        v.height = v.h / S;
        v.near = -1e300;   /* every bird, wherever it is along the axis */
        char why[120];
        if (mur_view3d_init(&v, why, sizeof why) == 0) {
            mur_view3d_style st = {
                .bird = mur_rgb24(lk->boid_color),
                .len_world = lk->boid_size,
                .min_px = 1.5,
                .wing_freq = lk->wingbeat,
                .points = lk->birds == MUR_BIRDS_POINTS,
            };
            cairo_save(cr);
            /* the view's centre on the plot's */
            cairo_translate(cr, rx + 0.5 * pw - 0.5 * v.w, ry + 0.5 * ph - 0.5 * v.h);
            cairo_set_antialias(cr, CAIRO_ANTIALIAS_GOOD);
            rc = mur_view3d_birds(cr, &v, &st, (size_t)n, mur_flock_x(f), mur_flock_y(f), mur_flock_z(f),
                                  mur_flock_vx(f), mur_flock_vy(f), mur_flock_vz(f), mur_flock_ids(f), pc->t,
                                  NULL);
            if (!rc)   /* a twin's ghost, projected as its birds are */
                rc = mur_ghost_draw3(r, cr, pc, &v, &st);
            cairo_restore(cr);
        }
    }
    cairo_restore(cr);
    /* the outline, ticks outward, numbered in world units */
    const double *fg = r->theme.fg;
    double lw = fmax(0.12 * u, 0.5), tl = 0.7 * u, fs = mur_legible_size(1.7 * u, fmin(r->width, r->height));
    cairo_save(cr);
    cairo_set_line_width(cr, lw);
    cairo_set_source_rgba(cr, fg[0], fg[1], fg[2], 0.8);
    cairo_rectangle(cr, rx, ry, pw, ph);
    cairo_stroke(cr);
    for (int axis = 0; axis < 2; axis++) {
        int k = axis ? b : a;
        double step = tick_step(lo[k], hi[k]);
        for (double t = ceil(lo[k] / step - 1e-9) * step; t <= hi[k] + 1e-9 * step; t += step) {
            double at = axis ? ry + ph - (t - lo[k]) * S : rx + (t - lo[k]) * S, tw, th;
            char lab[40];
            snprintf(lab, sizeof lab, "%g", fabs(t) < 1e-9 * step ? 0 : t);
            mur_text_set(&r->text, lab, fs, 0, 0);
            mur_text_size(&r->text, &tw, &th);
            cairo_set_source_rgba(cr, fg[0], fg[1], fg[2], 0.8);
            if (axis) {
                cairo_move_to(cr, rx, at);
                cairo_line_to(cr, rx - tl, at);
                cairo_stroke(cr);
                mur_text_draw(&r->text, cr, rx - tl - 0.4 * u - tw, at - th / 2, fg, 0.85);
            } else {
                cairo_move_to(cr, at, ry + ph);
                cairo_line_to(cr, at, ry + ph + tl);
                cairo_stroke(cr);
                mur_text_draw(&r->text, cr, at - tw / 2, ry + ph + tl + 0.2 * u, fg, 0.85);
            }
        }
    }
    /* the axis names, in italics as a paper sets them */
    static const char *const names[3] = {"<i>x</i>", "<i>y</i>", "<i>z</i>"};
    double nw, nh, ns = mur_legible_size(2.1 * u, fmin(r->width, r->height));
    mur_text_set_markup_left(&r->text, names[a], ns);
    mur_text_size(&r->text, &nw, &nh);
    mur_text_draw(&r->text, cr, rx + pw / 2 - nw / 2, ry + ph + tl + 2.3 * u, fg, 1);
    mur_text_set_markup_left(&r->text, names[b], ns);
    mur_text_size(&r->text, &nw, &nh);
    mur_text_draw(&r->text, cr, rx - room(u).left + 0.3 * u, ry + ph / 2 - nh / 2, fg, 1);
    cairo_restore(cr);
    return rc;
}

/* The title over a cell. */
static void title(mur_renderer *r, cairo_t *cr, const char *s, double x, double y, double w, double strip, double u)
{
    double tw, th;
    mur_text_set(&r->text, s, mur_legible_size(2.2 * u, fmin(r->width, r->height)), 1, 0);
    mur_text_size(&r->text, &tw, &th);
    mur_text_draw(&r->text, cr, x + (w - tw) / 2, y + (strip - th) / 2, r->theme.fg, 1);
}

int mur_views3d_wanted(const mur_look *lk)
{
    mur_camera cam = {0};
    if (lk->camera_at)
        lk->camera_at(lk->ctx, 0, &cam);
    return cam.view3d && cam.nviews > 0;
}

int mur_views3d_draw(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, double x, double y, double w, double h)
{
    const mur_look *lk = r->look;
    mur_camera cam = {0};
    if (lk->camera_at)
        lk->camera_at(lk->ctx, pc->t, &cam);
    int n = cam.view3d && cam.nviews > 0 && cam.nviews <= MUR_VIEWS_MAX ? cam.nviews : 0;
    if (!n)
        return mur_frame3d_draw(r, cr, pc, x, y, w, h);
    /* one to four cells: side by side, then two rows of two */
    int cols = n == 1 ? 1 : 2, rows = n <= 2 ? 1 : 2;
    double u = pc->u, gap = 1.2 * u, strip = 3.6 * u;
    double cw = (w - (cols - 1) * gap) / cols, ch = (h - (rows - 1) * gap) / rows;
    double lo[3], hi[3];
    extent(lk, pc->f, lo, hi);
    /* the projections' one scale: the least that fits each in its cell */
    margins m = room(u);
    double S = INFINITY;
    for (int k = 0; k < n; k++) {
        int kind = cam.views[k];
        if (kind == MUR_VIEWS_PERSPECTIVE)
            continue;
        double ea = hi[across[kind]] - lo[across[kind]], eb = hi[upward[kind]] - lo[upward[kind]];
        S = fmin(S, fmin((cw - m.left - m.right) / ea, (ch - strip - m.top - m.bottom) / eb));
    }
    int rc = 0;
    for (int k = 0; k < n && !rc; k++) {
        int kind = cam.views[k];
        double cx = x + (k % cols) * (cw + gap), cy = y + (k / cols) * (ch + gap);
        title(r, cr, titles[kind], cx, cy, cw, strip, u);
        if (kind == MUR_VIEWS_PERSPECTIVE) {
            rc = mur_frame3d_draw(r, cr, pc, cx, cy + strip, cw, ch - strip);
            continue;
        }
        if (!(S > 0) || !isfinite(S))
            continue;
        int a = across[kind], b = upward[kind];
        double pw = (hi[a] - lo[a]) * S, ph = (hi[b] - lo[b]) * S;
        /* centred across the room its margins leave, under its title */
        double ax = cx + m.left, ay = cy + strip + m.top;
        double aw = cw - m.left - m.right, ah = ch - strip - m.top - m.bottom;
        rc = projection(r, cr, pc, kind, ax + (aw - pw) / 2, ay + fmin(0.5 * u, (ah - ph) / 2), pw, ph, S, lo, hi);
    }
    return rc;
}
