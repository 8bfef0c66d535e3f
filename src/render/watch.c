/* The one-boid view (docs/scenes.md `look.overlays[].watch`), in either
 * world: the watched boid, the neighbours it reacts to and a legend box.
 *
 * Its neighbours are one set, taken in D components (z is 0 in a plane):
 * within the perception radius (the larger of the alignment and cohesion
 * radii) by the nearest image, inside the field of view around its heading,
 * the tests the step makes (watch_links). In the plane they are drawn in the
 * world (under the world transform, with the copies a wrapping world shows):
 * perception and separation rings (the field-of-view sector of them), lines
 * to the neighbours, and over the boids a halo and the engine's own rule
 * vectors (mur_flock_rules) as arrows, not a recomputation. In a 3D world
 * they are seen through the camera (mur_watch3d_draw): each neighbour
 * joined and ringed, the lines far to near and each as wide as the world's
 * scale at its middle, so a neighbour behind the bird reads as behind; the
 * perception and separation spheres as the discs they project to. The
 * steering arrows are not drawn there: the rule vectors are given in the
 * plane only. The legend is one box for both, its rows what the view shows.
 *
 * All of it is drawn on the caller's thread, in an order fixed by depth and
 * index: the same bytes on any thread count. */
#include "internal.h"
#include "view3d.h"
#include "murmur/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rule colours (Okabe-Ito, brightened for dark backgrounds): separation
 * vermillion, alignment sky blue, cohesion yellow. Distinct for the common
 * colour-vision deficiencies. */
static const double rule_dark[3][3] = {{1.00, 0.43, 0.29}, {0.34, 0.71, 0.91}, {0.94, 0.89, 0.26}};
static const double rule_light[3][3] = {{0.84, 0.30, 0.00}, {0.00, 0.45, 0.70}, {0.75, 0.60, 0.00}};
static const char *const rule_names[3] = {"separation", "alignment", "cohesion"};

static const double *rule_colour(const mur_renderer *r, int k)
{
    return r->theme.dark ? rule_dark[k] : rule_light[k];
}

int mur_render_watch_view(const mur_flock *f, int id, mur_watch_view *out, mur_error *err)
{
    memset(out, 0, sizeof *out);
    int i = mur_flock_row(f, id);   /* on a replay, the boid with that id */
    if (i < 0)
        return mur_error_set(err, MUR_EINPUT, "no boid %d to watch (the flock has %d)", id,
                             mur_flock_count(f));
    const mur_params *p = mur_flock_params(f);
    mur_rules rules;
    mur_flock_rules(f, i, &rules);
    out->x = mur_flock_x(f)[i];
    out->y = mur_flock_y(f)[i];
    out->vx = mur_flock_vx(f)[i];
    out->vy = mur_flock_vy(f)[i];
    out->sep_radius = p->separation_radius;
    out->ali_radius = p->alignment_radius;
    out->coh_radius = p->cohesion_radius;
    memcpy(out->steer[0], rules.sep_a, sizeof rules.sep_a);
    memcpy(out->steer[1], rules.ali_a, sizeof rules.ali_a);
    memcpy(out->steer[2], rules.coh_a, sizeof rules.coh_a);
    out->n_sep = rules.n_sep;
    out->n_ali = rules.n_ali;
    out->n_coh = rules.n_coh;
    /* A fixed scale per setting, not per frame, so an arrow's length means
     * the same all video long: the strongest contribution a rule can make
     * (normalize: weight x gain; steer: weight x the per-rule clamp) is
     * drawn 0.85 perception radii long. */
    double w[3] = {p->separation, p->alignment, p->cohesion};
    double g[3] = {p->gain_separation, p->gain_alignment, p->gain_cohesion};
    double ref = 0;
    for (int k = 0; k < 3; k++) {
        double m = p->combine == MUR_COMBINE_NORMALIZE
                       ? fabs(w[k] * g[k])
                       : fabs(w[k]) * (p->max_force > 0 ? p->max_force : 2 * p->max_speed);
        ref = fmax(ref, m);
    }
    double reach = fmax(p->separation_radius, fmax(p->alignment_radius, p->cohesion_radius));
    out->scale = ref > 0 ? 0.85 * reach / ref : 0;
    return MUR_OK;
}

