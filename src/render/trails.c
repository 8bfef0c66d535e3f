/* Trails: where each boid has been over the last `length` ticks, fading.
 *
 * Recording. The renderer records every boid's position and colour bin after
 * every tick in a ring per panel, so a still at T shows exactly the trails
 * of frame T of a render. A trail is made of one segment per tick, from the
 * boid's position before the tick to its position after, in the colour the
 * boid had then: a trail shows where the boid flew and how (a turning boid
 * coloured by heading draws a rainbow). Segments join by nearest-image
 * steps, never by raw differences: a boid that wrapped from x = W - 1 to
 * x = 1 stepped 2 units, not W - 2, and its trail continues past the edge
 * (drawn again from the other side) instead of streaking across the
 * screen. A step longer than the speed limit allows is a jump (a reset,
 * a scatter) and is not drawn: the trail flown before it fades where it
 * was. The ticks must come one after another; after a gap the record
 * starts again.
 *
 * Fading. The ticks are cut into bands of E ticks, about length / 5 (at
 * least 1), counted from tick 0 (band b holds ticks bE .. bE + E - 1), and
 * each band is laid
 * over the frame with one opacity that falls with the band's age (the age
 * of its middle tick), from 0.55 to 0 at `length` ticks. Each part of a
 * trail thus dims smoothly from frame to frame and is gone once it is
 * invisible: nothing pops, and the faint end reaches about E / 2 ticks past
 * `length`. Within a band, segments are drawn opaque: where two cross, the
 * later one is on top, and bands add up where they overlap.
 *
 * Speed. On an image surface a band is drawn into a layer that is kept
 * from frame to frame: a frame adds the ticks since the last frame to the
 * newest band and lays about seven layers over the background, instead of
 * stroking every trail again (Cairo's cost per trail pixel row made trails
 * most of a frame's drawing time: 2,000 boids with 30-tick trails took 38
 * ms a 1080p frame to draw, and took 18, murmur-drawbench). A layer is always
 * drawn tick by tick, in tick order, whenever those ticks are drawn, so a
 * frame equals the same frame drawn alone (a still, a --from render): the
 * tests check it. A band whose ticks are all drawn is read once into runs
 * of its nonzero pixels (ink.c) and laid from them, the bands together row
 * by row: a band of 2,000 boids inks a few percent of the frame, and
 * painting its layer read every pixel (a frame of 2,000 boids' trails: 13
 * ms became 5, murmur-drawbench). The band still being drawn, and a band
 * inking much of the frame, are laid in the same pass from the layer's
 * drawn-on tiles. On vector surfaces, and when the
 * layers would take too much memory, each band is stroked afresh at its
 * opacity. Without fade the trail is exactly `length` ticks at one
 * opacity, stroked afresh.
 *
 * Hairlines. Into a layer, a trail under half a pixel wide (boids under
 * about three pixels: a crowd) is not stroked but laid as a hairline, ink
 * of its width times its length spread along it (hair_lay): Cairo's
 * stroker spends its time per segment more than per pixel, and at 100,000
 * boids a tick's trails took more CPU than the rest of the drawing (about
 * 28 ms a 1080p frame; hairlines take about 9, perf on a render of the
 * benchmark's scene). A hairline's joints meet end to end, where a
 * stroke's overlap: a stroked trail is about a tenth brighter than a
 * hairline of the same width. */
#include "internal.h"
#include "murmur/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Beyond this a scene asks for more trail than any frame is worth. */
#define TRAIL_MAX_BYTES ((size_t)1 << 30)
/* Bands a fading trail is cut into: enough for the eye to see a smooth
 * fade, each one a layer to lay over every frame. */
#define FADE_BANDS 5
/* Opacity of the newest part of a trail (times the boids' own). */
#define TRAIL_ALPHA 0.55
/* Beyond this, band layers of one panel are not kept (an 8K frame's take
 * about 1 GiB): bands are stroked afresh, which looks the same and takes
 * longer. */
#define LAYER_MAX_BYTES ((size_t)512 << 20)
#define TILE MUR_TRAIL_TILE

/* Ticks in one band of a fading trail of `length` ticks. */
static int band_ticks(int length)
{
    int e = (length + FADE_BANDS / 2) / FADE_BANDS;
    return e < 1 ? 1 : e;
}

int mur_trail_band_ticks(int length) { return band_ticks(length); }

static void layers_free(mur_trails *t)
{
    for (int i = 0; i < t->nlayers; i++) {
        if (t->layers[i].img)
            cairo_surface_destroy(t->layers[i].img);
        mur_free(t->layers[i].tiles);
        mur_ink_free(&t->layers[i].ink);
    }
    mur_free(t->layers);
    t->layers = NULL;
    t->nlayers = 0;
}

void mur_trails_free(mur_trails *t)
{
    mur_free(t->x);
    mur_free(t->y);
    mur_free(t->z);
    mur_free(t->bin);
    mur_free(t->count);
    mur_free(t->reach);
    mur_free(t->tick);
    mur_free(t->pairs);
    mur_free(t->hair);
    mur_free(t->ids);
    layers_free(t);
    memset(t, 0, sizeof *t);
}

/* Grows the per-slot arrays to hold `cap` boids, keeping what they hold
 * (slot s of boid i at [s * cap + i]). */
static int grow(mur_trails *t, size_t cap)
{
    size_t slots = (size_t)t->slots;
    float *x = mur_malloc(cap * slots * sizeof *x), *y = mur_malloc(cap * slots * sizeof *y);
    float *z = t->three ? mur_malloc(cap * slots * sizeof *z) : NULL;   /* a 3D flock's heights */
    unsigned char *bin = mur_malloc(cap * slots);
    if (!x || !y || !bin || (t->three && !z)) {
        mur_free(x);
        mur_free(y);
        mur_free(z);
        mur_free(bin);
        return -1;
    }
    for (size_t s = 0; s < slots && t->cap; s++) {
        memcpy(x + s * cap, t->x + s * t->cap, t->cap * sizeof *x);
        memcpy(y + s * cap, t->y + s * t->cap, t->cap * sizeof *y);
        if (z)
            memcpy(z + s * cap, t->z + s * t->cap, t->cap * sizeof *z);
        memcpy(bin + s * cap, t->bin + s * t->cap, t->cap);
    }
    mur_free(t->x);
    mur_free(t->y);
    mur_free(t->z);
    mur_free(t->bin);
    t->x = x;
    t->y = y;
    t->z = z;
    t->bin = bin;
    t->cap = cap;
    return 0;
}

/* ---- recorded flocks: ids that come and go ------------------------------------ */

/* A replayed flock's boids are its recording's ids, present in some frames
 * and not in others, so boid i of one tick need not be boid i of the next.
 * When the ids change, every kept slot is rewritten in the new order (an id
 * then absent gets NaN, which no segment is drawn to), so the drawing below
 * keeps its rule that boid i is boid i in every slot. Ids change seldom (a
 * tracked animal enters or leaves), and the model's own flocks have none:
 * for them none of this runs. */
