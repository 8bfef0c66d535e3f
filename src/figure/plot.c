/* Figures of experiments for papers: a series against time, and a table of
 * conditions as dots and ranges, drawn from plain tables (mur_figure; the
 * experiment's side builds them: src/experiment/figure_data.c).
 *
 * Everything is laid out in points at a paper's column width (252 pt) with
 * 7 pt text, so a figure dropped into a one-column slot is printed at 100%
 * and its text matches a caption's footnote size. Panels are stacked over a
 * shared x axis: a reader compares metrics by looking straight down.
 * Colours are the Okabe-Ito palette, which stays distinct for the common
 * colour-vision deficiencies and in greyscale print by lightness.
 *
 * Text goes through the frames' text module (text.c, MUR_TEXT_FIGURE): Pango
 * with hinting off, so a PNG and a PDF of the same figure have the same
 * layout (hinted metrics move glyphs by resolution). */
#include "murmur/plot.h"
#include "murmur/chart.h"
#include "murmur/alloc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "../render/internal.h"
#include "murmur/divergence.h"
#include "murmur/file.h"
#include "murmur/version.h"

#define TEXT_SIZE 7.0     /* pt: labels and titles */
#define TICK_SIZE 6.0     /* pt: tick labels */
#define MARGIN_L 30.0     /* room for tick labels */
#define MARGIN_R 8.0
#define PANEL_H 40.0      /* plot area of a metric panel */
#define TITLE_H 9.0       /* a panel's title line above its plot area */
#define GAP 5.0
#define MAX_POINTS MUR_FIGURE_MAX_POINTS   /* points drawn per line of a series */
#define MAX_KEYED 16      /* conditions named in a series legend; more are said as a count */

typedef struct {
    double r, g, b;
} rgb;

/* Okabe & Ito (2008), "Color universal design". */
static const rgb palette[7] = {
    {0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0},  /* blue */
    {0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0},  /* vermillion */
    {0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0},  /* bluish green */
    {0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0},  /* orange */
    {0xCC / 255.0, 0x79 / 255.0, 0xA7 / 255.0},  /* reddish purple */
    {0x56 / 255.0, 0xB4 / 255.0, 0xE9 / 255.0},  /* sky blue */
    {0x33 / 255.0, 0x33 / 255.0, 0x33 / 255.0},  /* near black */
};
/* The theme's colours (scene `theme`), set by use_theme as a figure
 * starts: per thread, so figures of two threads do not mix themes. */
static _Thread_local rgb ink = {0.15, 0.15, 0.15};
static _Thread_local rgb paper = {1, 1, 1};     /* the background, and the inside of open markers */
static _Thread_local int dark_theme;

/* Condition c's colour in every figure: the scene's `colour:`, else the
 * palette's, in condition order. */
static rgb palette_at(int i);

static rgb condition_colour(const mur_figure *e, int c)
{
    const mur_figure_condition *q = e->conditions ? &e->conditions[c] : NULL;
    if (q && q->has_colour)
        return (rgb){q->colour[0], q->colour[1], q->colour[2]};
    return palette_at(c);
}

/* Condition c's name as a figure shows it: its `label:`, else its name. */
static const char *condition_label(const mur_figure *e, int c)
{
    const mur_figure_condition *q = e->conditions ? &e->conditions[c] : NULL;
    return q && q->label ? q->label : q && q->name ? q->name : "";
}

/* Condition c's name (a divergence legend's). */
static const char *condition_name(const mur_figure *e, int c)
{
    const mur_figure_condition *q = e->conditions ? &e->conditions[c] : NULL;
    return q && q->name ? q->name : "";
}
static _Thread_local rgb grey = {0.55, 0.55, 0.55};
static _Thread_local rgb grid = {0.88, 0.88, 0.88};

/* Palette colour i (cycling); its near black is light grey on the dark theme. */
static rgb palette_at(int i)
{
    i %= 7;
    return dark_theme && i == 6 ? (rgb){0.80, 0.80, 0.80} : palette[i];
}

/* The colours of figure e's theme: light (the defaults, ink on
 * white) or dark (light ink on a near-black slide, the grid faint). */
static void use_theme(const mur_figure *e)
{
    dark_theme = e->theme == 1;
    ink = dark_theme ? (rgb){0.90, 0.91, 0.92} : (rgb){0.15, 0.15, 0.15};
    paper = dark_theme ? (rgb){0x0b / 255.0, 0x0d / 255.0, 0x0f / 255.0} : (rgb){1, 1, 1};
    grey = dark_theme ? (rgb){0.62, 0.63, 0.65} : (rgb){0.55, 0.55, 0.55};
    grid = dark_theme ? (rgb){0.24, 0.25, 0.27} : (rgb){0.88, 0.88, 0.88};
}

/* State colours: polarized and milling are the two ordered states and get
 * the two strongest hues; swarm a third; transition stays neutral. */
static rgb state_colour(mur_state s)
{
    switch (s) {
    case MUR_STATE_POLARIZED: return palette[0];
    case MUR_STATE_MILLING: return palette[1];
    case MUR_STATE_SWARM: return palette[3];
    default: return (rgb){0.85, 0.85, 0.85};
    }
}

/* ---- the figure: surface, text ------------------------------------------ */

enum { FMT_NONE, FMT_PNG, FMT_PDF, FMT_SVG };

typedef struct {
    int format;
    mur_atomic file;          /* the output (murmur/file.h); file.error: errno of the first failed write */
    cairo_surface_t *surface;
    cairo_t *cr;
    mur_text text;            /* MUR_FONT, sizes in points (the figure's user units) */
    char *meta;               /* the experiment's provenance, stored in the file */
    mur_meta_writer mw;       /* writes fig_write's bytes with meta added (meta.c) */
    double w, h;              /* the drawing's size, pt; a footer (mur_chart_footer) goes below */
} figure;

#define FOOTER_H 10.0         /* pt: the --plot-provenance line */

static int format_of(const char *path)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    if (!dot || (slash && dot < slash))
        return FMT_NONE;
    if (!strcmp(dot, ".png"))
        return FMT_PNG;
    if (!strcmp(dot, ".pdf"))
        return FMT_PDF;
    if (!strcmp(dot, ".svg"))
        return FMT_SVG;
    return FMT_NONE;
}

int mur_plot_format_ok(const char *path) { return format_of(path) != FMT_NONE; }

static void fig_abort(figure *f)
{
    if (f->cr)
        cairo_destroy(f->cr);
    if (f->surface) {
        cairo_surface_finish(f->surface);
        cairo_surface_destroy(f->surface);
    }
    mur_text_free(&f->text);
    mur_free(f->meta);
    mur_atomic_abort(&f->file);
    memset(f, 0, sizeof *f);
}

/* Cairo's writes, keeping errno: Cairo's own status says only "error
 * while writing to output stream", not why. */
static cairo_status_t fig_write(void *closure, const unsigned char *data, unsigned int length)
{
    figure *f = closure;
    if (f->file.fp && fwrite(data, 1, length, f->file.fp) == length)
        return CAIRO_STATUS_SUCCESS;
    if (!f->file.error)
        f->file.error = errno;
    return CAIRO_STATUS_WRITE_ERROR;
}

/* Start a w x h pt figure, written to a temporary name beside the final
 * one (vector formats from the start, PNG at the end), or in place to a
 * device or pipe. */
static int fig_begin(figure *f, const char *path, const mur_figure *e, double w, double h,
                     mur_error *err)
{
    memset(f, 0, sizeof *f);
    f->format = format_of(path);
    if (f->format == FMT_NONE)
        return mur_error_set(err, MUR_EINPUT, "a figure must end in .png, .pdf or .svg, not '%s'", path);
    int rc = MUR_OK;
    if (!(f->meta = mur_strdup(e->provenance ? e->provenance : "")))
        rc = mur_error_set(err, MUR_ERUN, "out of memory starting a figure");
    if (rc || (rc = mur_atomic_begin(&f->file, path, 0, err)) || !mur_atomic_fopen(&f->file, "wb", err)) {
        fig_abort(f);
        return rc ? rc : MUR_ERUN;
    }
    const char *title = e->title;
    f->mw = (mur_meta_writer){fig_write, f, f->format == FMT_PNG ? MUR_META_PNG : MUR_META_SVG, title,
                              f->meta, 0, 0, 0};
    f->w = w;
    f->h = h;
    if (mur_chart_footer())
        h += FOOTER_H;
    double scale = 1;
    switch (f->format) {
    case FMT_PDF:
        f->surface = cairo_pdf_surface_create_for_stream(fig_write, f, w, h);
        mur_meta_pdf(f->surface, title, f->meta);
        break;
    case FMT_SVG: f->surface = cairo_svg_surface_create_for_stream(mur_meta_write, &f->mw, w, h); break;
    default:
        scale = MUR_PLOT_DPI / 72.0;
        f->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)ceil(w * scale),
                                                (int)ceil(h * scale));
        break;
    }
    if (cairo_surface_status(f->surface) != CAIRO_STATUS_SUCCESS) {
        int rc = mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", path,
                               cairo_status_to_string(cairo_surface_status(f->surface)));
        fig_abort(f);
        return rc;
    }
    f->cr = cairo_create(f->surface);
    cairo_scale(f->cr, scale, scale);
    cairo_set_source_rgb(f->cr, paper.r, paper.g, paper.b);
    cairo_paint(f->cr);
    if (mur_text_init(&f->text, MUR_TEXT_FIGURE)) {
        fig_abort(f);
        return mur_error_set(err, MUR_ERUN, "out of memory starting a figure");
    }
    return MUR_OK;
}

static void draw_footer(figure *f);

/* Finish: check every drawing call through the context's sticky status,
 * then close the file and rename it into place (mur_atomic_commit). */
static int fig_end(figure *f, mur_error *err)
{
    draw_footer(f);
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
    cairo_surface_finish(f->surface);   /* a failed drawing's too: its last writes land before the close */
    int rc;
    if (st != CAIRO_STATUS_SUCCESS && !f->file.error)
        rc = mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", f->file.path,
                           cairo_status_to_string(st));
    else
        rc = mur_atomic_commit(&f->file, err);   /* reports file.error, if any */
    fig_abort(f);
    return rc;
}

/* Lays s out at size pt for the context's current transformation. */
static void layout_text(figure *f, const char *s, double size)
{
    mur_text_begin(&f->text, f->cr);
    mur_text_set_left(&f->text, s, size, 0, 0);
}

static double text_width(figure *f, const char *s, double size)
{
    double w, h;
    layout_text(f, s, size);
    mur_text_size(&f->text, &w, &h);
    return w;
}

/* s as Pango markup for text of size pt: <, > and & escaped, and a
 * one-letter symbol with an index, "R_coh" (a letter standing alone, an
 * underscore, letters), set as R with "coh" lowered and smaller. A
 * setting's name ("alignment_radius") stays as it is. The index's size is
 * absolute: Pango's <sub> scales from the context's default font, not
 * the layout's, and comes out larger than the text. */
