/* Figures of plain data (murmur/chart.h): heatmaps of a two-parameter
 * sweep, curves with bands, histograms. No scene or experiment header
 * here (issue #27): callers hand over arrays and labels.
 *
 * Layout in points, as plot.c's figures: a column MUR_PLOT_WIDTH wide,
 * 7 pt text, 6 pt tick labels. Colours: viridis for values (perceptually
 * even, readable in grey and by the colour-blind), the Okabe-Ito palette
 * for curves. */
#include "murmur/chart.h"
#include "murmur/alloc.h"
#include "murmur/file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "../render/internal.h"

#define TEXT_SIZE 7.0
#define TICK_SIZE 6.0
#define FOOTER_H 10.0
#define MAX_CURVES 16
#define MAX_GRID 256

static const double ink[3] = {0.15, 0.15, 0.15};
static const double grey[3] = {0.55, 0.55, 0.55};
static const double pale[3] = {0.88, 0.88, 0.88};

/* Okabe & Ito (2008), as plot.c. */
static const double palette[7][3] = {
    {0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0}, {0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0},
    {0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0}, {0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0},
    {0xCC / 255.0, 0x79 / 255.0, 0xA7 / 255.0}, {0x56 / 255.0, 0xB4 / 255.0, 0xE9 / 255.0},
    {0x33 / 255.0, 0x33 / 255.0, 0x33 / 255.0},
};

/* ---- the footer ----------------------------------------------------------- */

static char *footer;

void mur_chart_set_footer(const char *text)
{
    mur_free(footer);
    footer = NULL;
    if (text && *text && (footer = mur_malloc(strlen(text) + 1)))
        strcpy(footer, text);
}

const char *mur_chart_footer(void) { return footer; }

/* ---- colours -------------------------------------------------------------- */

void mur_chart_viridis(double v, double rgb[3])
{
    /* viridis (van der Walt & Smith, matplotlib) at 9 even stops */
    static const double stop[9][3] = {
        {0.267, 0.005, 0.329}, {0.283, 0.141, 0.458}, {0.254, 0.265, 0.530},
        {0.207, 0.372, 0.553}, {0.164, 0.471, 0.558}, {0.128, 0.567, 0.551},
        {0.135, 0.659, 0.518}, {0.478, 0.821, 0.318}, {0.993, 0.906, 0.144},
    };
    v = !(v > 0) ? 0 : v > 1 ? 1 : v;
    double t = v * 8;
    int k = t >= 8 ? 7 : (int)t;
    double a = t - k;
    for (int i = 0; i < 3; i++)
        rgb[i] = stop[k][i] + a * (stop[k + 1][i] - stop[k][i]);
}

/* ---- the figure: surface, text -------------------------------------------- */

enum { FMT_PNG = 1, FMT_PDF, FMT_SVG };

typedef struct {
    int format;
    double w, h;              /* the drawing's size, pt (the footer below it) */
    mur_atomic file;
    cairo_surface_t *surface;
    cairo_t *cr;
    mur_text text;
    mur_meta_writer mw;
} chart;

static int format_of(const char *path)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    if (!dot || (slash && dot < slash))
        return 0;
    return !strcmp(dot, ".png") ? FMT_PNG : !strcmp(dot, ".pdf") ? FMT_PDF : !strcmp(dot, ".svg") ? FMT_SVG : 0;
}

static void chart_abort(chart *f)
{
    if (f->cr)
        cairo_destroy(f->cr);
    if (f->surface) {
        cairo_surface_finish(f->surface);
        cairo_surface_destroy(f->surface);
    }
    mur_text_free(&f->text);
    mur_atomic_abort(&f->file);
    memset(f, 0, sizeof *f);
}

static cairo_status_t chart_write(void *closure, const unsigned char *data, unsigned int length)
{
    chart *f = closure;
    if (f->file.fp && fwrite(data, 1, length, f->file.fp) == length)
        return CAIRO_STATUS_SUCCESS;
    if (!f->file.error)
        f->file.error = errno;
    return CAIRO_STATUS_WRITE_ERROR;
}

