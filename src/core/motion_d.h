/* The motion kinds, written once for D components (a template source,
 * docs/notes/threed.md "One core for D components"): motion.c includes it
 * with D 2 and with D 3, and each inclusion defines that world's functions
 * (DN(mur_move, _steer) is mur_move2_steer, then mur_move3_steer).
 *
 * steer: docs/model.md steps 4-7: predators and attractors, the avoid band
 *   at every wall, the noise kick of reynolds (noise x max_speed along the
 *   direction kick_dir draws: an angle in the plane, a point of the sphere
 *   in the box), the speed rule, the move and the boundary.
 * turn: constant speed max_speed; the heading turns toward the desired one
 *   by at most turn_rate x dt (degrees) about the axis normal to both
 *   (vec3.c's turn, whose arithmetic on level vectors is the plane's
 *   rotation), then x += v (Couzin 2002: x += s dt unit(v)).
 * set: x += v of the start of the tick (Vicsek 1995 eq. 1), then the
 *   heading becomes the desired one, speed max_speed.
 * A desired heading of 0 keeps the current one. Predators and the avoid
 * band act through steer only.
 *
 * Every component's arithmetic is the one axis rule in the same order in
 * both worlds, so a 3D flock in a plane moves as the 2D one, bit for bit
 * (tests/test_space3). The includer defines D and the static
 * DN(kick_dir, )(f, i, u), the kick's unit direction for boid i. */
#ifndef D
#error "motion_d.h wants D (2 or 3)"
#endif

#include "dim.h"

/* Boid i to r with velocity v, then the boundary along each axis. */
void DN(mur_place, _)(mur_flock *f, int i, double r[D], double v[D])
{
    const mur_params *p = &f->p;
    const double size[D] = D_AXES(p->width, p->height, p->depth);
    double *const pos[D] = D_AXES(f->x, f->y, f->z), *const vel[D] = D_AXES(f->vx, f->vy, f->vz);
    for (int c = 0; c < D; c++) {
        mur_bound_axis_(p->boundary, size[c], &r[c], &v[c]);
        pos[c][i] = r[c];
        vel[c][i] = v[c];
    }
}

static inline void DN(velocity, )(const mur_flock *f, int i, double v[D])
{
    const double *const vel[D] = D_AXES(f->vx, f->vy, f->vz);
    for (int c = 0; c < D; c++)
        v[c] = vel[c][i];
}

static inline void DN(position, )(const mur_flock *f, int i, double r[D])
{
    const double *const pos[D] = D_AXES(f->x, f->y, f->z);
    for (int c = 0; c < D; c++)
        r[c] = pos[c][i];
}

/* Steps 4-7 for boid i given its acceleration a; the kick when `kick`
 * (the model family's angular noises replace it). */
void DN(mur_integrate, _)(mur_flock *f, int i, double a[D], int kick)
{
    const mur_params *p = &f->p;
    double r[D], v[D];
    DN(position, )(f, i, r);
    double top = p->max_speed;   /* a flee burst raises it while the boid flees */
    for (int k = 0; k < f->npred; k++) {
        const mur_predator *pr = &f->pred[k];
        const double at[D] = D_AXES(pr->x, pr->y, pr->z);
        double d[D];
        mur_offset_(p, at, r, d, D);   /* r_i - p */
        double dist = sqrt(mur_dot_(d, d, D));
        if (dist < pr->radius && dist > 0) {
            double m = (pr->attract ? -1.0 : 1.0) * pr->strength * (1 - dist / pr->radius) / dist;
            for (int c = 0; c < D; c++)
                a[c] += m * d[c];
            if (!pr->attract && pr->burst > 1)
                top = fmax(top, p->max_speed * pr->burst);
        }
    }
    if (p->boundary == MUR_BOUNDARY_AVOID) {
        double turn = p->max_force > 0 ? p->max_force : 0.05 * p->max_speed;
        const double size[D] = D_AXES(p->width, p->height, p->depth);
        for (int c = 0; c < D; c++) {
            if (r[c] < p->margin)
                a[c] += turn;
            if (r[c] > size[c] - p->margin)
                a[c] -= turn;
        }
    }
    if (kick && p->noise > 0) {
        double u[D];
        DN(kick_dir, )(f, i, u);
        for (int c = 0; c < D; c++)
            a[c] += p->noise * p->max_speed * u[c];
    }
    DN(velocity, )(f, i, v);
    for (int c = 0; c < D; c++)
        v[c] += a[c];
    double sp = sqrt(mur_dot_(v, v, D));
    if (sp > 0) {
        double target = mur_speed_target_(p, sp, top);
        if (target != sp)
            for (int c = 0; c < D; c++)
                v[c] *= target / sp;
    }
    for (int c = 0; c < D; c++)
        r[c] += v[c];
    DN(mur_place, _)(f, i, r, v);
}

