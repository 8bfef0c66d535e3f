/* The interaction kinds, written once for D components (a template source,
 * docs/notes/threed.md "One core for D components"): interaction.c
 * includes it with D 2 and with D 3 (DN(mur_it, _couzin_add) is
 * mur_it2_couzin_add, then mur_it3_couzin_add). The includer defines the
 * static DN(vicsek_turn, ) and DN(couzin_turn, ), the two places where
 * a direction is drawn, which differ between the plane and the box.
 *
 * reynolds: separation over the neighbours closer than R_sep, alignment
 *   and cohesion over those inside their radii (the whole k set under
 *   topological neighbours), all inside the field of view; then
 *   docs/model.md steps 2-3, DN(mur_combine, _), which flock.c's metric
 *   Reynolds family combines with too.
 * vicsek: the sum of the neighbours' unit headings and the boid's own,
 *   turned by the noise (interaction.c).
 * couzin: repulsion from every boid closer than r_r (all round) overrides
 *   everything; else the orientation zone's headings (the boid's own
 *   included) and the attraction zone's directions, each seen inside the
 *   cone, give the desired heading, then turned by the noise. Under
 *   topological neighbours the attraction zone has no outer radius. */
#ifndef D
#error "interaction_d.h wants D (2 or 3)"
#endif

#include "dim.h"

/* ---- reynolds: docs/model.md steps 2-3 ------------------------------------ */

static void DN(clamp, )(double v[D], double max)
{
    double l2 = mur_dot_(v, v, D);
    if (max > 0 && l2 > max * max) {
        double s = max / sqrt(l2);
        for (int c = 0; c < D; c++)
            v[c] *= s;
    }
}

void DN(mur_combine, _)(const mur_params *p, unsigned used, const double v[D], const DN(sums, ) *s,
                       double out[D], double raw[3][D], double part[3][D])
{
    double raw_[3][D], part_[3][D];
    raw = raw ? raw : raw_;
    part = part ? part : part_;
    for (int c = 0; c < D; c++) {
        raw[0][c] = s->s[c];
        raw[1][c] = raw[2][c] = 0;
        if (s->na) {
            raw[1][c] = s->a[c] / s->na;
            if (p->alignment_mode == MUR_ALIGN_RELATIVE)
                raw[1][c] -= v[c];
        }
        if (s->nc)
            raw[2][c] = s->c[c] / s->nc;
    }
    const int count[3] = {s->ns, s->na, s->nc};
    const double w[3] = {p->separation, p->alignment, p->cohesion};
    const double g[3] = {p->gain_separation, p->gain_alignment, p->gain_cohesion};
    double t[D];
    for (int c = 0; c < D; c++)
        t[c] = 0;
    for (int k = 0; k < 3; k++) {
        double u[D];
        mur_unit_(raw[k], u, D);
        for (int c = 0; c < D; c++)
            part[k][c] = 0;
        /* switched off: nothing, even where w * unit(v) would be NaN (a
         * sum that overflowed); 0 and w * g * unit(v) = +-0 add the same */
        if (!(used & (1u << k))) {
        } else if (p->combine == MUR_COMBINE_NORMALIZE) {
            for (int c = 0; c < D; c++)
                part[k][c] = w[k] * g[k] * u[c];
        } else if (count[k] > 0) {   /* steer: no neighbours, no steering */
            double st[D];
            for (int c = 0; c < D; c++)
                st[c] = p->max_speed * u[c] - v[c];
            DN(clamp, )(st, p->max_force);
            for (int c = 0; c < D; c++)
                part[k][c] = w[k] * st[c];
        }
        for (int c = 0; c < D; c++)
            t[c] += part[k][c];
    }
    if (p->combine == MUR_COMBINE_NORMALIZE)
        DN(clamp, )(t, p->max_force);
    for (int c = 0; c < D; c++)
        out[c] = t[c];
}

/* DN(mur_combine, _) for a run of boids. Normalised rules (most flocks) go
 * four boids at a time through the vector unit where the flock may use
 * AVX2 (f->simd): each lane does the scalar combine's operations in its
 * order (IEEE division and square root round the same in a lane as in a
 * scalar register, nothing is fused, a switched-off rule adds nothing in
 * either), and a lane's branch becomes a blend of both outcomes, so the
 * bytes are the scalar combine's. A combine is a chain of divisions and
 * square roots; four at once share them. */
