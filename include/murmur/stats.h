/* murmur: the statistics the numbers for papers quote: percentiles, a
 * summary of a set of values, and the collective state label. Part of the
 * core (libm only), so whatever summarises runs, a table, a plot or a
 * host program, uses the same definitions.
 *
 * Percentiles use linear interpolation between closest ranks (numpy's
 * default, Hyndman & Fan type 7): for sorted x[0..n-1] and p in [0, 100],
 * h = (n - 1) p / 100 and the value is x[floor h] + (h - floor h) *
 * (x[floor h + 1] - x[floor h]). The median is the 50th percentile. */
#ifndef MURMUR_STATS_H
#define MURMUR_STATS_H

#include "murmur/export.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the state label (Tunstrom et al. 2013) ----------------------------- */

/// The collective state of a flock from its order (polarization) and milling
/// (rotation order), after Tunstrom et al. 2013, PLoS Comput Biol 9:e1002915.
typedef enum {
    MUR_STATE_TRANSITION,  ///< none of the three below (mixed, or moving between them)
    MUR_STATE_SWARM,       ///< order < 0.35 and milling < 0.35: no common heading, no rotation
    MUR_STATE_MILLING,     ///< milling > 0.65 and order < 0.35: rotating about a centre
    MUR_STATE_POLARIZED,   ///< order > 0.65 and milling < 0.35: moving together
} mur_state;

#define MUR_STATE_LOW 0.35   ///< below this a parameter counts as low
#define MUR_STATE_HIGH 0.65  ///< above this it counts as high

/// The state of a flock with order parameter `order` and milling `milling`
/// (both in [0, 1]); the thresholds are strict, so 0.35 itself is not low.
/// NaN in either gives MUR_STATE_TRANSITION.
MUR_API mur_state mur_state_classify(double order, double milling);

/// "swarm", "milling", "polarized" or "transition" (static storage).
MUR_API const char *mur_state_name(mur_state s);

/* ---- percentiles -------------------------------------------------------- */

/// p-th percentile (p in [0, 100]) of n >= 1 values sorted ascending, by
/// linear interpolation between closest ranks (see the top of this file).
MUR_API double mur_percentile(const double *sorted, int n, double p);

/// Median, 10th and 90th percentile and mean of a set of values.
typedef struct mur_summary {
    double median, p10, p90, mean;
    int n;                 ///< number of values summarised
} mur_summary;

/// Summarise n values; sorts `values` in place. A NaN among them, or n = 0,
/// makes every field NaN (a metric that failed must not pass for a number).
MUR_API void mur_summary_compute(mur_summary *out, double *values, int n);

/* ---- paired effects (bootstrap.c) ---------------------------------------- */

/// Resamples of a bootstrap confidence interval (mur_effect_compute).
#define MUR_BOOTSTRAP_RESAMPLES 2000

/// A paired effect: the median of n paired differences (run k of a
/// condition minus run k of the baseline) and its percentile-bootstrap
/// confidence interval.
typedef struct mur_effect {
    double median;         ///< median of the differences (numpy's linear rule)
    double ci_low, ci_high; ///< the interval's ends: percentiles (100 - level) / 2 and (100 + level) / 2 of the resampled medians
    int n;                 ///< differences
} mur_effect;

/// The paired effect of differences d[0..n) with a `level`% (0 < level <
/// 100, usually 95) interval from `resamples` resamples of n differences
/// drawn with replacement by xoshiro256** seeded with seed: the same
/// inputs give the same bits on any machine and thread. Equal differences
/// give a zero-width interval at their value. n = 0 or a NaN among them
/// makes every field NaN. d is not changed. 0, or MUR_ERUN when out of memory.
MUR_API int mur_effect_compute(mur_effect *out, const double *d, int n, double level, int resamples,
                               uint64_t seed);

#ifdef __cplusplus
}
#endif

#endif