/* The desired unit heading of boid i from the result o: unit(v + a) for an
 * acceleration, unit(o) for a heading. */
static void DN(heading_of, )(const mur_flock *f, int i, const double o[D], int accel, double d[D])
{
    double t[D];
    DN(velocity, )(f, i, t);
    for (int c = 0; c < D; c++)
        t[c] = accel ? t[c] + o[c] : o[c];
    mur_unit_(t, d, D);
}

static int DN(nonzero, )(const double a[D])
{
    for (int c = 0; c < D; c++)
        if (a[c] != 0)
            return 1;
    return 0;
}

void DN(mur_move, _steer)(mur_flock *f, int i, const double o[D], int accel)
{
    const mur_params *p = &f->p;
    double a[D];
    for (int c = 0; c < D; c++)
        a[c] = accel ? o[c] : 0;
    if (accel) {
        DN(mur_integrate, _)(f, i, a, 1);
        return;
    }
    if (DN(nonzero, )(o)) {
        double v[D];
        DN(velocity, )(f, i, v);
        for (int c = 0; c < D; c++)
            a[c] = p->max_speed * o[c] - v[c];
        double l2 = mur_dot_(a, a, D);
        if (p->max_force > 0 && l2 > p->max_force * p->max_force) {
            double s = p->max_force / sqrt(l2);
            for (int c = 0; c < D; c++)
                a[c] *= s;
        }
    }
    DN(mur_integrate, _)(f, i, a, 0);
}

/* The acceleration of boid j: x, y from acc (a boid), z from accz. */
static inline void DN(accel_of, )(const double *acc, const double *accz, int j, double o[D])
{
    o[0] = acc[2 * j];
    o[1] = acc[2 * j + 1];
#if D == 3
    o[2] = accz[j];
#else
    (void)accz;
#endif
}

/* DN(mur_move, _steer) of accelerations for boids [begin, end): in the
 * common case (no predator, no noise, a wrapping or open world, AVX2 and
 * up) four at a time on the vector unit, each lane the scalar move's
 * operations in its order, nothing fused, a branch a blend of both
 * outcomes, so the bytes are the scalar move's; the speed rule and the
 * wrap are lanes.h's. A lane whose wrap would take the fmod sends all four
 * to the scalar code, nothing stored. Each boid spent most of its move
 * waiting on a square root and a division. */
