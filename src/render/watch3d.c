/* The one-boid view in a 3D world (docs/scenes.md `look.overlays[].watch`,
 * "In a 3D world"): the watched bird and the birds it reacts to, seen
 * through the camera.
 *
 * Its neighbours are the 3D ones: within the perception radius (the larger
 * of the alignment and cohesion radii) by the nearest image, inside the
 * field of view's cone around its heading, as the 2D view takes them in the
 * plane. Each is joined to it by a line and ringed, the lines drawn far to
 * near and each as wide as the world's scale at its middle, so a
 * neighbour behind the bird reads as behind; those within the separation
 * radius are in the separation colour. The perception and separation
 * spheres are drawn as the discs they project to around the bird. The
 * steering arrows of the 2D view are not drawn: the engine's rule vectors
 * are given in the plane only (mur_flock_rules).
 *
 * All of it is drawn after the birds, on the caller's thread, in an order
 * fixed by depth and index: the same bytes on any thread count. */
#include "internal.h"
#include "view3d.h"
#include "murmur/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Okabe-Ito's vermillion (separation) and a pale line (the rest), as the
 * 2D view's dark theme: the sky is dark at the top, warm at the horizon. */
static const double sep_rgb[3] = {1.00, 0.43, 0.29}, see_rgb[3] = {0.93, 0.95, 0.97};

typedef struct {
    double d;      /* the line's middle, depth */
    int j;         /* the neighbour's row */
    int close;     /* within the separation radius */
    double off[3]; /* from the bird to it, nearest image */
} link3;

static int far_first(const void *a, const void *b)
{
    const link3 *p = a, *q = b;
    if (p->d != q->d)
        return p->d > q->d ? -1 : 1;
    return (p->j > q->j) - (p->j < q->j);
}

/* Boid id's neighbours in 3D into *out (the caller frees it): how many, or
 * -1 (no such boid, memory short). Its row into *row. */
static int neighbours(const mur_flock *f, int id, int *row, link3 **out, int *nsep)
{
    *out = NULL;
    *nsep = 0;
    int i = mur_flock_row(f, id), n = mur_flock_count(f);
    if (i < 0)
        return -1;
    *row = i;
    const mur_params *p = mur_flock_params(f);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f), *z = mur_flock_z(f);
    double a[3] = {x[i], y[i], z[i]}, h[3] = {mur_flock_vx(f)[i], mur_flock_vy(f)[i], mur_flock_vz(f)[i]};
    double hl = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    double per = fmax(p->alignment_radius, p->cohesion_radius), cos_half = cos(p->fov * MUR_PI / 360);
    link3 *l = mur_malloc((size_t)(n > 0 ? n : 1) * sizeof *l);
    if (!l)
        return -1;
    int m = 0;
    for (int j = 0; j < n; j++) {
        if (j == i)
            continue;
        double b[3] = {x[j], y[j], z[j]}, o[3];
        mur_params_offset3(p, a, b, o);
        double d = sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
        if (!(d > 0 && d < per))
            continue;
        if (p->fov < 360 && hl > 0 && o[0] * h[0] + o[1] * h[1] + o[2] * h[2] < cos_half * hl * d)
            continue;
        l[m] = (link3){0, j, d < p->separation_radius, {o[0], o[1], o[2]}};
        *nsep += l[m].close;
        m++;
    }
    *out = l;
    return m;
}

