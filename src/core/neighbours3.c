/* The neighbour kinds in three dimensions (neighbours.c's, in a box).
 *
 * metric: every j != i with 0 < |d_ij| < reach, found in the 3 x 3 x 3
 *   block of grid cells at least reach wide (a wrapping axis of three
 *   cells or fewer whole, each cell once, as the 2D grid visits them), each
 *   cell's boids in index order.
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

/* A metric scan: the boid's filter input and where its neighbours go. */
typedef struct {
    const mur_it3 *it;
    mur_filter3_in in;
    mur_it3_add add;
    sums3 *acc;
} scan3;

/* Metric candidates at positions [lo, hi): through the filter (filter.h)
 * in blocks, then each one kept, in the order of the positions, to the
 * interaction; reynolds' add inline (most flocks), the others by call. */
static void metric_run(scan3 *s, int lo, int hi)
{
    enum { B = MUR_FILTER_BLOCK, N = MUR_FILTER_BLOCK + MUR_FILTER_PAD };
    const mur_it3 *it = s->it;
    const mur_flock *f = it->f;
    const int inline_add = s->add == mur_it3_reynolds_add;
    double dx[N], dy[N], dz[N], d2[N];
    int keep[N];
    for (int j0 = lo; j0 < hi; j0 += B) {
        int j1 = hi - j0 > B ? j0 + B : hi;
        int m = it->filter3(&s->in, f->kx, f->ky, f->kz, j0, j1, it->k, dx, dy, dz, d2, keep);
        for (int t = 0; t < m; t++) {
            int o = keep[t];
            mur_nb3 e;
            e.k = j0 + o;
            e.d[0] = dx[o];
            e.d[1] = dy[o];
            e.d[2] = dz[o];
            e.dist = sqrt(d2[o]);
            e.seen = in_view(it, e.d, e.dist);
            if (inline_add)
                mur_reynolds_add3_(it, s->acc, &e);
            else
                s->add(it, s->acc, &e);
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
 * round its end); a row the sphere misses is skipped. An axis of 3 cells
 * or fewer under wrap is read whole, in order (the 2D grid's rule). */
void mur_nb3_metric(const mur_it3 *it, mur_it3_add add, sums3 *acc)
{
    const mur_flock *f = it->f;
    scan3 s = {it, {{it->r[0], it->r[1], it->r[2]}, {it->size[0], it->size[1], it->size[2]},
                    it->treach, {it->wrap, it->wrap, it->wrap}},
               add, acc};
    if (!f->grid3_ok) {
        metric_run(&s, 0, f->n);
        return;
    }
    const mur_grid3 *g = &f->grid3;
    int h[3];
    mur_grid3_cell_(g, it->r, h);
    const double reach = it->reach, r2 = reach * reach;
    const int nx = g->n[0], ny = g->n[1], nz = g->n[2], wrap = g->wrap;
    int whole[3];
    for (int c = 0; c < 3; c++) {
        whole[c] = mur_grid_axis_whole_(g->n[c], wrap);
        /* Away from the seam the block holds offsets under 2 cells along
         * the axis, and with 5 or more cells that is under half the world:
         * the nearest image would change nothing (positions under wrap are
         * kept inside the world), so the filter skips it. */
        s.in.wrap[c] = it->wrap && (g->n[c] < 5 || h[c] < 1 || h[c] > g->n[c] - 2);
    }
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
                metric_run(&s, row[0], row[nx]);
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
                    metric_run(&s, row[x0], row[x1 + 1]);
            } else if (x0 < 0) {
                metric_run(&s, row[x0 + nx], row[nx]);
                metric_run(&s, row[0], row[x1 + 1]);
            } else if (x1 >= nx) {
                metric_run(&s, row[x0], row[nx]);
                metric_run(&s, row[0], row[x1 - nx + 1]);
            } else {
                metric_run(&s, row[x0], row[x1 + 1]);
            }
        }
    }
}

/* A cell's block as runs of positions, in mur_nb3_metric's order. */
typedef struct {
    int n, lo[18], hi[18];   /* 9 rows, each one run or two around a seam */
} runs3;

static void run_add(runs3 *r, int lo, int hi)
{
    r->lo[r->n] = lo;
    r->hi[r->n++] = hi;
}

_Static_assert(MUR_FILTER_PAD >= 3, "mur_nb3_block_load's moves of four pass a run's end by 3");

