/* murmur: how far two runs of the same boids have drifted apart, and how
 * fast (the chaos twins of an experiment, docs/model.md "Divergence").
 *
 * The twins are one flock and a copy of it moved by a shift (or nudged);
 * the divergence is the distance between each boid and its twin once the
 * shift is undone, taken to the nearest image on a torus. Its growth is
 * summarised by a log-linear fit over the range where it grows
 * exponentially, and by the first tick it reaches given sizes. Core only:
 * libm. */
#ifndef MURMUR_DIVERGENCE_H
#define MURMUR_DIVERGENCE_H

#include "murmur/export.h"

#include "murmur/flock.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Lower end of the fitted range: the fit starts where the divergence
/// first reaches this many world units (a thousand times the rounding of
/// a half-box shift in a world of hundreds of units), or 100 times its
/// start if that is more.
#define MUR_GROWTH_FLOOR 1e-10
/// Upper end: the fit stops before the divergence first reaches this many
/// world units, where boids start to meet different neighbours and the
/// growth turns nonlinear.
#define MUR_GROWTH_CEILING 1e-2
/// Fewest ticks a fitted range holds; shorter ranges give no doubling time.
#define MUR_GROWTH_MIN_TICKS 10

/// The divergence of one tick, world units.
typedef struct mur_divergence {
    double rms;   ///< root mean square distance between each boid and its twin
    double max;   ///< largest of those distances
} mur_divergence;

/// Distances between boid i of a and boid i of b moved back by (sx, sy),
/// over the boids both have: under a wrapping boundary (a's) the nearest
/// image, so a twin shifted by half the box measures 0 where it sits
/// exactly half a box away. An empty flock gives 0.
MUR_API void mur_divergence_measure(const mur_flock *a, const mur_flock *b, double sx, double sy,
                                    mur_divergence *out);

/// The same with the third axis: b moved back by shift (x, y, z), world
/// units; in a 3D world z counts too (the nearest image along the depth
/// under wrap); 2D flocks ignore shift[2] and measure as mur_divergence_measure.
MUR_API void mur_divergence_measure3(const mur_flock *a, const mur_flock *b, const double shift[3],
                                     mur_divergence *out);

/// Exponential growth of a divergence series d[0..n) (d[t] after t ticks).
typedef struct mur_growth {
    double doubling_time; ///< ticks for the divergence to double, ln 2 / rate; NaN when not growing
    double rate;          ///< fitted slope of ln d per tick (the largest Lyapunov exponent's estimate)
    double log_d0;        ///< fitted ln d at tick 0 (the line is log_d0 + rate * t)
    long first, last;     ///< the fitted ticks, inclusive; -1 when no range qualifies
} mur_growth;

/// Least-squares fit of ln d[t] = log_d0 + rate * t over the exponential
/// range: from the first tick at which d reaches MUR_GROWTH_FLOOR or 100
/// times d[0], whichever is larger (the start's own transient left out),
/// to the last tick before d first reaches MUR_GROWTH_CEILING (or n - 1). The range must hold at least
/// MUR_GROWTH_MIN_TICKS ticks, every d in it positive, and the rate be
/// positive; otherwise doubling_time is NaN.
MUR_API void mur_growth_fit(const double *d, long n, mur_growth *out);

/// First tick t < n with d[t] >= size, or -1 when d never reaches it
/// (a censored run).
MUR_API long mur_divergence_first_reaching(const double *d, long n, double size);

#ifdef __cplusplus
}
#endif

#endif
