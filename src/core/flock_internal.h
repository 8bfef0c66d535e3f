/* The flock's insides, shared by the files of the core that step it:
 * flock.c (the Reynolds family, the original demos' arithmetic) and the
 * model family's kinds (family.c, neighbours.c, interaction.c, motion.c).
 * Nothing outside src/core includes it. */
#ifndef MURMUR_FLOCK_INTERNAL_H
#define MURMUR_FLOCK_INTERNAL_H

#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "filter.h"
#include "grid.h"
#include "murmur/flock.h"
#include "murmur/rng.h"
#include "../util/pool.h"

/* Boids by position, read by a neighbour scan: four arrays, each readable
 * MUR_FILTER_PAD elements past its last boid. */
typedef struct {
    const double *x, *y, *vx, *vy;
} boids;

/* A 3D flock's cell grid (family3.c): grid.h's grid of 3 axes, each axis
 * sized and filed by the 2D grid's rules. */
typedef mur_grid mur_grid3;

/* The box a grid covers: the world's [0, world) when !fit, else the
 * boids' bounding box (finite positions). */
void mur_grid3_box_(const double *x, const double *y, const double *z, int n, const double world[3],
                    int fit, double o[3], double size[3]);

/* Files n boids at (x, y, z) into boxes at least `cell` wide over that
 * box (under wrap a whole number of them tiles each axis), at most `most`
 * of them (fewer, wider ones past it: grid.h), filed on the pool's threads
 * (NULL: one); 0, or -1 without memory. */
int mur_grid3_build_(mur_grid3 *g, mur_pool *pool, const double *x, const double *y, const double *z,
                     int n, const double world[3], int fit, int wrap, double cell, size_t most);
static inline void mur_grid3_free_(mur_grid3 *g) { mur_grid_free(g); }

/* The cell of point r along each axis (clamped into the grid): the one
 * rule the grid files boids by and the neighbour search finds them by,
 * the 2D grid's along each axis (grid.h). */
static inline void mur_grid3_cell_(const mur_grid3 *g, const double r[3], int at[3])
{
    for (int c = 0; c < 3; c++)
        at[c] = mur_grid_axis_cell_(r[c], g->o[c], g->side[c], g->n[c]);
}

struct mur_flock {
    mur_params p;
    uint64_t seed;
    uint64_t tick;
    int n;                     /* boids in use */
    size_t cap;                /* allocated boids */
    double *x, *y, *vx, *vy;   /* state */
    double *kx, *ky, *kvx, *kvy;  /* state by position k: grid order, or id order without a grid */
    mur_filter_fn filter;      /* the filter implementation in use */
    int simd;                  /* and its level */
    double *acc;               /* sync: acceleration of boid i at 2i, 2i + 1 */
    mur_rng rng;               /* draws added boids */
    int *ids;                  /* a recorded frame's ids (ascending), or NULL: boid i is id i */
    mur_start_group *groups;   /* the starting flock's shape (NULL: uniform) */
    int ngroups;
    unsigned char *group;      /* each boid's group, cap long, when there are groups */
    size_t ids_cap;
    mur_predator pred[MUR_MAX_PREDATORS];
    int npred;
    mur_grid grid;
    int grid_ok;               /* grid matches the state of this tick */
    mur_pool *pool;
    int brute;
    volatile sig_atomic_t *stop;  /* polled during a tick; NULL: never */
    atomic_int stopped;        /* a chunk of this tick saw *stop and left its work undone */
    double *reach_of;          /* topological: each boid's k-th distance this tick (family.c) */
    double *hint;              /* the last tick's, by position this tick */
    size_t reach_cap;
    double topo_cell;          /* topological: the grid's cell for the next tick (0: unknown) */
    /* 3D only (p.dimensions == 3; NULL in 2D): the third axis of the state,
     * by id and by position, and the results' third component */
    double *z, *vz, *kz, *kvz, *accz;
    mur_grid3 grid3;           /* 3D: this tick's cells */
    int grid3_ok;
    struct mur_starling *star; /* motion: fly only (starling.h), else NULL */
    struct mur_escape *esc;    /* starling with escape_radius > 0 only (escape.h), else NULL */
};

/* Sums over one boid's neighbours (docs/model.md step 1-2); the model
 * family's interactions keep theirs in the same three slots. */
#define MUR_SUMS(D)                                                              \
    struct {                                                                     \
        double s[D]; int ns;   /* separation sum (couzin: repulsion) */          \
        double a[D]; int na;   /* alignment: sum of v_j (couzin: orientation) */ \
        double c[D]; int nc;   /* cohesion: sum of d_ij (couzin: attraction) */  \
    }
typedef MUR_SUMS(2) sums2;
typedef MUR_SUMS(3) sums3;
typedef sums2 sums;