static int same_ids(const mur_trails *t, const int *ids, int n)
{
    if (!t->ids || !ids || t->nids != n)
        return !t->ids && !ids;
    return memcmp(t->ids, ids, (size_t)n * sizeof *ids) == 0;
}

/* Rewrite the kept slots from the head's ids (t->ids, or 0 .. nids-1) to ids
 * (n, ascending). 0, or -1 when memory is short. */
static int remap(mur_trails *t, const int *ids, int n)
{
    int *from = mur_malloc((size_t)(n > 0 ? n : 1) * sizeof *from);
    float *tmp = mur_malloc((size_t)(n > 0 ? n : 1) * 3 * sizeof *tmp);
    unsigned char *tb = mur_malloc((size_t)(n > 0 ? n : 1));
    if (!from || !tmp || !tb) {
        mur_free(from);
        mur_free(tmp);
        mur_free(tb);
        return -1;
    }
    for (int j = 0, i = 0; j < n; j++) {   /* both ascending: one merge */
        int id = ids ? ids[j] : j;
        while (i < t->nids && (t->ids ? t->ids[i] : i) < id)
            i++;
        from[j] = i < t->nids && (t->ids ? t->ids[i] : i) == id ? i : -1;
    }
    for (int k = 0; k < t->filled; k++) {
        int s = (t->head - k + t->slots) % t->slots;
        size_t o = (size_t)s * t->cap;
        for (int j = 0; j < n; j++) {
            int i = from[j] >= 0 && from[j] < t->count[s] ? from[j] : -1;
            tmp[3 * j] = i >= 0 ? t->x[o + (size_t)i] : NAN;
            tmp[3 * j + 1] = i >= 0 ? t->y[o + (size_t)i] : NAN;
            tmp[3 * j + 2] = i >= 0 && t->z ? t->z[o + (size_t)i] : NAN;
            tb[j] = i >= 0 ? t->bin[o + (size_t)i] : 0;
        }
        for (int j = 0; j < n; j++) {
            t->x[o + (size_t)j] = tmp[3 * j];
            t->y[o + (size_t)j] = tmp[3 * j + 1];
            if (t->z)
                t->z[o + (size_t)j] = tmp[3 * j + 2];
            t->bin[o + (size_t)j] = tb[j];
        }
        t->count[s] = n;
    }
    mur_free(from);
    mur_free(tmp);
    mur_free(tb);
    return 0;
}

/* Keep the head's ids (NULL for the model's own boids). */
static int keep_ids(mur_trails *t, const int *ids, int n)
{
    if (!ids) {
        mur_free(t->ids);
        t->ids = NULL;
        t->ids_cap = 0;
    } else {
        if ((size_t)n > t->ids_cap || !t->ids) {
            int *q = mur_realloc(t->ids, (size_t)(n > 0 ? n : 1) * sizeof *q);
            if (!q)
                return -1;
            t->ids = q;
            t->ids_cap = (size_t)(n > 0 ? n : 1);
        }
        memcpy(t->ids, ids, (size_t)n * sizeof *ids);
    }
    t->nids = n;
    return 0;
}

/* The longest honest step of a tick: twice the speed limit (the speed rule
 * runs before the move), plus float rounding, which still rejects a reset.
 * A recording's boids are its ids, the same animal from tick to tick
 * whatever it did, and a thinned recording holds each frame for several
 * ticks and then moves them all at once: only a step over half the world
 * (a boid that reappears far away, or a teleport in the data) breaks its
 * trail. */
static float reach_of(const mur_flock *f)
{
    const mur_params *p = mur_flock_params(f);
    if (mur_flock_ids(f))
        return (float)(0.5 * fmin(p->width, p->height));
    return (float)(2 * p->max_speed + 1e-3);
}

/* 0, -1 when memory is short, -2 when the trails would pass TRAIL_MAX_BYTES. */
int mur_trails_record(mur_trails *t, int length, const mur_flock *f, long tick, const int *bins)
{
    if (length <= 0)
        return 0;
    int n = mur_flock_count(f);
    if (!t->count) {
        /* a band's segments go back to its first tick's start: up to
         * length + E ticks ago */
        int slots = length + band_ticks(length) + 2;
        t->count = mur_calloc((size_t)slots, sizeof *t->count);
        t->reach = mur_calloc((size_t)slots, sizeof *t->reach);
        t->tick = mur_calloc((size_t)slots, sizeof *t->tick);
        if (!t->count || !t->reach || !t->tick)
            return -1;
        t->slots = slots;
        t->head = 0;
        t->filled = 0;
    }
    /* Arrays even for an empty flock: a slot's pointers below (and when
     * drawing) are offsets into them, which on NULL is undefined. */
    if (!t->x)
        t->three = mur_flock_z(f) != NULL;   /* a flock's dimensions are fixed for its life */
    if ((size_t)n > t->cap || !t->x) {
        size_t cap = (size_t)n + (size_t)n / 4 + 16;
        if (cap * (size_t)t->slots * ((t->three ? 3 : 2) * sizeof(float) + 1) > TRAIL_MAX_BYTES)
            return -2;
        if (grow(t, cap))
            return -1;
    }
    if (t->filled && tick != t->tick[t->head] + 1) {
        /* not the next tick: start again, and so do the layers */
        t->filled = 0;
        layers_free(t);
    }
    const int *ids = mur_flock_ids(f);
    if (!same_ids(t, ids, n) || (ids && t->nids != n)) {
        if ((t->filled && remap(t, ids, n)) || keep_ids(t, ids, n))
            return -1;
    }
    int h = t->filled ? (t->head + 1) % t->slots : 0;
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    float *tx = t->x + (size_t)h * t->cap, *ty = t->y + (size_t)h * t->cap;
    unsigned char *tb = t->bin + (size_t)h * t->cap;
    for (int i = 0; i < n; i++) {
        tx[i] = (float)x[i];
        ty[i] = (float)y[i];
        tb[i] = (unsigned char)bins[i];
    }
    const double *z = mur_flock_z(f);
    if (t->z && z)
        for (int i = 0; i < n; i++)
            t->z[(size_t)h * t->cap + i] = (float)z[i];
    t->count[h] = n;
    t->reach[h] = reach_of(f);
    t->tick[h] = tick;
    t->head = h;
    if (t->filled < t->slots)
        t->filled++;
    return 0;
}

/* The slot holding tick k, or -1 when the ring no longer (or never) had it. */
static int slot_of(const mur_trails *t, long k)
{
    if (!t->filled)
        return -1;
    long age = t->tick[t->head] - k;
    if (age < 0 || age >= t->filled)
        return -1;
    int s = (int)((t->head - age % t->slots + t->slots) % t->slots);
    return t->tick[s] == k ? s : -1;
}

/* ---- bands ------------------------------------------------------------------ */

/* Opacity of band b at tick now: falls from the top to 0 as the band's
 * middle tick ages to `length` ticks. */
