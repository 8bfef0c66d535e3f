/* Three-dimensional vector pieces: vec3.h says what each does.
 *
 * Sphere: z = 1 - 2 u1 and an azimuth 2 pi u2 (Archimedes: z uniform on
 * [-1, 1] is area-uniform). Cap: z uniform on [cos half, 1] the same way,
 * then the frame (e1, e2, d) maps the cap around z onto the cap around d. */
#include "vec3.h"

#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

void mur_v3_sphere(double u1, double u2, double out[3])
{
    double z = 1 - 2 * u1, r = sqrt(fmax(0, 1 - z * z)), phi = 2 * M_PI * u2;
    out[0] = r * cos(phi);
    out[1] = r * sin(phi);
    out[2] = z;
}

void mur_v3_frame(const double d[3], double e1[3], double e2[3])
{
    /* the axis d leans least along */
    double t[3] = {0, 0, 0};
    int k = fabs(d[0]) <= fabs(d[1]) ? (fabs(d[0]) <= fabs(d[2]) ? 0 : 2) : (fabs(d[1]) <= fabs(d[2]) ? 1 : 2);
    t[k] = 1;
    e1[0] = d[1] * t[2] - d[2] * t[1];
    e1[1] = d[2] * t[0] - d[0] * t[2];
    e1[2] = d[0] * t[1] - d[1] * t[0];
    double l = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (int i = 0; i < 3; i++)
        e1[i] /= l;
    e2[0] = d[1] * e1[2] - d[2] * e1[1];
    e2[1] = d[2] * e1[0] - d[0] * e1[2];
    e2[2] = d[0] * e1[1] - d[1] * e1[0];
}

void mur_v3_cap(const double d[3], double half, double u1, double u2, double out[3])
{
    double c = cos(half), z = 1 - u1 * (1 - c), r = sqrt(fmax(0, 1 - z * z)), phi = 2 * M_PI * u2;
    double e1[3], e2[3];
    mur_v3_frame(d, e1, e2);
    for (int i = 0; i < 3; i++)
        out[i] = r * cos(phi) * e1[i] + r * sin(phi) * e2[i] + z * d[i];
}

void mur_v3_turn(const double a[3], const double b[3], double most, double out[3])
{
    /* Rotation about k = unit(a x b): a cos(most) + (k x a) sin(most), k
     * being normal to a. On level a and b (z = 0) this is, bit for bit,
     * the plane's rotation by +-most (h cos - h_perp sin): a x b is (0, 0,
     * cross) and |a x b| = sqrt(cross^2) = |cross|, so k = (0, 0, +-1); the
     * angle is atan2(|cross|, a . b), which atan2's oddness makes |the
     * plane's|; sin and cos of -most are -sin and cos of most. */
    double n[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    double c = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    double s = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (atan2(s, c) <= most) {
        for (int i = 0; i < 3; i++)
            out[i] = b[i];
        return;
    }
    double k[3];
    if (s > 0) {
        for (int i = 0; i < 3; i++)
            k[i] = n[i] / s;
    } else if (a[2] == 0) {
        /* opposite and level: about the up axis, to the side the sign of
         * the zero cross picks (the plane's atan2(+-0, -1) = +-pi) */
        k[0] = k[1] = 0;
        k[2] = copysign(1, n[2]);
    } else {
        double e2[3];
        mur_v3_frame(a, k, e2);
    }
    double w[3] = {k[1] * a[2] - k[2] * a[1], k[2] * a[0] - k[0] * a[2], k[0] * a[1] - k[1] * a[0]};
    double cm = cos(most), sm = sin(most);
    for (int i = 0; i < 3; i++)
        out[i] = a[i] * cm + w[i] * sm;
}
