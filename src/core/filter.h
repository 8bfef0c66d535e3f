/* The first pass of a neighbour scan: which candidates lie within reach.
 *
 * A boid's 3 x 3 block of cells holds about three candidates for every
 * neighbour. The filter computes each candidate's offset (nearest image
 * where asked) and squared distance, and lists, in order, the candidates
 * closer than a bound, neither coincident nor the boid itself. The rules
 * then run on that list alone (flock.c).
 *
 * Several implementations, one result: each lane does the scalar code's
 * operations (a subtraction, the nearest-image correction, two products and
 * a sum, no fused multiply-add), and IEEE arithmetic rounds them the same in
 * a vector register as in a scalar one. So the list and every value in it
 * are the same bytes whichever implementation runs, and the flock's
 * trajectories do not depend on the machine's vector unit. A test holds
 * them to that. */
#ifndef MURMUR_FILTER_H
#define MURMUR_FILTER_H

#include <math.h>

/* Nearest image of an offset on a torus of size w: the trap that tears
 * flocks straddling the seam if it is wrong. The one definition, for the
 * filter's lanes to copy and for every other offset the core takes. */
static inline double mur_near_image(double d, double w)
{
    if (d > 0.5 * w)
        return d - w;
    if (d < -0.5 * w)
        return d + w;
    return d;
}

/* The least T with sqrt(T) >= r: for every d2, sqrt(d2) < r exactly when
 * d2 < T, a correctly rounded square root never decreasing. Radius tests
 * then need no square root, and decide as d < R itself would. */
static inline double mur_sqrt_bound(double r)
{
    double t = r * r;
    while (t > 0 && sqrt(t) >= r)
        t = nextafter(t, 0);
    while (sqrt(t) < r)
        t = nextafter(t, INFINITY);
    return t;
}

/* Candidates a call takes at most. */
#define MUR_FILTER_BLOCK 64
/* Elements the position arrays must stay readable past their last
 * candidate: vector lanes past the end are loaded, then masked out. */
#define MUR_FILTER_PAD 8

typedef struct {
    double xi, yi;        /* the boid */
    double w, h;          /* world size, for the nearest image */
    double far2;          /* keep d2 < far2 */
    int wrapx, wrapy;     /* take the nearest image on that axis */
} mur_filter_in;

/* Implementations, fastest last. */
enum { MUR_SIMD_NONE, MUR_SIMD_SSE2, MUR_SIMD_AVX2, MUR_SIMD_AVX512 };

/* Candidates j0 .. j1 - 1 (j1 - j0 <= MUR_FILTER_BLOCK) of the position
 * arrays x, y, except position `skip`. Writes dx, dy, d2 of candidate j at
 * index j - j0, and the indices j - j0 of the kept candidates, in increasing
 * order, to keep; returns how many. dx, dy, d2 and keep must hold
 * MUR_FILTER_BLOCK + MUR_FILTER_PAD elements. */
typedef int (*mur_filter_fn)(const mur_filter_in *in, const double *x, const double *y, int j0,
                             int j1, int skip, double *dx, double *dy, double *d2, int *keep);

/// The implementation for a level (capped by what this CPU runs); *level is
/// set to the level returned.
mur_filter_fn mur_filter_pick(int *level);

/// The best level this CPU runs.
int mur_filter_best(void);

/* The same filter in a box (the 3D tick's metric scan, neighbours3.c):
 * candidates j0 .. j1 - 1 of x, y, z except `skip`, offsets d = r_j - r
 * (nearest image on the axes asked), d2 = (dx dx + dy dy) + dz dz, kept
 * when d2 < far2 and d2 != 0; each lane the scalar code's operations, so
 * every implementation gives the same bytes. */
typedef struct {
    double r[3];          /* the boid */
    double size[3];       /* world size, for the nearest image */
    double far2;          /* keep d2 < far2 */
    int wrap[3];          /* take the nearest image on that axis */
} mur_filter3_in;

typedef int (*mur_filter3_fn)(const mur_filter3_in *in, const double *x, const double *y,
                              const double *z, int j0, int j1, int skip, double *dx, double *dy,
                              double *dz, double *d2, int *keep);

/// The 3D filter for a level (AVX-512: eight lanes; AVX2: four; below, and
/// SSE2, portable C), capped by what this CPU runs.
mur_filter3_fn mur_filter3_pick(int level);

#endif