/* A w x h pt drawing, with the footer's line below it when one is set. */
static int chart_begin(chart *f, const char *path, const mur_chart_doc *doc, double w, double h, mur_error *err)
{
    memset(f, 0, sizeof *f);
    f->format = format_of(path);
    if (!f->format)
        return mur_error_set(err, MUR_EINPUT, "a figure must end in .png, .pdf or .svg, not '%s'", path);
    int rc = mur_atomic_begin(&f->file, path, 0, err);
    if (rc || !mur_atomic_fopen(&f->file, "wb", err)) {
        chart_abort(f);
        return rc ? rc : MUR_ERUN;
    }
    const char *title = doc ? doc->title : NULL, *meta = doc ? doc->meta : NULL;
    f->w = w;
    f->h = h;
    double H = h + (footer ? FOOTER_H : 0), scale = 1;
    f->mw = (mur_meta_writer){chart_write, f, f->format == FMT_PNG ? MUR_META_PNG : MUR_META_SVG, title, meta, 0, 0, 0};
    if (f->format == FMT_PDF) {
        f->surface = cairo_pdf_surface_create_for_stream(chart_write, f, w, H);
        mur_meta_pdf(f->surface, title, meta);
    } else if (f->format == FMT_SVG) {
        f->surface = cairo_svg_surface_create_for_stream(mur_meta_write, &f->mw, w, H);
    } else {
        scale = MUR_PLOT_DPI / 72.0;
        f->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)ceil(w * scale), (int)ceil(H * scale));
    }
    if (cairo_surface_status(f->surface) != CAIRO_STATUS_SUCCESS) {
        rc = mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", path,
                           cairo_status_to_string(cairo_surface_status(f->surface)));
        chart_abort(f);
        return rc;
    }
    f->cr = cairo_create(f->surface);
    cairo_scale(f->cr, scale, scale);
    cairo_set_source_rgb(f->cr, 1, 1, 1);
    cairo_paint(f->cr);
    if (mur_text_init(&f->text, MUR_TEXT_FIGURE)) {
        chart_abort(f);
        return mur_error_set(err, MUR_ERUN, "out of memory starting a figure");
    }
    return MUR_OK;
}

/* s with its box's point (ax, ay) at (x, y), turned by angle. */
static void text(chart *f, double x, double y, const char *s, double size, double ax, double ay, double angle,
                 const double c[3])
{
    double w, h;
    cairo_save(f->cr);
    cairo_translate(f->cr, x, y);
    cairo_rotate(f->cr, angle);
    mur_text_begin(&f->text, f->cr);
    mur_text_set_left(&f->text, s, size, 0, 0);
    mur_text_size(&f->text, &w, &h);
    mur_text_draw(&f->text, f->cr, -ax * w, -ay * h, c, 1);
    cairo_restore(f->cr);
}

static double text_width(chart *f, const char *s, double size)
{
    double w, h;
    mur_text_begin(&f->text, f->cr);
    mur_text_set_left(&f->text, s, size, 0, 0);
    mur_text_size(&f->text, &w, &h);
    return w;
}

static int chart_end(chart *f, mur_error *err)
{
    if (footer) {   /* the provenance, small and grey, under the drawing */
        cairo_set_source_rgb(f->cr, pale[0], pale[1], pale[2]);
        cairo_set_line_width(f->cr, 0.4);
        cairo_move_to(f->cr, 4, f->h + 1);
        cairo_line_to(f->cr, f->w - 4, f->h + 1);
        cairo_stroke(f->cr);
        text(f, 4, f->h + FOOTER_H / 2 + 0.5, footer, 5.0, 0, 0.5, 0, grey);
    }
    cairo_status_t st = cairo_status(f->cr);
    if (st == CAIRO_STATUS_SUCCESS) {
        cairo_destroy(f->cr);
        f->cr = NULL;
        if (f->format == FMT_PNG) {
            cairo_surface_flush(f->surface);
            st = cairo_surface_write_to_png_stream(f->surface, mur_meta_write, &f->mw);
        } else {
            cairo_surface_finish(f->surface);
            st = cairo_surface_status(f->surface);
        }
    }
    cairo_surface_finish(f->surface);
    int rc = st != CAIRO_STATUS_SUCCESS && !f->file.error
                 ? mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", f->file.path, cairo_status_to_string(st))
                 : mur_atomic_commit(&f->file, err);
    chart_abort(f);
    return rc;
}

/* ---- axes ----------------------------------------------------------------- */

typedef struct {
    double x, y, w, h;          /* plot area, pt */
    double x0, x1, y0, y1;      /* data range */
} area;

