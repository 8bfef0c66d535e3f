/* The interaction kinds in three dimensions (docs/model.md "Model
 * families" and "Three dimensions"): interaction.c's equations with a z.
 *
 * reynolds: separation, alignment and cohesion summed over the
 *   neighbours, combined as docs/model.md step 3 says (normalize or
 *   steer), the same operations as flock.c's combine with a third
 *   component.
 * vicsek: the unit mean of the neighbours' directions and the boid's own,
 *   turned to a direction drawn uniform on the spherical cap of
 *   half-angle eta / 2 around it (draws 0 and 1). A mean that cancels
 *   keeps the boid's heading.
 * couzin: the zones as in 2D; the noise turns the desired heading by an
 *   angle drawn from N(0, sigma^2) (Box-Muller from draws 0 and 1) about
 *   an axis normal to it at an azimuth drawn uniform (draw 2). */
#include "kinds.h"
#include "vec3.h"

#include <math.h>

/* ---- reynolds ------------------------------------------------------------- */

void mur_it3_reynolds_add(const mur_it3 *it, sums3 *acc, const mur_nb3 *e)
{
    mur_it3_reynolds_add_(it, acc, e);
}

static void clamp3(double v[3], double max)
{
    double l2 = mur_dot3_(v, v);
    if (max > 0 && l2 > max * max) {
        double s = max / sqrt(l2);
        for (int c = 0; c < 3; c++)
            v[c] *= s;
    }
}

void mur_it3_reynolds_finish(const mur_it3 *it, const sums3 *acc, double out[3])
{
    const mur_params *p = it->p;
    double raw[3][3] = {{acc->s[0], acc->s[1], acc->s[2]}, {0, 0, 0}, {0, 0, 0}};
    for (int c = 0; c < 3; c++) {
        if (acc->na) {
            raw[1][c] = acc->a[c] / acc->na;
            if (p->alignment_mode == MUR_ALIGN_RELATIVE)
                raw[1][c] -= it->v[c];
        }
        if (acc->nc)
            raw[2][c] = acc->c[c] / acc->nc;
    }
    const int count[3] = {acc->ns, acc->na, acc->nc};
    const double w[3] = {p->separation, p->alignment, p->cohesion};
    const double g[3] = {p->gain_separation, p->gain_alignment, p->gain_cohesion};
    double t[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        if (!(it->used & (1u << k)))
            continue;
        double u[3];
        mur_unit3_(raw[k], u);
        if (p->combine == MUR_COMBINE_NORMALIZE) {
            for (int c = 0; c < 3; c++)
                t[c] += w[k] * g[k] * u[c];
        } else if (count[k] > 0) {   /* steer: no neighbours, no steering */
            double s[3];
            for (int c = 0; c < 3; c++)
                s[c] = p->max_speed * u[c] - it->v[c];
            clamp3(s, p->max_force);
            for (int c = 0; c < 3; c++)
                t[c] += w[k] * s[c];
        }
    }
    if (p->combine == MUR_COMBINE_NORMALIZE)
        clamp3(t, p->max_force);
    for (int c = 0; c < 3; c++)
        out[c] = t[c];
}

/* mur_it3_reynolds_finish for a run of boids: boid t's sums s[t] and
 * velocity (vx[t], vy[t], vz[t]), t < n, to (ox[t], oy[t], oz[t]).
 *
 * Normalised rules (most flocks) go four boids at a time through the
 * vector unit where the flock may use AVX2 (f->simd): each lane does the
 * scalar finish's operations in its order (IEEE division and square root
 * round the same in a lane as in a scalar register, nothing is fused, a
 * switched-off rule adds nothing in either), and a lane's branch becomes a
 * blend of both outcomes, so the bytes are the scalar finish's (flock.c's
 * combine_norm4, with z). A finish is a chain of divisions and square
 * roots; four at once share them. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* mur_unit3_ of four lanes: 0 where the length is not > 0. */
__attribute__((target("avx2"))) static void unit3x4(const __m256d a[3], __m256d u[3])
{
    const __m256d zero = _mm256_setzero_pd();
    __m256d l = _mm256_sqrt_pd(_mm256_add_pd(
        _mm256_add_pd(_mm256_mul_pd(a[0], a[0]), _mm256_mul_pd(a[1], a[1])),
        _mm256_mul_pd(a[2], a[2])));
    __m256d pos = _mm256_cmp_pd(l, zero, _CMP_GT_OQ);
    for (int c = 0; c < 3; c++)
        u[c] = _mm256_blendv_pd(zero, _mm256_div_pd(a[c], l), pos);
}

