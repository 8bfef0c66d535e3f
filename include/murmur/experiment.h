/* murmur: ensembles of runs, for numbers with a range (`murmur stats`,
 * `murmur series`).
 *
 * An experiment runs every condition of a scene's `experiment` (or just the
 * scene's own settings) `runs` times for `ticks` ticks. Run k of every
 * condition starts from the same seed, mur_rng_derive(scene seed, k), so the
 * conditions are paired: condition A's run k and condition B's run k begin
 * from the same boids. Each run follows the scene's timeline through
 * mur_driver, with the condition's overrides as the base settings, exactly as
 * a panel of `layout: conditions` does.
 *
 * Runs are independent jobs spread over a pool of threads (each job steps a
 * single-threaded flock); every job writes only its own slots of the result,
 * so the numbers are bit-identical for any thread count. Their summaries
 * (median, percentiles, mean) and the state label are stats.h's. */
#ifndef MURMUR_EXPERIMENT_H
#define MURMUR_EXPERIMENT_H

#include "murmur/export.h"

#include <signal.h>

#include "murmur/error.h"
#include "murmur/metrics.h"
#include "murmur/scene.h"
#include "murmur/stats.h"
#include "murmur/twin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- experiments -------------------------------------------------------- */

/// Upper bound on the numbers one experiment keeps (conditions x runs x
/// recorded ticks x metrics), checked before allocating: 2^26 doubles, 512 MiB.
#define MUR_EXPERIMENT_MAX_VALUES (1L << 26)

/// What to run. Zero-initialise, then set what differs.
/// The version of mur_experiment_def this header describes.
#define MUR_EXPERIMENT_DEF_VERSION 4

/// Most statistics of the caller's own one experiment computes (def.nextra).
#define MUR_EXPERIMENT_MAX_EXTRA 16

/// A caller's statistics of run `run` of condition c's flock at a measured
/// tick: writes def.nextra values to out; 0, or non-zero to fail the
/// experiment (MUR_ERUN). Called on worker threads, several at once.
typedef int (*mur_experiment_extra_fn)(void *ctx, const mur_flock *f, int c, int run, double *out);

typedef struct mur_experiment_def {
    unsigned version;   ///< MUR_EXPERIMENT_DEF_VERSION
    int runs;           ///< runs per condition, 1..100000 (0: the scene's experiment.runs)
    long ticks;         ///< ticks per run after the warm-up, 1..1e7 (0: the scene's experiment.ticks)
    int scene_only;     ///< 1: one condition, the scene's own settings (named "scene"); 0: every experiment condition
    int every_tick;     ///< 1: keep the metrics of ticks 0..ticks (a series); 0: only the last tick's
    int threads;        ///< worker threads, 0 = all cores; the results do not depend on it
    volatile sig_atomic_t *stop; ///< polled every tick: nonzero ends the experiment with MUR_EINTR (may be NULL)
    void (*progress)(void *ctx, long done, long total); ///< runs done of total, called on the calling thread (may be NULL)
    void *progress_ctx;
    const char *condition; ///< (version 2) run this experiment condition alone, by name (NULL: as scene_only says)
    int shard, shards;  ///< (version 3) run only the jobs of shard `shard` (1..shards) of `shards` (murmur/shard.h); 0, 0: every job
    int nextra;         ///< (version 4) statistics of the caller's own, 0..MUR_EXPERIMENT_MAX_EXTRA
    mur_experiment_extra_fn extra; ///< (version 4) computes them at each run's measured tick: the
                                   ///< last, or every sample of measure.window, averaged as the metrics are
    void *extra_ctx;
} mur_experiment_def;

/// A mur_experiment_def of this version, every other field zero (the
/// scene's runs and ticks, every condition, all cores).
#define MUR_EXPERIMENT_DEF_INIT {.version = MUR_EXPERIMENT_DEF_VERSION}

/// Fill *out with MUR_EXPERIMENT_DEF_INIT (for C++ and bindings, which cannot use the macro).
MUR_API void mur_experiment_def_init(mur_experiment_def *out);

/// The results of an experiment: the metrics of every condition, run and
/// recorded tick.
typedef struct mur_experiment mur_experiment;

/// Run an experiment on scene s. 0, MUR_EINPUT (a def value out of range, or
/// too many values to keep), MUR_ERUN (memory, threads, a flock error) or
/// MUR_EINTR (stopped); MUR_EINPUT also when def->condition names no
/// condition (the message lists them), or a shard out of range. Version 1
/// and 2 defs are still taken. A sharded experiment fills only its shard's
/// jobs (the others stay empty): write it with mur_experiment_shard_write.
/// The caller owns *out (mur_experiment_destroy); the
/// scene must outlive it.
MUR_API int mur_experiment_run(mur_experiment **out, const mur_scene *s, const mur_experiment_def *def,
                       mur_error *err);

/// Value of setting st in condition c of e: the condition's own (a sweep's
/// grid point, say), else the scene's flock setting. Choices give their index.
MUR_API double mur_experiment_condition_value(const mur_experiment *e, int c, const mur_setting *st);

/// Level of the paired effects' confidence intervals, percent.
#define MUR_EFFECT_LEVEL 95.0

/// The paired effect of metric k (mur_metric_name order) in condition c
/// against condition base, of each run's measured value (mur_experiment_value:
/// the last tick's, or the mean of the measure window): the median of the
/// run-by-run differences (c's run r minus base's run r) and its MUR_EFFECT_LEVEL%
/// percentile-bootstrap interval (MUR_BOOTSTRAP_RESAMPLES resamples,
/// seeded from the scene's seed, both conditions' names and k: the same
/// bits for any thread count, and for c = base exactly 0 in [0, 0]).
/// A recording (mur_experiment_condition_runs 1) is one run: against
/// model runs its one value is paired with each of them (the interval
/// resamples the model's runs); a recording against a recording is one
/// difference with no interval (ci_low, ci_high NaN).
/// 0, or MUR_ERUN when out of memory.
MUR_API int mur_experiment_effect(const mur_experiment *e, int c, int base, int k, mur_effect *out,
                                  mur_error *err);

