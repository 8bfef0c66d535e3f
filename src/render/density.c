/* Density drawing: a crowd of boids too small to draw as shapes.
 *
 * Below about two pixels an arrow is a speck whose shape no one sees, and
 * a million specks at 1080p read as even grey noise. Here each boid is
 * instead a splat of ink at its sub-pixel position (a bilinear footprint
 * over the 2 x 2 pixels around it), summed into a density image with its
 * colour, then tone-mapped: a pixel holding D boids of ink k (the area of
 * the look's shape, square pixels, times its opacity) is covered k D while
 * that is under half, then fills up along 1 - exp(1 - 2 k D) / 2, as
 * shapes dropped at random would cover it, and takes the weighted mean of
 * their colours. A lone boid thus leaves the ink of its shape, so at the
 * switch the two drawings have about the same brightness, while a dense
 * core saturates to its colours and a thin edge still shows.
 *
 * Exact and order-free: positions are quantised to 1/16 pixel and the four
 * weights of a splat are integer products that sum to MUR_SPLAT_ONE, so
 * weights and weighted colours add up as integers, the same in any order;
 * any thread count gives the same pixels. The work runs on a pool in three
 * passes: chunks of boids count their splats per pixel row, then place
 * them in row order (a counting sort); bands of rows then each sum their
 * own rows and tone-map them while they are in cache. */
#include "density.h"

#include "internal.h"
#include "murmur/alloc.h"
#include "../util/pool.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#define SUB 16          /* sub-pixel steps: 1/16 pixel is finer than the eye follows a speck */
#define CHUNKS 64       /* boid chunks of the sort: fixed, so the sort is the same on any pool */
#define BAND_ROWS 16    /* rows a band sums: 16 x 1920 pixels of 32 bytes stay in cache */
#define LUT_SIZE 4096   /* tone curve steps */

_Static_assert(SUB * SUB == MUR_SPLAT_ONE, "a splat's weights sum to MUR_SPLAT_ONE");
_Static_assert(MUR_MAX_BINS <= 64, "a bin is packed in 6 bits");
_Static_assert(MUR_LOOK_MAX_PIXELS + 1 < (1 << 14), "a column is packed in 14 bits");

/* A pixel's sums: weight (MUR_SPLAT_ONE a boid: 4,000,000 boids fit 32
 * bits) and weight times 8-bit colour (which needs more). */
typedef struct px_sum {
    uint64_t c[3];
    uint32_t w;
} px_sum;

struct mur_density {
    mur_pool *pool;         /* NULL: the caller's thread alone */
    int own_pool;           /* made by mur_density_create (else the renderer's) */
    int threads;
    /* the last accumulation */
    const mur_splat_job *job;
    int w, h;
    px_sum *px;             /* w x h */
    size_t px_cap;
    int px_held;            /* px holds the last accumulation (not a drawing's) */
    uint32_t *hist;         /* CHUNKS x (h + 1): splats of each chunk by row bucket */
    size_t hist_cap;
    uint32_t *rowstart;     /* h + 2 */
    size_t rowstart_cap;
    uint32_t *sorted;       /* packed splats by row bucket */
    size_t sorted_cap;
    /* tone mapping (mur_density_draw): each band summed in a band's
     * scratch, one for each thread at work, and tone-mapped from it while
     * it is in cache (px, a frame of sums, is for mur_density_accumulate
     * alone: 64 MB at 1080p, written and read again every frame) */
    px_sum *scratch;        /* threads x BAND_ROWS x w */
    size_t scratch_cap;
    atomic_int *busy;       /* threads: scratch k is taken */
    uint32_t *out;          /* ARGB32 premultiplied rows of the layer */
    int out_stride;         /* in pixels */
    const uint8_t *lut;     /* alpha by weight >> lut_shift */
    int lut_shift;
    int *band_x;            /* per band: columns used (first, last + 1); 0, 0: none */
    size_t band_cap;
    cairo_surface_t *layer; /* the tone-mapped image laid over the frame */
};

