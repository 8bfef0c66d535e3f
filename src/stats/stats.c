/* The statistics of stats.h: the Tunstrom state label, percentiles by
 * numpy's default rule, and the median/p10/p90/mean summary. */
#include "murmur/stats.h"

#include <math.h>
#include <stdlib.h>

/* ---- state label --------------------------------------------------------- */

mur_state mur_state_classify(double order, double milling)
{
    /* Written so that NaN fails every test and falls through. */
    int order_low = order < MUR_STATE_LOW, order_high = order > MUR_STATE_HIGH;
    int mill_low = milling < MUR_STATE_LOW, mill_high = milling > MUR_STATE_HIGH;
    if (order_high && mill_low)
        return MUR_STATE_POLARIZED;
    if (mill_high && order_low)
        return MUR_STATE_MILLING;
    if (order_low && mill_low)
        return MUR_STATE_SWARM;
    return MUR_STATE_TRANSITION;
}

const char *mur_state_name(mur_state s)
{
    switch (s) {
    case MUR_STATE_SWARM: return "swarm";
    case MUR_STATE_MILLING: return "milling";
    case MUR_STATE_POLARIZED: return "polarized";
    default: return "transition";
    }
}

/* ---- percentiles --------------------------------------------------------- */

double mur_percentile(const double *sorted, int n, double p)
{
    if (n < 1)
        return NAN;
    double h = (n - 1) * (p / 100.0);
    if (!(h > 0))
        return sorted[0];  /* also p < 0 */
    if (h >= n - 1)
        return sorted[n - 1];
    int lo = (int)h;
    double frac = h - lo;
    /* x0 + frac (x1 - x0) rather than a weighted sum: equal neighbours give
     * exactly their value. */
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void mur_summary_compute(mur_summary *out, double *values, int n)
{
    out->n = n;
    out->median = out->p10 = out->p90 = out->mean = NAN;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        if (isnan(values[i]))
            return;  /* qsort's order is undefined with NaNs: stop before sorting */
        sum += values[i];
    }
    if (n < 1)
        return;
    qsort(values, (size_t)n, sizeof *values, cmp_double);
    out->median = mur_percentile(values, n, 50);
    out->p10 = mur_percentile(values, n, 10);
    out->p90 = mur_percentile(values, n, 90);
    out->mean = sum / n;
}
