/* Overlays: what turns a picture of a flock into an explanation.
 *
 * In the world (under the world transform): the one-boid view's rings,
 * neighbour lines and steering arrows, and predator markers. In the frame:
 * boxes stacked from the panel's corners (parameter line, readouts and
 * state top left, plots at their corner, the watch legend bottom left), the
 * clock bottom right, the caption bottom centre, panel labels. Text sizes
 * are in UI units (a hundredth of the panel's short side), so a 4K frame is
 * a sharp 1080p one and a PDF still is the PNG scaled. The one-boid view
 * is watch.c's. */
#include "internal.h"
#include "murmur/alloc.h"
#include "murmur/family.h"
#include "murmur/presets.h"
#include "murmur/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- plot samples --------------------------------------------------------- */

#define PLOT_SAMPLES 240   /* per window: smooth at any plot size on screen */

int mur_series_init(mur_series *s, const mur_overlay *o, double tps)
{
    double ticks = o->window * tps;
    int stride = ticks > PLOT_SAMPLES ? (int)floor(ticks / PLOT_SAMPLES) : 1;
    return mur_series_alloc(s, stride, (int)(ticks / stride) + 4);
}

int mur_series_alloc(mur_series *s, int stride, int cap)
{
    s->stride = stride;
    s->cap = cap;
    s->t = mur_malloc((size_t)s->cap * sizeof *s->t);
    s->v = mur_malloc((size_t)s->cap * sizeof *s->v);
    s->head = s->filled = 0;
    if (!s->t || !s->v) {
        mur_series_free(s);
        return -1;
    }
    return 0;
}

void mur_series_push(mur_series *s, double t, double v)
{
    s->head = s->filled ? (s->head + 1) % s->cap : 0;
    s->t[s->head] = t;
    s->v[s->head] = v;
    if (s->filled < s->cap)
        s->filled++;
}

void mur_series_free(mur_series *s)
{
    mur_free(s->t);
    mur_free(s->v);
    memset(s, 0, sizeof *s);
}

unsigned mur_overlays_metrics_wanted(const mur_look *lk)
{
    /* a plot of order, and a readout of order alone, take it from the
     * velocities: no neighbour search */
    unsigned want = 0;
    for (int k = 0; k < lk->noverlays; k++) {
        const mur_overlay *o = &lk->overlays[k];
        if (o->kind == MUR_OVERLAY_STATE)
            want |= 1u << MUR_METRIC_ORDER | 1u << MUR_METRIC_MILLING;
        if ((o->kind == MUR_OVERLAY_PLOT || o->kind == MUR_OVERLAY_FIGURE) && o->metric != 0)
            want |= 1u << o->metric;
        if (o->kind == MUR_OVERLAY_READOUT)
            for (int m = 0; m < o->nmetrics; m++)
                if (o->metrics[m] != 0)
                    want |= 1u << o->metrics[m];
    }
    return want;
}

/* Copies of a disc of radius rad at (x, y) that show inside a wrapping world
 * (none while the camera draws the world's periodic images one by one). */
int mur_ghost_offsets(const mur_panel_ctx *pc, const mur_params *p, double x, double y, double rad,
                         double ox[4], double oy[4])
{
    ox[0] = oy[0] = 0;
    if (p->boundary != MUR_BOUNDARY_WRAP || pc->r->tiling)   /* tiled: the next image draws it */
        return 1;
    double sx = x - rad < 0 ? p->width : (x + rad > p->width ? -p->width : 0);
    double sy = y - rad < 0 ? p->height : (y + rad > p->height ? -p->height : 0);
    int n = 1;
    if (sx != 0) { ox[n] = sx; oy[n] = 0; n++; }
    if (sy != 0) { ox[n] = 0; oy[n] = sy; n++; }
    if (sx != 0 && sy != 0) { ox[n] = sx; oy[n] = sy; n++; }
    return n;
}

static void set_rgba(cairo_t *cr, const double *rgb, double a)
{
    cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], a);
}


/* The scripted predators at the frame's time and the hunting ones where the
 * flock's last tick had them (they move themselves: no function of time
 * knows where). Returns how many, into pr (room for MUR_MAX_PREDATORS). */