__attribute__((target("avx2"))) static void finish_norm4(const mur_it3 *it, const double *vx,
                                                         const double *vy, const double *vz,
                                                         const sums3 *s, double *ox, double *oy,
                                                         double *oz)
{
    const mur_params *p = it->p;
    const __m256d zero = _mm256_setzero_pd();
    const __m256d v[3] = {_mm256_loadu_pd(vx), _mm256_loadu_pd(vy), _mm256_loadu_pd(vz)};
    __m256d na = _mm256_set_pd(s[3].na, s[2].na, s[1].na, s[0].na);
    __m256d nc = _mm256_set_pd(s[3].nc, s[2].nc, s[1].nc, s[0].nc);
    __m256d has_a = _mm256_cmp_pd(na, zero, _CMP_NEQ_OQ);
    __m256d has_c = _mm256_cmp_pd(nc, zero, _CMP_NEQ_OQ);
    __m256d raw[3][3];
    for (int c = 0; c < 3; c++) {
        raw[0][c] = _mm256_set_pd(s[3].s[c], s[2].s[c], s[1].s[c], s[0].s[c]);
        __m256d a = _mm256_div_pd(_mm256_set_pd(s[3].a[c], s[2].a[c], s[1].a[c], s[0].a[c]), na);
        if (p->alignment_mode == MUR_ALIGN_RELATIVE)
            a = _mm256_sub_pd(a, v[c]);
        raw[1][c] = _mm256_blendv_pd(zero, a, has_a);
        __m256d m = _mm256_div_pd(_mm256_set_pd(s[3].c[c], s[2].c[c], s[1].c[c], s[0].c[c]), nc);
        raw[2][c] = _mm256_blendv_pd(zero, m, has_c);
    }
    const double wg[3] = {p->separation * p->gain_separation, p->alignment * p->gain_alignment,
                          p->cohesion * p->gain_cohesion};
    __m256d t[3] = {zero, zero, zero};
    for (int k = 0; k < 3; k++) {
        if (!(it->used & (1u << k)))
            continue;
        __m256d u[3], g = _mm256_set1_pd(wg[k]);
        unit3x4(raw[k], u);
        for (int c = 0; c < 3; c++)
            t[c] = _mm256_add_pd(t[c], _mm256_mul_pd(g, u[c]));
    }
    if (p->max_force > 0) {   /* clamp3 */
        __m256d max = _mm256_set1_pd(p->max_force);
        __m256d l2 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(t[0], t[0]), _mm256_mul_pd(t[1], t[1])),
                                   _mm256_mul_pd(t[2], t[2]));
        __m256d over = _mm256_cmp_pd(l2, _mm256_mul_pd(max, max), _CMP_GT_OQ);
        __m256d sc = _mm256_div_pd(max, _mm256_sqrt_pd(l2));
        for (int c = 0; c < 3; c++)
            t[c] = _mm256_blendv_pd(t[c], _mm256_mul_pd(t[c], sc), over);
    }
    _mm256_storeu_pd(ox, t[0]);
    _mm256_storeu_pd(oy, t[1]);
    _mm256_storeu_pd(oz, t[2]);
}
#define FINISH_VECTOR 1
#else
#define FINISH_VECTOR 0
#endif

void mur_it3_reynolds_finish_run(const mur_it3 *tmpl, const double *vx, const double *vy,
                                 const double *vz, const sums3 *s, int n, double *ox, double *oy,
                                 double *oz)
{
    int t = 0;
#if FINISH_VECTOR
    if (tmpl->f->simd >= MUR_SIMD_AVX2 && tmpl->p->combine == MUR_COMBINE_NORMALIZE)
        for (; t + 4 <= n; t += 4)
            finish_norm4(tmpl, vx + t, vy + t, vz + t, s + t, ox + t, oy + t, oz + t);
#endif
    mur_it3 it = *tmpl;
    for (; t < n; t++) {
        double out[3];
        it.v[0] = vx[t];
        it.v[1] = vy[t];
        it.v[2] = vz[t];
        mur_it3_reynolds_finish(&it, &s[t], out);
        ox[t] = out[0];
        oy[t] = out[1];
        oz[t] = out[2];
    }
}

/* ---- vicsek --------------------------------------------------------------- */

static void unit_v(const mur_flock *f, int k, double u[3])
{
    double v[3] = {f->kvx[k], f->kvy[k], f->kvz[k]};
    mur_unit3_(v, u);
}

