/* Three-dimensional vector pieces the model kinds need in 3D (issue #29,
 * MODEL.md "Model families"): a direction uniform on the sphere, one
 * uniform on a spherical cap around a direction, and a turn toward a
 * direction by at most an angle about the axis normal to both. Uniform
 * draws come in as numbers in [0, 1) from the counter-based hash, so the
 * results are the same on every thread count. Private to src/core. */
#ifndef MURMUR_CORE_VEC3_H
#define MURMUR_CORE_VEC3_H

/* A unit vector uniform on the sphere from u1, u2 in [0, 1). */
void mur_v3_sphere(double u1, double u2, double out[3]);

/* Two unit vectors e1, e2 normal to the unit vector d and to each other
 * (e2 = d x e1), from d alone: e1 is d crossed with the axis d leans least
 * along, so the same d gives the same frame on every run. */
void mur_v3_frame(const double d[3], double e1[3], double e2[3]);

/* A unit vector uniform on the cap of half-angle `half` (radians, 0..pi)
 * around the unit vector d, from u1, u2 in [0, 1). */
void mur_v3_cap(const double d[3], double half, double u1, double u2, double out[3]);

/* The unit heading a turned toward the unit direction b by at most `most`
 * radians about unit(a x b); b itself when it lies within `most`. Opposite
 * a and b turn about the up axis when a is level (as the plane turns),
 * else about an axis normal to a chosen from a alone. The one turn of the
 * motion kind `turn` in 2D (level vectors: the plane's rotation, to the
 * bit) and in 3D. The result is not renormalised (nor is the plane's). */
void mur_v3_turn(const double a[3], const double b[3], double most, double out[3]);

#endif
