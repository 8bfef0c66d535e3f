/* Metrics of docs/model.md over a uniform grid.
 *
 * Nearest neighbour searches rings of cells outwards until no unvisited cell
 * can hold anything closer; neighbour counts and clusters look only at the
 * 3 x 3 block (cells >= R_coh); clusters are a union-find over those pairs.
 * Cluster centres under wrap use the circular mean per axis, so a cluster
 * straddling the seam has its centre on the cluster, not mid-world. */
#include "murmur/metrics.h"
#include "murmur/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "filter.h"
#include "flock_internal.h"
#include "grid.h"
#include "metrics_internal.h"


static const mur_metric_info metric_table[MUR_METRIC_COUNT] = {
    {"order", "order (polarization)", "", 2, 1,
     "|sum of unit(v_i)| / N: 1 when every boid heads the same way", 0},
    {"nearest", "nearest-neighbour distance", "world units", 1, 0,
     "mean over boids of the distance to the nearest other boid (nearest image)", 0},
    {"neighbours", "neighbours within R_coh", "boids", 1, 0,
     "mean over boids of the number of other boids within the cohesion radius", 0},
    {"clusters", "clusters", "clusters", 0, 0,
     "connected components of the graph joining boids closer than the cohesion radius", 0},
    {"largest", "largest cluster (share of N)", "", 2, 1,
     "the largest cluster's share of the flock", 0},
    {"milling", "milling (rotation order)", "", 2, 1,
     "|sum of unit(c_i) x unit(v_i)| / n per cluster (c_i: offset from its centre), "
     "averaged weighted by cluster size", 0},
    {"rotation", "rotation (group angular momentum)", "", 2, 1,
     "|sum of unit(c_i - c) x unit(v_i)| / N about the group's centre c (Couzin 2002)", 1},
    {"correlation_length", "correlation length", "world units", 1, 0,
     "first zero of the velocity fluctuations' correlation C(r) (Cavagna 2010)", 1},
    {"elongation", "elongation (aspect ratio)", "", 2, 0,
     "sqrt of the largest over the smallest eigenvalue of the positions' covariance: 1 when round", 1},
    {"thickness", "thickness (smallest extent)", "world units", 1, 0,
     "sqrt(12 lambda_min) of the positions' covariance: the group's extent along its thinnest axis (0 in 2D)", 1},
    {"width", "width (middle extent)", "world units", 1, 0,
     "sqrt(12 lambda_mid) of the positions' covariance (2D: the smaller of two)", 1},
    {"length", "length (largest extent)", "world units", 1, 0,
     "sqrt(12 lambda_max) of the positions' covariance: the group's extent along its longest axis", 1},
    {"thin_gravity", "thin axis against gravity (|cos|)", "", 2, 1,
     "|cos| of the angle between the covariance's smallest axis and z: 1 for a level sheet (1 in 2D)", 1},
    {"thin_heading", "thin axis against the heading (|cos|)", "", 2, 1,
     "|cos| of the angle between the covariance's smallest axis and the mean velocity: 0 flying along "
     "the sheet (0 in 2D)", 1},
    {"nearest_border", "nearest-neighbour distance of border birds", "world units", 2, 0,
     "mean r1 over the birds not strictly inside the convex hull of their 16 nearest neighbours", 1},
    {"nearest_core", "nearest-neighbour distance of core birds", "world units", 2, 0,
     "mean r1 over the birds strictly inside the convex hull of their 16 nearest neighbours", 1},
    {"nearest_ratio", "border over core nearest-neighbour distance", "", 2, 0,
     "nearest_border / nearest_core: below 1 when the border is denser (Ballerini 2008)", 1},
    {"anisotropy", "anisotropy gamma(1)", "", 2, 1,
     "(W . V)^2: W the least-populated axis of the core birds' first neighbours, V the heading; 1/D isotropic", 1},
    {"anisotropy_n", "anisotropic range n_c", "neighbours", 1, 0,
     "where gamma(n) first reaches 1/D +- 0.05 from gamma(1)'s side, interpolated (Ballerini 2008: 6.5)", 1},
    {"roll_mean", "mean |roll|", "degrees", 1, 0,
     "mean over birds of |roll| of the body frame from the level head frame (model: starling)", 1},
    {"roll_steep", "steeply rolled (share of N)", "", 2, 1,
     "share of birds rolled more than 45 degrees from level (model: starling)", 1},
    {"wave_speed", "agitation wave speed", "m/s", 1, 0,
     "the last wave's copies: median over the later half (by delay) of 0.5 (D0 + D1) / dt from the first "
     "zig (StarDisplay's wave.lua); NaN without a wave", 1},
    {"wave_birds", "birds in the agitation wave", "birds", 0, 0,
     "the last wave's first zig and the birds that copied it; NaN without a wave", 1},
};

unsigned mur_metrics_default_mask(void)
{
    unsigned mask = 0;
    for (int k = 0; k < MUR_METRIC_COUNT; k++)
        if (!metric_table[k].on_request)
            mask |= 1u << k;
    return mask;
}

const mur_metric_info *mur_metric_info_at(int k)
{
    return k >= 0 && k < MUR_METRIC_COUNT ? &metric_table[k] : NULL;
}

const char *mur_metric_name(int k) { return k >= 0 && k < MUR_METRIC_COUNT ? metric_table[k].name : "?"; }

