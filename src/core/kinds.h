/* The kinds' pieces and what passes between them (family.c's table points
 * at these; docs/model.md "Model families" is what each one computes). */
#ifndef MURMUR_KINDS_H
#define MURMUR_KINDS_H

#include "family.h"
#include "dim.h"
#include "flock_internal.h"

/* One neighbour j of boid i, at position k of the grid order, in D
 * components (mur_nb2, mur_nb3). */
#define MUR_NB(D)                                                                    \
    struct {                                                                         \
        int k;                  /* position of j (kx[k] ...) */                      \
        double d[D], dist;      /* d_ij (nearest image) and |d_ij| > 0 */            \
        int seen;               /* d_ij inside i's field of view */                  \
    }
typedef MUR_NB(2) mur_nb2;
typedef MUR_NB(3) mur_nb3;
typedef mur_nb2 mur_nb;

/* What the interactions and neighbour kinds need of a tick and a boid. */
typedef struct {
    const mur_flock *f;
    const mur_params *p;
    int topological;       /* the neighbours are the k set: outer radii do not apply */
    unsigned used;         /* reynolds: the rules whose sums count */
    double rr, ro, ra;     /* couzin: zone radii */
    double reach, treach;  /* metric: neighbours closer than reach (d2 < treach) */
    double cap, tcap;      /* topological: only those closer than cap (d2 < tcap) */
    int fov_cone;          /* fov < 360 */
    double cos_half;       /* cone: seen when dot(v, d) >= cos_half |v| |d| */
    int wrap;              /* nearest image */
    int hinted;            /* topological: f->hint holds the last tick's k-th distances */
    double w, h;
    /* the boid */
    int i, k;              /* id and position */
    int cell;              /* the grid cell of position k (when there is a grid) */
    double r[2], v[2], vlen;
} mur_it;
typedef mur_it mur_it2;

/* An interaction: add one neighbour to the sums; finish with i's result. */
typedef void (*mur_it_add)(const mur_it *it, sums *acc, const mur_nb *e);
typedef void (*mur_it_finish)(const mur_it *it, const sums *acc, double out[2]);
/* Its reach (metric neighbours closer than it count). */
typedef double (*mur_it_reach)(const mur_params *p);

/* A neighbour kind: every neighbour of the boid of `it`, each to add();
 * returns the distance of the farthest taken (topological; 0 for metric). */
typedef double (*mur_nb_each)(const mur_it *it, mur_it_add add, sums *acc);
/* The grid's cell size for a tick. */
typedef double (*mur_nb_cell)(const mur_flock *f, double reach);

/* A motion kind: boid i moved, given the interaction's result o (an
 * acceleration when `accel`, else a desired unit heading). */
typedef void (*mur_move)(mur_flock *f, int i, const double o[2], int accel);

/* neighbours.c */
double mur_nb_metric(const mur_it *it, mur_it_add add, sums *acc);
double mur_nb_topological(const mur_it *it, mur_it_add add, sums *acc);
double mur_nb_metric_cell(const mur_flock *f, double reach);
double mur_nb_topological_cell(const mur_flock *f, double reach);

/* interaction.c: the reaches (the rest is kinds_d.h's, below) */
double mur_it_reynolds_reach(const mur_params *p);
double mur_it_vicsek_reach(const mur_params *p);
double mur_it_couzin_reach(const mur_params *p);

/* ---- three dimensions (family3.c, neighbours3.c; kinds_d.h for D 3) ----
 * The same kinds in a box: each has a 3D row of functions beside its 2D
 * one in family.c's table, computing docs/model.md's equations with a z. */

typedef struct {
    const mur_flock *f;
    const mur_params *p;
    int topological;
    unsigned used;
    double rr, ro, ra;
    double treach, tcap;   /* squared: metric reach, topological cap */
    double reach;          /* the metric reach, a hair more (the rows' trim) */
    double tsep, tali, tcoh;   /* reynolds: mur_sqrt_bound of R_sep, R_ali, R_coh */
    int fov_cone;
    double cos_half;
    int wrap;
    double size[3];        /* width, height, depth */
    int i, k;              /* id and position */
    double r[3], v[3], vlen;
    mur_filter3_fn filter3;   /* metric: the candidate filter (filter.h) */
} mur_it3;

