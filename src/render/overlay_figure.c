/* The figure overlay: a metric (y) against a setting the timeline changes
 * (x), the curve drawn as the video goes, over a reference curve (an
 * ensemble's series, read by the scene loader and handed over in the
 * overlay). The points are the observed ticks' (setting, metric), kept in
 * the plot's sample store (mur_series: t holds x, v holds y) in tick
 * order: a function of the ticks alone, so any frame of a render, a chunk
 * or a still shows the same curve. The box, title and axis labels are the
 * plot overlay's (overlays.c), larger and squarer. */
#include "internal.h"
#include "murmur/alloc.h"
#include "murmur/presets.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FIGURE_POINTS 4096   /* most points kept: past it, every other one goes */

int mur_figure_init(mur_series *s)
{
    return mur_series_alloc(s, 1, FIGURE_POINTS);
}

/* Called every stride-th tick (frame.c): the points of ticks stride,
 * 2 stride, ...; full, those of odd multiples go and the stride doubles. */
void mur_figure_push(mur_series *s, long tick, double x, double y)
{
    (void)tick;
    if (s->filled == s->cap) {
        int n = 0;
        for (int i = 1; i < s->filled; i += 2, n++) {
            s->t[n] = s->t[i];
            s->v[n] = s->v[i];
        }
        s->filled = n;
        s->stride *= 2;
        if (tick % s->stride)
            return;
    }
    s->t[s->filled] = x;
    s->v[s->filled] = y;
    s->head = s->filled++;
}

static void rgb(cairo_t *cr, const double *c, double a)
{
    cairo_set_source_rgba(cr, c[0], c[1], c[2], a);
}

typedef struct {
    double ax, ay, aw, ah;    /* the plotting area */
    double x0, x1, y0, y1;    /* its ranges */
} area;

static double px(const area *a, double x)
{
    return a->ax + a->aw * (x - a->x0) / (a->x1 - a->x0);
}

static double py(const area *a, double y)
{
    return a->ay + a->ah * (1 - fmin(fmax((y - a->y0) / (a->y1 - a->y0), 0), 1));
}

/* The reference behind (grey, broken at a NaN x), the curve so far and a
 * dot at the value now. */
static void curves(mur_panel_ctx *pc, const mur_series *ser, const mur_overlay *o, const area *a,
                   double xnow, double ynow)
{
    cairo_t *cr = pc->cr;
    const mur_renderer *r = pc->r;
    double u = pc->u;
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_new_path(cr);
    int pen = 0;
    for (int i = 0; i < o->nref; i++) {
        if (!isfinite(o->ref_x[i]) || !isfinite(o->ref_y[i])) {
            pen = 0;
            continue;
        }
        if (pen)
            cairo_line_to(cr, px(a, o->ref_x[i]), py(a, o->ref_y[i]));
        else
            cairo_move_to(cr, px(a, o->ref_x[i]), py(a, o->ref_y[i]));
        pen = 1;
    }
    rgb(cr, r->theme.fg, 0.45);
    cairo_set_line_width(cr, 0.35 * u);
    cairo_stroke(cr);
    static const double dark[3] = {0.94, 0.89, 0.26}, light[3] = {0.84, 0.30, 0.00};
    const double *c = r->theme.dark ? dark : light;
    cairo_new_path(cr);
    for (int i = 0; i < ser->filled; i++)
        (i ? cairo_line_to : cairo_move_to)(cr, px(a, ser->t[i]), py(a, ser->v[i]));
    if (ser->filled)
        cairo_line_to(cr, px(a, xnow), py(a, ynow));
    rgb(cr, c, 1);
    cairo_set_line_width(cr, 0.25 * u);
    cairo_stroke(cr);
    cairo_new_path(cr);
    cairo_arc(cr, px(a, xnow), py(a, ynow), 0.55 * u, 0, 2 * MUR_PI);
    rgb(cr, c, 1);
    cairo_fill(cr);
}

