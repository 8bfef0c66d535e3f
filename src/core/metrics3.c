/* The metrics of docs/model.md in a 3D world ("Three dimensions"): the
 * same definitions with three components, over a grid of boxes.
 *
 * Boxes are at least the measuring radius wide (the 3 x 3 x 3 block around
 * a boid's box holds every boid closer than it); the nearest neighbour
 * searches shells of boxes outwards until no unvisited box can hold
 * anything closer; C(r)'s boxes are as wide as its cut-off and each pair is
 * measured once, from the earlier of its two boxes. Offsets are to the
 * nearest image along each of the three axes under wrap; cluster and group
 * centres are the circular mean per axis there. Every result is a function
 * of the state alone: a count, a minimum, a partition named by smallest
 * members, or a sum in an order the state fixes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "murmur/alloc.h"

#include "filter.h"
#include "flock_internal.h"
#include "metrics_internal.h"

/* The grid of boxes is the 3D tick's (flock_internal.h's mur_grid3):
 * box c holds positions start[c] .. start[c + 1] - 1 of order (ascending
 * boid index); cell is the smallest side. */
typedef mur_grid3 box_grid;

struct mur_metrics3 {
    box_grid g;
    size_t cap;
    double *best;                  /* per boid: squared distance to the nearest found */
    double *sum;                   /* per root: 6 sums (cos, sin or plain, per axis), then centre and cross */
    double *px, *py, *pz, *ux, *uy, *uz;   /* C(r): positions and fluctuations by place */
};

void mur_metrics3_free_(struct mur_metrics3 *s)
{
    if (!s)
        return;
    mur_grid3_free_(&s->g);
    double *a[] = {s->best, s->sum, s->px, s->py, s->pz, s->ux, s->uy, s->uz};
    for (size_t k = 0; k < sizeof a / sizeof a[0]; k++)
        mur_free(a[k]);
    mur_free(s);
}

/* The 3D scratch for n boids, made on first use; NULL without memory. */
static struct mur_metrics3 *scratch(mur_metrics_ctx *m, size_t n)
{
    if (!m->m3 && !(m->m3 = mur_calloc(1, sizeof *m->m3)))
        return NULL;
    struct mur_metrics3 *s = m->m3;
    if (n <= s->cap)
        return s;
    double **a[] = {&s->best, &s->px, &s->py, &s->pz, &s->ux, &s->uy, &s->uz};
    for (size_t k = 0; k < sizeof a / sizeof a[0]; k++) {
        double *p = mur_realloc(*a[k], n * sizeof *p);
        if (!p)
            return NULL;
        *a[k] = p;
    }
    double *p = mur_realloc(s->sum, 12 * n * sizeof *p);
    if (!p)
        return NULL;
    s->sum = p;
    s->cap = n;
    return s;
}

/* Files n boids into boxes at least `cell` wide: under wrap a whole number
 * of boxes tiles each axis of the world (size[]), else boxes cover the
 * boids' bounding box. At most 4 n + 64 boxes. 0, or -1 without memory. */
static int build(box_grid *g, const double *x, const double *y, const double *z, int n, const double size[3],
                 int wrap, double cell)
{
    return mur_grid3_build_(g, NULL, x, y, z, n, size, !wrap, wrap, cell, (size_t)n * 4 + 64);
}

/* The boids' positions by place in the grid's order into s->px, py, pz. */
static void by_place(struct mur_metrics3 *s, const mur_flock *f, int n)
{
    const double *x = mur_flock_x(f), *y = mur_flock_y(f), *z = mur_flock_z(f);
    for (int k = 0; k < n; k++) {
        int i = s->g.order[k];
        s->px[k] = x[i];
        s->py[k] = y[i];
        s->pz[k] = z[i];
    }
}

/* The distinct boxes of the 3 x 3 x 3 block around box c into out (at most
 * 27), ascending; how many. */