#if LANES_AVX2
/* mur_unit_ of four lanes: 0 where the length is not > 0. */
__attribute__((target("avx2"))) static void DN(unit4, )(const __m256d a[D], __m256d u[D])
{
    const __m256d zero = _mm256_setzero_pd();
    __m256d l2 = _mm256_mul_pd(a[0], a[0]);
    for (int c = 1; c < D; c++)
        l2 = _mm256_add_pd(l2, _mm256_mul_pd(a[c], a[c]));
    __m256d l = _mm256_sqrt_pd(l2);
    __m256d pos = _mm256_cmp_pd(l, zero, _CMP_GT_OQ);
    for (int c = 0; c < D; c++)
        u[c] = _mm256_blendv_pd(zero, _mm256_div_pd(a[c], l), pos);
}

__attribute__((target("avx2"))) static void DN(combine_norm4, )(const mur_params *p, unsigned used,
                                                               const double *const v[D], int t0,
                                                               const DN(sums, ) *s,
                                                               double *const out[D])
{
    const __m256d zero = _mm256_setzero_pd();
    __m256d na = _mm256_set_pd(s[3].na, s[2].na, s[1].na, s[0].na);
    __m256d nc = _mm256_set_pd(s[3].nc, s[2].nc, s[1].nc, s[0].nc);
    __m256d has_a = _mm256_cmp_pd(na, zero, _CMP_NEQ_OQ);
    __m256d has_c = _mm256_cmp_pd(nc, zero, _CMP_NEQ_OQ);
    __m256d raw[3][D];
    for (int c = 0; c < D; c++) {
        raw[0][c] = _mm256_set_pd(s[3].s[c], s[2].s[c], s[1].s[c], s[0].s[c]);
        __m256d a = _mm256_div_pd(_mm256_set_pd(s[3].a[c], s[2].a[c], s[1].a[c], s[0].a[c]), na);
        if (p->alignment_mode == MUR_ALIGN_RELATIVE)
            a = _mm256_sub_pd(a, _mm256_loadu_pd(v[c] + t0));
        raw[1][c] = _mm256_blendv_pd(zero, a, has_a);
        __m256d m = _mm256_div_pd(_mm256_set_pd(s[3].c[c], s[2].c[c], s[1].c[c], s[0].c[c]), nc);
        raw[2][c] = _mm256_blendv_pd(zero, m, has_c);
    }
    const double wg[3] = {p->separation * p->gain_separation, p->alignment * p->gain_alignment,
                          p->cohesion * p->gain_cohesion};
    __m256d t[D];
    for (int c = 0; c < D; c++)
        t[c] = zero;
    for (int k = 0; k < 3; k++) {
        if (!(used & (1u << k)))
            continue;
        __m256d u[D], g = _mm256_set1_pd(wg[k]);
        DN(unit4, )(raw[k], u);
        for (int c = 0; c < D; c++)
            t[c] = _mm256_add_pd(t[c], _mm256_mul_pd(g, u[c]));
    }
    if (p->max_force > 0) {   /* clamp */
        __m256d max = _mm256_set1_pd(p->max_force);
        __m256d l2 = _mm256_mul_pd(t[0], t[0]);
        for (int c = 1; c < D; c++)
            l2 = _mm256_add_pd(l2, _mm256_mul_pd(t[c], t[c]));
        __m256d over = _mm256_cmp_pd(l2, _mm256_mul_pd(max, max), _CMP_GT_OQ);
        __m256d sc = _mm256_div_pd(max, _mm256_sqrt_pd(l2));
        for (int c = 0; c < D; c++)
            t[c] = _mm256_blendv_pd(t[c], _mm256_mul_pd(t[c], sc), over);
    }
    for (int c = 0; c < D; c++)
        _mm256_storeu_pd(out[c] + t0, t[c]);
}
#endif

void DN(mur_combine, _run)(const mur_flock *f, unsigned used, const double *const v[D],
                           const DN(sums, ) *s, int n, double *const out[D])
{
    int t = 0;
#if LANES_AVX2
    if (f->simd >= MUR_SIMD_AVX2 && f->p.combine == MUR_COMBINE_NORMALIZE)
        for (; t + 4 <= n; t += 4)
            DN(combine_norm4, )(&f->p, used, v, t, s + t, out);
#endif
    for (; t < n; t++) {
        double vt[D], o[D];
        for (int c = 0; c < D; c++)
            vt[c] = v[c][t];
        DN(mur_combine, _)(&f->p, used, vt, &s[t], o, NULL, NULL);
        for (int c = 0; c < D; c++)
            out[c][t] = o[c];
    }
}

