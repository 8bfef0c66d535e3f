/* The neighbour kinds in three dimensions (neighbours.c's, in a box).
 *
 * metric: every j != i with 0 < |d_ij| < reach, found in the 3 x 3 x 3
 *   block of grid cells at least reach wide (fewer along an axis of fewer
 *   than three cells, each cell once), each cell's boids in index order.
 *   The cone of view: seen when v_i . d_ij >= cos(fov / 2) |v_i| |d_ij|.
 * topological: the k boids nearest to i (nearest image under wrap;
 *   coincident boids skipped), only those closer than the cap; distance
 *   ties to the lower index. The search visits shells of cells around i's
 *   (the cube of Chebyshev radius r, r = 0, 1, ...) until the k-th best is
 *   closer than anything outside the searched cube can be; a shell that
 *   would meet itself around a wrapping axis scans every boid instead. The
 *   chosen k are visited in index order, so the sums do not depend on the
 *   grid; the cone filters after choosing. */
#include "kinds.h"

#include <math.h>
#include <string.h>

static int in_view(const mur_it3 *it, const double d[3], double dist)
{
    if (!it->fov_cone || !(it->vlen > 0))
        return 1;
    return !(mur_dot3_(d, it->v) < it->cos_half * it->vlen * dist);
}

static void offset_to(const mur_it3 *it, int j, double d[3])
{
    const mur_flock *f = it->f;
    d[0] = f->kx[j] - it->r[0];
    d[1] = f->ky[j] - it->r[1];
    d[2] = f->kz[j] - it->r[2];
    if (it->wrap)
        for (int c = 0; c < 3; c++)
            d[c] = mur_near_image(d[c], it->size[c]);
}

/* Accepted candidates wait here (position, offset, squared distance) so
 * the distance loop runs on its own, without calls; the interaction sees
 * them in the order of the positions, as found. */
enum { PENDING = 128 };
typedef struct {
    int m;
    int k[PENDING];
    double d[PENDING][3], d2[PENDING];
} pending;

static void flush(const mur_it3 *it, pending *q, mur_it3_add add, sums3 *acc)
{
    for (int a = 0; a < q->m; a++) {
        mur_nb3 e;
        e.k = q->k[a];
        for (int c = 0; c < 3; c++)
            e.d[c] = q->d[a][c];
        e.dist = sqrt(q->d2[a]);
        e.seen = in_view(it, e.d, e.dist);
        add(it, acc, &e);
    }
    q->m = 0;
}

/* Metric candidates at positions [lo, hi). */
static void metric_run(const mur_it3 *it, int lo, int hi, pending *q, mur_it3_add add, sums3 *acc)
{
    const mur_flock *f = it->f;
    const double *kx = f->kx, *ky = f->ky, *kz = f->kz;
    const double rx = it->r[0], ry = it->r[1], rz = it->r[2], t = it->treach;
    const double w = it->size[0], h = it->size[1], dp = it->size[2];
    const int wrap = it->wrap, self = it->k;
    for (int j = lo; j < hi; j++) {
        double dx = kx[j] - rx, dy = ky[j] - ry, dz = kz[j] - rz;
        if (wrap) {
            dx = mur_near_image(dx, w);
            dy = mur_near_image(dy, h);
            dz = mur_near_image(dz, dp);
        }
        double d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < t && d2 != 0 && j != self) {
            int m = q->m;
            q->k[m] = j;
            q->d[m][0] = dx;
            q->d[m][1] = dy;
            q->d[m][2] = dz;
            q->d2[m] = d2;
            if (++q->m == PENDING)
                flush(it, q, add, acc);
        }
    }
}

/* The distance along one axis from coordinate u to the band of cells from
 * lo to lo + side: 0 inside it. */
static inline double band_gap(double u, double lo, double side)
{
    return u < lo ? lo - u : u > lo + side ? u - lo - side : 0;
}

/* floor(u) for |u| well inside an int. */
static inline int floor_int(double u)
{
    int k = (int)u;
    return u < k ? k - 1 : k;
}

/* Cell c + o (|o| < n) taken around an axis of n cells. */
static inline int around(int c, int n) { return c < 0 ? c + n : c >= n ? c - n : c; }

