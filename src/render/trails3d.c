/* Trails of a 3D world (issue #29; docs/scenes.md "look.trails"): where
 * each bird has been over the last `length` ticks, seen through the same
 * camera as the birds.
 *
 * The ring is the 2D trails' (trails.c), which records a 3D flock's z
 * beside its x and y; the rules of a trail are its rules too: a segment
 * per tick, from the bird's place before the tick to its place after,
 * joined by nearest-image steps (mur_trail_back, as in 2D) so that a trail
 * through a wrapping wall goes on past it (starting from the bird's image
 * that the camera draws, mur_view3d_image), broken at a jump (a step longer
 * than the speed limit allows) or where a tick is missing, cut into bands
 * of E ticks whose opacity falls with age (mur_trail_band_alpha) when the
 * trail fades, `length` ticks at one opacity when it does not.
 *
 * Each bird's trail is cut into pieces, one per band (and again wherever a
 * point lies behind the camera, where the piece stops and a new one starts
 * past it); each piece is a polyline of projected points, stroked once in
 * the birds' colour (or, under a colour mode, its bird's colour at the
 * piece's newer end) hazed toward the horizon by its mean distance as the
 * birds are (mur_view3d_haze), as wide as 0.16 of a bird's length there
 * (and at least half a pixel). The pieces are drawn farthest first (equal
 * depths by bird, then band: the same order on every run), all of them
 * under the birds, which frame3d.c draws after. One thread draws them, so
 * a frame's bytes do not depend on the renderer's thread count. */
#include "internal.h"
#include "view3d.h"
#include "murmur/alloc.h"

#include <math.h>
#include <stdlib.h>

/* A trail's narrowest stroke, pixels: a far one stays a faint line, not nothing. */
#define MIN_WIDTH_PX 0.5
/* A trail's stroke as a share of a bird's length there (as in 2D). */
#define WIDTH_SHARE 0.16

typedef struct piece {
    double depth;     /* mean distance along the view of its points */
    double scale;     /* mean pixels per world unit there */
    int boid;
    long band;
    int bin;          /* its colour bin (at its newer end) */
    size_t at;        /* its first point in the points */
    int n;            /* points (at least 2) */
} piece;

static int far_first(const void *a, const void *b)
{
    const piece *p = a, *q = b;
    if (p->depth != q->depth)
        return p->depth < q->depth ? 1 : -1;
    if (p->boid != q->boid)
        return p->boid < q->boid ? -1 : 1;
    return (p->band > q->band) - (p->band < q->band);
}

static double chan(uint32_t c, int k) { return (double)(c >> (16 - 8 * k) & 0xff) / 255; }

/* Every trail's pieces, gathered before any is drawn: they are drawn
 * farthest first, whichever bird they belong to. */
typedef struct pieces {
    double *pt;       /* the pieces' points, x and y */
    piece *pc;
    size_t np, nq;
} pieces;

/* Bird i's trail from tick `now` back to `first`: leaves its pieces (cut
 * at each band, behind the camera, a jump or a missing tick) appended to g,
 * each with its depth and scale summed over its points, not yet averaged. */
static void gather(const mur_trails *t, const mur_params *p, const mur_view3d *v, int i, long now, long first,
                   int e, pieces *g)
{
    double *pt = g->pt;
    piece *pc = g->pc;
    size_t np = g->np, nq = g->nq, cap = t->cap;
    int s = t->head, open = 0;   /* open: the piece being gathered (pc[nq]) */
    double at[3] = {t->x[(size_t)s * cap + i], t->y[(size_t)s * cap + i], t->z[(size_t)s * cap + i]};
    /* from the bird as drawn (camera.wrap: nearest draws its image
     * nearest the target); the nearest-image steps carry the rest */
    mur_view3d_image(v, at);
    double ax = 0, ay = 0, ad = 0, as = 0;
    int a_ok = mur_view3d_project(v, at, &ax, &ay, &ad, &as);
    for (long k = now; k >= first; k--) {   /* the segment of tick k: from tick k - 1 to tick k */
        double d[3];
        int older = mur_trail_back(t, p, s, i, d);
        if (older < 0)
            break;
        double to[3] = {at[0] + d[0], at[1] + d[1], at[2] + d[2]}, bx = 0, by = 0, bd = 0, bs = 0;
        int b_ok = mur_view3d_project(v, to, &bx, &by, &bd, &bs);
        long band = k / e;
        if (open && (!a_ok || !b_ok || pc[nq].band != band)) {   /* close it */
            nq++;
            open = 0;
        }
        if (a_ok && b_ok) {
            if (!open) {
                pc[nq] = (piece){.depth = ad, .scale = as, .boid = i, .band = band,
                                 .bin = t->bin[(size_t)s * cap + i], .at = np, .n = 1};
                pt[2 * np] = ax;
                pt[2 * np + 1] = ay;
                np++;
                open = 1;
            }
            pt[2 * np] = bx;
            pt[2 * np + 1] = by;
            np++;
            pc[nq].depth += bd;
            pc[nq].scale += bs;
            pc[nq].n++;
        }
        for (int c = 0; c < 3; c++)
            at[c] = to[c];
        ax = bx;
        ay = by;
        ad = bd;
        as = bs;
        a_ok = b_ok;
        s = older;
    }
    if (open)
        nq++;
    g->np = np;
    g->nq = nq;
}

