/* The uniform grid of 2 or 3 axes with a counting sort (grid.h), the 2D
 * tick's and metrics', and the 3D tick's and metrics' (mur_grid3): two
 * passes over the boids, no allocation once the arrays have grown to the
 * flock's size. */
#include "grid.h"
#include "flock_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "murmur/alloc.h"

#define MAX_CELLS MUR_GRID_MAX_CELLS

static int grow(void **p, size_t *cap, size_t want, size_t size)
{
    if (want <= *cap)
        return 0;
    void *q = mur_realloc(*p, want * size);
    if (!q)
        return -1;
    *p = q;
    *cap = want;
    return 0;
}

void mur_grid_cell(const mur_grid *g, double x, double y, int *cx, int *cy)
{
    *cx = mur_grid_axis_cell_(x, g->ox, g->cw, g->gx);
    *cy = mur_grid_axis_cell_(y, g->oy, g->ch, g->gy);
}

int mur_grid_span(int c, int n, int wrap, int out[3])
{
    if (mur_grid_axis_whole_(n, wrap)) {
        for (int i = 0; i < n; i++)
            out[i] = i;
        return n;
    }
    int k = 0;
    for (int d = -1; d <= 1; d++) {
        int v = c + d;
        if (wrap)
            v = (v + n) % n;
        else if (v < 0 || v >= n)
            continue;
        out[k++] = v;
    }
    return k;
}

/* Sizes the grid for the box and cell and grows its arrays for n boids;
 * -1 when memory is short. */
static int size_grid(mur_grid *g, int axes, int n, const double *o, const double *size, double cell,
                     int wrap, double most)
{
    if (!(cell > 0) || !isfinite(cell))
        for (int a = 0; a < axes; a++)
            cell = a == 0 || size[a] > cell ? size[a] : cell;
    g->axes = axes;
    g->ncells = 1;
    for (int a = 0; a < 3; a++)
        g->n[a] = a < axes ? mur_grid_axis_n_(size[a], cell, MAX_CELLS) : 1;
    mur_grid_cap_(g->n, axes, most);
    for (int a = 0; a < 3; a++) {
        g->o[a] = a < axes ? o[a] : 0;
        g->side[a] = a < axes ? size[a] / g->n[a] : 1;   /* >= cell */
        g->inv[a] = 1 / g->side[a];
        g->ncells *= g->n[a];
    }
    g->cell = g->side[0];
    for (int a = 1; a < axes; a++)
        g->cell = fmin(g->cell, g->side[a]);
    g->wrap = wrap;
    g->n_boids = 0;
    size_t nb = n > 0 ? (size_t)n : 1;
    return grow((void **)&g->start, &g->cap_cells, (size_t)g->ncells + 1, sizeof(int)) ||
                   grow((void **)&g->order, &g->cap_boids, nb, sizeof(int)) ||
                   grow((void **)&g->cell_of, &g->cap_cell_of, nb, sizeof(int)) ||
                   grow((void **)&g->slot, &g->cap_slot, nb, sizeof(int))
               ? -1
               : 0;
}

/* Enters with every boid's cell in cell_of; leaves the grid built. */
static int scatter(mur_grid *g, int n)
{
    memset(g->start, 0, ((size_t)g->ncells + 1) * sizeof(int));
    for (int i = 0; i < n; i++)
        g->start[g->cell_of[i] + 1]++;
    for (int k = 0; k < g->ncells; k++)
        g->start[k + 1] += g->start[k];
    /* Stable scatter: boids enter their cell in index order. start[k] is
     * used as the cursor and restored afterwards by a shift. */
    for (int i = 0; i < n; i++) {
        int k = g->start[g->cell_of[i]]++;
        g->order[k] = i;
        g->slot[i] = k;
    }
    memmove(g->start + 1, g->start, (size_t)g->ncells * sizeof(int));
    g->start[0] = 0;
    g->n_boids = n;
    return 0;
}

/* ---- the parallel build --------------------------------------------------
 *
 * Filing boids into cells (a division and a floor an axis a boid) runs on
 * the pool; counting and the stable scatter stay serial: integer work whose
 * random writes two threads would fight over cache lines for (atomic
 * counters measured slower than one thread). The grid is the same bytes. */

