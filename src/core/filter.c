/* The candidate filter of the neighbour scan (filter.h): portable C, SSE2
 * (every x86-64), AVX2 and AVX-512 (chosen at run time). */
#include "filter.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define FILTER_X86 1
#include <immintrin.h>
#else
#define FILTER_X86 0
#endif

/* Every candidate is written; the output index advances only past those
 * kept, with no branch: about half the candidates are kept, at random, and
 * a branch on each would mispredict constantly. */
static int filter_portable(const mur_filter_in *in, const double *x, const double *y, int j0,
                           int j1, int skip, double *dx, double *dy, double *d2, int *keep)
{
    const double xi = in->xi, yi = in->yi, w = in->w, h = in->h, far2 = in->far2;
    const int wrapx = in->wrapx, wrapy = in->wrapy;
    int m = 0;
    for (int j = j0; j < j1; j++) {
        int o = j - j0;
        double ox = x[j] - xi, oy = y[j] - yi;
        if (wrapx)
            ox = mur_near_image(ox, w);
        if (wrapy)
            oy = mur_near_image(oy, h);
        double s = ox * ox + oy * oy;
        dx[o] = ox;
        dy[o] = oy;
        d2[o] = s;
        keep[m] = o;
        /* coincident boids (d = 0) are skipped; NaN fails s < far2 */
        m += (s < far2) & (s != 0) & (j != skip);
    }
    return m;
}

/* Lanes of a vector's candidates that exist and are not the boid itself. */
static unsigned lanes_valid(int j, int j1, int skip, int lanes)
{
    int left = j1 - j;
    unsigned v = left >= lanes ? (1u << lanes) - 1 : (1u << left) - 1;
    if (skip >= j && skip < j + lanes)
        v &= ~(1u << (skip - j));
    return v;
}