static double ax_x(const area *a, double v) { return a->x + (v - a->x0) / (a->x1 - a->x0) * a->w; }
static double ax_y(const area *a, double v) { return a->y + a->h - (v - a->y0) / (a->y1 - a->y0) * a->h; }

static double nice_step(double range, int want)
{
    if (!(range > 0) || !isfinite(range))
        return 1;
    double raw = range / want, mag = pow(10, floor(log10(raw))), norm = raw / mag;
    return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

/* A number as an axis shows it: at most 4 significant digits, no "-0". */
static void label_of(char *buf, size_t n, double v, double step)
{
    if (fabs(v) < fabs(step) * 1e-6)
        v = 0;
    snprintf(buf, n, "%.4g", v);
}

/* Left and bottom spines, grid lines and labels every y_step and x_step. */
static void draw_axes(chart *f, const area *a, double x_step, double y_step)
{
    cairo_t *cr = f->cr;
    char buf[32];
    cairo_set_line_width(cr, 0.4);
    for (double v = ceil(a->y0 / y_step - 1e-9) * y_step; v <= a->y1 + y_step * 1e-6; v += y_step) {
        cairo_set_source_rgb(cr, pale[0], pale[1], pale[2]);
        cairo_move_to(cr, a->x, ax_y(a, v));
        cairo_line_to(cr, a->x + a->w, ax_y(a, v));
        cairo_stroke(cr);
        label_of(buf, sizeof buf, v, y_step);
        text(f, a->x - 2.5, ax_y(a, v), buf, TICK_SIZE, 1, 0.5, 0, ink);
    }
    cairo_set_source_rgb(cr, ink[0], ink[1], ink[2]);
    cairo_set_line_width(cr, 0.5);
    cairo_move_to(cr, a->x, a->y);
    cairo_line_to(cr, a->x, a->y + a->h);
    cairo_line_to(cr, a->x + a->w, a->y + a->h);
    cairo_stroke(cr);
    for (double v = ceil(a->x0 / x_step - 1e-9) * x_step; v <= a->x1 + x_step * 1e-6; v += x_step) {
        cairo_move_to(cr, ax_x(a, v), a->y + a->h);
        cairo_line_to(cr, ax_x(a, v), a->y + a->h + 2);
        cairo_stroke(cr);
        label_of(buf, sizeof buf, v, x_step);
        text(f, ax_x(a, v), a->y + a->h + 2.5, buf, TICK_SIZE, 0.5, 0, 0, ink);
    }
}

/* ---- heatmaps ------------------------------------------------------------- */

#define HM_PANEL_H 84.0
#define HM_BAR_H 4.0
#define HM_ROW_H (18.0 + HM_PANEL_H + 36.0)   /* titles, the grid, its labels, the colour bar and its labels */
#define HM_MARGIN_L 34.0
#define HM_GAP 16.0

/* The finite range of v[0..n), [0, 1] for a share; a flat one widened. */
static void value_range(const double *v, int n, int unit, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i])) {
            *lo = fmin(*lo, v[i]);
            *hi = fmax(*hi, v[i]);
        }
    if (unit) {
        *lo = 0;
        *hi = 1;
    } else if (!(*hi >= *lo)) {
        *lo = 0;
        *hi = 1;
    } else if (*hi == *lo) {
        double d = fabs(*lo) > 0 ? fabs(*lo) * 0.05 : 0.5;
        *lo -= d;
        *hi += d;
    }
}

/* Every k-th of n labels, so that they do not touch in a w pt axis. */
static int label_every(int n, double w, double widest)
{
    int k = 1;
    while (k < n && (widest + 3) * ((n + k - 1) / k) > w)
        k++;
    return k;
}

/* One grid of cells at (x, y), w x h, with its axes' value labels (y's
 * only when ylab), the colour bar under it, and its title above. */
