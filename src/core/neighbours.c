/* The neighbour kinds (docs/model.md "Model families", Neighbours).
 *
 * metric: every j != i with 0 < |d_ij| < reach, reach being the
 * interaction's largest radius, found in the 3 x 3 block of grid cells at
 * least reach wide, visited rows then columns and each cell's boids in
 * index order (the grid keeps them so).
 *
 * topological: the k boids nearest to i (nearest image under wrap;
 * coincident boids, |d| = 0, are skipped as the metric kind skips them),
 * only those closer than the cap radius; distance ties go to the lower boid
 * index. The search grows a ring of cells around i's cell until the k-th
 * best found is closer than anything outside the searched square can be:
 * the cells are 1.4 times the last tick's median k-th distance, so the
 * first ring (a 3 x 3 block, ~3k candidates) usually settles it, however
 * crowded the flock. The best k are kept sorted in a small array
 * (insertion: a candidate farther than the k-th costs one comparison),
 * then visited in boid index order, so the sums do not depend on the grid. The field of view filters after choosing (a boid behind is
 * chosen but ignored: `seen` 0). */
#include "kinds.h"

#include <math.h>
#include <stdlib.h>

/* Whether the offset (dx, dy) at distance d is inside the boid's view:
 * the test flock.c's scan makes. */
static int in_view(const mur_it *it, double dx, double dy, double d)
{
    if (!it->fov_cone || !(it->vlen > 0))
        return 1;
    return !(dx * it->vxi + dy * it->vyi < it->cos_half * it->vlen * d);
}

/* Offset from the boid to position j, by nearest image under wrap. */
static void offset_to(const mur_it *it, int j, double *dx, double *dy)
{
    const mur_flock *f = it->f;
    double ox = f->kx[j] - it->xi, oy = f->ky[j] - it->yi;
    if (it->wrap) {
        ox = mur_near_image(ox, it->w);
        oy = mur_near_image(oy, it->h);
    }
    *dx = ox;
    *dy = oy;
}

/* Metric candidates at positions [lo, hi). */
static void metric_run(const mur_it *it, int lo, int hi, mur_it_add add, sums *acc)
{
    for (int j = lo; j < hi; j++) {
        if (j == it->k)
            continue;
        double dx, dy;
        offset_to(it, j, &dx, &dy);
        double d2 = dx * dx + dy * dy;
        if (!(d2 < it->treach) || d2 == 0)
            continue;
        double d = sqrt(d2);
        mur_nb e = {j, dx, dy, d, in_view(it, dx, dy, d)};
        add(it, acc, &e);
    }
}

double mur_nb_metric(const mur_it *it, mur_it_add add, sums *acc)
{
    const mur_flock *f = it->f;
    if (!f->grid_ok) {
        metric_run(it, 0, f->n, add, acc);
        return 0;
    }
    const mur_grid *g = &f->grid;
    int c = g->cell_of[it->i], xs[3], ys[3];
    int nx = mur_grid_span(c % g->gx, g->gx, g->wrap, xs);
    int ny = mur_grid_span(c / g->gx, g->gy, g->wrap, ys);
    for (int b = 0; b < ny; b++)
        for (int a = 0; a < nx; a++) {
            int cell = ys[b] * g->gx + xs[a];
            metric_run(it, g->start[cell], g->start[cell + 1], add, acc);
        }
    return 0;
}

double mur_nb_metric_cell(const mur_flock *f, double reach)
{
    (void)f;
    return reach * (1 + 1e-9);
}

/* ---- topological ---------------------------------------------------------- */

/* A candidate: squared distance and boid id decide; position to read it. */
typedef struct {
    double d2;
    int id, k;
} cand;

typedef struct {
    cand best[MUR_MAX_K];
    int m, want;      /* held, and k */
    double limit;     /* a hint: candidates farther (squared) are not taken */
} chosen;

static int before(double d2, int id, const cand *c) { return d2 < c->d2 || (d2 == c->d2 && id < c->id); }

/* Candidate j (d2 its squared distance) into the best k, if it belongs. */
static inline void insert(const mur_it *it, chosen *ch, int j, double d2)
{
    const mur_flock *f = it->f;
    int id = f->grid_ok ? f->grid.order[j] : j, m = ch->m;
    if (m == ch->want && m > 0 && !before(d2, id, &ch->best[m - 1]))
        return;
    int t = m < ch->want ? m : m - 1;   /* the slot freed (or the new end) */
    while (t > 0 && before(d2, id, &ch->best[t - 1])) {
        ch->best[t] = ch->best[t - 1];
        t--;
    }
    ch->best[t] = (cand){d2, id, j};
    if (m < ch->want)
        ch->m = m + 1;
}