#if FILTER_X86
/* For each 4-bit mask, its set lanes in order: the compaction table. */
static const int compact4[16][4] = {
    {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0},
    {1, 2, 0, 0}, {0, 1, 2, 0}, {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
    {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3},
};

/* The nearest image, lane by lane, as mur_near_image: both corrections are
 * computed from the same offset and at most one is selected. */
static __m128d near_image_sse2(__m128d d, __m128d w, __m128d half)
{
    __m128d gt = _mm_cmpgt_pd(d, half);
    __m128d lt = _mm_cmplt_pd(d, _mm_sub_pd(_mm_setzero_pd(), half));
    __m128d minus = _mm_sub_pd(d, w), plus = _mm_add_pd(d, w);
    d = _mm_or_pd(_mm_and_pd(gt, minus), _mm_andnot_pd(gt, d));
    return _mm_or_pd(_mm_and_pd(lt, plus), _mm_andnot_pd(lt, d));
}

static int filter_sse2(const mur_filter_in *in, const double *x, const double *y, int j0, int j1,
                       int skip, double *dx, double *dy, double *d2, int *keep)
{
    const __m128d xi = _mm_set1_pd(in->xi), yi = _mm_set1_pd(in->yi);
    const __m128d w = _mm_set1_pd(in->w), h = _mm_set1_pd(in->h);
    const __m128d hw = _mm_set1_pd(0.5 * in->w), hh = _mm_set1_pd(0.5 * in->h);
    const __m128d far2 = _mm_set1_pd(in->far2), zero = _mm_setzero_pd();
    const int wrapx = in->wrapx, wrapy = in->wrapy;
    int m = 0;
    for (int j = j0; j < j1; j += 2) {
        int o = j - j0;
        __m128d ox = _mm_sub_pd(_mm_loadu_pd(x + j), xi);
        __m128d oy = _mm_sub_pd(_mm_loadu_pd(y + j), yi);
        if (wrapx)
            ox = near_image_sse2(ox, w, hw);
        if (wrapy)
            oy = near_image_sse2(oy, h, hh);
        __m128d s = _mm_add_pd(_mm_mul_pd(ox, ox), _mm_mul_pd(oy, oy));
        _mm_storeu_pd(dx + o, ox);
        _mm_storeu_pd(dy + o, oy);
        _mm_storeu_pd(d2 + o, s);
        unsigned bits = (unsigned)_mm_movemask_pd(_mm_and_pd(_mm_cmplt_pd(s, far2),
                                                             _mm_cmpneq_pd(s, zero)));
        bits &= lanes_valid(j, j1, skip, 2);
        keep[m] = o;
        m += bits & 1;
        keep[m] = o + 1;
        m += bits >> 1;
    }
    return m;
}

__attribute__((target("avx2"))) static __m256d near_image_avx2(__m256d d, __m256d w,
                                                                __m256d half)
{
    __m256d gt = _mm256_cmp_pd(d, half, _CMP_GT_OQ);
    __m256d lt = _mm256_cmp_pd(d, _mm256_sub_pd(_mm256_setzero_pd(), half), _CMP_LT_OQ);
    d = _mm256_blendv_pd(d, _mm256_sub_pd(d, w), gt);
    return _mm256_blendv_pd(d, _mm256_add_pd(d, w), lt);
}

__attribute__((target("avx2"))) static int filter_avx2(const mur_filter_in *in, const double *x,
                                                       const double *y, int j0, int j1, int skip,
                                                       double *dx, double *dy, double *d2,
                                                       int *keep)
{
    const __m256d xi = _mm256_set1_pd(in->xi), yi = _mm256_set1_pd(in->yi);
    const __m256d w = _mm256_set1_pd(in->w), h = _mm256_set1_pd(in->h);
    const __m256d hw = _mm256_set1_pd(0.5 * in->w), hh = _mm256_set1_pd(0.5 * in->h);
    const __m256d far2 = _mm256_set1_pd(in->far2), zero = _mm256_setzero_pd();
    const int wrapx = in->wrapx, wrapy = in->wrapy;
    int m = 0;
    for (int j = j0; j < j1; j += 4) {
        int o = j - j0;
        __m256d ox = _mm256_sub_pd(_mm256_loadu_pd(x + j), xi);
        __m256d oy = _mm256_sub_pd(_mm256_loadu_pd(y + j), yi);
        if (wrapx)
            ox = near_image_avx2(ox, w, hw);
        if (wrapy)
            oy = near_image_avx2(oy, h, hh);
        __m256d s = _mm256_add_pd(_mm256_mul_pd(ox, ox), _mm256_mul_pd(oy, oy));
        _mm256_storeu_pd(dx + o, ox);
        _mm256_storeu_pd(dy + o, oy);
        _mm256_storeu_pd(d2 + o, s);
        __m256d ok = _mm256_and_pd(_mm256_cmp_pd(s, far2, _CMP_LT_OQ),
                                   _mm256_cmp_pd(s, zero, _CMP_NEQ_UQ));
        unsigned bits = (unsigned)_mm256_movemask_pd(ok) & lanes_valid(j, j1, skip, 4);
        __m128i lanes = _mm_loadu_si128((const __m128i *)compact4[bits]);
        _mm_storeu_si128((__m128i *)(keep + m), _mm_add_epi32(lanes, _mm_set1_epi32(o)));
        m += __builtin_popcount(bits);
    }
    return m;
}

/* The nearest image on eight lanes, as mur_near_image: both corrections
 * from the same offset, at most one taken. */
__attribute__((target("avx512f"))) static inline __m512d near_image_avx512(__m512d d, __m512d w,
                                                                           __m512d half,
                                                                           __m512d nhalf)
{
    __mmask8 gt = _mm512_cmp_pd_mask(d, half, _CMP_GT_OQ);
    __mmask8 lt = _mm512_cmp_pd_mask(d, nhalf, _CMP_LT_OQ);
    return _mm512_mask_add_pd(_mm512_mask_sub_pd(d, gt, d, w), lt, d, w);
}

/* Appends to keep the offsets o + lane of the lanes whose squared
 * distance s is within reach (below far2, not the boid itself at 0) and
 * inside [j, j1) less skip; the new count. */
__attribute__((target("avx512f,avx512vl"))) static inline int
keep_avx512(__m512d s, __m512d far2, int j, int j1, int skip, int o, int *keep, int m)
{
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __mmask8 ok = _mm512_cmp_pd_mask(s, far2, _CMP_LT_OQ) &
                  _mm512_cmp_pd_mask(s, _mm512_setzero_pd(), _CMP_NEQ_UQ) &
                  (__mmask8)lanes_valid(j, j1, skip, 8);
    __m256i idx = _mm256_add_epi32(lane, _mm256_set1_epi32(o));
    _mm256_storeu_si256((__m256i *)(keep + m), _mm256_maskz_compress_epi32(ok, idx));
    return m + __builtin_popcount(ok);
}

/* Eight lanes, and the mask registers' compress in place of the table. */
__attribute__((target("avx512f,avx512vl"))) static int
filter_avx512(const mur_filter_in *in, const double *x, const double *y, int j0, int j1, int skip,
              double *dx, double *dy, double *d2, int *keep)
{
    const __m512d xi = _mm512_set1_pd(in->xi), yi = _mm512_set1_pd(in->yi);
    const __m512d w = _mm512_set1_pd(in->w), h = _mm512_set1_pd(in->h);
    const __m512d hw = _mm512_set1_pd(0.5 * in->w), hh = _mm512_set1_pd(0.5 * in->h);
    const __m512d nhw = _mm512_sub_pd(_mm512_setzero_pd(), hw);
    const __m512d nhh = _mm512_sub_pd(_mm512_setzero_pd(), hh);
    const __m512d far2 = _mm512_set1_pd(in->far2);
    const int wrapx = in->wrapx, wrapy = in->wrapy;
    int m = 0;
    for (int j = j0; j < j1; j += 8) {
        int o = j - j0;
        __m512d ox = _mm512_sub_pd(_mm512_loadu_pd(x + j), xi);
        __m512d oy = _mm512_sub_pd(_mm512_loadu_pd(y + j), yi);
        if (wrapx)
            ox = near_image_avx512(ox, w, hw, nhw);
        if (wrapy)
            oy = near_image_avx512(oy, h, hh, nhh);
        __m512d s = _mm512_add_pd(_mm512_mul_pd(ox, ox), _mm512_mul_pd(oy, oy));
        _mm512_storeu_pd(dx + o, ox);
        _mm512_storeu_pd(dy + o, oy);
        _mm512_storeu_pd(d2 + o, s);
        m = keep_avx512(s, far2, j, j1, skip, o, keep, m);
    }
    return m;
}
#endif

int mur_filter_best(void)
{
#if FILTER_X86
    /* libgcc reads the CPU's features once, at start-up, so this is a
     * plain read, safe from any thread */
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl"))
        return MUR_SIMD_AVX512;
    return __builtin_cpu_supports("avx2") ? MUR_SIMD_AVX2 : MUR_SIMD_SSE2;
#else
    return MUR_SIMD_NONE;
#endif
}

mur_filter_fn mur_filter_pick(int *level)
{
    int best = mur_filter_best();
    if (*level > best || *level < 0)
        *level = best;
#if FILTER_X86
    if (*level == MUR_SIMD_AVX512)
        return filter_avx512;
    if (*level == MUR_SIMD_AVX2)
        return filter_avx2;
    if (*level == MUR_SIMD_SSE2)
        return filter_sse2;
#endif
    return filter_portable;
}

/* ---- three dimensions (filter.h's mur_filter3_fn) ---------------------- */

static int filter3_portable(const mur_filter3_in *in, const double *x, const double *y,
                            const double *z, int j0, int j1, int skip, double *dx, double *dy,
                            double *dz, double *d2, int *keep)
{
    const double xi = in->r[0], yi = in->r[1], zi = in->r[2], far2 = in->far2;
    const double w = in->size[0], h = in->size[1], dp = in->size[2];
    const int wrapx = in->wrap[0], wrapy = in->wrap[1], wrapz = in->wrap[2];
    int m = 0;
    for (int j = j0; j < j1; j++) {
        int o = j - j0;
        double ox = x[j] - xi, oy = y[j] - yi, oz = z[j] - zi;
        if (wrapx)
            ox = mur_near_image(ox, w);
        if (wrapy)
            oy = mur_near_image(oy, h);
        if (wrapz)
            oz = mur_near_image(oz, dp);
        double s = ox * ox + oy * oy + oz * oz;
        dx[o] = ox;
        dy[o] = oy;
        dz[o] = oz;
        d2[o] = s;
        keep[m] = o;
        m += (s < far2) & (s != 0) & (j != skip);
    }
    return m;
}

#if FILTER_X86
__attribute__((target("avx2"))) static int
filter3_avx2(const mur_filter3_in *in, const double *x, const double *y, const double *z, int j0,
             int j1, int skip, double *dx, double *dy, double *dz, double *d2, int *keep)
{
    const __m256d xi = _mm256_set1_pd(in->r[0]), yi = _mm256_set1_pd(in->r[1]),
                  zi = _mm256_set1_pd(in->r[2]);
    const __m256d w = _mm256_set1_pd(in->size[0]), h = _mm256_set1_pd(in->size[1]),
                  dp = _mm256_set1_pd(in->size[2]);
    const __m256d hw = _mm256_set1_pd(0.5 * in->size[0]), hh = _mm256_set1_pd(0.5 * in->size[1]),
                  hd = _mm256_set1_pd(0.5 * in->size[2]);
    const __m256d far2 = _mm256_set1_pd(in->far2), zero = _mm256_setzero_pd();
    const int wrapx = in->wrap[0], wrapy = in->wrap[1], wrapz = in->wrap[2];
    int m = 0;
    for (int j = j0; j < j1; j += 4) {
        int o = j - j0;
        __m256d ox = _mm256_sub_pd(_mm256_loadu_pd(x + j), xi);
        __m256d oy = _mm256_sub_pd(_mm256_loadu_pd(y + j), yi);
        __m256d oz = _mm256_sub_pd(_mm256_loadu_pd(z + j), zi);
        if (wrapx)
            ox = near_image_avx2(ox, w, hw);
        if (wrapy)
            oy = near_image_avx2(oy, h, hh);
        if (wrapz)
            oz = near_image_avx2(oz, dp, hd);
        __m256d s = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ox, ox), _mm256_mul_pd(oy, oy)),
                                  _mm256_mul_pd(oz, oz));
        _mm256_storeu_pd(dx + o, ox);
        _mm256_storeu_pd(dy + o, oy);
        _mm256_storeu_pd(dz + o, oz);
        _mm256_storeu_pd(d2 + o, s);
        __m256d ok = _mm256_and_pd(_mm256_cmp_pd(s, far2, _CMP_LT_OQ),
                                   _mm256_cmp_pd(s, zero, _CMP_NEQ_UQ));
        unsigned bits = (unsigned)_mm256_movemask_pd(ok) & lanes_valid(j, j1, skip, 4);
        __m128i lanes = _mm_loadu_si128((const __m128i *)compact4[bits]);
        _mm_storeu_si128((__m128i *)(keep + m), _mm_add_epi32(lanes, _mm_set1_epi32(o)));
        m += __builtin_popcount(bits);
    }
    return m;
}

