/* Paired effects with bootstrap intervals (stats.h): how much condition B
 * changes a metric against the baseline A, as the median of the run-by-run
 * differences B_k - A_k, with a percentile-bootstrap confidence interval
 * (Efron & Tibshirani 1993, ch. 13).
 *
 * Run k of every condition starts from the same boids, so the difference
 * pairs away the spread that comes from the start; the bootstrap asks how
 * far the median of n such differences moves when the n runs are drawn
 * again with replacement. Resampling is seeded and sequential, so an
 * interval is the same bits on any machine and for any thread count. Each
 * resample's median comes from a selection, not a sort: O(n) per
 * resample, so 2000 resamples of 100000 runs stay under a second. */
#include "murmur/stats.h"
#include "murmur/alloc.h"
#include "murmur/error.h"
#include "murmur/rng.h"

#include <math.h>
#include <stdlib.h>

/* Leaves x[k] as the k-th smallest of x[0..n), smaller ones before it and
 * larger after (Hoare's selection with a middle pivot). */
static void select_kth(double *x, int n, int k)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = x[lo + (hi - lo) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (x[i] < pivot)
                i++;
            while (x[j] > pivot)
                j--;
            if (i <= j) {
                double t = x[i];
                x[i++] = x[j];
                x[j--] = t;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return;
    }
}

/* The median of x[0..n) by numpy's linear rule (reorders x). */
static double median_of(double *x, int n)
{
    int k = (n - 1) / 2;
    select_kth(x, n, k);
    if (n % 2)
        return x[k];
    double next = x[k + 1];
    for (int i = k + 2; i < n; i++)
        next = x[i] < next ? x[i] : next;
    return x[k] + 0.5 * (next - x[k]);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int mur_effect_compute(mur_effect *out, const double *d, int n, double level, int resamples, uint64_t seed)
{
    out->n = n;
    out->median = out->ci_low = out->ci_high = NAN;
    int nan = n < 1 || resamples < 1 || !(level > 0 && level < 100);
    for (int i = 0; i < n && !nan; i++)
        nan = isnan(d[i]);
    if (nan)
        return MUR_OK;
    double *x = mur_malloc((size_t)n * sizeof *x), *meds = mur_malloc((size_t)resamples * sizeof *meds);
    if (!x || !meds) {
        mur_free(x);
        mur_free(meds);
        return MUR_ERUN;
    }
    for (int i = 0; i < n; i++)
        x[i] = d[i];
    out->median = median_of(x, n);
    mur_rng rng;
    mur_rng_seed(&rng, seed);
    for (int b = 0; b < resamples; b++) {
        for (int i = 0; i < n; i++)   /* 53 random bits to an index: no modulo bias worth the name */
            x[i] = d[(int)(mur_rng_uniform(&rng) * n)];
        meds[b] = median_of(x, n);
    }
    qsort(meds, (size_t)resamples, sizeof *meds, cmp_double);
    out->ci_low = mur_percentile(meds, resamples, (100 - level) / 2);
    out->ci_high = mur_percentile(meds, resamples, (100 + level) / 2);
    mur_free(x);
    mur_free(meds);
    return MUR_OK;
}