static int block(const box_grid *g, int c, int out[27])
{
    int cx = c % g->n[0], cy = c / g->n[0] % g->n[1], cz = c / g->n[0] / g->n[1];
    int xs[3], ys[3], zs[3];
    int nx = mur_grid_span(cx, g->n[0], g->wrap, xs), ny = mur_grid_span(cy, g->n[1], g->wrap, ys),
        nz = mur_grid_span(cz, g->n[2], g->wrap, zs);
    int k = 0;
    for (int a = 0; a < nz; a++)
        for (int b = 0; b < ny; b++)
            for (int e = 0; e < nx; e++)
                out[k++] = (zs[a] * g->n[1] + ys[b]) * g->n[0] + xs[e];
    /* insertion sort: at most 27 */
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            int t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return k;
}

/* The squared distance between the boids at places k and l of the grid's
 * order (positions copied by place: a box's boids are together in memory),
 * nearest image under wrap. */
static inline double dist2(const struct mur_metrics3 *s, int k, int l, int wrap, const double size[3])
{
    double d[3] = {s->px[l] - s->px[k], s->py[l] - s->py[k], s->pz[l] - s->pz[k]};
    if (wrap)
        for (int c = 0; c < 3; c++)
            d[c] = mur_near_image(d[c], size[c]);
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

static void world_size(const mur_params *p, double size[3])
{
    size[0] = p->width;
    size[1] = p->height;
    size[2] = p->depth;
}

void mur_grid_shell_(const int at[3], const int n[3], int wrap, int r, void (*visit)(void *, int), void *ctx)
{
    int lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = -r;
        hi[a] = r;
        if (wrap) {   /* a shell wider than the axis: each box once */
            if (2 * r + 1 > n[a]) {
                lo[a] = -(n[a] / 2);
                hi[a] = lo[a] + n[a] - 1;
            }
        } else {
            lo[a] = at[a] - r < 0 ? -at[a] : -r;
            hi[a] = at[a] + r > n[a] - 1 ? n[a] - 1 - at[a] : r;
        }
    }
    for (int oz = lo[2]; oz <= hi[2]; oz++)
        for (int oy = lo[1]; oy <= hi[1]; oy++)
            for (int ox = lo[0]; ox <= hi[0]; ox++) {
                if (abs(ox) != r && abs(oy) != r && abs(oz) != r)
                    continue;   /* inside: a smaller shell's */
                int b[3] = {at[0] + ox, at[1] + oy, at[2] + oz};
                for (int a = 0; a < 3; a++)
                    b[a] = ((b[a] % n[a]) + n[a]) % n[a];
                visit(ctx, (b[2] * n[1] + b[1]) * n[0] + b[0]);
            }
}

int mur_grid_shell_last_(const int at[3], const int n[3], int wrap)
{
    int rmax = 0;
    for (int a = 0; a < 3; a++) {
        int r = wrap ? n[a] / 2 : (at[a] > n[a] - 1 - at[a] ? at[a] : n[a] - 1 - at[a]);
        rmax = r > rmax ? r : rmax;
    }
    return rmax;
}

typedef struct {
    const struct mur_metrics3 *s;
    int place;
    double size[3], best2;
} nearest_search;

static void nearest_in(void *ctx, int cell)
{
    nearest_search *q = ctx;
    const box_grid *g = &q->s->g;
    for (int l = g->start[cell]; l < g->start[cell + 1]; l++) {
        if (l == q->place)
            continue;
        double d2 = dist2(q->s, q->place, l, g->wrap, q->size);
        q->best2 = d2 < q->best2 ? d2 : q->best2;
    }
}

/* The distance from boid i to its nearest other boid: shells of boxes
 * around i's, stopping once the best is within the next shell's inner
 * distance, or every box has been looked at (n >= 2). */
static double nearest_of(const struct mur_metrics3 *s, const mur_flock *f, int i, double best2)
{
    const box_grid *g = &s->g;
    nearest_search q = {s, g->slot[i], {0, 0, 0}, best2};
    world_size(mur_flock_params(f), q.size);
    int c = g->cell_of[i], at[3] = {c % g->n[0], c / g->n[0] % g->n[1], c / g->n[0] / g->n[1]};
    int rmax = mur_grid_shell_last_(at, g->n, g->wrap);   /* the shell past which no box is new */
    for (int r = 0; r <= rmax; r++) {
        mur_grid_shell_(at, g->n, g->wrap, r, nearest_in, &q);
        /* a box beyond this shell is r boxes or more from i's own */
        double reach = r * g->cell;
        if (q.best2 <= reach * reach)
            break;
    }
    return sqrt(q.best2);
}