double mur_metrics_value(const mur_metrics *m, int k)
{
    switch (k) {
    case 0: return m->order;
    case 1: return m->nearest;
    case 2: return m->neighbours;
    case 3: return m->clusters;
    case 4: return m->largest;
    case 5: return m->milling;
    case 6: return m->rotation;
    case 7: return m->correlation_length;
    case 8: return m->elongation;
    case 9: return m->thickness;
    case 10: return m->width;
    case 11: return m->length;
    case 12: return m->thin_gravity;
    case 13: return m->thin_heading;
    case 14: return m->nearest_border;
    case 15: return m->nearest_core;
    case 16: return m->nearest_ratio;
    case 17: return m->anisotropy;
    case 18: return m->anisotropy_n;
    case 19: return m->roll_mean;
    case 20: return m->roll_steep;
    case 21: return m->wave_speed;
    case 22: return m->wave_birds;
    default: return NAN;
    }
}

int mur_metric_find(const char *name)
{
    for (int k = 0; k < MUR_METRIC_COUNT; k++)
        if (strcmp(metric_table[k].name, name) == 0)
            return k;
    return -1;
}



/* Boids between two looks at the stop flag: milliseconds of work. */
#define POLL_BOIDS 4096

void mur_metrics_ctx_set_stop(mur_metrics_ctx *m, volatile sig_atomic_t *stop) { m->stop = stop; }

void mur_metrics_ctx_set_radius(mur_metrics_ctx *m, double radius) { m->radius = radius > 0 ? radius : 0; }


/* Whether to stop before boid i (looked at every POLL_BOIDS boids). */
static int stop_at(const mur_metrics_ctx *m, int i)
{
    return i % POLL_BOIDS == POLL_BOIDS - 1 && m->stop && *m->stop;
}

mur_metrics_ctx *mur_metrics_ctx_create(void) { return mur_calloc(1, sizeof(mur_metrics_ctx)); }

void mur_metrics_ctx_destroy(mur_metrics_ctx *m)
{
    if (!m)
        return;
    mur_grid_free(&m->grid);
    mur_metrics3_free_(m->m3);
    mur_metrics_topo_free_(m->topo);
    mur_free(m->parent);
    mur_free(m->size);
    mur_free(m->sum);
    mur_free(m->cluster_of);
    mur_free(m->neighbour_count);
    mur_free(m->cx);
    mur_free(m->cy);
    mur_free(m->ux);
    mur_free(m->uy);
    mur_free(m->corr_sum);
    mur_free(m->corr_pairs);
    mur_free(m);
}

int mur_metrics_reserve_(mur_metrics_ctx *m, size_t n)
{
    if (n <= m->cap)
        return 0;
    int *p = mur_realloc(m->parent, n * sizeof *p);
    if (!p) return -1;
    m->parent = p;
    int *s = mur_realloc(m->size, n * sizeof *s);
    if (!s) return -1;
    m->size = s;
    double *c = mur_realloc(m->sum, 4 * n * sizeof *c);
    if (!c) return -1;
    m->sum = c;
    int *l = mur_realloc(m->cluster_of, n * sizeof *l);
    if (!l) return -1;
    m->cluster_of = l;
    int *k = mur_realloc(m->neighbour_count, n * sizeof *k);
    if (!k) return -1;
    m->neighbour_count = k;
    m->cap = n;
    return 0;
}

double mur_metrics_order(int n, const double *vx, const double *vy)
{
    if (n <= 0)
        return 0;
    double sx = 0, sy = 0;
    for (int i = 0; i < n; i++) {
        double l = sqrt(vx[i] * vx[i] + vy[i] * vy[i]);
        if (l > 0) {
            sx += vx[i] / l;
            sy += vy[i] / l;
        }
    }
    return sqrt(sx * sx + sy * sy) / n;
}

double mur_metrics_order3(int n, const double *vx, const double *vy, const double *vz)
{
    if (!vz)
        return mur_metrics_order(n, vx, vy);
    if (n <= 0)
        return 0;
    double sx = 0, sy = 0, sz = 0;
    for (int i = 0; i < n; i++) {
        double l = sqrt(vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]);
        if (l > 0) {
            sx += vx[i] / l;
            sy += vy[i] / l;
            sz += vz[i] / l;
        }
    }
    return sqrt(sx * sx + sy * sy + sz * sz) / n;
}

double mur_metrics_order_of(const mur_flock *f)
{
    return mur_metrics_order3(mur_flock_count(f), mur_flock_vx(f), mur_flock_vy(f), mur_flock_z(f) ? mur_flock_vz(f) : NULL);
}

/* The offset from a0 to a1 along one axis of size w, nearest image under
 * wrap: the flock's own (mur_params_offset), inlined for the pair loops. */
static inline double off(double a0, double a1, int wrap, double w)
{
    double d = a1 - a0;
    return wrap ? mur_near_image(d, w) : d;
}

/* Nearest other boid of i: rings of cells around i's cell, stopping once the
 * best distance is within the inner radius of the next ring. */
static double nearest_of(const mur_grid *g, const mur_flock *f, int i)
{
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    const mur_params *p = mur_flock_params(f);
    int wrap = p->boundary == MUR_BOUNDARY_WRAP;
    double W = p->width, H = p->height, xi = x[i], yi = y[i];
    int cx, cy;
    mur_grid_cell(g, x[i], y[i], &cx, &cy);
    double best2 = INFINITY;
    int rmax = g->gx > g->gy ? g->gx : g->gy;
    double step = g->cw < g->ch ? g->cw : g->ch;
    for (int r = 0; r <= rmax; r++) {
        for (int oy = -r; oy <= r; oy++)
            for (int ox = -r; ox <= r; ox++) {
                if (abs(ox) != r && abs(oy) != r)
                    continue;  /* interior: visited by a smaller ring */
                int gx = cx + ox, gy = cy + oy;
                if (g->wrap) {
                    gx = ((gx % g->gx) + g->gx) % g->gx;
                    gy = ((gy % g->gy) + g->gy) % g->gy;
                } else if (gx < 0 || gy < 0 || gx >= g->gx || gy >= g->gy) {
                    continue;
                }
                int c = gy * g->gx + gx;
                for (int k = g->start[c]; k < g->start[c + 1]; k++) {
                    int j = g->order[k];
                    if (j == i)
                        continue;
                    double dx = off(xi, x[j], wrap, W), dy = off(yi, y[j], wrap, H);
                    double d2 = dx * dx + dy * dy;
                    if (d2 < best2)
                        best2 = d2;
                }
            }
        double reach = r * step;
        if (best2 <= reach * reach)
            break;
    }
    return sqrt(best2);
}

