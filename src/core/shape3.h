/* A 3D group's shape from its principal axes (issue #29; Ballerini et al.
 * 2008 report thickness, width and length of starling flocks): the
 * eigenvalues of the positions' covariance, largest first, and the
 * group's extents along its axes. Private to src/core until metrics
 * learn 3D. */
#ifndef MURMUR_CORE_SHAPE3_H
#define MURMUR_CORE_SHAPE3_H

#include <stddef.h>

/* Eigenvalues (largest first) and unit eigenvectors (axis[k] for ev[k]) of
 * the symmetric 3 x 3 matrix a (row-major), by cyclic Jacobi rotations. */
void mur_sym3_eigen(const double a[9], double ev[3], double axis[3][3]);

/* The shape of n points: length, width and thickness, each the spread
 * (largest minus smallest coordinate) of the points along the principal
 * axes, longest first; axis[k] the axes. 0, or -1 when n < 1. */
int mur_shape3(size_t n, const double *x, const double *y, const double *z, double extent[3],
               double axis[3][3]);

#endif
