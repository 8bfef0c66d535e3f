/* The metrics' scratch, shared by metrics.c (the plane) and metrics3.c
 * (a 3D world, docs/model.md "Three dimensions"). Private to src/core. */
#ifndef MURMUR_CORE_METRICS_INTERNAL_H
#define MURMUR_CORE_METRICS_INTERNAL_H

#include <math.h>
#include <signal.h>
#include <stddef.h>

#include "grid.h"
#include "murmur/metrics.h"

struct mur_metrics3;
struct mur_topo;

struct mur_metrics_ctx {
    mur_grid grid;
    size_t cap;
    int *parent, *size;
    double *sum;   /* per root: sum of cos/sin of x and y angles (4 each) */
    int *cluster_of, *neighbour_count;   /* per boid, for drawing (colour modes) */
    volatile sig_atomic_t *stop;   /* polled every POLL_BOIDS boids; NULL: never */
    double radius;   /* the measuring radius; 0: the flock's cohesion radius */
    double corr_bin, corr_range;   /* C(r)'s bins and cut-off; 0: the defaults */
    size_t corr_cap;   /* boids the C(r) scratch holds */
    double *cx, *cy, *ux, *uy;   /* C(r): positions by place in the grid, fluctuations likewise */
    double *corr_sum, *corr_pairs;   /* C(r): per bin */
    struct mur_metrics3 *m3;   /* a 3D world's scratch (metrics3.c), made on first use */
    struct mur_topo *topo;     /* the k nearest neighbours' scratch (metrics_topo.c), likewise */
};

/* The radius neighbours and clusters are measured with: the scene's
 * measure.radius, so that a knockout of cohesion or a replay is measured
 * with one fixed radius, else the flock's cohesion radius. */
static inline double mur_metrics_radius_(const mur_metrics_ctx *m, const mur_params *p)
{
    return m->radius > 0 ? m->radius : p->cohesion_radius;
}

/* How near a centre, world units, a boid is on it: a billionth of the
 * world's largest side. Under wrap a centre is a circular mean, which gives
 * a lone boid's own place back only to rounding; the direction of that
 * rounding would add an arbitrary turn of up to 1 to rotation or milling. */
static inline double mur_metrics_on_centre_(const mur_params *p)
{
    double s = fmax(p->width, p->height);
    return 1e-9 * (p->dimensions == 3 ? fmax(s, p->depth) : s);
}

/* The turn unit(d) x unit(v) of a boid at offset d from a centre with
 * velocity v, in the plane (its z); 0 when it is on the centre (within
 * `on`, mur_metrics_on_centre_) or still. */
static inline double mur_turn2_(double dx, double dy, double vx, double vy, double on)
{
    double dl = sqrt(dx * dx + dy * dy), vl = sqrt(vx * vx + vy * vy);
    return dl > on && vl > 0 ? (dx * vy - dy * vx) / (dl * vl) : 0;
}

/* Grows the union-find and per-boid arrays to n boids (metrics.c): 0 or -1. */
int mur_metrics_reserve_(mur_metrics_ctx *m, size_t n);

static inline int find(int *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];  /* path halving */
        i = parent[i];
    }
    return i;
}

/* Joins the sets of a and b under the smaller root: a set's root is its
 * smallest member, whatever order its pairs were joined in. */
static inline void join_min(int *parent, int a, int b)
{
    a = find(parent, a);
    b = find(parent, b);
    if (a < b)
        parent[b] = a;
    else if (b < a)
        parent[a] = b;
}


/* The 3D world's metrics (metrics3.c), each as its 2D namesake in
 * metrics.c: the first list (order to milling) in want; the field's
 * measures and the principal extents in want (n >= 1); C(r); a per-boid
 * quantity. */
int mur_metrics3_neighbour_(mur_metrics_ctx *m, const mur_flock *f, unsigned want, mur_metrics *out);
void mur_metrics3_shape_(const mur_flock *f, unsigned want, mur_metrics *out);
/* (correlation: called by mur_metrics_correlation once it has checked n >= 2 and bin > 0, clamped nbins and cleared c and pairs) */
int mur_metrics3_correlation_(mur_metrics_ctx *m, const mur_flock *f, double bin, int nbins, double *c,
                              double *pairs);
int mur_metrics3_per_boid_(mur_metrics_ctx *m, const mur_flock *f, int k, double *out);

/* The topological measures (metrics_topo.c): nearest_border to roll_steep
 * in want into out (the others of them NaN); each bird's |roll| in degrees
 * (NaN without a body frame); its scratch freed (NULL is fine). */
int mur_metrics_topo_(mur_metrics_ctx *m, const mur_flock *f, unsigned want, mur_metrics *out);
void mur_metrics_roll_(const mur_flock *f, double *out);
void mur_metrics_topo_free_(struct mur_topo *t);

/* Calls visit(ctx, box) for each box of shell r (Chebyshev distance r in
 * boxes, each box once under wrap) around box at of a grid of n[0] x n[1]
 * x n[2] boxes (metrics3.c); and the last shell with a box not yet seen. */
void mur_grid_shell_(const int at[3], const int n[3], int wrap, int r, void (*visit)(void *, int), void *ctx);
int mur_grid_shell_last_(const int at[3], const int n[3], int wrap);

/* Frees a 3D world's scratch; NULL is fine. */
void mur_metrics3_free_(struct mur_metrics3 *s);

/* The eigenvalues of the symmetric 3 x 3 matrix a (row-major), ascending
 * into l (cyclic Jacobi rotations). */
void mur_sym3_eigenvalues_(const double a[9], double l[3]);
/* The same, with unit eigenvectors: vec[i] belongs to l[i] (Jacobi's
 * rotations accumulated; the eigenvalues' bits as mur_sym3_eigenvalues_'s). */
void mur_sym3_eigen_(const double a[9], double l[3], double vec[3][3]);

#endif
