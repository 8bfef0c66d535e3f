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
    double rotation;    ///< the group's angular momentum (Couzin 2002) about its centre, [0, 1]
    double correlation_length; ///< first zero of C(r) (Cavagna 2010), world units; NaN: none within the range
    double elongation;  ///< sqrt of the positions' covariance's largest / smallest eigenvalue, >= 1
    /* The principal extents, smallest to largest (docs/model.md): sqrt(12 lambda) for each
     * eigenvalue lambda of the positions' covariance, the sides of the uniform box with the
     * same second moments; in a 2D world thickness is 0 and width, length are the plane's. */
    double thickness;   ///< along the smallest principal axis, world units (0 in 2D)
    double width;       ///< along the middle principal axis (2D: the smaller), world units
    double length;      ///< along the largest principal axis, world units
    /* The thinnest principal axis's direction (Ballerini et al. 2008): |cos| of its angle
     * to gravity (z) and to the group's mean velocity; in a 2D world the plane's normal
     * is that axis (1 and 0); NaN without an axis (no boids, a point, no mean velocity) */
    double thin_gravity;  ///< 1: a level sheet; Ballerini's starlings 0.93 +- 0.04
    double thin_heading;  ///< 0: flying along the sheet, edge first
    /* The topological measures (docs/model.md "Border and core", "Anisotropy", "Roll"):
     * a border bird is not strictly inside the convex hull of its MUR_BORDER_K nearest
     * neighbours; NaN where undefined (no such bird, fewer than 2 birds, no roll) */
    double nearest_border; ///< mean nearest-neighbour distance r1 of the border birds, world units
    double nearest_core;   ///< the same of the core (interior) birds, world units
    double nearest_ratio;  ///< nearest_border / nearest_core (Ballerini 2008: below 1)
    double anisotropy;     ///< gamma(1) = (W(1) . V)^2 (Ballerini 2008 PNAS); isotropic: 1/D
    double anisotropy_n;   ///< n_c: where gamma(n) first reaches 1/D +- MUR_ANISOTROPY_TOL
    double roll_mean;      ///< mean |roll| over birds, degrees (model: starling; else NaN)
    double roll_steep;     ///< share of birds with |roll| above MUR_ROLL_STEEP degrees
    /* The last agitation wave (model: starling with its escape on; docs/model.md "Escapes
     * and waves"), measured as StarDisplay's wave.lua does; NaN without a wave */
    double wave_speed;    ///< median over its later half of the copies' 0.5 (D0 + D1) / dt, m/s
    double wave_birds;    ///< the birds that took part: the first zig and its copies
} mur_metrics;

/// Number of metrics: the fields of mur_metrics, in order.
#define MUR_METRIC_COUNT 23

/// Indices of the metrics, in that order: bit k of a `want` mask
/// (mur_metrics_compute_some) asks for metric k.
enum {
    MUR_METRIC_ORDER,
    MUR_METRIC_NEAREST,
    MUR_METRIC_NEIGHBOURS,
    MUR_METRIC_CLUSTERS,
    MUR_METRIC_LARGEST,
    MUR_METRIC_MILLING,
    MUR_METRIC_ROTATION,
    MUR_METRIC_CORRELATION_LENGTH,
    MUR_METRIC_ELONGATION,
    MUR_METRIC_THICKNESS,
    MUR_METRIC_WIDTH,
    MUR_METRIC_LENGTH,
    MUR_METRIC_THIN_GRAVITY,
    MUR_METRIC_THIN_HEADING,
    MUR_METRIC_NEAREST_BORDER,
    MUR_METRIC_NEAREST_CORE,
    MUR_METRIC_NEAREST_RATIO,
    MUR_METRIC_ANISOTROPY,
    MUR_METRIC_ANISOTROPY_N,
    MUR_METRIC_ROLL_MEAN,
    MUR_METRIC_ROLL_STEEP,
    MUR_METRIC_WAVE_SPEED,
    MUR_METRIC_WAVE_BIRDS
};

/// The neighbours whose convex hull decides whether a bird is on the border
/// (docs/model.md "Border and core"): in a uniformly random gas a bulk bird's
/// 16 neighbours all lie on one side of it with chance 0.4% in 3D (Wendel 1962).
#define MUR_BORDER_K 16
/// The most neighbours gamma(n) is measured to (n = 1 .. MUR_ANISOTROPY_N).
#define MUR_ANISOTROPY_N 20
/// How near 1/D gamma(n) comes at n_c (docs/model.md "Anisotropy").
#define MUR_ANISOTROPY_TOL 0.05
/// A steep roll, degrees: roll_steep's threshold.
#define MUR_ROLL_STEEP 45.0

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
    int on_request;          ///< 1: in a table, a series or a trace only when a scene names it
                             ///< (the field's measures: the older tables keep their columns)
} mur_metric_info;