static void title_markup(const char *s, double size, char *out, size_t n)
{
    size_t len = 0;
    for (size_t i = 0; s[i] && len + 16 < n; i++) {
        int lone = isalpha((unsigned char)s[i]) && (i == 0 || !isalnum((unsigned char)s[i - 1])) &&
                   s[i + 1] == '_' && isalpha((unsigned char)s[i + 2]);
        if (lone) {
            size_t j = i + 2;
            len += (size_t)snprintf(out + len, n - len, "%c<span size=\"%ld\" rise=\"%ld\">", s[i],
                                    lround(size * 0.7 * PANGO_SCALE), -lround(size * 0.22 * PANGO_SCALE));
            while (isalnum((unsigned char)s[j]) && len + 12 < n)
                out[len++] = s[j++];
            len += (size_t)snprintf(out + len, n - len, "</span>");
            i = j - 1;
        } else if (s[i] == '<' || s[i] == '>' || s[i] == '&') {
            len += (size_t)snprintf(out + len, n - len, "%s", s[i] == '<' ? "&lt;" : s[i] == '>' ? "&gt;" : "&amp;");
        } else {
            out[len++] = s[i];
        }
    }
    out[len < n ? len : n - 1] = 0;
}

/* The box of a title (title_markup's subscripts) at size pt, its lines
 * wrapped to wrap wide (0: one line). */
static void title_box(figure *f, const char *s, double size, double wrap, double *w, double *h)
{
    char m[1024];
    title_markup(s, size, m, sizeof m);
    mur_text_begin(&f->text, f->cr);
    mur_text_set_markup_wrap(&f->text, m, size, wrap);
    mur_text_size(&f->text, w, h);
}

/* Text is laid out under a transform: begin_placed moves the origin to
 * (x, y) turned by angle and starts a layout, which the caller then sets;
 * end_placed draws it with its box's point (ax, ay) at that origin. */
static void begin_placed(figure *f, double x, double y, double angle)
{
    cairo_save(f->cr);
    cairo_translate(f->cr, x, y);
    cairo_rotate(f->cr, angle);
    mur_text_begin(&f->text, f->cr);
}

static void end_placed(figure *f, double ax, double ay, rgb c)
{
    double w, h;
    mur_text_size(&f->text, &w, &h);
    mur_text_draw(&f->text, f->cr, -ax * w, -ay * h, (const double[3]){c.r, c.g, c.b}, 1);
    cairo_restore(f->cr);
}

/* A title wrapped to wrap wide (0: one line), its box's point (ax, ay) at
 * (x, y). */
static void title_wrapped(figure *f, double x, double y, const char *s, double size, double wrap, double ax,
                          double ay, double angle, rgb c)
{
    char m[1024];
    title_markup(s, size, m, sizeof m);
    begin_placed(f, x, y, angle);
    mur_text_set_markup_wrap(&f->text, m, size, wrap);
    end_placed(f, ax, ay, c);
}

/* A title or an axis label: as text(), with title_markup's subscripts, on
 * one line. */
static void title(figure *f, double x, double y, const char *s, double size, double ax, double ay, double angle,
                  rgb c)
{
    title_wrapped(f, x, y, s, size, 0, ax, ay, angle, c);
}

/* s as text() draws it, its lines wrapped to wrap wide (0: one line). */
static void text_wrapped(figure *f, double x, double y, const char *s, double size, double wrap, double ax,
                         double ay, double angle, rgb c)
{
    begin_placed(f, x, y, angle);
    mur_text_set_left(&f->text, s, size, 0, wrap);
    end_placed(f, ax, ay, c);
}

/* Draw s with its logical box's point (ax, ay) (fractions: 0 = left/top,
 * 1 = right/bottom) at (x, y), turned by angle radians about that point. */
static void text(figure *f, double x, double y, const char *s, double size, double ax, double ay,
                 double angle, rgb c)
{
    text_wrapped(f, x, y, s, size, 0, ax, ay, angle, c);
}

/* The footer line (mur_chart_footer: --plot-provenance), small and grey
 * under the drawing, when one is set. */
static void draw_footer(figure *f)
{
    const char *s = mur_chart_footer();
    if (!s)
        return;
    cairo_set_source_rgb(f->cr, grid.r, grid.g, grid.b);
    cairo_set_line_width(f->cr, 0.4);
    cairo_move_to(f->cr, 4, f->h + 1);
    cairo_line_to(f->cr, f->w - 4, f->h + 1);
    cairo_stroke(f->cr);
    text(f, 4, f->h + FOOTER_H / 2 + 0.5, s, 5.0, 0, 0.5, 0, grey);
}

/* ---- axes ---------------------------------------------------------------- */

/* A plot area in points and the data range it shows. */
typedef struct {
    double x, y, w, h;
    double x0, x1, y0, y1;
} panel;

static double px(const panel *p, double v) { return p->x + (v - p->x0) / (p->x1 - p->x0) * p->w; }
static double py(const panel *p, double v) { return p->y + p->h - (v - p->y0) / (p->y1 - p->y0) * p->h; }

/* 1, 2 or 5 times a power of ten, giving about `want` steps over range. */
static double nice_step(double range, int want)
{
    if (!(range > 0))
        return 1;
    double raw = range / want, mag = pow(10, floor(log10(raw))), norm = raw / mag;
    return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

/* Fewest decimals (up to 6) that print v exactly enough. */
static int decimals(double v)
{
    int d = 0;
    for (double m = 1; d < 6 && fabs(v * m - round(v * m)) > 1e-6 * fmax(1, fabs(v * m)); m *= 10)
        d++;
    return d;
}

/* Decimals for every tick of an axis: the most any tick needs, so a column
 * of labels reads 0.0, 0.5, 1.0 rather than 0, 0.5, 1. */
static int axis_decimals(double first, double last, double step)
{
    int d = 0;
    for (double v = first; v <= last + step * 1e-6; v += step)
        d = d > decimals(v) ? d : decimals(v);
    return d;
}

/* A tick label with dec decimals; an axis that would need more than 3
 * (a setting's own extremes, say 0.266667) gets 3 significant digits. */
static void tick_label(char *buf, size_t n, double v, double step, int dec)
{
    if (fabs(v) < step * 1e-6)
        v = 0;  /* no "-0" */
    if (dec > 3)
        snprintf(buf, n, "%.3g", v);
    else
        snprintf(buf, n, "%.*f", dec, v);
}

/* The metrics that are shares of the flock live on [0, 1]. */
static int unit_metric(int k) { return mur_metric_info_at(k)->unit_interval; }

static const char *metric_title(int k)
{
    const mur_metric_info *m = mur_metric_info_at(k);
    return m ? m->title : "?";
}

/* A setting as an axis names it: its name and the unit its help line
 * gives ("cohesion_radius (world units)"); a weight or a share has none. */
static const char *setting_heading(const mur_setting *st, char *buf, size_t n)
{
    const char *unit = strstr(st->help, "units/tick") ? "world units per tick"
                     : strstr(st->help, "world units") ? "world units"
                     : strstr(st->help, "degrees") ? "degrees" : NULL;
    if (unit)
        snprintf(buf, n, "%s (%s)", st->name, unit);
    else
        snprintf(buf, n, "%s", st->name);
    return buf;
}

/* A metric panel's heading: its title and, where it has one the title does
 * not already say, its unit ("nearest-neighbour distance (world units)"). */
static const char *metric_heading(int k, char *buf, size_t n)
{
    const mur_metric_info *m = mur_metric_info_at(k);
    if (m && m->unit[0] && !strstr(m->title, m->unit))
        snprintf(buf, n, "%s (%s)", m->title, m->unit);
    else
        snprintf(buf, n, "%s", metric_title(k));
    return buf;
}

/* y range [0, top] for values up to vmax; returns the tick step. */
static double y_range(panel *p, int metric, double vmax)
{
    p->y0 = 0;
    if (unit_metric(metric)) {
        p->y1 = 1;
        return 0.5;
    }
    if (!(vmax > 0) || !isfinite(vmax))
        vmax = 1;
    double step = nice_step(vmax, 3);
    p->y1 = ceil(vmax / step - 1e-9) * step;
    return step;
}

/* Grid lines and labels every y_step (none when 0), the left and bottom
 * spines, and x tick marks every x_step (labels only when label_x). */
static void draw_axes(figure *f, const panel *p, int label_x, double x_step, double y_step)
{
    cairo_t *cr = f->cr;
    char buf[32];
    cairo_set_line_width(cr, 0.4);
    if (y_step > 0) {
        double step = y_step;
        int dec = axis_decimals(p->y0, p->y1, step);
        for (double v = p->y0; v <= p->y1 + step * 1e-6; v += step) {
            double y = py(p, v);
            cairo_set_source_rgb(cr, grid.r, grid.g, grid.b);
            cairo_move_to(cr, p->x, y);
            cairo_line_to(cr, p->x + p->w, y);
            cairo_stroke(cr);
            tick_label(buf, sizeof buf, v, step, dec);
            text(f, p->x - 2.5, y, buf, TICK_SIZE, 1, 0.5, 0, ink);
        }
    }
    cairo_set_source_rgb(cr, ink.r, ink.g, ink.b);
    cairo_set_line_width(cr, 0.5);
    cairo_move_to(cr, p->x, p->y);
    cairo_line_to(cr, p->x, p->y + p->h);
    cairo_line_to(cr, p->x + p->w, p->y + p->h);
    cairo_stroke(cr);
    if (x_step > 0) {
        double first = ceil(p->x0 / x_step - 1e-9) * x_step;
        int dec = axis_decimals(first, p->x1, x_step);
        for (double v = first; v <= p->x1 + x_step * 1e-6; v += x_step) {
            double x = px(p, v);
            cairo_move_to(cr, x, p->y + p->h);
            cairo_line_to(cr, x, p->y + p->h + 2);
            cairo_stroke(cr);
            if (label_x) {
                tick_label(buf, sizeof buf, v, x_step, dec);
                text(f, x, p->y + p->h + 2.5, buf, TICK_SIZE, 0.5, 0, 0, ink);
            }
        }
    }
}

/* ---- legend -------------------------------------------------------------- */

enum { KEY_LINE, KEY_BAND, KEY_BOX, KEY_DOT, KEY_BAR, KEY_DIAMOND, KEY_DASH, KEY_RING, KEY_CAPPED };

typedef struct {
    int kind;
    rgb c;
    char label[64];
    int brk;        /* start a new row with this key */
} key;

/* An open median marker: a ring, so a line through it (its interval, its
 * range) stays visible however short. */
static void ring(cairo_t *cr, double x, double y, rgb c)
{
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y, 2.0, 0, 2 * MUR_PI);
    cairo_set_source_rgb(cr, paper.r, paper.g, paper.b);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
}

/* A vertical interval from y0 to y1 at x with caps at its ends, in the
 * current colour. */
static void capped(cairo_t *cr, double x, double y0, double y1)
{
    cairo_set_line_width(cr, 0.8);
    cairo_move_to(cr, x, y0);
    cairo_line_to(cr, x, y1);
    cairo_move_to(cr, x - 2, y0);
    cairo_line_to(cr, x + 2, y0);
    cairo_move_to(cr, x - 2, y1);
    cairo_line_to(cr, x + 2, y1);
    cairo_stroke(cr);
}