/* Every boid's count of others within R, their pairs joined in the
 * union-find (each set named by its smallest member), and each boid's
 * best squared distance within its block in s->best; the count of ordered
 * pairs. Enters with the grid built with boxes >= R. */
static int link(mur_metrics_ctx *m, struct mur_metrics3 *s, const mur_flock *f, int n, double R, long *pairs)
{
    const box_grid *g = &s->g;
    double size[3];
    world_size(mur_flock_params(f), size);
    double T = mur_sqrt_bound(R);
    int *parent = m->parent, *count = m->neighbour_count;
    for (int i = 0; i < n; i++) {
        parent[i] = i;
        count[i] = 0;
        s->best[i] = INFINITY;
    }
    long total = 0;
    /* by place: a box's boids, then the next box's, share their block */
    int cells[27], nc = 0, at = -1;
    for (int k = 0; k < n; k++) {
        if (k % 4096 == 4095 && m->stop && *m->stop)
            return MUR_EINTR;
        int i = g->order[k];
        if (g->cell_of[i] != at)
            nc = block(g, at = g->cell_of[i], cells);
        double best = INFINITY;
        int ci = 0;
        for (int e = 0; e < nc; e++)
            for (int l = g->start[cells[e]]; l < g->start[cells[e] + 1]; l++) {
                if (l == k)
                    continue;
                double d2 = dist2(s, k, l, g->wrap, size);
                best = d2 < best ? d2 : best;
                if (d2 < T) {
                    ci++;
                    int j = g->order[l];
                    if (j > i)
                        join_min(parent, i, j);
                }
            }
        count[i] = ci;
        s->best[i] = best;
        total += ci;
    }
    *pairs = total;
    return MUR_OK;
}

/* Per axis a of size w: the circular mean of the angles 2 pi u / w
 * (cos sum c, sin sum s) taken back to [0, w], or the plain mean. */
static double mean_axis(double c, double s, double plain, int wrap, double w, int n)
{
    return wrap ? (atan2(-s, -c) + MUR_PI) * w / (2 * MUR_PI) : plain / n;
}

static void add_axis(double *s, double u, int wrap, double w)
{
    if (wrap) {
        double a = 2 * MUR_PI * u / w;
        s[0] += cos(a);
        s[1] += sin(a);
    } else {
        s[0] += u;
    }
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* The term unit(c) x unit(v) into acc, for offset c from a centre and
 * velocity v (mur_turn2_'s in space): nothing when the boid is on the
 * centre (within `on`, mur_metrics_on_centre_) or still. */
static void add_turn(double acc[3], const double c[3], const double v[3], double on)
{
    double cl = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]), vl = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(cl > on && vl > 0))
        return;
    double t[3];
    cross3(c, v, t);
    for (int a = 0; a < 3; a++)
        acc[a] += t[a] / (cl * vl);
}

/* milling in 3D: per cluster the length of sum unit(c_i) x unit(v_i)
 * about its centre, summed over clusters, over N. */
