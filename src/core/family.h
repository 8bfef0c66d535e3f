/* The model family inside the core: the kinds' table (family.c) and the
 * pieces its rows point at (neighbours.c, interaction.c, motion.c).
 *
 * A tick of a family other than Reynolds' (metric x reynolds x steer, which
 * flock.c steps with the original demos' arithmetic) is:
 *   1. the grid over this tick's state (flock.c's mur_flock_prepare_);
 *   2. for each boid, its neighbour kind lists its neighbours, each handed
 *      to the interaction's `add`, and the interaction's `finish` makes an
 *      acceleration (reynolds) or a desired heading (vicsek, couzin), all
 *      from the state at the start of the tick (sync);
 *   3. the motion kind moves every boid with it.
 * Each boid's neighbours are visited in an order fixed by the state alone
 * (the grid's cells, or boid index), so any thread count gives the same
 * bytes. */
#ifndef MURMUR_FAMILY_INTERNAL_H
#define MURMUR_FAMILY_INTERNAL_H

#include "murmur/error.h"
#include "murmur/flock.h"

/* The kinds' own settings, as every preset not of that kind has them (the
 * defaults column of the kinds' table, family.c). Couzin 2002's values. */
#define MUR_DEFAULT_K 7
#define MUR_DEFAULT_ORIENTATION_WIDTH 2
#define MUR_DEFAULT_ATTRACTION_WIDTH 14
#define MUR_DEFAULT_TURN_RATE 40
#define MUR_DEFAULT_DT 0.1
#define MUR_FAMILY_DEFAULTS                                                           \
    .topological_k = MUR_DEFAULT_K, .topological_radius = MUR_MAX_WORLD,              \
    .orientation_width = MUR_DEFAULT_ORIENTATION_WIDTH,                               \
    .attraction_width = MUR_DEFAULT_ATTRACTION_WIDTH, .turn_rate = MUR_DEFAULT_TURN_RATE, \
    .dt = MUR_DEFAULT_DT, .dimensions = 2, .depth = 0

/* The most neighbours a topological boid takes (k). */
#define MUR_MAX_K 1024

typedef struct mur_flock mur_flock;

/* Whether the kind named `kind` (a row of the table: "topological",
 * "couzin", "turn", ...) is chosen in p. */
int mur_kind_chosen(const char *kind, const mur_params *p);

/* The family's checks beyond each setting's range (k below count, the
 * angular noises' range, a turning rate above 0, ...). */
int mur_family_validate(const mur_params *p, mur_error *err);

/* One tick of a family other than Reynolds' (flock.c calls it). */
int mur_family_step(mur_flock *f);

/* Step 3 of a tick whose accelerations (f->acc) are made: every boid moved
 * by the motion kind (flock.c calls it for reynolds x metric x turn | set). */
void mur_family_move(mur_flock *f);

#endif
