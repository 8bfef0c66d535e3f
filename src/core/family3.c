/* A 3D flock's tick (docs/model.md "Three dimensions"): every kind of the
 * model family in a W x H x D box, z up.
 *
 * The tick is family.c's: the state is filed into a grid of cubes (over
 * the box, or the boids' bounding box in an open world) and copied into
 * grid order; every boid's result (an acceleration or a desired heading)
 * is found from that copy, in parallel chunks, each boid's alone; then
 * every boid moves by its motion kind. A cube is at least the reach wide
 * (metric), or 1.4 times the mean spacing times cbrt(k) (topological: the
 * first shells usually hold the k nearest). Same seed, same bytes on any
 * thread count: a boid's result depends on the state of the start of the
 * tick and on its own noise draws only, and its neighbours are visited in
 * an order fixed by the grid, which the state alone fixes. */
#include "kinds.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "murmur/alloc.h"
#include "escape.h"
#include "starling.h"

static void world_of(const mur_params *p, double world[3])
{
    world[0] = p->width;
    world[1] = p->height;
    world[2] = p->depth;
}

/* The tick's grid of boxes at least `cell` wide, over the world's box (the
 * boids' in an open world); 0, or -1 without memory (then the tick scans
 * every boid: the same neighbours, slowly). Metric sums visit neighbours
 * in the grid's order, so their grid has the 2D grid's most cells
 * (grid.h): a cap of the flock's size would grow the boxes of a plane's
 * flock spread wide where the 2D grid's do not, and reorder its sums. The
 * k nearest and the starlings' neighbours are summed in an order of
 * their own: there eight boxes a boid (and a floor for small flocks) keep
 * a far outlier, or a flock in a plane (whose box has no volume, so the
 * spacing of cell_size is tiny), from a grid of millions of boxes. */
static int build(mur_flock *f, double cell)
{
    double world[3];
    world_of(&f->p, world);
    size_t most = f->p.neighbours == MUR_NEIGHBOURS_METRIC ? MUR_GRID_MAX_CELLS : (size_t)f->n * 8 + 64;
    return mur_grid3_build_(&f->grid3, f->pool, f->x, f->y, f->z, f->n, world,
                            f->p.boundary == MUR_BOUNDARY_OPEN, f->p.boundary == MUR_BOUNDARY_WRAP,
                            cell, most);
}

static void copy_chunk(void *ctx, int begin, int end)
{
    mur_flock *f = ctx;
    for (int k = begin; k < end; k++) {
        int i = f->grid3_ok ? f->grid3.order[k] : k;
        f->kx[k] = f->x[i];
        f->ky[k] = f->y[i];
        f->kz[k] = f->z[i];
        f->kvx[k] = f->vx[i];
        f->kvy[k] = f->vy[i];
        f->kvz[k] = f->vz[i];
    }
}

typedef struct {
    mur_flock *f;
    mur_kinds3 kinds;
    mur_it3 tmpl;
} tick3;

/* Boid it->i's sums (it->k its grid position, it->r and it->v its state
 * set) to s, its neighbours from the block b of its cell c, or (b NULL) by
 * its neighbour kind. */
static void sums_at(const tick3 *t, mur_it3 *it, int c, const mur_block3 *b, sums3 *s)
{
    it->vlen = sqrt(mur_dot3_(it->v, it->v));
    memset(s, 0, sizeof *s);
    if (b)
        mur_nb3_metric_block(it, c, b, t->kinds.add, s);
    else
        t->kinds.each(it, t->kinds.add, s);
}

/* Boid it->i's result, as sums_at finds its sums. */
static void desire_at(tick3 *t, mur_it3 *it, int c, const mur_block3 *b)
{
    mur_flock *f = t->f;
    sums3 s;
    sums_at(t, it, c, b, &s);
    double out[3];
    t->kinds.finish(it, &s, out);
    f->acc[2 * it->i] = out[0];
    f->acc[2 * it->i + 1] = out[1];
    f->accz[it->i] = out[2];
}

/* Sets it to the boid at grid position k, read from the grid order's copy. */
static void at_position(const mur_flock *f, mur_it3 *it, int k)
{
    it->k = k;
    it->i = f->grid3_ok ? f->grid3.order[k] : k;
    it->r[0] = f->kx[k];
    it->r[1] = f->ky[k];
    it->r[2] = f->kz[k];
    it->v[0] = f->kvx[k];
    it->v[1] = f->kvy[k];
    it->v[2] = f->kvz[k];
}