static double milling_of(mur_metrics_ctx *m, struct mur_metrics3 *s, const mur_flock *f, int n)
{
    const mur_params *p = mur_flock_params(f);
    const double *pos[3] = {mur_flock_x(f), mur_flock_y(f), mur_flock_z(f)};
    const double *vel[3] = {mur_flock_vx(f), mur_flock_vy(f), mur_flock_vz(f)};
    double size[3];
    world_size(p, size);
    int wrap = p->boundary == MUR_BOUNDARY_WRAP;
    const int *root = m->cluster_of;
    double *sum = s->sum;
    memset(sum, 0, 12 * (size_t)n * sizeof *sum);
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++)
            add_axis(&sum[12 * (size_t)root[i] + 2 * a], pos[a][i], wrap, size[a]);
    for (int i = 0; i < n; i++) {
        if (root[i] != i)
            continue;
        double *q = &sum[12 * (size_t)i];
        for (int a = 0; a < 3; a++)
            q[6 + a] = mean_axis(q[2 * a], q[2 * a + 1], q[2 * a], wrap, size[a], m->size[i]);
    }
    for (int i = 0; i < n; i++) {
        int r = root[i];
        if (m->size[r] < 2)   /* a lone boid is its own centre: no rotation */
            continue;
        double *q = &sum[12 * (size_t)r];
        double at[3] = {pos[0][i], pos[1][i], pos[2][i]}, c[3], v[3] = {vel[0][i], vel[1][i], vel[2][i]};
        mur_params_offset3(p, &q[6], at, c);
        add_turn(&q[9], c, v, mur_metrics_on_centre_(p));
    }
    double mill = 0;
    for (int i = 0; i < n; i++)
        if (root[i] == i) {
            double *t = &sum[12 * (size_t)i + 9];
            mill += sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
        }
    return mill / n;
}

int mur_metrics3_neighbour_(mur_metrics_ctx *m, const mur_flock *f, unsigned want, mur_metrics *out)
{
    enum {
        NEAREST = 1u << MUR_METRIC_NEAREST,
        MILLING = 1u << MUR_METRIC_MILLING,
        LINKED = (1u << MUR_METRIC_NEIGHBOURS) | (1u << MUR_METRIC_CLUSTERS) | (1u << MUR_METRIC_LARGEST) | MILLING
    };
    memset(out, 0, sizeof *out);
    const mur_params *p = mur_flock_params(f);
    int n = mur_flock_count(f);
    out->order = mur_metrics_order_of(f);
    if (n <= 0)
        return MUR_OK;
    if (!(want & (NEAREST | LINKED))) {
        out->nearest = out->neighbours = out->largest = out->milling = NAN;
        out->clusters = -1;
        return MUR_OK;
    }
    double R = mur_metrics_radius_(m, p), size[3];
    world_size(p, size);
    struct mur_metrics3 *s = scratch(m, (size_t)n);
    if (!s || mur_metrics_reserve_(m, (size_t)n) ||
        build(&s->g, mur_flock_x(f), mur_flock_y(f), mur_flock_z(f), n, size, p->boundary == MUR_BOUNDARY_WRAP,
              R * (1 + 1e-9)))
        return MUR_ERUN;
    by_place(s, f, n);
    if (!(want & LINKED)) {
        /* searched by place (neighbouring boxes stay in the cache), summed by boid */
        double sum = 0, *near = s->ux;
        for (int k = 0; n >= 2 && k < n; k++) {
            if (k % 4096 == 4095 && m->stop && *m->stop)
                return MUR_EINTR;
            near[s->g.order[k]] = nearest_of(s, f, s->g.order[k], INFINITY);
        }
        for (int i = 0; n >= 2 && i < n; i++)
            sum += near[i];
        out->nearest = n >= 2 ? sum / n : 0;
        out->neighbours = out->largest = out->milling = NAN;
        out->clusters = -1;
        return MUR_OK;
    }
    long pairs;
    int rc = link(m, s, f, n, R, &pairs);
    if (rc)
        return rc;
    if (want & NEAREST) {
        /* the block holds every boid within the smallest side: a best
         * within it is the nearest; else the shells search on */
        double sum = 0;
        for (int i = 0; n >= 2 && i < n; i++) {
            double b = s->best[i];
            sum += b <= s->g.cell * s->g.cell ? sqrt(b) : nearest_of(s, f, i, b);
        }
        out->nearest = n >= 2 ? sum / n : 0;
    } else {
        out->nearest = NAN;
    }
    out->neighbours = (double)pairs / n;
    int clusters = 0, largest = 0;
    for (int i = 0; i < n; i++)
        m->size[i] = 0;
    for (int i = 0; i < n; i++) {
        m->cluster_of[i] = find(m->parent, i);
        m->size[m->cluster_of[i]]++;
    }
    for (int i = 0; i < n; i++)
        if (m->cluster_of[i] == i) {
            clusters++;
            largest = m->size[i] > largest ? m->size[i] : largest;
        }
    out->clusters = clusters;
    out->largest = (double)largest / n;
    out->milling = want & MILLING ? milling_of(m, s, f, n) : NAN;
    return MUR_OK;
}

