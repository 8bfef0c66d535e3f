/* murmur: the chaos twins of an experiment (docs/scenes.md
 * `experiment.twin`, docs/model.md "Divergence").
 *
 * A twin is a second flock made exactly as a run's flock is (same
 * settings, seed and warm-up, so equal to it bit for bit), then moved by
 * the scene's shift or nudged by its perturbation at tick 0, and stepped
 * through the same timeline. Its predators move with it, so a shifted twin
 * on a torus is the same flock written in other coordinates: it differs
 * from the first only by rounding, which the dynamics then amplify. */
#ifndef MURMUR_TWIN_H
#define MURMUR_TWIN_H

#include "murmur/export.h"

#include <signal.h>
#include <stdint.h>

#include "murmur/divergence.h"
#include "murmur/error.h"
#include "murmur/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A run's twin. Zero-initialise; mur_twin_free releases it.
typedef struct mur_twin {
    mur_flock *flock;    ///< the twin (owned)
    mur_driver *driver;  ///< steps it through the scene's timeline (owned)
    double shift[2];     ///< how far it was moved along x and y, world units (0, 0 for a perturbation;
                         ///< a 3D world's z: mur_twin_offset)
} mur_twin;

/// The numbers a twin experiment adds per run (`murmur stats` rows):
/// doubling_time, then the ticks to each of the sizes of mur_twin_size.
#define MUR_TWIN_METRIC_COUNT 4

/// Name of twin metric k: "doubling_time", "ticks_to_1e-9",
/// "ticks_to_1e-5", "ticks_to_1"; "?" out of range.
MUR_API const char *mur_twin_metric_name(int k);

/// The divergence, world units, whose first tick twin metric k (1..3)
/// reports: 1e-9, 1e-5, 1; 0 for k = 0.
MUR_API double mur_twin_size(int k);

/// A twin experiment's record of one tick of one run.
typedef struct mur_twin_record {
    mur_divergence divergence;   ///< between the run's flock and its twin, world units
    double twin_order;           ///< the twin's order parameter
} mur_twin_record;

/// What one run's divergence series gives (mur_twin_result_compute).
typedef struct mur_twin_result {
    mur_growth growth;                      ///< the fit of the RMS divergence
    double value[MUR_TWIN_METRIC_COUNT];    ///< doubling time (ticks), ticks to each size; +inf when censored
} mur_twin_result;

/// The result of a run from its RMS divergence rms[0..n) (n = ticks + 1):
/// the growth fit, its doubling time, the first tick reaching each size.
/// A run whose divergence never reaches a size, or shows no exponential
/// range, has +inf there: censored, beyond the run's length.
MUR_API void mur_twin_result_compute(const double *rms, long n, mur_twin_result *out);

/// The shift s->twin asks of a world of settings p, world units (half-box:
/// half of p's width and height; a perturbation: 0, 0).
MUR_API void mur_twin_shift(const mur_scene *s, const mur_params *p, double out[2]);

/// The same with the third axis, world units (x, y, z): a 3D world's half-box is half
/// of p's width, height and depth, its [dx, dy, dz] as written ([dx, dy]: dz 0); z is 0
/// in 2D. s: from mur_scene_load or mur_scene_parse (mur_scene_twin_shift).
MUR_API void mur_twin_shift3(const mur_scene *s, const mur_params *p, double out[3]);

/// Start the twin of a run whose flock was created from base with seed and
/// started by a driver of scene s: the same again, then moved or nudged at
/// tick 0 as s->twin says (s->twin.kind must not be MUR_TWIN_NONE). threads:
/// the flock's worker threads (mur_flock_set_threads; 1 for an experiment's
/// job); stop as mur_driver_set_stop. 0, MUR_ERUN, MUR_EINPUT or MUR_EINTR as
/// mur_driver_start; on failure t is freed.
MUR_API int mur_twin_start(mur_twin *t, const mur_scene *s, const mur_params *base, uint64_t seed,
                           int threads, volatile sig_atomic_t *stop, mur_error *err);

/// Step the twin to `tick`, as mur_driver_run_to.
MUR_API int mur_twin_run_to(mur_twin *t, long tick, mur_error *err);

/// How far started twin t was moved, world units: x and y as t->shift, and z (0 in 2D)
/// as its predators were moved along z (mur_driver_predator_shift3: taken into
/// [0, depth) on a wrapping world, the same move there). What its ghost and its
/// divergence undo (mur_renderer_set_ghost3, mur_divergence_measure3).
MUR_API void mur_twin_offset(const mur_twin *t, double out[3]);

/// The divergence between first and its twin t, world units (in 3D along z too).
MUR_API void mur_twin_measure(const mur_twin *t, const mur_flock *first, mur_divergence *out);

/// Free the twin's flock and driver; t is zeroed. NULL or an unstarted twin is fine.
MUR_API void mur_twin_free(mur_twin *t);

#ifdef __cplusplus
}
#endif

#endif