/* Positions [lo, hi) as candidates; `wrap`: take the nearest image. Most
 * are farther than the k-th best so far, which one comparison settles
 * without the boid's id. */
static inline void consider_span(const mur_it *it, chosen *ch, int lo, int hi, int wrap)
{
    const double *kx = it->f->kx, *ky = it->f->ky, xi = it->xi, yi = it->yi;
    const double w = it->w, h = it->h, tcap = it->tcap;
    /* want >= 1 (k is at least 1); m > 0 says so to the optimiser */
    double worst = ch->m == ch->want && ch->m > 0 ? ch->best[ch->m - 1].d2 : ch->limit;
    for (int j = lo; j < hi; j++) {
        double dx = kx[j] - xi, dy = ky[j] - yi;
        if (wrap) {
            dx = mur_near_image(dx, w);
            dy = mur_near_image(dy, h);
        }
        double d2 = dx * dx + dy * dy;
        if (d2 > worst || j == it->k || d2 == 0 || !(d2 < tcap))
            continue;
        insert(it, ch, j, d2);
        if (ch->m == ch->want)
            worst = ch->best[ch->m - 1].d2;
    }
}

static void consider_run(const mur_it *it, chosen *ch, int lo, int hi)
{
    if (it->wrap)
        consider_span(it, ch, lo, hi, 1);
    else
        consider_span(it, ch, lo, hi, 0);
}

/* Cells of ring r around (cx, cy) (Chebyshev distance r): the rows cy - r
 * and cy + r whole, the columns cx - r and cx + r between them; outside the
 * grid skipped, or folded under wrap (rings then never meet themselves:
 * the caller keeps 2r + 1 within the grid). */
static void ring(const mur_it *it, chosen *ch, int cx, int cy, int r)
{
    const mur_grid *g = &it->f->grid;
    for (int y = cy - r; y <= cy + r; y++) {
        int yy = g->wrap ? (y % g->gy + g->gy) % g->gy : y;
        if (yy < 0 || yy >= g->gy)
            continue;
        int edge = y == cy - r || y == cy + r;
        for (int x = cx - r; x <= cx + r; x += edge || r == 0 ? 1 : 2 * r) {
            int xx = g->wrap ? (x % g->gx + g->gx) % g->gx : x;
            if (xx < 0 || xx >= g->gx)
                continue;
            int cell = yy * g->gx + xx;
            consider_run(it, ch, g->start[cell], g->start[cell + 1]);
        }
    }
}

/* Least distance from the boid to anything outside the square of cells
 * within ring r of its cell (INFINITY when the square covers the whole
 * open grid), less a hair for how boids were filed into cells. */
static double outside(const mur_it *it, int cx, int cy, int r)
{
    const mur_grid *g = &it->f->grid;
    double x = it->xi - g->ox, y = it->yi - g->oy, b = INFINITY;
    if (g->wrap || cx - r > 0)
        b = fmin(b, x - (cx - r) * g->cw);
    if (g->wrap || cx + r < g->gx - 1)
        b = fmin(b, (cx + r + 1) * g->cw - x);
    if (g->wrap || cy - r > 0)
        b = fmin(b, y - (cy - r) * g->ch);
    if (g->wrap || cy + r < g->gy - 1)
        b = fmin(b, (cy + r + 1) * g->ch - y);
    return b - 1e-9 * fmax(g->cw, g->ch);
}

/* Whether nothing at b or farther can change the choice: every cell is
 * seen (b infinite), or nothing unseen is nearer than the k-th best, or
 * within the cap. */
static int settled(const mur_it *it, const chosen *ch, double b)
{
    if (b == INFINITY)
        return 1;
    return b > 0 && ((ch->m == ch->want && ch->best[ch->m - 1].d2 < b * b) || b * b >= it->tcap ||
                     b * b > ch->limit);
}

/* The k nearest, from the grid's rings, or from every boid when rings
 * would fold onto themselves (a world a few cells wide) or there is no grid. */