mur_density *mur_density_create(int threads)
{
    mur_density *d = mur_calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->threads = threads > 0 ? threads : mur_cpu_count();
    if (d->threads > 1 && !(d->pool = mur_pool_create(d->threads))) {
        mur_free(d);
        return NULL;
    }
    d->own_pool = 1;
    return d;
}

mur_density *mur_density_create_on(mur_pool *pool)
{
    mur_density *d = mur_calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->pool = pool;
    d->threads = mur_pool_threads(pool);
    return d;
}

void mur_density_destroy(mur_density *d)
{
    if (!d)
        return;
    if (d->own_pool)
        mur_pool_destroy(d->pool);
    mur_free(d->px);
    mur_free(d->scratch);
    mur_free((void *)d->busy);
    mur_free(d->hist);
    mur_free(d->rowstart);
    mur_free(d->sorted);
    mur_free(d->band_x);
    if (d->layer)
        cairo_surface_destroy(d->layer);
    mur_free(d);
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t n = need + need / 4 + 16;
    void *q = mur_realloc(*p, n * size);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

/* ---- the splats of a point -------------------------------------------- */

/* Splat of a point at buffer pixel coordinates (X, Y): its top-left pixel
 * (i0, j0), each in [-1, size), and its fractions on the 1/16 grid; 0 when
 * it misses the buffer. */
static int splat_at(double X, double Y, int w, int h, int *i0, int *j0, int *fx, int *fy)
{
    if (!(X > -1 && X < w + 1 && Y > -1 && Y < h + 1))   /* NaN too */
        return 0;
    /* centre of pixel i at i + 0.5; shifted by 2 pixels so the floor is of a positive number */
    int qx = (int)((X + 1.5) * SUB), qy = (int)((Y + 1.5) * SUB);
    *i0 = qx / SUB - 2;
    *j0 = qy / SUB - 2;
    *fx = qx % SUB;
    *fy = qy % SUB;
    return *i0 >= -1 && *i0 < w && *j0 >= -1 && *j0 < h;
}

/* Calls emit(ctx, row bucket, packed splat) for each image of point i
 * that reaches the buffer: the point itself and, in a wrapping world
 * drawn once, its copies over the far edges. Packed: bin (6 bits), fx,
 * fy (4 each), column + 1 (14). Row bucket: j0 + 1. */
#define FOR_IMAGES(job, i, EMIT)                                                                     \
    do {                                                                                             \
        double X_ = (job)->sx * (job)->x[i] + (job)->tx, Y_ = (job)->sy * (job)->y[i] + (job)->ty;    \
        double dx_[2] = {0, 0}, dy_[2] = {0, 0};                                                      \
        int nx_ = 1, ny_ = 1;                                                                         \
        if ((job)->period_x > 0) {                                                                    \
            double pw_ = (job)->sx * (job)->period_x, e0_ = (job)->tx, e1_ = (job)->tx + pw_;          \
            if (X_ < e0_ + 1.5) dx_[nx_++] = pw_;                                                     \
            else if (X_ > e1_ - 1.5) dx_[nx_++] = -pw_;                                               \
        }                                                                                            \
        if ((job)->period_y > 0) {                                                                    \
            double ph_ = (job)->sy * (job)->period_y, e0_ = (job)->ty, e1_ = (job)->ty + ph_;          \
            if (Y_ < e0_ + 1.5) dy_[ny_++] = ph_;                                                     \
            else if (Y_ > e1_ - 1.5) dy_[ny_++] = -ph_;                                               \
        }                                                                                            \
        uint32_t b_ = (job)->bin ? (uint32_t)(job)->bin[i] & 63u : 0;                                 \
        for (int a_ = 0; a_ < nx_; a_++)                                                              \
            for (int c_ = 0; c_ < ny_; c_++) {                                                        \
                int i0_, j0_, fx_, fy_;                                                               \
                if (!splat_at(X_ + dx_[a_], Y_ + dy_[c_], (job)->w, (job)->h, &i0_, &j0_, &fx_, &fy_))\
                    continue;                                                                         \
                uint32_t row_ = (uint32_t)(j0_ + 1);                                                  \
                uint32_t pk_ = b_ | (uint32_t)fx_ << 6 | (uint32_t)fy_ << 10 | (uint32_t)(i0_ + 1) << 14; \
                EMIT;                                                                                 \
            }                                                                                        \
    } while (0)

static void chunk_range(const mur_splat_job *job, int c, int *b, int *e)
{
    *b = (int)((long long)job->n * c / CHUNKS);
    *e = (int)((long long)job->n * (c + 1) / CHUNKS);
}

static void count_pass(void *ctx, int begin, int end)
{
    mur_density *d = ctx;
    const mur_splat_job *job = d->job;
    for (int c = begin; c < end; c++) {
        uint32_t *hist = d->hist + (size_t)c * (d->h + 1);
        memset(hist, 0, (size_t)(d->h + 1) * sizeof *hist);
        int b, e;
        chunk_range(job, c, &b, &e);
        for (int i = b; i < e; i++)
            FOR_IMAGES(job, i, (void)pk_; hist[row_]++);
    }
}

static void place_pass(void *ctx, int begin, int end)
{
    mur_density *d = ctx;
    const mur_splat_job *job = d->job;
    for (int c = begin; c < end; c++) {
        uint32_t *next = d->hist + (size_t)c * (d->h + 1);   /* this chunk's start in each bucket */
        int b, e;
        chunk_range(job, c, &b, &e);
        for (int i = b; i < e; i++)
            FOR_IMAGES(job, i, d->sorted[next[row_]++] = pk_);
    }
}

/* ---- bands: sum, then tone-map ------------------------------------------- */

static void add(px_sum *p, uint32_t w, const uint8_t *rgb)
{
    p->w += w;
    p->c[0] += (uint64_t)w * rgb[0];
    p->c[1] += (uint64_t)w * rgb[1];
    p->c[2] += (uint64_t)w * rgb[2];
}

/* Rows [r0, r1) from the splats of buckets r0 .. r1 (top rows r0 - 1 ..
 * r1 - 1), into px (row r0 at px). */
static void sum_band(mur_density *d, px_sum *px, int r0, int r1)
{
    const mur_splat_job *job = d->job;
    int w = d->w;
    memset(px, 0, (size_t)(r1 - r0) * w * sizeof *px);
    static const uint8_t white[3] = {255, 255, 255};
    for (int bucket = r0; bucket <= r1 && bucket <= d->h; bucket++) {
        int j0 = bucket - 1;
        for (uint32_t k = d->rowstart[bucket]; k < d->rowstart[bucket + 1]; k++) {
            uint32_t pk = d->sorted[k];
            int bin = (int)(pk & 63), fx = (int)(pk >> 6 & 15), fy = (int)(pk >> 10 & 15);
            int i0 = (int)(pk >> 14) - 1;
            const uint8_t *rgb = job->rgb ? job->rgb[bin] : white;
            uint32_t wx[2] = {(uint32_t)(SUB - fx), (uint32_t)fx}, wy[2] = {(uint32_t)(SUB - fy), (uint32_t)fy};
            for (int a = 0; a < 2; a++) {
                int j = j0 + a;
                if (j < r0 || j >= r1 || !wy[a])
                    continue;
                px_sum *row = px + (size_t)(j - r0) * w;
                if (i0 >= 0 && wx[0])
                    add(row + i0, wx[0] * wy[a], rgb);
                if (i0 + 1 < w && wx[1])
                    add(row + i0 + 1, wx[1] * wy[a], rgb);
            }
        }
    }
}

/* Rows [r0, r1) (row r0 at px) into the layer: premultiplied ARGB32,
 * alpha from the tone curve, colour the weighted mean; the columns used
 * into band_x. */
static void tone_band(mur_density *d, const px_sum *px, int band, int r0, int r1)
{
    int w = d->w, first = w, last = 0;
    for (int j = r0; j < r1; j++) {
        const px_sum *p = px + (size_t)(j - r0) * w;
        uint32_t *o = d->out + (size_t)j * d->out_stride;
        for (int i = 0; i < w; i++) {
            uint32_t wt = p[i].w;
            uint32_t e = wt >> d->lut_shift;
            uint32_t a = wt ? d->lut[e < LUT_SIZE ? e : LUT_SIZE - 1] : 0;
            if (!a) {
                o[i] = 0;
                continue;
            }
            uint32_t v = a << 24;
            for (int c = 0; c < 3; c++) {
                uint32_t mean = (uint32_t)((p[i].c[c] + wt / 2) / wt);   /* <= 255 */
                v |= ((mean * a + 127) / 255) << (16 - 8 * c);
            }
            o[i] = v;
            if (i < first)
                first = i;
            last = i + 1;
        }
    }
    d->band_x[2 * band] = first < last ? first : 0;
    d->band_x[2 * band + 1] = first < last ? last : 0;
}

static void band_pass(void *ctx, int begin, int end)
{
    mur_density *d = ctx;
    px_sum *px = NULL;
    int k = 0;
    if (d->out)   /* a free scratch: no more calls run at once than there are */
        for (;; k = (k + 1) % d->threads)
            if (!atomic_exchange(&d->busy[k], 1)) {
                px = d->scratch + (size_t)k * BAND_ROWS * (size_t)d->w;
                break;
            }
    for (int b = begin; b < end; b++) {
        int r0 = b * BAND_ROWS, r1 = r0 + BAND_ROWS < d->h ? r0 + BAND_ROWS : d->h;
        if (!d->out) {
            sum_band(d, d->px + (size_t)r0 * d->w, r0, r1);
            continue;
        }
        sum_band(d, px, r0, r1);
        tone_band(d, px, b, r0, r1);
    }
    if (px)
        atomic_store(&d->busy[k], 0);
}

static int bands_of(int h) { return (h + BAND_ROWS - 1) / BAND_ROWS; }

/* The splats sorted by row bucket into d->sorted, d->rowstart. */
static int sort_splats(mur_density *d, const mur_splat_job *job)
{
    size_t buckets = (size_t)job->h + 1;
    if (grow((void **)&d->hist, &d->hist_cap, CHUNKS * buckets, sizeof *d->hist) ||
        grow((void **)&d->rowstart, &d->rowstart_cap, buckets + 1, sizeof *d->rowstart))
        return -1;
    d->job = job;
    d->w = job->w;
    d->h = job->h;
    mur_pool_run(d->pool, count_pass, d, CHUNKS);
    /* Bucket by bucket, chunk by chunk: the order does not change a sum,
     * but a fixed one keeps the buffer the same too. At most 4 images of
     * MUR_MAX_BOIDS: 32 bits. */
    uint32_t total = 0;
    for (size_t row = 0; row < buckets; row++) {
        d->rowstart[row] = total;
        for (int c = 0; c < CHUNKS; c++) {
            uint32_t *h = d->hist + (size_t)c * buckets + row, k = *h;
            *h = total;
            total += k;
        }
    }
    d->rowstart[buckets] = total;
    if (grow((void **)&d->sorted, &d->sorted_cap, total, sizeof *d->sorted))
        return -1;
    mur_pool_run(d->pool, place_pass, d, CHUNKS);
    return 0;
}

int mur_density_accumulate(mur_density *d, const mur_splat_job *job)
{
    if (job->w < 1 || job->h < 1 || job->w > MUR_LOOK_MAX_PIXELS || job->h > MUR_LOOK_MAX_PIXELS ||
        job->n < 0 || job->n > MUR_MAX_BOIDS)
        return -1;
    d->px_held = 0;
    if (!d->busy && !(d->busy = mur_calloc((size_t)d->threads, sizeof *d->busy)))
        return -1;
    if ((d->out ? grow((void **)&d->scratch, &d->scratch_cap, (size_t)d->threads * BAND_ROWS * (size_t)job->w,
                       sizeof *d->scratch)
                : grow((void **)&d->px, &d->px_cap, (size_t)job->w * job->h, sizeof *d->px)) ||
        grow((void **)&d->band_x, &d->band_cap, 2 * (size_t)bands_of(job->h), sizeof *d->band_x) ||
        sort_splats(d, job))
        return -1;
    mur_pool_run(d->pool, band_pass, d, bands_of(job->h));
    d->px_held = !d->out;
    d->job = NULL;
    return 0;
}

uint32_t mur_density_weight(const mur_density *d, int x, int y)
{
    if (x < 0 || y < 0 || x >= d->w || y >= d->h || !d->px_held)
        return 0;
    return d->px[(size_t)y * d->w + x].w;
}

uint64_t mur_density_total(const mur_density *d)
{
    uint64_t t = 0;
    if (d->px_held)
        for (size_t k = 0; k < (size_t)d->w * d->h; k++)
            t += d->px[k].w;
    return t;
}

/* ---- the look --------------------------------------------------------- */

int mur_density_wanted(const mur_look *lk, double px)
{
    return lk->shape == MUR_SHAPE_DENSITY || (lk->shape_auto && px < MUR_DENSITY_PX);
}

double mur_density_ink(const mur_look *lk, double px)
{
    /* Areas of frame.c's outlines, size 1 (half-length h = 1/2): the
     * triangle 1.2 h^2, the arrow that less its notch (0.33 h^2), the dot a
     * circle of radius 1/4. Density stands for arrows, the default. */
    double area = lk->shape == MUR_SHAPE_TRIANGLE ? 0.3
                : lk->shape == MUR_SHAPE_DOT ? MUR_PI / 16
                : 0.2175;
    return area * px * px * lk->boid_color.a;
}

/* Cover of a pixel holding ink x (square pixels of shapes over its one):
 * x itself up to half, then a shoulder 1 - exp(1 - 2x) / 2 that meets it
 * with the same slope and fills up as shapes dropped at random would. A
 * curve saturating from the start (1 - exp(-x)) would dim a lone boid
 * whose splat lands on one pixel by a third; the knee keeps its ink. */
static double cover(double x)
{
    return x <= 0.5 ? x : 1 - 0.5 * exp(1 - 2 * x);
}

/* The tone curve for ink k (a boid's): alpha 255 cover(k D), D = weight /
 * MUR_SPLAT_ONE, by weight >> shift, the shift making the curve's rise fit
 * the table. */
static void tone_curve(uint8_t *lut, int *shift, double k)
{
    double full = MUR_SPLAT_ONE * (0.5 + 0.5 * log(255.0)) / fmax(k, 1e-9);   /* alpha rounds to 255 past it */
    int s = 0;
    while (s < 31 && full / (double)(1u << s) >= LUT_SIZE - 1)
        s++;
    for (int e = 0; e < LUT_SIZE; e++) {
        double wt = e == 0 ? 1 : ldexp(e, s);   /* the step's least weight: a splat's smallest shows */
        lut[e] = (uint8_t)lround(255 * cover(k * wt / MUR_SPLAT_ONE));
    }
    *shift = s;
}

int mur_density_draw(mur_renderer *r, cairo_t *cr, const mur_flock *f, int nb, double px)
{
    const mur_look *lk = r->look;
    const mur_params *p = mur_flock_params(f);
    if (mur_render_stopped(r))
        return MUR_EINTR;
    /* the clip in device pixels: the buffer */
    double x0, y0, x1, y1;
    cairo_clip_extents(cr, &x0, &y0, &x1, &y1);
    cairo_user_to_device(cr, &x0, &y0);
    cairo_user_to_device(cr, &x1, &y1);
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);   /* world -> device: a scale and a translation */
    double lo[2] = {fmin(x0, x1), fmin(y0, y1)}, hi[2] = {fmax(x0, x1), fmax(y0, y1)};
    if (r->tiling) {   /* one periodic image of the world: its own pixels and a splat's reach */
        double a[2] = {m.x0, m.y0}, b[2] = {m.x0 + m.xx * p->width, m.y0 + m.yy * p->height};
        for (int k = 0; k < 2; k++) {
            lo[k] = fmax(lo[k], fmin(a[k], b[k]) - 2);
            hi[k] = fmin(hi[k], fmax(a[k], b[k]) + 2);
        }
    }
    int bx = (int)fmax(floor(lo[0]), 0), by = (int)fmax(floor(lo[1]), 0);
    int ex = (int)fmin(ceil(hi[0]), r->width), ey = (int)fmin(ceil(hi[1]), r->height);
    if (ex <= bx || ey <= by || mur_flock_count(f) == 0)
        return MUR_OK;
    if (!r->density && !(r->density = mur_density_create_on(r->pool)))
        return -1;
    mur_density *d = r->density;
    uint8_t rgb[MUR_MAX_BINS][3];
    for (int b = 0; b < nb && b < MUR_MAX_BINS; b++)
        mur_bin_rgb8(lk, b, rgb[b]);
    int wrap = p->boundary == MUR_BOUNDARY_WRAP && !r->tiling;   /* tiled: the next image draws it */
    mur_splat_job job = {
        .x = mur_flock_x(f), .y = mur_flock_y(f), .bin = r->bin, .n = mur_flock_count(f),
        .sx = m.xx, .tx = m.x0 - bx, .sy = m.yy, .ty = m.y0 - by, .w = ex - bx, .h = ey - by,
        .period_x = wrap ? p->width : 0, .period_y = wrap ? p->height : 0, .rgb = (const uint8_t (*)[3])rgb,
    };
    uint8_t lut[LUT_SIZE];
    tone_curve(lut, &d->lut_shift, mur_density_ink(lk, px));
    d->lut = lut;
    cairo_surface_t *layer = d->layer;
    if (!layer || cairo_image_surface_get_width(layer) < job.w || cairo_image_surface_get_height(layer) < job.h) {
        if (layer)
            cairo_surface_destroy(layer);
        d->layer = layer = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, job.w, job.h);
        if (cairo_surface_status(layer) != CAIRO_STATUS_SUCCESS) {
            cairo_surface_destroy(layer);
            d->layer = NULL;
            return -1;
        }
    }
    cairo_surface_flush(layer);
    d->out = (uint32_t *)(void *)cairo_image_surface_get_data(layer);
    d->out_stride = cairo_image_surface_get_stride(layer) / 4;
    int rc = mur_density_accumulate(d, &job);
    d->out = NULL;
    d->lut = NULL;
    if (rc)
        return -1;
    cairo_surface_mark_dirty(layer);
    /* lay the rows and columns that got ink */
    int ux0 = job.w, ux1 = 0, uy0 = job.h, uy1 = 0;
    for (int b = 0; b < bands_of(job.h); b++) {
        if (d->band_x[2 * b + 1] <= d->band_x[2 * b])
            continue;
        ux0 = d->band_x[2 * b] < ux0 ? d->band_x[2 * b] : ux0;
        ux1 = d->band_x[2 * b + 1] > ux1 ? d->band_x[2 * b + 1] : ux1;
        uy0 = b * BAND_ROWS < uy0 ? b * BAND_ROWS : uy0;
        uy1 = (b + 1) * BAND_ROWS < job.h ? (b + 1) * BAND_ROWS : job.h;
    }
    if (ux1 > ux0 && uy1 > uy0) {
        cairo_save(cr);
        cairo_identity_matrix(cr);
        cairo_set_source_surface(cr, layer, bx, by);
        cairo_rectangle(cr, bx + ux0, by + uy0, ux1 - ux0, uy1 - uy0);
        cairo_fill(cr);
        cairo_restore(cr);
    }
    return mur_render_stopped(r) ? MUR_EINTR : MUR_OK;
}