typedef struct {
    mur_grid *g;
    const double *const *pos;
} build_ctx;

/* Boids [begin, end) filed into their cells, for a constant `axes`. */
static inline __attribute__((always_inline)) void file_axes(mur_grid *g, const double *const *pos,
                                                            int begin, int end, const int axes)
{
    for (int i = begin; i < end; i++) {
        int c = 0;
        for (int a = axes - 1; a >= 0; a--)
            c = c * g->n[a] + mur_grid_axis_cell_(pos[a][i], g->o[a], g->side[a], g->n[a]);
        g->cell_of[i] = c;
    }
}

static void file_boids(void *ctx, int begin, int end)
{
    build_ctx *b = ctx;
    if (b->g->axes == 2)
        file_axes(b->g, b->pos, begin, end, 2);
    else
        file_axes(b->g, b->pos, begin, end, 3);
}

/* Below this many boids the serial build is as fast. */
#define PARALLEL_MIN 16384

int mur_grid_build_axes(mur_grid *g, mur_pool *pool, const double *const *pos, int axes, int n,
                        const double *o, const double *size, double cell, int wrap, double most)
{
    if (size_grid(g, axes, n, o, size, cell, wrap, most))
        return -1;
    build_ctx b = {g, pos};
    if (mur_pool_threads(pool) < 2 || n < PARALLEL_MIN)
        file_boids(&b, 0, n);
    else
        mur_pool_run(pool, file_boids, &b, n);
    return scatter(g, n);
}

static int build2(mur_grid *g, mur_pool *pool, const double *x, const double *y, int n, double ox,
                  double oy, double width, double height, double cell, int wrap)
{
    const double *const pos[2] = {x, y};
    const double o[2] = {ox, oy}, size[2] = {width, height};
    return mur_grid_build_axes(g, pool, pos, 2, n, o, size, cell, wrap, MAX_CELLS);
}

int mur_grid_build(mur_grid *g, const double *x, const double *y, int n, double width, double height,
                   double cell, int wrap)
{
    return build2(g, NULL, x, y, n, 0, 0, width, height, cell, wrap);
}

int mur_grid_build_on(mur_grid *g, mur_pool *pool, const double *x, const double *y, int n,
                      double width, double height, double cell, int wrap)
{
    return build2(g, pool, x, y, n, 0, 0, width, height, cell, wrap);
}

int mur_grid_build_at(mur_grid *g, mur_pool *pool, const double *x, const double *y, int n,
                      double ox, double oy, double width, double height, double cell)
{
    return build2(g, pool, x, y, n, ox, oy, width, height, cell, 0);
}

/* The boids' bounding box (finite positions), a hair more so the largest
 * coordinate files inside; a unit box at 0 when there are none. */
static void bounds(const double *const axis[3], int n, double o[3], double size[3])
{
    for (int c = 0; c < 3; c++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < n; i++)
            if (isfinite(axis[c][i])) {
                lo = fmin(lo, axis[c][i]);
                hi = fmax(hi, axis[c][i]);
            }
        if (!(lo <= hi))
            lo = 0, hi = 1;
        o[c] = lo;
        size[c] = fmax((hi - lo) * (1 + 1e-12), 1e-9);
    }
}

void mur_grid3_box_(const double *x, const double *y, const double *z, int n, const double world[3],
                    int fit, double o[3], double size[3])
{
    const double *const axis[3] = {x, y, z};
    if (fit) {
        bounds(axis, n, o, size);
        return;
    }
    for (int c = 0; c < 3; c++) {
        o[c] = 0;
        size[c] = world[c];
    }
}

int mur_grid3_build_(mur_grid3 *g, mur_pool *pool, const double *x, const double *y, const double *z,
                     int n, const double world[3], int fit, int wrap, double cell, size_t most)
{
    double o[3], size[3];
    const double *const pos[3] = {x, y, z};
    mur_grid3_box_(x, y, z, n, world, fit, o, size);
    return mur_grid_build_axes(g, pool, pos, 3, n, o, size, cell, wrap, (double)most);
}

void mur_grid_free(mur_grid *g)
{
    mur_free(g->start);
    mur_free(g->order);
    mur_free(g->cell_of);
    mur_free(g->slot);
    memset(g, 0, sizeof *g);
}