/* A 10-90% range from y0 to y1 at x: a pale band with a thin line of the
 * full colour down its middle, which shows through a ring on top of it. */
static void range_bar(cairo_t *cr, double x, double y0, double y1, rgb c)
{
    if (y0 - y1 < 0.6) {  /* an empty range still shows as a tick */
        y0 += 0.3;
        y1 -= 0.3;
    }
    cairo_set_source_rgba(cr, c.r, c.g, c.b, 0.3);
    cairo_rectangle(cr, x - 2.2, y1, 4.4, y0 - y1);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
    cairo_set_line_width(cr, 0.7);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_move_to(cr, x, y0);
    cairo_line_to(cr, x, y1);
    cairo_stroke(cr);
}

static void draw_key_symbol(cairo_t *cr, const key *k, double x, double y)
{
    cairo_set_source_rgb(cr, k->c.r, k->c.g, k->c.b);
    switch (k->kind) {
    case KEY_LINE:
        cairo_set_line_width(cr, 1.0);
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, x + 10, y);
        cairo_stroke(cr);
        break;
    case KEY_DASH: {
        double dash[2] = {1.5, 1.2};
        cairo_set_dash(cr, dash, 2, 0);
        cairo_set_line_width(cr, 0.6);
        cairo_move_to(cr, x + 5, y - 3.5);
        cairo_line_to(cr, x + 5, y + 3.5);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        break;
    }
    case KEY_BAND:
        cairo_set_source_rgba(cr, k->c.r, k->c.g, k->c.b, 0.25);
        cairo_rectangle(cr, x, y - 3, 10, 6);
        cairo_fill(cr);
        break;
    case KEY_BOX:
        cairo_rectangle(cr, x + 2, y - 3, 6, 6);
        cairo_fill(cr);
        break;
    case KEY_DOT:
        cairo_arc(cr, x + 5, y, 1.8, 0, 2 * MUR_PI);
        cairo_fill(cr);
        break;
    case KEY_BAR:
        range_bar(cr, x + 5, y + 3.5, y - 3.5, k->c);
        break;
    case KEY_RING:
        ring(cr, x + 5, y, k->c);
        break;
    case KEY_CAPPED:
        capped(cr, x + 5, y - 3.5, y + 3.5);
        break;
    case KEY_DIAMOND:
        cairo_move_to(cr, x + 5, y - 2.2);
        cairo_line_to(cr, x + 7.2, y);
        cairo_line_to(cr, x + 5, y + 2.2);
        cairo_line_to(cr, x + 2.8, y);
        cairo_close_path(cr);
        cairo_set_source_rgb(cr, paper.r, paper.g, paper.b);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, k->c.r, k->c.g, k->c.b);
        cairo_set_line_width(cr, 0.6);
        cairo_stroke(cr);
        break;
    }
}

/* Flow keys left to right from (x, y), wrapping at x + w; returns the
 * height used. With draw = 0 only measures. */
/* Measuring text needs a context before the figure's own surface exists
 * (its size depends on the text): a throwaway recording surface. */
static void probe_open(figure *f)
{
    memset(f, 0, sizeof *f);
    cairo_surface_t *surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, NULL);
    f->cr = cairo_create(surface);
    cairo_surface_destroy(surface);  /* the context keeps it alive */
    mur_text_init(&f->text, MUR_TEXT_FIGURE);   /* failed: it measures 0, and fig_begin fails */
}

static void probe_close(figure *f)
{
    cairo_destroy(f->cr);
    mur_text_free(&f->text);
}

static double draw_legend(figure *f, const key *keys, int n, double x, double y, double w, int draw)
{
    const double row = 10, sym = 12, space = 7;
    double cx = x, cy = y + row / 2;
    for (int i = 0; i < n; i++) {
        double tw = text_width(f, keys[i].label, TEXT_SIZE);
        if (cx > x && (keys[i].brk || cx + sym + tw > x + w)) {
            cx = x;
            cy += row;
        }
        if (draw) {
            draw_key_symbol(f->cr, &keys[i], cx, cy);
            text(f, cx + sym, cy, keys[i].label, TEXT_SIZE, 0, 0.5, 0, ink);
        }
        cx += sym + tw + space;
    }
    return cy + row / 2 - y;
}

/* ---- series -------------------------------------------------------------- */

/* Values of one metric (or setting) along time: the line and its band. */
typedef struct {
    double *mid, *lo, *hi;
} track;

typedef struct {
    double at;           /* seconds */
    double over;         /* ramp duration, 0 for none */
    char label[96];
    int row;             /* label row in the cue strip */
    double x0, x1;       /* label extent, points */
} cue_mark;

/* Stagger cue labels into rows so none overlaps its neighbour; returns the
 * number of rows (at most 3: beyond that labels may overlap). */
static int place_cues(figure *f, cue_mark *m, int n, const panel *p)
{
    double right[3] = {-1e9, -1e9, -1e9};
    int rows = 0;
    for (int i = 0; i < n; i++) {
        double w = text_width(f, m[i].label, TICK_SIZE);
        double x = px(p, m[i].at);
        double x0 = fmin(fmax(x - w / 2, p->x), p->x + p->w - w);
        int r = 0;
        while (r < 2 && x0 < right[r] + 3)
            r++;
        m[i].row = r;
        m[i].x0 = x0;
        m[i].x1 = x0 + w;
        right[r] = x0 + w;
        if (r + 1 > rows)
            rows = r + 1;
    }
    return rows;
}

/* Ramp shades and cue lines over one time panel. */
static void draw_cues(figure *f, const cue_mark *m, int n, const panel *p)
{
    cairo_t *cr = f->cr;
    for (int i = 0; i < n; i++) {
        if (m[i].over > 0) {
            double a = px(p, fmax(m[i].at, p->x0)), b = px(p, fmin(m[i].at + m[i].over, p->x1));
            cairo_set_source_rgba(cr, 0.5, 0.5, 0.5, 0.07);
            cairo_rectangle(cr, a, p->y, b - a, p->h);
            cairo_fill(cr);
        }
        if (m[i].at > p->x0) {
            double dash[2] = {1.5, 1.2};
            double x = px(p, m[i].at);
            cairo_set_dash(cr, dash, 2, 0);
            cairo_set_line_width(cr, 0.5);
            cairo_set_source_rgb(cr, grey.r, grey.g, grey.b);
            cairo_move_to(cr, x, p->y);
            cairo_line_to(cr, x, p->y + p->h);
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
        }
    }
}

/* The line (and band when lo/hi are given) of one track on a panel. */
static void draw_track(figure *f, const panel *p, const track *t, const double *ts, long last, rgb c)
{
    cairo_t *cr = f->cr;
    cairo_save(cr);
    cairo_rectangle(cr, p->x, p->y - 1, p->w, p->h + 2);
    cairo_clip(cr);
    if (t->lo) {
        cairo_new_path(cr);
        for (long k = 0; k <= last; k++)
            cairo_line_to(cr, px(p, ts[k]), py(p, t->hi[k]));
        for (long k = last; k >= 0; k--)
            cairo_line_to(cr, px(p, ts[k]), py(p, t->lo[k]));
        cairo_close_path(cr);
        cairo_set_source_rgba(cr, c.r, c.g, c.b, 0.25);
        cairo_fill(cr);
    }
    cairo_new_path(cr);
    for (long k = 0; k <= last; k++)
        cairo_line_to(cr, px(p, ts[k]), py(p, t->mid[k]));
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
    cairo_set_line_width(cr, 0.8);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_stroke(cr);
    cairo_restore(cr);
}

static double track_max(const track *t, long last)
{
    double m = -INFINITY;
    for (long k = 0; k <= last; k++) {
        double v = t->hi ? t->hi[k] : t->mid[k];
        if (isfinite(v) && v > m)
            m = v;
    }
    return m;
}

/* A small filled arrowhead at (x, y) pointing along (dx, dy). */
static void arrowhead(cairo_t *cr, double x, double y, double dx, double dy)
{
    double l = hypot(dx, dy);
    if (!(l > 0))
        return;
    dx /= l;
    dy /= l;
    cairo_move_to(cr, x + 3.2 * dx, y + 3.2 * dy);
    cairo_line_to(cr, x - 2.0 * dx - 2.2 * dy, y - 2.0 * dy + 2.2 * dx);
    cairo_line_to(cr, x - 2.0 * dx + 2.2 * dy, y - 2.0 * dy - 2.2 * dx);
    cairo_close_path(cr);
    cairo_fill(cr);
}

/* The loop panel: metric (y) against the one swept setting (x), each stretch
 * coloured by whether the setting is rising, falling or held, with arrows a
 * third and two thirds along each rising or falling stretch. An arrow's
 * direction comes from a window of a few percent of the stretch: tick to
 * tick, a median over runs jitters too much to point anywhere. */
static void draw_loop(figure *f, const panel *p, const double *sx, const track *t, long last)
{
    cairo_t *cr = f->cr;
    cairo_save(cr);
    cairo_rectangle(cr, p->x - 1, p->y - 1, p->w + 2, p->h + 2);
    cairo_clip(cr);
    cairo_set_line_width(cr, 0.8);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    long k = 0;
    while (k < last) {
        int dir = (sx[k + 1] > sx[k]) - (sx[k + 1] < sx[k]);
        long e = k + 1;
        while (e < last && ((sx[e + 1] > sx[e]) - (sx[e + 1] < sx[e])) == dir)
            e++;
        rgb c = dir > 0 ? palette[0] : dir < 0 ? palette[1] : grey;
        cairo_set_source_rgba(cr, c.r, c.g, c.b, dir ? 1 : 0.6);
        cairo_new_path(cr);
        for (long j = k; j <= e; j++)
            cairo_line_to(cr, px(p, sx[j]), py(p, t->mid[j]));
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, c.r, c.g, c.b);
        long half = (e - k) / 30;
        for (int a = 1; dir && half >= 1 && a <= 2; a++) {
            long m = k + (e - k) * a / 3;
            double x0 = px(p, sx[m - half]), y0 = py(p, t->mid[m - half]);
            double x1 = px(p, sx[m + half]), y1 = py(p, t->mid[m + half]);
            arrowhead(cr, (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0);
        }
        k = e;
    }
    cairo_restore(cr);
}

/* Heights in a series figure, points. */
#define SET_H 18.0      /* plot area of a setting panel */
#define STATE_H 6.0     /* the state strip */
#define AXIS_H 20.0     /* a time axis with its label */
#define LOOP_H 100.0    /* plot area of the loop panel */

/* What every phase of a series figure reads: the samples gathered once. */
typedef struct {
    const mur_figure *e;
    const int *metrics;              /* the n metrics drawn, one panel each */
    int n;
    int runs;
    long ticks;
    double tmax;                     /* seconds */
    long last;                       /* index of the last sample */
    const mur_setting *const *swept;
    int nswept;                      /* setting panels, above the metrics */
    int loop;                        /* draw the loop panel */
    int nc;                          /* conditions, one band each */
    int per;                         /* tracks per condition: n + nswept + 2 */
    track *tr;                       /* per condition: metrics, settings, then order and milling for the state */
    double *ts;                      /* time of each sample, seconds */
    long *tick_of;                   /* tick of each sample */
    cue_mark *cues;
    int ncues;
} series;

