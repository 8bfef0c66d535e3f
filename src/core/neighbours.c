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
 * crowded the flock. Candidates pass the metric scan's vector filter
 * (filter.h) against the last tick's k-th distance, grown by what a tick
 * can change it (the hint; ~1.3k pass), into a pool that is cut to the
 * best k (ties to the lower index) when it fills or when the k-th best
 * decides whether the search is settled. The k are visited in boid index
 * order, so the sums do not depend on the grid. The field of view filters
 * after choosing (a boid behind is chosen but ignored: `seen` 0). */
#include "kinds.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Whether the offset (dx, dy) at distance d is inside the boid's view:
 * the test flock.c's scan makes. */
static int in_view(const mur_it *it, double dx, double dy, double d)
{
    if (!it->fov_cone || !(it->vlen > 0))
        return 1;
    return !(dx * it->v[0] + dy * it->v[1] < it->cos_half * it->vlen * d);
}

/* Offset from the boid to position j, by nearest image under wrap. */
static void offset_to(const mur_it *it, int j, double *dx, double *dy)
{
    const mur_flock *f = it->f;
    double ox = f->kx[j] - it->r[0], oy = f->ky[j] - it->r[1];
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
        mur_nb e = {j, {dx, dy}, d, in_view(it, dx, dy, d)};
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

/* Candidates held at most: the k best so far and room for several blocks
 * of the filter's output. */
enum { POOL = MUR_MAX_K + 4 * MUR_FILTER_BLOCK };

/* The candidates taken so far, a superset of the k nearest of those seen:
 * squared distance and boid id decide (the id a double: exact, and
 * compared as d2 is); then the offset (the filter's, kept for the sums),
 * and the position to read the boid. The filter takes those no farther
 * (squared) than the hint, then than the k-th best once the pool has been
 * cut to its k best. */
typedef struct {
    double d2[POOL], id[POOL], dx[POOL], dy[POOL];
    int k[POOL];
    int n, want, top;   /* held; k; cut before n could pass top */
    int cut;            /* the pool is its k best (all, if fewer) */
    double kth;         /* once cut with k held: the k-th best's d2 */
    double limit;       /* the hint: candidates farther (squared) are not taken */
    mur_filter_in in;   /* the filter's input */
} chosen;

/* The least double above x >= 0 (x itself if infinite): nextafter(x,
 * INFINITY) without the call. */
static inline double next_up(double x)
{
    if (!(x < INFINITY))
        return x;
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    b++;
    memcpy(&x, &b, sizeof b);
    return x;
}

/* The filter takes d2 <= keep (no double lies between keep and the next
 * one up) and d2 < tcap. */
static void set_keep(const mur_it *it, chosen *ch, double keep)
{
    double up = next_up(keep);
    ch->in.far2 = up < it->tcap ? up : it->tcap;
}

/* Above this many, ranks come from a sort rather than from comparing every
 * pair. */
enum { RANKED = 48 };

typedef struct {
    double p, q;
    int a;
} keyed;

static int by_key(const void *x, const void *y)
{
    const keyed *a = x, *b = y;
    if (a->p != b->p)
        return a->p < b->p ? -1 : 1;
    return (a->q > b->q) - (a->q < b->q);
}

/* rank_of()'s sort, for many. */
static __attribute__((noinline)) void rank_sorted(const double *p, const double *q, int n,
                                                  int *rank)
{
    keyed t[POOL];
    for (int a = 0; a < n; a++)
        t[a] = (keyed){p[a], q[a], a};
    qsort(t, (size_t)n, sizeof t[0], by_key);
    for (int r = 0; r < n; r++)
        rank[t[r].a] = r;
}

/* rank[a], a < n: how many b come before a by (p, q), lexicographically;
 * the pairs all differ (q holds ids). Without a branch for a few. */
static void rank_of(const double *p, const double *q, int n, int *rank)
{
    if (n > RANKED) {
        rank_sorted(p, q, n, rank);
        return;
    }
    for (int a = 0; a < n; a++) {
        double pa = p[a], qa = q[a];
        long r = 0;
        for (int b = 0; b < n; b++)
            r += (p[b] < pa) | ((p[b] == pa) & (q[b] < qa));
        rank[a] = (int)r;
    }
}

/* Entry a moved to slot t of the pool. */
static inline void move_entry(chosen *ch, int t, int a)
{
    ch->d2[t] = ch->d2[a];
    ch->id[t] = ch->id[a];
    ch->dx[t] = ch->dx[a];
    ch->dy[t] = ch->dy[a];
    ch->k[t] = ch->k[a];
}

/* The pool's last entry by (distance, id), without a branch. */
static int worst(const chosen *ch)
{
    int w = 0;
    double dw = ch->d2[0], iw = ch->id[0];
    for (int a = 1; a < ch->n; a++) {
        int later = (ch->d2[a] > dw) | ((ch->d2[a] == dw) & (ch->id[a] > iw));
        w = later ? a : w;
        dw = later ? ch->d2[a] : dw;
        iw = later ? ch->id[a] : iw;
    }
    return w;
}

/* Cuts the pool to its k best (in no order); the k-th best then bounds
 * what is taken. A pool a few past k (under the hint, most) drops its
 * worst one at a time, a pass each; a larger one is ranked. */
static void cut(const mur_it *it, chosen *ch)
{
    if (ch->cut)
        return;
    ch->cut = 1;
    int n = ch->n, want = ch->want;
    if (n < want)
        return;
    if (n - want <= 4) {
        while (ch->n > want) {
            int w = worst(ch);
            move_entry(ch, w, --ch->n);
        }
    } else {
        int rank[POOL], m = 0;
        rank_of(ch->d2, ch->id, n, rank);
        for (int a = 0; a < n; a++) {   /* in place: m <= a */
            move_entry(ch, m, a);
            m += rank[a] < want;
        }
        ch->n = m;
    }
    ch->kth = ch->d2[worst(ch)];
    set_keep(it, ch, ch->kth);
}

/* Positions [lo, hi) as candidates through the filter; `wrap`: take the
 * nearest image. */
static void take(const mur_it *it, chosen *ch, int lo, int hi, int wrap)
{
    enum { B = MUR_FILTER_BLOCK, N = MUR_FILTER_BLOCK + MUR_FILTER_PAD };
    const mur_flock *f = it->f;
    const int *order = f->grid_ok ? f->grid.order : NULL;
    double dx[N], dy[N], d2[N];
    int keep[N];
    ch->in.wrapx = ch->in.wrapy = wrap;
    for (int j0 = lo; j0 < hi; j0 += B) {
        int j1 = hi - j0 > B ? j0 + B : hi;
        if (ch->n + (j1 - j0) > ch->top)
            cut(it, ch);
        int m = f->filter(&ch->in, f->kx, f->ky, j0, j1, it->k, dx, dy, d2, keep);
        int n = ch->n;
        for (int t = 0; t < m; t++) {
            int o = keep[t], j = j0 + o;
            ch->d2[n + t] = d2[o];
            ch->id[n + t] = order ? order[j] : j;
            ch->dx[n + t] = dx[o];
            ch->dy[n + t] = dy[o];
            ch->k[n + t] = j;
        }
        ch->n = n + m;
        ch->cut &= m == 0;
    }
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
            take(it, ch, g->start[cell], g->start[cell + 1], it->wrap);
        }
    }
}