static void search(const mur_it *it, chosen *ch)
{
    const mur_flock *f = it->f;
    const mur_grid *g = &f->grid;
    ch->m = 0;
    if (!f->grid_ok) {
        consider_run(it, ch, 0, f->n);
        return;
    }
    int c = it->cell, cx = c % g->gx, cy = c / g->gx, r0 = 0;   /* in order: cell_of (by id) missed the cache */
    if (g->gx >= 5 && g->gy >= 5 && cx >= 1 && cx <= g->gx - 2 && cy >= 1 && cy <= g->gy - 2) {
        /* Inside the grid (most boids): rings 0 and 1 are the 3 x 3 block,
         * three runs of adjacent cells, and its offsets are under 2 cells,
         * at most half the world: the nearest image changes nothing. */
        const int *row = g->start + (size_t)cy * g->gx;
        consider_span(it, ch, row[cx], row[cx + 1], 0);   /* its own cell first: the nearest */
        consider_span(it, ch, row[cx - 1], row[cx], 0);
        consider_span(it, ch, row[cx + 1], row[cx + 2], 0);
        for (int y = cy - 1; y <= cy + 1; y += 2) {
            row = g->start + (size_t)y * g->gx;
            consider_span(it, ch, row[cx - 1], row[cx + 2], 0);
        }
        if (settled(it, ch, outside(it, cx, cy, 1)))
            return;
        r0 = 2;
    }
    for (int r = r0;; r++) {
        if (g->wrap && (2 * r + 1 > g->gx || 2 * r + 1 > g->gy)) {
            ch->m = 0;
            consider_run(it, ch, 0, f->n);
            return;
        }
        ring(it, ch, cx, cy, r);
        if (settled(it, ch, outside(it, cx, cy, r)))
            return;
    }
}

/* search() under the hint (the last tick's k-th distance of the boid grown
 * by the most two boids can part in a tick): when fewer than k lie within
 * it, the hint was wrong (a state loaded or moved since) and the search is
 * made again without it. Any k found within it are the k nearest, so the
 * hint changes the speed only. */
static void search_hinted(const mur_it *it, chosen *ch)
{
    const mur_flock *f = it->f;
    double prev = it->hinted ? f->hint[it->k] : 0;
    ch->limit = INFINITY;
    if (prev > 0 && isfinite(prev)) {
        double r = (prev + 2 * it->p->max_speed) * (1 + 1e-9) + 1e-12;
        ch->limit = r * r;
    }
    search(it, ch);
    if (ch->m < ch->want && ch->limit < INFINITY) {
        ch->limit = INFINITY;
        search(it, ch);
    }
}

static int by_id(const void *a, const void *b)
{
    int x = ((const cand *)a)->id, y = ((const cand *)b)->id;
    return (x > y) - (x < y);
}

double mur_nb_topological(const mur_it *it, mur_it_add add, sums *acc)
{
    chosen ch;
    ch.want = it->p->topological_k;
    search_hinted(it, &ch);
    if (ch.m <= 16) {
        for (int a = 1; a < ch.m; a++)
            for (int b = a; b > 0 && ch.best[b].id < ch.best[b - 1].id; b--) {
                cand t = ch.best[b];
                ch.best[b] = ch.best[b - 1];
                ch.best[b - 1] = t;
            }
    } else {
        qsort(ch.best, (size_t)ch.m, sizeof ch.best[0], by_id);
    }
    double far = 0;
    for (int t = 0; t < ch.m; t++) {
        double dx, dy;
        offset_to(it, ch.best[t].k, &dx, &dy);
        double d = sqrt(ch.best[t].d2);
        mur_nb e = {ch.best[t].k, dx, dy, d, in_view(it, dx, dy, d)};
        add(it, acc, &e);
        far = fmax(far, d);
    }
    return far;
}

/* The cell: the last tick's (family.c: the median k-th distance, so that
 * the first ring usually settles a boid in a flock however crowded), or
 * for a first tick cells of about k / 4 boids at the mean density (over the
 * boids' bounding box in an open world). Only the speed depends on it: the
 * k nearest are the same for any grid. */
double mur_nb_topological_cell(const mur_flock *f, double reach)
{
    (void)reach;
    if (f->topo_cell > 0)
        return f->topo_cell;
    const mur_params *p = &f->p;
    double area = p->width * p->height;
    if (p->boundary == MUR_BOUNDARY_OPEN) {
        double ox, oy, w, h;
        mur_flock_bbox_(f, &ox, &oy, &w, &h);
        area = w * h;
    }
    double per = f->n > 0 ? area / f->n : area;
    double cell = sqrt(per * p->topological_k / 4.0);
    return cell > 0 && isfinite(cell) ? cell : 1;
}
