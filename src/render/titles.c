/* The look on the timeline, drawn: overlays that come and go, captions
 * placed where the scene asks (two at once never on top of each other),
 * a fade to and from the background, a title card.
 *
 * All of it comes from the look's moment_at, asked once per frame. A look
 * without one draws as it always did (overlays.c's single caption at the
 * bottom), so frames of scenes that use none of this are unchanged, byte
 * for byte; a caption at the bottom, size 1, centred, is drawn here by the
 * same arithmetic as there. Order over the picture: captions, then the
 * fade (it takes them with it), then the title card (a title over a faded
 * frame is the usual opening). */
#include "internal.h"

#include <math.h>
#include <string.h>

#define TITLE_TEXT 7.0       /* UI units: the title's size */
#define SUBTITLE_TEXT 3.6
#define TITLE_BACKDROP 0.8   /* opacity of the background laid under a title */
#define MAX_SHIFTS 16        /* moves to clear one caption of the others (4 captions: 3 suffice) */

void mur_titles_moment(mur_renderer *r, double t)
{
    const mur_look *lk = r->look;
    memset(&r->moment, 0, sizeof r->moment);
    if (lk->moment_at) {
        lk->moment_at(lk->ctx, t, &r->moment);
        return;
    }
    for (int k = 0; k < MUR_LOOK_SHOWABLE; k++)
        r->moment.overlay[k] = 1;
}

int mur_titles_overlay_begin(mur_renderer *r, cairo_t *cr, int k)
{
    double a = r->moment.overlay[k];
    if (!(a > 0))
        return 0;
    if (a < 1)
        cairo_push_group(cr);
    return 1;
}

void mur_titles_overlay_end(mur_renderer *r, cairo_t *cr, int k)
{
    double a = r->moment.overlay[k];
    if (a > 0 && a < 1) {
        cairo_pop_group_to_source(cr);
        cairo_paint_with_alpha(cr, a);
    }
}

/* A caption box: where it is and how large. */
typedef struct {
    double x, y, w, h;
} box;

static int overlap(const box *a, const box *b, double gap)
{
    return a->x < b->x + b->w + gap && b->x < a->x + a->w + gap && a->y < b->y + b->h + gap &&
           b->y < a->y + a->h + gap;
}

/* Height the corner boxes take on the caption's side (bottom or top) when
 * a caption as wide as maxw would meet them (overlays.c's rule). */
static double lift(const mur_stacks *st, int top, double maxw, double pad)
{
    mur_corner l = top ? MUR_CORNER_TOP_LEFT : MUR_CORNER_BOTTOM_LEFT;
    mur_corner rr = top ? MUR_CORNER_TOP_RIGHT : MUR_CORNER_BOTTOM_RIGHT;
    double side = fmax(st->width[l], st->width[rr]);
    if (side > 0 && side + st->margin > (st->w - maxw) / 2 - pad)
        return fmax(st->used[l], st->used[rr]);
    return 0;
}

/* Lay out caption c and place its box, clear of the `n` placed before. */
static box place_caption(mur_renderer *r, const mur_stacks *st, const mur_caption_shown *c,
                         const box *placed, int n, double u)
{
    const mur_caption_style *cs = &c->style;
    double side = fmin(r->width, r->height);
    double fs = mur_legible_size(3.4 * u * cs->size, side), pad = 1.3 * u * cs->size;
    double maxw = 0.7 * st->w, w, h;
    mur_text_set_aligned(&r->text, c->text, fs, 0, maxw, cs->align);
    mur_text_size(&r->text, &w, &h);
    box b = {0, 0, w + 2 * pad, h + 1.4 * pad};
    double left = st->x + st->margin, right = st->x + st->w - st->margin - b.w;
    double ax = cs->place == MUR_PLACE_AT ? st->x + cs->x * st->w : 0;
    switch (cs->align) {
    case MUR_ALIGN_LEFT: b.x = cs->place == MUR_PLACE_AT ? ax : left; break;
    case MUR_ALIGN_RIGHT: b.x = cs->place == MUR_PLACE_AT ? ax - b.w : right; break;
    default: b.x = cs->place == MUR_PLACE_AT ? ax - b.w / 2 : st->x + (st->w - b.w) / 2; break;
    }
    switch (cs->place) {
    case MUR_PLACE_BOTTOM: b.y = st->y + st->h - st->margin - lift(st, 0, maxw, pad) - b.h; break;
    case MUR_PLACE_TOP: b.y = st->y + st->margin + lift(st, 1, maxw, pad); break;
    case MUR_PLACE_CENTRE: b.y = st->y + (st->h - b.h) / 2; break;
    default: b.y = st->y + cs->y * st->h - b.h / 2; break;
    }
    /* inside the frame, then clear of the captions already placed: up from
     * the bottom, down from anywhere else */
    b.x = fmax(st->x, fmin(b.x, st->x + st->w - b.w));
    b.y = fmax(st->y, fmin(b.y, st->y + st->h - b.h));
    double gap = 0.6 * u;
    for (int moves = 0; moves < MAX_SHIFTS; moves++) {
        int hit = -1;
        for (int i = 0; i < n && hit < 0; i++)
            if (overlap(&b, &placed[i], gap))
                hit = i;
        if (hit < 0)
            break;
        b.y = cs->place == MUR_PLACE_BOTTOM ? placed[hit].y - gap - b.h : placed[hit].y + placed[hit].h + gap;
    }
    return b;
}

