/* Paired effects of an experiment's conditions against a baseline
 * (experiment.h): the run-by-run differences of one metric, summarised by
 * mur_effect_compute (core/bootstrap.c), of the value each run gives a
 * summary (mur_experiment_value).
 *
 * The bootstrap's seed is a hash of the scene's seed, the two conditions'
 * names and the metric: an interval does not depend on the order the
 * conditions are written in, on which others run beside them, or on the
 * threads that ran them. */
#include <math.h>

#include "murmur/experiment.h"
#include "murmur/alloc.h"
#include "murmur/rng.h"

/* FNV-1a of a name: a condition's part of the seed. */
static uint64_t name_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

int mur_experiment_effect(const mur_experiment *e, int c, int base, int k, mur_effect *out, mur_error *err)
{
    /* A recording is one run: its run 0 is paired with each of the other
     * side's runs (copies of it would make an interval of nothing). */
    int rc_c = mur_experiment_condition_runs(e, c), rc_b = mur_experiment_condition_runs(e, base);
    int runs = rc_c > rc_b ? rc_c : rc_b;
    double *d = mur_malloc((size_t)runs * sizeof *d);
    if (!d)
        return mur_error_set(err, MUR_ERUN, "out of memory for paired differences");
    /* Each run's measured value (experiment.measure: the window's mean
     * when there is one), the very number the summary and --runs-out give:
     * an effect never depends on which column a reader picks. */
    for (int r = 0; r < runs; r++)
        d[r] = mur_experiment_value(e, c, r < rc_c ? r : 0, k) - mur_experiment_value(e, base, r < rc_b ? r : 0, k);
    uint64_t seed = mur_hash3(mur_experiment_scene(e)->seed, name_hash(mur_experiment_condition_name(e, c)),
                              name_hash(mur_experiment_condition_name(e, base)));
    int rc = mur_effect_compute(out, d, runs, MUR_EFFECT_LEVEL, MUR_BOOTSTRAP_RESAMPLES, mur_hash3(seed, (uint64_t)k, 0));
    mur_free(d);
    if (!rc && runs == 1)   /* one difference: no interval to give */
        out->ci_low = out->ci_high = NAN;
    return rc ? mur_error_set(err, MUR_ERUN, "out of memory for a bootstrap") : MUR_OK;
}