/* A ring, or the field-of-view sector of it when the boid has a blind spot. */
static void ring_path(cairo_t *cr, double x, double y, double rad, double heading, double fov)
{
    cairo_new_sub_path(cr);
    if (fov >= 360) {
        cairo_arc(cr, x, y, rad, 0, 2 * MUR_PI);
        return;
    }
    double half = fov * MUR_PI / 360;
    cairo_move_to(cr, x, y);
    cairo_arc(cr, x, y, rad, heading - half, heading + half);
    cairo_close_path(cr);
}

static void set_rgba(cairo_t *cr, const double *rgb, double a)
{
    cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], a);
}

/* An arrow as one closed outline: shaft of half-width a, head of half-width
 * b and length hl (shortened for short arrows). */
static void arrow_path(cairo_t *cr, double x0, double y0, double x1, double y1, double a, double b,
                       double hl)
{
    double dx = x1 - x0, dy = y1 - y0, len = sqrt(dx * dx + dy * dy);
    if (len <= 0)
        return;
    double ux = dx / len, uy = dy / len, nx = -uy, ny = ux;
    if (hl > len * 0.6) {
        b *= len * 0.6 / hl;
        hl = len * 0.6;
    }
    double bx = x1 - ux * hl, by = y1 - uy * hl;
    cairo_move_to(cr, x0 + nx * a, y0 + ny * a);
    cairo_line_to(cr, bx + nx * a, by + ny * a);
    cairo_line_to(cr, bx + nx * b, by + ny * b);
    cairo_line_to(cr, x1, y1);
    cairo_line_to(cr, bx - nx * b, by - ny * b);
    cairo_line_to(cr, bx - nx * a, by - ny * a);
    cairo_line_to(cr, x0 - nx * a, y0 - ny * a);
    cairo_close_path(cr);
}

/* Okabe-Ito's vermillion (separation) and a pale line (the rest), as the
 * 2D view's dark theme: the sky is dark at the top, warm at the horizon. */
static const double sep_rgb[3] = {1.00, 0.43, 0.29}, see_rgb[3] = {0.93, 0.95, 0.97};

/* A neighbour of the watched boid: its row, the offset to it (nearest
 * image, z 0 in a plane), within the separation radius or not, and in 3D
 * the depth of the line's middle (for the far-to-near order). */
typedef struct watch_link {
    double d;
    int j;
    int close;
    double off[3];
} watch_link;

static int far_first(const void *a, const void *b)
{
    const watch_link *p = a, *q = b;
    if (p->d != q->d)
        return p->d > q->d ? -1 : 1;
    return (p->j > q->j) - (p->j < q->j);
}

/* The neighbours of the boid in row i into *out (the caller frees it), in
 * row order: how many, or -1 when memory is short; those within the
 * separation radius into *nsep. */
static int watch_links(const mur_flock *f, int i, watch_link **out, int *nsep)
{
    *nsep = 0;
    int n = mur_flock_count(f);
    const mur_params *p = mur_flock_params(f);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f), *z = mur_flock_z(f), *vz = mur_flock_vz(f);
    double a[3] = {x[i], y[i], z ? z[i] : 0}, h[3] = {mur_flock_vx(f)[i], mur_flock_vy(f)[i], vz ? vz[i] : 0};
    double hl = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    double per = fmax(p->alignment_radius, p->cohesion_radius), cos_half = cos(p->fov * MUR_PI / 360);
    watch_link *l = *out = mur_malloc((size_t)(n > 0 ? n : 1) * sizeof *l);
    if (!l)
        return -1;
    int m = 0;
    for (int j = 0; j < n; j++) {
        double b[3] = {x[j], y[j], z ? z[j] : 0}, o[3];
        mur_params_offset3(p, a, b, o);
        double d = sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
        if (j == i || !(d > 0 && d < per))
            continue;
        if (p->fov < 360 && hl > 0 && o[0] * h[0] + o[1] * h[1] + o[2] * h[2] < cos_half * hl * d)
            continue;
        l[m] = (watch_link){0, j, d < p->separation_radius, {o[0], o[1], o[2]}};
        *nsep += l[m].close;
        m++;
    }
    return m;
}

