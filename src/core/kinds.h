/* The kinds' pieces and what passes between them (family.c's table points
 * at these; docs/model.md "Model families" is what each one computes). */
#ifndef MURMUR_KINDS_H
#define MURMUR_KINDS_H

#include "family.h"
#include "flock_internal.h"

/* One neighbour j of boid i, at position k of the grid order. */
typedef struct {
    int k;              /* position of j (kx[k] ...) */
    double dx, dy, d;   /* d_ij (nearest image) and |d_ij| > 0 */
    int seen;           /* d_ij inside i's field of view */
} mur_nb;

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
    double xi, yi, vxi, vyi, vlen;
} mur_it;

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

/* interaction.c */
void mur_it_reynolds_add(const mur_it *it, sums *acc, const mur_nb *e);
void mur_it_reynolds_finish(const mur_it *it, const sums *acc, double out[2]);
double mur_it_reynolds_reach(const mur_params *p);
void mur_it_vicsek_add(const mur_it *it, sums *acc, const mur_nb *e);
void mur_it_vicsek_finish(const mur_it *it, const sums *acc, double out[2]);
double mur_it_vicsek_reach(const mur_params *p);
void mur_it_couzin_add(const mur_it *it, sums *acc, const mur_nb *e);
void mur_it_couzin_finish(const mur_it *it, const sums *acc, double out[2]);
double mur_it_couzin_reach(const mur_params *p);

/* motion.c: motion_d.h's kinds for D components (D 2: mur_move2_steer ...). */
#define MUR_MOTION_DECLS(D)                                                                      \
    void mur_move##D##_steer(mur_flock *f, int i, const double o[D], int accel);                 \
    void mur_move##D##_turn(mur_flock *f, int i, const double o[D], int accel);                  \
    void mur_move##D##_set(mur_flock *f, int i, const double o[D], int accel);                   \
    /* steer of accelerations (acc: x, y a boid; accz the z of each in 3D) for boids             \
     * [begin, end): four at a time on a vector unit where it can (AVX2 and up, f->simd;         \
     * no predator, no noise, wrap or open), the same bits */                                    \
    void mur_move##D##_steer_range(mur_flock *f, int begin, int end, const double *acc,          \
                                   const double *accz);                                          \
    /* steps 4-7 of docs/model.md for boid i given its acceleration a: predators, the avoid      \
     * band, the noise kick when `kick`, the speed rule, the move and the boundary */           \
    void mur_integrate##D##_(mur_flock *f, int i, double a[D], int kick);                        \
    /* boid i to r with velocity v, then the boundary along each axis */                        \
    void mur_place##D##_(mur_flock *f, int i, double r[D], double v[D]);
MUR_MOTION_DECLS(2)
MUR_MOTION_DECLS(3)

/* ---- three dimensions (family3.c, neighbours3.c, interaction3.c, motion3.c) ----
 * The same kinds in a box: each has a 3D row of functions beside its 2D
 * one in family.c's table, computing docs/model.md's equations with a z. */

typedef struct {
    int k;                  /* position of j (kx[k] ...) */
    double d[3], dist;      /* d_ij (nearest image) and |d_ij| > 0 */
    int seen;               /* d_ij inside i's cone of view */
} mur_nb3;

typedef struct {
    double s[3]; int ns;    /* separation (couzin: repulsion) */
    double a[3]; int na;    /* alignment (couzin: orientation) */
    double c[3]; int nc;    /* cohesion (couzin: attraction) */
} sums3;

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

/* interaction3.c */
void mur_it3_reynolds_add(const mur_it3 *it, sums3 *acc, const mur_nb3 *e);
void mur_it3_reynolds_finish(const mur_it3 *it, const sums3 *acc, double out[3]);
/* mur_it3_reynolds_finish of n boids (sums s[t], velocity vx[t], vy[t],
 * vz[t]; tmpl the tick's template) to ox[t], oy[t], oz[t]: four at a time
 * on a vector unit (AVX2 and up, f->simd), the same bits. */
void mur_it3_reynolds_finish_run(const mur_it3 *tmpl, const double *vx, const double *vy,
                                 const double *vz, const sums3 *s, int n, double *ox, double *oy,
                                 double *oz);
void mur_it3_vicsek_add(const mur_it3 *it, sums3 *acc, const mur_nb3 *e);
void mur_it3_vicsek_finish(const mur_it3 *it, const sums3 *acc, double out[3]);
void mur_it3_couzin_add(const mur_it3 *it, sums3 *acc, const mur_nb3 *e);
void mur_it3_couzin_finish(const mur_it3 *it, const sums3 *acc, double out[3]);

/* reynolds' one neighbour into the sums (mur_it3_reynolds_add), inline for
 * the metric scan's loop over its filtered candidates. */
static inline void mur_it3_reynolds_add_(const mur_it3 *it, sums3 *acc, const mur_nb3 *e)
{
    if (!e->seen)
        return;
    const mur_params *p = it->p;
    const mur_flock *f = it->f;
    /* metric neighbours count for a rule inside its own radius; the k set
     * counts whole for alignment and cohesion, and inside R_sep for
     * separation (docs/model.md, Neighbours) */
    if ((it->used & 1) && e->dist < p->separation_radius) {
        double s = e->dist + p->separation_softening;
        double wgt = p->separation_falloff == 0 ? s : p->separation_falloff == 1 ? s * s : s * s * s;
        for (int c = 0; c < 3; c++)
            acc->s[c] -= e->d[c] / wgt;
        acc->ns++;
    }
    if ((it->used & 2) && (it->topological || e->dist < p->alignment_radius)) {
        acc->a[0] += f->kvx[e->k];
        acc->a[1] += f->kvy[e->k];
        acc->a[2] += f->kvz[e->k];
        acc->na++;
    }
    if ((it->used & 4) && (it->topological || e->dist < p->cohesion_radius)) {
        for (int c = 0; c < 3; c++)
            acc->c[c] += e->d[c];
        acc->nc++;
    }
}

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
static inline double mur_dot3_(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
/* out = unit(a); 0 for a zero vector. Returns |a|. */
static inline double mur_unit3_(const double a[3], double out[3])
{
    double l = sqrt(mur_dot3_(a, a));
    for (int c = 0; c < 3; c++)
        out[c] = l > 0 ? a[c] / l : 0;
    return l;
}

#endif