/* Least distance from the boid to anything outside the square of cells
 * within ring r of its cell (INFINITY when the square covers the whole
 * open grid), less a hair for how boids were filed into cells. */
static double outside(const mur_it *it, int cx, int cy, int r)
{
    const mur_grid *g = &it->f->grid;
    double x = it->r[0] - g->ox, y = it->r[1] - g->oy, b = INFINITY, v;
    /* b = fmin(b, v) inline: v NaN (a NaN position) leaves b, as fmin does */
    if (g->wrap || cx - r > 0)
        b = (v = x - (cx - r) * g->cw) < b ? v : b;
    if (g->wrap || cx + r < g->gx - 1)
        b = (v = (cx + r + 1) * g->cw - x) < b ? v : b;
    if (g->wrap || cy - r > 0)
        b = (v = y - (cy - r) * g->ch) < b ? v : b;
    if (g->wrap || cy + r < g->gy - 1)
        b = (v = (cy + r + 1) * g->ch - y) < b ? v : b;
    return b - 1e-9 * (g->cw > g->ch ? g->cw : g->ch);
}

/* Whether nothing at b or farther can change the choice: every cell is
 * seen (b infinite), or nothing unseen is within the hint or the cap, or
 * nearer than the k-th best (the pool cut to know it). */
static int settled(const mur_it *it, chosen *ch, double b)
{
    if (b == INFINITY)
        return 1;
    if (!(b > 0))
        return 0;
    if (b * b >= it->tcap || b * b > ch->limit)
        return 1;
    if (ch->n < ch->want)
        return 0;
    cut(it, ch);
    return ch->kth < b * b;
}