/// Free an experiment; NULL is fine.
MUR_API void mur_experiment_destroy(mur_experiment *e);

/// Number of conditions (1 when scene_only).
MUR_API int mur_experiment_conditions(const mur_experiment *e);

/// Name of condition c (owned by the scene or the experiment).
MUR_API const char *mur_experiment_condition_name(const mur_experiment *e, int c);

/// Overrides of condition c (NULL and 0 when scene_only).
MUR_API const mur_condition *mur_experiment_condition(const mur_experiment *e, int c);

/// Runs per condition.
MUR_API int mur_experiment_runs(const mur_experiment *e);

/// Runs of condition c that count: 1 for a recording (a condition, or a
/// scene, that replays a recorded flock: every run of it is the same
/// frames), else mur_experiment_runs. Summaries, --runs-out and paired
/// effects use this many.
MUR_API int mur_experiment_condition_runs(const mur_experiment *e, int c);

/// Ticks per run (the last tick's index).
MUR_API long mur_experiment_ticks(const mur_experiment *e);

/// Whether every tick was kept (else only the last).
MUR_API int mur_experiment_every_tick(const mur_experiment *e);

/// The metrics the experiment computed (bit k: metric k): the default set
/// (mur_metrics_default_mask) and those the scene names in experiment.metrics
/// and experiment.until; the others are NaN in its results.
MUR_API unsigned mur_experiment_metrics_kept(const mur_experiment *e);

/// The scene it ran.
MUR_API const mur_scene *mur_experiment_scene(const mur_experiment *e);

/// Metrics of condition c, run r after `tick` ticks. tick is 0..ticks when
/// every tick was kept, else it must be ticks.
MUR_API const mur_metrics *mur_experiment_metrics(const mur_experiment *e, int c, int r, long tick);

/// A twin experiment's record (scene experiment.twin) of condition c, run r
/// after `tick` ticks (0..ticks, kept every tick whether or not the
/// metrics are); NULL when the scene has no twin.
MUR_API const mur_twin_record *mur_experiment_twin(const mur_experiment *e, int c, int r, long tick);

/// What run r of condition c's divergence series gives (doubling time,
/// ticks to each size); NULL when the scene has no twin.
MUR_API const mur_twin_result *mur_experiment_twin_result(const mur_experiment *e, int c, int r);

/// Twin metric k (mur_twin_metric_name) of condition c across all runs,
/// censored runs counted (mur_summary_censored); *censored gets their
/// number. The scene must have a twin. Uses scratch inside e, as
/// mur_experiment_summary.
MUR_API void mur_experiment_twin_summary(const mur_experiment *e, int c, int k, mur_summary *out,
                                         int *censored);

/// The value of metric k that run r of condition c gives a summary (the
/// scene's experiment.measure): the value at the last tick, or the mean of
/// the samples of the final window.
MUR_API double mur_experiment_value(const mur_experiment *e, int c, int r, int k);

/// Statistics of the caller's own the experiment computed (def.nextra).
MUR_API int mur_experiment_nextra(const mur_experiment *e);

/// Value j (0..nextra) of the caller's statistics for run r of condition c:
/// def.extra's value at the measured tick (the window's mean with measure.window).
MUR_API double mur_experiment_extra(const mur_experiment *e, int c, int r, int j);

/// The first tick (0..ticks) at which the scene's experiment.until entry i
/// held in run r of condition c, or +inf when it never did (censored). The
/// scene must have that entry.
MUR_API double mur_experiment_until(const mur_experiment *e, int c, int r, int i);

/// until entry i of condition c across all runs, censored runs counted
/// (mur_summary_censored). Scratch as mur_experiment_summary.
MUR_API void mur_experiment_until_summary(const mur_experiment *e, int c, int i, mur_summary *out,
                                          int *censored);

/// Settings the scene's timeline changes (`set` or `ramp`), in order of first
/// appearance, each once; writes up to max of them to out and returns how many.
MUR_API int mur_experiment_swept(const mur_experiment *e, const mur_setting **out, int max);

/// Settings of condition c after `tick` ticks: the timeline's values at
/// t = tick / ticks_per_second on top of the condition's overrides.
MUR_API void mur_experiment_params_at(const mur_experiment *e, int c, long tick, mur_params *out);

/// Value of one setting st of condition c after `tick` ticks (as above).
MUR_API double mur_experiment_setting_at(const mur_experiment *e, int c, const mur_setting *st, long tick);

/// Metric k (mur_metric_name order) of condition c across all runs after
/// `tick` ticks (at the last tick of a summary, not a series, the value
/// experiment.measure asks for: mur_experiment_value). Uses scratch inside e: not for concurrent calls on one e.
MUR_API void mur_experiment_summary(const mur_experiment *e, int c, long tick, int k, mur_summary *out);

/// The provenance of a file made from e (mur_scene_provenance of its scene),
/// with what was run: "experiment: C conditions x R runs x T ticks" (", every
/// tick" for a series) and the conditions' names. json: 0 the text, 1 the
/// JSON object (mur_scene_provenance_json). The caller frees *out with
/// mur_free. 0, or MUR_ERUN when out of memory.
MUR_API int mur_experiment_provenance(const mur_experiment *e, int json, char **out, mur_error *err);

#ifdef __cplusplus
}
#endif

#endif