/* The grid's cells are at least the reach wide: the 3 x 3 x 3 block around
 * the boid's cell holds its neighbours. Its rows along x (fixed y and z
 * cells) are consecutive positions, so a row is one run, trimmed to the
 * cells the sphere of the reach meets (two runs where a wrapping row goes
 * round its end); a row the sphere misses is skipped. An axis of fewer
 * than 3 cells under wrap is read whole. */
void mur_nb3_metric(const mur_it3 *it, mur_it3_add add, sums3 *acc)
{
    const mur_flock *f = it->f;
    pending q;
    q.m = 0;
    if (!f->grid3_ok) {
        metric_run(it, 0, f->n, &q, add, acc);
        flush(it, &q, add, acc);
        return;
    }
    const mur_grid3 *g = &f->grid3;
    int h[3];
    mur_grid3_cell_(g, it->r, h);
    const double reach = it->reach, r2 = reach * reach;
    const int nx = g->n[0], ny = g->n[1], nz = g->n[2], wrap = g->wrap;
    int whole[3];
    for (int c = 0; c < 3; c++)
        whole[c] = wrap && g->n[c] < 3;
    const double inv_x = 1 / g->side[0], ox = g->o[0];
    const int zlo = whole[2] ? 0 : h[2] - 1, zhi = whole[2] ? nz - 1 : h[2] + 1;
    const int ylo = whole[1] ? 0 : h[1] - 1, yhi = whole[1] ? ny - 1 : h[1] + 1;
    for (int cz = zlo; cz <= zhi; cz++) {
        if (!wrap && (cz < 0 || cz >= nz))
            continue;
        double ez = whole[2] ? 0 : band_gap(it->r[2], g->o[2] + cz * g->side[2], g->side[2]);
        int wz = around(cz, nz);
        for (int cy = ylo; cy <= yhi; cy++) {
            if (!wrap && (cy < 0 || cy >= ny))
                continue;
            double ey = whole[1] ? 0 : band_gap(it->r[1], g->o[1] + cy * g->side[1], g->side[1]);
            double rest = r2 - ey * ey - ez * ez;
            if (!(rest > 0))
                continue;   /* the sphere misses this row */
            const int *row = g->start + (wz * ny + around(cy, ny)) * nx;
            if (whole[0]) {
                metric_run(it, row[0], row[nx], &q, add, acc);
                continue;
            }
            double hx = sqrt(rest);
            int x0 = floor_int((it->r[0] - hx - ox) * inv_x);
            int x1 = floor_int((it->r[0] + hx - ox) * inv_x);
            x0 = x0 < h[0] - 1 ? h[0] - 1 : x0;
            x1 = x1 > h[0] + 1 ? h[0] + 1 : x1;
            if (!wrap) {
                x0 = x0 < 0 ? 0 : x0;
                x1 = x1 >= nx ? nx - 1 : x1;
                if (x0 <= x1)
                    metric_run(it, row[x0], row[x1 + 1], &q, add, acc);
            } else if (x0 < 0) {
                metric_run(it, row[x0 + nx], row[nx], &q, add, acc);
                metric_run(it, row[0], row[x1 + 1], &q, add, acc);
            } else if (x1 >= nx) {
                metric_run(it, row[x0], row[nx], &q, add, acc);
                metric_run(it, row[0], row[x1 - nx + 1], &q, add, acc);
            } else {
                metric_run(it, row[x0], row[x1 + 1], &q, add, acc);
            }
        }
    }
    flush(it, &q, add, acc);
}

/* ---- topological ---------------------------------------------------------- */

typedef struct {
    double d2;
    int id, k;
} cand;

typedef struct {
    cand best[MUR_MAX_K];
    int m, want;
} chosen;

static int before(double d2, int id, const cand *c) { return d2 < c->d2 || (d2 == c->d2 && id < c->id); }

static void consider(const mur_it3 *it, chosen *ch, int j)
{
    if (j == it->k)
        return;
    double d[3];
    offset_to(it, j, d);
    double d2 = mur_dot3_(d, d);
    if (d2 == 0 || !(d2 < it->tcap))
        return;
    const mur_flock *f = it->f;
    int id = f->grid3_ok ? f->grid3.order[j] : j, m = ch->m;
    if (m == ch->want && !before(d2, id, &ch->best[m - 1]))
        return;
    int t = m < ch->want ? m : m - 1;
    while (t > 0 && before(d2, id, &ch->best[t - 1])) {
        ch->best[t] = ch->best[t - 1];
        t--;
    }
    ch->best[t] = (cand){d2, id, j};
    if (m < ch->want)
        ch->m = m + 1;
}