/* ---- the group's shape ---------------------------------------------------- */

void mur_sym3_eigenvalues_(const double a[9], double l[3])
{
    double v[3][3];
    mur_sym3_eigen_(a, l, v);
}

void mur_sym3_eigen_(const double a[9], double l[3], double vec[3][3])
{
    double A[3][3], V[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            A[i][j] = 0.5 * (a[3 * i + j] + a[3 * j + i]);
    for (int sweep = 0; sweep < 64; sweep++) {
        double off = A[0][1] * A[0][1] + A[0][2] * A[0][2] + A[1][2] * A[1][2];
        double diag = A[0][0] * A[0][0] + A[1][1] * A[1][1] + A[2][2] * A[2][2];
        if (off == 0 || off <= 1e-36 * diag)
            break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (A[p][q] == 0)
                    continue;
                /* the rotation in the (p, q) plane that zeroes A[p][q] */
                double theta = (A[q][q] - A[p][p]) / (2 * A[p][q]);
                double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 3; k++) {   /* A <- A J */
                    double akp = A[k][p], akq = A[k][q];
                    A[k][p] = c * akp - s * akq;
                    A[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) {   /* A <- J^T A */
                    double apk = A[p][k], aqk = A[q][k];
                    A[p][k] = c * apk - s * aqk;
                    A[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; k++) {   /* V <- V J: its columns turn into the eigenvectors */
                    double vkp = V[k][p], vkq = V[k][q];
                    V[k][p] = c * vkp - s * vkq;
                    V[k][q] = s * vkp + c * vkq;
                }
            }
    }
    int at[3] = {0, 1, 2};
    for (int i = 0; i < 3; i++)
        l[i] = A[i][i];
    for (int i = 1; i < 3; i++)
        for (int j = i; j > 0 && l[j - 1] > l[j]; j--) {
            double t = l[j];
            int ta = at[j];
            l[j] = l[j - 1];
            l[j - 1] = t;
            at[j] = at[j - 1];
            at[j - 1] = ta;
        }
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            vec[i][k] = V[k][at[i]];
}

/* The thinnest axis e (unit, of eigenvalues l ascending) against gravity
 * and the mean of n velocities: |cos| of each angle, NaN where the axis is
 * not one (the two smallest extents equal: a line or a point, no thin
 * direction) or the mean velocity is 0. */
static void thin_axis(const double *const vel[3], int n, const double l[3], const double e[3], mur_metrics *out)
{
    double u[3] = {0, 0, 0};
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++)
            u[a] += vel[a][i];
    double ul = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    int axis = l[1] > l[0] * (1 + 1e-9) && l[1] > 0;
    out->thin_gravity = axis ? fabs(e[2]) : NAN;
    out->thin_heading = axis && ul > 0 ? fabs(e[0] * u[0] + e[1] * u[1] + e[2] * u[2]) / ul : NAN;
}

