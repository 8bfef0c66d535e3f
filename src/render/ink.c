/* Ink: the drawn-on pixels of a mostly empty image, kept as runs, and laid
 * over another image with one opacity, giving the bytes Cairo gives.
 *
 * A band of fading trails (trails.c) is drawn into a frame-sized layer, and
 * every frame lays each band over the background at its opacity. A band of
 * 2,000 boids inks a few percent of a 1080p frame, but laying the layer
 * with cairo_paint_with_alpha reads all of it: the empty pixels were most
 * of the drawing time of a frame. A band that will not be drawn on again
 * (its ticks are all drawn) is read once into runs of nonzero pixels, and
 * each frame lays only those. A band inking much of the frame, and the
 * band still drawn on, are laid from their layer itself, its drawn-on
 * tiles whole (mur_ink_whole), in the same pass: every band laid over a
 * row while it is in the cache.
 *
 * Same bytes. Cairo lays a layer with pixman's OVER, the layer's
 * premultiplied pixel s in the constant mask m (a byte): per channel
 * s' = s m / 255 and d = s' + d (255 - s'_alpha) / 255, each product
 * rounded as pixman rounds (t = a b + 128, (t + t / 256) / 256) and the sum
 * saturated; an empty pixel leaves d as it is. That is done here in the
 * same order, and m is asked of Cairo itself (mur_ink_mask): a layer laid
 * from its ink equals the layer painted (tests/test_render.c compares them
 * over random pixels and opacities). */
#include "internal.h"
#include "murmur/alloc.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Empty pixels a run takes in rather than end: each run costs about as
 * much as laying a few pixels. */
#define INK_GAP 6
/* Rows ahead of the one being laid whose destination pixels are fetched
 * (mur_ink_lay); 1 and 2 did best, 4 and 8 less well. */
#define LAY_AHEAD 2

void mur_ink_free(mur_ink *k)
{
    mur_free(k->row);
    mur_free(k->run);
    mur_free(k->px);
    memset(k, 0, sizeof *k);
}