/* Sums waiting for reynolds' finish: positions k0 .. k0 + n - 1. A cell
 * holds a boid or three, so the batch runs across cells: each finish is a
 * chain of dependent divisions and square roots, and a run of independent
 * ones overlaps in the CPU and fills the vector unit's lanes
 * (mur_combine3_run), where one between two scans would not
 * (flock.c's sum_batch). */
enum { FINISH_BATCH = 32 };
typedef struct {
    int k0, n;
    sums3 s[FINISH_BATCH];
} finish_batch;

/* Finishes the batch and stores the results by boid id. */
static void batch_flush(tick3 *t, finish_batch *bt)
{
    mur_flock *f = t->f;
    double ox[FINISH_BATCH], oy[FINISH_BATCH], oz[FINISH_BATCH];
    const int k0 = bt->k0;
    const double *const v[3] = {f->kvx + k0, f->kvy + k0, f->kvz + k0};
    double *const out[3] = {ox, oy, oz};
    mur_combine3_run(f, t->tmpl.used, v, bt->s, bt->n, out);
    for (int u = 0; u < bt->n; u++) {
        int i = f->grid3.order[k0 + u];
        f->acc[2 * i] = ox[u];
        f->acc[2 * i + 1] = oy[u];
        f->accz[i] = oz[u];
    }
    bt->n = 0;
}

/* Boid i's result (i an id), read from the state itself: the same values
 * as at_position's copy, so the same bits. */
static void desire_id(tick3 *t, mur_it3 *it, int i)
{
    mur_flock *f = t->f;
    it->i = i;
    it->k = f->grid3_ok ? f->grid3.slot[i] : i;
    it->r[0] = f->x[i];
    it->r[1] = f->y[i];
    it->r[2] = f->z[i];
    it->v[0] = f->vx[i];
    it->v[1] = f->vy[i];
    it->v[2] = f->vz[i];
    desire_at(t, it, 0, NULL);
}

/* The cell holding position k: the last c with start[c] <= k. */
static int cell_at(const mur_grid3 *g, int k)
{
    int c = 0, top = g->n[0] * g->n[1] * g->n[2];
    while (top - c > 1) {
        int mid = c + (top - c) / 2;
        if (g->start[mid] <= k)
            c = mid;
        else
            top = mid;
    }
    return c;
}

static void desire_chunk(void *ctx, int begin, int end)
{
    tick3 *t = ctx;
    mur_flock *f = t->f;
    mur_it3 it = t->tmpl;
    if (f->grid3_ok && t->kinds.each == mur_nb3_metric) {
        /* metric: cell by cell, each cell's candidates copied once for
         * all its boids (the same neighbours in the same order) */
        mur_block3 b;
        finish_batch batch, *bt = t->kinds.finish == mur_it3_reynolds_finish ? &batch : NULL;
        batch.n = 0;
        const mur_grid3 *g = &f->grid3;
        int poll = begin + 4096;
        for (int k = begin, c = begin < end ? cell_at(g, begin) : 0; k < end; c++) {
            int kend = g->start[c + 1] < end ? g->start[c + 1] : end;
            if (k >= kend)
                continue;   /* empty cell */
            if (k >= poll) {
                if (mur_flock_stop_seen_(f))
                    return;
                poll = k + 4096;
            }
            mur_nb3_block_load(&it, c, &b);
            const mur_block3 *blk = b.n >= 0 ? &b : NULL;
            for (; k < kend; k++) {
                at_position(f, &it, k);
                if (!bt) {
                    desire_at(t, &it, c, blk);
                    continue;
                }
                if (bt->n == FINISH_BATCH)
                    batch_flush(t, bt);
                if (bt->n == 0)
                    bt->k0 = k;
                sums_at(t, &it, c, blk, &bt->s[bt->n++]);
            }
        }
        if (bt && bt->n)
            batch_flush(t, bt);
        return;
    }
    /* starlings by id: a tick reads and writes a bird's reaction state
     * (clock, held force; at a reaction its radius and body frame), kept by
     * id, and only one bird in ten reacts and searches. In grid order each
     * of those is a miss in the cache (20,000 birds' state is some 2 MB);
     * by id they stream, and the search's own reads are near each other in
     * the grid either way. Each bird's result depends on the tick's start
     * alone, so the order changes no bits. */
    int by_id = t->kinds.each == mur_nb3_adaptive;
    for (int k = begin; k < end; k++) {
        if ((k - begin) % 4096 == 4095 && mur_flock_stop_seen_(f))
            return;
        if (by_id)
            desire_id(t, &it, k);
        else {
            at_position(f, &it, k);
            desire_at(t, &it, 0, NULL);
        }
    }
}