void mur_metrics3_shape_(const mur_flock *f, unsigned want, mur_metrics *out)
{
    enum {
        ROTATION = 1u << MUR_METRIC_ROTATION,
        THIN = 1u << MUR_METRIC_THIN_GRAVITY | 1u << MUR_METRIC_THIN_HEADING,
        SHAPE = 1u << MUR_METRIC_ELONGATION | 1u << MUR_METRIC_THICKNESS | 1u << MUR_METRIC_WIDTH |
                1u << MUR_METRIC_LENGTH | THIN
    };
    if (!(want & (ROTATION | SHAPE)))
        return;
    const mur_params *p = mur_flock_params(f);
    int n = mur_flock_count(f), wrap = p->boundary == MUR_BOUNDARY_WRAP;
    const double *pos[3] = {mur_flock_x(f), mur_flock_y(f), mur_flock_z(f)};
    const double *vel[3] = {mur_flock_vx(f), mur_flock_vy(f), mur_flock_vz(f)};
    double size[3], q[6] = {0, 0, 0, 0, 0, 0}, c[3];
    world_size(p, size);
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++)
            add_axis(&q[2 * a], pos[a][i], wrap, size[a]);
    for (int a = 0; a < 3; a++)
        c[a] = mean_axis(q[2 * a], q[2 * a + 1], q[2 * a], wrap, size[a], n);
    if (want & ROTATION) {
        double t[3] = {0, 0, 0};
        for (int i = 0; i < n; i++) {
            double at[3] = {pos[0][i], pos[1][i], pos[2][i]}, d[3], v[3] = {vel[0][i], vel[1][i], vel[2][i]};
            mur_params_offset3(p, c, at, d);
            add_turn(t, d, v, mur_metrics_on_centre_(p));
        }
        out->rotation = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]) / n;
    }
    if (!(want & SHAPE))
        return;
    double mean[3] = {0, 0, 0}, cov[9] = {0};
    for (int i = 0; i < n; i++) {
        double at[3] = {pos[0][i], pos[1][i], pos[2][i]}, d[3];
        mur_params_offset3(p, c, at, d);
        for (int a = 0; a < 3; a++)
            mean[a] += d[a];
    }
    for (int a = 0; a < 3; a++)
        mean[a] /= n;
    for (int i = 0; i < n; i++) {
        double at[3] = {pos[0][i], pos[1][i], pos[2][i]}, d[3];
        mur_params_offset3(p, c, at, d);
        for (int a = 0; a < 3; a++)
            d[a] -= mean[a];
        for (int a = 0; a < 3; a++)
            for (int b = a; b < 3; b++)
                cov[3 * a + b] += d[a] * d[b];
    }
    for (int a = 0; a < 3; a++)
        for (int b = a; b < 3; b++)
            cov[3 * b + a] = cov[3 * a + b] /= n;
    double l[3], axis[3][3];
    mur_sym3_eigen_(cov, l, axis);
    if (want & THIN)
        thin_axis(vel, n, l, axis[0], out);
    if (want & 1u << MUR_METRIC_ELONGATION)
        out->elongation = !(l[2] > 0) ? 1 : l[0] > 0 ? sqrt(l[2] / l[0]) : INFINITY;
    if (want & 1u << MUR_METRIC_THICKNESS)
        out->thickness = sqrt(12 * fmax(0, l[0]));
    if (want & 1u << MUR_METRIC_WIDTH)
        out->width = sqrt(12 * fmax(0, l[1]));
    if (want & 1u << MUR_METRIC_LENGTH)
        out->length = sqrt(12 * fmax(0, l[2]));
}

/* ---- C(r) ------------------------------------------------------------------ */