static void consider_cell(const mur_it3 *it, chosen *ch, int cell)
{
    const mur_grid3 *g = &it->f->grid3;
    for (int j = g->start[cell]; j < g->start[cell + 1]; j++)
        consider(it, ch, j);
}

/* Whether the shell of radius r around h, on an axis of n cells, would
 * visit a cell twice around a wrapping axis. */
static int shell_meets_itself(const mur_grid3 *g, int r)
{
    for (int c = 0; c < 3; c++)
        if (g->wrap && 2 * r + 1 > g->n[c])
            return 1;
    return 0;
}

/* The k nearest by shells of cells; 0 when a shell met itself (the caller
 * scans every boid). */
static int search_shells(const mur_it3 *it, chosen *ch)
{
    const mur_grid3 *g = &it->f->grid3;
    int h[3];
    mur_grid3_cell_(g, it->r, h);
    /* the distance from the boid to its cell's nearest face */
    double margin = INFINITY;
    for (int c = 0; c < 3; c++) {
        double lo = g->o[c] + h[c] * g->side[c], in = it->r[c] - lo;
        margin = fmin(margin, fmin(fmax(in, 0), fmax(g->side[c] - in, 0)));
    }
    int most = g->n[0] > g->n[1] ? g->n[0] : g->n[1];
    most = most > g->n[2] ? most : g->n[2];
    for (int r = 0;; r++) {
        if (shell_meets_itself(g, r))
            return 0;
        for (int oz = -r; oz <= r; oz++) {
            int cz = h[2] + oz;
            if (g->wrap)
                cz = (cz % g->n[2] + g->n[2]) % g->n[2];
            else if (cz < 0 || cz >= g->n[2])
                continue;
            for (int oy = -r; oy <= r; oy++) {
                int cy = h[1] + oy;
                if (g->wrap)
                    cy = (cy % g->n[1] + g->n[1]) % g->n[1];
                else if (cy < 0 || cy >= g->n[1])
                    continue;
                int face = oz == -r || oz == r || oy == -r || oy == r;
                for (int ox = -r; ox <= r; ox += face || r == 0 ? 1 : 2 * r) {
                    int cx = h[0] + ox;
                    if (g->wrap)
                        cx = (cx % g->n[0] + g->n[0]) % g->n[0];
                    else if (cx < 0 || cx >= g->n[0])
                        continue;
                    consider_cell(it, ch, (cz * g->n[1] + cy) * g->n[0] + cx);
                }
            }
        }
        /* everything unvisited is at least this far */
        double bound = r * g->cell + margin;
        if (ch->m == ch->want && ch->best[ch->m - 1].d2 < bound * bound)
            return 1;
        if (!(bound * bound < it->tcap) || r >= most)
            return 1;   /* past the cap, or past every cell */
    }
}

static int by_id(const cand *a, const cand *b) { return a->id < b->id; }

void mur_nb3_topological(const mur_it3 *it, mur_it3_add add, sums3 *acc)
{
    const mur_flock *f = it->f;
    chosen ch;
    ch.m = 0;
    ch.want = it->p->topological_k;
    if (!f->grid3_ok || !search_shells(it, &ch)) {
        ch.m = 0;
        for (int j = 0; j < f->n; j++)
            consider(it, &ch, j);
    }
    /* in index order (insertion sort: k is small) */
    for (int a = 1; a < ch.m; a++) {
        cand c = ch.best[a];
        int t = a;
        while (t > 0 && by_id(&c, &ch.best[t - 1])) {
            ch.best[t] = ch.best[t - 1];
            t--;
        }
        ch.best[t] = c;
    }
    for (int a = 0; a < ch.m; a++) {
        mur_nb3 e;
        e.k = ch.best[a].k;
        offset_to(it, e.k, e.d);
        e.dist = sqrt(ch.best[a].d2);
        e.seen = in_view(it, e.d, e.dist);
        add(it, acc, &e);
    }
}