int mur_watch3d_draw(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, const mur_view3d *v)
{
    const mur_look *lk = r->look;
    const mur_params *p = mur_flock_params(pc->f);
    for (int k = 0; k < lk->noverlays; k++) {
        const mur_overlay *o = &lk->overlays[k];
        if (o->kind != MUR_OVERLAY_WATCH)
            continue;
        link3 *l;
        int row = -1, nsep, m = neighbours(pc->f, o->boid, &row, &l, &nsep);
        if (m < 0) {
            mur_free(l);
            if (row >= 0)
                return -1;   /* memory */
            continue;        /* no such boid now */
        }
        double a[3] = {mur_flock_x(pc->f)[row], mur_flock_y(pc->f)[row], mur_flock_z(pc->f)[row]};
        mur_view3d_image(v, a);
        double ax, ay, ad, as;
        if (!mur_view3d_project(v, a, &ax, &ay, &ad, &as) || !mur_titles_overlay_begin(r, cr, MUR_OVERLAY_WATCH)) {
            mur_free(l);
            continue;
        }
        for (int q = 0; q < m; q++) {   /* depth of each line's middle */
            double mid[3] = {a[0] + 0.5 * l[q].off[0], a[1] + 0.5 * l[q].off[1], a[2] + 0.5 * l[q].off[2]};
            double mx, my, md, ms;
            l[q].d = mur_view3d_project(v, mid, &mx, &my, &md, &ms) ? md : -INFINITY;
        }
        qsort(l, (size_t)m, sizeof *l, far_first);
        double len = fmax(lk->boid_size * as, 1.5);
        cairo_save(cr);
        /* the spheres, as the discs they show as around the bird */
        double per = fmax(p->alignment_radius, p->cohesion_radius) * as, sep = p->separation_radius * as;
        if (per < 4 * fmax(v->w, v->h)) {
            cairo_new_path(cr);
            cairo_arc(cr, ax, ay, per, 0, 2 * MUR_PI);
            cairo_set_source_rgba(cr, see_rgb[0], see_rgb[1], see_rgb[2], 0.08);
            cairo_fill_preserve(cr);
            cairo_set_source_rgba(cr, see_rgb[0], see_rgb[1], see_rgb[2], 0.6);
            cairo_set_line_width(cr, fmax(0.1 * len, 0.8));
            cairo_stroke(cr);
            cairo_new_path(cr);
            cairo_arc(cr, ax, ay, sep, 0, 2 * MUR_PI);
            cairo_set_source_rgba(cr, sep_rgb[0], sep_rgb[1], sep_rgb[2], 0.14);
            cairo_fill_preserve(cr);
            double dash = fmax(0.5 * len, 2);
            cairo_set_dash(cr, &dash, 1, 0);
            cairo_set_source_rgba(cr, sep_rgb[0], sep_rgb[1], sep_rgb[2], 0.95);
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
        }
        /* the neighbours, far to near: a line to each and a ring round it */
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
        for (int q = 0; q < m; q++) {
            double b[3] = {a[0] + l[q].off[0], a[1] + l[q].off[1], a[2] + l[q].off[2]};
            double mid[3] = {a[0] + 0.5 * l[q].off[0], a[1] + 0.5 * l[q].off[1], a[2] + 0.5 * l[q].off[2]};
            double bx, by, bd, bs, mx, my, md, ms;
            if (!mur_view3d_project(v, b, &bx, &by, &bd, &bs) || !mur_view3d_project(v, mid, &mx, &my, &md, &ms))
                continue;
            const double *c = l[q].close ? sep_rgb : see_rgb;
            double w = fmin(fmax(0.12 * lk->boid_size * ms, 0.6), 0.5 * len + 2);
            cairo_set_source_rgba(cr, c[0], c[1], c[2], 0.85);
            cairo_set_line_width(cr, w);
            cairo_move_to(cr, ax, ay);
            cairo_line_to(cr, bx, by);
            cairo_stroke(cr);
            double bl = fmax(lk->boid_size * bs, 1.5);
            cairo_new_path(cr);
            cairo_arc(cr, bx, by, 0.75 * bl + w, 0, 2 * MUR_PI);
            cairo_set_line_width(cr, fmax(0.12 * bl, 0.8));
            cairo_stroke(cr);
        }
        /* the watched bird: a halo */
        cairo_new_path(cr);
        cairo_arc(cr, ax, ay, 0.85 * len + 1, 0, 2 * MUR_PI);
        cairo_set_source_rgba(cr, 1, 1, 1, 0.95);
        cairo_set_line_width(cr, fmax(0.16 * len, 1));
        cairo_stroke(cr);
        cairo_restore(cr);
        mur_titles_overlay_end(r, cr, MUR_OVERLAY_WATCH);
        mur_free(l);
    }
    return 0;
}

void mur_watch3d_legend(mur_panel_ctx *pc, const mur_overlay *o)
{
    mur_renderer *r = pc->r;
    cairo_t *cr = pc->cr;
    const mur_params *p = mur_flock_params(pc->f);
    link3 *l;
    int row = -1, nsep, m = neighbours(pc->f, o->boid, &row, &l, &nsep);
    mur_free(l);
    if (m < 0)
        return;
    double u = pc->u, fs = 2.0 * u, pad = 0.9 * u, icon = 3.2 * u, w, h;
    char rows[3][96];
    snprintf(rows[0], sizeof rows[0], "boid %d, its neighbours in 3D:", o->boid);
    snprintf(rows[1], sizeof rows[1], "too close: within %g (%d)", p->separation_radius, nsep);
    snprintf(rows[2], sizeof rows[2], "sees: within %g (%d)", fmax(p->alignment_radius, p->cohesion_radius), m);
    double tw = 0, rowh = 0;
    for (int k = 0; k < 3; k++) {
        mur_text_set(&r->text, rows[k], fs, k == 0, 0);
        mur_text_size(&r->text, &w, &h);
        tw = fmax(tw, w + (k ? icon : 0));
        rowh = fmax(rowh, h);
    }
    double bw = tw + 2 * pad, bh = 3 * rowh + 2 * pad, x, y;
    mur_stack_place(pc->stacks, MUR_CORNER_BOTTOM_LEFT, bw, bh, &x, &y);
    mur_box(cr, x, y, bw, bh, 0.8 * u, r->theme.box, 1);
    for (int k = 0; k < 3; k++) {
        double ry = y + pad + k * rowh, cy = ry + rowh / 2, ix = x + pad;
        mur_text_set(&r->text, rows[k], fs, k == 0, 0);
        mur_text_draw(&r->text, cr, ix + (k ? icon : 0), ry, r->theme.fg, 1);
        if (!k)
            continue;
        const double *c = k == 1 ? sep_rgb : see_rgb;
        cairo_new_path(cr);
        cairo_move_to(cr, ix, cy);
        cairo_line_to(cr, ix + icon - 1.4 * u, cy);
        cairo_set_source_rgba(cr, c[0], c[1], c[2], 1);
        cairo_set_line_width(cr, 0.3 * u);
        cairo_stroke(cr);
        cairo_new_path(cr);
        cairo_arc(cr, ix + icon - 1.4 * u, cy, 0.5 * u, 0, 2 * MUR_PI);
        cairo_set_line_width(cr, 0.18 * u);
        cairo_stroke(cr);
    }
}