static void draw_grid(chart *f, const mur_heatmap *m, const double *v, const char *name, int unit, double x,
                      double y, double w, int ylab)
{
    cairo_t *cr = f->cr;
    double lo, hi, cw = w / m->nx, ch = HM_PANEL_H / m->ny, c[3];
    char buf[32];
    value_range(v, m->nx * m->ny, unit, &lo, &hi);
    text(f, x + w / 2, y - 1.5, name, TEXT_SIZE, 0.5, 1, 0, ink);
    for (int iy = 0; iy < m->ny; iy++)
        for (int ix = 0; ix < m->nx; ix++) {
            double val = v[iy * m->nx + ix];
            if (isfinite(val))
                mur_chart_viridis((val - lo) / (hi - lo), c);
            else
                memcpy(c, pale, sizeof c);
            cairo_set_source_rgb(cr, c[0], c[1], c[2]);
            /* y grows upwards: row 0 at the bottom, as a phase diagram's */
            cairo_rectangle(cr, x + ix * cw, y + HM_PANEL_H - (iy + 1) * ch, cw + 0.02, ch + 0.02);
            cairo_fill(cr);
        }
    double widest = 0;
    for (int ix = 0; ix < m->nx; ix++) {
        label_of(buf, sizeof buf, m->x[ix], 0);
        widest = fmax(widest, text_width(f, buf, TICK_SIZE));
    }
    for (int ix = 0, k = label_every(m->nx, w, widest); ix < m->nx; ix += k) {
        label_of(buf, sizeof buf, m->x[ix], 0);
        text(f, x + (ix + 0.5) * cw, y + HM_PANEL_H + 1.5, buf, TICK_SIZE, 0.5, 0, 0, ink);
    }
    text(f, x + w / 2, y + HM_PANEL_H + 8.5, m->x_label, TEXT_SIZE, 0.5, 0, 0, ink);
    for (int iy = 0, k = label_every(m->ny, HM_PANEL_H, TICK_SIZE); ylab && iy < m->ny; iy += k) {
        label_of(buf, sizeof buf, m->y[iy], 0);
        text(f, x - 2, y + HM_PANEL_H - (iy + 0.5) * ch, buf, TICK_SIZE, 1, 0.5, 0, ink);
    }
    double by = y + HM_PANEL_H + 18;
    for (int i = 0; i < 64; i++) {   /* the colour bar */
        mur_chart_viridis((i + 0.5) / 64, c);
        cairo_set_source_rgb(cr, c[0], c[1], c[2]);
        cairo_rectangle(cr, x + i * w / 64, by, w / 64 + 0.02, HM_BAR_H);
        cairo_fill(cr);
    }
    double step = nice_step(hi - lo, 3);
    for (double t = ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-6; t += step) {
        double tx = x + (t - lo) / (hi - lo) * w;
        cairo_set_source_rgb(cr, ink[0], ink[1], ink[2]);
        cairo_set_line_width(cr, 0.4);
        cairo_move_to(cr, tx, by + HM_BAR_H);
        cairo_line_to(cr, tx, by + HM_BAR_H + 1.5);
        cairo_stroke(cr);
        label_of(buf, sizeof buf, t, step);
        text(f, tx, by + HM_BAR_H + 1.8, buf, TICK_SIZE - 0.5, 0.5, 0, 0, ink);
    }
}

static int grid_ok(const mur_heatmap *m)
{
    return m->nx >= 1 && m->ny >= 1 && m->nx <= MAX_GRID && m->ny <= MAX_GRID && m->x && m->y && m->value;
}

int mur_chart_heatmaps(const char *path, const mur_heatmap *maps, int n, const mur_chart_doc *doc, mur_error *err)
{
    if (n < 1)
        return mur_error_set(err, MUR_EINPUT, "a heatmap figure needs a heatmap");
    for (int i = 0; i < n; i++)
        if (!grid_ok(&maps[i]))
            return mur_error_set(err, MUR_EINPUT, "heatmap %d: a grid of 1 to %d x 1 to %d values", i, MAX_GRID,
                                 MAX_GRID);
    chart f;
    double W = MUR_PLOT_WIDTH, H = 4 + n * HM_ROW_H;
    int rc = chart_begin(&f, path, doc, W, H, err);
    if (rc)
        return rc;
    for (int i = 0; i < n; i++) {
        const mur_heatmap *m = &maps[i];
        double y = 4 + i * HM_ROW_H, top = y + 9 + 9;
        int two = m->spread != NULL;
        double w = two ? (W - HM_MARGIN_L - HM_GAP - 6) / 2 : W - HM_MARGIN_L - 6;
        text(&f, HM_MARGIN_L, y, m->heading, TEXT_SIZE, 0, 0, 0, ink);
        text(&f, 7, top + HM_PANEL_H / 2, m->y_label, TEXT_SIZE, 0.5, 0, -1.5707963267948966, ink);
        draw_grid(&f, m, m->value, m->value_label ? m->value_label : "median", m->unit_interval, HM_MARGIN_L, top,
                  w, 1);
        if (two)
            draw_grid(&f, m, m->spread, m->spread_label ? m->spread_label : "interval width", 0,
                      HM_MARGIN_L + w + HM_GAP, top, w, 0);
    }
    return chart_end(&f, err);
}

