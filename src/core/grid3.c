/* The 3D grid of boxes (flock_internal.h's mur_grid3), shared by the 3D
 * tick (family3.c) and the 3D metrics (metrics3.c). */
#include "flock_internal.h"

#include <math.h>
#include <string.h>

#include "murmur/alloc.h"

static int grow(int **p, size_t *cap, size_t want)
{
    if (want <= *cap)
        return 0;
    int *q = mur_realloc(*p, want * sizeof *q);
    if (!q)
        return -1;
    *p = q;
    *cap = want;
    return 0;
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

typedef struct {
    mur_grid3 *g;
    const double *axis[3];
} file_ctx;

/* Boids [begin, end) filed into their cells (cell_of). */
static void file_boids(void *ctx, int begin, int end)
{
    file_ctx *fc = ctx;
    mur_grid3 *g = fc->g;
    for (int i = begin; i < end; i++) {
        const double r[3] = {fc->axis[0][i], fc->axis[1][i], fc->axis[2][i]};
        int at[3];
        mur_grid3_cell_(g, r, at);
        g->cell_of[i] = (at[2] * g->n[1] + at[1]) * g->n[0] + at[0];
    }
}

/* Below this many boids filing on one thread is as fast (the 2D grid's
 * PARALLEL_MIN). */
#define PARALLEL_MIN 16384

int mur_grid3_build_(mur_grid3 *g, mur_pool *pool, const double *x, const double *y, const double *z,
                     int n, const double world[3], int fit, int wrap, double cell, size_t most)
{
    double o[3], size[3];
    mur_grid3_box_(x, y, z, n, world, fit, o, size);
    g->wrap = wrap;
    if (!(cell > 0) || !isfinite(cell))
        cell = fmax(size[0], fmax(size[1], size[2]));
    /* a whole number of boxes tiles the box, each at least `cell`, at
     * most `most` of them: the 2D grid's rules, so a plane's cells are its */
    for (int c = 0; c < 3; c++)
        g->n[c] = mur_grid_axis_n_(size[c], cell, MUR_GRID_MAX_CELLS);
    mur_grid_cap_(g->n, 3, (double)most);
    for (int c = 0; c < 3; c++) {
        g->o[c] = o[c];
        g->side[c] = size[c] / g->n[c];   /* >= cell */
        g->inv[c] = 1 / g->side[c];
    }
    g->cell = fmin(g->side[0], fmin(g->side[1], g->side[2]));
    size_t ncell = (size_t)g->n[0] * (size_t)g->n[1] * (size_t)g->n[2];
    if (grow(&g->start, &g->cells_cap, ncell + 1))
        return -1;
    if ((size_t)n + 1 > g->cap) {
        size_t want = (size_t)n + 1, c1 = g->cap, c2 = g->cap, c3 = g->cap;
        if (grow(&g->order, &c1, want) || grow(&g->slot, &c2, want) || grow(&g->cell_of, &c3, want))
            return -1;   /* those grown keep their data; cap stays */
        g->cap = want;
    }
    memset(g->start, 0, (ncell + 1) * sizeof *g->start);
    /* Filing (three divisions and floors a boid, the 2D grid's rule) runs
     * on the pool, as the 2D grid's does; counting and the stable scatter
     * stay serial. The same grid on any thread count. */
    file_ctx fc = {g, {x, y, z}};
    if (mur_pool_threads(pool) < 2 || n < PARALLEL_MIN)
        file_boids(&fc, 0, n);
    else
        mur_pool_run(pool, file_boids, &fc, n);
    for (int i = 0; i < n; i++)
        g->start[g->cell_of[i] + 1]++;
    for (size_t c = 0; c < ncell; c++)
        g->start[c + 1] += g->start[c];
    for (int i = 0; i < n; i++) {   /* counting sort, stable: a box's boids by ascending id */
        int k = g->start[g->cell_of[i]]++;
        g->order[k] = i;
        g->slot[i] = k;
    }
    for (size_t c = ncell; c > 0; c--)
        g->start[c] = g->start[c - 1];
    g->start[0] = 0;
    return 0;
}

void mur_grid3_free_(mur_grid3 *g)
{
    mur_free(g->start);
    mur_free(g->order);
    mur_free(g->slot);
    mur_free(g->cell_of);
    memset(g, 0, sizeof *g);
}