/* State strips under the panels: one per condition. */
static int strips(const series *sr) { return sr->nc; }

/* Where a series figure's parts go, top to bottom: legend, cue labels,
 * setting panels, metric panels, state strip, time axis, loop panel. */
typedef struct {
    key keys[8 + MAX_KEYED];
    int nkeys;
    double cue_y, top, state_y, loop_y, H;
} series_layout;

/* Leaves the sample times and every track: the figure's own (metric
 * tracks: median and band, or the one run; setting tracks; the state's
 * two inputs). */
static void series_gather(series *sr)
{
    for (long j = 0; j <= sr->last; j++) {
        sr->tick_of[j] = sr->e->sample_ticks[j];
        sr->ts[j] = sr->tick_of[j] / sr->e->tps;
    }
    for (int i = 0; i < sr->per * sr->nc; i++) {
        const mur_figure_track *t = &sr->e->tracks[i];
        sr->tr[i].mid = (double *)t->mid;
        sr->tr[i].lo = (double *)t->lo;
        sr->tr[i].hi = (double *)t->hi;
    }
}

/* Enters with the tracks gathered and one numeric setting swept; returns
 * whether it makes a sweep: the setting glides both up and down for a
 * while (a knockout's instant set and ramp back is not a loop). */
static int series_sweeps(const series *sr)
{
    const double *sx = sr->tr[sr->n].mid;
    long up = 0, down = 0;
    for (long j = 0; j < sr->last; j++) {
        up += sx[j + 1] > sx[j];
        down += sx[j + 1] < sx[j];
    }
    return up >= sr->last / 100 + 2 && down >= sr->last / 100 + 2;
}

/* Leaves sr->cues with the labelled cues within the figure's time, in
 * timeline order (a caption alone changes nothing measured). */
static void series_cues(series *sr)
{
    cue_mark *cues = sr->cues;
    int ncues = 0;
    for (int i = 0; i < sr->e->ncues; i++) {
        const mur_figure_cue *q = &sr->e->cues[i];
        if (q->at > sr->tmax || q->at < 0)
            continue;
        snprintf(cues[ncues].label, sizeof cues[ncues].label, "%s", q->label ? q->label : "");
        if (!cues[ncues].label[0])
            continue;  /* a caption alone changes nothing measured */
        cues[ncues].at = q->at;
        cues[ncues].over = q->over;
        ncues++;
    }
    sr->ncues = ncues;
}

/* Fills keys (room for 8) with the series legend; returns how many. */
static int series_keys(const series *sr, key *keys)
{
    int nkeys = 0;
    rgb first = sr->nc > 1 ? ink : palette[0];   /* several conditions: the keys below give the colours */
    keys[nkeys] = (key){KEY_LINE, first, "", 0};
    if (sr->runs > 1)
        snprintf(keys[nkeys++].label, sizeof keys[0].label, "median of %d runs", sr->runs);
    else
        snprintf(keys[nkeys++].label, sizeof keys[0].label, "one run (seed %llu)",
                 (unsigned long long)sr->e->seed);
    if (sr->runs > 1)
        keys[nkeys++] = (key){KEY_BAND, first, "10\xe2\x80\x93" "90% of runs", 0};
    if (sr->ncues)
        keys[nkeys++] = (key){KEY_DASH, grey, "timeline cue", 0};
    static const mur_state states[4] = {MUR_STATE_POLARIZED, MUR_STATE_MILLING, MUR_STATE_SWARM,
                                        MUR_STATE_TRANSITION};
    for (int i = 0; i < 4; i++) {
        keys[nkeys] = (key){KEY_BOX, state_colour(states[i]), "", i == 0};
        snprintf(keys[nkeys++].label, sizeof keys[0].label, "%s", mur_state_name(states[i]));
    }
    for (int c = 0; sr->nc > 1 && c < sr->nc && c < MAX_KEYED; c++) {
        keys[nkeys] = (key){KEY_LINE, condition_colour(sr->e, c), "", c == 0};
        if (c == MAX_KEYED - 1 && sr->nc > MAX_KEYED)
            snprintf(keys[nkeys++].label, sizeof keys[0].label, "and %d more", sr->nc - c);
        else
            snprintf(keys[nkeys++].label, sizeof keys[0].label, "%s", condition_label(sr->e, c));
    }
    return nkeys;
}

/* Enters with the cues collected; leaves lo with the legend and every
 * part's top (the text measured on a probe), and the cues placed in rows. */
static void series_place(series *sr, series_layout *lo)
{
    const double W = MUR_PLOT_WIDTH, L = MARGIN_L, PW = W - MARGIN_L - MARGIN_R;
    lo->nkeys = series_keys(sr, lo->keys);
    figure probe;
    probe_open(&probe);
    panel timeref = {L, 0, PW, 1, 0, sr->tmax, 0, 1};
    double legend_h = draw_legend(&probe, lo->keys, lo->nkeys, L, 0, PW, 0);
    int cue_rows = sr->ncues ? place_cues(&probe, sr->cues, sr->ncues, &timeref) : 0;
    probe_close(&probe);

    double y = 4 + legend_h + 4;
    lo->cue_y = y;
    y += cue_rows * 8 + (cue_rows ? 2 : 0);
    lo->top = y;
    y += sr->nswept * (TITLE_H + SET_H + GAP) + sr->n * (TITLE_H + PANEL_H + GAP);
    lo->state_y = y + 1;
    y = lo->state_y + STATE_H * strips(sr) + AXIS_H;
    lo->loop_y = y + 8;
    if (sr->loop)
        y = lo->loop_y + TITLE_H + LOOP_H + AXIS_H;
    lo->H = ceil(y + 4);
}

/* Draws panel i of the stack whose title line starts at y: the settings'
 * panels (i < nswept), then the metrics'; returns the height it took. */
static double draw_series_panel(figure *f, const series *sr, int i, double y, double x_step)
{
    const double W = MUR_PLOT_WIDTH, L = MARGIN_L, PW = W - MARGIN_L - MARGIN_R;
    const int n = sr->n, nswept = sr->nswept;
    const long last = sr->last;
    int is_set = i < nswept;
    const track *t = is_set ? &sr->tr[n + i] : &sr->tr[i - nswept];
    double vmax = -INFINITY;
    for (int c = 0; c < sr->nc; c++)
        vmax = fmax(vmax, track_max(t + c * sr->per, last));
    int k = is_set ? -1 : sr->metrics[i - nswept];
    panel p = {L, y + TITLE_H, PW, is_set ? SET_H : PANEL_H, 0, sr->tmax, 0, 1};
    double y_step;
    if (is_set) {
        double vmin = INFINITY;
        for (int c = 0; c < sr->nc; c++)
            for (long j = 0; j <= last; j++)
                vmin = fmin(vmin, t[c * sr->per].mid[j]);
        /* A setting's panel shows its own extremes, labelled exactly. */
        p.y0 = fmin(0, vmin);
        p.y1 = vmax > p.y0 ? vmax : p.y0 + 1;
        y_step = p.y1 - p.y0;
    } else {
        y_step = y_range(&p, k, vmax);
    }
    char head[160];
    if (is_set)
        text(f, L, y + TITLE_H - 1, setting_heading(sr->swept[i], head, sizeof head), TEXT_SIZE, 0, 1, 0, ink);
    else
        title(f, L, y + TITLE_H - 1, metric_heading(k, head, sizeof head), TEXT_SIZE, 0, 1, 0, ink);
    draw_cues(f, sr->cues, sr->ncues, &p);
    int choices = is_set && sr->swept[i]->type == MUR_SETTING_ENUM;
    draw_axes(f, &p, 0, x_step, choices ? 0 : y_step);
    for (int v = (int)p.y0; choices && v <= (int)p.y1; v++) {
        /* an enum's values by name; the table ends with NULL */
        int known = 0;
        while (known <= v && sr->swept[i]->choices[known])
            known++;
        text(f, p.x - 2.5, py(&p, v), known > v ? sr->swept[i]->choices[v] : "?", TICK_SIZE, 1, 0.5, 0, ink);
    }
    for (int c = 0; c < sr->nc; c++)
        draw_track(f, &p, t + c * sr->per, sr->ts, last,
                   sr->nc > 1 ? condition_colour(sr->e, c) : is_set ? grey : palette[0]);
    return TITLE_H + p.h + GAP;
}

/* Draws the state strip at state_y, one rectangle per run of equal state,
 * and the time axis under it. */
static void draw_state_strip(figure *f, const series *sr, double state_y, double x_step)
{
    const double W = MUR_PLOT_WIDTH, L = MARGIN_L, PW = W - MARGIN_L - MARGIN_R;
    const double tmax = sr->tmax, *ts = sr->ts;
    const long last = sr->last;
    for (int c = 0; c < sr->nc; c++) {
    panel sp = {L, state_y + c * STATE_H, PW, STATE_H, 0, tmax, 0, 1};
    const track *to = &sr->tr[c * sr->per + sr->n + sr->nswept], *tm = to + 1;
    for (long a = 0; a <= last;) {
        mur_state st = mur_state_classify(to->mid[a], tm->mid[a]);
        long b = a + 1;
        while (b <= last && mur_state_classify(to->mid[b], tm->mid[b]) == st)
            b++;
        rgb c = state_colour(st);
        cairo_set_source_rgb(f->cr, c.r, c.g, c.b);
        double x0 = px(&sp, ts[a]), x1 = px(&sp, b <= last ? ts[b] : tmax);
        cairo_rectangle(f->cr, x0, sp.y, fmax(x1 - x0, 0.05), sp.h - (sr->nc > 1 ? 0.5 : 0));
        cairo_fill(f->cr);
        a = b;
    }
    if (sr->nc > 1) {  /* whose strip: a square of the condition's colour */
        rgb cc = condition_colour(sr->e, c);
        cairo_set_source_rgb(f->cr, cc.r, cc.g, cc.b);
        cairo_rectangle(f->cr, L - 4.5, sp.y + 1, 3, STATE_H - 2);
        cairo_fill(f->cr);
    }
    }
    double sh = STATE_H * strips(sr);
    text(f, L - (sr->nc > 1 ? 6 : 2.5), state_y + sh / 2, "state", TICK_SIZE, 1, 0.5, 0, ink);
    panel axis = {L, state_y - 1, PW, sh + 1, 0, tmax, 0, 1};
    draw_axes(f, &axis, 1, x_step, 0);
    text(f, L + PW / 2, state_y + sh + 11, "time (s)", TEXT_SIZE, 0.5, 0, 0, ink);
}

/* Draws the keys for the directions the sweep sx has (rising, falling,
 * held), at the top right of the loop panel p. */