int mur_render_predators(const mur_look *lk, const mur_flock *f, double t, mur_predator *pr)
{
    int np = lk->predators_at ? lk->predators_at(lk->ctx, t, pr, MUR_MAX_PREDATORS) : 0;
    np = np < 0 ? 0 : np < MUR_MAX_PREDATORS ? np : MUR_MAX_PREDATORS;   /* an embedder's function may overrun */
    int nf = 0;
    const mur_predator *own = f ? mur_flock_predators(f, &nf) : NULL;
    for (int k = 0; k < nf && np < MUR_MAX_PREDATORS; k++)
        if (own[k].hunting)
            pr[np++] = own[k];
    return np;
}

/* One segment of a predator's trail in the plane (mur_pred_trail_each):
 * fading with age, left out where it crosses a wrapping world's seam (the
 * two ends are then drawn on either side by their own segments). */
typedef struct plane_trail {
    mur_trail_strip strip;
    const double *rgb;
    double alpha, W, H;
    int wrap;
} plane_trail;

static void plane_trail_source(void *arg, double fade)
{
    const plane_trail *pt = arg;
    set_rgba(pt->strip.cr, pt->rgb, pt->alpha * fade);
}

static void plane_trail_segment(void *arg, const double a[3], const double b[3], double age)
{
    plane_trail *pt = arg;
    if (pt->wrap && (fabs(b[0] - a[0]) > pt->W / 2 || fabs(b[1] - a[1]) > pt->H / 2))
        return;
    mur_trail_strip_add(&pt->strip, a[0], a[1], b[0], b[1], age, plane_trail_source, pt);
}

static void predators(mur_panel_ctx *pc)
{
    const mur_look *lk = pc->r->look;
    mur_predator pr[MUR_MAX_PREDATORS];
    int np = mur_render_predators(lk, pc->f, pc->t, pr);
    if (!np)
        return;
    const mur_params *p = mur_flock_params(pc->f);
    cairo_t *cr = pc->cr;
    double m0 = fmax(lk->boid_size * 1.1, 0.01 * fmin(p->width, p->height));
    static const double flee[3] = {1.0, 0.30, 0.25}, attract[3] = {0.25, 0.85, 0.75};
    const mur_rgba *bg = &lk->background;
    cairo_save(cr);
    for (int k = 0; k < np; k++) {
        /* its own look (predators[].size, color, trail), else the marker of old */
        const mur_predator_look *pl = mur_predator_look_of(lk, &pr[k]);
        const double own[3] = {pl ? pl->color.r : 0, pl ? pl->color.g : 0, pl ? pl->color.b : 0};
        const double *c = pl && pl->has_color ? own : pr[k].attract ? attract : flee;
        double m = pl && pl->size > 0 ? pl->size / 2 : m0, op = pl && pl->has_color ? pl->color.a : 1;
        if (pl && pl->trail > 0) {   /* under the marker, in a state of its own */
            plane_trail pt = {{cr, 0, 0, 0, 0}, c, 0.8 * op, p->width, p->height, p->boundary == MUR_BOUNDARY_WRAP};
            cairo_save(cr);
            cairo_set_line_width(cr, m * 0.5);
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);   /* runs meet flush: no bead at a bin's edge */
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
            mur_pred_trail_each(pc->r->panels + pc->index, lk, &pr[k], pc->t, plane_trail_segment, &pt);
            mur_trail_strip_end(&pt.strip);
            cairo_restore(cr);
        }
        double ox[4], oy[4];
        int ng = mur_ghost_offsets(pc, p, pr[k].x, pr[k].y, pr[k].radius, ox, oy);
        for (int gk = 0; gk < ng; gk++) {
            double x = pr[k].x + ox[gk], y = pr[k].y + oy[gk];
            /* its reach: a faint dashed ring */
            cairo_new_path(cr);
            cairo_arc(cr, x, y, pr[k].radius, 0, 2 * MUR_PI);
            double dash[2] = {m * 0.6, m * 0.6};
            cairo_set_dash(cr, dash, 2, 0);
            cairo_set_line_width(cr, m * 0.12);
            set_rgba(cr, c, 0.55 * op);
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
            /* the marker: a disc with an x (flee) or a + (attract) */
            cairo_new_path(cr);
            cairo_arc(cr, x, y, m, 0, 2 * MUR_PI);
            set_rgba(cr, c, 0.95 * op);
            cairo_fill(cr);
            double a = m * 0.5;
            if (pr[k].attract) {
                cairo_move_to(cr, x - a, y);
                cairo_line_to(cr, x + a, y);
                cairo_move_to(cr, x, y - a);
                cairo_line_to(cr, x, y + a);
            } else {
                a *= 0.8;
                cairo_move_to(cr, x - a, y - a);
                cairo_line_to(cr, x + a, y + a);
                cairo_move_to(cr, x - a, y + a);
                cairo_line_to(cr, x + a, y - a);
            }
            cairo_set_source_rgb(cr, bg->r, bg->g, bg->b);
            cairo_set_line_width(cr, m * 0.28);
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
            cairo_stroke(cr);
        }
    }
    cairo_restore(cr);
}