static double band_alpha(const mur_look *lk, long b, int e, long now)
{
    double mid = (double)b * e + (e - 1) / 2.0, left = 1 - (now - mid) / lk->trail_length;
    return TRAIL_ALPHA * lk->boid_color.a * fmin(fmax(left, 0), 1);
}

double mur_trail_band_alpha(const mur_look *lk, long b, int e, long now) { return band_alpha(lk, b, e, now); }
double mur_trail_alpha(const mur_look *lk) { return TRAIL_ALPHA * lk->boid_color.a; }

/* The bands of a fading trail alive at `now`: oldest .. newest, e ticks each. */
static void alive_bands(const mur_look *lk, long now, int *e, long *oldest, long *newest)
{
    *e = band_ticks(lk->trail_length);
    *newest = now / *e;
    *oldest = *newest;
    while (*oldest > 0 && band_alpha(lk, *oldest - 1, *e, now) > 0)
        --*oldest;
}

/* Bird i's step from slot s back to slot `older`, nearest image (z 0 in a
 * plane), into d; 1 when it is a step the bird could fly: not longer than
 * the speed limit allows (a longer one is a jump: a reset, a state loaded
 * in place) and not NaN (a bird not there then). */
static int trail_offset(const mur_trails *t, const mur_params *p, int s, int older, int i, double d[3])
{
    size_t a = (size_t)s * t->cap + (size_t)i, b = (size_t)older * t->cap + (size_t)i;
    double from[3] = {t->x[a], t->y[a], t->z ? t->z[a] : 0}, to[3] = {t->x[b], t->y[b], t->z ? t->z[b] : 0};
    mur_params_offset3(p, from, to, d);
    double reach = t->reach[s];
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= reach * reach;
}

int mur_trail_back(const mur_trails *t, const mur_params *p, int s, int i, double d[3])
{
    int older = s == 0 ? t->slots - 1 : s - 1;
    if (i >= t->count[older] || t->tick[older] != t->tick[s] - 1)
        return -1;   /* the bird came later, or a tick is missing */
    return trail_offset(t, p, s, older, i, d) ? older : -1;
}

long mur_trail_first(const mur_look *lk, long now, int *e)
{
    long oldest, newest;
    if (!lk->trail_fade) {
        *e = lk->trail_length;
        return now - lk->trail_length + 1;
    }
    alive_bands(lk, now, e, &oldest, &newest);
    return oldest * *e;
}

int mur_trails_polyline(const mur_trails *t, int i, const mur_params *p, float *px, float *py,
                        int max)
{
    if (!t->filled || max < 1 || i < 0 || i >= t->count[t->head])
        return 0;
    int s = t->head;
    double X = t->x[(size_t)s * t->cap + i], Y = t->y[(size_t)s * t->cap + i], d[3];
    px[0] = (float)X;
    py[0] = (float)Y;
    int np = 1;
    for (int k = 1; k < t->filled && np < max && (s = mur_trail_back(t, p, s, i, d)) >= 0; k++) {
        X += d[0];
        Y += d[1];
        px[np] = (float)X;
        py[np] = (float)Y;
        np++;
    }
    return np;
}

/* ---- drawing segments ------------------------------------------------------ */

/* What a stroke of segments needs besides the ring. */
typedef struct trail_pen {
    const mur_renderer *r;
    const mur_params *p;
    double width;            /* line width, world units */
    double alpha;            /* opacity of the strokes: 1 into a layer */
    long first, last;        /* the band: segments meeting inside it overlap */
    /* drawing into a layer: */
    const cairo_matrix_t *m; /* world -> layer pixels; NULL: not a layer */
    unsigned char *tiles;    /* the layer's tiles, tw x th */
    int tw, th;
    double pad;              /* pixels a segment's ink reaches past its ends */
    /* hairlines (a layer only; hair_w > 0): */
    double hair_w;           /* the line's width in layer pixels */
    uint32_t *px;            /* the layer's pixels, stride in pixels */
    int stride, lw, lh;
    uint32_t colour[MUR_MAX_BINS];   /* each bin's colour, opaque ARGB32 */
    mur_trails *t;           /* where the tick's hairlines are listed */
    size_t nhair;
    int hair_failed;         /* memory for the list was short */
} trail_pen;

/* Mark the tiles under the segment (ax, ay) - (bx, by), layer pixels. */
static void mark_tiles_px(trail_pen *pen, double ax, double ay, double bx, double by)
{
    double lo_x = fmin(ax, bx) - pen->pad, hi_x = fmax(ax, bx) + pen->pad;
    double lo_y = fmin(ay, by) - pen->pad, hi_y = fmax(ay, by) + pen->pad;
    if (!(hi_x >= 0 && hi_y >= 0 && lo_x < pen->tw * (double)TILE && lo_y < pen->th * (double)TILE))
        return;   /* off the layer (or not a number) */
    int tx0 = lo_x < 0 ? 0 : (int)(lo_x / TILE), ty0 = lo_y < 0 ? 0 : (int)(lo_y / TILE);
    int tx1 = (int)fmin(hi_x / TILE, pen->tw - 1), ty1 = (int)fmin(hi_y / TILE, pen->th - 1);
    for (int ty = ty0; ty <= ty1; ty++)
        for (int tx = tx0; tx <= tx1; tx++)
            pen->tiles[ty * pen->tw + tx] = 1;
}

/* The same for a segment in world units. */
static void mark_tiles(trail_pen *pen, double x0, double y0, double x1, double y1)
{
    const cairo_matrix_t *m = pen->m;
    mark_tiles_px(pen, m->xx * x0 + m->xy * y0 + m->x0, m->yx * x0 + m->yy * y0 + m->y0,
                  m->xx * x1 + m->xy * y1 + m->x0, m->yx * x1 + m->yy * y1 + m->y0);
}

/* ---- hairlines ------------------------------------------------------------- */

/* A trail no wider than this many pixels is drawn as a hairline (below)
 * rather than stroked: boids under about three pixels long. */
#define HAIR_MAX_PX 0.5
/* Spacing of a hairline's samples along the segment, pixels. */
#define HAIR_STEP 0.5
/* Coverage fixed point: 1 << 16 covers a pixel. */
#define HAIR_ONE 65536

/* Lay colour c (opaque ARGB32) over pixel p with coverage a / HAIR_ONE:
 * OVER through a mask, as Cairo lays a stroke, on each premultiplied byte
 * (the coverage in 16 bits, rounded once). */