static void draw_loop_keys(figure *f, const panel *p, const double *sx, long last, const char *name)
{
    const double W = MUR_PLOT_WIDTH, L = MARGIN_L, PW = W - MARGIN_L - MARGIN_R;
    int has[3] = {0, 0, 0};  /* rising, falling, held */
    for (long j = 0; j < last; j++)
        has[sx[j + 1] > sx[j] ? 0 : sx[j + 1] < sx[j] ? 1 : 2] = 1;
    key lk[3];
    int nk = 0;
    if (has[0]) {
        lk[nk] = (key){KEY_LINE, palette[0], "", 0};
        snprintf(lk[nk++].label, sizeof lk[0].label, "%s rising", name);
    }
    if (has[1]) {
        lk[nk] = (key){KEY_LINE, palette[1], "", 0};
        snprintf(lk[nk++].label, sizeof lk[0].label, has[0] ? "falling" : "%s falling", name);
    }
    if (has[2])
        lk[nk++] = (key){KEY_LINE, grey, "held", 0};
    double lw = 0;
    for (int i = 0; i < nk; i++)
        lw += 12 + text_width(f, lk[i].label, TEXT_SIZE) + 7;
    draw_legend(f, lk, nk, L + PW - lw, p->y + 1, lw + 1, 1);
}

/* Draws the loop panel whose title line starts at loop_y: the first metric
 * against the one swept setting, with its keys. */
static void draw_loop_panel(figure *f, const series *sr, double loop_y)
{
    const double W = MUR_PLOT_WIDTH, L = MARGIN_L, PW = W - MARGIN_L - MARGIN_R;
    const long last = sr->last;
    const track *lt = &sr->tr[0];
    const double *sx = sr->tr[sr->n].mid;
    double xmin = INFINITY, xmax = -INFINITY;
    for (long j = 0; j <= last; j++) {
        xmin = fmin(xmin, sx[j]);
        xmax = fmax(xmax, sx[j]);
    }
    double xs = nice_step(fmax(xmax - xmin, 1e-9), 5);
    panel p = {L, loop_y + TITLE_H, PW, LOOP_H, floor(xmin / xs + 1e-9) * xs, 0, 0, 1};
    p.x1 = fmax(ceil(xmax / xs - 1e-9) * xs, p.x0 + xs);
    double y_step = y_range(&p, sr->metrics[0], track_max(&(track){lt->mid, NULL, NULL}, last));
    char head[160], line[240];
    snprintf(line, sizeof line, "%s against %s", metric_heading(sr->metrics[0], head, sizeof head),
             sr->swept[0]->name);
    title(f, L, loop_y + TITLE_H - 1, line, TEXT_SIZE, 0, 1, 0, ink);
    draw_axes(f, &p, 1, xs, y_step);
    draw_loop(f, &p, sx, lt, last);
    text(f, L + PW / 2, p.y + p.h + 11, sr->swept[0]->name, TEXT_SIZE, 0.5, 0, 0, ink);
    draw_loop_keys(f, &p, sx, last, sr->swept[0]->name);
}

int mur_plot_series(const char *path, const mur_figure *e, mur_error *err)
{
    use_theme(e);
    if (format_of(path) == FMT_NONE)
        return mur_error_set(err, MUR_EINPUT, "a figure must end in .png, .pdf or .svg, not '%s'", path);
    if (!MUR_VERSION_OK(e->version, 1, MUR_FIGURE_VERSION))
        return mur_error_set(err, MUR_EINPUT, "figure data of version %u (this murmur takes %d)", e->version,
                             MUR_FIGURE_VERSION);
    if (e->nsamples < 2 || !e->sample_ticks || !e->tracks || e->nconditions < 1 || e->nswept < 0 ||
        e->nswept > MUR_FIGURE_MAX_SWEPT || (e->nswept && !e->swept))
        return mur_error_set(err, MUR_EINPUT, "a series figure needs every tick of the experiment");
    if (e->nmetrics < 1 || !e->metrics)
        return mur_error_set(err, MUR_EINPUT, "a series figure needs at least one metric");
    const int n = e->nmetrics;
    series sr = {.e = e, .metrics = e->metrics, .n = n};
    sr.ticks = e->ticks;
    sr.runs = e->runs;
    sr.tmax = sr.ticks / e->tps;
    sr.last = e->nsamples - 1;
    sr.swept = e->swept;
    sr.nswept = e->nswept;
    /* A hysteresis loop needs one numeric setting to put on the x axis,
     * and a sweep of it (series_sweeps, once its values are known). */
    sr.nc = e->nconditions;
    sr.per = n + sr.nswept + 2;
    sr.loop = sr.nswept == 1 && sr.swept[0]->type == MUR_SETTING_REAL && sr.nc == 1;
    figure f = {0};
    int rc = MUR_OK;
    size_t len = (size_t)sr.last + 1;
    int ntracks = sr.per * sr.nc;  /* per condition: metrics, settings, then order and milling for the state */
    sr.tr = mur_calloc((size_t)ntracks, sizeof *sr.tr);
    sr.cues = mur_calloc((size_t)e->ncues + 1, sizeof *sr.cues);
    sr.ts = mur_calloc(len, sizeof *sr.ts);
    sr.tick_of = mur_calloc(len, sizeof *sr.tick_of);
    if (!sr.tr || !sr.cues || !sr.ts || !sr.tick_of) {
        rc = mur_error_set(err, MUR_ERUN, "out of memory drawing a figure");
        goto done;
    }
    series_gather(&sr);
    if (sr.loop)
        sr.loop = series_sweeps(&sr);
    series_cues(&sr);
    series_layout lo;
    series_place(&sr, &lo);

    const double W = MUR_PLOT_WIDTH, L = MARGIN_L, PW = W - MARGIN_L - MARGIN_R;
    if ((rc = fig_begin(&f, path, e, W, lo.H, err)))
        goto done;
    draw_legend(&f, lo.keys, lo.nkeys, L, 4, PW, 1);
    for (int i = 0; i < sr.ncues; i++)
        text(&f, sr.cues[i].x0, lo.cue_y + sr.cues[i].row * 8, sr.cues[i].label, TICK_SIZE, 0, 0, 0, ink);
    double x_step = nice_step(sr.tmax, 6);
    double y = lo.top;
    for (int i = 0; i < sr.nswept + n; i++)
        y += draw_series_panel(&f, &sr, i, y, x_step);
    draw_state_strip(&f, &sr, lo.state_y, x_step);
    if (sr.loop)
        draw_loop_panel(&f, &sr, lo.loop_y);
    rc = fig_end(&f, err);
done:
    fig_abort(&f);
    mur_free(sr.tr);
    mur_free(sr.cues);
    mur_free(sr.ts);
    mur_free(sr.tick_of);
    return rc;
}

/* ---- stats --------------------------------------------------------------- */

/* Condition labels turn this far when they do not fit their slot level. */
#define LABEL_TURN (40 * MUR_PI / 180)

/* Condition labels: level when they fit their slot, else turned 40
 * degrees and hanging from their tick (the bottom margin grows). Measures
 * on a probe; leaves *legend_h and *turned, and returns the labels' height. */
static double stats_measure(const mur_figure *e, const key *keys, double *legend_h, int *turned)
{
    const double W = MUR_PLOT_WIDTH, L = MARGIN_L, PW = W - MARGIN_L - MARGIN_R;
    const int nc = e->nconditions;
    figure probe;
    probe_open(&probe);
    double slot = PW / nc, widest = 0;
    for (int c = 0; c < nc; c++)
        widest = fmax(widest, text_width(&probe, condition_label(e, c), TEXT_SIZE));
    *legend_h = draw_legend(&probe, keys, 3, L, 0, PW, 0);
    probe_close(&probe);
    const double angle = LABEL_TURN;
    *turned = widest > slot - 3;
    return *turned ? widest * sin(angle) + 10 : 11;
}

/* Draws one condition's marks at x on panel p: its tick, its 10-90% bar,
 * its median dot and its mean diamond, in colour col. */
static void draw_condition(cairo_t *cr, const panel *p, const mur_summary *m, rgb col, double x)
{
    cairo_set_source_rgb(cr, grid.r * 0.9, grid.g * 0.9, grid.b * 0.9);
    cairo_set_line_width(cr, 0.5);
    cairo_move_to(cr, x, p->y + p->h);
    cairo_line_to(cr, x, p->y + p->h + 2);
    cairo_stroke(cr);
    /* The median as a ring over its range, and the range's middle line
     * drawn again over the ring: a range narrower than the marker still
     * shows (a filled dot used to hide it). */
    int range = isfinite(m->p10) && isfinite(m->p90);
    if (range)
        range_bar(cr, x, py(p, m->p10), py(p, m->p90), col);
    if (isfinite(m->median))
        ring(cr, x, py(p, m->median), col);
    if (range && isfinite(m->median)) {
        cairo_set_source_rgb(cr, col.r, col.g, col.b);
        cairo_set_line_width(cr, 0.7);
        cairo_move_to(cr, x, fmax(py(p, m->p10), py(p, m->p90) + 0.3));
        cairo_line_to(cr, x, fmin(py(p, m->p90), py(p, m->p10) - 0.3));
        cairo_stroke(cr);
    }
    if (isfinite(m->mean)) {
        key d = {KEY_DIAMOND, col, "", 0};
        draw_key_symbol(cr, &d, x + 1, py(p, m->mean));  /* centred 6 pt right of the bar */
    }
}

/* Draws metric i's panel (metric k) with its title line at y: one mark per
 * condition from sum[c * n + i], and the note (if any) at the right. */
static void draw_stats_panel(figure *f, const mur_figure *e, const mur_summary *sum, int nc, int n, int i,
                             int k, double y, const char *note)
{
    const double W = MUR_PLOT_WIDTH, L = MARGIN_L, PW = W - MARGIN_L - MARGIN_R;
    panel p = {L, y + TITLE_H, PW, PANEL_H, 0, nc, 0, 1};
    double vmax = -INFINITY;
    for (int c = 0; c < nc; c++) {
        const mur_summary *m = &sum[c * n + i];
        double v[3] = {m->p90, m->mean, m->median};
        for (int q = 0; q < 3; q++)
            if (isfinite(v[q]))
                vmax = fmax(vmax, v[q]);
    }
    double y_step = y_range(&p, k, vmax);
    char head[160];
    title(f, L, y + TITLE_H - 1, metric_heading(k, head, sizeof head), TEXT_SIZE, 0, 1, 0, ink);
    if (note)
        text(f, L + PW, y + TITLE_H - 1, note, TICK_SIZE, 1, 1, 0, grey);
    draw_axes(f, &p, 0, 0, y_step);
    for (int c = 0; c < nc; c++)
        draw_condition(f->cr, &p, &sum[c * n + i], condition_colour(e, c), px(&p, c + 0.5));
}

/* Draws the condition names hanging from base, level or turned. */
static void draw_condition_names(figure *f, const mur_figure *e, double base, int turned)
{
    const double W = MUR_PLOT_WIDTH, L = MARGIN_L, PW = W - MARGIN_L - MARGIN_R;
    const int nc = e->nconditions;
    const double angle = LABEL_TURN;
    double slot = PW / nc;
    for (int c = 0; c < nc; c++) {
        double x = L + slot * (c + 0.5);
        if (turned)
            text(f, x + 2, base, condition_label(e, c), TEXT_SIZE, 1, 0, -angle, ink);
        else
            text(f, x, base, condition_label(e, c), TEXT_SIZE, 0.5, 0, 0, ink);
    }
}