int mur_metrics3_correlation_(mur_metrics_ctx *m, const mur_flock *f, double bin, int nbins, double *c,
                              double *pairs)
{
    /* mur_metrics_correlation has clamped nbins, filled c and pairs with NaN
     * and 0, and left when there is nothing to measure */
    const mur_params *p = mur_flock_params(f);
    int n = mur_flock_count(f), wrap = p->boundary == MUR_BOUNDARY_WRAP;
    if (!m->corr_sum) {
        m->corr_sum = mur_malloc(MUR_CORRELATION_BINS * sizeof *m->corr_sum);
        m->corr_pairs = mur_malloc(MUR_CORRELATION_BINS * sizeof *m->corr_pairs);
        if (!m->corr_sum || !m->corr_pairs)
            return MUR_ERUN;
    }
    struct mur_metrics3 *s = scratch(m, (size_t)n);
    double size[3];
    world_size(p, size);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f), *z = mur_flock_z(f);
    const double *vx = mur_flock_vx(f), *vy = mur_flock_vy(f), *vz = mur_flock_vz(f);
    double cut = bin * nbins, cut2 = cut * cut, inv = 1 / bin;
    if (!s || build(&s->g, x, y, z, n, size, wrap, cut * (1 + 1e-9)))
        return MUR_ERUN;
    const box_grid *g = &s->g;
    double mv[3] = {0, 0, 0}, uu = 0;
    for (int i = 0; i < n; i++) {
        mv[0] += vx[i];
        mv[1] += vy[i];
        mv[2] += vz[i];
    }
    for (int a = 0; a < 3; a++)
        mv[a] /= n;
    for (int k = 0; k < n; k++) {   /* by place in the grid's order */
        int i = g->order[k];
        s->px[k] = x[i];
        s->py[k] = y[i];
        s->pz[k] = z[i];
        s->ux[k] = vx[i] - mv[0];
        s->uy[k] = vy[i] - mv[1];
        s->uz[k] = vz[i] - mv[2];
    }
    for (int i = 0; i < n; i++)
        uu += (vx[i] - mv[0]) * (vx[i] - mv[0]) + (vy[i] - mv[1]) * (vy[i] - mv[1]) +
              (vz[i] - mv[2]) * (vz[i] - mv[2]);
    uu /= n;
    double *sum = m->corr_sum, *cnt = m->corr_pairs;
    for (int k = 0; k < nbins; k++)
        sum[k] = cnt[k] = 0;
    int ncell = g->n[0] * g->n[1] * g->n[2];
    for (int cell = 0; cell < ncell; cell++) {
        if (g->start[cell] == g->start[cell + 1])
            continue;
        if (m->stop && *m->stop)
            return MUR_EINTR;
        int all[27], na = block(g, cell, all), cells[27], nl = 0;
        cells[nl++] = cell;   /* its own, then the later ones: each pair once */
        for (int e = 0; e < na; e++)
            if (all[e] > cell)
                cells[nl++] = all[e];
        for (int k = g->start[cell]; k < g->start[cell + 1]; k++)
            for (int e = 0; e < nl; e++) {
                int l0 = e == 0 ? k + 1 : g->start[cells[e]], l1 = g->start[cells[e] + 1];
                for (int l = l0; l < l1; l++) {
                    double d[3] = {s->px[l] - s->px[k], s->py[l] - s->py[k], s->pz[l] - s->pz[k]};
                    if (wrap)
                        for (int a = 0; a < 3; a++)
                            d[a] = mur_near_image(d[a], size[a]);
                    double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
                    if (d2 >= cut2)
                        continue;
                    int b = (int)(sqrt(d2) * inv);
                    b = b < nbins ? b : nbins - 1;
                    sum[b] += s->ux[k] * s->ux[l] + s->uy[k] * s->uy[l] + s->uz[k] * s->uz[l];
                    cnt[b] += 1;
                }
            }
    }
    for (int k = 0; k < nbins; k++) {
        if (cnt[k] > 0 && uu > 0)
            c[k] = sum[k] / cnt[k] / uu;
        if (pairs)
            pairs[k] = cnt[k];
    }
    return MUR_OK;
}

/* ---- per-boid quantities --------------------------------------------------- */

int mur_metrics3_per_boid_(mur_metrics_ctx *m, const mur_flock *f, int k, double *out)
{
    int n = mur_flock_count(f);
    const double *vx = mur_flock_vx(f), *vy = mur_flock_vy(f), *vz = mur_flock_vz(f);
    if (k == 2 || n <= 0) {
        for (int i = 0; i < n; i++)
            out[i] = sqrt(vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]);
        return MUR_OK;
    }
    mur_metrics mm;
    if (k == 1) {
        int rc = mur_metrics3_neighbour_(m, f, 1u << MUR_METRIC_NEIGHBOURS, &mm);
        for (int i = 0; !rc && i < n; i++)
            out[i] = m->neighbour_count[i];
        return rc;
    }
    const mur_params *p = mur_flock_params(f);
    double size[3];
    world_size(p, size);
    struct mur_metrics3 *s = scratch(m, (size_t)n);
    if (!s || build(&s->g, mur_flock_x(f), mur_flock_y(f), mur_flock_z(f), n, size,
                    p->boundary == MUR_BOUNDARY_WRAP, mur_metrics_radius_(m, p) * (1 + 1e-9)))
        return MUR_ERUN;
    by_place(s, f, n);
    for (int i = 0; i < n; i++) {
        if (i % 4096 == 4095 && m->stop && *m->stop)
            return MUR_EINTR;
        out[i] = n >= 2 ? nearest_of(s, f, i, INFINITY) : 0;
    }
    return MUR_OK;
}