const int *mur_metrics_cluster_of(const mur_metrics_ctx *m) { return m->cluster_of; }

const int *mur_metrics_neighbour_counts(const mur_metrics_ctx *m) { return m->neighbour_count; }

/* Enters with the grid built over the flock's n >= 1 boids; leaves *out at
 * the mean distance to the nearest other boid (0 for a lone boid), or
 * returns MUR_EINTR when stopped. */
static int nearest_mean(const mur_metrics_ctx *m, const mur_flock *f, int n, double *out)
{
    double near_sum = 0;
    if (n >= 2)
        for (int i = 0; i < n; i++) {
            if (stop_at(m, i))
                return MUR_EINTR;
            near_sum += nearest_of(&m->grid, f, i);
        }
    *out = n >= 2 ? near_sum / n : 0;
    return MUR_OK;
}

/* Enters with the grid built over the flock's n boids; leaves with each
 * boid's count of neighbours within R, every such pair joined in the
 * union-find, and *out at the number of (ordered) neighbour pairs; or
 * returns MUR_EINTR when stopped. With near (n entries), also each boid's
 * distance to its nearest other boid, found in the same pass where it can
 * be: the 3 x 3 cells searched here are nearest_of's first two rings, and
 * when the closest boid in them is within a cell's width nearest_of stops
 * there with that very distance (the minimum of the same numbers); else
 * nearest_of searches on. One pass over the pairs instead of two.
 *
 * Each pair is measured once, from the earlier of its two cells in the
 * grid (its own cell: the later boid), and counts for both boids: cells
 * are neighbours both ways, and a pair's squared distance is the same
 * both ways (the nearest image's offset changes only its sign), so every
 * count and minimum is the one of measuring from both ends, for half the
 * work. Positions are read in the grid's order, cell by cell, from copies
 * in near's scratch (n x 4 doubles), so a cell's neighbours are together
 * in memory. Every result is the same in any order (a count, a minimum,
 * the union-find's partition). The union-find joins places too, and is
 * then flattened onto boids (below). */
/* The measuring grid of f's boids, cells of the given size: over the world,
 * or in an open world over the boids' bounding box (the world's box is no
 * bound there: a group that flew off it would crowd one edge cell). */
static int build_grid(mur_metrics_ctx *m, const mur_flock *f, double cell)
{
    const mur_params *p = mur_flock_params(f);
    int n = mur_flock_count(f);
    if (p->boundary == MUR_BOUNDARY_OPEN) {
        double ox, oy, w, h;
        mur_flock_bbox_(f, &ox, &oy, &w, &h);
        return mur_grid_build_at(&m->grid, NULL, mur_flock_x(f), mur_flock_y(f), n, ox, oy, w, h, cell);
    }
    return mur_grid_build(&m->grid, mur_flock_x(f), mur_flock_y(f), n, p->width, p->height, cell,
                          p->boundary == MUR_BOUNDARY_WRAP);
}

/* The sets were joined by place, whose neighbours are near in memory
 * (by boid they lie anywhere: a miss of the cache a join). Each set's
 * smallest member, by boid, becomes its root and every boid's parent: the
 * forest join_min builds on boids, flattened; then the sets' sizes, at
 * their roots (m->size). */
static void label_clusters(mur_metrics_ctx *m, int n)
{
    const mur_grid *g = &m->grid;
    int *parent = m->parent;
    int *least = m->size, *label = m->cluster_of;
    for (int k = 0; k < n; k++)
        least[k] = n;
    for (int k = 0; k < n; k++) {
        /* path halving leaves k two steps nearer its root, not on it: it is
         * put there, and no join comes after to move a root */
        int r = parent[k] = find(parent, k), i = g->order[k];
        if (i < least[r])
            least[r] = i;
    }
    for (int k = 0; k < n; k++)
        label[g->order[k]] = least[parent[k]];
    memcpy(parent, label, (size_t)n * sizeof *parent);
    int *size = m->size;
    for (int i = 0; i < n; i++)
        size[i] = 0;
    for (int i = 0; i < n; i++)
        size[parent[i]]++;
}