/* ---- sweeps --------------------------------------------------------------- */

/* A sweep figure: each metric against the sweep's first setting (x), one
 * line per combination of the other settings' values (a group), the
 * median through the grid points with the 10-90% band across runs behind
 * it. A setting from `logspace` gets a log axis. */
typedef struct {
    const mur_figure *e;
    int nc, ngroups;
    int *group;        /* [condition]: its line */
    int *order;        /* conditions sorted by group, then x */
    double *x;         /* [condition]: position on the x axis (log10 for a log axis) */
    int log;
} sweep_fig;

/* Whether conditions a and b hold the same values of every setting but x's. */
/* Setting j's value in condition c. */
static double sweep_value(const sweep_fig *sf, int c, int j) { return sf->e->sweep_values[c * sf->e->nsweep + j]; }

static int same_group(const sweep_fig *sf, int a, int b)
{
    for (int j = 0; j < sf->e->nsweep; j++)
        if (sf->e->sweep_grouped[j] && sweep_value(sf, a, j) != sweep_value(sf, b, j))
            return 0;
    return 1;
}

/* Leaves every condition's group, x and the drawing order. */
static void sweep_groups(sweep_fig *sf)
{
    for (int c = 0; c < sf->nc; c++) {
        double v = sweep_value(sf, c, 0);
        sf->x[c] = sf->log ? log10(v) : v;
        sf->group[c] = -1;
        for (int d = 0; d < c && sf->group[c] < 0; d++)
            if (same_group(sf, c, d))
                sf->group[c] = sf->group[d];
        if (sf->group[c] < 0)
            sf->group[c] = sf->ngroups++;
    }
    int k = 0;
    for (int g = 0; g < sf->ngroups; g++) {
        int start = k;
        for (int c = 0; c < sf->nc; c++)
            if (sf->group[c] == g) {   /* insertion by x: values may be written in any order */
                int i = k++;
                while (i > start && sf->x[sf->order[i - 1]] > sf->x[c]) {
                    sf->order[i] = sf->order[i - 1];
                    i--;
                }
                sf->order[i] = c;
            }
    }
}

/* The legend text of group g: the other settings' values ("alignment = 1"). */
static void group_label(const sweep_fig *sf, int g, char *buf, size_t n)
{
    int c = 0;
    while (sf->group[c] != g)
        c++;
    size_t len = 0;
    buf[0] = 0;
    for (int j = 0; j < sf->e->nsweep && len < n; j++) {
        const mur_setting *st = sf->e->sweep[j];
        if (!sf->e->sweep_grouped[j])
            continue;
        double v = sweep_value(sf, c, j);
        if (st->type == MUR_SETTING_ENUM)
            len += (size_t)snprintf(buf + len, n - len, "%s%s = %s", len ? ", " : "", st->name, st->choices[(int)v]);
        else
            len += (size_t)snprintf(buf + len, n - len, "%s%s = %g", len ? ", " : "", st->name, v);
    }
}

/* x ticks of a sweep axis: nice steps, or each decade on a log axis. */
static void sweep_x_axis(figure *f, const panel *p, int log, int label)
{
    cairo_t *cr = f->cr;
    char buf[32];
    double step = log ? 1 : nice_step(p->x1 - p->x0, 5);
    int dec = log ? 0 : axis_decimals(ceil(p->x0 / step - 1e-9) * step, p->x1, step);
    cairo_set_source_rgb(cr, ink.r, ink.g, ink.b);
    cairo_set_line_width(cr, 0.5);
    for (double v = ceil(p->x0 / step - 1e-9) * step; v <= p->x1 + step * 1e-6; v += step) {
        double x = px(p, v);
        cairo_move_to(cr, x, p->y + p->h);
        cairo_line_to(cr, x, p->y + p->h + 2);
        cairo_stroke(cr);
        if (!label)
            continue;
        if (log)
            snprintf(buf, sizeof buf, "%g", pow(10, round(v)));
        else
            tick_label(buf, sizeof buf, v, step, dec);
        text(f, x, p->y + p->h + 2.5, buf, TICK_SIZE, 0.5, 0, 0, ink);
    }
}

/* One metric's panel of a sweep figure, its title line at y. */
static void draw_sweep_panel(figure *f, const sweep_fig *sf, const mur_summary *sum, int n, int i, int k,
                             double y, double x0, double x1, int label_x)
{
    const double W = MUR_PLOT_WIDTH, L = MARGIN_L, PW = W - MARGIN_L - MARGIN_R;
    panel p = {L, y + TITLE_H, PW, PANEL_H, x0, x1, 0, 1};
    double vmax = -INFINITY;
    for (int c = 0; c < sf->nc; c++)
        if (isfinite(sum[c * n + i].p90))
            vmax = fmax(vmax, sum[c * n + i].p90);
    double y_step = y_range(&p, k, vmax);
    char head[160];
    title(f, L, y + TITLE_H - 1, metric_heading(k, head, sizeof head), TEXT_SIZE, 0, 1, 0, ink);
    draw_axes(f, &p, 0, 0, y_step);
    sweep_x_axis(f, &p, sf->log, label_x);
    cairo_t *cr = f->cr;
    for (int a = 0; a < sf->nc;) {
        int g = sf->group[sf->order[a]], b = a;
        while (b < sf->nc && sf->group[sf->order[b]] == g)
            b++;
        rgb col = palette_at(g);
        cairo_new_path(cr);   /* the band: p90 out, p10 back */
        for (int j = a; j < b; j++)
            cairo_line_to(cr, px(&p, sf->x[sf->order[j]]), py(&p, sum[sf->order[j] * n + i].p90));
        for (int j = b - 1; j >= a; j--)
            cairo_line_to(cr, px(&p, sf->x[sf->order[j]]), py(&p, sum[sf->order[j] * n + i].p10));
        cairo_close_path(cr);
        cairo_set_source_rgba(cr, col.r, col.g, col.b, 0.2);
        cairo_fill(cr);
        cairo_new_path(cr);
        for (int j = a; j < b; j++)
            cairo_line_to(cr, px(&p, sf->x[sf->order[j]]), py(&p, sum[sf->order[j] * n + i].median));
        cairo_set_source_rgb(cr, col.r, col.g, col.b);
        cairo_set_line_width(cr, 0.8);
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
        cairo_stroke(cr);
        for (int j = a; j < b; j++) {
            cairo_arc(cr, px(&p, sf->x[sf->order[j]]), py(&p, sum[sf->order[j] * n + i].median), 1.3, 0, 2 * MUR_PI);
            cairo_fill(cr);
        }
        a = b;
    }
}

/* The stats figure of a sweep (mur_plot_stats calls it): sum holds every
 * condition's summaries, [c * n + i]. */
static int plot_sweep(const char *path, const mur_figure *e, const mur_summary *sum, const int *metrics,
                      int n, mur_error *err)
{
    const double W = MUR_PLOT_WIDTH, L = MARGIN_L, PW = W - MARGIN_L - MARGIN_R;
    sweep_fig sf = {e, e->nconditions, 0, NULL, NULL, NULL, 0};
    sf.log = e->sweep_log;
    sf.group = mur_calloc((size_t)sf.nc, sizeof *sf.group);
    sf.order = mur_calloc((size_t)sf.nc, sizeof *sf.order);
    sf.x = mur_calloc((size_t)sf.nc, sizeof *sf.x);
    key *keys = mur_calloc((size_t)sf.nc + 2, sizeof *keys);
    figure f = {0};
    int rc = MUR_OK;
    if (!sf.group || !sf.order || !sf.x || !keys) {
        rc = mur_error_set(err, MUR_ERUN, "out of memory drawing a figure");
        goto done;
    }
    sweep_groups(&sf);
    /* One line: the keys take its colour, as its band is drawn (a grey
     * swatch beside light blue bands read as another thing); several: the
     * group keys below give the colours, as in the series legend. */
    rgb first = sf.ngroups > 1 ? ink : palette[0];
    keys[0] = (key){KEY_LINE, first, "median", 0};
    keys[1] = (key){KEY_BAND, first, "", 0};
    snprintf(keys[1].label, sizeof keys[1].label, "10\xe2\x80\x93" "90%% of %d runs", e->runs);
    int nkeys = 2;
    for (int g = 0; sf.ngroups > 1 && g < sf.ngroups && g < MAX_KEYED; g++) {
        keys[nkeys] = (key){KEY_LINE, palette_at(g), "", g == 0};
        group_label(&sf, g, keys[nkeys++].label, sizeof keys[0].label);
    }
    double xmin = INFINITY, xmax = -INFINITY;
    for (int c = 0; c < sf.nc; c++) {
        xmin = fmin(xmin, sf.x[c]);
        xmax = fmax(xmax, sf.x[c]);
    }
    if (sf.log) {
        xmin = floor(xmin + 1e-9);
        xmax = fmax(ceil(xmax - 1e-9), xmin + 1);
    } else {
        double xs = nice_step(fmax(xmax - xmin, 1e-9), 5);
        xmin = floor(xmin / xs + 1e-9) * xs;
        xmax = fmax(ceil(xmax / xs - 1e-9) * xs, xmin + xs);
    }
    figure probe;
    probe_open(&probe);
    double legend_h = draw_legend(&probe, keys, nkeys, L, 0, PW, 0);
    probe_close(&probe);
    double top = 4 + legend_h + 3;
    double H = ceil(top + n * (TITLE_H + PANEL_H + GAP) + AXIS_H + 4);
    if ((rc = fig_begin(&f, path, e, W, H, err)))
        goto done;
    draw_legend(&f, keys, nkeys, L, 4, PW, 1);
    double y = top;
    for (int i = 0; i < n; i++) {
        draw_sweep_panel(&f, &sf, sum, n, i, metrics[i], y, xmin, xmax, i == n - 1);
        y += TITLE_H + PANEL_H + GAP;
    }
    char xl[160], head[128];
    snprintf(xl, sizeof xl, "%s%s", setting_heading(e->sweep[0], head, sizeof head), sf.log ? ", log scale" : "");
    text(&f, L + PW / 2, y - GAP + 11, xl, TEXT_SIZE, 0.5, 0, 0, ink);
    rc = fig_end(&f, err);
done:
    fig_abort(&f);
    mur_free(sf.group);
    mur_free(sf.order);
    mur_free(sf.x);
    mur_free(keys);
    return rc;
}

/* MUR_EINPUT unless d is figure data of this version with n metrics and
 * conditions. */
static int check_figure(const mur_figure *d, const char *what, mur_error *err)
{
    if (!MUR_VERSION_OK(d->version, 1, MUR_FIGURE_VERSION))
        return mur_error_set(err, MUR_EINPUT, "figure data of version %u (this murmur takes %d)", d->version,
                             MUR_FIGURE_VERSION);
    if (d->nmetrics < 1 || !d->metrics)
        return mur_error_set(err, MUR_EINPUT, "a %s figure needs at least one metric", what);
    if (d->nconditions < 1 || !d->conditions)
        return mur_error_set(err, MUR_EINPUT, "a %s figure needs a condition", what);
    return MUR_OK;
}