void DN(mur_it, _reynolds_add)(const DN(mur_it, ) *it, DN(sums, ) *acc, const DN(mur_nb, ) *e)
{
    DN(mur_reynolds_add, _)(it, acc, e);
}

void DN(mur_it, _reynolds_finish)(const DN(mur_it, ) *it, const DN(sums, ) *acc, double out[D])
{
    DN(mur_combine, _)(it->p, it->used, it->v, acc, out, NULL, NULL);
}

/* ---- vicsek --------------------------------------------------------------- */

/* The unit heading of the boid at position k (0 at rest). */
static void DN(unit_v, )(const mur_flock *f, int k, double u[D])
{
    const double v[D] = D_AXES(f->kvx[k], f->kvy[k], f->kvz[k]);
    mur_unit_(v, u, D);
}

void DN(mur_it, _vicsek_add)(const DN(mur_it, ) *it, DN(sums, ) *acc, const DN(mur_nb, ) *e)
{
    if (!e->seen)
        return;
    double u[D];
    DN(unit_v, )(it->f, e->k, u);   /* (cos theta_j, sin theta_j) in the plane */
    for (int c = 0; c < D; c++)
        acc->a[c] += u[c];
    acc->na++;
}

void DN(mur_it, _vicsek_finish)(const DN(mur_it, ) *it, const DN(sums, ) *acc, double out[D])
{
    double own[D], m[D];
    mur_unit_(it->v, own, D);   /* the boid itself */
    for (int c = 0; c < D; c++)
        m[c] = acc->a[c] + own[c];
    DN(vicsek_turn, )(it, m, own, out);
}

/* ---- couzin --------------------------------------------------------------- */

void DN(mur_it, _couzin_add)(const DN(mur_it, ) *it, DN(sums, ) *acc, const DN(mur_nb, ) *e)
{
    double u[D];
    for (int c = 0; c < D; c++)
        u[c] = e->d[c] / e->dist;   /* unit(d_ij), |d| > 0 */
    if (e->dist < it->rr) {
        for (int c = 0; c < D; c++)
            acc->s[c] -= u[c];
        acc->ns++;
        return;
    }
    if (!e->seen)
        return;
    if (e->dist < it->ro) {
        double v[D];
        DN(unit_v, )(it->f, e->k, v);
        for (int c = 0; c < D; c++)
            acc->a[c] += v[c];
        acc->na++;
    } else if (it->topological || e->dist < it->ra) {
        for (int c = 0; c < D; c++)
            acc->c[c] += u[c];
        acc->nc++;
    }
}

/* The desired heading before noise; 0 when the boid has none. */
static void DN(couzin_desire, )(const DN(mur_it, ) *it, const DN(sums, ) *acc, double d[D])
{
    double h[D];
    mur_unit_(it->v, h, D);
    for (int c = 0; c < D; c++)
        d[c] = 0;
    if (acc->ns) {
        mur_unit_(acc->s, d, D);
    } else if (acc->na || acc->nc) {
        double o[D], a[D], t[D];
        for (int c = 0; c < D; c++) {
            o[c] = a[c] = 0;
            t[c] = h[c] + acc->a[c];
        }
        if (acc->na)
            mur_unit_(t, o, D);
        if (acc->nc)
            mur_unit_(acc->c, a, D);
        for (int c = 0; c < D; c++)
            t[c] = o[c] + a[c];
        if (acc->na && acc->nc)
            mur_unit_(t, d, D);
        else
            for (int c = 0; c < D; c++)
                d[c] = t[c];   /* the one zone that holds boids */
    }
    int zero = 1;
    for (int c = 0; c < D; c++)
        zero &= d[c] == 0;
    if (zero)
        for (int c = 0; c < D; c++)
            d[c] = h[c];   /* no boid, or sums that cancel: the current heading */
}

void DN(mur_it, _couzin_finish)(const DN(mur_it, ) *it, const DN(sums, ) *acc, double out[D])
{
    double d[D];
    DN(couzin_desire, )(it, acc, d);
    if (it->p->noise > 0)
        DN(couzin_turn, )(it, d, out);
    else
        for (int c = 0; c < D; c++)
            out[c] = d[c];
}