void mur_overlays_world_over(mur_panel_ctx *pc)
{
    mur_watch_plane(pc, 1);
    if (mur_titles_overlay_begin(pc->r, pc->cr, MUR_LOOK_PREDATORS)) {
        predators(pc);
        mur_titles_overlay_end(pc->r, pc->cr, MUR_LOOK_PREDATORS);
    }
}

/* ---- boxes in the frame --------------------------------------------------- */

static void format_metric(int k, double v, char *buf, size_t n)
{
    snprintf(buf, n, "%.*f", mur_metric_info_at(k)->decimals, v);
}

static void readout(mur_panel_ctx *pc, const mur_overlay *o)
{
    mur_renderer *r = pc->r;
    mur_text *tx = &r->text;
    double u = pc->u, fs = 2.3 * u, pad = 0.9 * u, gap = 1.6 * u;
    double namew = 0, valw = 0, rowh = 0, w, h;
    char vals[8][32];
    for (int k = 0; k < o->nmetrics; k++) {
        int m = o->metrics[k];
        double v = pc->have_metrics ? mur_metrics_value(&pc->metrics, m)
                   : m == 0 ? mur_metrics_order_of(pc->f)
                            : 0;
        format_metric(m, v, vals[k], sizeof vals[k]);
        mur_text_set(tx, mur_metric_name(m), fs, 0, 0);
        mur_text_size(tx, &w, &h);
        namew = fmax(namew, w);
        rowh = fmax(rowh, h);
        mur_text_set(tx, vals[k], fs, 1, 0);
        mur_text_size(tx, &w, &h);
        valw = fmax(valw, w);
    }
    /* room for "0.00" always, so the box does not twitch as values change */
    mur_text_set(tx, "0.00", fs, 1, 0);
    mur_text_size(tx, &w, &h);
    valw = fmax(valw, w);
    double bw = namew + gap + valw + 2 * pad, bh = rowh * o->nmetrics + 2 * pad, x, y;
    mur_stack_place(pc->stacks, MUR_CORNER_TOP_LEFT, bw, bh, &x, &y);
    mur_box(pc->cr, x, y, bw, bh, 0.8 * u, r->theme.box, 1);
    for (int k = 0; k < o->nmetrics; k++) {
        double ry = y + pad + k * rowh;
        mur_text_set(tx, mur_metric_name(o->metrics[k]), fs, 0, 0);
        mur_text_draw(tx, pc->cr, x + pad, ry, r->theme.fg, 0.75);
        mur_text_set(tx, vals[k], fs, 1, 0);
        mur_text_size(tx, &w, &h);
        mur_text_draw(tx, pc->cr, x + bw - pad - w, ry, r->theme.fg, 1);
    }
}

/* A box with a line of text at a corner (wrapped when the panel is narrower). */
static void line_box(mur_panel_ctx *pc, mur_stacks *st, mur_corner c, const char *text, double fs,
                     double u, const double *dot)
{
    mur_renderer *r = pc->r;
    double w, h, pad = 0.8 * u, x, y, dw = dot ? 1.6 * fs * 0.5 + 0.8 * u : 0;
    mur_text_set_left(&r->text, text, fs, dot != NULL, st->w - 2 * st->margin - 2 * pad - dw);
    mur_text_size(&r->text, &w, &h);
    double bw = w + 2 * pad + dw, bh = h + 2 * pad * 0.7;
    mur_stack_place(st, c, bw, bh, &x, &y);
    mur_box(pc->cr, x, y, bw, bh, 0.8 * u, r->theme.box, 1);
    if (dot) {
        cairo_new_path(pc->cr);
        cairo_arc(pc->cr, x + pad + fs * 0.4, y + bh / 2, fs * 0.4, 0, 2 * MUR_PI);
        set_rgba(pc->cr, dot, 1);
        cairo_fill(pc->cr);
    }
    mur_text_draw(&r->text, pc->cr, x + pad + dw, y + pad * 0.7, r->theme.fg, 1);
}