static inline uint32_t hair_over(uint32_t p, uint32_t c, uint32_t a)
{
    /* two channels a word, 32 bits apart: each product fits in 25 */
    const uint64_t lanes = 0x000000ff000000ffull, half = (uint64_t)(HAIR_ONE / 2) * 0x0000000100000001ull;
    uint64_t p0 = (p & 0xffu) | (uint64_t)(p & 0xff0000u) << 16, p1 = (p >> 8 & 0xffu) | (uint64_t)(p >> 24) << 32;
    uint64_t c0 = (c & 0xffu) | (uint64_t)(c & 0xff0000u) << 16, c1 = (c >> 8 & 0xffu) | (uint64_t)(c >> 24) << 32;
    uint64_t o0 = (c0 * a + p0 * (HAIR_ONE - a) + half) >> 16 & lanes;
    uint64_t o1 = (c1 * a + p1 * (HAIR_ONE - a) + half) >> 16 & lanes;
    return (uint32_t)(o0 | o0 >> 16 | o1 << 8 | o1 >> 8);
}

/* Samples a hairline lays at once: over at most 1.5 pixels, so their
 * splats lie in a box of 4 x 4 pixels, where their coverage is summed
 * before it is laid (laid sample by sample, each pixel's share of each
 * would be rounded to the layer's 8 bits on its own, and the many small
 * ones lost). */
#define HAIR_GROUP 4

/* A hairline as hair_list lists it and hair_lay draws it: its ends in
 * layer pixels (pixel i's centre at i), and its colour. */
typedef struct mur_hair {
    float ax, ay, bx, by;
    uint32_t colour;
} mur_hair;

/* The segment (x0, y0) - (x1, y1), world units, as a hairline in colour c,
 * listed for the tick (hair_tick lays them): 0, or -1 when memory is
 * short. */
static int hair_list(trail_pen *pen, double x0, double y0, double x1, double y1, uint32_t c)
{
    const cairo_matrix_t *m = pen->m;
    double ax = m->xx * x0 + m->xy * y0 + m->x0 - 0.5, ay = m->yx * x0 + m->yy * y0 + m->y0 - 0.5;
    double bx = m->xx * x1 + m->xy * y1 + m->x0 - 0.5, by = m->yx * x1 + m->yy * y1 + m->y0 - 0.5;
    if (!(fmax(ax, bx) > -1 && fmax(ay, by) > -1 && fmin(ax, bx) < pen->lw && fmin(ay, by) < pen->lh))
        return 0;   /* off the layer (or not a number) */
    mur_trails *t = pen->t;
    if (pen->hair_failed)
        return -1;
    if (pen->nhair == t->hair_cap) {
        size_t cap = t->hair_cap ? 2 * t->hair_cap : 4096;
        mur_hair *h = mur_realloc(t->hair, 2 * cap * sizeof *h);   /* the list, and the list sorted */
        if (!h)
            return -1;
        t->hair = h;
        t->hair_cap = cap;
    }
    t->hair[pen->nhair++] = (mur_hair){(float)ax, (float)ay, (float)bx, (float)by, c};
    mark_tiles_px(pen, ax + 0.5, ay + 0.5, bx + 0.5, by + 0.5);
    return 0;
}

/* Lays hairline h over the layer: ink of the line's width times its
 * length, in samples every HAIR_STEP pixels or less (at the middles of
 * equal parts, so hairlines meeting end to end neither overlap nor leave a
 * gap), each spread bilinearly over the 2 x 2 pixels around it as a
 * density splat is, and laid pixel by pixel as Cairo lays a stroke. A line
 * a fraction of a pixel wide covers each pixel it crosses by about its
 * width times its length there, which is what this lays, smoothly at any
 * angle. */
static void hair_lay(const trail_pen *pen, const mur_hair *h)
{
    float dx = h->bx - h->ax, dy = h->by - h->ay, len = sqrtf(dx * dx + dy * dy);
    int n = (int)ceilf(len / (float)HAIR_STEP);
    if (n < 1)
        n = 1;
    float ink = (float)pen->hair_w * len / (float)n;   /* per sample, pixels: at most a quarter */
    for (int g = 0; g < n; g += HAIR_GROUP) {
        int e = g + HAIR_GROUP < n ? g + HAIR_GROUP : n;
        float xa = h->ax + dx * ((float)g + 0.5f) / (float)n, xb = h->ax + dx * ((float)e - 0.5f) / (float)n;
        float ya = h->ay + dy * ((float)g + 0.5f) / (float)n, yb = h->ay + dy * ((float)e - 0.5f) / (float)n;
        float lx = fminf(xa, xb), ly = fminf(ya, yb);
        if (!(fmaxf(xa, xb) > -1 && fmaxf(ya, yb) > -1 && lx < (float)pen->lw && ly < (float)pen->lh))
            continue;   /* this part is off the layer */
        int i0 = (int)floorf(lx), j0 = (int)floorf(ly);
        /* the box's columns and rows the splats reach: at most 4 */
        int cols = (int)floorf(fmaxf(xa, xb)) - i0 + 2, rows = (int)floorf(fmaxf(ya, yb)) - j0 + 2;
        float acc[4][4] = {{0}};
        for (int j = g; j < e; j++) {
            float f = ((float)j + 0.5f) / (float)n, X = h->ax + dx * f, Y = h->ay + dy * f;
            float fx0 = floorf(X), fy0 = floorf(Y), fx = X - fx0, fy = Y - fy0;
            int ci = (int)fx0 - i0, cj = (int)fy0 - j0;   /* 0 .. 2: the samples lie within 1.5 pixels */
            acc[cj][ci] += ink * (1 - fx) * (1 - fy);
            acc[cj][ci + 1] += ink * fx * (1 - fy);
            acc[cj + 1][ci] += ink * (1 - fx) * fy;
            acc[cj + 1][ci + 1] += ink * fx * fy;
        }
        for (int b = 0; b < rows; b++) {
            int row = j0 + b;
            if (row < 0 || row >= pen->lh)
                continue;
            uint32_t *line = pen->px + (size_t)row * (size_t)pen->stride;
            for (int a = 0; a < cols; a++) {
                int col = i0 + a;
                uint32_t cov = (uint32_t)(acc[b][a] * HAIR_ONE + 0.5f);
                if (cov && col >= 0 && col < pen->lw)
                    line[col] = hair_over(line[col], h->colour, cov > HAIR_ONE ? HAIR_ONE : cov);
            }
        }
    }
}

/* Does boid i's segment of tick k meet the one of tick j (k +- 1) in the
 * same stroke of the band? Into a layer every end meets (strokes are
 * opaque there, so painting an overlap twice changes nothing); stroked
 * with alpha, only an end in the same colour bin, which is the same
 * stroke: across bins the overlap would be painted twice, a bright knot. */
static int meets(const trail_pen *pen, const mur_trails *t, int sk, int i, long j)
{
    if (j < pen->first || j > pen->last)
        return 0;
    if (pen->m)
        return 1;
    int sj = slot_of(t, j);
    return sj >= 0 && i < t->count[sj] &&
           t->bin[(size_t)sj * t->cap + (size_t)i] == t->bin[(size_t)sk * t->cap + (size_t)i];
}

