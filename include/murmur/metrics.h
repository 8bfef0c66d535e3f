/* murmur: the flock metrics of docs/model.md, computed with a neighbour grid so
 * they can run every frame (O(N x neighbours), no O(N^2) pass). */
#ifndef MURMUR_METRICS_H
#define MURMUR_METRICS_H

#include "murmur/export.h"

#include "murmur/flock.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The metrics of one state.
typedef struct mur_metrics {
    double order;       ///< polarization |sum unit(v)| / N, in [0, 1]
    double nearest;     ///< mean nearest-neighbour distance, world units (0 when N < 2)
    double neighbours;  ///< mean count of other boids within the cohesion radius
    int clusters;       ///< connected components joining boids closer than R_coh
    double largest;     ///< largest cluster's share of N, in [0, 1]
    double milling;     ///< rotation order (Couzin 2002), size-weighted over clusters, [0, 1]
} mur_metrics;

/// Number of metrics: the fields of mur_metrics, in order.
#define MUR_METRIC_COUNT 6

/// Indices of the metrics, in that order: bit k of a `want` mask
/// (mur_metrics_compute_some) asks for metric k.
enum {
    MUR_METRIC_ORDER,
    MUR_METRIC_NEAREST,
    MUR_METRIC_NEIGHBOURS,
    MUR_METRIC_CLUSTERS,
    MUR_METRIC_LARGEST,
    MUR_METRIC_MILLING
};

/// What every reader of a metric needs to know about it, from one table:
/// the scene loader and `check` (names), tables (names), the readout
/// (decimals), plots (titles, units, range) and the docs (definitions).
typedef struct mur_metric_info {
    const char *name;        ///< "order": the scene key and the CSV column
    const char *title;       ///< "order (polarization)": plot titles
    const char *unit;        ///< "world units", "boids", ... or "" for a share of the flock
    int decimals;            ///< decimals a readout shows
    int unit_interval;       ///< 1 when every value lies in [0, 1]
    const char *definition;  ///< one line: what is measured
} mur_metric_info;

/// Metric k (0 <= k < MUR_METRIC_COUNT), or NULL; static storage.
MUR_API const mur_metric_info *mur_metric_info_at(int k);

/// Name of metric k ("order"), or "?" when k is out of range.
MUR_API const char *mur_metric_name(int k);

/// Value of metric k (0 <= k < MUR_METRIC_COUNT) of m.
MUR_API double mur_metrics_value(const mur_metrics *m, int k);

/// Index of a metric by name, or -1.
MUR_API int mur_metric_find(const char *name);

/// Reusable scratch (grid, union-find, cluster sums), grown on demand.
typedef struct mur_metrics_ctx mur_metrics_ctx;

/// Create scratch; the caller frees it with mur_metrics_ctx_destroy. NULL when out of memory.
MUR_API mur_metrics_ctx *mur_metrics_ctx_create(void);

/// Free scratch; NULL is fine.
MUR_API void mur_metrics_ctx_destroy(mur_metrics_ctx *m);

/// Watch *stop (say, a signal handler's flag; NULL: never) during each compute, every few
/// thousand boids (4,000,000 boids in a sparse world took 12 s). The flag is the caller's.
MUR_API void mur_metrics_ctx_set_stop(mur_metrics_ctx *m, volatile sig_atomic_t *stop);

/// Measure neighbours, clusters, largest and milling (and the per-boid
/// results) with this radius, world units (scene experiment.measure.radius);
/// 0, the default: each flock's own cohesion radius. nearest and order do
/// not depend on it.
MUR_API void mur_metrics_ctx_set_radius(mur_metrics_ctx *m, double radius);

/// Compute every metric of the flock's current state. 0, MUR_ERUN when memory is short, or
/// MUR_EINTR when the stop flag was seen (*out and the per-boid results are then unfinished).
MUR_API int mur_metrics_compute(mur_metrics_ctx *m, const mur_flock *f, mur_metrics *out);

/// The same for the metrics in `want` (bit k: metric k) only, and what they
/// rest on: order alone needs no neighbour search, nearest needs the grid,
/// the others the clusters. The fields not asked for are NaN (clusters: -1; and the
/// per-boid results are left as they were unless a cluster metric is asked).
MUR_API int mur_metrics_compute_some(mur_metrics_ctx *m, const mur_flock *f, unsigned want,
                                     mur_metrics *out);

/// Per-boid results of the last mur_metrics_compute on m, arrays of that
/// flock's count owned by m and valid until the next compute: each boid's
/// cluster, named by the smallest boid index in it, and its count of other
/// boids within the cohesion radius. NULL before the first compute.
MUR_API const int *mur_metrics_cluster_of(const mur_metrics_ctx *m);
MUR_API const int *mur_metrics_neighbour_counts(const mur_metrics_ctx *m);

/// Order parameter alone (cheap): |sum unit(v_i)| / N, 0 for an empty flock.
MUR_API double mur_metrics_order(int n, const double *vx, const double *vy);

#ifdef __cplusplus
}
#endif

#endif