/* "   name value" onto buf at len: a choice by its name, a whole number
 * whole, any other to two places. The new length. */
static int add_value(char *buf, size_t size, int len, const char *label, const mur_setting *st, const mur_params *p)
{
    /* no-break space inside a group: a narrow panel wraps between groups */
    if (st->type == MUR_SETTING_ENUM)
        return len + snprintf(buf + len, size - (size_t)len, "   %s\u00a0%s", label, mur_setting_choice(st, p));
    if (st->type == MUR_SETTING_INT)
        return len + snprintf(buf + len, size - (size_t)len, "   %s\u00a0%.0f", label, mur_setting_get(st, p));
    return len + snprintf(buf + len, size - (size_t)len, "   %s\u00a0%.2f", label, mur_setting_get(st, p));
}

/* Is st one of the values kind k's readout shows? */
static int in_readout(const mur_kind *k, const mur_setting *st)
{
    for (int j = 0; k && j < MUR_KIND_READOUT && k->readout[j].label; j++)
        if (!strcmp(k->readout[j].setting, st->name))
            return 1;
    return 0;
}

void mur_params_text_(char *buf, size_t size, const mur_look *lk, const mur_params *p, int count)
{
    /* the interaction's own values first (the kinds' table, family.c) */
    const mur_kind *k = mur_kind_of("interaction", (int)p->interaction);
    int len = snprintf(buf, size, "%d\u00a0boids", count);
    for (int j = 0; k && j < MUR_KIND_READOUT && k->readout[j].label && len > 0 && (size_t)len < size - 80; j++) {
        const mur_setting *st = mur_setting_find(k->readout[j].setting);
        if (st)
            len = add_value(buf, size, len, k->readout[j].label, st, p);
    }
    /* and what the timeline changes (noise being ramped, a radius set) */
    for (int j = 0; j < lk->nshown && len > 0 && (size_t)len < size - 80; j++)
        if (!in_readout(k, lk->shown[j]))
            len = add_value(buf, size, len, lk->shown[j]->name, lk->shown[j], p);
}

static void params_line(mur_panel_ctx *pc)
{
    char buf[480];
    mur_params_text_(buf, sizeof buf, pc->r->look, mur_flock_params(pc->f), mur_flock_count(pc->f));
    line_box(pc, pc->stacks, MUR_CORNER_TOP_LEFT, buf, 2.2 * pc->u, pc->u, NULL);
}

static void state_label(mur_panel_ctx *pc)
{
    static const double polarized[3] = {0.34, 0.71, 0.91}, milling[3] = {0.84, 0.37, 0.00},
                        swarm[3] = {0.90, 0.62, 0.00}, transition[3] = {0.6, 0.6, 0.6};
    double order = pc->have_metrics ? pc->metrics.order : 0;
    double mill = pc->have_metrics ? pc->metrics.milling : 0;
    mur_state st = mur_state_classify(order, mill);
    const double *c = st == MUR_STATE_POLARIZED ? polarized
                      : st == MUR_STATE_MILLING ? milling
                      : st == MUR_STATE_SWARM   ? swarm
                                                : transition;
    const char *name = mur_state_name(st);
    line_box(pc, pc->stacks, MUR_CORNER_TOP_LEFT, name, 2.3 * pc->u, pc->u, c);
}

/* Upper end of a plot's axis for metrics without a natural one. */
double mur_nice_ceiling(double v)
{
    if (!(v > 0))
        return 1;
    double e = pow(10, floor(log10(v))), m = v / e;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * e;
}

/* The plot overlay's line: the samples of the last window seconds and the
 * value now, in the area (ax, ay, aw, ah) scaled to [0, top], ending in a
 * dot. Enters with cr clipped to the area. */