/* filter_avx512 with the third axis: eight lanes, compress in place of the
 * table; a 3 x 3 x 3 block holds ~3x the candidates of a 3 x 3 one, so
 * twice the lanes of AVX2 halve the trips through the loop. */
__attribute__((target("avx512f,avx512vl"))) static int
filter3_avx512(const mur_filter3_in *in, const double *x, const double *y, const double *z,
               int j0, int j1, int skip, double *dx, double *dy, double *dz, double *d2, int *keep)
{
    const __m512d xi = _mm512_set1_pd(in->r[0]), yi = _mm512_set1_pd(in->r[1]),
                  zi = _mm512_set1_pd(in->r[2]);
    const __m512d w = _mm512_set1_pd(in->size[0]), h = _mm512_set1_pd(in->size[1]),
                  dp = _mm512_set1_pd(in->size[2]);
    const __m512d hw = _mm512_set1_pd(0.5 * in->size[0]), hh = _mm512_set1_pd(0.5 * in->size[1]),
                  hd = _mm512_set1_pd(0.5 * in->size[2]);
    const __m512d nhw = _mm512_sub_pd(_mm512_setzero_pd(), hw),
                  nhh = _mm512_sub_pd(_mm512_setzero_pd(), hh),
                  nhd = _mm512_sub_pd(_mm512_setzero_pd(), hd);
    const __m512d far2 = _mm512_set1_pd(in->far2);
    const int wrapx = in->wrap[0], wrapy = in->wrap[1], wrapz = in->wrap[2];
    int m = 0;
    for (int j = j0; j < j1; j += 8) {
        int o = j - j0;
        __m512d ox = _mm512_sub_pd(_mm512_loadu_pd(x + j), xi);
        __m512d oy = _mm512_sub_pd(_mm512_loadu_pd(y + j), yi);
        __m512d oz = _mm512_sub_pd(_mm512_loadu_pd(z + j), zi);
        if (wrapx)
            ox = near_image_avx512(ox, w, hw, nhw);
        if (wrapy)
            oy = near_image_avx512(oy, h, hh, nhh);
        if (wrapz)
            oz = near_image_avx512(oz, dp, hd, nhd);
        __m512d s = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(ox, ox), _mm512_mul_pd(oy, oy)),
                                  _mm512_mul_pd(oz, oz));
        _mm512_storeu_pd(dx + o, ox);
        _mm512_storeu_pd(dy + o, oy);
        _mm512_storeu_pd(dz + o, oz);
        _mm512_storeu_pd(d2 + o, s);
        m = keep_avx512(s, far2, j, j1, skip, o, keep, m);
    }
    return m;
}
#endif

mur_filter3_fn mur_filter3_pick(int level)
{
#if FILTER_X86
    int best = mur_filter_best();
    if (level >= MUR_SIMD_AVX512 && best >= MUR_SIMD_AVX512)
        return filter3_avx512;
    if (level >= MUR_SIMD_AVX2 && best >= MUR_SIMD_AVX2)
        return filter3_avx2;
#endif
    (void)level;
    return filter3_portable;
}