/* ---- curves --------------------------------------------------------------- */

#define CV_MARGIN_L 38.0
#define CV_PANEL_H 110.0

static const double *curve_colour(const mur_curve *c, int i) { return c->has_colour ? c->colour : palette[i % 7]; }

/* The data's box over every curve's finite points and bands. */
static void curves_box(const mur_curves *c, area *a)
{
    a->x0 = a->y0 = INFINITY;
    a->x1 = a->y1 = -INFINITY;
    for (int i = 0; i < c->ncurves; i++) {
        const mur_curve *k = &c->curves[i];
        for (int j = 0; j < k->n; j++) {
            double ys[3] = {k->mid[j], k->lo ? k->lo[j] : NAN, k->hi ? k->hi[j] : NAN};
            for (int q = 0; q < 3; q++)
                if (isfinite(ys[q]) && isfinite(k->x[j])) {
                    a->y0 = fmin(a->y0, ys[q]);
                    a->y1 = fmax(a->y1, ys[q]);
                    a->x0 = fmin(a->x0, k->x[j] - (c->bin > 0 ? c->bin / 2 : 0));
                    a->x1 = fmax(a->x1, k->x[j] + (c->bin > 0 ? c->bin / 2 : 0));
                }
        }
    }
    if (a->x0 > 0)   /* distances, counts, speeds: the axis from 0 */
        a->x0 = 0;
    if (c->x_max > a->x0 && c->x_max < a->x1)
        a->x1 = c->x_max;
    if (!(a->x1 > a->x0)) {
        a->x0 = isfinite(a->x0) ? a->x0 - 0.5 : 0;
        a->x1 = a->x0 + 1;
    }
    if (c->bin > 0 || c->zero_line)
        a->y0 = fmin(a->y0, 0);
    if (!(a->y1 > a->y0)) {
        a->y0 = isfinite(a->y0) ? a->y0 - 0.5 : 0;
        a->y1 = a->y0 + 1;
    }
}

/* A band between lo and hi, closed polygons over each run of finite points
 * (a histogram's: steps over each bin). */
static void draw_band(cairo_t *cr, const area *a, const mur_curve *k, double bin, const double *col)
{
    double h = bin > 0 ? bin / 2 : 0;
    for (int j = 0; j < k->n;) {
        while (j < k->n && !(isfinite(k->lo[j]) && isfinite(k->hi[j])))
            j++;
        int e = j;
        while (e < k->n && isfinite(k->lo[e]) && isfinite(k->hi[e]))
            e++;
        if (e - j >= (bin > 0 ? 1 : 2)) {
            cairo_move_to(cr, ax_x(a, k->x[j] - h), ax_y(a, k->hi[j]));
            for (int q = j; q < e; q++) {
                cairo_line_to(cr, ax_x(a, k->x[q] - h), ax_y(a, k->hi[q]));
                cairo_line_to(cr, ax_x(a, k->x[q] + h), ax_y(a, k->hi[q]));
            }
            for (int q = e - 1; q >= j; q--) {
                cairo_line_to(cr, ax_x(a, k->x[q] + h), ax_y(a, k->lo[q]));
                cairo_line_to(cr, ax_x(a, k->x[q] - h), ax_y(a, k->lo[q]));
            }
            cairo_close_path(cr);
            cairo_set_source_rgba(cr, col[0], col[1], col[2], 0.22);
            cairo_fill(cr);
        }
        j = e;
    }
}

/* The line through the finite points (a histogram: steps over each bin). */
static void draw_line(cairo_t *cr, const area *a, const mur_curve *k, double bin, const double *col)
{
    int pen = 0;
    for (int j = 0; j < k->n; j++) {
        if (!isfinite(k->mid[j])) {
            pen = 0;
            continue;
        }
        double y = ax_y(a, k->mid[j]);
        if (bin > 0) {
            double x0 = ax_x(a, k->x[j] - bin / 2), x1 = ax_x(a, k->x[j] + bin / 2);
            if (pen)
                cairo_line_to(cr, x0, y);
            else
                cairo_move_to(cr, x0, y);
            cairo_line_to(cr, x1, y);
        } else if (pen) {
            cairo_line_to(cr, ax_x(a, k->x[j]), y);
        } else {
            cairo_move_to(cr, ax_x(a, k->x[j]), y);
        }
        pen = 1;
    }
    cairo_set_source_rgb(cr, col[0], col[1], col[2]);
    cairo_set_line_width(cr, 0.9);
    cairo_stroke(cr);
}

