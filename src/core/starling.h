/* model: starling's per-bird state (starling.c; docs/model.md "starling"):
 * what a bird carries beyond position and velocity, allocated only for a
 * flock whose motion is fly. Private to src/core. */
#ifndef MURMUR_CORE_STARLING_H
#define MURMUR_CORE_STARLING_H

#include <stddef.h>

typedef struct mur_starling {
    double *up;        /* the body frame's up u_i, 3 a bird, by id */
    double *acc;       /* a(t) of the velocity Verlet step, m/s^2, 3 a bird */
    double *steer;     /* the steering force of the last reaction, N, 3 a bird */
    double *radius;    /* the adaptive search radius R_i, m */
    int *interacting;  /* neighbours that took part in a rule at the last reaction */
    double *clock;     /* seconds since the last reaction */
    double *interval;  /* seconds from the last reaction to the next */
    size_t cap;
} mur_starling;

struct mur_flock;

/* Birds [from, n) of f to their start: level flight (up = +z made normal to
 * the heading), R = 5 m, no acceleration, no steering, a reaction due at
 * the first tick. Allocates (or frees, for a motion other than fly) the
 * state; -1 without memory. */
int mur_starling_sync_(struct mur_flock *f, int from);
void mur_starling_free_(struct mur_flock *f);

/* The 3D grid's cell for an adaptive tick: the median search radius of a
 * sample of birds. */
double mur_starling_cell_(const struct mur_flock *f);

/* The roll of a bird with unit heading f and unit up u (normal to f), radians
 * in (-pi, pi]: its up's turn about f from the head's up (the world's up made
 * normal to f); 0 for a vertical f. What roll-out relaxes (starling.c). */
double mur_starling_roll_(const double f[3], const double u[3]);

#endif