typedef void (*mur_it3_add)(const mur_it3 *it, sums3 *acc, const mur_nb3 *e);
typedef void (*mur_it3_finish)(const mur_it3 *it, const sums3 *acc, double out[3]);
typedef void (*mur_nb3_each)(const mur_it3 *it, mur_it3_add add, sums3 *acc);
typedef void (*mur_move3)(mur_flock *f, int i, const double o[3], int accel);

/* The 3D functions of p's three kinds (family.c's table). */
typedef struct {
    mur_nb3_each each;
    mur_it3_add add;
    mur_it3_finish finish;
    mur_it_reach reach;
    int accel;
    mur_move3 move;
} mur_kinds3;
void mur_family_kinds3_(const mur_params *p, mur_kinds3 *out);

/* neighbours3.c */
void mur_nb3_metric(const mur_it3 *it, mur_it3_add add, sums3 *acc);

/* A grid cell's metric candidates: the boids of its 3 x 3 x 3 block of
 * cells, copied once for all the boids of the cell, in the order
 * mur_nb3_metric visits them (so each boid's sums are the same bytes), each
 * array readable MUR_FILTER_PAD past the last. */
enum { MUR_BLOCK3_MAX = 1024 };
typedef struct {
    double x[MUR_BLOCK3_MAX + MUR_FILTER_PAD], y[MUR_BLOCK3_MAX + MUR_FILTER_PAD],
        z[MUR_BLOCK3_MAX + MUR_FILTER_PAD];
    int pos[MUR_BLOCK3_MAX + MUR_FILTER_PAD];   /* each one's position */
    int n;          /* candidates, or -1: too many (each boid walks the rows) */
    int first;      /* the index of the cell's first boid */
    int wrap[3];    /* the nearest image needed along each axis */
} mur_block3;
/* Loads cell c's block (it: the tick's template; f->grid3_ok). */
void mur_nb3_block_load(const mur_it3 *it, int c, mur_block3 *b);
/* mur_nb3_metric for the boid of `it`, at position it->k of cell c, from
 * b (loaded for c; b->n >= 0). */
void mur_nb3_metric_block(const mur_it3 *it, int c, const mur_block3 *b, mur_it3_add add,
                          sums3 *acc);
void mur_nb3_topological(const mur_it3 *it, mur_it3_add add, sums3 *acc);

/* starling.c: model: starling's three kinds (the search and the
 * interaction are one pass: the adaptive neighbours react, the starling
 * interaction hands on the steering force) */
void mur_nb3_adaptive(const mur_it3 *it, mur_it3_add add, sums3 *acc);
void mur_it3_starling_finish(const mur_it3 *it, const sums3 *acc, double out[3]);
double mur_it_starling_reach(const mur_params *p);
void mur_move3_fly(mur_flock *f, int i, const double o[3], int accel);
/* mur_move3_fly for birds [begin, end), o from acc (x, y a bird) and accz:
 * four at a time on a vector unit (AVX2 and up, f->simd), the same bits. */
void mur_move3_fly_range(mur_flock *f, int begin, int end, const double *acc, const double *accz);

/* Small vector helpers of the 3D kinds (vec3.h has the public ones). */
static inline double mur_dot3_(const double a[3], const double b[3]) { return mur_dot_(a, b, 3); }
/* out = unit(a); 0 for a zero vector. Returns |a|. */
static inline double mur_unit3_(const double a[3], double out[3]) { return mur_unit_(a, out, 3); }

/* The kinds written once for D components (kinds_d.h). */
#define D 2
#include "kinds_d.h"
#undef D
#define D 3
#include "kinds_d.h"
#undef D

#endif
