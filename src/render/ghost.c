/* A twin drawn as a ghost (render.h, mur_renderer_set_ghost): the outline
 * of every boid of a second flock over the first, in a colour the first
 * never takes, so a lecture can show two flocks that look like one for
 * hundreds of ticks and then part.
 *
 * The twin is moved back by its shift before it is drawn: a twin shifted
 * by half the box is drawn where its original flies, and any gap between
 * a boid and its outline is the divergence itself. Outlines are stroked,
 * not filled, so the first flock stays visible underneath, at the size the
 * boids are drawn (a camera may keep them at their zoom-1 size). A 3D
 * world's twin is moved back along z too and seen through the panel's
 * camera: each bird's silhouette outlined, or ringed where it is a speck
 * (view3d.c, mur_view3d_outlines). */
#include <math.h>

#include "internal.h"
#include "view3d.h"

/* Ghost colours: a magenta far from the boids' greens, blues and the
 * heading wheel's mid tones, light on a dark background, deep on a light one. */
static const double ghost_dark[3] = {1.0, 0.37, 0.82};
static const double ghost_light[3] = {0.69, 0.06, 0.44};

static double fold(double x, double w)
{
    x = fmod(x, w);
    return x < 0 ? x + w : x;
}

int mur_ghost_draw(mur_renderer *r, cairo_t *cr, int panel)
{
    const mur_panel_state *ps = &r->panels[panel];
    const mur_flock *g = ps->ghost;
    if (!g)
        return MUR_OK;
    const mur_look *lk = r->look;
    const mur_params *p = mur_flock_params(g);
    const double *x = mur_flock_x(g), *y = mur_flock_y(g), *vx = mur_flock_vx(g), *vy = mur_flock_vy(g);
    double size = mur_boid_size(r), w = p->width, h = p->height;
    int wrap = p->boundary == MUR_BOUNDARY_WRAP, n = mur_flock_count(g);
    /* a camera's periodic images each draw the ghost: a boid on the seam
     * is drawn by the image beside, as the flock's own boids are */
    int seams = wrap && !r->tiling;
    /* a line a tenth of a boid, and never under a pixel */
    double lw = 1, zero = 0;
    cairo_device_to_user_distance(cr, &lw, &zero);
    cairo_save(cr);
    cairo_set_line_width(cr, fmax(size * 0.1, fabs(lw)));
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_new_path(cr);
    for (int i = 0; i < n; i++) {
        if (i && i % MUR_POLL_BOIDS == 0 && mur_render_stopped(r)) {
            cairo_new_path(cr);
            cairo_restore(cr);
            return MUR_EINTR;
        }
        double bx = x[i] - ps->ghost_shift[0], by = y[i] - ps->ghost_shift[1];
        if (wrap) {
            bx = fold(bx, w);
            by = fold(by, h);
        }
        double l = sqrt(vx[i] * vx[i] + vy[i] * vy[i]);
        double ux = l > 0 ? vx[i] / l : 1, uy = l > 0 ? vy[i] / l : 0;
        mur_boid_path(cr, lk->shape, size, bx, by, ux, uy);
        /* on the seam, its copies too, as the flock's own boids are */
        double sx = seams ? (bx < size ? w : bx > w - size ? -w : 0) : 0;
        double sy = seams ? (by < size ? h : by > h - size ? -h : 0) : 0;
        if (sx != 0)
            mur_boid_path(cr, lk->shape, size, bx + sx, by, ux, uy);
        if (sy != 0)
            mur_boid_path(cr, lk->shape, size, bx, by + sy, ux, uy);
        if (sx != 0 && sy != 0)
            mur_boid_path(cr, lk->shape, size, bx + sx, by + sy, ux, uy);
    }
    const double *c = r->theme.dark ? ghost_dark : ghost_light;
    cairo_set_source_rgba(cr, c[0], c[1], c[2], 0.9);
    cairo_stroke(cr);
    cairo_restore(cr);
    return MUR_OK;
}

int mur_ghost_draw3(mur_renderer *r, cairo_t *cr, const mur_panel_ctx *pc, const struct mur_view3d *v,
                    const struct mur_view3d_style *st)
{
    const mur_panel_state *ps = &r->panels[pc->index];
    const mur_flock *g = ps->ghost;
    if (!g || !mur_flock_z(g))
        return MUR_OK;
    const mur_params *p = mur_flock_params(g);
    int wrap = p->boundary == MUR_BOUNDARY_WRAP;
    double box[3] = {wrap ? p->width : 0, wrap ? p->height : 0, wrap ? p->depth : 0};
    mur_view3d_style gs = *st;
    gs.up = mur_flock_up(g);   /* the twin's own bank, not its original's */
    cairo_save(cr);
    cairo_new_path(cr);
    mur_view3d_outlines(cr, v, &gs, (size_t)mur_flock_count(g), mur_flock_x(g), mur_flock_y(g), mur_flock_z(g),
                        mur_flock_vx(g), mur_flock_vy(g), mur_flock_vz(g), mur_flock_ids(g), pc->t, ps->ghost_shift,
                        box);
    /* a pixel's line on a 720-row frame, thicker on larger ones as the birds are */
    cairo_set_line_width(cr, fmax(1.0, v->h / 720.0));
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    const double *c = r->theme.dark ? ghost_dark : ghost_light;
    cairo_set_source_rgba(cr, c[0], c[1], c[2], 0.9);
    cairo_stroke(cr);
    cairo_restore(cr);
    return mur_render_stopped(r) ? MUR_EINTR : MUR_OK;
}