static void plot_line(mur_panel_ctx *pc, const mur_series *ser, const mur_overlay *o, double top,
                      double now, double ax, double ay, double aw, double ah)
{
    mur_renderer *r = pc->r;
    cairo_t *cr = pc->cr;
    double u = pc->u;
    cairo_new_path(cr);
    int first = 1;
    double t0 = pc->t - o->window;
    if (ser->filled) {
        int oldest = (ser->head - ser->filled + 1 + ser->cap) % ser->cap;
        for (int i = 0; i < ser->filled; i++) {
            int j = (oldest + i) % ser->cap;
            if (ser->t[j] < t0 || ser->t[j] > pc->t)
                continue;
            double px = ax + aw * (ser->t[j] - t0) / o->window;
            double py = ay + ah * (1 - fmin(fmax(ser->v[j] / top, 0), 1));
            if (first)
                cairo_move_to(cr, px, py);
            else
                cairo_line_to(cr, px, py);
            first = 0;
        }
    }
    double py = ay + ah * (1 - fmin(fmax(now / top, 0), 1));
    if (first)
        cairo_move_to(cr, ax + aw - 0.01 * u, py);
    cairo_line_to(cr, ax + aw, py);
    static const double dark[3] = {0.34, 0.71, 0.91}, light[3] = {0.0, 0.45, 0.70};
    set_rgba(cr, r->theme.dark ? dark : light, 1);
    cairo_set_line_width(cr, 0.3 * u);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_stroke(cr);
    cairo_new_path(cr);
    cairo_arc(cr, ax + aw, py, 0.45 * u, 0, 2 * MUR_PI);
    set_rgba(cr, r->theme.dark ? dark : light, 1);
    cairo_fill(cr);
}

static void plot(mur_panel_ctx *pc, int k, const mur_overlay *o)
{
    mur_renderer *r = pc->r;
    cairo_t *cr = pc->cr;
    const mur_series *ser = &r->panels[pc->index].series[k];
    double u = pc->u, bw = 30 * u, bh = 15 * u, pad = 1.0 * u, x, y, w, h;
    mur_stack_place(pc->stacks, o->corner, bw, bh, &x, &y);
    mur_box(cr, x, y, bw, bh, 0.8 * u, r->theme.box, 1);
    /* the current value closes the line even before the first sample */
    double now = o->metric == 0 ? mur_metrics_order_of(pc->f)
                                : (pc->have_metrics ? mur_metrics_value(&pc->metrics, o->metric) : 0);
    char title[96], val[32];
    snprintf(title, sizeof title, "%s, last %g s", mur_metric_name(o->metric), o->window);
    format_metric(o->metric, now, val, sizeof val);
    double fs = 1.9 * u;
    mur_text_set(&r->text, title, fs, 0, 0);
    mur_text_size(&r->text, &w, &h);
    mur_text_draw(&r->text, cr, x + pad, y + pad * 0.6, r->theme.fg, 0.75);
    mur_text_set(&r->text, val, fs * 1.1, 1, 0);
    double vw, vh;
    mur_text_size(&r->text, &vw, &vh);
    mur_text_draw(&r->text, cr, x + bw - pad - vw, y + pad * 0.5, r->theme.fg, 1);
    /* the plotting area, with a gutter for the axis labels on its left */
    int bounded = mur_metric_info_at(o->metric)->unit_interval;
    double top = 1;
    if (!bounded) {
        double mx = now;
        for (int i = 0; i < ser->filled; i++)
            if (ser->t[i] >= pc->t - o->window && ser->t[i] <= pc->t)
                mx = fmax(mx, ser->v[i]);
        top = mur_nice_ceiling(mx);
    }
    char lab[32];
    snprintf(lab, sizeof lab, "%g", top);
    double lfs = mur_legible_size(1.5 * u, fmin(r->width, r->height)), lw, lh, zw, zh;   /* legible.c */
    mur_text_set(&r->text, lab, lfs, 0, 0);
    mur_text_size(&r->text, &lw, &lh);
    double ay = y + pad * 0.6 + fmax(h, vh) + 0.4 * u + lh / 2, ah = y + bh - pad - lh / 2 - ay;
    double ax = x + pad + lw + 0.6 * u, aw = x + bw - pad - ax;
    cairo_save(cr);
    mur_text_draw(&r->text, cr, ax - 0.6 * u - lw, ay - lh / 2, r->theme.fg, 0.6);
    mur_text_set(&r->text, "0", lfs, 0, 0);
    mur_text_size(&r->text, &zw, &zh);
    mur_text_draw(&r->text, cr, ax - 0.6 * u - zw, ay + ah - zh / 2, r->theme.fg, 0.6);
    const double *l = r->theme.line;
    cairo_set_line_width(cr, 0.12 * u);
    set_rgba(cr, l, 0.6);
    for (int g = 0; g <= 2; g++) {
        cairo_move_to(cr, ax, ay + ah * g / 2);
        cairo_line_to(cr, ax + aw, ay + ah * g / 2);
    }
    cairo_stroke(cr);
    cairo_rectangle(cr, ax, ay - 0.5 * u, aw, ah + u);
    cairo_clip(cr);
    plot_line(pc, ser, o, top, now, ax, ay, aw, ah);
    cairo_restore(cr);
}

