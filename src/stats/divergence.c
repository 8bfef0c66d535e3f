/* Divergence of twin flocks (divergence.h): per-tick distances and the fit
 * of their exponential growth.
 *
 * The distance undoes the shift before taking the nearest image, with
 * remainder(), which is exact: a twin moved by half the box and folded back
 * into the world measures the rounding of that move and nothing else. */
#include "murmur/divergence.h"

#include <math.h>

void mur_divergence_measure(const mur_flock *a, const mur_flock *b, double sx, double sy,
                            mur_divergence *out)
{
    const double shift[3] = {sx, sy, 0};
    mur_divergence_measure3(a, b, shift, out);
}

/* In the plane dz is 0 and d2 gains + 0.0, which leaves its bits as they
 * were: 2D outputs keep their bytes. */
void mur_divergence_measure3(const mur_flock *a, const mur_flock *b, const double shift[3],
                             mur_divergence *out)
{
    const mur_params *p = mur_flock_params(a);
    int n = mur_flock_count(a) < mur_flock_count(b) ? mur_flock_count(a) : mur_flock_count(b);
    const double *xa = mur_flock_x(a), *ya = mur_flock_y(a), *xb = mur_flock_x(b), *yb = mur_flock_y(b);
    const double *za = mur_flock_z(a), *zb = mur_flock_z(b);
    int wrap = p->boundary == MUR_BOUNDARY_WRAP, depth = za && zb;
    double sum = 0, max = 0;
    for (int i = 0; i < n; i++) {
        double dx = (xb[i] - xa[i]) - shift[0], dy = (yb[i] - ya[i]) - shift[1];
        double dz = depth ? (zb[i] - za[i]) - shift[2] : 0;
        if (wrap) {
            dx = remainder(dx, p->width);
            dy = remainder(dy, p->height);
            if (depth)
                dz = remainder(dz, p->depth);
        }
        double d2 = dx * dx + dy * dy + dz * dz;
        sum += d2;
        if (d2 > max)
            max = d2;
    }
    out->rms = n > 0 ? sqrt(sum / n) : 0;
    out->max = sqrt(max);
}

long mur_divergence_first_reaching(const double *d, long n, double size)
{
    for (long t = 0; t < n; t++)
        if (d[t] >= size)
            return t;
    return -1;
}

void mur_growth_fit(const double *d, long n, mur_growth *out)
{
    *out = (mur_growth){NAN, NAN, NAN, -1, -1};
    if (n < 1)
        return;
    /* A hundredfold above the start: a nudge takes some ticks to turn into
     * the direction that grows fastest, and those ticks are not the rate. */
    double floor = fmax(MUR_GROWTH_FLOOR, 100 * d[0]);
    long first = mur_divergence_first_reaching(d, n, floor);
    if (first < 0)
        return;
    long top = mur_divergence_first_reaching(d, n, MUR_GROWTH_CEILING);
    long last = top < 0 ? n - 1 : top - 1;
    if (last - first + 1 < MUR_GROWTH_MIN_TICKS)
        return;
    /* Centred sums: ticks reach 1e7, and t^2 summed would lose the slope's
     * digits to cancellation. */
    double tm = 0.5 * (double)(first + last), ym = 0;
    for (long t = first; t <= last; t++) {
        if (!(d[t] > 0))
            return;
        ym += log(d[t]);
    }
    ym /= (double)(last - first + 1);
    double sty = 0, stt = 0;
    for (long t = first; t <= last; t++) {
        double u = (double)t - tm;
        sty += u * (log(d[t]) - ym);
        stt += u * u;
    }
    double rate = sty / stt;
    out->first = first;
    out->last = last;
    out->rate = rate;
    out->log_d0 = ym - rate * tm;
    out->doubling_time = rate > 0 ? log(2.0) / rate : NAN;
}