/* Under the boids, around the watched one at (cx, cy): perception and
 * separation rings (the field-of-view sector of them when it has a blind
 * spot) and lines to its neighbours l[0 .. m - 1]. */
static void watch_rings(mur_panel_ctx *pc, const mur_watch_view *v, const watch_link *l, int m, double cx,
                        double cy)
{
    cairo_t *cr = pc->cr;
    const mur_renderer *r = pc->r;
    const mur_params *p = mur_flock_params(pc->f);
    double size = r->look->boid_size, heading = atan2(v->vy, v->vx);
    double fov = (v->vx == 0 && v->vy == 0) ? 360 : p->fov;
    double per = fmax(v->ali_radius, v->coh_radius), lw = fmax(size * 0.1, 0.02);
    const double *line = r->theme.line, *sep = rule_colour(r, 0);
    /* perception: faint disc and ring (two rings when the radii differ) */
    ring_path(cr, cx, cy, per, heading, fov);
    set_rgba(cr, line, 0.10);
    cairo_fill(cr);
    cairo_set_line_width(cr, lw);
    ring_path(cr, cx, cy, v->ali_radius, heading, fov);
    if (v->coh_radius != v->ali_radius)
        ring_path(cr, cx, cy, v->coh_radius, heading, fov);
    set_rgba(cr, line, 0.8);
    cairo_stroke(cr);
    /* separation: tinted disc, dashed ring */
    ring_path(cr, cx, cy, v->sep_radius, heading, fov);
    set_rgba(cr, sep, 0.16);
    cairo_fill_preserve(cr);
    double dash = size * 0.5;
    cairo_set_dash(cr, &dash, 1, 0);
    set_rgba(cr, sep, 0.95);
    cairo_set_line_width(cr, lw * 1.3);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    /* lines to the neighbours it averages over, the too close ones last */
    cairo_set_line_width(cr, lw);
    for (int pass = 0; pass < 2; pass++) {
        cairo_new_path(cr);
        for (int q = 0; q < m; q++) {
            if ((pass == 1) != l[q].close)
                continue;
            cairo_move_to(cr, cx, cy);
            cairo_line_to(cr, cx + l[q].off[0], cy + l[q].off[1]);
        }
        set_rgba(cr, pass ? sep : line, pass ? 1 : 0.85);
        cairo_stroke(cr);
    }
}

/* Over the boids, on the watched one at (cx, cy): a halo and the rules'
 * arrows. */
static void watch_arrows(mur_panel_ctx *pc, const mur_watch_view *v, double cx, double cy)
{
    cairo_t *cr = pc->cr;
    const mur_renderer *r = pc->r;
    double size = r->look->boid_size;
    const mur_rgba *bg = &r->look->background;
    cairo_new_path(cr);
    cairo_arc(cr, cx, cy, size * 0.85, 0, 2 * MUR_PI);
    set_rgba(cr, r->theme.fg, 0.95);
    cairo_set_line_width(cr, size * 0.14);
    cairo_stroke(cr);
    for (int k = 0; k < 3; k++) {
        double ex = cx + v->steer[k][0] * v->scale, ey = cy + v->steer[k][1] * v->scale;
        cairo_new_path(cr);
        arrow_path(cr, cx, cy, ex, ey, size * 0.13, size * 0.42, size * 0.9);
        set_rgba(cr, rule_colour(r, k), 1);
        cairo_fill_preserve(cr);
        cairo_set_source_rgba(cr, bg->r, bg->g, bg->b, 0.9);   /* an outline against any boid */
        cairo_set_line_width(cr, size * 0.07);
        cairo_stroke(cr);
    }
}

