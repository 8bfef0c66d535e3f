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

static void metric_run(const mur_it3 *it, int lo, int hi, mur_it3_add add, sums3 *acc)
{
    for (int j = lo; j < hi; j++) {
        if (j == it->k)
            continue;
        mur_nb3 e;
        offset_to(it, j, e.d);
        double d2 = mur_dot3_(e.d, e.d);
        if (!(d2 < it->treach) || d2 == 0)
            continue;
        e.k = j;
        e.dist = sqrt(d2);
        e.seen = in_view(it, e.d, e.dist);
        add(it, acc, &e);
    }
}

/* The cells along one axis of n cells within r of cell h, each once, in
 * ascending offset: under wrap taken around (all n when 2r + 1 >= n),
 * else clipped to the grid. Returns how many. */
static int span(int h, int n, int r, int wrap, int *out)
{
    int m = 0;
    if (wrap && 2 * r + 1 >= n) {
        for (int c = 0; c < n; c++)
            out[m++] = c;
        return m;
    }
    for (int o = -r; o <= r; o++) {
        int c = h + o;
        if (wrap)
            c = (c % n + n) % n;
        else if (c < 0 || c >= n)
            continue;
        out[m++] = c;
    }
    return m;
}

static int home_cell(const mur_grid3 *g, int i, int h[3])
{
    int c = g->cell_of[i];
    h[0] = c % g->n[0];
    h[1] = c / g->n[0] % g->n[1];
    h[2] = c / g->n[0] / g->n[1];
    return c;
}

void mur_nb3_metric(const mur_it3 *it, mur_it3_add add, sums3 *acc)
{
    const mur_flock *f = it->f;
    if (!f->grid3_ok) {
        metric_run(it, 0, f->n, add, acc);
        return;
    }
    const mur_grid3 *g = &f->grid3;
    int h[3], xs[3], ys[3], zs[3];
    home_cell(g, it->i, h);
    int nx = span(h[0], g->n[0], 1, g->wrap, xs);
    int ny = span(h[1], g->n[1], 1, g->wrap, ys);
    int nz = span(h[2], g->n[2], 1, g->wrap, zs);
    for (int c = 0; c < nz; c++)
        for (int b = 0; b < ny; b++)
            for (int a = 0; a < nx; a++) {
                int cell = (zs[c] * g->n[1] + ys[b]) * g->n[0] + xs[a];
                metric_run(it, g->start[cell], g->start[cell + 1], add, acc);
            }
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
    home_cell(g, it->i, h);
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