void mur_overlays_panel(mur_panel_ctx *pc)
{
    const mur_look *lk = pc->r->look;
    for (int k = 0; k < lk->noverlays; k++) {
        const mur_overlay *o = &lk->overlays[k];
        if (o->kind == MUR_OVERLAY_CLOCK || o->kind == MUR_OVERLAY_IMAGE ||
            !mur_titles_overlay_begin(pc->r, pc->cr, o->kind))
            continue;   /* the clock and images: once per frame, mur_overlays_clock and _images */
        switch (o->kind) {
        case MUR_OVERLAY_READOUT: readout(pc, o); break;
        case MUR_OVERLAY_PLOT: plot(pc, k, o); break;
        case MUR_OVERLAY_WATCH:
            mur_watch_legend(pc, o);
            break;
        case MUR_OVERLAY_PARAMS: params_line(pc); break;
        case MUR_OVERLAY_STATE: state_label(pc); break;
        case MUR_OVERLAY_FIGURE: mur_overlay_figure(pc, k, o); break;
        case MUR_OVERLAY_CLOCK: case MUR_OVERLAY_IMAGE: break;
        }
        mur_titles_overlay_end(pc->r, pc->cr, o->kind);
    }
}

void mur_overlays_label(mur_renderer *r, cairo_t *cr, const char *name, double x, double y, double w,
                        double h, double u)
{
    double tw, th;
    mur_text_set(&r->text, name, 2.6 * u, 1, 0);
    mur_text_size(&r->text, &tw, &th);
    mur_text_draw(&r->text, cr, x + (w - tw) / 2, y + (h - th) / 2 + 0.3 * u, r->theme.fg, 1);
}

void mur_overlays_clock(mur_renderer *r, cairo_t *cr, mur_stacks *st, double t, double u)
{
    const mur_look *lk = r->look;
    int shown = 0;
    for (int k = 0; k < lk->noverlays; k++)
        shown |= lk->overlays[k].kind == MUR_OVERLAY_CLOCK;
    if (!shown || !mur_titles_overlay_begin(r, cr, MUR_OVERLAY_CLOCK))
        return;
    char buf[48];
    if (t < 60)
        snprintf(buf, sizeof buf, "t = %.1f s", t);
    else
        snprintf(buf, sizeof buf, "t = %d:%04.1f", (int)(t / 60), fmod(t, 60));
    mur_panel_ctx pc = {.r = r, .cr = cr, .u = u, .stacks = st};
    line_box(&pc, st, MUR_CORNER_BOTTOM_RIGHT, buf, 2.3 * u, u, NULL);
    mur_titles_overlay_end(r, cr, MUR_OVERLAY_CLOCK);
}

void mur_overlays_caption(mur_renderer *r, cairo_t *cr, mur_stacks *st, double t, double u)
{
    double alpha;
    const char *text = r->look->caption_at ? r->look->caption_at(r->look->ctx, t, &alpha) : NULL;
    if (!text || alpha <= 0)
        return;
    double fs = 3.4 * u, pad = 1.3 * u, maxw = 0.7 * st->w, w, h;
    /* Above the bottom corners' boxes when a full-width caption would meet them. */
    double side = fmax(st->width[MUR_CORNER_BOTTOM_LEFT], st->width[MUR_CORNER_BOTTOM_RIGHT]);
    double lift = 0;
    if (side > 0 && side + st->margin > (st->w - maxw) / 2 - pad)
        lift = fmax(st->used[MUR_CORNER_BOTTOM_LEFT], st->used[MUR_CORNER_BOTTOM_RIGHT]);
    mur_text_set(&r->text, text, fs, 0, maxw);
    mur_text_size(&r->text, &w, &h);
    double bw = w + 2 * pad, bh = h + 1.4 * pad;
    double x = st->x + (st->w - bw) / 2, y = st->y + st->h - st->margin - lift - bh;
    /* A dark box on dark scenes, a light one on light scenes: readable over
     * any boids, and it fades with the text. */
    double box[4] = {r->theme.box[0], r->theme.box[1], r->theme.box[2], fmin(1, r->theme.box[3] + 0.1)};
    mur_box(cr, x, y, bw, bh, 1.0 * u, box, alpha);
    mur_text_draw(&r->text, cr, x + pad, y + 0.7 * pad, r->theme.fg, alpha);
}