/* Grow *p (of *cap elements of size) to hold `need`; 0, or -1. */
static int reserve(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    void *q = mur_realloc(*p, c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

int mur_tile_run(const unsigned char *trow, int tw, int tile, int w, int *tx, int *x0, int *x1)
{
    int a = *tx;
    while (a < tw && !trow[a])
        a++;
    int e = a;
    while (e < tw && trow[e])
        e++;
    *tx = e;
    *x0 = a * tile;
    *x1 = e * tile < w ? e * tile : w;
    return a < tw;
}

void mur_ink_whole(mur_ink *k, const unsigned char *data, int stride, int w, int h,
                   const unsigned char *tiles, int tw, int tile)
{
    memset(k, 0, sizeof *k);
    k->w = w;
    k->h = h;
    k->img = (const uint32_t *)(const void *)data;
    k->img_stride = (size_t)stride / 4;
    k->tiles = tiles;
    k->tw = tw;
    k->tile = tile;
}

int mur_ink_read(mur_ink *k, const unsigned char *data, int stride, int w, int h,
                 const unsigned char *tiles, int tw, int tile, size_t most)
{
    k->img = NULL;
    k->w = k->h = 0;
    k->nrun = k->npx = 0;
    if (reserve((void **)&k->row, &k->row_cap, (size_t)h + 1, sizeof *k->row))
        return -1;
    for (int y = 0; y < h; y++) {
        k->row[y] = (uint32_t)k->nrun;
        const uint32_t *line = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
        const unsigned char *trow = tiles + (size_t)(y / tile) * (size_t)tw;
        for (int tx = 0, x, x1; mur_tile_run(trow, tw, tile, w, &tx, &x, &x1);) {
            while (x < x1) {
                while (x < x1 && !line[x])
                    x++;
                if (x == x1)
                    break;
                /* a run goes on over gaps of a few empty pixels (laid,
                 * they change nothing), so runs are longer and fewer */
                int x0 = x, end = x;
                while (x < x1 && x - end < INK_GAP) {
                    if (line[x])
                        end = x + 1;
                    x++;
                }
                x = end;
                /* padded with clear pixels to whole fours (within the
                 * row), which the four-at-a-time laying takes whole */
                size_t n = (size_t)(x - x0), padded = (n + 3) & ~(size_t)3;
                if (padded > (size_t)(w - x0))
                    padded = (size_t)(w - x0);
                if (k->npx + padded > most)
                    return 1;   /* too much ink to be worth it: read no further */
                if (reserve((void **)&k->run, &k->run_cap, k->nrun + 1, sizeof *k->run) ||
                    reserve((void **)&k->px, &k->px_cap, k->npx + padded, sizeof *k->px))
                    return -1;
                k->run[k->nrun++] = (mur_ink_run){.x = x0, .n = (int)padded, .at = (uint32_t)k->npx};
                memcpy(k->px + k->npx, line + x0, n * sizeof *line);
                memset(k->px + k->npx + n, 0, (padded - n) * sizeof *line);
                k->npx += padded;
            }
        }
    }
    k->row[h] = (uint32_t)k->nrun;
    k->w = w;
    k->h = h;
    return 0;
}

int mur_ink_mask(double alpha)
{
    /* An opaque white source of two pixels (Cairo may treat a single pixel
     * as a colour) laid at alpha over nothing: every channel is m. */
    uint32_t src[2] = {0xffffffffu, 0xffffffffu}, dst[2] = {0, 0};
    cairo_surface_t *s = cairo_image_surface_create_for_data((unsigned char *)src, CAIRO_FORMAT_ARGB32, 2, 1, 8);
    cairo_surface_t *d = cairo_image_surface_create_for_data((unsigned char *)dst, CAIRO_FORMAT_ARGB32, 2, 1, 8);
    cairo_t *cr = cairo_create(d);
    cairo_set_source_surface(cr, s, 0, 0);
    cairo_paint_with_alpha(cr, alpha);
    int ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS;
    cairo_destroy(cr);
    cairo_surface_flush(d);
    cairo_surface_destroy(d);
    cairo_surface_destroy(s);
    return ok && dst[0] == dst[1] ? (int)(dst[0] >> 24) : -1;
}

/* pixman's x * a / 255 rounded, on the two channels in bits 0-7 and 16-23. */
static inline uint32_t mul2(uint32_t x, uint32_t a)
{
    uint32_t t = (x & 0x00ff00ffu) * a + 0x00800080u;
    return ((t + ((t >> 8) & 0x00ff00ffu)) >> 8) & 0x00ff00ffu;
}

/* Per channel min(x + y, 255), for two channels in bits 0-7 and 16-23. */
static inline uint32_t add2(uint32_t x, uint32_t y)
{
    uint32_t t = x + y;
    t |= 0x01000100u - ((t >> 8) & 0x00010001u);
    return t & 0x00ff00ffu;
}

/* Lays the pixels s[xa .. xb) (s[x]: the ink over pixel x), with the mask
 * byte m, over line[xa .. xb). */
static void lay_span(const uint32_t *s, int m, uint32_t *line, int xa, int xb)
{
    uint32_t a = (uint32_t)m;
    int x = xa;
#ifdef __SSE2__
    /* four pixels at a time, as pixman's SSE2 code lays them */
    const __m128i zero = _mm_setzero_si128(), mask = _mm_set1_epi16((short)m);
    const __m128i half = _mm_set1_epi16(0x80), r257 = _mm_set1_epi16(0x101), ff = _mm_set1_epi16(0xff);
    for (; x + 4 <= xb; x += 4) {
        __m128i p = _mm_loadu_si128((const __m128i *)(const void *)(s + x));
        __m128i d = _mm_loadu_si128((const __m128i *)(void *)(line + x));
        __m128i sl = _mm_unpacklo_epi8(p, zero), sh = _mm_unpackhi_epi8(p, zero);
        sl = _mm_mulhi_epu16(_mm_adds_epu16(_mm_mullo_epi16(sl, mask), half), r257);
        sh = _mm_mulhi_epu16(_mm_adds_epu16(_mm_mullo_epi16(sh, mask), half), r257);
        __m128i al = _mm_shufflehi_epi16(_mm_shufflelo_epi16(sl, 0xff), 0xff);
        __m128i ah = _mm_shufflehi_epi16(_mm_shufflelo_epi16(sh, 0xff), 0xff);
        al = _mm_xor_si128(al, ff);
        ah = _mm_xor_si128(ah, ff);
        __m128i dl = _mm_unpacklo_epi8(d, zero), dh = _mm_unpackhi_epi8(d, zero);
        dl = _mm_mulhi_epu16(_mm_adds_epu16(_mm_mullo_epi16(dl, al), half), r257);
        dh = _mm_mulhi_epu16(_mm_adds_epu16(_mm_mullo_epi16(dh, ah), half), r257);
        __m128i out = _mm_packus_epi16(_mm_adds_epu8(sl, dl), _mm_adds_epu8(sh, dh));
        _mm_storeu_si128((__m128i *)(void *)(line + x), out);
    }
#endif
    for (; x < xb; x++) {
        uint32_t p = s[x];
        uint32_t lo = mul2(p, a), hi = mul2(p >> 8, a);   /* s' = s m */
        uint32_t ia = 255 - (hi >> 16);                   /* 255 - s'_alpha */
        uint32_t d = line[x];
        lo = add2(lo, mul2(d, ia));
        hi = add2(hi, mul2(d >> 8, ia));
        line[x] = lo | hi << 8;
    }
}

/* Lays row r of k, with the mask byte m, over `line` (the destination
 * row), the ink's x = 0 at dx, inside [x0, x1): its runs, or its image's
 * marked tiles (the rest of the image is clear, and laying clear pixels
 * changes nothing). */
static void lay_row(const mur_ink *k, int m, uint32_t *line, int r, int dx, int x0, int x1)
{
    if (k->img) {
        const uint32_t *s = k->img + (size_t)r * k->img_stride - dx;
        const unsigned char *trow = k->tiles + (size_t)(r / k->tile) * (size_t)k->tw;
        for (int tx = 0, xa, xb; mur_tile_run(trow, k->tw, k->tile, k->w, &tx, &xa, &xb);)
            lay_span(s, m, line, xa + dx > x0 ? xa + dx : x0, xb + dx < x1 ? xb + dx : x1);
        return;
    }
    for (uint32_t j = k->row[r]; j < k->row[r + 1]; j++) {
        const mur_ink_run *run = &k->run[j];
        int xa = run->x + dx, xb = xa + run->n;
        lay_span(k->px + run->at - xa, m, line, xa > x0 ? xa : x0, xb < x1 ? xb : x1);
    }
}

void mur_ink_lay(const mur_ink *const *k, const int *m, int n, unsigned char *dst, int stride, int dx,
                 int dy, int x0, int y0, int x1, int y1)
{
    /* Row by row, each ink in turn: a pixel gets the inks in their order,
     * as when each is laid whole, and its row is still in the cache for
     * the next. The destination row two below is fetched meanwhile: the
     * background was painted over the whole frame just before, and its
     * first rows have left the cache by now; the inks' own pixels are
     * read in order, which the processor foresees, but the runs touch the
     * destination row here and there, which it does not (2,000 boids with
     * trails at 1080p: laying took about a fifth less, perf). */
    int r0 = y0 - dy > 0 ? y0 - dy : 0, r1 = y1 - dy;
    for (int r = r0; r < r1; r++) {
        uint32_t *line = (uint32_t *)(void *)(dst + (size_t)(r + dy) * (size_t)stride);
        if (r + LAY_AHEAD < r1) {
            const unsigned char *ahead = dst + (size_t)(r + LAY_AHEAD + dy) * (size_t)stride;
            for (size_t b = (size_t)x0 * 4; b < (size_t)x1 * 4; b += 64)
                __builtin_prefetch(ahead + b, 1, 3);
        }
        for (int i = 0; i < n; i++)
            if (m[i] > 0 && r < k[i]->h)
                lay_row(k[i], m[i], line, r, dx, x0, x1);
    }
}