/* The pool emptied for a search. */
static void restart(const mur_it *it, chosen *ch)
{
    ch->n = 0;
    ch->cut = 0;
    set_keep(it, ch, ch->limit);
}

/* The k nearest, from the grid's rings, or from every boid when rings
 * would fold onto themselves (a world a few cells wide) or there is no grid. */
static void search(const mur_it *it, chosen *ch)
{
    const mur_flock *f = it->f;
    const mur_grid *g = &f->grid;
    restart(it, ch);
    if (!f->grid_ok) {
        take(it, ch, 0, f->n, it->wrap);
        return;
    }
    int c = it->cell, cx = c % g->gx, cy = c / g->gx, r0 = 0;   /* in order: cell_of (by id) missed the cache */
    if (g->gx >= 5 && g->gy >= 5 && cx >= 1 && cx <= g->gx - 2 && cy >= 1 && cy <= g->gy - 2) {
        /* Inside the grid (most boids): rings 0 and 1 are the 3 x 3 block,
         * three runs of adjacent cells, and its offsets are under 2 cells,
         * at most half the world: the nearest image changes nothing. */
        for (int y = cy - 1; y <= cy + 1; y++) {
            const int *row = g->start + (size_t)y * g->gx;
            take(it, ch, row[cx - 1], row[cx + 2], 0);
        }
        if (settled(it, ch, outside(it, cx, cy, 1)))
            return;
        r0 = 2;
    }
    for (int r = r0;; r++) {
        if (g->wrap && (2 * r + 1 > g->gx || 2 * r + 1 > g->gy)) {
            restart(it, ch);
            take(it, ch, 0, f->n, it->wrap);
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
    if (ch->n < ch->want && ch->limit < INFINITY) {
        ch->limit = INFINITY;
        search(it, ch);
    }
}

double mur_nb_topological(const mur_it *it, mur_it_add add, sums *acc)
{
    chosen ch;
    ch.want = it->p->topological_k;
    /* cut before a block could overflow; a pool of a few k costs little to cut */
    int top = 4 * ch.want > 2 * MUR_FILTER_BLOCK ? 4 * ch.want : 2 * MUR_FILTER_BLOCK;
    ch.top = top < POOL ? top : POOL;
    ch.in = (mur_filter_in){it->r[0], it->r[1], it->w, it->h, 0, 0, 0};
    search_hinted(it, &ch);
    cut(it, &ch);
    /* the k best in id order, so that the sums do not depend on the grid */
    int m = ch.n, ord[MUR_MAX_K];
    if (m <= RANKED) {
        for (int a = 0; a < m; a++) {
            int r = 0;
            for (int b = 0; b < m; b++)
                r += ch.id[b] < ch.id[a];
            ord[r] = a;
        }
    } else {
        int rank[MUR_MAX_K];
        rank_of(ch.id, ch.id, m, rank);
        for (int a = 0; a < m; a++)
            ord[rank[a]] = a;
    }
    double far = 0;
    for (int t = 0; t < m; t++) {
        int a = ord[t];
        double dx = ch.dx[a], dy = ch.dy[a], d = sqrt(ch.d2[a]);
        mur_nb e = {ch.k[a], {dx, dy}, d, in_view(it, dx, dy, d)};
        add(it, acc, &e);
        far = d > far ? d : far;
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
