/* The motion kinds in three dimensions: motion.c's, with a z.
 *
 * steer: docs/model.md steps 4-7 in the box: predators and attractors at
 *   (x, y, z), the avoid band at all six walls, the noise kick of reynolds
 *   (noise x max_speed along a direction uniform on the sphere, draws 0
 *   and 1), the speed rule, the move and the boundary.
 * turn: constant speed; the heading turns toward the desired one by at
 *   most turn_rate x dt about the axis normal to both (vec3.c).
 * set: x += v of the start of the tick, then the heading becomes the
 *   desired one at max_speed.
 * A desired heading of 0 keeps the current one. */
#include "kinds.h"
#include "vec3.h"

#include <math.h>

/* Boid i to r with velocity v, then the boundary along each axis (the
 * 2D flock's rule, flock_internal.h). */
void mur_place3_(mur_flock *f, int i, double r[3], double v[3])
{
    const mur_params *p = &f->p;
    const double size[3] = {p->width, p->height, p->depth};
    for (int c = 0; c < 3; c++)
        mur_bound_axis_(p->boundary, size[c], &r[c], &v[c]);
    f->x[i] = r[0];
    f->y[i] = r[1];
    f->z[i] = r[2];
    f->vx[i] = v[0];
    f->vy[i] = v[1];
    f->vz[i] = v[2];
}

static void velocity(const mur_flock *f, int i, double v[3])
{
    v[0] = f->vx[i];
    v[1] = f->vy[i];
    v[2] = f->vz[i];
}

/* Steps 4-7 for boid i given its acceleration a; the kick when `kick`. */
static void integrate3(mur_flock *f, int i, double a[3], int kick)
{
    const mur_params *p = &f->p;
    double r[3] = {f->x[i], f->y[i], f->z[i]}, v[3];
    double top = p->max_speed;
    for (int k = 0; k < f->npred; k++) {
        const mur_predator *pr = &f->pred[k];
        double at[3] = {pr->x, pr->y, pr->z}, d[3];
        mur_params_offset3(p, at, r, d);   /* r_i - p */
        double dist = sqrt(mur_dot3_(d, d));
        if (dist < pr->radius && dist > 0) {
            double m = (pr->attract ? -1.0 : 1.0) * pr->strength * (1 - dist / pr->radius) / dist;
            for (int c = 0; c < 3; c++)
                a[c] += m * d[c];
            if (!pr->attract && pr->burst > 1)
                top = fmax(top, p->max_speed * pr->burst);
        }
    }
    if (p->boundary == MUR_BOUNDARY_AVOID) {
        double turn = p->max_force > 0 ? p->max_force : 0.05 * p->max_speed;
        const double size[3] = {p->width, p->height, p->depth};
        for (int c = 0; c < 3; c++) {
            if (r[c] < p->margin)
                a[c] += turn;
            if (r[c] > size[c] - p->margin)
                a[c] -= turn;
        }
    }
    if (kick && p->noise > 0) {
        double u[3];
        mur_v3_sphere(mur_noise_u01(f->seed, f->tick, (uint64_t)i, 0),
                      mur_noise_u01(f->seed, f->tick, (uint64_t)i, 1), u);
        for (int c = 0; c < 3; c++)
            a[c] += p->noise * p->max_speed * u[c];
    }
    velocity(f, i, v);
    for (int c = 0; c < 3; c++)
        v[c] += a[c];
    double sp = sqrt(mur_dot3_(v, v));
    if (sp > 0) {
        double target = mur_speed_target_(p, sp, top);
        if (target != sp)
            for (int c = 0; c < 3; c++)
                v[c] *= target / sp;
    }
    for (int c = 0; c < 3; c++)
        r[c] += v[c];
    mur_place3_(f, i, r, v);
}

/* The desired unit heading of boid i from the result o: unit(v + a) for an
 * acceleration, unit(o) for a heading. */
static void heading_of(const mur_flock *f, int i, const double o[3], int accel, double d[3])
{
    double t[3];
    velocity(f, i, t);
    for (int c = 0; c < 3; c++)
        t[c] = accel ? t[c] + o[c] : o[c];
    mur_unit3_(t, d);
}

void mur_move3_steer(mur_flock *f, int i, const double o[3], int accel)
{
    const mur_params *p = &f->p;
    double a[3] = {0, 0, 0};
    if (accel) {
        for (int c = 0; c < 3; c++)
            a[c] = o[c];
        integrate3(f, i, a, 1);
        return;
    }
    if (o[0] != 0 || o[1] != 0 || o[2] != 0) {
        double v[3];
        velocity(f, i, v);
        for (int c = 0; c < 3; c++)
            a[c] = p->max_speed * o[c] - v[c];
        double l2 = mur_dot3_(a, a);
        if (p->max_force > 0 && l2 > p->max_force * p->max_force) {
            double s = p->max_force / sqrt(l2);
            for (int c = 0; c < 3; c++)
                a[c] *= s;
        }
    }
    integrate3(f, i, a, 0);
}