static void label(mur_renderer *r, cairo_t *cr, const char *s, double fs, double x, double y, double ax,
                  double ay)
{
    double w, h;
    mur_text_set(&r->text, s, fs, 0, 0);
    mur_text_size(&r->text, &w, &h);
    mur_text_draw(&r->text, cr, x - ax * w, y - ay * h, r->theme.fg, 0.6);
}

void mur_overlay_figure(mur_panel_ctx *pc, int k, const mur_overlay *o)
{
    mur_renderer *r = pc->r;
    cairo_t *cr = pc->cr;
    const mur_series *ser = &r->panels[pc->index].series[k];
    double u = pc->u, bw = 30 * u, bh = 24 * u, pad = 1.0 * u, x, y, w, h;
    mur_stack_place(pc->stacks, o->corner, bw, bh, &x, &y);
    mur_box(cr, x, y, bw, bh, 0.8 * u, r->theme.box, 1);
    double xnow = mur_setting_get(o->setting, mur_flock_params(pc->f));
    double ynow = o->metric == 0 ? mur_metrics_order_of(pc->f)
                                 : (pc->have_metrics ? mur_metrics_value(&pc->metrics, o->metric) : 0);
    area a = {.x0 = o->x_range[0], .x1 = o->x_range[1], .y0 = o->y_range[0], .y1 = o->y_range[1]};
    if (!(a.y1 > a.y0)) {   /* 0 to a ceiling of what is drawn */
        double mx = ynow;
        for (int i = 0; i < ser->filled; i++)
            mx = fmax(mx, ser->v[i]);
        for (int i = 0; i < o->nref; i++)
            if (isfinite(o->ref_y[i]))
                mx = fmax(mx, o->ref_y[i]);
        a.y0 = 0;
        a.y1 = mur_nice_ceiling(mx);
    }
    char title[128], lab[32];
    snprintf(title, sizeof title, "%s against %s", mur_metric_name(o->metric), o->setting->name);
    double fs = 1.9 * u;
    mur_text_set(&r->text, title, fs, 0, bw - 2 * pad);
    mur_text_size(&r->text, &w, &h);
    mur_text_draw(&r->text, cr, x + pad, y + pad * 0.6, r->theme.fg, 0.75);
    double lfs = mur_legible_size(1.5 * u, fmin(r->width, r->height)), lw = 0, lh = 0, tw, th;
    for (int e = 0; e < 2; e++) {
        snprintf(lab, sizeof lab, "%g", e ? a.y1 : a.y0);
        mur_text_set(&r->text, lab, lfs, 0, 0);
        mur_text_size(&r->text, &tw, &th);
        lw = fmax(lw, tw);
        lh = fmax(lh, th);
    }
    a.ay = y + pad * 0.6 + h + 0.4 * u + lh / 2;
    a.ah = y + bh - pad - 1.3 * lh - a.ay;
    a.ax = x + pad + lw + 0.6 * u;
    a.aw = x + bw - pad - lw / 2 - a.ax;
    cairo_save(cr);
    for (int e = 0; e < 2; e++) {
        snprintf(lab, sizeof lab, "%g", e ? a.y1 : a.y0);
        label(r, cr, lab, lfs, a.ax - 0.6 * u, e ? a.ay : a.ay + a.ah, 1, 0.5);
        snprintf(lab, sizeof lab, "%g", e ? a.x1 : a.x0);
        label(r, cr, lab, lfs, e ? a.ax + a.aw : a.ax, a.ay + a.ah + 0.3 * u, 0.5, 0);
    }
    label(r, cr, o->setting->name, lfs, a.ax + a.aw / 2, a.ay + a.ah + 0.3 * u, 0.5, 0);
    cairo_set_line_width(cr, 0.12 * u);
    rgb(cr, r->theme.line, 0.6);
    cairo_rectangle(cr, a.ax, a.ay, a.aw, a.ah);
    cairo_stroke(cr);
    cairo_rectangle(cr, a.ax - 0.6 * u, a.ay - 0.6 * u, a.aw + 1.2 * u, a.ah + 1.2 * u);
    cairo_clip(cr);
    curves(pc, ser, o, &a, xnow, ynow);
    cairo_restore(cr);
}
