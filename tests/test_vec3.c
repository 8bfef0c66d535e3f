/* The 3D vector pieces (src/core/vec3.c, issue #29): directions on the
 * sphere are unit and balanced (mean near 0, each axis's second moment near
 * 1/3); on a cap they stay within its half-angle and fill it (the cap's
 * mean cosine is (1 + cos half) / 2); a turn goes by exactly its limit in
 * the plane of the two headings, reaches a target within it, handles
 * opposite headings, and commutes with a rotation to 1e-12. */
#include <math.h>
#include <stdint.h>

#include "harness.h"
#include "vec3.h"

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* A fixed sequence in [0, 1): the golden-ratio low-discrepancy pair. */
static void uu(int i, double *u1, double *u2)
{
    *u1 = fmod(0.5 + i * 0.6180339887498949, 1.0);
    *u2 = fmod(0.25 + i * 0.7548776662466927, 1.0);
}

TEST(sphere_is_unit_and_balanced)
{
    enum { N = 20000 };
    double m[3] = {0, 0, 0}, q[3] = {0, 0, 0};
    for (int i = 0; i < N; i++) {
        double u1, u2, v[3];
        uu(i, &u1, &u2);
        mur_v3_sphere(u1, u2, v);
        CHECK(fabs(dot(v, v) - 1) < 1e-12, "unit at %d", i);
        for (int k = 0; k < 3; k++)
            m[k] += v[k] / N, q[k] += v[k] * v[k] / N;
    }
    for (int k = 0; k < 3; k++) {
        CHECK(fabs(m[k]) < 0.01, "axis %d mean %g", k, m[k]);
        CHECK(fabs(q[k] - 1.0 / 3) < 0.01, "axis %d second moment %g", k, q[k]);
    }
}

TEST(cap_stays_within_its_angle_and_fills_it)
{
    double d[3] = {0.3, -0.5, 0.8};
    double l = sqrt(dot(d, d));
    for (int k = 0; k < 3; k++)
        d[k] /= l;
    double half = 0.4, mean = 0, most = 0;
    enum { N = 20000 };
    for (int i = 0; i < N; i++) {
        double u1, u2, v[3];
        uu(i, &u1, &u2);
        mur_v3_cap(d, half, u1, u2, v);
        CHECK(fabs(dot(v, v) - 1) < 1e-12, "unit");
        double a = acos(fmin(1, dot(v, d)));
        most = fmax(most, a);
        mean += dot(v, d) / N;
    }
    CHECK(most <= half + 1e-12 && most > half - 0.01, "largest angle %g of %g", most, half);
    CHECK(fabs(mean - (1 + cos(half)) / 2) < 1e-3, "mean cosine %g", mean);
}

TEST(turn_goes_by_its_limit_toward_the_target)
{
    double a[3] = {1, 0, 0}, b[3] = {0, 1, 0}, o[3];
    mur_v3_turn(a, b, 0.1, o);
    CHECK(fabs(acos(dot(o, a)) - 0.1) < 1e-12, "turned by 0.1");
    CHECK(fabs(o[2]) < 1e-15 && o[1] > 0, "in the plane, toward b");
    mur_v3_turn(a, b, 2.0, o);
    CHECK(fabs(o[0]) < 1e-15 && fabs(o[1] - 1) < 1e-15, "a target within the limit is reached");
    double c[3] = {-1, 0, 0};
    mur_v3_turn(a, c, 0.2, o);
    CHECK(fabs(acos(fmin(1, dot(o, a))) - 0.2) < 1e-12 && fabs(dot(o, o) - 1) < 1e-12, "opposite: turns by 0.2");
}

/* R p for a rotation about unit axis n by angle t (Rodrigues). */
static void rot(const double n[3], double t, const double p[3], double o[3])
{
    double c = cos(t), s = sin(t), d = dot(n, p);
    double x[3] = {n[1] * p[2] - n[2] * p[1], n[2] * p[0] - n[0] * p[2], n[0] * p[1] - n[1] * p[0]};
    for (int k = 0; k < 3; k++)
        o[k] = p[k] * c + x[k] * s + n[k] * d * (1 - c);
}

TEST(turn_commutes_with_rotation)
{
    double n[3] = {2, -1, 3}, l = sqrt(14.0);
    for (int k = 0; k < 3; k++)
        n[k] /= l;
    double a[3] = {0.6, 0.8, 0}, b[3] = {0, 0.6, 0.8}, ra[3], rb[3], o[3], ro[3], or[3];
    mur_v3_turn(a, b, 0.3, o);
    rot(n, 1.1, o, ro);
    rot(n, 1.1, a, ra);
    rot(n, 1.1, b, rb);
    mur_v3_turn(ra, rb, 0.3, or);
    for (int k = 0; k < 3; k++)
        CHECK(fabs(ro[k] - or[k]) < 1e-12, "axis %d: %g vs %g", k, ro[k], or[k]);
}

#include "shape3.h"

/* A slab of points 40 long, 20 wide and 4 thick, rotated: the shape gives
 * back 40, 20, 4 (to the grid's spacing) and its thinnest axis is the
 * rotated normal; the eigenvalues of a known matrix are exact. */
TEST(shape_from_principal_axes)
{
    double m[9] = {2, 1, 0, 1, 2, 0, 0, 0, 5}, ev[3], ax[3][3];
    mur_sym3_eigen(m, ev, ax);
    CHECK(fabs(ev[0] - 5) < 1e-12 && fabs(ev[1] - 3) < 1e-12 && fabs(ev[2] - 1) < 1e-12, "eigen %g %g %g", ev[0], ev[1], ev[2]);
    enum { NX = 41, NY = 21, NZ = 5, N = NX * NY * NZ };
    static double x[N], y[N], z[N];
    double n[3] = {1, 2, 2};
    for (int k = 0; k < 3; k++)
        n[k] /= 3;
    int i = 0;
    for (int a = 0; a < NX; a++)
        for (int b = 0; b < NY; b++)
            for (int c = 0; c < NZ; c++, i++) {
                double p[3] = {a - 20.0, b - 10.0, c - 2.0}, o[3];
                rot(n, 0.7, p, o);
                x[i] = o[0] + 100, y[i] = o[1] - 50, z[i] = o[2] + 30;
            }
    double ext[3];
    REQUIRE(mur_shape3(N, x, y, z, ext, ax) == 0, "shape");
    CHECK(fabs(ext[0] - 40) < 1e-9 && fabs(ext[1] - 20) < 1e-9 && fabs(ext[2] - 4) < 1e-9, "extents %g %g %g", ext[0], ext[1], ext[2]);
    double up[3] = {0, 0, 1}, rn[3];
    rot(n, 0.7, up, rn);
    CHECK(fabs(fabs(dot(ax[2], rn)) - 1) < 1e-9, "the thinnest axis is the slab's normal");
}