/* Add boid i's segment of tick k (slots sk and sk1 = k - 1) to the path.
 * Each end that meets another segment of the band is lengthened by half
 * the line width, so that neighbouring segments overlap instead of meeting
 * edge to edge: two antialiased edges laid on one another would leave a
 * faint notch at every tick. Under wrap a segment running past an edge is
 * drawn again from the other side; while the camera draws a wrapping
 * world's periodic images (camera.c), it is drawn once in each of them. */
static void add_segment(cairo_t *cr, trail_pen *pen, const mur_trails *t, int sk, int sk1, int i,
                        long k)
{
    size_t a = (size_t)sk * t->cap + (size_t)i;
    double x1 = t->x[a], y1 = t->y[a], d[3];
    if (!trail_offset(t, pen->p, sk, sk1, i, d))
        return;   /* a jump */
    double dx = d[0], dy = d[1], d2 = dx * dx + dy * dy;
    if (!(d2 > 0))
        return;   /* no move at all */
    double l = sqrt(d2), ux = -dx / l, uy = -dy / l, ext = pen->width / 2;
    double x0 = x1 + dx, y0 = y1 + dy;   /* the older end, nearest image */
    if (pen->hair_w > 0) {   /* no edges to notch: segments meet end to end */
        ext = 0;
    } else if (meets(pen, t, sk, i, k - 1)) {
        x0 -= ux * ext;
        y0 -= uy * ext;
    }
    if (ext > 0 && meets(pen, t, sk, i, k + 1)) {
        x1 += ux * ext;
        y1 += uy * ext;
    }
    const mur_renderer *r = pen->r;
    if (r->tiling) {   /* every periodic image in this one path: their joints overlap once */
        double w = pen->p->width, h = pen->p->height;
        double m = pen->width;
        for (int p = r->tile_i0; p <= r->tile_i1; p++)
            for (int q = r->tile_j0; q <= r->tile_j1; q++) {
                if (fmax(x0, x1) + p * w < r->cull[0] - m || fmin(x0, x1) + p * w > r->cull[2] + m ||
                    fmax(y0, y1) + q * h < r->cull[1] - m || fmin(y0, y1) + q * h > r->cull[3] + m)
                    continue;   /* out of the view */
                cairo_move_to(cr, x0 + p * w, y0 + q * h);
                cairo_line_to(cr, x1 + p * w, y1 + q * h);
            }
        return;
    }
    double sx[3] = {0}, sy[3] = {0};
    int nx = 1, ny = 1;
    if (pen->p->boundary == MUR_BOUNDARY_WRAP) {
        double w = pen->p->width, h = pen->p->height;
        if (fmin(x0, x1) < 0) sx[nx++] = w;
        if (fmax(x0, x1) > w) sx[nx++] = -w;
        if (fmin(y0, y1) < 0) sy[ny++] = h;
        if (fmax(y0, y1) > h) sy[ny++] = -h;
    }
    for (int p = 0; p < nx; p++)
        for (int q = 0; q < ny; q++) {
            if (pen->hair_w > 0) {
                if (hair_list(pen, x0 + sx[p], y0 + sy[q], x1 + sx[p], y1 + sy[q], pen->colour[t->bin[a]]))
                    pen->hair_failed = 1;
                continue;
            }
            cairo_move_to(cr, x0 + sx[p], y0 + sy[q]);
            cairo_line_to(cr, x1 + sx[p], y1 + sy[q]);
            if (pen->m)
                mark_tiles(pen, x0 + sx[p], y0 + sy[q], x1 + sx[p], y1 + sy[q]);
        }
}

/* Stroke the segments of ticks k0 .. k1 onto cr, in world coordinates, one
 * stroke per colour bin, each in its bin's colour at the pen's opacity. -1
 * when memory is short, MUR_EINTR when the stop flag was seen (the path is
 * then dropped). A bin stays one stroke however long: in parts, their
 * translucent overlaps would show as knots. */
static int stroke_ticks(cairo_t *cr, trail_pen *pen, mur_trails *t, long k0, long k1)
{
    const mur_look *lk = pen->r->look;
    int nb = mur_bin_count(lk);
    /* (slot, boid) pairs of the range as slot * cap + boid, sorted by bin
     * (counting sort); cap * slots is far below 2^32 (TRAIL_MAX_BYTES) */
    size_t total = 0;
    for (long k = k0; k <= k1; k++) {
        int sk = slot_of(t, k), sk1 = slot_of(t, k - 1);
        if (sk >= 0 && sk1 >= 0)
            total += (size_t)(t->count[sk] < t->count[sk1] ? t->count[sk] : t->count[sk1]);
    }
    if (!total)
        return 0;
    if (total > t->npairs_cap) {
        size_t cap = total + total / 4;
        uint32_t *pairs = mur_realloc(t->pairs, cap * sizeof *pairs);
        if (!pairs)
            return -1;
        t->pairs = pairs;
        t->npairs_cap = cap;
    }
    size_t start[MUR_MAX_BINS + 1] = {0}, next[MUR_MAX_BINS + 1];
    for (int pass = 0; pass < 2; pass++) {
        for (long k = k0; k <= k1; k++) {
            int sk = slot_of(t, k), sk1 = slot_of(t, k - 1);
            if (sk < 0 || sk1 < 0)
                continue;
            int n = t->count[sk] < t->count[sk1] ? t->count[sk] : t->count[sk1];
            const unsigned char *bin = t->bin + (size_t)sk * t->cap;
            if (!pass) {
                for (int i = 0; i < n; i++)
                    start[bin[i] + 1]++;
            } else {
                for (int i = 0; i < n; i++)
                    t->pairs[next[bin[i]]++] = (uint32_t)((size_t)sk * t->cap + (size_t)i);
            }
        }
        if (!pass) {
            for (int b = 0; b < nb; b++)
                start[b + 1] += start[b];
            memcpy(next, start, sizeof next);
        }
    }
    for (int b = 0; b < nb; b++) {
        if (start[b] == start[b + 1])
            continue;
        cairo_new_path(cr);
        for (size_t j = start[b]; j < start[b + 1]; j++) {
            if ((j - start[b]) % MUR_POLL_BOIDS == MUR_POLL_BOIDS - 1 && mur_render_stopped(pen->r)) {
                cairo_new_path(cr);
                return MUR_EINTR;
            }
            int sk = (int)(t->pairs[j] / t->cap), i = (int)(t->pairs[j] % t->cap);
            int sk1 = sk == 0 ? t->slots - 1 : sk - 1;   /* tick k - 1: checked above */
            add_segment(cr, pen, t, sk, sk1, i, t->tick[sk]);
        }
        double rgb[3];
        mur_bin_colour(lk, b, rgb);
        cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], pen->alpha);
        cairo_stroke(cr);
    }
    return 0;
}

/* Pixels of the layer a bucket of hairlines spans (below). */
#define HAIR_ROWS 4
#define HAIR_COLS 32

/* Bucket of hairline h among bw x bh. */
static int hair_bucket(const mur_hair *h, int bw, int bh)
{
    float row = h->ay / HAIR_ROWS, col = h->ax / HAIR_COLS;
    return (row > 0 ? (row < (float)(bh - 1) ? (int)row : bh - 1) : 0) * bw +
           (col > 0 ? (col < (float)(bw - 1) ? (int)col : bw - 1) : 0);
}