/* mur_move3_steer of accelerations for boids [begin, end): in the common
 * case (no predator, no noise, a wrapping or open world, AVX2 and up) four
 * at a time on the vector unit, each lane integrate3's operations in its
 * order, nothing fused, a branch a blend of both outcomes, so the bytes are
 * integrate3's; the speed rule and the wrap are the 2D move's lanes
 * (lanes.h). A lane whose wrap would take the fmod sends all four to the
 * scalar code, nothing stored. Each boid spent most of its
 * move waiting on a square root and a division (flock.c's integrate4). */
#include "lanes.h"
#if LANES_AVX2

__attribute__((target("avx2"))) static int steer4(mur_flock *f, int i, const double *acc,
                                                  const double *accz)
{
    const mur_params *p = &f->p;
    __m256d a01 = _mm256_loadu_pd(acc + 2 * (size_t)i), a23 = _mm256_loadu_pd(acc + 2 * (size_t)i + 4);
    __m256d v[3];
    v[0] = _mm256_add_pd(_mm256_loadu_pd(f->vx + i),
                         _mm256_permute4x64_pd(_mm256_unpacklo_pd(a01, a23), 0xD8));
    v[1] = _mm256_add_pd(_mm256_loadu_pd(f->vy + i),
                         _mm256_permute4x64_pd(_mm256_unpackhi_pd(a01, a23), 0xD8));
    v[2] = _mm256_add_pd(_mm256_loadu_pd(f->vz + i), _mm256_loadu_pd(accz + i));
    __m256d sp = _mm256_sqrt_pd(_mm256_add_pd(
        _mm256_add_pd(_mm256_mul_pd(v[0], v[0]), _mm256_mul_pd(v[1], v[1])),
        _mm256_mul_pd(v[2], v[2])));
    __m256d q, scale = mur_speed4_(p, sp, &q);
    double *const pos[3] = {f->x, f->y, f->z};
    const double size[3] = {p->width, p->height, p->depth};
    __m256d r[3];
    int inside = 0xF;
    for (int c = 0; c < 3; c++) {
        v[c] = _mm256_blendv_pd(v[c], _mm256_mul_pd(v[c], q), scale);
        r[c] = _mm256_add_pd(_mm256_loadu_pd(pos[c] + i), v[c]);
        if (p->boundary == MUR_BOUNDARY_WRAP)
            r[c] = mur_wrap4_(r[c], size[c], &inside);
    }
    if (inside != 0xF)
        return 0;
    _mm256_storeu_pd(f->x + i, r[0]);
    _mm256_storeu_pd(f->y + i, r[1]);
    _mm256_storeu_pd(f->z + i, r[2]);
    _mm256_storeu_pd(f->vx + i, v[0]);
    _mm256_storeu_pd(f->vy + i, v[1]);
    _mm256_storeu_pd(f->vz + i, v[2]);
    return 1;
}
#define STEER_VECTOR 1
#else
#define STEER_VECTOR 0
#endif

void mur_move3_steer_range(mur_flock *f, int begin, int end, const double *acc,
                           const double *accz)
{
    const mur_params *p = &f->p;
    int i = begin;
#if STEER_VECTOR
    if (f->simd >= MUR_SIMD_AVX2 && f->npred == 0 && !(p->noise > 0) &&
        (p->boundary == MUR_BOUNDARY_WRAP || p->boundary == MUR_BOUNDARY_OPEN))
        for (; i + 4 <= end; i += 4)
            if (!steer4(f, i, acc, accz))
                for (int j = i; j < i + 4; j++) {
                    double o[3] = {acc[2 * j], acc[2 * j + 1], accz[j]};
                    mur_move3_steer(f, j, o, 1);
                }
#endif
    (void)p;
    for (; i < end; i++) {
        double o[3] = {acc[2 * i], acc[2 * i + 1], accz[i]};
        mur_move3_steer(f, i, o, 1);
    }
}

void mur_move3_turn(mur_flock *f, int i, const double o[3], int accel)
{
    const mur_params *p = &f->p;
    double d[3], h[3], v[3], zero[3] = {0, 0, 0};
    heading_of(f, i, o, accel, d);
    heading_of(f, i, zero, 1, h);   /* unit(v) */
    if (h[0] == 0 && h[1] == 0 && h[2] == 0) {
        for (int c = 0; c < 3; c++)
            h[c] = d[c];   /* at rest: no heading to turn from */
    } else if (d[0] != 0 || d[1] != 0 || d[2] != 0) {
        double t[3];
        mur_v3_turn(h, d, p->turn_rate * p->dt * MUR_PI / 180, t);
        for (int c = 0; c < 3; c++)
            h[c] = t[c];   /* not renormalised, as in 2D: next tick's unit(v) is */
    }
    double r[3] = {f->x[i], f->y[i], f->z[i]};
    for (int c = 0; c < 3; c++) {
        v[c] = p->max_speed * h[c];
        r[c] += v[c];
    }
    mur_place3_(f, i, r, v);
}

void mur_move3_set(mur_flock *f, int i, const double o[3], int accel)
{
    const mur_params *p = &f->p;
    double d[3], v[3];
    heading_of(f, i, o, accel, d);
    velocity(f, i, v);
    double r[3] = {f->x[i] + v[0], f->y[i] + v[1], f->z[i] + v[2]};
    if (d[0] != 0 || d[1] != 0 || d[2] != 0)
        for (int c = 0; c < 3; c++)
            v[c] = p->max_speed * d[c];
    mur_place3_(f, i, r, v);
}