void mur_watch_plane(mur_panel_ctx *pc, int over)
{
    const mur_look *lk = pc->r->look;
    const mur_params *p = mur_flock_params(pc->f);
    for (int k = 0; k < lk->noverlays; k++) {
        const mur_overlay *o = &lk->overlays[k];
        mur_watch_view v;
        if (o->kind != MUR_OVERLAY_WATCH || mur_render_watch_view(pc->f, o->boid, &v, NULL) ||
            !mur_titles_overlay_begin(pc->r, pc->cr, MUR_OVERLAY_WATCH))
            continue;
        watch_link *l = NULL;
        int nsep, m = over ? 0 : watch_links(pc->f, mur_flock_row(pc->f, o->boid), &l, &nsep);
        double ox[4], oy[4];
        int ng = mur_ghost_offsets(pc, p, v.x, v.y, fmax(v.ali_radius, v.coh_radius), ox, oy);
        cairo_save(pc->cr);
        for (int gk = 0; gk < ng; gk++) {
            if (over)
                watch_arrows(pc, &v, v.x + ox[gk], v.y + oy[gk]);
            else
                watch_rings(pc, &v, l, m, v.x + ox[gk], v.y + oy[gk]);
        }
        cairo_restore(pc->cr);
        mur_free(l);
        mur_titles_overlay_end(pc->r, pc->cr, MUR_OVERLAY_WATCH);
    }
}