/* The legend: one row per labelled curve, under the panel; its height. */
static double draw_keys(chart *f, const mur_curves *c, double x, double y, int draw)
{
    double h = 0;
    for (int i = 0; i < c->ncurves; i++) {
        if (!c->curves[i].label)
            continue;
        if (draw) {
            const double *col = curve_colour(&c->curves[i], i);
            cairo_set_source_rgb(f->cr, col[0], col[1], col[2]);
            cairo_set_line_width(f->cr, 0.9);
            cairo_move_to(f->cr, x, y + h + 4);
            cairo_line_to(f->cr, x + 10, y + h + 4);
            cairo_stroke(f->cr);
            text(f, x + 13, y + h + 4, c->curves[i].label, TEXT_SIZE, 0, 0.5, 0, ink);
        }
        h += 9;
    }
    return h;
}

int mur_chart_curves(const char *path, const mur_curves *c, const mur_chart_doc *doc, mur_error *err)
{
    if (c->ncurves < 1 || c->ncurves > MAX_CURVES)
        return mur_error_set(err, MUR_EINPUT, "a figure of 1 to %d curves, not %d", MAX_CURVES, c->ncurves);
    area a = {CV_MARGIN_L, 14, MUR_PLOT_WIDTH - CV_MARGIN_L - 8, CV_PANEL_H, 0, 0, 0, 0};
    curves_box(c, &a);
    double ys = nice_step(a.y1 - a.y0, 4), xs = nice_step(a.x1 - a.x0, 5);
    a.y0 = floor(a.y0 / ys + 1e-9) * ys;
    a.y1 = ceil(a.y1 / ys - 1e-9) * ys;
    chart f;
    double H = a.y + a.h + 22 + draw_keys(NULL, c, 0, 0, 0) + 2;
    int rc = chart_begin(&f, path, doc, MUR_PLOT_WIDTH, H, err);
    if (rc)
        return rc;
    text(&f, a.x, 3, c->heading, TEXT_SIZE, 0, 0, 0, ink);
    draw_axes(&f, &a, xs, ys);
    cairo_save(f.cr);
    cairo_rectangle(f.cr, a.x, a.y, a.w, a.h);
    cairo_clip(f.cr);
    if (c->zero_line && a.y0 < 0 && a.y1 > 0) {
        cairo_set_source_rgb(f.cr, grey[0], grey[1], grey[2]);
        cairo_set_line_width(f.cr, 0.5);
        cairo_move_to(f.cr, a.x, ax_y(&a, 0));
        cairo_line_to(f.cr, a.x + a.w, ax_y(&a, 0));
        cairo_stroke(f.cr);
    }
    if (isfinite(c->mark)) {
        cairo_set_source_rgb(f.cr, grey[0], grey[1], grey[2]);
        cairo_set_line_width(f.cr, 0.5);
        cairo_set_dash(f.cr, (const double[]){1, 1.5}, 2, 0);
        cairo_move_to(f.cr, a.x, ax_y(&a, c->mark));
        cairo_line_to(f.cr, a.x + a.w, ax_y(&a, c->mark));
        cairo_stroke(f.cr);
        cairo_set_dash(f.cr, NULL, 0, 0);
    }
    for (int i = 0; i < c->ncurves; i++)
        if (c->curves[i].lo && c->curves[i].hi)
            draw_band(f.cr, &a, &c->curves[i], c->bin, curve_colour(&c->curves[i], i));
    for (int i = 0; i < c->ncurves; i++)
        draw_line(f.cr, &a, &c->curves[i], c->bin, curve_colour(&c->curves[i], i));
    cairo_restore(f.cr);
    text(&f, a.x + a.w / 2, a.y + a.h + 10, c->x_label, TEXT_SIZE, 0.5, 0, 0, ink);
    text(&f, 3, a.y + a.h / 2, c->y_label, TEXT_SIZE, 0.5, 0, -1.5707963267948966, ink);
    draw_keys(&f, c, a.x, a.y + a.h + 20, 1);
    return chart_end(&f, err);
}