/* Tick k's segments as hairlines: 0, -1 when memory is short, or MUR_EINTR
 * when the stop flag was seen. They are listed in boid order, reading the
 * ring in runs; but boids lie anywhere in memory order, and laying their
 * segments in that order would read the layer's pixels at random, a miss
 * of the cache each. So the list is sorted into buckets of HAIR_ROWS x
 * HAIR_COLS pixels (a counting sort, stable: by boid within a bucket), and
 * laid bucket by bucket, row of buckets by row, the pixels in cache: a
 * fixed order. */
static int hair_tick(trail_pen *pen, mur_trails *t, long k)
{
    int sk = slot_of(t, k), sk1 = slot_of(t, k - 1);
    if (sk < 0 || sk1 < 0)
        return 0;
    int n = t->count[sk] < t->count[sk1] ? t->count[sk] : t->count[sk1];
    pen->t = t;
    pen->nhair = 0;
    pen->hair_failed = 0;
    for (int i = 0; i < n; i++) {
        if (i % MUR_POLL_BOIDS == MUR_POLL_BOIDS - 1 && mur_render_stopped(pen->r))
            return MUR_EINTR;
        add_segment(NULL, pen, t, sk, sk1, i, k);
    }
    if (pen->hair_failed)
        return -1;
    size_t nh = pen->nhair;
    if (!nh)
        return 0;
    int bw = pen->lw / HAIR_COLS + 1, bh = pen->lh / HAIR_ROWS + 1, nb = bw * bh;
    if ((size_t)nb + 1 > t->npairs_cap) {   /* the buckets' starts, in stroke_ticks' scratch */
        uint32_t *pairs = mur_realloc(t->pairs, ((size_t)nb + 1) * sizeof *pairs);
        if (!pairs)
            return -1;
        t->pairs = pairs;
        t->npairs_cap = (size_t)nb + 1;
    }
    uint32_t *start = t->pairs;
    memset(start, 0, ((size_t)nb + 1) * sizeof *start);
    const mur_hair *list = t->hair;
    mur_hair *sorted = t->hair + t->hair_cap;
    for (size_t j = 0; j < nh; j++)
        start[hair_bucket(&list[j], bw, bh) + 1]++;
    for (int b = 0; b < nb; b++)
        start[b + 1] += start[b];
    for (size_t j = 0; j < nh; j++)
        sorted[start[hair_bucket(&list[j], bw, bh)]++] = list[j];
    for (size_t j = 0; j < nh; j++) {
        if (j % MUR_POLL_BOIDS == MUR_POLL_BOIDS - 1 && mur_render_stopped(pen->r))
            return MUR_EINTR;
        hair_lay(pen, &sorted[j]);
    }
    return 0;
}

static void pen_style(cairo_t *cr, const trail_pen *pen)
{
    cairo_set_line_width(cr, pen->width);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    /* Cairo's coarser antialiasing grid (4 x 4 samples rather than 256 x
     * 15) rasterises a trail in about half the time and looks the same on
     * a line a pixel wide. Boids keep the fine grid. */
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST);
}

/* Ticks k0 .. k1 straight onto cr at opacity alpha: the way bands are
 * drawn where no layer is kept. (Not as a group laid with that opacity,
 * which would match a layer exactly: Cairo 1.16 leaks the snapshot of
 * every group painted onto a vector surface.) Within a band, crossing
 * segments of different colours add up here; in a layer the later is on
 * top. */
static int draw_direct(cairo_t *cr, trail_pen *pen, mur_trails *t, long k0, long k1, double alpha)
{
    pen_style(cr, pen);
    pen->alpha = alpha;
    return stroke_ticks(cr, pen, t, k0, k1);
}

/* Layers for a device rectangle (x, y, w, h), world transform m and world
 * p: 1 when they are there (those kept for anything else are dropped), 0
 * when they would take too much memory, -1 when memory is short. */
static int layers_ready(mur_trails *t, int nl, int x, int y, int w, int h, const cairo_matrix_t *m,
                        const mur_params *p)
{
    if (w < 1 || h < 1 || (size_t)nl * (size_t)w * (size_t)h * 4 > LAYER_MAX_BYTES)
        return 0;
    double world[3] = {p->width, p->height, (double)p->boundary};
    if (t->layers && (t->lx != x || t->ly != y || t->lw != w || t->lh != h ||
                      memcmp(&t->lm, m, sizeof *m) != 0 ||
                      memcmp(t->lworld, world, sizeof world) != 0))
        layers_free(t);
    if (!t->layers) {
        if (!(t->layers = mur_calloc((size_t)nl, sizeof *t->layers)))
            return -1;
        t->nlayers = nl;
        for (int i = 0; i < nl; i++) {
            t->layers[i].band = -1;
            t->layers[i].mask = -1;
        }
        t->lx = x;
        t->ly = y;
        t->lw = w;
        t->lh = h;
        t->tw = (w + TILE - 1) / TILE;
        t->th = (h + TILE - 1) / TILE;
        t->lm = *m;
        memcpy(t->lworld, world, sizeof world);
    }
    return 1;
}

/* Add the layer's drawn-on tiles to cr's path as rectangles, offset by
 * (ox, oy) pixels. */
static void tiles_path(cairo_t *cr, const mur_trails *t, const mur_trail_layer *L, double ox,
                       double oy)
{
    for (int ty = 0; ty < t->th; ty++) {
        int y = ty * TILE, h = ((ty + 1) * TILE < t->lh ? (ty + 1) * TILE : t->lh) - y;
        for (int tx = 0, x0, x1; mur_tile_run(L->tiles + (size_t)ty * t->tw, t->tw, TILE, t->lw, &tx, &x0, &x1);)
            cairo_rectangle(cr, ox + x0, oy + y, x1 - x0, h);
    }
}

/* A band whose ticks are all drawn is read into runs of its nonzero pixels
 * (ink.c), which are laid instead of the layer while they are few: laying
 * a layer reads every pixel of its drawn-on tiles, and a band of 2,000
 * boids inks a few percent of a 1080p frame. Past a quarter of the layer
 * the runs save little and the layer is laid as it is (its whole ink);
 * so it is when memory is short (the pixels are the same either way). */
static void ink_band(mur_trails *t, mur_trail_layer *L)
{
    cairo_surface_flush(L->img);
    L->inked = !mur_ink_read(&L->ink, cairo_image_surface_get_data(L->img),
                             cairo_image_surface_get_stride(L->img), t->lw, t->lh, L->tiles, t->tw, TILE,
                             (size_t)t->lw * (size_t)t->lh / 4);
    L->mask = -1;
}

/* The mask byte layer L is laid with at alpha, asked of Cairo once per
 * opacity (a band's opacity changes every frame; the bands of a frame
 * drawn in bands find it asked by mur_trails_prepare, and only read it). */
