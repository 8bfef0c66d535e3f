/* Hunting predators (hunt.c): predators with `pursue`, which move on their
 * own toward their prey. Private to src/scene; the driver calls both. */
#ifndef MURMUR_SCENE_HUNT_H
#define MURMUR_SCENE_HUNT_H

#include "driver.h"

/* Before the tick at time t: appends to pred (np entries so far, room for
 * MUR_MAX_PREDATORS) every hunter active at t, at its position (one that
 * becomes active starts where its x, y put it then, heading for its prey).
 * Returns the new count. */
int mur_hunt_predators(mur_driver *d, double t, mur_predator *pred, int np);

/* After the tick: every active hunter turns toward its prey in the flock's
 * new state by at most its turning limit and moves on at its speed,
 * within the world's boundary. 0, or MUR_ERUN when out of memory. */
int mur_hunt_step(mur_driver *d, mur_error *err);

#endif