/* docs/model.md steps 2-3 for a boid of velocity v and sums s, in D
 * components (interaction_d.h): the combined, clamped acceleration to out;
 * raw and part, when not NULL, get each rule's raw vector and contribution
 * (the one-boid view). `used`: the rules whose sums count. The run: n
 * boids of velocities v[c][t] and sums s[t] to out[c][t], four at a time
 * on a vector unit where it can (AVX2 and up, f->simd), the same bits. */
#define MUR_COMBINE_DECLS(D)                                                                       \
    void mur_combine##D##_(const mur_params *p, unsigned used, const double v[D], const sums##D *s, \
                           double out[D], double raw[3][D], double part[3][D]);                    \
    void mur_combine##D##_run(const mur_flock *f, unsigned used, const double *const v[D],          \
                              const sums##D *s, int n, double *const out[D]);
MUR_COMBINE_DECLS(2)
MUR_COMBINE_DECLS(3)

/* The rules whose sums count (RULE_ bits: 1 separation, 2 alignment, 4 cohesion). */
unsigned mur_flock_rules_used_(const mur_params *p);

/* The boids' bounding box (finite positions), as origin and size. */
void mur_flock_bbox_(const mur_flock *f, double *ox, double *oy, double *w, double *h);

/* Builds this tick's grid of cells at least `cell` wide (over the boids'
 * bounding box in an open world) and copies the state into grid order
 * (kx, ky, kvx, kvy); without memory for a grid, position k is boid k. */
void mur_flock_prepare_(mur_flock *f, double cell);

/* The u01 draw of the reynolds noise kick's angle for boid i this tick. */
double mur_flock_noise_u01_(const mur_flock *f, int i);

/* Whether the stop flag is up (and the tick abandoned). */
int mur_flock_stop_seen_(mur_flock *f);

/* Coordinate x taken into [0, w) on a torus of size w; x itself when it is
 * already there. */
static inline double mur_fold_(double x, double w)
{
    if (x >= 0 && x < w)
        return x;
    x = fmod(x, w);
    if (x < 0)
        x += w;
    return x >= 0 && x < w ? x : 0;   /* -tiny + w rounding to w, or NaN */
}

/* (x + w) mod w exactly as fmod computes it, as the original demos wrap.
 * For a = x + w in [w, 2w) the remainder is a - w, which is exact (Sterbenz
 * lemma), and in [0, w) it is a: only a jump of more than a world (or NaN)
 * needs the slow fmod call. */
static inline double mur_wrap_pos_(double x, double w)
{
    double a = x + w;
    if (a >= w && a < 2 * w)
        return a - w;
    if (a >= 0 && a < w)
        return a;
    return fmod(a, w);
}

/* docs/model.md step 7's boundary along one axis of size w, for a boid
 * moved to *x with velocity *v along it: the one rule of every axis of a
 * 2D or 3D world, so a 3D flock in a plane folds x and y as the 2D one.
 * Under wrap it is (x + W) mod W, as the original demos wrap: its rounding
 * of x + W is part of the reference trajectories (an if-based wrap drifts
 * from the lab reference by 3e-8 within 100 ticks; mur_fold_ keeps x in
 * [0, W) as it is and so differs by an ulp of x). */
static inline void mur_bound_axis_(mur_boundary b, double w, double *x, double *v)
{
    double r = *x;
    switch (b) {
    case MUR_BOUNDARY_WRAP:
        r = mur_wrap_pos_(r, w);
        if (r < 0)
            r += w;   /* jumps of more than a world */
        if (!(r >= 0 && r < w))
            r = 0;    /* NaN, or -tiny + w rounding to w */
        break;
    case MUR_BOUNDARY_REFLECT:
        if (r < 0) {
            r = -r;
            *v = -*v;
        } else if (r > w) {
            r = 2 * w - r;
            *v = -*v;
        }
        r = fmin(fmax(r, 0), w);
        break;
    case MUR_BOUNDARY_AVOID:
        r = fmin(fmax(r, 0), w);
        break;
    case MUR_BOUNDARY_OPEN:
        break;
    }
    *x = r;
}

/* docs/model.md step 6's speed rule: the speed a velocity of speed sp > 0
 * is set to (constant: top; clamp: within [min_speed, top]; top is
 * max_speed, or more during a flee burst). */
static inline double mur_speed_target_(const mur_params *p, double sp, double top)
{
    if (p->speed_rule == MUR_SPEED_CONSTANT)
        return top;
    if (sp > top)
        return top;
    if (sp < p->min_speed)
        return p->min_speed;
    return sp;
}

/* A 3D flock's tick (family3.c): every kind of the family in a box. */
int mur_family_step3(mur_flock *f);

#endif