static int link_neighbours(mur_metrics_ctx *m, const mur_flock *f, int n, long *out, double *near)
{
    const mur_params *p = mur_flock_params(f);
    const mur_grid *g = &m->grid;
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    int wrap = p->boundary == MUR_BOUNDARY_WRAP;
    double R = mur_metrics_radius_(m, p);
    /* scratch, by place in the grid's order: positions and best squared
     * distances (m->sum: 4 n doubles; near, when given, is its first n) */
    double *sx = m->sum + (size_t)n, *sy = sx + n, *best = sy + n;
    int *count = m->size;   /* by place, until the union-find takes it over */
    int *near_of = m->cluster_of;   /* scratch: one range's neighbours (labels come after) */
    for (int k = 0; k < n; k++) {
        int i = g->order[k];
        sx[k] = x[i];
        sy[k] = y[i];
        best[k] = INFINITY;
        count[k] = 0;
    }
    long pairs = 0;
    double T = mur_sqrt_bound(R), W = p->width, H = p->height;
    double step = g->cw < g->ch ? g->cw : g->ch;
    int *parent = m->parent;
    for (int i = 0; i < n; i++)
        parent[i] = i;
    for (int cy = 0; cy < g->gy; cy++) {
        int ys[3], ny = mur_grid_span(cy, g->gy, wrap, ys);
        for (int cx = 0; cx < g->gx; cx++) {
            if (m->stop && *m->stop)   /* a cell's pairs: far less than a millisecond */
                return MUR_EINTR;
            int c = cy * g->gx + cx, xs[3], nx = mur_grid_span(cx, g->gx, wrap, xs);
            int later[9], nl = 0;   /* neighbour cells after c */
            for (int b = 0; b < ny; b++)
                for (int a = 0; a < nx; a++)
                    if (ys[b] * g->gx + xs[a] > c)
                        later[nl++] = ys[b] * g->gx + xs[a];
            /* their places as ranges, those that meet merged (cells in a
             * row are together in the grid's order, and an empty cell
             * between two is no place): the same candidates in the same
             * order, in fewer and longer loops */
            int lo[10], hi[10], nr = 1;
            hi[0] = g->start[c + 1];   /* c's own, from the boid after each */
            for (int e = 0; e < nl; e++) {
                int a = g->start[later[e]], b = g->start[later[e] + 1];
                if (a == hi[nr - 1]) {
                    hi[nr - 1] = b;
                } else {
                    lo[nr] = a;
                    hi[nr++] = b;
                }
            }
            for (int k = g->start[c]; k < g->start[c + 1]; k++) {
                double xi = sx[k], yi = sy[k], bi = best[k];
                int ci = 0;
                lo[0] = k + 1;
                for (int e = 0; e < nr; e++) {
                    int k0 = lo[e], k1 = hi[e];
                    /* Without a branch on the distance (about half the
                     * candidates are neighbours, at random: a branch would
                     * mispredict constantly); the neighbours are listed,
                     * then joined. */
                    int nin = 0;
                    for (int l = k0; l < k1; l++) {
                        double dx = off(xi, sx[l], wrap, W), dy = off(yi, sy[l], wrap, H);
                        double d2 = dx * dx + dy * dy;
                        bi = d2 < bi ? d2 : bi;
                        best[l] = d2 < best[l] ? d2 : best[l];
                        /* d < R, without the square root. A boid on the
                         * very same point is inside the radius: it is a
                         * neighbour and in the same cluster (the rules
                         * skip it only because it has no direction). */
                        int in = d2 < T;
                        count[l] += in;
                        near_of[nin] = l;
                        nin += in;
                    }
                    for (int j = 0; j < nin; j++)
                        join_min(parent, k, near_of[j]);
                    ci += nin;
                }
                best[k] = bi;
                count[k] += ci;
                pairs += 2 * ci;
            }
        }
    }
    for (int k = 0; k < n; k++) {
        int i = g->order[k];
        m->neighbour_count[i] = count[k];
        if (near)
            near[i] = best[k] <= step * step ? sqrt(best[k]) : nearest_of(g, f, i);
    }
    label_clusters(m, n);
    *out = pairs;
    return MUR_OK;
}

/* Enters with the clusters joined; leaves with (sums: for milling_of) each
 * root's position sums in m->sum (cos/sin of the angles under wrap, plain
 * sums else), the count of
 * clusters and the largest one's share of the flock in out, and every boid
 * labelled with its cluster's smallest member in m->cluster_of. */
static void tally_clusters(mur_metrics_ctx *m, const mur_flock *f, int n, int sums, mur_metrics *out)
{
    const mur_params *p = mur_flock_params(f);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    int wrap = p->boundary == MUR_BOUNDARY_WRAP;
    /* Cluster centres (for milling alone): circular mean per axis under
     * wrap, plain mean else. */
    if (sums)
        memset(m->sum, 0, 4 * (size_t)n * sizeof *m->sum);
    int clusters = 0, largest = 0;
    for (int i = 0; i < n; i++) {
        int r = find(m->parent, i);
        if (sums) {
            double *s = &m->sum[4 * (size_t)r];
            if (wrap) {
                double ax = 2 * MUR_PI * x[i] / p->width, ay = 2 * MUR_PI * y[i] / p->height;
                s[0] += cos(ax); s[1] += sin(ax);
                s[2] += cos(ay); s[3] += sin(ay);
            } else {
                s[0] += x[i];
                s[2] += y[i];
            }
        }
        if (r == i) {
            clusters++;
            if (m->size[i] > largest)
                largest = m->size[i];
        }
    }
    out->clusters = clusters;
    out->largest = (double)largest / n;
    /* Clusters are labelled by their smallest member, which is their root
     * (join_min): a name that does not depend on the order pairs were
     * joined in. */
    for (int i = 0; i < n; i++)
        m->cluster_of[i] = find(m->parent, i);
}

/* Enters with the position sums of tally_clusters; returns the milling
 * metric, using m->sum's root slots for each centre and cross sum. */