void mur_it3_vicsek_add(const mur_it3 *it, sums3 *acc, const mur_nb3 *e)
{
    if (!e->seen)
        return;
    double u[3];
    unit_v(it->f, e->k, u);
    for (int c = 0; c < 3; c++)
        acc->a[c] += u[c];
    acc->na++;
}

void mur_it3_vicsek_finish(const mur_it3 *it, const sums3 *acc, double out[3])
{
    double own[3], m[3], mean[3];
    mur_unit3_(it->v, own);
    for (int c = 0; c < 3; c++)
        m[c] = acc->a[c] + own[c];
    if (!(mur_unit3_(m, mean) > 0)) {
        for (int c = 0; c < 3; c++)
            mean[c] = own[c];
        if (!(it->vlen > 0))
            mean[0] = 1;   /* at rest and alone: +x, as atan2(0, 0) = 0 is in 2D */
    }
    const mur_flock *f = it->f;
    double u0 = mur_noise_u01(f->seed, f->tick, (uint64_t)it->i, 0);
    double u1 = mur_noise_u01(f->seed, f->tick, (uint64_t)it->i, 1);
    mur_v3_cap(mean, it->p->noise / 2, u0, u1, out);
}

/* ---- couzin --------------------------------------------------------------- */

void mur_it3_couzin_add(const mur_it3 *it, sums3 *acc, const mur_nb3 *e)
{
    double u[3];
    for (int c = 0; c < 3; c++)
        u[c] = e->d[c] / e->dist;
    if (e->dist < it->rr) {
        for (int c = 0; c < 3; c++)
            acc->s[c] -= u[c];
        acc->ns++;
        return;
    }
    if (!e->seen)
        return;
    if (e->dist < it->ro) {
        double v[3];
        unit_v(it->f, e->k, v);
        for (int c = 0; c < 3; c++)
            acc->a[c] += v[c];
        acc->na++;
    } else if (it->topological || e->dist < it->ra) {
        for (int c = 0; c < 3; c++)
            acc->c[c] += u[c];
        acc->nc++;
    }
}

/* The desired heading before noise (interaction.c's couzin_desire). */
static void couzin_desire(const mur_it3 *it, const sums3 *acc, double d[3])
{
    double h[3];
    mur_unit3_(it->v, h);
    d[0] = d[1] = d[2] = 0;
    if (acc->ns) {
        mur_unit3_(acc->s, d);
    } else if (acc->na || acc->nc) {
        double o[3] = {0, 0, 0}, a[3] = {0, 0, 0}, t[3];
        if (acc->na) {
            for (int c = 0; c < 3; c++)
                t[c] = h[c] + acc->a[c];
            mur_unit3_(t, o);
        }
        if (acc->nc)
            mur_unit3_(acc->c, a);
        for (int c = 0; c < 3; c++)
            t[c] = o[c] + a[c];
        if (acc->na && acc->nc)
            mur_unit3_(t, d);
        else
            for (int c = 0; c < 3; c++)
                d[c] = t[c];   /* the one zone that holds boids */
    }
    if (d[0] == 0 && d[1] == 0 && d[2] == 0)
        for (int c = 0; c < 3; c++)
            d[c] = h[c];   /* no boid, or sums that cancel: the current heading */
}

void mur_it3_couzin_finish(const mur_it3 *it, const sums3 *acc, double out[3])
{
    double d[3];
    couzin_desire(it, acc, d);
    double sigma = it->p->noise;
    if (sigma > 0 && (d[0] != 0 || d[1] != 0 || d[2] != 0)) {
        const mur_flock *f = it->f;
        uint64_t i = (uint64_t)it->i;
        double u0 = mur_noise_u01(f->seed, f->tick, i, 0);
        double u1 = mur_noise_u01(f->seed, f->tick, i, 1);
        double u2 = mur_noise_u01(f->seed, f->tick, i, 2);
        double g = sqrt(-2 * log(1 - u0)) * cos(2 * MUR_PI * u1);   /* N(0, 1), Box-Muller */
        double a = sigma * g, phi = 2 * MUR_PI * u2, e1[3], e2[3];
        mur_v3_frame(d, e1, e2);
        /* about the axis cos(phi) e1 + sin(phi) e2, normal to d: d turns
         * toward the normal -sin(phi) e1 + cos(phi) e2 (axis x d) */
        for (int c = 0; c < 3; c++) {
            double n = -sin(phi) * e1[c] + cos(phi) * e2[c];
            out[c] = cos(a) * d[c] + sin(a) * n;
        }
        return;
    }
    for (int c = 0; c < 3; c++)
        out[c] = d[c];
}