static int layer_mask(mur_trail_layer *L, double alpha)
{
    if (L->mask < 0 || L->mask_alpha != alpha) {
        L->mask = mur_ink_mask(alpha);
        L->mask_alpha = alpha;
    }
    return L->mask;
}

/* Where inks are laid: cr's target image and its clip, in the surface's
 * pixels. */
typedef struct ink_target {
    unsigned char *px;
    int stride;
    int dx, dy;              /* device (0, 0) in the surface's pixels */
    int x0, y0, x1, y1;      /* the clip, within the surface */
} ink_target;

/* Whether inks can be laid on cr: its target is an ARGB32 image and its
 * clip one rectangle of whole pixels (*k filled then); otherwise every
 * layer is painted. */
static int ink_target_of(cairo_t *cr, ink_target *k)
{
    cairo_surface_t *s = cairo_get_target(cr);
    if (cairo_surface_get_type(s) != CAIRO_SURFACE_TYPE_IMAGE ||
        cairo_image_surface_get_format(s) != CAIRO_FORMAT_ARGB32)
        return 0;
    cairo_save(cr);
    cairo_identity_matrix(cr);
    cairo_rectangle_list_t *clip = cairo_copy_clip_rectangle_list(cr);   /* device space */
    cairo_restore(cr);
    int ok = clip->status == CAIRO_STATUS_SUCCESS && clip->num_rectangles == 1;
    if (ok) {
        const cairo_rectangle_t *c = &clip->rectangles[0];
        double ox, oy;
        cairo_surface_get_device_offset(s, &ox, &oy);
        int sw = cairo_image_surface_get_width(s), sh = cairo_image_surface_get_height(s);
        double x0 = fmax(c->x + ox, 0), y0 = fmax(c->y + oy, 0);
        double x1 = fmin(c->x + c->width + ox, sw), y1 = fmin(c->y + c->height + oy, sh);
        ok = x0 == floor(x0) && y0 == floor(y0) && x1 == floor(x1) && y1 == floor(y1) &&
             ox == floor(ox) && oy == floor(oy) && fabs(ox) < 1 << 24 && fabs(oy) < 1 << 24;
        *k = (ink_target){.px = cairo_image_surface_get_data(s), .stride = cairo_image_surface_get_stride(s),
                          .dx = (int)ox, .dy = (int)oy, .x0 = (int)x0, .y0 = (int)y0,
                          .x1 = x1 > x0 ? (int)x1 : (int)x0, .y1 = y1 > y0 ? (int)y1 : (int)y0};
    }
    cairo_rectangle_list_destroy(clip);
    return ok;
}

/* Bands laid from their ink (runs, or the layer's drawn-on tiles whole),
 * waiting to be laid together, row by row: a frame's row gets every band
 * while it is in the cache, where painting the bands one by one read and
 * wrote the frame once each (at 100,000 boids, six dense bands). In their
 * order: a band painted by Cairo (onto a target ink cannot be laid on)
 * lays them first. */
#define INK_BATCH 16
typedef struct ink_batch {
    const mur_ink *ink[INK_BATCH];
    int mask[INK_BATCH];
    int n;
} ink_batch;

static void lay_batch(cairo_t *cr, const mur_trails *t, const ink_target *k, ink_batch *b)
{
    if (!b->n)
        return;
    if (k->x0 < k->x1 && k->y0 < k->y1) {
        cairo_surface_t *s = cairo_get_target(cr);
        cairo_surface_flush(s);
        mur_ink_lay(b->ink, b->mask, b->n, k->px, k->stride, t->lx + k->dx, t->ly + k->dy, k->x0, k->y0,
                    k->x1, k->y1);
        cairo_surface_mark_dirty_rectangle(s, k->x0, k->y0, k->x1 - k->x0, k->y1 - k->y0);
    }
    b->n = 0;
}

/* Layer L's image and tiles, made on its first use: leaves them clear and
 * no band drawn; -1 (and neither) when they cannot be made. */
static int layer_make(mur_trails *t, mur_trail_layer *L)
{
    L->img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, t->lw, t->lh);
    L->tiles = mur_calloc((size_t)t->tw * (size_t)t->th, 1);
    if (cairo_surface_status(L->img) != CAIRO_STATUS_SUCCESS || !L->tiles) {
        cairo_surface_destroy(L->img);
        L->img = NULL;
        mur_free(L->tiles);
        L->tiles = NULL;
        return -1;
    }
    /* Written once now, though Cairo's pixels start clear: the layer
     * is read (laid whole, read for its ink) before much of it is
     * drawn on, and memory first read and then written is mapped
     * twice, the second time with every core told to forget the first
     * (perf: 1.3% of a 2-second render of 2,000 boids went there). */
    cairo_surface_flush(L->img);
    memset(cairo_image_surface_get_data(L->img), 0,
           (size_t)cairo_image_surface_get_stride(L->img) * (size_t)t->lh);
    cairo_surface_mark_dirty(L->img);
    L->band = -1;
    L->any = 0;
    mur_ink_whole(&L->whole, cairo_image_surface_get_data(L->img), cairo_image_surface_get_stride(L->img),
                  t->lw, t->lh, L->tiles, t->tw, TILE);
    return 0;
}

/* Layer L given to band b (e ticks a band) when it held another: leaves it
 * wiped of what that band drew, drawn up to the tick before band b's. */
static void layer_take(const mur_trails *t, mur_trail_layer *L, long b, int e)
{
    if (L->band == b)
        return;
    if (L->any) {   /* wipe what the last band drew */
        cairo_t *c = cairo_create(L->img);
        cairo_set_operator(c, CAIRO_OPERATOR_CLEAR);
        tiles_path(c, t, L, 0, 0);
        cairo_fill(c);
        cairo_destroy(c);
        memset(L->tiles, 0, (size_t)t->tw * (size_t)t->th);
        L->any = 0;
    }
    L->band = b;
    L->upto = b * e - 1;
    L->inked = 0;
}

/* Enters with c drawing on layer L and *m the frame's world -> device
 * transform; leaves *m world -> layer pixels, set on c, and the pen
 * drawing into L through it (hairlines straight into its pixels when the
 * line is that thin: hair_w > 0). */
