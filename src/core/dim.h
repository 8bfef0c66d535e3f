/* Writing the core once for D components (docs/notes/threed.md "One core
 * for D components"): the name-mangling macros of the template sources
 * (motion_d.h, interaction_d.h ...), each included once with D 2 and once
 * with D 3, and small vector helpers of n components, inlined where n is
 * a constant, whose operations run in the order of the written-out 2D and
 * 3D code (a sum of products from the first component on), so a 3D flock
 * in a plane computes the 2D flock's bits. Private to src/core. */
#ifndef MURMUR_CORE_DIM_H
#define MURMUR_CORE_DIM_H

#include <math.h>

#include "filter.h"
#include "murmur/flock.h"

#define MUR_CAT3_(a, b, c) a##b##c
#define MUR_CAT3(a, b, c) MUR_CAT3_(a, b, c)
/* pre D post: DN(mur_move, _steer) is mur_move2_steer under D 2 */
#define DN(pre, post) MUR_CAT3(pre, D, post)
/* An initializer of D of the three axes' values. */
#define D_AXES(x, y, z) MUR_CAT3(MUR_AXES, D, )(x, y, z)
#define MUR_AXES2(x, y, z) {x, y}
#define MUR_AXES3(x, y, z) {x, y, z}

/* a . b over n components. */
static inline double mur_dot_(const double *a, const double *b, int n)
{
    double s = a[0] * b[0];
    for (int c = 1; c < n; c++)
        s += a[c] * b[c];
    return s;
}

/* out = unit(a) over n components; 0 for a zero vector. Returns |a|. */
static inline double mur_unit_(const double *a, double *out, int n)
{
    double l = sqrt(mur_dot_(a, a, n));
    for (int c = 0; c < n; c++)
        out[c] = l > 0 ? a[c] / l : 0;
    return l;
}

/* d = b - a over n axes, the nearest image under wrap (mur_params_offset3). */
static inline void mur_offset_(const mur_params *p, const double *a, const double *b, double *d, int n)
{
    const double size[3] = {p->width, p->height, p->depth};
    for (int c = 0; c < n; c++) {
        d[c] = b[c] - a[c];
        if (p->boundary == MUR_BOUNDARY_WRAP)
            d[c] = mur_near_image(d[c], size[c]);
    }
}

#endif