/// The metrics tables, series and traces carry when a scene names none:
/// bit k set for each metric whose info has on_request 0.
MUR_API unsigned mur_metrics_default_mask(void);

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

/// Measure C(r) in bins of `bin` world units up to `range` (the cut-off;
/// pairs farther apart are never looked at), for the metric
/// correlation_length; 0 for either: the defaults, a quarter of the
/// measuring radius and ten times it (MUR_CORRELATION_BINS bins at most).
MUR_API void mur_metrics_ctx_set_correlation(mur_metrics_ctx *m, double bin, double range);

/// Most bins C(r) has (range / bin is clamped to it).
#define MUR_CORRELATION_BINS 4096

/// C(r) of Cavagna et al. 2010 (docs/model.md) of the flock now: velocity
/// fluctuations u_i = v_i - mean(v), c[k] = the mean of u_i . u_j over the
/// pairs i != j whose distance (nearest image) lies in [k bin, (k+1) bin),
/// divided by mean(u_i . u_i), for k < nbins (NaN for a bin with no pair,
/// and every bin when all u_i are 0); pairs (may be NULL) gets each bin's
/// count of unordered pairs. Pairs are found with a grid of cells of
/// nbins x bin: the cost is the pairs within the cut-off, not N^2. 0,
/// MUR_ERUN (memory) or MUR_EINTR (stopped).
MUR_API int mur_metrics_correlation(mur_metrics_ctx *m, const mur_flock *f, double bin, int nbins, double *c,
                                    double *pairs);

/// The first zero crossing of a binned C(r) (bin k centred on (k + 1/2) bin):
/// the r where the straight line between the first bin at or below 0 and
/// the last non-empty bin before it meets 0 (from C(0) = 1 when the first
/// non-empty bin is already at or below 0); NaN when C stays above 0.
MUR_API double mur_correlation_zero(const double *c, int nbins, double bin);

/// Per-boid quantities whose distribution `murmur stats --distribution`
/// draws: their names, titles and units, from one table.
typedef struct mur_boid_quantity {
    const char *name;        ///< "nearest": the option's word and the CSV's
    const char *title;       ///< "nearest-neighbour distance": the figure's axis
    const char *unit;        ///< "world units", "boids", ...
    const char *definition;  ///< one line: what is measured, for each boid
    int whole;               ///< 1: whole numbers (a histogram's bins centre on them)
} mur_boid_quantity;

/// Number of per-boid quantities.
#define MUR_BOID_QUANTITY_COUNT 4

/// Per-boid quantity k (0 <= k < MUR_BOID_QUANTITY_COUNT), or NULL; static storage.
MUR_API const mur_boid_quantity *mur_boid_quantity_at(int k);

/// Index of a per-boid quantity by name, or -1.
MUR_API int mur_boid_quantity_find(const char *name);

/// Quantity k of every boid of f into out (the flock's count of values):
/// its nearest-neighbour distance (nearest image; 0 for a lone boid), its
/// count of other boids within the measuring radius, its speed, or its |roll|
/// in degrees (model: starling; NaN for any other model). 0,
/// MUR_ERUN or MUR_EINTR.
MUR_API int mur_metrics_per_boid(mur_metrics_ctx *m, const mur_flock *f, int k, double *out);

/// gamma(n) of Ballerini et al. 2008 (docs/model.md "Anisotropy") for n = 1 ..
/// MUR_ANISOTROPY_N into gamma: over the core birds, M(n) = the mean of u u^T
/// for u the unit vector to each one's n-th nearest neighbour, W(n) its
/// eigenvector of the smallest eigenvalue, gamma(n) = (W(n) . V)^2 with V the
/// unit mean velocity; NaN where undefined (no core bird, no mean velocity,
/// fewer than n + 1 birds). 0, MUR_ERUN or MUR_EINTR.
MUR_API int mur_metrics_anisotropy(mur_metrics_ctx *m, const mur_flock *f, double *gamma);

/// n_c of a gamma(n) curve (gamma[0] is n = 1) of a D-dimensional flock:
/// where the curve, from gamma(1)'s side, first reaches the band 1/D +-
/// MUR_ANISOTROPY_TOL (it may cross it in one step), linearly interpolated
/// between the ranks either side of that edge; 1 when gamma(1) is in the
/// band; NaN when the curve has not reached it by rank count.
MUR_API double mur_anisotropy_range(const double *gamma, int count, int dimensions);

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

/// The same in 3D: unit(v_i) with its z component (vz NULL: the plane's).
MUR_API double mur_metrics_order3(int n, const double *vx, const double *vy, const double *vz);

/// The order of a flock in its own world: mur_metrics_order in 2D,
/// mur_metrics_order3 with the flock's vz in 3D (what `order` reports).
MUR_API double mur_metrics_order_of(const mur_flock *f);

#ifdef __cplusplus
}
#endif

#endif