static void pen_on_layer(cairo_t *c, trail_pen *pen, const mur_trails *t, mur_trail_layer *L, cairo_matrix_t *m)
{
    /* world -> frame device, then frame device -> layer pixels */
    cairo_matrix_t shift;
    cairo_matrix_init_translate(&shift, -t->lx, -t->ly);
    cairo_matrix_multiply(m, m, &shift);
    cairo_set_matrix(c, m);
    pen_style(c, pen);
    pen->alpha = 1;
    pen->m = m;
    pen->tiles = L->tiles;
    pen->tw = t->tw;
    pen->th = t->th;
    /* half the line's width, and a pixel of antialiasing (generously) */
    pen->pad = pen->width * (fabs(m->xx) + fabs(m->xy) + fabs(m->yx) + fabs(m->yy)) + 2;
    /* the line's width in pixels, by the transform's mean scale */
    double wpx = pen->width * sqrt(fabs(m->xx * m->yy - m->xy * m->yx));
    pen->hair_w = 0;
    if (wpx <= HAIR_MAX_PX) {
        const mur_look *lk = pen->r->look;
        for (int b = 0, nb = mur_bin_count(lk); b < nb; b++) {
            uint8_t rgb[3];
            mur_bin_rgb8(lk, b, rgb);
            pen->colour[b] = 0xff000000u | (uint32_t)rgb[0] << 16 | (uint32_t)rgb[1] << 8 | rgb[2];
        }
        cairo_surface_flush(L->img);
        pen->hair_w = wpx;
        pen->px = (uint32_t *)cairo_image_surface_get_data(L->img);
        pen->stride = cairo_image_surface_get_stride(L->img) / 4;
        pen->lw = t->lw;
        pen->lh = t->lh;
    }
}

/* Bring band b's layer up to tick `upto`; 0, or -1 when it cannot be made. */
static int layer_update(mur_trails *t, trail_pen *pen, long b, int e, long upto, mur_trail_layer **out)
{
    mur_trail_layer *L = &t->layers[b % t->nlayers];
    size_t ntiles = (size_t)t->tw * (size_t)t->th;
    *out = L;
    if (!L->img && layer_make(t, L))
        return -1;
    layer_take(t, L, b, e);
    if (L->upto >= upto)
        return 0;
    cairo_t *c = cairo_create(L->img);
    cairo_matrix_t m = t->lm;
    pen_on_layer(c, pen, t, L, &m);
    int rc = 0;
    /* one tick at a time, whenever it is drawn: the layer's pixels do not
     * depend on which frames were drawn before */
    for (long k = L->upto + 1; k <= upto && !rc; k++)
        rc = pen->hair_w > 0 ? hair_tick(pen, t, k) : stroke_ticks(c, pen, t, k, k);
    if (pen->hair_w > 0)
        cairo_surface_mark_dirty(L->img);
    cairo_surface_flush(L->img);   /* read as it is while laid */
    pen->hair_w = 0;
    pen->m = NULL;
    if (!rc && cairo_status(c) != CAIRO_STATUS_SUCCESS)
        rc = -1;
    cairo_destroy(c);
    L->any = 1;   /* at worst, tiles of nothing */
    if (rc) {   /* half drawn: wiped whole before its next use */
        L->band = -1;
        memset(L->tiles, 1, ntiles);
        return rc;
    }
    L->upto = upto;
    if (upto == b * e + e - 1)
        ink_band(t, L);
    return 0;
}

int mur_trails_prepare(mur_renderer *r, cairo_t *cr, mur_trails *t, const mur_params *p, int dx,
                       int dy, int dw, int dh)
{
    const mur_look *lk = r->look;
    int len = lk->trail_length;
    if (t->filled < 2 || len < 1 || !lk->trail_fade ||
        cairo_surface_get_type(cairo_get_target(cr)) != CAIRO_SURFACE_TYPE_IMAGE)
        return 0;
    long now = t->tick[t->head], oldest, newest;
    int e;
    alive_bands(lk, now, &e, &oldest, &newest);
    double size = mur_boid_size(r);
    trail_pen pen = {.r = r, .p = p, .width = fmax(size * 0.16, 0.05)};
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    int nl = (len + e) / e + 2;
    int rc = layers_ready(t, nl, dx, dy, dw, dh, &m, p);
    if (rc <= 0)
        return rc;
    rc = 0;
    for (long b = oldest; b <= newest && !rc; b++) {
        mur_trail_layer *L;
        pen.first = b * e;
        pen.last = b * e + e - 1;
        double alpha = band_alpha(lk, b, e, now);
        if (alpha > 0 && !(rc = layer_update(t, &pen, b, e, b * e + e - 1 < now ? b * e + e - 1 : now, &L)) &&
            L->any)
            layer_mask(L, alpha);   /* asked here, read by the bands */
    }
    return rc ? rc : 1;
}

int mur_trails_draw(mur_renderer *r, cairo_t *cr, mur_trails *t, const mur_params *p, int dx,
                    int dy, int dw, int dh)
{
    const mur_look *lk = r->look;
    int len = lk->trail_length;
    if (t->filled < 2 || len < 1)
        return 0;
    long now = t->tick[t->head];
    double size = mur_boid_size(r);
    trail_pen pen = {.r = r, .p = p, .width = fmax(size * 0.16, 0.05)};
    cairo_save(cr);
    int rc = 0;
    if (!lk->trail_fade) {
        /* exactly the last `length` segments, at one opacity */
        pen.first = now - len + 1;
        pen.last = now;
        rc = draw_direct(cr, &pen, t, pen.first, now, TRAIL_ALPHA * lk->boid_color.a);
        cairo_restore(cr);
        return rc;
    }
    int e;
    long oldest, newest;
    alive_bands(lk, now, &e, &oldest, &newest);
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    int nl = (len + e) / e + 2;   /* more than the bands alive at once */
    int cached = cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE
                     ? layers_ready(t, nl, dx, dy, dw, dh, &m, p)
                     : 0;
    if (cached < 0) {
        cairo_restore(cr);
        return -1;
    }
    ink_target target;
    ink_batch batch = {.n = 0};
    int inks = cached && ink_target_of(cr, &target);
    for (long b = oldest; b <= newest && !rc; b++) {
        double alpha = band_alpha(lk, b, e, now);
        long upto = b * e + e - 1 < now ? b * e + e - 1 : now;
        pen.first = b * e;
        pen.last = b * e + e - 1;
        if (!(alpha > 0))
            continue;
        if (!cached) {
            rc = draw_direct(cr, &pen, t, b * e, upto, alpha);
            continue;
        }
        mur_trail_layer *L;
        if ((rc = layer_update(t, &pen, b, e, upto, &L)))
            break;
        if (!L->any)
            continue;
        int m = inks ? layer_mask(L, alpha) : -1;
        if (m >= 0) {
            if (batch.n == INK_BATCH)
                lay_batch(cr, t, &target, &batch);
            batch.ink[batch.n] = L->inked ? &L->ink : &L->whole;
            batch.mask[batch.n++] = m;
            continue;
        }
        lay_batch(cr, t, &target, &batch);
        /* laid in device space, only over what the band drew on */
        cairo_save(cr);
        cairo_identity_matrix(cr);
        cairo_new_path(cr);
        tiles_path(cr, t, L, t->lx, t->ly);
        cairo_clip(cr);
        cairo_set_source_surface(cr, L->img, t->lx, t->ly);
        cairo_paint_with_alpha(cr, alpha);
        cairo_restore(cr);
    }
    if (!rc)
        lay_batch(cr, t, &target, &batch);
    cairo_restore(cr);
    return rc;
}
