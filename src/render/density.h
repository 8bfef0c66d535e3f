/* Density drawing (density.c): boids too small to draw as shapes become
 * splats of ink accumulated into a density image, tone-mapped and laid
 * over the frame. Private to src/render (and its tests). */
#ifndef MURMUR_RENDER_DENSITY_H
#define MURMUR_RENDER_DENSITY_H

#include <stdint.h>

#include "murmur/render.h"

/* A look whose shape was not chosen (mur_look.shape_auto) draws boids
 * shorter than this many pixels on the frame as splats. */
#define MUR_DENSITY_PX MUR_RENDER_DENSITY_PX

/* One boid's weight, fixed point: its splat's four bilinear weights on a
 * 1/16-pixel grid always sum to exactly this. */
#define MUR_SPLAT_ONE 256

typedef struct mur_density mur_density;

/* Points to splat: world positions mapped to the buffer's pixels by
 * X = sx * x + tx, Y = sy * y + ty (a pixel's centre is at +0.5). */
typedef struct mur_splat_job {
    const double *x, *y;     /* world positions of n points */
    const int *bin;          /* colour bin of each point (< 64), NULL: all bin 0 */
    int n;
    double sx, tx, sy, ty;
    int w, h;                /* buffer pixels: points whose splat misses it are left out */
    double period_x, period_y; /* > 0: a world wrapping with these periods (world units),
                                * drawn once: a splat over its edge lands on the far side too */
    const uint8_t (*rgb)[3]; /* colour of each bin, 8 bits a channel */
} mur_splat_job;

/* Scratch for density drawing on `threads` threads (0: all cores); NULL
 * when memory is short. */
mur_density *mur_density_create(int threads);
/* The same on a pool of the caller's (the renderer's bands), which must
 * outlive it; NULL pool: the caller's thread alone. */
struct mur_pool;
mur_density *mur_density_create_on(struct mur_pool *pool);
void mur_density_destroy(mur_density *d);   /* NULL is fine */

/* Accumulate the job's splats (replacing what was there): 0, or -1 when
 * memory is short. Integer weights: the same pixels for any thread count. */
int mur_density_accumulate(mur_density *d, const mur_splat_job *job);
/* Weight at pixel (x, y) of the last accumulation (MUR_SPLAT_ONE a boid);
 * 0 after a drawing, which sums band by band and keeps no weights. */
uint32_t mur_density_weight(const mur_density *d, int x, int y);
/* The sum of all weights of the last accumulation. */
uint64_t mur_density_total(const mur_density *d);

/* 1 when a look draws boids of `px` pixels as density. */
int mur_density_wanted(const mur_look *lk, double px);

/* Ink of a boid of the look's shape, px pixels long: its area, square pixels. */
double mur_density_ink(const mur_look *lk, double px);

/* The hook in frame.c: draw f's boids as density on cr, which holds the
 * world transform (scale and translation only) and the clip, with the
 * renderer's colour bins of the frame (r->bin, nb bins); px: a boid's
 * length on the frame, pixels. 0, MUR_EINTR, or -1 when memory is short. */
int mur_density_draw(mur_renderer *r, cairo_t *cr, const mur_flock *f, int nb, double px);

#endif