static double milling_of(mur_metrics_ctx *m, const mur_flock *f, int n)
{
    const mur_params *p = mur_flock_params(f);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    const double *vx = mur_flock_vx(f), *vy = mur_flock_vy(f);
    int wrap = p->boundary == MUR_BOUNDARY_WRAP;
    double on = mur_metrics_on_centre_(p);
    /* Milling: sum over clusters of |sum cross| (= size x per-cluster value),
     * divided by N: the size-weighted average. Crosses accumulate per root in
     * s[1] after the centre is taken out of s. */
    for (int i = 0; i < n; i++) {
        if (find(m->parent, i) != i)
            continue;
        double *s = &m->sum[4 * (size_t)i];
        double ccx, ccy;
        if (wrap) {
            ccx = atan2(-s[1], -s[0]) + MUR_PI;   /* angle in [0, 2pi] */
            ccy = atan2(-s[3], -s[2]) + MUR_PI;
            ccx *= p->width / (2 * MUR_PI);
            ccy *= p->height / (2 * MUR_PI);
        } else {
            ccx = s[0] / m->size[i];
            ccy = s[2] / m->size[i];
        }
        s[0] = ccx;
        s[1] = ccy;
        s[2] = 0;  /* cross sum */
    }
    for (int i = 0; i < n; i++) {
        int root = find(m->parent, i);
        /* A lone boid is its own centre: no rotation. Under wrap its centre
         * comes back from the circular mean with rounding, and the unit of
         * that tiny offset would add an arbitrary +-1/N. */
        if (m->size[root] < 2)
            continue;
        double *s = &m->sum[4 * (size_t)root];
        double cx, cy;
        mur_flock_offset(f, s[0], s[1], x[i], y[i], &cx, &cy);
        s[2] += mur_turn2_(cx, cy, vx[i], vy[i], on);
    }
    double mill = 0;
    for (int i = 0; i < n; i++)
        if (find(m->parent, i) == i)
            mill += fabs(m->sum[4 * (size_t)i + 2]);
    return mill / n;
}

/* The metrics of docs/model.md's first list (order to milling) in want. */
static int neighbour_metrics(mur_metrics_ctx *m, const mur_flock *f, unsigned want, mur_metrics *out)
{
    enum {
        NEAREST = 1u << MUR_METRIC_NEAREST,
        MILLING = 1u << MUR_METRIC_MILLING,
        LINKED = (1u << MUR_METRIC_NEIGHBOURS) | (1u << MUR_METRIC_CLUSTERS) | (1u << MUR_METRIC_LARGEST) | MILLING
    };
    if (mur_flock_dimensions(f) == 3)
        return mur_metrics3_neighbour_(m, f, want, out);
    memset(out, 0, sizeof *out);
    const mur_params *p = mur_flock_params(f);
    int n = mur_flock_count(f);
    const double *vx = mur_flock_vx(f), *vy = mur_flock_vy(f);
    out->order = mur_metrics_order(n, vx, vy);
    if (n <= 0)
        return MUR_OK;
    if (!(want & (NEAREST | LINKED))) {
        out->nearest = out->neighbours = out->largest = out->milling = NAN;
        out->clusters = -1;
        return MUR_OK;
    }
    double R = mur_metrics_radius_(m, p);
    if (mur_metrics_reserve_(m, (size_t)n) || build_grid(m, f, R * (1 + 1e-9)))
        return MUR_ERUN;
    /* nearest and the links in one pass when both are wanted */
    int fused = (want & NEAREST) && (want & LINKED) && n >= 2;
    int rc = (want & NEAREST) && !fused ? nearest_mean(m, f, n, &out->nearest) : MUR_OK;
    if (!(want & NEAREST))
        out->nearest = NAN;
    if (rc || !(want & LINKED)) {
        out->neighbours = out->largest = out->milling = NAN;
        out->clusters = -1;
        return rc;
    }
    long pairs;
    if ((rc = link_neighbours(m, f, n, &pairs, fused ? m->sum : NULL)))
        return rc;
    if (fused) {   /* summed in boid order, as nearest_mean does */
        double near_sum = 0;
        for (int i = 0; i < n; i++)
            near_sum += m->sum[i];
        out->nearest = near_sum / n;
    }
    out->neighbours = (double)pairs / n;
    /* the cluster centres and the rotation about them (trigonometry of
     * every boid under wrap) for milling alone */
    tally_clusters(m, f, n, (want & MILLING) != 0, out);
    out->milling = want & MILLING ? milling_of(m, f, n) : NAN;
    return MUR_OK;
}

/* ---- the field's measures (docs/model.md "Measures of the field") -------- */

/* The group's centre: the circular mean per axis under wrap (a group
 * straddling the seam has its centre on it), the plain mean else. */
static void group_centre(const mur_flock *f, int n, double *cx, double *cy)
{
    const mur_params *p = mur_flock_params(f);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    double s[4] = {0, 0, 0, 0};
    int wrap = p->boundary == MUR_BOUNDARY_WRAP;
    for (int i = 0; i < n; i++) {
        if (wrap) {
            double ax = 2 * MUR_PI * x[i] / p->width, ay = 2 * MUR_PI * y[i] / p->height;
            s[0] += cos(ax); s[1] += sin(ax);
            s[2] += cos(ay); s[3] += sin(ay);
        } else {
            s[0] += x[i];
            s[2] += y[i];
        }
    }
    if (wrap) {
        *cx = (atan2(-s[1], -s[0]) + MUR_PI) * p->width / (2 * MUR_PI);
        *cy = (atan2(-s[3], -s[2]) + MUR_PI) * p->height / (2 * MUR_PI);
    } else {
        *cx = s[0] / n;
        *cy = s[2] / n;
    }
}

/* rotation: |sum unit(c_i - c) x unit(v_i)| / N, n >= 1. */
static double rotation_of(const mur_flock *f, int n, double cx, double cy)
{
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    const double *vx = mur_flock_vx(f), *vy = mur_flock_vy(f);
    double sum = 0, on = mur_metrics_on_centre_(mur_flock_params(f));
    for (int i = 0; i < n; i++) {
        double dx, dy;
        mur_flock_offset(f, cx, cy, x[i], y[i], &dx, &dy);
        sum += mur_turn2_(dx, dy, vx[i], vy[i], on);
    }
    return fabs(sum) / n;
}

/* The 2 x 2 covariance sums of the offsets from the centre (nearest
 * image), as its eigenvalues: half the trace and the distance of each
 * from it (l = half +- d, times n). */