static void captions(mur_renderer *r, cairo_t *cr, const mur_stacks *st, double u)
{
    box placed[MUR_LOOK_MAX_CAPTIONS];
    const mur_moment *m = &r->moment;
    double box_rgba[4] = {r->theme.box[0], r->theme.box[1], r->theme.box[2], fmin(1, r->theme.box[3] + 0.1)};
    /* the newest first, so it keeps its place and older ones make room */
    for (int i = m->ncaptions - 1, n = 0; i >= 0; i--) {
        const mur_caption_shown *c = &m->captions[i];
        placed[n] = place_caption(r, st, c, placed, n, u);
        const box *b = &placed[n++];
        if (!(c->alpha > 0))
            continue;
        double pad = 1.3 * u * c->style.size;
        mur_box(cr, b->x, b->y, b->w, b->h, 1.0 * u, box_rgba, c->alpha);
        mur_text_draw(&r->text, cr, b->x + pad, b->y + 0.7 * pad, r->theme.fg, c->alpha);
    }
}

/* Every pixel a fraction f of the way to the background. An opaque one is
 * laid over at opacity f; a translucent one (a transparent look) takes the
 * picture's own alpha with it: the picture scaled by 1 - f, the background
 * added at f, so a faded-out frame of a slide overlay is clear. */
static void toward_background(const mur_renderer *r, cairo_t *cr, double f)
{
    const mur_rgba *bg = &r->look->background;
    if (!r->look->transparent || bg->a >= 1) {
        cairo_set_source_rgba(cr, bg->r, bg->g, bg->b, f);
        cairo_paint(cr);
        return;
    }
    cairo_save(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_DEST_OUT);
    cairo_set_source_rgba(cr, 0, 0, 0, f);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_ADD);
    cairo_set_source_rgba(cr, bg->r, bg->g, bg->b, bg->a);
    cairo_paint_with_alpha(cr, f);
    cairo_restore(cr);
}

static void title_card(mur_renderer *r, cairo_t *cr, double u)
{
    const mur_moment *m = &r->moment;
    double W = r->width, H = r->height, a = m->title_alpha;
    if (!m->title || !(a > 0))
        return;
    toward_background(r, cr, TITLE_BACKDROP * a);
    double tw, th, sw = 0, sh = 0, gap = m->subtitle ? 1.5 * u : 0;
    if (m->subtitle) {
        mur_text_set(&r->text, m->subtitle, SUBTITLE_TEXT * u, 0, 0.8 * W);
        mur_text_size(&r->text, &sw, &sh);
    }
    mur_text_set(&r->text, m->title, TITLE_TEXT * u, 1, 0.8 * W);
    mur_text_size(&r->text, &tw, &th);
    double y = (H - th - gap - sh) / 2;
    mur_text_draw(&r->text, cr, (W - tw) / 2, y, r->theme.fg, a);
    if (m->subtitle) {
        mur_text_set(&r->text, m->subtitle, SUBTITLE_TEXT * u, 0, 0.8 * W);
        mur_text_draw(&r->text, cr, (W - sw) / 2, y + th + gap, r->theme.fg, 0.8 * a);
    }
}

void mur_titles_draw(mur_renderer *r, cairo_t *cr, mur_stacks *st, double u)
{
    captions(r, cr, st, u);
    if (r->moment.fade > 0)
        toward_background(r, cr, fmin(1, r->moment.fade));
    title_card(r, cr, u);
}
