/* Principal axes of a 3D group: shape3.h. The covariance is taken about
 * the mean (two passes, for accuracy); Jacobi rotations zero its
 * off-diagonal terms until they are below 1e-15 of its trace, at most 50
 * sweeps (a 3 x 3 matrix needs fewer than 10). */
#include "shape3.h"

#include <math.h>
#include <string.h>

static void rotate(double a[3][3], double v[3][3], int p, int q)
{
    if (a[p][q] == 0)
        return;
    double th = (a[q][q] - a[p][p]) / (2 * a[p][q]);
    double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
    double c = 1 / sqrt(t * t + 1), s = t * c;
    for (int k = 0; k < 3; k++) {
        double akp = a[k][p], akq = a[k][q];
        a[k][p] = c * akp - s * akq;
        a[k][q] = s * akp + c * akq;
    }
    for (int k = 0; k < 3; k++) {
        double apk = a[p][k], aqk = a[q][k];
        a[p][k] = c * apk - s * aqk;
        a[q][k] = s * apk + c * aqk;
    }
    for (int k = 0; k < 3; k++) {
        double vkp = v[k][p], vkq = v[k][q];
        v[k][p] = c * vkp - s * vkq;
        v[k][q] = s * vkp + c * vkq;
    }
}

void mur_sym3_eigen(const double m[9], double ev[3], double axis[3][3])
{
    double a[3][3], v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    memcpy(a, m, sizeof a);
    double scale = fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]) + 1e-300;
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        if (off <= 1e-15 * scale)
            break;
        rotate(a, v, 0, 1);
        rotate(a, v, 0, 2);
        rotate(a, v, 1, 2);
    }
    int o[3] = {0, 1, 2};
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (a[o[j]][o[j]] > a[o[i]][o[i]]) {
                int t = o[i];
                o[i] = o[j];
                o[j] = t;
            }
    for (int k = 0; k < 3; k++) {
        ev[k] = a[o[k]][o[k]];
        for (int i = 0; i < 3; i++)
            axis[k][i] = v[i][o[k]];
    }
}

int mur_shape3(size_t n, const double *x, const double *y, const double *z, double extent[3],
               double axis[3][3])
{
    if (n < 1)
        return -1;
    const double *p[3] = {x, y, z};
    double c[3] = {0, 0, 0}, cov[9] = {0};
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i < n; i++)
            c[k] += p[k][i];
        c[k] /= (double)n;
    }
    for (size_t i = 0; i < n; i++)
        for (int r = 0; r < 3; r++)
            for (int s = 0; s < 3; s++)
                cov[r * 3 + s] += (p[r][i] - c[r]) * (p[s][i] - c[s]) / (double)n;
    double ev[3];
    mur_sym3_eigen(cov, ev, axis);
    for (int k = 0; k < 3; k++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            double t = (p[0][i] - c[0]) * axis[k][0] + (p[1][i] - c[1]) * axis[k][1] + (p[2][i] - c[2]) * axis[k][2];
            lo = fmin(lo, t);
            hi = fmax(hi, t);
        }
        extent[k] = hi - lo;
    }
    return 0;
}
