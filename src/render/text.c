/* Text and the boxes behind it.
 *
 * Pango lays out every label, number and caption, of frames and of figures
 * (plot.c), in DejaVu Sans (installed from fonts-dejavu-core by .ci/setup,
 * so no frame depends on what a desktop happens to have). Each mur_text
 * keeps a font map of its own rather than Pango's process-wide default, and
 * turns hinting off: a hinted layout snaps to the device grid and changes
 * shape with scale, and a PDF still must show the same line breaks as the
 * PNG of the same frame. Sizes are in user units: a frame's pixels, a
 * figure's points. */
#include "internal.h"

#include <math.h>
#include <string.h>

/* LeakSanitizer's hooks for fontconfig are in src/util/error.c. */

int mur_text_init(mur_text *t, mur_text_kind kind)
{
    memset(t, 0, sizeof *t);
    t->map = pango_cairo_font_map_new();
    if (!t->map)
        return -1;
    t->ctx = pango_font_map_create_context(t->map);
    if (!t->ctx)
        return -1;
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    pango_cairo_context_set_font_options(t->ctx, fo);
    cairo_font_options_destroy(fo);
    /* Figures keep Pango's default, glyphs at whole device units: turning
     * it off moves their glyphs by under a device pixel, and every
     * figure's bytes with them. */
    pango_context_set_round_glyph_positions(t->ctx, kind == MUR_TEXT_FIGURE);
    t->layout = pango_layout_new(t->ctx);
    t->desc = pango_font_description_from_string(MUR_FONT);
    return t->layout && t->desc ? 0 : -1;
}

void mur_text_free(mur_text *t)
{
    if (t->desc)
        pango_font_description_free(t->desc);
    if (t->layout)
        g_object_unref(t->layout);
    if (t->ctx)
        g_object_unref(t->ctx);
    if (t->map)
        g_object_unref(t->map);
    memset(t, 0, sizeof *t);
}

void mur_text_begin(mur_text *t, cairo_t *cr)
{
    if (!t->layout)
        return;
    pango_cairo_update_context(cr, t->ctx);
    /* Sizes are given in user units: at 72 dpi a Pango point is one unit. */
    pango_cairo_context_set_resolution(t->ctx, 72);
    pango_layout_context_changed(t->layout);
}

static void text_set(mur_text *t, const char *s, double size, int bold, double wrap, int centre)
{
    if (!t->layout)
        return;
    pango_font_description_set_size(t->desc, (gint)lround(size * PANGO_SCALE));
    pango_font_description_set_weight(t->desc, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_layout_set_font_description(t->layout, t->desc);
    pango_layout_set_width(t->layout, wrap > 0 ? (int)(wrap * PANGO_SCALE) : -1);
    pango_layout_set_wrap(t->layout, PANGO_WRAP_WORD);
    pango_layout_set_alignment(t->layout, centre ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT);
    pango_layout_set_attributes(t->layout, NULL);   /* what a markup text left, plain text drops */
    pango_layout_set_text(t->layout, s, -1);
}

void mur_text_set_markup_left(mur_text *t, const char *markup, double size)
{
    text_set(t, "", size, 0, 0, 0);
    if (t->layout)
        pango_layout_set_markup(t->layout, markup, -1);
}

void mur_text_set_markup_wrap(mur_text *t, const char *markup, double size, double wrap)
{
    mur_text_set_markup_left(t, markup, size);
    if (t->layout && wrap > 0)
        pango_layout_set_width(t->layout, (int)(wrap * PANGO_SCALE));
}

void mur_text_set(mur_text *t, const char *s, double size, int bold, double wrap)
{
    text_set(t, s, size, bold, wrap, wrap > 0);
}

void mur_text_set_left(mur_text *t, const char *s, double size, int bold, double wrap)
{
    text_set(t, s, size, bold, wrap, 0);
}

void mur_text_set_aligned(mur_text *t, const char *s, double size, int bold, double wrap, int align)
{
    text_set(t, s, size, bold, wrap, 1);
    if (t->layout && align != MUR_ALIGN_CENTRE)
        pango_layout_set_alignment(t->layout, align == MUR_ALIGN_LEFT ? PANGO_ALIGN_LEFT : PANGO_ALIGN_RIGHT);
}

void mur_text_size(mur_text *t, double *w, double *h)
{
    PangoRectangle ink, logical = {0};
    *w = *h = 0;
    if (!t->layout)
        return;
    pango_layout_get_extents(t->layout, &ink, &logical);
    /* A wrapped layout is as wide as its longest line, not the wrap width. */
    *w = (double)logical.width / PANGO_SCALE;
    *h = (double)logical.height / PANGO_SCALE;
}

void mur_text_draw(mur_text *t, cairo_t *cr, double x, double y, const double rgb[3], double alpha)
{
    PangoRectangle ink, logical;
    if (!t->layout)
        return;
    pango_layout_get_extents(t->layout, &ink, &logical);
    cairo_save(cr);
    cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], alpha);
    cairo_move_to(cr, x - (double)logical.x / PANGO_SCALE, y - (double)logical.y / PANGO_SCALE);
    pango_cairo_show_layout(cr, t->layout);
    cairo_restore(cr);
}

void mur_box(cairo_t *cr, double x, double y, double w, double h, double radius, const double rgba[4],
             double alpha)
{
    double r = fmin(radius, fmin(w, h) / 2);
    cairo_new_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -MUR_PI / 2, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, MUR_PI / 2);
    cairo_arc(cr, x + r, y + h - r, r, MUR_PI / 2, MUR_PI);
    cairo_arc(cr, x + r, y + r, r, MUR_PI, 3 * MUR_PI / 2);
    cairo_close_path(cr);
    cairo_set_source_rgba(cr, rgba[0], rgba[1], rgba[2], rgba[3] * alpha);
    cairo_fill(cr);
}

void mur_theme_for(const mur_rgba *bg, mur_theme *out)
{
    /* Relative luminance of the sRGB background, roughly: enough to choose
     * light text on dark or dark text on light. */
    double lum = 0.2126 * bg->r + 0.7152 * bg->g + 0.0722 * bg->b;
    out->dark = lum < 0.5;
    if (out->dark) {
        const mur_theme d = {1, {0.93, 0.94, 0.95}, {0.02, 0.03, 0.04, 0.72}, {0.85, 0.88, 0.9, 0.45}};
        *out = d;
    } else {
        const mur_theme l = {0, {0.1, 0.11, 0.13}, {1, 1, 1, 0.8}, {0.2, 0.22, 0.25, 0.5}};
        *out = l;
    }
}

void mur_stack_place(mur_stacks *s, mur_corner c, double w, double h, double *x, double *y)
{
    int left = c == MUR_CORNER_TOP_LEFT || c == MUR_CORNER_BOTTOM_LEFT;
    int top = c == MUR_CORNER_TOP_LEFT || c == MUR_CORNER_TOP_RIGHT;
    *x = left ? s->x + s->margin : s->x + s->w - s->margin - w;
    *y = top ? s->y + s->margin + s->used[c] : s->y + s->h - s->margin - s->used[c] - h;
    s->used[c] += h + s->margin * 0.6;
    if (w > s->width[c])
        s->width[c] = w;
}
