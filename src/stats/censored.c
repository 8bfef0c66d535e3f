/* Summaries of times to an event with censored runs (stats.h,
 * mur_summary_censored).
 *
 * A run that never reaches the event is known only to take longer than
 * the run: dropping it would make the flock look faster than it is, and
 * counting its length as its time would too. Every run has the same
 * length, so the runs censored are the slowest, and a percentile is known
 * exactly while it needs only observed times. */
#include "murmur/stats.h"

#include <math.h>
#include <stdlib.h>

/* Type 7 percentile of n sorted values (mur_percentile), NaN when it needs
 * a censored one. */
static double percentile(const double *sorted, int n, double p)
{
    double h = (n - 1) * (p / 100.0);
    int lo = (int)h;
    if (lo >= n - 1)
        return isfinite(sorted[n - 1]) ? sorted[n - 1] : NAN;
    if (!isfinite(sorted[lo]) || (h > lo && !isfinite(sorted[lo + 1])))
        return NAN;
    return h > lo ? mur_percentile(sorted, n, p) : sorted[lo];
}

void mur_summary_censored(mur_summary *out, double *values, int n, int *censored)
{
    *censored = 0;
    int nan = 0;
    for (int i = 0; i < n; i++) {
        nan |= isnan(values[i]);
        *censored += isinf(values[i]) != 0;
    }
    /* sorts the values (censored last) unless one is NaN: every field is then NaN */
    mur_summary_compute(out, values, n);
    if (nan || !*censored)
        return;
    out->median = percentile(values, n, 50);
    out->p10 = percentile(values, n, 10);
    out->p90 = percentile(values, n, 90);
    out->mean = NAN;   /* unknown: the censored runs took longer than they ran */
}