/* The cells are at least the reach wide: the 3 x 3 x 3 block around cell c
 * holds its boids' neighbours; each row along x (fixed y and z cells) is
 * one run of positions (two where a wrapping row goes round its end), in
 * mur_nb3_metric's order, untrimmed (the filter drops what is too far).
 * The runs are found first, then copied in moves of four: a run is a few
 * boids long, and an element at a time (or a call to memcpy a run) cost
 * as much as filtering the block for each of its boids. */
void mur_nb3_block_load(const mur_it3 *it, int c, mur_block3 *b)
{
    const mur_flock *f = it->f;
    const mur_grid3 *g = &f->grid3;
    const int nx = g->n[0], ny = g->n[1], nz = g->n[2], wrap = g->wrap;
    const int h[3] = {c % nx, c / nx % ny, c / nx / ny};
    int whole[3];
    for (int a = 0; a < 3; a++) {
        whole[a] = mur_grid_axis_whole_(g->n[a], wrap);
        /* as mur_nb3_metric: no nearest image away from the seam */
        b->wrap[a] = it->wrap && (g->n[a] < 5 || h[a] < 1 || h[a] > g->n[a] - 2);
    }
    runs3 r;
    r.n = 0;
    const int zlo = whole[2] ? 0 : h[2] - 1, zhi = whole[2] ? nz - 1 : h[2] + 1;
    const int ylo = whole[1] ? 0 : h[1] - 1, yhi = whole[1] ? ny - 1 : h[1] + 1;
    for (int cz = zlo; cz <= zhi; cz++) {
        if (!wrap && (cz < 0 || cz >= nz))
            continue;
        int wz = around(cz, nz);
        for (int cy = ylo; cy <= yhi; cy++) {
            if (!wrap && (cy < 0 || cy >= ny))
                continue;
            const int *row = g->start + (wz * ny + around(cy, ny)) * nx;
            int x0 = h[0] - 1, x1 = h[0] + 1;
            if (whole[0]) {
                run_add(&r, row[0], row[nx]);
            } else if (!wrap) {
                x0 = x0 < 0 ? 0 : x0;
                x1 = x1 >= nx ? nx - 1 : x1;
                run_add(&r, row[x0], row[x1 + 1]);
            } else if (x0 < 0) {
                run_add(&r, row[x0 + nx], row[nx]);
                run_add(&r, row[0], row[x1 + 1]);
            } else if (x1 >= nx) {
                run_add(&r, row[x0], row[nx]);
                run_add(&r, row[0], row[x1 - nx + 1]);
            } else {
                run_add(&r, row[x0], row[x1 + 1]);
            }
        }
    }
    int total = 0, first = 0;
    for (int k = 0; k < r.n; k++) {
        if (r.lo[k] <= g->start[c] && g->start[c] < r.hi[k])
            first = total + g->start[c] - r.lo[k];
        total += r.hi[k] - r.lo[k];
    }
    b->first = first;
    if (total > MUR_BLOCK3_MAX) {
        b->n = -1;
        return;
    }
    /* The last move of a run may pass its end by up to three (the position
     * arrays are readable MUR_FILTER_PAD past the last boid, the block's
     * as far past MUR_BLOCK3_MAX); the next run, or the padding below,
     * overwrites what it brought. */
    int n = 0;
    for (int k = 0; k < r.n; k++) {
        const int lo = r.lo[k], len = r.hi[k] - lo;
        for (int t = 0; t < len; t += 4) {
            memcpy(b->x + n + t, f->kx + lo + t, 4 * sizeof(double));
            memcpy(b->y + n + t, f->ky + lo + t, 4 * sizeof(double));
            memcpy(b->z + n + t, f->kz + lo + t, 4 * sizeof(double));
            for (int u = 0; u < 4; u++)
                b->pos[n + t + u] = lo + t + u;
        }
        n += len;
    }
    b->n = n;
    for (int t = n; t < n + MUR_FILTER_PAD; t++) {
        b->x[t] = b->y[t] = b->z[t] = 0;   /* read, and ignored, by the filter */
        b->pos[t] = 0;
    }
}

/* The indices t < n with d[t] < r, in order, to out; returns how many.
 * Every index is written and the count advances only past those within r:
 * no branch to mispredict (flock.c's within). */
static int within3(const double *d, int n, double r, int *out)
{
    int k = 0;
    for (int t = 0; t < n; t++) {
        out[k] = t;
        k += d[t] < r;
    }
    return k;
}

/* reynolds' sums (mur_reynolds_add3_, metric) over the m candidates
 * the filter kept from the block's [j0, j0 + B): the same terms, each sum
 * adding them in the candidates' order, so the same bytes; but a rule at a
 * time, over lists made without a branch (whether a neighbour is inside
 * R_sep, or inside the cone, is a coin toss a branch would often lose),
 * and the radii tested on d2 against it->t* (mur_sqrt_bound: the same
 * answers as |d| < R), so that the square root is taken only for the cone
 * and the separation weight. */