int mur_plot_stats(const char *path, const mur_figure *e, mur_error *err)
{
    use_theme(e);
    if (format_of(path) == FMT_NONE)
        return mur_error_set(err, MUR_EINPUT, "a figure must end in .png, .pdf or .svg, not '%s'", path);
    int rc = check_figure(e, "stats", err);
    if (rc)
        return rc;
    if (!e->summary || (e->nsweep > 0 && (!e->sweep || !e->sweep_grouped || !e->sweep_values)))
        return mur_error_set(err, MUR_EINPUT, "a stats figure needs its summaries");
    const int nc = e->nconditions, runs = e->runs, n = e->nmetrics;
    const int *metrics = e->metrics;
    const long ticks = e->ticks;
    const double W = MUR_PLOT_WIDTH, L = MARGIN_L, PW = W - MARGIN_L - MARGIN_R;
    figure f = {0};
    const mur_summary *sum = e->summary;
    if (e->nsweep > 0)
        return plot_sweep(path, e, sum, metrics, n, err);   /* a grid: the metrics against the sweep */

    /* one condition: its colour, as its marks are drawn; several: neutral */
    rgb first = nc == 1 ? condition_colour(e, 0) : ink;
    key keys[3] = {{KEY_RING, first, "median", 0}, {KEY_BAR, first, "", 0}, {KEY_DIAMOND, first, "mean", 0}};
    snprintf(keys[1].label, sizeof keys[1].label, "10\xe2\x80\x93" "90%% of %d runs", runs);
    char note[64];
    snprintf(note, sizeof note, "after %ld ticks", ticks);
    double legend_h;
    int turned;
    double label_h = stats_measure(e, keys, &legend_h, &turned);

    double top = 4 + legend_h + 3;
    double H = ceil(top + n * (TITLE_H + PANEL_H + GAP) + label_h + 4);
    if ((rc = fig_begin(&f, path, e, W, H, err)))
        goto done;
    draw_legend(&f, keys, 3, L, 4, PW, 1);
    double y = top;
    for (int i = 0; i < n; i++) {
        draw_stats_panel(&f, e, sum, nc, n, i, metrics[i], y, i == 0 ? note : NULL);
        y += TITLE_H + PANEL_H + GAP;
    }
    /* Condition names under the last panel. */
    draw_condition_names(&f, e, y - GAP + 2.5, turned);
    rc = fig_end(&f, err);
done:
    fig_abort(&f);
    return rc;
}

/* ---- paired effects -------------------------------------------------------- */

/* y range of an effects panel: zero and every interval, in nice steps. */
static double effect_range(panel *p, const mur_effect *eff, int nc, int n, int i, int base)
{
    double lo = 0, hi = 0;
    for (int c = 0; c < nc; c++) {
        const mur_effect *f = &eff[c * n + i];
        if (c == base)
            continue;
        if (isfinite(f->ci_low))
            lo = fmin(lo, f->ci_low);
        if (isfinite(f->ci_high))
            hi = fmax(hi, f->ci_high);
    }
    double step = nice_step(hi - lo > 0 ? hi - lo : 1, 3);
    p->y0 = floor(lo / step + 1e-9) * step;
    p->y1 = fmax(ceil(hi / step - 1e-9) * step, p->y0 + step);
    return step;
}

#define TITLE_MIN 5.0   /* pt: the smallest an effects panel's title shrinks to before it wraps */

/* An effects panel's title: "<metric>: change against <baseline>". */
static void effects_title(const mur_figure *e, int k, int base, char *line, size_t n)
{
    char head[160];
    snprintf(line, n, "%s: change against %s", metric_heading(k, head, sizeof head), condition_label(e, base));
}

/* How the effects panels' titles fit the panel's width PW, the same for
 * every panel: at TEXT_SIZE when the widest fits, else shrunk to fit (not
 * below TITLE_MIN), else at TITLE_MIN wrapped onto lines (*wrap = PW).
 * *th: the title's height above its plot area (TITLE_H for one line). */
static void effects_titles_fit(figure *probe, const mur_figure *e, const int *metrics, int n, int base,
                               double PW, double *size, double *wrap, double *th)
{
    char line[320];
    double widest = 0, w, h;
    for (int i = 0; i < n; i++) {
        effects_title(e, metrics[i], base, line, sizeof line);
        title_box(probe, line, TEXT_SIZE, 0, &w, &h);
        widest = fmax(widest, w);
    }
    *size = TEXT_SIZE;
    *wrap = 0;
    *th = TITLE_H;
    if (widest <= PW)
        return;
    /* from the proportional fit down, a 20th of a point at a time (hinting
     * does not scale text exactly), to the first size every title fits */
    for (*size = fmax(TITLE_MIN, floor(TEXT_SIZE * PW / widest * 20) / 20);; *size -= 0.05) {
        *wrap = 0;
        for (int i = 0; i < n && !*wrap; i++) {
            effects_title(e, metrics[i], base, line, sizeof line);
            title_box(probe, line, *size, 0, &w, &h);
            *wrap = w > PW ? PW : 0;
        }
        if (!*wrap || *size - 0.05 < TITLE_MIN)
            break;
    }
    for (int i = 0; i < n && *wrap; i++) {   /* the tallest wrapped title, and a point under it */
        effects_title(e, metrics[i], base, line, sizeof line);
        title_box(probe, line, *size, PW, &w, &h);
        *th = fmax(*th, h + 1);
    }
}

/* One metric's effects panel, its title (at size, wrapped to wrap, th
 * high) from y: a dashed line at zero, and per condition (slot s, the
 * baseline skipped) its interval and median. */
static void draw_effects_panel(figure *f, const mur_figure *e, const mur_effect *eff, int n, int i, int k,
                               double y, int base, double size, double wrap, double th)
{
    const double W = MUR_PLOT_WIDTH, L = MARGIN_L, PW = W - MARGIN_L - MARGIN_R;
    const int nc = e->nconditions;
    panel p = {L, y + th, PW, PANEL_H, 0, nc - 1, 0, 1};
    double step = effect_range(&p, eff, nc, n, i, base);
    char line[320];
    effects_title(e, k, base, line, sizeof line);
    title_wrapped(f, L, y + th - 1, line, size, wrap, 0, 1, 0, ink);
    draw_axes(f, &p, 0, 0, step);
    cairo_t *cr = f->cr;
    double dash[2] = {1.5, 1.2};
    cairo_set_dash(cr, dash, 2, 0);
    cairo_set_line_width(cr, 0.5);
    cairo_set_source_rgb(cr, grey.r, grey.g, grey.b);
    cairo_move_to(cr, p.x, py(&p, 0));
    cairo_line_to(cr, p.x + p.w, py(&p, 0));
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    for (int c = 0, slot = 0; c < nc; c++) {
        if (c == base)
            continue;
        const mur_effect *ef = &eff[c * n + i];
        double x = px(&p, slot++ + 0.5);
        rgb col = condition_colour(e, c);
        /* the ring first, the interval over it: a narrow interval still shows */
        if (isfinite(ef->median))
            ring(cr, x, py(&p, ef->median), col);
        cairo_set_source_rgb(cr, col.r, col.g, col.b);
        if (isfinite(ef->ci_low) && isfinite(ef->ci_high))
            capped(cr, x, py(&p, ef->ci_low), py(&p, ef->ci_high));
    }
}


/* How far below the axis the turned names of the conditions (the baseline
 * aside) reach, at size pt wrapped to wrap. */
static double label_reach(figure *probe, const mur_figure *e, int base, double size, double wrap)
{
    double reach = 0, w, h;
    for (int c = 0; c < e->nconditions; c++) {
        if (c == base)
            continue;
        mur_text_begin(&probe->text, probe->cr);
        mur_text_set_left(&probe->text, condition_label(e, c), size, 0, wrap);
        mur_text_size(&probe->text, &w, &h);
        reach = fmax(reach, w * sin(LABEL_TURN) + h * cos(LABEL_TURN));
    }
    return reach;
}

int mur_plot_effects(const char *path, const mur_figure *e, mur_error *err)
{
    use_theme(e);
    if (format_of(path) == FMT_NONE)
        return mur_error_set(err, MUR_EINPUT, "a figure must end in .png, .pdf or .svg, not '%s'", path);
    if (!MUR_VERSION_OK(e->version, 1, MUR_FIGURE_VERSION))
        return mur_error_set(err, MUR_EINPUT, "figure data of version %u (this murmur takes %d)", e->version,
                             MUR_FIGURE_VERSION);
    const int nc = e->nconditions, base = e->baseline, n = e->nmetrics;
    const int *metrics = e->metrics;
    const mur_effect *eff = e->effects;
    if (n < 1 || nc < 2 || !metrics || !eff || !e->conditions)
        return mur_error_set(err, MUR_EINPUT, "an effects figure needs two conditions or more and a metric");
    const double W = MUR_PLOT_WIDTH, L = MARGIN_L, PW = W - MARGIN_L - MARGIN_R;
    key keys[2] = {{KEY_RING, ink, "", 0}, {KEY_CAPPED, ink, "", 0}};
    snprintf(keys[0].label, sizeof keys[0].label, "median of %d paired differences", e->runs);
    snprintf(keys[1].label, sizeof keys[1].label, "%g%% bootstrap interval", e->effect_level);
    /* Condition names under the last panel, as the stats figure sets them. */
    figure probe;
    probe_open(&probe);
    double widest = 0, slot = PW / (nc - 1);
    for (int c = 0; c < nc; c++)
        if (c != base)
            widest = fmax(widest, text_width(&probe, condition_label(e, c), TEXT_SIZE));
    double legend_h = draw_legend(&probe, keys, 2, L, 0, PW, 0);
    double tsize, twrap, th;   /* the panels' titles fit the panels: shrunk, or wrapped */
    effects_titles_fit(&probe, e, metrics, n, base, PW, &tsize, &twrap, &th);
    int turned = widest > slot - 3;
    /* turned names reach left from their slot: shrunk (not below
     * TITLE_MIN) so that the first one stays on the figure */
    double lsize = TEXT_SIZE, room = L + slot * 0.5, lwrap = 0;
    if (turned && widest * cos(LABEL_TURN) > room - 1)
        lsize = fmax(TITLE_MIN, TEXT_SIZE * (room - 1) / (widest * cos(LABEL_TURN)));
    if (turned && widest * lsize / TEXT_SIZE * cos(LABEL_TURN) > room - 1)
        lwrap = (room - 1) / cos(LABEL_TURN);   /* too long still: onto lines */
    double label_h = !turned ? 11 : lsize < TEXT_SIZE ? label_reach(&probe, e, base, lsize, lwrap) + 10
                                                      : widest * sin(LABEL_TURN) + 10;
    probe_close(&probe);
    double top = 4 + legend_h + 3;
    double H = ceil(top + n * (th + PANEL_H + GAP) + label_h + 4);
    figure f = {0};
    int rc = fig_begin(&f, path, e, W, H, err);
    if (rc)
        return rc;
    draw_legend(&f, keys, 2, L, 4, PW, 1);
    double y = top;
    for (int i = 0; i < n; i++) {
        draw_effects_panel(&f, e, eff, n, i, metrics[i], y, base, tsize, twrap, th);
        y += th + PANEL_H + GAP;
    }
    for (int c = 0, s = 0; c < nc; c++) {
        if (c == base)
            continue;
        double x = L + slot * (s++ + 0.5);
        if (turned)
            text_wrapped(&f, x + 2, y - GAP + 2.5, condition_label(e, c), lsize, lwrap, 1, 0, -LABEL_TURN, ink);
        else
            text(&f, x, y - GAP + 2.5, condition_label(e, c), lsize, 0.5, 0, 0, ink);
    }
    return fig_end(&f, err);
}

