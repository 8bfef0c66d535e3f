/* Uniform grid with a counting sort: two passes over the boids, no
 * allocation once the arrays have grown to the flock's size. */
#include "grid.h"

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

/* Sizes the grid for the world and cell and grows its arrays for n boids;
 * -1 when memory is short. */
static int size_grid(mur_grid *g, int n, double width, double height, double cell, int wrap)
{
    if (!(cell > 0))
        cell = width > height ? width : height;
    int cells[2] = {mur_grid_axis_n_(width, cell, MAX_CELLS), mur_grid_axis_n_(height, cell, MAX_CELLS)};
    mur_grid_cap_(cells, 2, MAX_CELLS);
    int gx = cells[0], gy = cells[1];
    g->gx = gx;
    g->gy = gy;
    g->cw = width / gx;
    g->ch = height / gy;
    g->wrap = wrap;
    g->ox = g->oy = 0;
    g->ncells = gx * gy;
    g->n = 0;
    size_t nb = n > 0 ? (size_t)n : 1;
    return grow((void **)&g->start, &g->cap_cells, (size_t)g->ncells + 1, sizeof(int)) ||
                   grow((void **)&g->order, &g->cap_boids, nb, sizeof(int)) ||
                   grow((void **)&g->cell_of, &g->cap_cell_of, nb, sizeof(int)) ||
                   grow((void **)&g->slot, &g->cap_slot, nb, sizeof(int))
               ? -1
               : 0;
}

static int cell_index(const mur_grid *g, double x, double y)
{
    int cx, cy;
    mur_grid_cell(g, x, y, &cx, &cy);
    return cy * g->gx + cx;
}

static int scatter(mur_grid *g, int n);

int mur_grid_build(mur_grid *g, const double *x, const double *y, int n,
                   double width, double height, double cell, int wrap)
{
    if (size_grid(g, n, width, height, cell, wrap))
        return -1;
    for (int i = 0; i < n; i++)
        g->cell_of[i] = cell_index(g, x[i], y[i]);
    return scatter(g, n);
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
    g->n = n;
    return 0;
}

/* ---- the parallel build --------------------------------------------------
 *
 * Filing boids into cells (two divisions and two floors a boid) runs on
 * the pool; counting and the stable scatter stay serial: integer work whose
 * random writes two threads would fight over cache lines for (atomic
 * counters measured slower than one thread). The grid is the same bytes. */

typedef struct {
    mur_grid *g;
    const double *x, *y;
} build_ctx;

static void file_boids(void *ctx, int begin, int end)
{
    build_ctx *b = ctx;
    for (int i = begin; i < end; i++)
        b->g->cell_of[i] = cell_index(b->g, b->x[i], b->y[i]);
}

/* Below this many boids the serial build is as fast. */
#define PARALLEL_MIN 16384

static int build_on(mur_grid *g, mur_pool *pool, const double *x, const double *y, int n,
                    double ox, double oy, double width, double height, double cell, int wrap)
{
    if (size_grid(g, n, width, height, cell, wrap))
        return -1;
    g->ox = ox;
    g->oy = oy;
    if (mur_pool_threads(pool) < 2 || n < PARALLEL_MIN) {
        for (int i = 0; i < n; i++)
            g->cell_of[i] = cell_index(g, x[i], y[i]);
        return scatter(g, n);
    }
    build_ctx b = {g, x, y};
    mur_pool_run(pool, file_boids, &b, n);
    return scatter(g, n);
}

int mur_grid_build_on(mur_grid *g, mur_pool *pool, const double *x, const double *y, int n,
                      double width, double height, double cell, int wrap)
{
    return build_on(g, pool, x, y, n, 0, 0, width, height, cell, wrap);
}

int mur_grid_build_at(mur_grid *g, mur_pool *pool, const double *x, const double *y, int n,
                      double ox, double oy, double width, double height, double cell)
{
    return build_on(g, pool, x, y, n, ox, oy, width, height, cell, 0);
}

void mur_grid_free(mur_grid *g)
{
    mur_free(g->start);
    mur_free(g->order);
    mur_free(g->cell_of);
    mur_free(g->slot);
    memset(g, 0, sizeof *g);
}
