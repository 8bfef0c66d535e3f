/* Four boids' lanes of docs/model.md steps 6-7 (AVX2), written once for
 * the move of D components (motion_d.h's steer4, for the plane and the box):
 * the speed rule and the wrap of an axis. Each lane does the scalar code's
 * operations in its order (flock_internal.h's mur_speed_target_ and
 * mur_bound_axis_), nothing fused, a branch a blend of both outcomes, so
 * the bytes are the scalar code's, and a 3D flock in a plane moves as the
 * 2D one. Private to src/core; x86-64 with GCC or Clang only (LANES_AVX2). */
#ifndef MURMUR_CORE_LANES_H
#define MURMUR_CORE_LANES_H

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#include "murmur/flock.h"

#define LANES_AVX2 1

/* The speed rule of four lanes whose speeds are sp (top: max_speed):
 * returns the lanes to scale (sp > 0 and the target differs) and sets *q
 * to target / sp. */
__attribute__((target("avx2"))) static inline __m256d mur_speed4_(const mur_params *p, __m256d sp,
                                                                  __m256d *q)
{
    const __m256d zero = _mm256_setzero_pd(), max = _mm256_set1_pd(p->max_speed);
    __m256d target;
    if (p->speed_rule == MUR_SPEED_CONSTANT) {
        target = max;
    } else {
        __m256d min = _mm256_set1_pd(p->min_speed);
        target = _mm256_blendv_pd(sp, min, _mm256_cmp_pd(sp, min, _CMP_LT_OQ));
        target = _mm256_blendv_pd(target, max, _mm256_cmp_pd(sp, max, _CMP_GT_OQ));
    }
    *q = _mm256_div_pd(target, sp);
    return _mm256_and_pd(_mm256_cmp_pd(sp, zero, _CMP_GT_OQ), _mm256_cmp_pd(target, sp, _CMP_NEQ_UQ));
}

/* mur_bound_axis_'s wrap of four lanes on an axis of size w. A lane that
 * would take mur_wrap_pos_'s fmod (a boid more than a world away, or not
 * a number) clears *ok: the caller then sends all four to the scalar code
 * and stores nothing. */
__attribute__((target("avx2"))) static inline __m256d mur_wrap4_(__m256d x, double w, int *ok)
{
    const __m256d zero = _mm256_setzero_pd(), W = _mm256_set1_pd(w), W2 = _mm256_set1_pd(2 * w);
    /* mur_wrap_pos_: a = x + w, then a - w in [w, 2w) or a in [0, w) */
    __m256d a = _mm256_add_pd(x, W);
    __m256d hi = _mm256_and_pd(_mm256_cmp_pd(a, W, _CMP_GE_OQ), _mm256_cmp_pd(a, W2, _CMP_LT_OQ));
    __m256d lo = _mm256_and_pd(_mm256_cmp_pd(a, zero, _CMP_GE_OQ), _mm256_cmp_pd(a, W, _CMP_LT_OQ));
    *ok &= _mm256_movemask_pd(_mm256_or_pd(hi, lo));
    x = _mm256_blendv_pd(a, _mm256_sub_pd(a, W), hi);
    /* the checks after mur_wrap_pos_, which change nothing here (a - w is
     * exact in [w, 2w)), kept as written */
    x = _mm256_blendv_pd(x, _mm256_add_pd(x, W), _mm256_cmp_pd(x, zero, _CMP_LT_OQ));
    return _mm256_and_pd(x, _mm256_and_pd(_mm256_cmp_pd(x, zero, _CMP_GE_OQ), _mm256_cmp_pd(x, W, _CMP_LT_OQ)));
}

#else
#define LANES_AVX2 0
#endif

#endif