static void covariance2(const mur_flock *f, int n, double cx, double cy, double *half, double *d)
{
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    double mx = 0, my = 0, sxx = 0, syy = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        double dx, dy;
        mur_flock_offset(f, cx, cy, x[i], y[i], &dx, &dy);
        mx += dx;
        my += dy;
    }
    mx /= n;
    my /= n;
    for (int i = 0; i < n; i++) {
        double dx, dy;
        mur_flock_offset(f, cx, cy, x[i], y[i], &dx, &dy);
        dx -= mx;
        dy -= my;
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
    }
    *half = 0.5 * (sxx + syy);
    *d = hypot(0.5 * (sxx - syy), sxy);
}

/* elongation: sqrt(l_max / l_min) of the covariance of the offsets from
 * the centre (nearest image); 1 for a point (or one boid), +inf for a line. */
static double elongation_of(const mur_flock *f, int n, double cx, double cy)
{
    double half, d;
    covariance2(f, n, cx, cy, &half, &d);
    double big = half + d, small = half - d;
    if (!(big > 0))
        return 1;
    return small > 0 ? sqrt(big / small) : INFINITY;
}

/* thickness, width, length in the plane: 0, and sqrt(12 lambda) of the
 * 2 x 2 covariance's smaller and larger eigenvalues (divided by n). */
static void extents_of(const mur_flock *f, int n, double cx, double cy, mur_metrics *out)
{
    double half, d;
    covariance2(f, n, cx, cy, &half, &d);
    out->thickness = 0;
    out->width = sqrt(12 * fmax(0, half - d) / n);
    out->length = sqrt(12 * fmax(0, half + d) / n);
}

void mur_metrics_ctx_set_correlation(mur_metrics_ctx *m, double bin, double range)
{
    m->corr_bin = bin > 0 && isfinite(bin) ? bin : 0;
    m->corr_range = range > 0 && isfinite(range) ? range : 0;
}

/* The C(r) bins the ctx's settings give for flock f. */
static void correlation_bins(const mur_metrics_ctx *m, const mur_flock *f, double *bin, int *nbins)
{
    double R = mur_metrics_radius_(m, mur_flock_params(f));
    double w = m->corr_bin > 0 ? m->corr_bin : R / 4, range = m->corr_range > 0 ? m->corr_range : 10 * R;
    double k = ceil(range / w - 1e-9);
    *bin = w;
    *nbins = k < 1 ? 1 : k > MUR_CORRELATION_BINS ? MUR_CORRELATION_BINS : (int)k;
}

static int reserve_correlation(mur_metrics_ctx *m, size_t n)
{
    if (!m->corr_sum) {
        m->corr_sum = mur_malloc(MUR_CORRELATION_BINS * sizeof *m->corr_sum);
        m->corr_pairs = mur_malloc(MUR_CORRELATION_BINS * sizeof *m->corr_pairs);
        if (!m->corr_sum || !m->corr_pairs)
            return -1;
    }
    if (n <= m->corr_cap)
        return 0;
    double **a[4] = {&m->cx, &m->cy, &m->ux, &m->uy};
    for (int k = 0; k < 4; k++) {
        double *p = mur_realloc(*a[k], n * sizeof *p);
        if (!p)
            return -1;
        *a[k] = p;
    }
    m->corr_cap = n;
    return 0;
}

/* Enters with the grid built over positions placed in m->cx/cy and the
 * fluctuations in m->ux/uy (both by place in the grid's order); sums
 * u_i . u_j and counts over each unordered pair closer than nbins x bin,
 * by bin, measured once from the earlier of its two cells (as
 * link_neighbours). The sums' order is a function of the state alone. */
static int correlation_pairs(mur_metrics_ctx *m, int wrap, double W, double H, double bin, int nbins)
{
    const mur_grid *g = &m->grid;
    const double *sx = m->cx, *sy = m->cy, *ux = m->ux, *uy = m->uy;
    double *sum = m->corr_sum, *cnt = m->corr_pairs, inv = 1 / bin, cut = bin * nbins;
    double cut2 = cut * cut;
    for (int k = 0; k < nbins; k++)
        sum[k] = cnt[k] = 0;
    for (int cy = 0; cy < g->gy; cy++) {
        int ys[3], ny = mur_grid_span(cy, g->gy, wrap, ys);
        for (int cx = 0; cx < g->gx; cx++) {
            if (m->stop && *m->stop)
                return MUR_EINTR;
            int c = cy * g->gx + cx, xs[3], nx = mur_grid_span(cx, g->gx, wrap, xs);
            int cells[10], nl = 0;
            cells[nl++] = c;
            for (int b = 0; b < ny; b++)
                for (int a = 0; a < nx; a++)
                    if (ys[b] * g->gx + xs[a] > c)
                        cells[nl++] = ys[b] * g->gx + xs[a];
            for (int k = g->start[c]; k < g->start[c + 1]; k++) {
                double xi = sx[k], yi = sy[k], uxi = ux[k], uyi = uy[k];
                for (int e = 0; e < nl; e++) {
                    int l0 = e == 0 ? k + 1 : g->start[cells[e]], l1 = g->start[cells[e] + 1];
                    for (int l = l0; l < l1; l++) {
                        double dx = off(xi, sx[l], wrap, W), dy = off(yi, sy[l], wrap, H);
                        double d2 = dx * dx + dy * dy;
                        if (d2 >= cut2)
                            continue;
                        int b = (int)(sqrt(d2) * inv);
                        b = b < nbins ? b : nbins - 1;   /* rounding at the cut-off */
                        sum[b] += uxi * ux[l] + uyi * uy[l];
                        cnt[b] += 1;
                    }
                }
            }
        }
    }
    return MUR_OK;
}