int mur_watch3d_draw(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, const mur_view3d *v)
{
    const mur_look *lk = r->look;
    const mur_params *p = mur_flock_params(pc->f);
    for (int k = 0; k < lk->noverlays; k++) {
        const mur_overlay *o = &lk->overlays[k];
        if (o->kind != MUR_OVERLAY_WATCH)
            continue;
        int row = mur_flock_row(pc->f, o->boid), nsep;
        if (row < 0)
            continue;   /* no such boid now */
        watch_link *l;
        int m = watch_links(pc->f, row, &l, &nsep);
        if (m < 0)
            return -1;   /* memory */
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

/* The legend's icons beside its rows: a rule's arrow (0, 1, 2), the
 * separation disc and the perception ring of the plane's view, a line to a
 * ringed neighbour (too close, seen) of the 3D one. */
enum { ICON_NONE = -1, ICON_SEP_DISC = 3, ICON_SEES_RING, ICON_SEP_LINK, ICON_SEES_LINK };

static void legend_icon(mur_panel_ctx *pc, int kind, double ix, double cy, double icon)
{
    cairo_t *cr = pc->cr;
    const mur_renderer *r = pc->r;
    double u = pc->u;
    cairo_new_path(cr);
    if (kind >= 0 && kind < 3) {
        arrow_path(cr, ix, cy, ix + icon - 1.0 * u, cy, 0.22 * u, 0.6 * u, 1.1 * u);
        set_rgba(cr, rule_colour(r, kind), 1);
        cairo_fill(cr);
    } else if (kind == ICON_SEP_DISC) {
        cairo_arc(cr, ix + 1.3 * u, cy, 1.0 * u, 0, 2 * MUR_PI);
        set_rgba(cr, rule_colour(r, 0), 0.25);
        cairo_fill_preserve(cr);
        double dash = 0.45 * u;
        cairo_set_dash(cr, &dash, 1, 0);
        set_rgba(cr, rule_colour(r, 0), 1);
        cairo_set_line_width(cr, 0.2 * u);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    } else if (kind == ICON_SEES_RING) {
        cairo_arc(cr, ix + 1.3 * u, cy, 1.0 * u, 0, 2 * MUR_PI);
        set_rgba(cr, r->theme.line, 0.8);
        cairo_set_line_width(cr, 0.15 * u);
        cairo_stroke(cr);
        cairo_move_to(cr, ix + 1.3 * u, cy);
        cairo_line_to(cr, ix + 2.9 * u, cy - 0.6 * u);
        cairo_stroke(cr);
    } else if (kind == ICON_SEP_LINK || kind == ICON_SEES_LINK) {
        const double *c = kind == ICON_SEP_LINK ? sep_rgb : see_rgb;
        cairo_move_to(cr, ix, cy);
        cairo_line_to(cr, ix + icon - 1.4 * u, cy);
        set_rgba(cr, c, 1);
        cairo_set_line_width(cr, 0.3 * u);
        cairo_stroke(cr);
        cairo_new_path(cr);
        cairo_arc(cr, ix + icon - 1.4 * u, cy, 0.5 * u, 0, 2 * MUR_PI);
        cairo_set_line_width(cr, 0.18 * u);
        cairo_stroke(cr);
    }
}

/* The legend's rows: in the plane the steering (the rules' weights and
 * arrows) and the radii with the engine's neighbour counts; in 3D the
 * radii with the neighbours counted in 3D. How many rows, or 0: no such
 * boid now, or memory short. Their icons into icons, the icons' width
 * into *iw. */
static int legend_rows(mur_panel_ctx *pc, const mur_overlay *o, char rows[][96], int icons[], double *iw)
{
    const mur_params *p = mur_flock_params(pc->f);
    int row = mur_flock_row(pc->f, o->boid), n = 0;
    if (row < 0)
        return 0;
    double per = fmax(p->alignment_radius, p->cohesion_radius);
    if (mur_flock_z(pc->f)) {
        watch_link *l;
        int nsep, m = watch_links(pc->f, row, &l, &nsep);
        mur_free(l);
        if (m < 0)
            return 0;
        *iw = 3.2 * pc->u;
        icons[n] = ICON_NONE;
        snprintf(rows[n++], 96, "boid %d, its neighbours in 3D:", o->boid);
        icons[n] = ICON_SEP_LINK;
        snprintf(rows[n++], 96, "too close: within %g (%d)", p->separation_radius, nsep);
        icons[n] = ICON_SEES_LINK;
        snprintf(rows[n++], 96, "sees: within %g (%d)", per, m);
        return n;
    }
    mur_watch_view v;
    mur_render_watch_view(pc->f, o->boid, &v, NULL);
    double weights[3] = {p->separation, p->alignment, p->cohesion};
    *iw = 4.2 * pc->u;
    icons[n] = ICON_NONE;
    snprintf(rows[n++], 96, "boid %d, its steering:", o->boid);
    for (int k = 0; k < 3; k++) {
        icons[n] = k;
        snprintf(rows[n++], 96, "%s \xc3\x97%.2f", rule_names[k], weights[k]);
    }
    icons[n] = ICON_SEP_DISC;
    snprintf(rows[n++], 96, "too close: within %g", v.sep_radius);
    icons[n] = ICON_SEES_RING;
    if (v.ali_radius == v.coh_radius)
        snprintf(rows[n++], 96, "sees: within %g (%d)", v.ali_radius, v.n_coh);
    else
        snprintf(rows[n++], 96, "sees: ali %g (%d), coh %g (%d)", v.ali_radius, v.n_ali, v.coh_radius,
                 v.n_coh);
    return n;
}

void mur_watch_legend(mur_panel_ctx *pc, const mur_overlay *o)
{
    mur_renderer *r = pc->r;
    char rows[6][96];
    int icons[6];
    double icon = 0, u = pc->u, fs = 2.0 * u, pad = 0.9 * u, w, h, tw = 0, rowh = 0;
    int n = legend_rows(pc, o, rows, icons, &icon);
    for (int k = 0; k < n; k++) {
        mur_text_set(&r->text, rows[k], fs, k == 0, 0);
        mur_text_size(&r->text, &w, &h);
        tw = fmax(tw, w + (k ? icon : 0));
        rowh = fmax(rowh, h);
    }
    if (!n)
        return;
    double bw = tw + 2 * pad, bh = n * rowh + 2 * pad, x, y;
    mur_stack_place(pc->stacks, MUR_CORNER_BOTTOM_LEFT, bw, bh, &x, &y);
    mur_box(pc->cr, x, y, bw, bh, 0.8 * u, r->theme.box, 1);
    for (int k = 0; k < n; k++) {
        double ry = y + pad + k * rowh, ix = x + pad;
        mur_text_set(&r->text, rows[k], fs, k == 0, 0);
        mur_text_draw(&r->text, pc->cr, ix + (k ? icon : 0), ry, r->theme.fg, 1);
        legend_icon(pc, icons[k], ix, ry + rowh / 2, icon);
    }
}