static void reynolds_kept(const mur_it3 *it, const mur_block3 *b, int j0, int m, const int *keep,
                          const double *dx, const double *dy, const double *dz,
                          const double *d2, sums3 *acc)
{
    enum { N = MUR_FILTER_BLOCK + MUR_FILTER_PAD };
    const mur_params *p = it->p;
    const mur_flock *f = it->f;
    double sd2[N];
    int seen[N], in_r[N], ms = 0;
    if (it->fov_cone && it->vlen > 0) {   /* in_view, its products in its order */
        const double v0 = it->v[0], v1 = it->v[1], v2 = it->v[2];
        const double cvl = it->cos_half * it->vlen;
        for (int t = 0; t < m; t++) {
            int o = keep[t];
            sd2[ms] = d2[o];
            seen[ms] = o;
            ms += !(dx[o] * v0 + dy[o] * v1 + dz[o] * v2 < cvl * sqrt(d2[o]));
        }
    } else {
        for (int t = 0; t < m; t++) {
            sd2[t] = d2[keep[t]];
            seen[t] = keep[t];
        }
        ms = m;
    }
    if (it->used & 1) {
        const double soft = p->separation_softening;
        const int falloff = p->separation_falloff;
        double s0 = acc->s[0], s1 = acc->s[1], s2 = acc->s[2];
        int k = within3(sd2, ms, it->tsep, in_r);
        for (int u = 0; u < k; u++) {
            int t = in_r[u], o = seen[t];
            double e = sqrt(sd2[t]) + soft;
            double wgt = falloff == 0 ? e : falloff == 1 ? e * e : e * e * e;
            s0 -= dx[o] / wgt;
            s1 -= dy[o] / wgt;
            s2 -= dz[o] / wgt;
        }
        acc->s[0] = s0, acc->s[1] = s1, acc->s[2] = s2;
        acc->ns += k;
    }
    if (it->used & 2) {
        double a0 = acc->a[0], a1 = acc->a[1], a2 = acc->a[2];
        int k = within3(sd2, ms, it->tali, in_r);
        for (int u = 0; u < k; u++) {
            int j = b->pos[j0 + seen[in_r[u]]];
            a0 += f->kvx[j];
            a1 += f->kvy[j];
            a2 += f->kvz[j];
        }
        acc->a[0] = a0, acc->a[1] = a1, acc->a[2] = a2;
        acc->na += k;
    }
    if (it->used & 4) {
        double c0 = acc->c[0], c1 = acc->c[1], c2 = acc->c[2];
        int k = within3(sd2, ms, it->tcoh, in_r);
        for (int u = 0; u < k; u++) {
            int o = seen[in_r[u]];
            c0 += dx[o];
            c1 += dy[o];
            c2 += dz[o];
        }
        acc->c[0] = c0, acc->c[1] = c1, acc->c[2] = c2;
        acc->nc += k;
    }
}

void mur_nb3_metric_block(const mur_it3 *it, int c, const mur_block3 *b, mur_it3_add add,
                          sums3 *acc)
{
    enum { B = MUR_FILTER_BLOCK, N = MUR_FILTER_BLOCK + MUR_FILTER_PAD };
    const mur_filter3_in in = {{it->r[0], it->r[1], it->r[2]},
                               {it->size[0], it->size[1], it->size[2]},
                               it->treach,
                               {b->wrap[0], b->wrap[1], b->wrap[2]}};
    const int reynolds = add == mur_it3_reynolds_add && !it->topological;
    const int self = b->first + it->k - it->f->grid3.start[c];
    double dx[N], dy[N], dz[N], d2[N];
    int keep[N];
    for (int j0 = 0; j0 < b->n; j0 += B) {
        int j1 = b->n - j0 > B ? j0 + B : b->n;
        int m = it->filter3(&in, b->x, b->y, b->z, j0, j1, self, dx, dy, dz, d2, keep);
        if (reynolds) {
            reynolds_kept(it, b, j0, m, keep, dx, dy, dz, d2, acc);
            continue;
        }
        for (int t = 0; t < m; t++) {
            int o = keep[t];
            mur_nb3 e;
            e.k = b->pos[j0 + o];
            e.d[0] = dx[o];
            e.d[1] = dy[o];
            e.d[2] = dz[o];
            e.dist = sqrt(d2[o]);
            e.seen = in_view(it, e.d, e.dist);
            add(it, acc, &e);
        }
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
