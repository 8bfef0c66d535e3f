/* A uniform neighbour grid, rebuilt every tick by counting sort.
 *
 * Cells are at least `cell` world units wide, so every neighbour closer than
 * `cell` is in the 3 x 3 block around a boid's cell. After mur_grid_build the
 * boids of cell c are order[start[c] .. start[c+1]) in increasing index: the
 * order of any neighbour sum is then a function of the state alone, never of
 * threads. */
#ifndef MURMUR_GRID_H
#define MURMUR_GRID_H

#include <math.h>
#include <stddef.h>

#include "../util/pool.h"

/* A grid of `axes` axes (2 or 3): n[0] x n[1] (x n[2]) cells of sides
 * side[] from o, cell c = (c2 n1 + c1) n0 + c0; its boids are positions
 * start[c] .. start[c + 1] - 1 of order, by ascending index. The plane's
 * names of the first two axes (gx, gy, cw, ch, ox, oy) are the same
 * storage as n[], side[] and o[]. */
typedef struct mur_grid {
    int axes;
    union { int n[3]; struct { int gx, gy; }; };              /* cells per axis (>= 1) */
    union { double side[3]; struct { double cw, ch; }; };     /* cell sides (>= the cell asked for) */
    union { double o[3]; struct { double ox, oy; }; };        /* the corner of cell 0 (0 but in an open world) */
    double inv[3];       /* 1 / side */
    double cell;         /* the smallest side */
    int wrap;            /* neighbourhood wraps around the edges */
    int ncells;
    int n_boids;         /* boids indexed */
    int *start;          /* ncells + 1 offsets into order */
    int *order;          /* boid indices sorted by cell (stable) */
    int *cell_of;        /* cell of each boid */
    int *slot;           /* position of each boid in order: order[slot[i]] == i */
    size_t cap_cells, cap_boids, cap_cell_of, cap_slot;
} mur_grid;

/* The rules of one axis, written once for the 2D grid and the 3D one
 * (flock_internal.h's mur_grid3): the same cells and the same visiting
 * order along x and y, so a 3D flock in a plane sums its neighbours in the
 * 2D flock's order. */

/* The grid never has more cells than this: a huge world (or an open
 * world's far outlier) with tiny radii would otherwise allocate gigabytes
 * of empty cells. Beyond it cells just grow, which costs speed, never
 * correctness. */
#define MUR_GRID_MAX_CELLS (1 << 22)

/* The cells of a grid of `axes` axes, n[a] along each, halved along every
 * axis until there are at most `most`. */
static inline void mur_grid_cap_(int *n, int axes, double most)
{
    for (;;) {
        double cells = 1;
        for (int a = 0; a < axes; a++)
            cells *= n[a];
        if (cells <= most)
            return;
        for (int a = 0; a < axes; a++)
            n[a] = n[a] > 1 ? n[a] / 2 : 1;
    }
}

/* Cells along an axis `size` wide for cells at least `cell` wide:
 * floor(size / cell), from 1 to most. */
static inline int mur_grid_axis_n_(double size, double cell, int most)
{
    double k = floor(size / cell);
    return k < 1 ? 1 : k > most ? most : (int)k;
}

/* The cell of coordinate u on an axis of n cells of width `side` from o;
 * NaN and out-of-world positions land in an edge cell rather than
 * indexing out of bounds. */
static inline int mur_grid_axis_cell_(double u, double o, double side, int n)
{
    /* u - 0 is u: the origin changes nothing for worlds at 0 */
    double f = floor((u - o) / side);
    return f >= 0 ? (f < n ? (int)f : n - 1) : 0;
}

/* Whether a cell's neighbours along an axis of n cells are the whole axis
 * in order (a wrapping axis of 3 cells or fewer), not the cells c - 1, c,
 * c + 1 around it: each cell once, in one order for 2D and 3D. */
static inline int mur_grid_axis_whole_(int n, int wrap) { return wrap && n <= 3; }

/// Size the grid for a world and cell size, then sort n boids into it.
/// Returns 0, or -1 when memory is short (the grid is then left empty).
int mur_grid_build(mur_grid *g, const double *x, const double *y, int n,
                   double width, double height, double cell, int wrap);

/// mur_grid_build on the pool's threads: the same grid, bit for bit, for
/// any thread count (pool NULL or one thread: the serial build).
int mur_grid_build_on(mur_grid *g, mur_pool *pool, const double *x, const double *y, int n,
                      double width, double height, double cell, int wrap);

/// mur_grid_build_on over the box [ox, ox + width) x [oy, oy + height) in
/// place of [0, width) x [0, height) (an open world's boids' bounding box).
int mur_grid_build_at(mur_grid *g, mur_pool *pool, const double *x, const double *y, int n,
                      double ox, double oy, double width, double height, double cell);

/// Cell coordinates of a point (clamped into the grid).
void mur_grid_cell(const mur_grid *g, double x, double y, int *cx, int *cy);

/// Distinct neighbour cell columns (or rows) around c: writes up to 3 indices
/// to out and returns how many. Handles grids narrower than 3 cells.
int mur_grid_span(int c, int n, int wrap, int out[3]);

/// Files n boids at pos[0..axes-1][i] into cells at least `cell` wide over
/// the box [o, o + size) (under wrap a whole number of them tiles each
/// axis), at most `most` of them (fewer, wider ones past it), filed on the
/// pool's threads (NULL: one). Returns 0, or -1 when memory is short.
int mur_grid_build_axes(mur_grid *g, mur_pool *pool, const double *const *pos, int axes, int n,
                        const double *o, const double *size, double cell, int wrap, double most);

/// Free the grid's arrays (the struct itself is the caller's).
void mur_grid_free(mur_grid *g);

#endif