int mur_metrics_correlation(mur_metrics_ctx *m, const mur_flock *f, double bin, int nbins, double *c,
                            double *pairs)
{
    const mur_params *p = mur_flock_params(f);
    int n = mur_flock_count(f), wrap = p->boundary == MUR_BOUNDARY_WRAP;
    nbins = nbins < 1 ? 1 : nbins > MUR_CORRELATION_BINS ? MUR_CORRELATION_BINS : nbins;
    for (int k = 0; k < nbins; k++) {
        c[k] = NAN;
        if (pairs)
            pairs[k] = 0;
    }
    if (n < 2 || !(bin > 0))
        return MUR_OK;
    if (mur_flock_dimensions(f) == 3)
        return mur_metrics3_correlation_(m, f, bin, nbins, c, pairs);
    if (reserve_correlation(m, (size_t)n))
        return MUR_ERUN;
    const double *x = mur_flock_x(f), *y = mur_flock_y(f), *vx = mur_flock_vx(f), *vy = mur_flock_vy(f);
    /* Without wrap the grid spans the group's own box (walls keep it in
     * the world, an open plane does not) */
    double x0 = 0, y0 = 0, W = p->width, H = p->height;
    if (!wrap) {
        double x1 = x[0], y1 = y[0];
        x0 = x[0];
        y0 = y[0];
        for (int i = 1; i < n; i++) {
            x0 = x[i] < x0 ? x[i] : x0;
            x1 = x[i] > x1 ? x[i] : x1;
            y0 = y[i] < y0 ? y[i] : y0;
            y1 = y[i] > y1 ? y[i] : y1;
        }
        W = x1 - x0 > 0 ? x1 - x0 : bin;
        H = y1 - y0 > 0 ? y1 - y0 : bin;
    }
    double *px = m->ux, *py = m->uy;   /* the shifted positions, before the grid's order is known */
    double mvx = 0, mvy = 0;
    for (int i = 0; i < n; i++) {
        px[i] = x[i] - x0;
        py[i] = y[i] - y0;
        mvx += vx[i];
        mvy += vy[i];
    }
    mvx /= n;
    mvy /= n;
    if (mur_grid_build(&m->grid, px, py, n, W, H, bin * nbins * (1 + 1e-9), wrap))
        return MUR_ERUN;
    double uu = 0;
    for (int k = 0; k < n; k++) {
        int i = m->grid.order[k];
        m->cx[k] = px[i];
        m->cy[k] = py[i];
    }
    for (int k = 0; k < n; k++) {   /* px, py were ux, uy: read before overwritten */
        int i = m->grid.order[k];
        m->ux[k] = vx[i] - mvx;
        m->uy[k] = vy[i] - mvy;
    }
    for (int i = 0; i < n; i++)
        uu += (vx[i] - mvx) * (vx[i] - mvx) + (vy[i] - mvy) * (vy[i] - mvy);
    uu /= n;
    int rc = correlation_pairs(m, wrap, W, H, bin, nbins);
    if (rc)
        return rc;
    for (int k = 0; k < nbins; k++) {
        if (m->corr_pairs[k] > 0 && uu > 0)
            c[k] = m->corr_sum[k] / m->corr_pairs[k] / uu;
        if (pairs)
            pairs[k] = m->corr_pairs[k];
    }
    return MUR_OK;
}

double mur_correlation_zero(const double *c, int nbins, double bin)
{
    double r0 = 0, c0 = 1;   /* the last point above zero: C(0) = 1 to start */
    for (int k = 0; k < nbins; k++) {
        if (isnan(c[k]))
            continue;
        double r = (k + 0.5) * bin;
        if (c[k] <= 0)
            return r0 + (r - r0) * c0 / (c0 - c[k]);
        r0 = r;
        c0 = c[k];
    }
    return NAN;
}

/* A plane's rotation, elongation and extents in want into out (n >= 1). */
static void plane_shape(const mur_flock *f, int n, unsigned want, mur_metrics *out)
{
    enum { EXTENTS = 1u << MUR_METRIC_THICKNESS | 1u << MUR_METRIC_WIDTH | 1u << MUR_METRIC_LENGTH };
    double cx, cy;
    group_centre(f, n, &cx, &cy);
    if (want & 1u << MUR_METRIC_ROTATION)
        out->rotation = rotation_of(f, n, cx, cy);
    if (want & 1u << MUR_METRIC_ELONGATION)
        out->elongation = elongation_of(f, n, cx, cy);
    if (want & EXTENTS) {
        mur_metrics e;
        extents_of(f, n, cx, cy, &e);
        if (want & 1u << MUR_METRIC_THICKNESS)
            out->thickness = e.thickness;
        if (want & 1u << MUR_METRIC_WIDTH)
            out->width = e.width;
        if (want & 1u << MUR_METRIC_LENGTH)
            out->length = e.length;
    }
}

/* A 3D flock whose C(r) stays above 0 within the default range (10 R: a
 * starling's R is a few metres, its flock tens of metres across) is
 * measured again over every pair: bins as wide (wider when they would be
 * more than MUR_CORRELATION_BINS) up to its box's diagonal, which no
 * pair's distance (nearest image or not) exceeds. 1 when that reaches
 * past the default range. */
static int all_pairs_bins(const mur_flock *f, double *bin, int *nbins)
{
    const double *a[3] = {mur_flock_x(f), mur_flock_y(f), mur_flock_z(f)};
    int n = mur_flock_count(f);
    double diag = 0;
    for (int c = 0; c < 3; c++) {
        double lo = a[c][0], hi = a[c][0];
        for (int i = 1; i < n; i++) {
            lo = fmin(lo, a[c][i]);
            hi = fmax(hi, a[c][i]);
        }
        diag += (hi - lo) * (hi - lo);
    }
    diag = sqrt(diag) * (1 + 1e-9);
    if (!(diag > *bin * *nbins))
        return 0;
    double k = ceil(diag / *bin);
    if (k > MUR_CORRELATION_BINS) {
        *bin = diag / MUR_CORRELATION_BINS;
        k = MUR_CORRELATION_BINS;
    }
    *nbins = (int)k;
    return 1;
}