/* Enters with g's pieces sorted far first and averaged; strokes each one
 * on the frame (the panel's corner at ox, oy) that is visible, in its
 * band's opacity, its bird's colour hazed by its depth. */
static void stroke(cairo_t *cr, const mur_look *lk, const pieces *g, int e, long now, const mur_view3d *v,
                   const mur_view3d_style *st, int ox, int oy)
{
    double bird[3], haze[3];
    for (int c = 0; c < 3; c++) {
        bird[c] = chan(st->bird, c);
        haze[c] = chan(st->sky.horizon, c);
    }
    double limit = 4.0 * fmax(v->w, v->h);   /* as the birds: none wider than that */
    cairo_save(cr);
    cairo_translate(cr, ox, oy);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST);   /* as the 2D trails: half the time, the same look */
    for (size_t q = 0; q < g->nq; q++) {
        const piece *pq = &g->pc[q];
        double alpha = lk->trail_fade ? mur_trail_band_alpha(lk, pq->band, e, now) : mur_trail_alpha(lk);
        if (!(alpha > 0))
            continue;
        double lenpx = fmin(fmax(st->len_world * pq->scale, st->min_px), limit);
        double width = fmax(WIDTH_SHARE * lenpx, MIN_WIDTH_PX);
        const double *xy = &g->pt[2 * pq->at];
        double lo_x = xy[0], hi_x = xy[0], lo_y = xy[1], hi_y = xy[1];
        for (int k = 1; k < pq->n; k++) {
            lo_x = fmin(lo_x, xy[2 * k]);
            hi_x = fmax(hi_x, xy[2 * k]);
            lo_y = fmin(lo_y, xy[2 * k + 1]);
            hi_y = fmax(hi_y, xy[2 * k + 1]);
        }
        if (!(hi_x >= -width && hi_y >= -width && lo_x <= v->w + width && lo_y <= v->h + width) ||
            !(hi_x - lo_x < 4 * limit && hi_y - lo_y < 4 * limit))
            continue;   /* off the frame, or a point so near the camera it is nowhere sensible */
        double a = mur_view3d_haze(pq->depth, st->visibility);
        const double *ink = st->bin ? st->palette[pq->bin] : bird;
        cairo_set_source_rgba(cr, ink[0] + (haze[0] - ink[0]) * a, ink[1] + (haze[1] - ink[1]) * a,
                              ink[2] + (haze[2] - ink[2]) * a, alpha);
        cairo_set_line_width(cr, width);
        cairo_move_to(cr, xy[0], xy[1]);
        for (int k = 1; k < pq->n; k++)
            cairo_line_to(cr, xy[2 * k], xy[2 * k + 1]);
        cairo_stroke(cr);
    }
    cairo_restore(cr);
}

int mur_trails3d_draw(const mur_renderer *r, cairo_t *cr, const mur_trails *t, const mur_params *p,
                      const mur_view3d *v, const mur_view3d_style *st, int ox, int oy)
{
    const mur_look *lk = r->look;
    int len = lk->trail_length;
    if (!t->z || t->filled < 2 || len < 1)
        return 0;
    long now = t->tick[t->head];
    int e;
    long first = mur_trail_first(lk, now, &e);
    long span = now - first + 1;   /* segments a trail may have */
    if (span > t->filled - 1)
        span = t->filled - 1;
    int n = t->count[t->head];
    if (n < 1 || span < 1)
        return 0;
    size_t maxp = (size_t)n * (size_t)(2 * span), maxq = (size_t)n * (size_t)span;
    pieces g = {.pt = mur_malloc(2 * maxp * sizeof *g.pt), .pc = mur_malloc(maxq * sizeof *g.pc)};
    if (!g.pt || !g.pc) {
        mur_free(g.pt);
        mur_free(g.pc);
        return -1;
    }
    for (int i = 0; i < n; i++)
        gather(t, p, v, i, now, first, e, &g);
    for (size_t q = 0; q < g.nq; q++) {
        g.pc[q].depth /= g.pc[q].n;
        g.pc[q].scale /= g.pc[q].n;
    }
    qsort(g.pc, g.nq, sizeof *g.pc, far_first);
    stroke(cr, lk, &g, e, now, v, st, ox, oy);
    int bad = cairo_status(cr) != CAIRO_STATUS_SUCCESS;
    mur_free(g.pt);
    mur_free(g.pc);
    return bad ? -1 : 0;
}