static void move_chunk(void *ctx, int begin, int end)
{
    tick3 *t = ctx;
    mur_flock *f = t->f;
    if (t->kinds.move == mur_move3_fly) {
        mur_move3_fly_range(f, begin, end, f->acc, f->accz);
        return;
    }
    if (t->kinds.move == mur_move3_steer && t->kinds.accel) {
        mur_move3_steer_range(f, begin, end, f->acc, f->accz);
        return;
    }
    for (int i = begin; i < end; i++) {
        double o[3] = {f->acc[2 * i], f->acc[2 * i + 1], f->accz[i]};
        t->kinds.move(f, i, o, t->kinds.accel);
    }
}

/* The cube for the next grid: the reach, or for the k nearest 1.4 times
 * the spacing at which a cube holds k boids on average. */
static double cell_size(const mur_flock *f, const tick3 *t)
{
    const mur_params *p = &f->p;
    if (p->neighbours == MUR_NEIGHBOURS_ADAPTIVE)
        return mur_starling_cell_(f);
    if (!t->tmpl.topological)
        return mur_nb_metric_cell(f, t->kinds.reach(p));   /* the 2D grid's */
    double o[3], size[3], world[3];
    world_of(p, world);
    mur_grid3_box_(f->x, f->y, f->z, f->n, world, p->boundary == MUR_BOUNDARY_OPEN, o, size);
    double vol = size[0] * size[1] * size[2];
    double per = f->n > 0 ? vol / f->n : vol;
    return 1.4 * cbrt(per * (p->topological_k + 1));
}

int mur_family_step3(mur_flock *f)
{
    const mur_params *p = &f->p;
    tick3 t;
    t.f = f;
    mur_family_kinds3_(p, &t.kinds);
    mur_it3 *it = &t.tmpl;
    memset(it, 0, sizeof *it);
    it->f = f;
    it->p = p;
    it->topological = p->neighbours == MUR_NEIGHBOURS_TOPOLOGICAL;
    it->used = mur_flock_rules_used_(p);
    it->rr = p->separation_radius;
    it->ro = it->rr + p->orientation_width;
    it->ra = it->ro + p->attraction_width;
    double reach = t.kinds.reach(p);
    it->treach = mur_sqrt_bound(reach);   /* d < reach exactly, as in 2D */
    it->tsep = mur_sqrt_bound(p->separation_radius);
    it->tali = mur_sqrt_bound(p->alignment_radius);
    it->tcoh = mur_sqrt_bound(p->cohesion_radius);
    it->reach = reach * (1 + 1e-9);
    it->tcap = it->topological ? p->topological_radius * p->topological_radius : INFINITY;
    it->fov_cone = p->fov < 360;
    it->cos_half = it->fov_cone ? cos(p->fov * 0.5 * MUR_PI / 180.0) : -1;
    it->wrap = p->boundary == MUR_BOUNDARY_WRAP;
    it->size[0] = p->width;
    it->size[1] = p->height;
    it->size[2] = p->depth;
    /* brute force is the plain reference: portable C, so the tests
     * comparing the grid with it compare the vector filter too */
    it->filter3 = mur_filter3_pick(f->brute ? MUR_SIMD_NONE : f->simd);
    f->grid3_ok = !f->brute && f->n > 0 && build(f, cell_size(f, &t)) == 0;
    if ((p->escape_radius > 0 && p->motion == MUR_MOTION_FLY) != (f->esc != NULL) && mur_escape_sync_(f, 0)) {
        f->grid3_ok = 0;
        return MUR_ERUN;   /* no memory for the escape's state */
    }
    mur_pool_run(f->pool, copy_chunk, f, f->n);
    mur_pool_run(f->pool, desire_chunk, &t, f->n);
    if (atomic_load_explicit(&f->stopped, memory_order_relaxed)) {
        f->grid3_ok = 0;
        return MUR_EINTR;   /* nothing has moved yet */
    }
    mur_escape_commit_(f);   /* the zigs of this tick (escape.c; none when off) */
    mur_pool_run(f->pool, move_chunk, &t, f->n);
    f->grid3_ok = 0;
    f->tick++;
    return MUR_OK;
}