/* The field's measures in want into out (n >= 1); the others NaN. */
static int field_measures(mur_metrics_ctx *m, const mur_flock *f, unsigned want, mur_metrics *out)
{
    enum { EXTENTS = 1u << MUR_METRIC_THICKNESS | 1u << MUR_METRIC_WIDTH | 1u << MUR_METRIC_LENGTH };
    int n = mur_flock_count(f);
    out->rotation = out->correlation_length = out->elongation = NAN;
    out->thickness = out->width = out->length = out->thin_gravity = out->thin_heading = NAN;
    out->wave_speed = out->wave_birds = NAN;
    if (want & (1u << MUR_METRIC_WAVE_SPEED | 1u << MUR_METRIC_WAVE_BIRDS))
        mur_escape_wave_(f, &out->wave_speed, &out->wave_birds);
    if (mur_flock_dimensions(f) == 3) {
        mur_metrics3_shape_(f, want, out);
    } else {
        if (want & (1u << MUR_METRIC_THIN_GRAVITY | 1u << MUR_METRIC_THIN_HEADING)) {
            out->thin_gravity = 1;   /* the plane's normal is its thinnest axis; no velocity has a z */
            out->thin_heading = 0;
        }
        if (want & (1u << MUR_METRIC_ROTATION | 1u << MUR_METRIC_ELONGATION | EXTENTS))
            plane_shape(f, n, want, out);
    }
    if (!(want & 1u << MUR_METRIC_CORRELATION_LENGTH))
        return MUR_OK;
    double bin, c[MUR_CORRELATION_BINS];
    int nbins;
    correlation_bins(m, f, &bin, &nbins);
    int rc = mur_metrics_correlation(m, f, bin, nbins, c, NULL);
    if (!rc)
        out->correlation_length = mur_correlation_zero(c, nbins, bin);
    if (!rc && isnan(out->correlation_length) && mur_flock_dimensions(f) == 3 && !(m->corr_range > 0) &&
        all_pairs_bins(f, &bin, &nbins)) {
        rc = mur_metrics_correlation(m, f, bin, nbins, c, NULL);
        if (!rc)
            out->correlation_length = mur_correlation_zero(c, nbins, bin);
    }
    return rc;
}

int mur_metrics_compute_some(mur_metrics_ctx *m, const mur_flock *f, unsigned want, mur_metrics *out)
{
    int rc = neighbour_metrics(m, f, want, out);
    if (rc)
        return rc;
    if (mur_flock_count(f) <= 0) {   /* nothing to turn, to stretch or to correlate */
        out->rotation = 0;
        out->elongation = 1;
        out->thickness = out->width = out->length = 0;
        out->correlation_length = out->thin_gravity = out->thin_heading = NAN;
        out->wave_speed = out->wave_birds = NAN;
        return mur_metrics_topo_(m, f, 0, out);   /* all NaN */
    }
    rc = field_measures(m, f, want, out);
    return rc ? rc : mur_metrics_topo_(m, f, want, out);
}

/* ---- per-boid quantities -------------------------------------------------- */

static const mur_boid_quantity quantity_table[MUR_BOID_QUANTITY_COUNT] = {
    {"nearest", "nearest-neighbour distance", "world units",
     "the distance from each boid to its nearest other boid (nearest image)", 0},
    {"neighbours", "neighbours within R_coh", "boids",
     "each boid's count of other boids within the measuring (cohesion) radius", 1},
    {"speed", "speed", "world units a tick", "each boid's speed |v|", 0},
    {"roll", "|roll|", "degrees",
     "each bird's |roll| from level flight (model: starling; no value for other models)", 0},
};

const mur_boid_quantity *mur_boid_quantity_at(int k)
{
    return k >= 0 && k < MUR_BOID_QUANTITY_COUNT ? &quantity_table[k] : NULL;
}

int mur_boid_quantity_find(const char *name)
{
    for (int k = 0; k < MUR_BOID_QUANTITY_COUNT; k++)
        if (strcmp(quantity_table[k].name, name) == 0)
            return k;
    return -1;
}

int mur_metrics_per_boid(mur_metrics_ctx *m, const mur_flock *f, int k, double *out)
{
    if (k == 3) {
        mur_metrics_roll_(f, out);
        return MUR_OK;
    }
    if (mur_flock_dimensions(f) == 3)
        return mur_metrics3_per_boid_(m, f, k, out);
    int n = mur_flock_count(f);
    const double *vx = mur_flock_vx(f), *vy = mur_flock_vy(f);
    if (k == 2 || n <= 0) {
        for (int i = 0; i < n; i++)
            out[i] = sqrt(vx[i] * vx[i] + vy[i] * vy[i]);
        return MUR_OK;
    }
    mur_metrics mm;
    if (k == 1) {
        int rc = mur_metrics_compute_some(m, f, 1u << MUR_METRIC_NEIGHBOURS, &mm);
        for (int i = 0; !rc && i < n; i++)
            out[i] = m->neighbour_count[i];
        return rc;
    }
    const mur_params *p = mur_flock_params(f);
    if (mur_metrics_reserve_(m, (size_t)n) || build_grid(m, f, mur_metrics_radius_(m, p) * (1 + 1e-9)))
        return MUR_ERUN;
    for (int i = 0; i < n; i++) {
        if (stop_at(m, i))
            return MUR_EINTR;
        out[i] = n >= 2 ? nearest_of(&m->grid, f, i) : 0;
    }
    return MUR_OK;
}


int mur_metrics_compute(mur_metrics_ctx *m, const mur_flock *f, mur_metrics *out)
{
    return mur_metrics_compute_some(m, f, (1u << MUR_METRIC_COUNT) - 1, out);
}