#if LANES_AVX2
__attribute__((target("avx2"))) static int DN(steer4, )(mur_flock *f, int i, const double *acc,
                                                       const double *accz)
{
    const mur_params *p = &f->p;
    __m256d a01 = _mm256_loadu_pd(acc + 2 * (size_t)i), a23 = _mm256_loadu_pd(acc + 2 * (size_t)i + 4);
    const double *const vel0[D] = D_AXES(f->vx, f->vy, f->vz);
    double *const pos[D] = D_AXES(f->x, f->y, f->z), *const vel[D] = D_AXES(f->vx, f->vy, f->vz);
    __m256d v[D], r[D];
    v[0] = _mm256_permute4x64_pd(_mm256_unpacklo_pd(a01, a23), 0xD8);
    v[1] = _mm256_permute4x64_pd(_mm256_unpackhi_pd(a01, a23), 0xD8);
#if D == 3
    v[2] = _mm256_loadu_pd(accz + i);
#else
    (void)accz;
#endif
    for (int c = 0; c < D; c++)
        v[c] = _mm256_add_pd(_mm256_loadu_pd(vel0[c] + i), v[c]);
    __m256d sp2 = _mm256_mul_pd(v[0], v[0]);
    for (int c = 1; c < D; c++)
        sp2 = _mm256_add_pd(sp2, _mm256_mul_pd(v[c], v[c]));
    __m256d q, scale = mur_speed4_(p, _mm256_sqrt_pd(sp2), &q);
    const double size[D] = D_AXES(p->width, p->height, p->depth);
    int inside = 0xF;
    for (int c = 0; c < D; c++) {
        v[c] = _mm256_blendv_pd(v[c], _mm256_mul_pd(v[c], q), scale);
        r[c] = _mm256_add_pd(_mm256_loadu_pd(pos[c] + i), v[c]);
        if (p->boundary == MUR_BOUNDARY_WRAP)
            r[c] = mur_wrap4_(r[c], size[c], &inside);
    }
    if (inside != 0xF)
        return 0;
    for (int c = 0; c < D; c++) {
        _mm256_storeu_pd(pos[c] + i, r[c]);
        _mm256_storeu_pd(vel[c] + i, v[c]);
    }
    return 1;
}
#endif

void DN(mur_move, _steer_range)(mur_flock *f, int begin, int end, const double *acc,
                                const double *accz)
{
    const mur_params *p = &f->p;
    int i = begin;
    double o[D];
#if LANES_AVX2
    if (f->simd >= MUR_SIMD_AVX2 && f->npred == 0 && !(p->noise > 0) &&
        (p->boundary == MUR_BOUNDARY_WRAP || p->boundary == MUR_BOUNDARY_OPEN))
        for (; i + 4 <= end; i += 4)
            if (!DN(steer4, )(f, i, acc, accz))
                for (int j = i; j < i + 4; j++) {
                    DN(accel_of, )(acc, accz, j, o);
                    DN(mur_integrate, _)(f, j, o, 1);
                }
#endif
    (void)p;
    for (; i < end; i++) {
        DN(accel_of, )(acc, accz, i, o);
        DN(mur_integrate, _)(f, i, o, 1);
    }
}

void DN(mur_move, _turn)(mur_flock *f, int i, const double o[D], int accel)
{
    const mur_params *p = &f->p;
    double d[D], h[D], r[D], v[D], zero[D] = {0};
    DN(heading_of, )(f, i, o, accel, d);
    DN(heading_of, )(f, i, zero, 1, h);   /* unit(v) */
    if (!DN(nonzero, )(h)) {
        for (int c = 0; c < D; c++)
            h[c] = d[c];   /* at rest: no heading to turn from */
    } else if (DN(nonzero, )(d)) {
        double h3[3] = {0, 0, 0}, d3[3] = {0, 0, 0}, t[3];
        for (int c = 0; c < D; c++) {
            h3[c] = h[c];
            d3[c] = d[c];
        }
        mur_v3_turn(h3, d3, p->turn_rate * p->dt * MUR_PI / 180, t);
        for (int c = 0; c < D; c++)
            h[c] = t[c];   /* not renormalised: next tick's unit(v) is */
    }
    DN(position, )(f, i, r);
    for (int c = 0; c < D; c++) {
        v[c] = p->max_speed * h[c];
        r[c] += v[c];
    }
    DN(mur_place, _)(f, i, r, v);
}

void DN(mur_move, _set)(mur_flock *f, int i, const double o[D], int accel)
{
    const mur_params *p = &f->p;
    double d[D], r[D], v[D];
    DN(heading_of, )(f, i, o, accel, d);
    DN(position, )(f, i, r);
    DN(velocity, )(f, i, v);
    for (int c = 0; c < D; c++)
        r[c] += v[c];
    if (DN(nonzero, )(d))
        for (int c = 0; c < D; c++)
            v[c] = p->max_speed * d[c];
    DN(mur_place, _)(f, i, r, v);
}