/* ---- twins: the divergence ------------------------------------------------ */

#define DIV_PANEL_H 120.0   /* the divergence panel: six decades and more need room */

/* "10" and the exponent k in superscript digits (UTF-8), for a log axis. */
static void power_label(char *buf, size_t n, int k)
{
    static const char *const sup[10] = {"\xe2\x81\xb0", "\xc2\xb9", "\xc2\xb2", "\xc2\xb3", "\xe2\x81\xb4",
                                        "\xe2\x81\xb5", "\xe2\x81\xb6", "\xe2\x81\xb7", "\xe2\x81\xb8",
                                        "\xe2\x81\xb9"};
    char digits[16];
    snprintf(digits, sizeof digits, "%d", k < 0 ? -k : k);
    size_t len = (size_t)snprintf(buf, n, "10%s", k < 0 ? "\xe2\x81\xbb" : "");
    for (const char *d = digits; *d && len < n; d++)
        len += (size_t)snprintf(buf + len, n - len, "%s", sup[*d - '0']);
}

/* The median and 10-90% band of log10 divergence_rms across runs for
 * condition c, every stride-th tick (last = the count of points - 1), into
 * t (lo, mid, hi); a zero divergence is drawn at the axis' floor. */
static void divergence_track(const mur_figure *e, int c, long stride, long last, double floor_log, track *t)
{
    const long ticks = e->ticks;
    const mur_figure_track *d = &e->divergence[c];
    for (long k = 0; k <= last; k++) {
        long tick = k * stride < ticks ? k * stride : ticks;
        double v[3] = {d->lo[tick], d->mid[tick], d->hi[tick]}, *out[3] = {t->lo, t->mid, t->hi};
        for (int q = 0; q < 3; q++)
            out[q][k] = v[q] > 0 ? fmax(log10(v[q]), floor_log) : floor_log;
    }
}

/* Dotted lines at the sizes the ticks_to_ rows report, labelled at the right. */
static void draw_sizes(figure *f, const panel *p, const mur_figure *e)
{
    cairo_t *cr = f->cr;
    double dash[2] = {1, 1.5};
    for (int k = 0; k < e->nsizes; k++) {
        double v = log10(e->sizes[k]);
        if (v < p->y0 || v > p->y1)
            continue;
        cairo_set_dash(cr, dash, 2, 0);
        cairo_set_source_rgb(cr, grey.r, grey.g, grey.b);
        cairo_set_line_width(cr, 0.4);
        cairo_move_to(cr, p->x, py(p, v));
        cairo_line_to(cr, p->x + p->w, py(p, v));
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        /* the size as its row names it: 1e-9, 1e-5, 1 */
        const char *name = e->size_names ? e->size_names[k] : "";
        text(f, p->x + p->w - 1, py(p, v) - 0.5, name, TICK_SIZE, 1, 1, 0, grey);
    }
}

/* The fitted growth of condition c: the slope of its runs' median
 * doubling time, through the median curve's own fit at the middle of its
 * range, drawn dashed over that range. 0 when there is nothing to draw. */
static int draw_fit(figure *f, const panel *p, const mur_figure *e, int c, const double *median_rms,
                    rgb col, double *doubling)
{
    const double median = e->doubling ? e->doubling[c] : NAN;
    *doubling = median;
    mur_growth g;
    mur_growth_fit(median_rms, e->ticks + 1, &g);
    if (!isfinite(median) || g.first < 0)
        return 0;
    double rate = log(2.0) / median, tm = 0.5 * (double)(g.first + g.last);
    double ym = g.log_d0 + g.rate * tm;   /* ln D of the median's fit at tm */
    cairo_t *cr = f->cr;
    double dash[2] = {3, 1.5};
    cairo_save(cr);
    cairo_rectangle(cr, p->x, p->y, p->w, p->h);
    cairo_clip(cr);
    cairo_set_dash(cr, dash, 2, 0);
    cairo_set_line_width(cr, 0.9);
    cairo_set_source_rgb(cr, col.r * 0.6, col.g * 0.6, col.b * 0.6);
    for (int end = 0; end < 2; end++) {
        double t = end ? (double)g.last : (double)g.first;
        double y = (ym + rate * (t - tm)) / log(10.0);
        if (end)
            cairo_line_to(cr, px(p, t), py(p, y));
        else
            cairo_move_to(cr, px(p, t), py(p, y));
    }
    cairo_stroke(cr);
    cairo_restore(cr);
    return 1;
}

/* A divergence figure's legend (keys: room for nc + 2): one line per
 * condition with its doubling time, the band, the fit; returns how many. */
static int divergence_keys(const mur_figure *e, int nc, key *keys)
{
    int nkeys = 0;
    for (int c = 0; c < nc; c++) {
        double doubling = e->doubling ? e->doubling[c] : NAN;
        keys[nkeys] = (key){KEY_LINE, palette[c], "", 0};
        if (isfinite(doubling))
            snprintf(keys[nkeys].label, sizeof keys[nkeys].label, "%s%sdoubling time %.3g ticks (median of runs)",
                     nc > 1 ? condition_name(e, c) : "", nc > 1 ? ": " : "", doubling);
        else
            snprintf(keys[nkeys].label, sizeof keys[nkeys].label, "%s%sno doubling time",
                     nc > 1 ? condition_name(e, c) : "", nc > 1 ? ": " : "");
        nkeys++;
    }
    keys[nkeys] = (key){KEY_BAND, ink, "", 1};
    snprintf(keys[nkeys++].label, sizeof keys[0].label, "median, 10\xe2\x80\x93" "90%% of %d runs", e->runs);
    keys[nkeys] = (key){KEY_LINE, grey, "dashed: the fitted slope, over the fitted range", 0};
    return nkeys + 1;
}

int mur_plot_divergence(const char *path, const mur_figure *e, mur_error *err)
{
    use_theme(e);
    if (format_of(path) == FMT_NONE)
        return mur_error_set(err, MUR_EINPUT, "a figure must end in .png, .pdf or .svg, not '%s'", path);
    if (!MUR_VERSION_OK(e->version, 1, MUR_FIGURE_VERSION))
        return mur_error_set(err, MUR_EINPUT, "figure data of version %u (this murmur takes %d)", e->version,
                             MUR_FIGURE_VERSION);
    if (!e->divergence || !e->divergence_range || e->nconditions < 1 || !e->conditions || e->ticks < 0)
        return mur_error_set(err, MUR_EINPUT, "a divergence figure needs an experiment with a twin");
    const int nc = e->nconditions < 7 ? e->nconditions : 7;
    const long ticks = e->ticks, stride = (ticks + MAX_POINTS - 1) / MAX_POINTS;
    const long last = (ticks + stride - 1) / stride;
    const double W = MUR_PLOT_WIDTH, L = MARGIN_L, PW = W - MARGIN_L - MARGIN_R;
    figure f = {0};
    int rc = MUR_OK;
    size_t len = (size_t)last + 1;
    double *buf = mur_calloc(len * 4 * (size_t)nc + 1, sizeof *buf);
    key *keys = mur_calloc((size_t)nc + 2, sizeof *keys);
    if (!buf || !keys) {
        rc = mur_error_set(err, MUR_ERUN, "out of memory drawing a figure");
        goto done;
    }
    double *ts = buf;
    for (long k = 0; k <= last; k++)
        ts[k] = (double)(k * stride < ticks ? k * stride : ticks);
    /* The axis: whole decades from the smallest p10 (at least 1e-16) to the largest p90. */
    double lo = 1e300, hi = 0;
    for (int c = 0; c < nc; c++) {
        double small = e->divergence_range[2 * c], large = e->divergence_range[2 * c + 1];
        if (small > 0 && small < lo)
            lo = small;
        if (large > hi)
            hi = large;
    }
    if (!(hi > 0))
        lo = 1e-16, hi = 1;
    panel p = {L, 0, PW, DIV_PANEL_H, 0, (double)ticks, floor(log10(fmax(lo, 1e-16))), ceil(log10(hi))};
    if (p.y1 <= p.y0)
        p.y1 = p.y0 + 1;
    double doubling[8];
    int nkeys = divergence_keys(e, nc, keys);
    figure probe;
    probe_open(&probe);
    double legend_h = draw_legend(&probe, keys, nkeys, L, 0, PW, 0);
    probe_close(&probe);
    p.y = 4 + legend_h + 3 + TITLE_H;
    double H = ceil(p.y + p.h + 22);
    if ((rc = fig_begin(&f, path, e, W, H, err)))
        goto done;
    draw_legend(&f, keys, nkeys, L, 4, PW, 1);
    text(&f, L, p.y - 1, "divergence between twins, RMS (world units, log scale)", TEXT_SIZE, 0, 1, 0, ink);
    /* decades: grid and labels, every one when they fit, else every other */
    int every = (p.y1 - p.y0) > 10 ? 2 : 1;
    for (int k = (int)p.y0; k <= (int)p.y1; k++) {
        cairo_set_source_rgb(f.cr, grid.r, grid.g, grid.b);
        cairo_set_line_width(f.cr, 0.4);
        cairo_move_to(f.cr, p.x, py(&p, k));
        cairo_line_to(f.cr, p.x + p.w, py(&p, k));
        cairo_stroke(f.cr);
        if ((k - (int)p.y0) % every == 0) {
            char lab[32];
            power_label(lab, sizeof lab, k);
            text(&f, p.x - 2.5, py(&p, k), lab, TICK_SIZE, 1, 0.5, 0, ink);
        }
    }
    draw_axes(&f, &p, 1, nice_step((double)ticks, 6), 0);
    text(&f, L + PW / 2, p.y + p.h + 11, "ticks", TEXT_SIZE, 0.5, 0, 0, ink);
    draw_sizes(&f, &p, e);
    for (int c = 0; c < nc; c++) {
        track t;   /* after ts, three arrays of len per condition */
        t.mid = buf + len * (1 + 3 * (size_t)c);
        t.lo = t.mid + len;
        t.hi = t.lo + len;
        divergence_track(e, c, stride, last, p.y0, &t);
        draw_track(&f, &p, &t, ts, last, palette[c]);
        draw_fit(&f, &p, e, c, e->divergence[c].mid, palette[c], &doubling[c]);   /* the median at every tick */
    }
    rc = fig_end(&f, err);
done:
    fig_abort(&f);
    mur_free(buf);
    mur_free(keys);
    return rc;
}
