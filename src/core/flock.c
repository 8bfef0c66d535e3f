/* The flock: docs/model.md's one tick, for every variant.
 *
 * State is structure-of-arrays (x, y, vx, vy; 32 bytes a boid) plus two
 * acceleration arrays for sync ticks (16 bytes a boid). Neighbours come from
 * a uniform grid rebuilt each tick, or from an O(N^2) loop kept as the
 * reference that tests and the benchmark compare against.
 *
 * Determinism: a boid's neighbour sums visit cells in a fixed order and the
 * boids of a cell in index order, so they depend on the state alone. Sync
 * ticks split boids across threads, each writing only its own boids; noise
 * is a hash of (seed, tick, boid). Any thread count gives the same bytes.
 *
 * Speed: boid ids are scattered over the world, so reading neighbours by id
 * costs a cache miss each. Each tick therefore copies the state into grid
 * order (kx, ky, kvx, kvy: a cell's boids are adjacent, and so are the cells
 * of a row) and walks the boids cell by cell in that order. A scan filters
 * candidates with the vector unit (filter.h), then applies the rules to the
 * few within reach. The copies change where values are read from, never
 * the order of a sum. */
#include "murmur/flock.h"
#include "murmur/alloc.h"
#include "murmur/presets.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "grid.h"
#include "murmur/rng.h"
#include "../util/pool.h"
#include "flock_internal.h"
#include "starling.h"
#include "family.h"
#include "kinds.h"


/* Salts separating the uses of the counter-based hash. */
#define SALT_NOISE 0x6e6f697365ULL   /* "noise" */
#define SALT_SCATTER 0x73636174ULL   /* "scat" */

/* Boids between two looks at the stop flag inside a tick: a few
 * milliseconds of work at most, so a signal is answered well within a
 * second even at MUR_MAX_BOIDS, for one load and compare. */
#define POLL_BOIDS 4096

void mur_params_offset3(const mur_params *p, const double a[3], const double b[3], double d[3])
{
    const double size[3] = {p->width, p->height, p->depth};
    for (int k = 0; k < 3; k++) {
        d[k] = b[k] - a[k];
        if (p->boundary == MUR_BOUNDARY_WRAP)
            d[k] = mur_near_image(d[k], size[k]);
    }
}

void mur_params_offset(const mur_params *p, double x0, double y0, double x1, double y1,
                       double *dx, double *dy)
{
    double ox = x1 - x0, oy = y1 - y0;
    if (p->boundary == MUR_BOUNDARY_WRAP) {
        ox = mur_near_image(ox, p->width);
        oy = mur_near_image(oy, p->height);
    }
    *dx = ox;
    *dy = oy;
}

void mur_flock_offset(const mur_flock *f, double x0, double y0, double x1, double y1,
                      double *dx, double *dy)
{
    mur_params_offset(&f->p, x0, y0, x1, y1, dx, dy);
}

/* ---- validation --------------------------------------------------------- */

/* Every setting against its range in the settings table (presets.c), the
 * one list of ranges, then the rules that tie two settings together. */
int mur_params_validate(const mur_params *p, mur_error *err)
{
    if (!MUR_VERSION_OK(p->version, 1, MUR_PARAMS_VERSION))
        return mur_error_set(err, MUR_EINPUT,
                             "mur_params version %u: this library knows 1 to %d (start from a preset's "
                             "params or mur_params_init)",
                             p->version, MUR_PARAMS_VERSION);
    for (int i = 0; i < mur_setting_count(); i++) {
        const mur_setting *st = mur_setting_at(i);
        double v = mur_setting_get(st, p);
        if (st->type == MUR_SETTING_ENUM) {
            int n = 0;
            while (st->choices[n])
                n++;
            if (!(v >= 0 && v < n))
                return mur_error_set(err, MUR_EINPUT, "unknown %s", st->name);
        } else if (!(v >= st->min && v <= st->max)) {
            return mur_error_set(err, MUR_EINPUT, "%s = %g is out of range [%g, %g]", st->name, v,
                                 st->min, st->max);
        }
    }
    if (!(p->min_speed <= p->max_speed))
        return mur_error_set(err, MUR_EINPUT, "min_speed (%g) is above max_speed (%g)",
                             p->min_speed, p->max_speed);
    if (!(p->init_speed_min <= p->init_speed_max))
        return mur_error_set(err, MUR_EINPUT, "init_speed range [%g, %g] is reversed",
                             p->init_speed_min, p->init_speed_max);
    if (p->dimensions == 3 && !(p->depth >= 1) && !(p->density > 0))
        return mur_error_set(err, MUR_EINPUT,
                             "depth = %g: a 3D world needs a depth of at least 1 world unit",
                             p->depth);
    return mur_family_validate(p, err);
}

void mur_params_resolve(mur_params *p)
{
    if (p->density > 0) {
        double side = p->dimensions == 3 ? cbrt((double)p->count / p->density)
                                         : sqrt((double)p->count / p->density);
        side = side >= 1 ? side : 1;
        p->width = p->height = side <= MUR_MAX_WORLD ? side : MUR_MAX_WORLD;
        if (p->dimensions == 3)
            p->depth = p->width;
    }
}

int mur_params_reynolds(const mur_params *p)
{
    return p->neighbours == MUR_NEIGHBOURS_METRIC && p->interaction == MUR_INTERACTION_REYNOLDS &&
           p->motion == MUR_MOTION_STEER;
}

/* ---- storage ------------------------------------------------------------ */

static int reserve(mur_flock *f, size_t n)
{
    if (n <= f->cap)
        return 0;
    size_t cap = f->cap ? f->cap : 64;
    while (cap < n)
        cap *= 2;
    struct {
        void **p;
        size_t size;  /* bytes a boid */
    } arrays[] = {
        {(void **)&f->x, sizeof(double)},  {(void **)&f->y, sizeof(double)},
        {(void **)&f->vx, sizeof(double)}, {(void **)&f->vy, sizeof(double)},
        {(void **)&f->kx, sizeof(double)}, {(void **)&f->ky, sizeof(double)},
        {(void **)&f->kvx, sizeof(double)}, {(void **)&f->kvy, sizeof(double)},
        {(void **)&f->acc, 2 * sizeof(double)},
        /* the third axis, in a 3D flock only */
        {(void **)&f->z, sizeof(double)},  {(void **)&f->vz, sizeof(double)},
        {(void **)&f->kz, sizeof(double)}, {(void **)&f->kvz, sizeof(double)},
        {(void **)&f->accz, sizeof(double)},
    };
    size_t narrays = sizeof arrays / sizeof arrays[0] - (f->p.dimensions == 3 ? 0 : 5);
    /* MUR_FILTER_PAD more than a flock holds: the filter's last vector
     * reads past the last boid (and ignores what it reads). */
    for (size_t k = 0; k < narrays; k++) {
        void *q = mur_realloc(*arrays[k].p, (cap + MUR_FILTER_PAD) * arrays[k].size);
        if (!q)
            return -1;  /* arrays already grown keep their data; cap is unchanged */
        *arrays[k].p = q;
    }
    if (f->groups) {
        unsigned char *g = mur_realloc(f->group, cap);
        if (!g)
            return -1;
        f->group = g;
    }
    /* defined values there, for memory checkers */
    double *const padded[] = {f->x, f->y, f->vx, f->vy, f->kx, f->ky, f->kvx, f->kvy,
                              f->z, f->vz, f->kz, f->kvz};
    for (size_t k = 0; k < (f->p.dimensions == 3 ? 12u : 8u); k++)
        memset(padded[k] + f->cap, 0, (cap + MUR_FILTER_PAD - f->cap) * sizeof(double));
    f->cap = cap;
    return 0;
}

/* Boid i drawn from the stream: position, heading, speed, in that order, so
 * the first k boids of any flock with the same seed are the same. */
static void draw_boid3(mur_flock *f, int i);

static void draw_boid(mur_flock *f, int i)
{
    const mur_params *p = &f->p;
    if (p->dimensions == 3) {
        draw_boid3(f, i);
        return;
    }
    double px = mur_rng_uniform(&f->rng);
    double py = mur_rng_uniform(&f->rng);
    f->x[i] = px * p->width;
    f->y[i] = py * p->height;
    if (p->boundary == MUR_BOUNDARY_OPEN) {
        /* An open world has no area to fill: the start is a disc of the
         * world's area around the world's centre, where the view is before
         * a camera follows the flock; uniform by area (Couzin 2002's start,
         * whose origin is arbitrary in open space; the same two draws). */
        double r = sqrt(px * p->width * p->height / MUR_PI), t = 2 * MUR_PI * py;
        f->x[i] = p->width / 2 + r * cos(t);
        f->y[i] = p->height / 2 + r * sin(t);
    }
    double a = 2 * MUR_PI * mur_rng_uniform(&f->rng);
    double u = mur_rng_uniform(&f->rng);
    double s = p->init_speed_min + (p->init_speed_max - p->init_speed_min) * u;
    f->vx[i] = s * cos(a);
    f->vy[i] = s * sin(a);
}

/* A 3D boid drawn from the stream: position (three draws), heading uniform
 * on the sphere (two: cos of the polar angle uniform in [-1, 1], the
 * azimuth uniform), speed. An open world starts in a ball of the box's
 * volume around its centre, uniform by volume. */
static void draw_boid3(mur_flock *f, int i)
{
    const mur_params *p = &f->p;
    double px = mur_rng_uniform(&f->rng);
    double py = mur_rng_uniform(&f->rng);
    double pz = mur_rng_uniform(&f->rng);
    if (p->boundary == MUR_BOUNDARY_OPEN) {
        double R = cbrt(3 * p->width * p->height * p->depth / (4 * MUR_PI));
        double r = R * cbrt(px), c = 2 * py - 1, s = sqrt(fmax(0, 1 - c * c)), t = 2 * MUR_PI * pz;
        f->x[i] = p->width / 2 + r * s * cos(t);
        f->y[i] = p->height / 2 + r * s * sin(t);
        f->z[i] = p->depth / 2 + r * c;
    } else {
        f->x[i] = px * p->width;
        f->y[i] = py * p->height;
        f->z[i] = pz * p->depth;
    }
    double c = 2 * mur_rng_uniform(&f->rng) - 1, sn = sqrt(fmax(0, 1 - c * c));
    double a = 2 * MUR_PI * mur_rng_uniform(&f->rng);
    double u = mur_rng_uniform(&f->rng);
    double sp = p->init_speed_min + (p->init_speed_max - p->init_speed_min) * u;
    f->vx[i] = sp * sn * cos(a);
    f->vy[i] = sp * sn * sin(a);
    f->vz[i] = sp * c;
}

static void fold_into_world(mur_flock *f);

/* Boid i of group g drawn from the stream: position in the group's region,
 * then heading, then speed, in that order. */
static void draw_placed3(mur_flock *f, int i, const mur_start_group *g);

static void draw_placed(mur_flock *f, int i, const mur_start_group *g)
{
    const mur_params *p = &f->p;
    if (p->dimensions == 3) {
        draw_placed3(f, i, g);
        return;
    }
    double u = mur_rng_uniform(&f->rng), v = mur_rng_uniform(&f->rng), x, y;
    switch (g->region) {
    case MUR_REGION_DISC:
    case MUR_REGION_RING: {
        /* uniform by area: r^2 uniform between the band's edges */
        double r0 = g->region == MUR_REGION_DISC ? 0 : fmax(g->radius - g->band / 2, 0);
        double r1 = g->region == MUR_REGION_DISC ? g->radius : g->radius + g->band / 2;
        double r = sqrt(r0 * r0 + u * (r1 * r1 - r0 * r0)), a = 2 * MUR_PI * v;
        x = g->cx + r * cos(a);
        y = g->cy + r * sin(a);
        break;
    }
    case MUR_REGION_BOX:
        x = g->x + u * g->w;
        y = g->y + v * g->h;
        break;
    default:
        x = u * p->width;
        y = v * p->height;
    }
    f->x[i] = x;
    f->y[i] = y;
    double a = mur_rng_uniform(&f->rng);
    a = g->heading_random ? 2 * MUR_PI * a : (g->heading + (a - 0.5) * g->spread) * MUR_PI / 180;
    double lo = g->speed_min >= 0 ? g->speed_min : p->init_speed_min;
    double hi = g->speed_min >= 0 ? g->speed_max : p->init_speed_max;
    double s = lo + (hi - lo) * mur_rng_uniform(&f->rng);
    f->vx[i] = s * cos(a);
    f->vy[i] = s * sin(a);
}

/* A 3D boid of group g: position (three draws) in its region, heading
 * (random: uniform on the sphere, two draws; else level, at the heading's
 * azimuth within +- spread / 2, one draw), then speed. */
static void draw_placed3(mur_flock *f, int i, const mur_start_group *g)
{
    const mur_params *p = &f->p;
    double u = mur_rng_uniform(&f->rng), v = mur_rng_uniform(&f->rng), w = mur_rng_uniform(&f->rng);
    switch (g->region) {
    case MUR_REGION_BALL: {   /* uniform by volume */
        double r = g->radius * cbrt(u), c = 2 * v - 1, s = sqrt(fmax(0, 1 - c * c)), a = 2 * MUR_PI * w;
        f->x[i] = g->cx + r * s * cos(a);
        f->y[i] = g->cy + r * s * sin(a);
        f->z[i] = g->cz + r * c;
        break;
    }
    case MUR_REGION_BOX:
        f->x[i] = g->x + u * g->w;
        f->y[i] = g->y + v * g->h;
        f->z[i] = g->z + w * g->d;
        break;
    case MUR_REGION_SLAB:
        f->x[i] = u * p->width;
        f->y[i] = v * p->height;
        f->z[i] = g->z + w * g->d;
        break;
    default:
        f->x[i] = u * p->width;
        f->y[i] = v * p->height;
        f->z[i] = w * p->depth;
    }
    double lo = g->speed_min >= 0 ? g->speed_min : p->init_speed_min;
    double hi = g->speed_min >= 0 ? g->speed_max : p->init_speed_max;
    double h[3];
    if (g->heading_random) {
        double c = 2 * mur_rng_uniform(&f->rng) - 1, s = sqrt(fmax(0, 1 - c * c));
        double a = 2 * MUR_PI * mur_rng_uniform(&f->rng);
        h[0] = s * cos(a), h[1] = s * sin(a), h[2] = c;
    } else {
        double a = (g->heading + (mur_rng_uniform(&f->rng) - 0.5) * g->spread) * MUR_PI / 180;
        h[0] = cos(a), h[1] = sin(a), h[2] = 0;
    }
    double sp = lo + (hi - lo) * mur_rng_uniform(&f->rng);
    f->vx[i] = sp * h[0];
    f->vy[i] = sp * h[1];
    f->vz[i] = sp * h[2];
}

/* Boid i as the flock's start has it: its group's, or uniform past the groups. */
static void draw_start(mur_flock *f, int i)
{
    int first = 0;
    for (int k = 0; k < f->ngroups; k++) {
        if (i < first + f->groups[k].count) {
            draw_placed(f, i, &f->groups[k]);
            f->group[i] = (unsigned char)k;
            return;
        }
        first += f->groups[k].count;
    }
    if (f->group)
        f->group[i] = 255;
    draw_boid(f, i);
}

int mur_flock_create(mur_flock **out, const mur_params *p, uint64_t seed, mur_error *err)
{
    *out = NULL;
    int rc = mur_params_validate(p, err);
    if (rc)
        return rc;
    mur_flock *f = mur_calloc(1, sizeof *f);
    if (!f)
        return mur_error_set(err, MUR_ERUN, "out of memory creating a flock");
    f->p = *p;
    mur_params_resolve(&f->p);
    f->seed = seed;
    f->simd = mur_filter_best();
    f->filter = mur_filter_pick(&f->simd);
    if (reserve(f, (size_t)(p->count > 0 ? p->count : 1))) {
        mur_flock_destroy(f);
        return mur_error_set(err, MUR_ERUN, "out of memory for %d boids", p->count);
    }
    mur_flock_reset(f);
    if (f->p.motion == MUR_MOTION_FLY && !f->star) {
        mur_flock_destroy(f);
        return mur_error_set(err, MUR_ERUN, "out of memory for %d birds' body frames", p->count);
    }
    *out = f;
    return MUR_OK;
}

void mur_flock_destroy(mur_flock *f)
{
    if (!f)
        return;
    mur_free(f->x);
    mur_free(f->y);
    mur_free(f->vx);
    mur_free(f->vy);
    mur_free(f->kx);
    mur_free(f->ky);
    mur_free(f->kvx);
    mur_free(f->kvy);
    mur_free(f->acc);
    mur_free(f->z);
    mur_free(f->vz);
    mur_free(f->kz);
    mur_free(f->kvz);
    mur_free(f->accz);
    mur_grid3_free_(&f->grid3);
    mur_starling_free_(f);
    mur_free(f->reach_of);
    mur_free(f->hint);
    mur_free(f->ids);
    mur_free(f->groups);
    mur_free(f->group);
    mur_grid_free(&f->grid);
    mur_pool_destroy(f->pool);
    mur_free(f);
}

/* The model's own boids again: boid i is id i. */
static void drop_ids(mur_flock *f)
{
    mur_free(f->ids);
    f->ids = NULL;
    f->ids_cap = 0;
}

void mur_flock_reset(mur_flock *f)
{
    mur_rng_seed(&f->rng, f->seed);
    drop_ids(f);
    f->n = f->p.count;
    for (int i = 0; i < f->n; i++)
        draw_start(f, i);
    if (f->ngroups)
        fold_into_world(f);   /* a region across a wrapping edge */
    f->tick = 0;
    f->grid_ok = 0;
    mur_starling_sync_(f, 0);   /* starlings: level flight (no memory: the step refuses) */
}

void mur_flock_scatter(mur_flock *f)
{
    if (f->p.dimensions == 3) {
        /* uniform on the sphere: the polar angle's cosine and the azimuth */
        for (int i = 0; i < f->n; i++) {
            double s = sqrt(f->vx[i] * f->vx[i] + f->vy[i] * f->vy[i] + f->vz[i] * f->vz[i]);
            uint64_t h = mur_hash3(f->seed ^ SALT_SCATTER, f->tick, (uint64_t)i);
            double c = 2 * mur_u01(h) - 1, sn = sqrt(fmax(0, 1 - c * c));
            double a = 2 * MUR_PI * mur_u01(mur_hash3(h, f->tick, 1));
            f->vx[i] = s * sn * cos(a);
            f->vy[i] = s * sn * sin(a);
            f->vz[i] = s * c;
        }
        f->grid_ok = 0;
        return;
    }
    for (int i = 0; i < f->n; i++) {
        double s = sqrt(f->vx[i] * f->vx[i] + f->vy[i] * f->vy[i]);
        double a = 2 * MUR_PI * mur_u01(mur_hash3(f->seed ^ SALT_SCATTER, f->tick, (uint64_t)i));
        f->vx[i] = s * cos(a);
        f->vy[i] = s * sin(a);
    }
    f->grid_ok = 0;
}

static double fold(double x, double w) { return mur_fold_(x, w); }

/* Under wrap every position is kept in [0, W) x [0, H): the grid files a
 * boid by its coordinates and the nearest-image rule corrects an offset by
 * one world at most, so a boid left outside (a world that shrank, a loaded
 * state) would see the wrong neighbours. Walls need nothing: the grid files
 * outside boids in the edge cells, which is exact, and the next tick
 * brings them in. */
static void fold_into_world(mur_flock *f)
{
    if (f->p.boundary != MUR_BOUNDARY_WRAP)
        return;
    for (int i = 0; i < f->n; i++) {
        f->x[i] = fold(f->x[i], f->p.width);
        f->y[i] = fold(f->y[i], f->p.height);
    }
    if (f->z)
        for (int i = 0; i < f->n; i++)
            f->z[i] = fold(f->z[i], f->p.depth);
}

int mur_flock_set_params(mur_flock *f, const mur_params *p, mur_error *err)
{
    int rc = mur_params_validate(p, err);
    if (rc)
        return rc;
    if (p->dimensions != f->p.dimensions)
        return mur_error_set(err, MUR_EINPUT, "dimensions cannot change during a run (%d, now %d)",
                             f->p.dimensions, p->dimensions);
    if (p->count > f->n && reserve(f, (size_t)p->count))
        return mur_error_set(err, MUR_ERUN, "out of memory for %d boids", p->count);
    int old = f->n;
    if (p->count != old)
        drop_ids(f);   /* a recorded frame's ids no longer fit */
    f->p = *p;
    mur_params_resolve(&f->p);
    for (int i = old; i < p->count; i++) {
        if (f->group)
            f->group[i] = 255;
        draw_boid(f, i);
    }
    f->n = p->count;
    fold_into_world(f);
    f->grid_ok = 0;
    mur_starling_sync_(f, f->star ? old : 0);   /* new birds level (a new fly flock: all) */
    return MUR_OK;
}

const mur_params *mur_flock_params(const mur_flock *f) { return &f->p; }

const mur_predator *mur_flock_predators(const mur_flock *f, int *n)
{
    *n = f->npred;
    return f->pred;
}

void mur_flock_set_predators(mur_flock *f, const mur_predator *p, int n)
{
    if (n > MUR_MAX_PREDATORS)
        n = MUR_MAX_PREDATORS;
    if (n > 0)
        memcpy(f->pred, p, (size_t)n * sizeof *p);
    f->npred = n < 0 ? 0 : n;
}

/* The shared part of set_state and set_state3: room for n boids. */
static int state_room(mur_flock *f, int n, mur_error *err)
{
    if (n < 0 || n > MUR_MAX_BOIDS)
        return mur_error_set(err, MUR_EINPUT, "boid count %d out of range", n);
    if (reserve(f, (size_t)(n > 0 ? n : 1)))
        return mur_error_set(err, MUR_ERUN, "out of memory for %d boids", n);
    return MUR_OK;
}

/* The rest: count n, the world folded, tick 0. */
static void state_loaded(mur_flock *f, int n)
{
    f->n = n;
    f->p.count = n;
    mur_params_resolve(&f->p);
    fold_into_world(f);
    f->tick = 0;
    f->grid_ok = 0;
    drop_ids(f);
    mur_starling_sync_(f, 0);
}

int mur_flock_set_state3(mur_flock *f, int n, const double *x, const double *y, const double *z,
                         const double *vx, const double *vy, const double *vz, mur_error *err)
{
    if (f->p.dimensions != 3)
        return mur_error_set(err, MUR_EINPUT, "a 3D state (with z) cannot start a 2D world");
    int rc = state_room(f, n, err);
    if (rc)
        return rc;
    const double *src[6] = {x, y, z, vx, vy, vz};
    double *dst[6] = {f->x, f->y, f->z, f->vx, f->vy, f->vz};
    for (int k = 0; k < 6; k++)
        memcpy(dst[k], src[k], (size_t)n * sizeof(double));
    state_loaded(f, n);
    return MUR_OK;
}

int mur_flock_set_state(mur_flock *f, int n, const double *x, const double *y,
                        const double *vx, const double *vy, mur_error *err)
{
    if (f->p.dimensions == 3)
        return mur_error_set(err, MUR_EINPUT,
                             "a 2D state (no z) cannot start a 3D world (dimensions: 3)");
    int rc = state_room(f, n, err);
    if (rc)
        return rc;
    memcpy(f->x, x, (size_t)n * sizeof *x);
    memcpy(f->y, y, (size_t)n * sizeof *y);
    memcpy(f->vx, vx, (size_t)n * sizeof *vx);
    memcpy(f->vy, vy, (size_t)n * sizeof *vy);
    state_loaded(f, n);
    return MUR_OK;
}

void mur_flock_displace(mur_flock *f, const double *dx, const double *dy)
{
    for (int i = 0; i < f->n; i++) {
        f->x[i] += dx[i];
        f->y[i] += dy[i];
    }
    fold_into_world(f);
    f->grid_ok = 0;
}

void mur_flock_displace3(mur_flock *f, const double *dx, const double *dy, const double *dz)
{
    if (f->z && dz)
        for (int i = 0; i < f->n; i++)
            f->z[i] += dz[i];
    mur_flock_displace(f, dx, dy);
    f->grid3_ok = 0;
}

/* The ids of a frame just set (set_frame, set_frame3): copied. */
static int keep_ids(mur_flock *f, int n, const int *ids, mur_error *err);

int mur_flock_set_frame3(mur_flock *f, int n, const int *ids, const double *x, const double *y,
                         const double *z, const double *vx, const double *vy, const double *vz,
                         mur_error *err)
{
    uint64_t tick = f->tick;
    int rc = mur_flock_set_state3(f, n, x, y, z, vx, vy, vz, err);
    f->tick = tick;
    return rc || !ids ? rc : keep_ids(f, n, ids, err);
}

int mur_flock_set_frame(mur_flock *f, int n, const int *ids, const double *x, const double *y,
                        const double *vx, const double *vy, mur_error *err)
{
    uint64_t tick = f->tick;
    int rc = mur_flock_set_state(f, n, x, y, vx, vy, err);
    f->tick = tick;
    return rc || !ids ? rc : keep_ids(f, n, ids, err);
}

static int keep_ids(mur_flock *f, int n, const int *ids, mur_error *err)
{
    if ((size_t)n > f->ids_cap || !f->ids) {
        int *q = mur_malloc((size_t)(n > 0 ? n : 1) * sizeof *q);
        if (!q)
            return mur_error_set(err, MUR_ERUN, "out of memory for %d boids", n);
        f->ids = q;
        f->ids_cap = (size_t)(n > 0 ? n : 1);
    }
    memcpy(f->ids, ids, (size_t)n * sizeof *ids);
    return MUR_OK;
}

const int *mur_flock_ids(const mur_flock *f) { return f->ids; }

int mur_flock_row(const mur_flock *f, int id)
{
    if (!f->ids)
        return id >= 0 && id < f->n ? id : -1;
    int lo = 0, hi = f->n;   /* ids ascend: the first row whose id >= id */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (f->ids[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < f->n && f->ids[lo] == id ? lo : -1;
}

const unsigned char *mur_flock_groups(const mur_flock *f) { return f->groups ? f->group : NULL; }

int mur_flock_set_start(mur_flock *f, const mur_start_group *g, int n, mur_error *err)
{
    if (n < 0 || n > MUR_MAX_GROUPS)
        return mur_error_set(err, MUR_EINPUT, "%d groups (at most %d)", n, MUR_MAX_GROUPS);
    for (int k = 0; k < n; k++) {
        int three = g[k].region == MUR_REGION_BALL || g[k].region == MUR_REGION_SLAB;
        int plane = g[k].region == MUR_REGION_DISC || g[k].region == MUR_REGION_RING;
        if ((f->p.dimensions == 3 && plane) || (f->p.dimensions != 3 && three))
            return mur_error_set(err, MUR_EINPUT, "group %d: a %s region in a %dD world", k,
                                 three ? "3D" : "2D", f->p.dimensions == 3 ? 3 : 2);
    }
    long total = 0;
    for (int k = 0; k < n; k++)
        total += g[k].count;
    if (n && total != f->p.count)
        return mur_error_set(err, MUR_EINPUT, "the groups hold %ld boids, the flock %d", total, f->p.count);
    mur_free(f->groups);
    mur_free(f->group);
    f->groups = NULL;
    f->group = NULL;
    f->ngroups = 0;
    if (n) {
        f->groups = mur_malloc((size_t)n * sizeof *g);
        f->group = mur_malloc(f->cap ? f->cap : 1);
        if (!f->groups || !f->group) {
            mur_free(f->groups);
            mur_free(f->group);
            f->groups = NULL;
            f->group = NULL;
            return mur_error_set(err, MUR_ERUN, "out of memory for the start's groups");
        }
        memcpy(f->groups, g, (size_t)n * sizeof *g);
        f->ngroups = n;
    }
    mur_flock_reset(f);
    return MUR_OK;
}

void mur_flock_set_tick(mur_flock *f, uint64_t tick) { f->tick = tick; }

void mur_flock_stream(const mur_flock *f, uint64_t state[4])
{
    memcpy(state, f->rng.s, sizeof f->rng.s);
}

void mur_flock_set_stream(mur_flock *f, const uint64_t state[4])
{
    memcpy(f->rng.s, state, sizeof f->rng.s);
}

int mur_flock_set_threads(mur_flock *f, int threads, mur_error *err)
{
    if (threads <= 0)
        threads = mur_cpu_count();
    if (threads > 256)
        return mur_error_set(err, MUR_EINPUT, "threads = %d is out of range [1, 256]", threads);
    mur_pool_destroy(f->pool);
    f->pool = NULL;
    if (threads > 1 && !(f->pool = mur_pool_create(threads)))
        return mur_error_set(err, MUR_ERUN, "cannot start %d threads", threads);
    return MUR_OK;
}

int mur_flock_threads(const mur_flock *f) { return mur_pool_threads(f->pool); }
void mur_flock_set_brute_force(mur_flock *f, int on) { f->brute = on; }
void mur_flock_set_stop(mur_flock *f, volatile sig_atomic_t *stop) { f->stop = stop; }

/* Whether the stop flag is up; a chunk that sees it leaves its boids undone
 * and says so, so the tick is abandoned even if the flag is lowered again. */
static int stop_seen(mur_flock *f)
{
    if (!f->stop || !*f->stop)
        return 0;
    atomic_store_explicit(&f->stopped, 1, memory_order_relaxed);
    return 1;
}

int mur_flock_set_simd(mur_flock *f, int level)
{
    f->simd = level;
    f->filter = mur_filter_pick(&f->simd);
    return f->simd;
}
uint64_t mur_flock_tick(const mur_flock *f) { return f->tick; }
int mur_flock_count(const mur_flock *f) { return f->n; }
const double *mur_flock_x(const mur_flock *f) { return f->x; }
const double *mur_flock_y(const mur_flock *f) { return f->y; }
const double *mur_flock_vx(const mur_flock *f) { return f->vx; }
const double *mur_flock_vy(const mur_flock *f) { return f->vy; }
/* The core is 2D today: no z is kept, so these say so (issue #29). */
int mur_flock_dimensions(const mur_flock *f) { return f->p.dimensions == 3 ? 3 : 2; }
const double *mur_flock_z(const mur_flock *f) { return f->p.dimensions == 3 ? f->z : NULL; }
const double *mur_flock_vz(const mur_flock *f) { return f->p.dimensions == 3 ? f->vz : NULL; }
const double *mur_flock_up(const mur_flock *f) { return f->star ? f->star->up : NULL; }
const double *mur_flock_search_radius(const mur_flock *f)
{
    return f->star && f->p.neighbours == MUR_NEIGHBOURS_ADAPTIVE ? f->star->radius : NULL;
}
const int *mur_flock_interacting(const mur_flock *f)
{
    return f->star && f->p.neighbours == MUR_NEIGHBOURS_ADAPTIVE ? f->star->interacting : NULL;
}

/* ---- the rules ---------------------------------------------------------- */


/* What a neighbour scan needs: the settings (the same for every boid of a
 * tick, filled once by probe_init) and the boid's own state (probe_set). */
typedef struct {
    double xi, yi, vxi, vyi;
    double rsep, rali, rcoh, rmax;
    double tsep, tali, tcoh;  /* d < R exactly when d2 < T (mur_sqrt_bound) */
    double soft;
    int falloff;
    int fov_cone;             /* fov < 360 */
    int cone;                 /* fov < 360 and v_i != 0: test the cone */
    double cos_half, vlen;    /* cone test: dot(v, d) >= cos_half |v| |d| */
    int wrap;                 /* nearest image needed on some axis (wrapx | wrapy) */
    int wrapx, wrapy;         /* per axis, for the candidates at hand */
    double w, h;
    mur_filter_fn filter;
    unsigned rules;           /* RULE_ bits: the sums to make */
} probe;

enum { RULE_SEP = 1, RULE_ALI = 2, RULE_COH = 4, RULE_ALL = 7 };

/* The rules in use: a rule whose weight (or, when normalising, gain) is
 * zero adds nothing to the acceleration (combine), so a tick does not make
 * its neighbour sum. The knockout conditions, and rules switched off on a
 * timeline, cost nothing. */
static unsigned rules_used(const mur_params *p)
{
    int norm = p->combine == MUR_COMBINE_NORMALIZE;
    unsigned r = 0;
    if (p->separation != 0 && (!norm || p->gain_separation != 0))
        r |= RULE_SEP;
    if (p->alignment != 0 && (!norm || p->gain_alignment != 0))
        r |= RULE_ALI;
    if (p->cohesion != 0 && (!norm || p->gain_cohesion != 0))
        r |= RULE_COH;
    return r;
}

/* rules: the sums the scans of this probe make (RULE_ bits). */
static void probe_init(const mur_flock *f, probe *q, unsigned rules)
{
    const mur_params *p = &f->p;
    memset(q, 0, sizeof *q);
    /* Brute force is the plain reference: portable C throughout, so the
     * tests comparing the grid with it also compare the vector filter with
     * the scalar one. */
    int level = MUR_SIMD_NONE;
    q->filter = f->brute ? mur_filter_pick(&level) : f->filter;
    q->rules = rules;
    q->rsep = p->separation_radius;
    q->rali = p->alignment_radius;
    q->rcoh = p->cohesion_radius;
    q->tsep = mur_sqrt_bound(q->rsep);
    q->tali = mur_sqrt_bound(q->rali);
    q->tcoh = mur_sqrt_bound(q->rcoh);
    /* the filter's reach: the largest radius of a rule in use */
    q->rmax = fmax(rules & RULE_SEP ? q->rsep : 0,
                   fmax(rules & RULE_ALI ? q->rali : 0, rules & RULE_COH ? q->rcoh : 0));
    q->soft = p->separation_softening;
    q->falloff = p->separation_falloff;
    q->fov_cone = p->fov < 360;
    q->cos_half = q->fov_cone ? cos(p->fov * 0.5 * MUR_PI / 180.0) : -1;
    q->wrap = q->wrapx = q->wrapy = p->boundary == MUR_BOUNDARY_WRAP;
    q->w = p->width;
    q->h = p->height;
}

/* The probe's boid: the one at position k of b. */
static void probe_set(probe *q, boids b, int k)
{
    q->xi = b.x[k];
    q->yi = b.y[k];
    q->vxi = b.vx[k];
    q->vyi = b.vy[k];
    if (q->fov_cone) {
        q->vlen = sqrt(q->vxi * q->vxi + q->vyi * q->vyi);
        q->cone = q->vlen > 0;  /* a boid at rest has no heading: it sees all round */
    }
}

/* The indices t < n with d[t] < r, in order, to out; returns how many.
 * Every index is written and the count advances only past those within r:
 * no branch to mispredict. */
static int within(const double *d, int n, double r, int *out)
{
    int k = 0;
    for (int t = 0; t < n; t++) {
        out[k] = t;
        k += d[t] < r;
    }
    return k;
}

/* Adds the boids at positions [lo, hi) of b, except position `skip` (the
 * boid itself), to the neighbour sums of the probe's boid (docs/model.md steps
 * 1-2).
 *
 * In blocks of candidates: the filter (filter.h) lists those within R_max,
 * with their offsets; then each rule runs over the list of those within its
 * own radius. Each list is made without a branch (whether a neighbour is
 * within R_sep is a coin toss a branch would often lose) and keeps the
 * candidates' order, so every sum adds its terms in the order of the
 * positions, as a plain loop over them would. */
static void scan(const probe *restrict q, boids b, int lo, int hi, int skip, sums *restrict s)
{
    enum { N = MUR_FILTER_BLOCK + MUR_FILTER_PAD };
    const double vxi = q->vxi, vyi = q->vyi;
    const double tsep = q->tsep, tali = q->tali, tcoh = q->tcoh, soft = q->soft;
    const double cvl = q->cos_half * q->vlen;
    const int falloff = q->falloff, cone = q->cone;
    /* The slack keeps the exact d < R tests below the only ones that
     * decide. */
    const mur_filter_in in = {q->xi, q->yi, q->w, q->h, q->rmax * q->rmax * 1.0000001,
                              q->wrapx, q->wrapy};
    double sx = s->s[0], sy = s->s[1], ax = s->a[0], ay = s->a[1], cx = s->c[0], cy = s->c[1];
    int ns = s->ns, na = s->na, nc = s->nc;
    double bdx[N], bdy[N], bd2[N], dist2[N];
    int keep[N], seen[N], in_r[N];
    for (int j0 = lo; j0 < hi; j0 += MUR_FILTER_BLOCK) {
        int j1 = hi - j0 > MUR_FILTER_BLOCK ? j0 + MUR_FILTER_BLOCK : hi;
        int m = q->filter(&in, b.x, b.y, j0, j1, skip, bdx, bdy, bd2, keep);
        /* the field of view: seen[t] indexes the block, dist2[t] is its d2 */
        int ms = 0;
        if (cone) {
            for (int t = 0; t < m; t++) {
                int o = keep[t];
                dist2[ms] = bd2[o];
                seen[ms] = o;
                ms += !(bdx[o] * vxi + bdy[o] * vyi < cvl * sqrt(bd2[o]));
            }
        } else {
            for (int t = 0; t < m; t++) {
                dist2[t] = bd2[keep[t]];
                seen[t] = keep[t];
            }
            ms = m;
        }
        int k;
        if (q->rules & RULE_SEP) {
            k = within(dist2, ms, tsep, in_r);
            ns += k;
            for (int u = 0; u < k; u++) {
                int t = in_r[u], o = seen[t];
                double e = sqrt(dist2[t]) + soft;
                double wgt = falloff == 0 ? e : falloff == 1 ? e * e : e * e * e;
                sx -= bdx[o] / wgt;
                sy -= bdy[o] / wgt;
            }
        }
        if ((q->rules & (RULE_ALI | RULE_COH)) == (RULE_ALI | RULE_COH) && tali == tcoh) {
            /* one list for both (most presets): four sums in one loop */
            k = within(dist2, ms, tali, in_r);
            na += k;
            nc += k;
            for (int u = 0; u < k; u++) {
                int o = seen[in_r[u]];
                ax += b.vx[j0 + o];
                ay += b.vy[j0 + o];
                cx += bdx[o];
                cy += bdy[o];
            }
            continue;
        }
        if (q->rules & RULE_ALI) {
            k = within(dist2, ms, tali, in_r);
            na += k;
            for (int u = 0; u < k; u++) {
                ax += b.vx[j0 + seen[in_r[u]]];
                ay += b.vy[j0 + seen[in_r[u]]];
            }
        }
        if (q->rules & RULE_COH) {
            k = within(dist2, ms, tcoh, in_r);
            nc += k;
            for (int u = 0; u < k; u++) {
                cx += bdx[seen[in_r[u]]];
                cy += bdy[seen[in_r[u]]];
            }
        }
    }
    s->s[0] = sx; s->s[1] = sy; s->ns = ns;
    s->a[0] = ax; s->a[1] = ay; s->na = na;
    s->c[0] = cx; s->c[1] = cy; s->nc = nc;
}

/* The runs of positions holding the 3 x 3 block of cells around cell c, in
 * the fixed visiting order (rows, then columns): adjacent cells of a row
 * are one run, so the order of a sum is that of visiting cell by cell.
 * Writes up to 9 runs to lo/hi and returns how many. */
static int block_runs(const mur_grid *g, int c, int lo[9], int hi[9])
{
    int cx = c % g->gx, cy = c / g->gx, r = 0;
    if (cx >= 1 && cx <= g->gx - 2 && cy >= 1 && cy <= g->gy - 2) {
        /* Inside the grid (most cells): three rows of three adjacent
         * columns, one run each, as the general walk below finds them. */
        for (int y = cy - 1; y <= cy + 1; y++) {
            const int *row = g->start + (size_t)y * g->gx;
            if (row[cx - 1] < row[cx + 2]) {
                lo[r] = row[cx - 1];
                hi[r] = row[cx + 2];
                r++;
            }
        }
        return r;
    }
    int xs[3], ys[3];
    int nx = mur_grid_span(cx, g->gx, g->wrap, xs);
    int ny = mur_grid_span(cy, g->gy, g->wrap, ys);
    for (int b = 0; b < ny; b++) {
        const int *row = g->start + (size_t)ys[b] * g->gx;
        for (int a = 0; a < nx;) {
            int e = a;
            while (e + 1 < nx && xs[e + 1] == xs[e] + 1)
                e++;
            if (row[xs[a]] < row[xs[e] + 1]) {
                lo[r] = row[xs[a]];
                hi[r] = row[xs[e] + 1];
                r++;
            }
            a = e + 1;
        }
    }
    return r;
}

/* The state by position, as a scan reads it. */
static boids by_position(const mur_flock *f) { return (boids){f->kx, f->ky, f->kvx, f->kvy}; }

/* Neighbour sums of the boid at position k (boid i), from the grid when
 * there is one, else from every boid. */
static void gather(const mur_flock *f, const probe *q, int i, int k, sums *s)
{
    memset(s, 0, sizeof *s);
    if (!q->rules)
        return;
    if (!f->grid_ok) {
        scan(q, by_position(f), 0, f->n, k, s);
        return;
    }
    int lo[9], hi[9];
    int nr = block_runs(&f->grid, f->grid.cell_of[i], lo, hi);
    for (int r = 0; r < nr; r++)
        scan(q, by_position(f), lo[r], hi[r], k, s);
}

/* Steps 2-3: raw rule vectors, combined and clamped. Enters with the sums of
 * boid i, leaves with its acceleration before predators and noise; fills r
 * (if given) with every intermediate vector for the one-boid view. `used`
 * is rules_used(p), found once a tick: the other rules add nothing. */
static void combine(const mur_params *p, unsigned used, double vxi, double vyi, const sums *s,
                    double *ax, double *ay, mur_rules *r)
{
    const double v[2] = {vxi, vyi};
    double out[2], raw[3][2], part[3][2];
    mur_combine2_(p, used, v, s, out, r ? raw : NULL, r ? part : NULL);
    *ax = out[0];
    *ay = out[1];
    if (r) {
        memcpy(r->sep, raw[0], sizeof raw[0]);
        memcpy(r->ali, raw[1], sizeof raw[1]);
        memcpy(r->coh, raw[2], sizeof raw[2]);
        memcpy(r->sep_a, part[0], sizeof part[0]);
        memcpy(r->ali_a, part[1], sizeof part[1]);
        memcpy(r->coh_a, part[2], sizeof part[2]);
        memcpy(r->accel, out, sizeof out);
        r->n_sep = s->ns;
        r->n_ali = s->na;
        r->n_coh = s->nc;
    }
}

unsigned mur_flock_rules_used_(const mur_params *p) { return rules_used(p); }

void mur_flock_rules(const mur_flock *f, int i, mur_rules *out)
{
    memset(out, 0, sizeof *out);
    if (i < 0 || i >= f->n || f->p.dimensions == 3)
        return;   /* the rules are vectors of the plane: a 3D flock's are not given */
    /* Between ticks the positions and the grid are stale: brute force over
     * the state arrays (padded like the others). Index order is the order
     * of the step's brute force, and the neighbour sets are the grid's, so
     * the view is exact either way. */
    probe q;
    probe_init(f, &q, RULE_ALL);  /* the view shows every rule, weighted or not */
    boids all = {f->x, f->y, f->vx, f->vy};
    probe_set(&q, all, i);
    sums s;
    memset(&s, 0, sizeof s);
    scan(&q, all, 0, f->n, i, &s);
    combine(&f->p, rules_used(&f->p), f->vx[i], f->vy[i], &s, &out->accel[0], &out->accel[1],
            out);
}

double mur_flock_noise_u01_(const mur_flock *f, int i)
{
    return mur_u01(mur_hash3(f->seed ^ SALT_NOISE, f->tick, (uint64_t)i));
}

/* ---- the tick ----------------------------------------------------------- */

/* Position of boid i this tick. */
static int pos_of(const mur_flock *f, int i) { return f->grid_ok ? f->grid.slot[i] : i; }

/* Copy the state of boids [begin, end) of id order to their positions. */
static void copy_chunk(void *ctx, int begin, int end)
{
    mur_flock *f = ctx;
    for (int i = begin; i < end; i++) {
        int k = pos_of(f, i);
        f->kx[k] = f->x[i];
        f->ky[k] = f->y[i];
        f->kvx[k] = f->vx[i];
        f->kvy[k] = f->vy[i];
    }
}

/* Enters with no rule to sum; leaves positions [begin, end) with the
 * acceleration of empty sums (0 before predators and noise), by boid id. */
static void accel_none(mur_flock *f, int begin, int end)
{
    for (int k = begin; k < end; k++) {
        sums s;
        memset(&s, 0, sizeof s);
        int i = f->grid_ok ? f->grid.order[k] : k;
        combine(&f->p, 0, f->kvx[k], f->kvy[k], &s, &f->acc[2 * i], &f->acc[2 * i + 1], NULL);
    }
}

/* Enters without a grid, where position k is boid k; leaves positions
 * [begin, end) with their accelerations from a scan over every boid. */
static void accel_brute(mur_flock *f, const probe *tmpl, int begin, int end)
{
    probe q;
    for (int k = begin; k < end; k++) {
        if (stop_seen(f))  /* every boid: each is a pass over all of them */
            return;
        sums s;
        q = *tmpl;
        probe_set(&q, by_position(f), k);
        gather(f, &q, k, k, &s);
        combine(&f->p, tmpl->rules, f->kvx[k], f->kvy[k], &s, &f->acc[2 * k], &f->acc[2 * k + 1],
                NULL);
    }
}

/* The cell holding position k: the last c with start[c] <= k. */
static int cell_at(const mur_grid *g, int k)
{
    int c = 0, top = g->ncells;
    while (top - c > 1) {
        int mid = c + (top - c) / 2;
        if (g->start[mid] <= k)
            c = mid;
        else
            top = mid;
    }
    return c;
}

/* A cell's boids share the candidates of its 3 x 3 block, up to nine runs
 * of positions. They are copied once a cell, in the same order, into one
 * buffer, so that each boid's filter runs over long vectors rather than
 * short runs; no sum changes its order. A block larger than the buffer is
 * read in place, run by run. */
enum { BLOCK_MAX = 512 };

_Static_assert(MUR_FILTER_PAD >= 3, "block_load's moves of four pass a run's end by 3");

/* The copied candidates, each array readable MUR_FILTER_PAD past the last. */
typedef struct {
    double x[BLOCK_MAX + MUR_FILTER_PAD], y[BLOCK_MAX + MUR_FILTER_PAD];
    double vx[BLOCK_MAX + MUR_FILTER_PAD], vy[BLOCK_MAX + MUR_FILTER_PAD];
} block_copy;

/* Where one cell's candidates are. */
typedef struct {
    int nr, lo[9], hi[9];  /* the block's runs of positions (block_runs) */
    int total;             /* candidates copied, or -1: read the runs in place */
    int first;             /* copy index of the cell's first boid */
    int wrapx, wrapy;      /* nearest image needed along x, y */
} cell_block;

/* Enters with a cell c that holds boids; leaves b with its block's runs and
 * nearest-image switches, and the block copied into buf, zero-padded, when
 * it fits (b->total >= 0). */
static void block_load(const mur_flock *f, const probe *tmpl, int c, block_copy *buf,
                       cell_block *b)
{
    const mur_grid *g = &f->grid;
    int nr = block_runs(g, c, b->lo, b->hi);
    b->nr = nr;
    /* Away from the seam the 3 x 3 block holds offsets under 2 cells,
     * and with 5 or more cells a side that is at most half the world:
     * the nearest-image correction would change nothing, so it is
     * skipped (1 cell of slack covers rounding in filing boids). */
    int cx = c % g->gx, cy = c / g->gx;
    b->wrapx = tmpl->wrap && (g->gx < 5 || cx < 1 || cx > g->gx - 2);
    b->wrapy = tmpl->wrap && (g->gy < 5 || cy < 1 || cy > g->gy - 2);
    int total = 0, first = 0;  /* candidates; buffer index of the cell's first boid */
    for (int r = 0; r < nr && total >= 0; r++) {
        int len = b->hi[r] - b->lo[r];
        if (total + len > BLOCK_MAX) {
            total = -1;
            break;
        }
        if (b->lo[r] <= g->start[c] && g->start[c] < b->hi[r])
            first = total + g->start[c] - b->lo[r];
        /* Runs are a few boids long: fixed-size moves of four, rather than
         * four calls. The last move may pass the run's end by up to three
         * (the arrays are readable MUR_FILTER_PAD past the last boid, and
         * the buffer as far past BLOCK_MAX); the next run, or the padding
         * below, overwrites what it brought. */
        const int lo = b->lo[r];
        for (int t = 0; t < len; t += 4) {
            memcpy(buf->x + total + t, f->kx + lo + t, 4 * sizeof(double));
            memcpy(buf->y + total + t, f->ky + lo + t, 4 * sizeof(double));
            memcpy(buf->vx + total + t, f->kvx + lo + t, 4 * sizeof(double));
            memcpy(buf->vy + total + t, f->kvy + lo + t, 4 * sizeof(double));
        }
        total += len;
    }
    if (total >= 0)
        for (int t = total; t < total + MUR_FILTER_PAD; t++)
            buf->x[t] = buf->y[t] = buf->vx[t] = buf->vy[t] = 0;  /* read, and ignored, by the filter */
    b->total = total;
    b->first = first;
}

/* Sums waiting for their rules to be combined: positions k0 .. k0 + n - 1.
 * A cell holds a boid or two at the presets' densities, so the batch runs
 * across cells: each combine is a long chain of dependent divisions and
 * square roots, and a run of independent ones overlaps in the CPU (and
 * fills the vector unit's lanes, mur_combine2_run) where one between two scans
 * would not. */
enum { COMBINE_BATCH = 32 };
typedef struct {
    int k0, n;
    sums s[COMBINE_BATCH];
} sum_batch;

/* Combines the batch's sums and stores the accelerations by boid id. */
static void batch_flush(mur_flock *f, unsigned rules, sum_batch *bt)
{
    double bx[COMBINE_BATCH], by[COMBINE_BATCH];
    const double *const v[2] = {f->kvx + bt->k0, f->kvy + bt->k0};
    double *const out[2] = {bx, by};
    mur_combine2_run(f, rules, v, bt->s, bt->n, out);
    for (int t = 0; t < bt->n; t++) {
        int i = f->grid.order[bt->k0 + t];
        f->acc[2 * i] = bx[t];
        f->acc[2 * i + 1] = by[t];
    }
    bt->n = 0;
}

/* Enters with cell c's block loaded (block_load) and a batch ending at
 * position k; leaves the sums of positions [k, kend) of that cell in the
 * batch, flushing it whenever it fills. */
static void accel_cell(mur_flock *f, const probe *tmpl, int c, const block_copy *buf,
                       const cell_block *b, int k, int kend, sum_batch *bt)
{
    const mur_grid *g = &f->grid;
    const boids copy = {buf->x, buf->y, buf->vx, buf->vy}, all = by_position(f);
    probe q = *tmpl;
    q.wrapx = b->wrapx;
    q.wrapy = b->wrapy;
    for (; k < kend; k++) {
        if (bt->n == COMBINE_BATCH)
            batch_flush(f, tmpl->rules, bt);
        if (bt->n == 0)
            bt->k0 = k;
        sums *s = &bt->s[bt->n++];
        *s = (sums){{0, 0}, 0, {0, 0}, 0, {0, 0}, 0};
        probe_set(&q, all, k);
        if (b->total >= 0) {
            scan(&q, copy, 0, b->total, b->first + k - g->start[c], s);
        } else {
            for (int r = 0; r < b->nr; r++)
                scan(&q, all, b->lo[r], b->hi[r], k, s);
        }
    }
}

/* Sync accelerations of positions [begin, end), walked cell by cell so the
 * block's runs are found once a cell and neighbours stay in cache. Each
 * result is stored by boid id: one scattered store per boid here, where it
 * hides behind the neighbour scan, rather than a scattered load per boid in
 * the short integrate loop. */
static void accel_chunk(void *ctx, int begin, int end)
{
    mur_flock *f = ctx;
    probe tmpl;
    probe_init(f, &tmpl, rules_used(&f->p));
    if (!tmpl.rules) {  /* no rule to sum: every acceleration is 0 before predators and noise */
        accel_none(f, begin, end);
        return;
    }
    if (!f->grid_ok) {
        accel_brute(f, &tmpl, begin, end);
        return;
    }
    const mur_grid *g = &f->grid;
    block_copy buf;
    cell_block b;
    sum_batch bt;
    bt.n = 0;
    int poll = begin + POLL_BOIDS;
    for (int k = begin, c = cell_at(g, begin); k < end; c++) {
        if (k >= poll) {
            if (stop_seen(f))
                return;
            poll = k + POLL_BOIDS;
        }
        int kend = g->start[c + 1] < end ? g->start[c + 1] : end;
        if (k >= kend)
            continue;  /* empty cell */
        block_load(f, &tmpl, c, &buf, &b);
        accel_cell(f, &tmpl, c, &buf, &b, k, kend, &bt);
        k = kend;
    }
    if (bt.n)
        batch_flush(f, tmpl.rules, &bt);
}

/* Steps 4-7 for the boids [begin, end) (motion_d.h's steer, four at a
 * time on a vector unit where it can). */
static void integrate_chunk(void *ctx, int begin, int end)
{
    mur_flock *f = ctx;
    mur_move2_steer_range(f, begin, end, f->acc, NULL);
}

/* The bounding box of the boids' finite positions, as origin and size,
 * for an open world's grid; a unit box at 0 when there are none. */
static void bounding_box(const mur_flock *f, double *ox, double *oy, double *w, double *h)
{
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int i = 0; i < f->n; i++) {
        if (isfinite(f->x[i]) && isfinite(f->y[i])) {
            x0 = fmin(x0, f->x[i]);
            x1 = fmax(x1, f->x[i]);
            y0 = fmin(y0, f->y[i]);
            y1 = fmax(y1, f->y[i]);
        }
    }
    if (!(x0 <= x1)) {
        x0 = y0 = 0;
        x1 = y1 = 1;
    }
    *ox = x0;
    *oy = y0;
    /* a hair more, so the largest coordinate files inside */
    *w = fmax((x1 - x0) * (1 + 1e-12), 1e-9);
    *h = fmax((y1 - y0) * (1 + 1e-12), 1e-9);
}

void mur_flock_bbox_(const mur_flock *f, double *ox, double *oy, double *w, double *h)
{
    bounding_box(f, ox, oy, w, h);
}

void mur_flock_prepare_(mur_flock *f, double cell)
{
    const mur_params *p = &f->p;
    f->grid_ok = 0;
    if (!f->brute) {
        if (p->boundary == MUR_BOUNDARY_OPEN) {
            double ox, oy, w, h;
            bounding_box(f, &ox, &oy, &w, &h);
            f->grid_ok = mur_grid_build_at(&f->grid, f->pool, f->x, f->y, f->n, ox, oy, w, h,
                                           cell) == 0;
        } else {
            f->grid_ok = mur_grid_build_on(&f->grid, f->pool, f->x, f->y, f->n, p->width,
                                           p->height, cell, p->boundary == MUR_BOUNDARY_WRAP) == 0;
        }
        /* On allocation failure the brute loop gives the same answer, slowly. */
    }
    mur_pool_run(f->pool, copy_chunk, f, f->n);
}

int mur_flock_stop_seen_(mur_flock *f) { return stop_seen(f); }

static double max_radius(const mur_params *p)
{
    return fmax(p->separation_radius, fmax(p->alignment_radius, p->cohesion_radius));
}

int mur_flock_step(mur_flock *f)
{
    const mur_params *p = &f->p;
    int seq = p->update == MUR_UPDATE_SEQUENTIAL;
    atomic_store_explicit(&f->stopped, 0, memory_order_relaxed);
    if (stop_seen(f))
        return MUR_EINTR;
    if (p->dimensions == 3) {
        if (p->motion == MUR_MOTION_FLY && !f->star && mur_starling_sync_(f, 0))
            return MUR_ERUN;   /* no memory for the birds' body frames */
        return mur_family_step3(f);
    }
    if (p->neighbours != MUR_NEIGHBOURS_METRIC || p->interaction != MUR_INTERACTION_REYNOLDS)
        return mur_family_step(f);
    /* Sequential ticks read boids that already moved this tick, up to
     * max_speed from the cell they were sorted into: the cells grow by
     * that much so the 3 x 3 block still holds every neighbour. */
    double cell = max_radius(p) + (seq ? p->max_speed : 0);
    cell *= 1 + 1e-9;
    mur_flock_prepare_(f, cell);
    if (seq) {
        probe tmpl, q;
        probe_init(f, &tmpl, rules_used(p));
        for (int i = 0; i < f->n; i++) {
            double ax, ay;
            int k = pos_of(f, i);
            if (i % POLL_BOIDS == POLL_BOIDS - 1 && stop_seen(f)) {
                f->grid_ok = 0;
                return MUR_EINTR;  /* boids before i have moved: the flock is mid-tick */
            }
            sums s;
            q = tmpl;
            probe_set(&q, by_position(f), k);
            gather(f, &q, i, k, &s);
            combine(p, tmpl.rules, f->kvx[k], f->kvy[k], &s, &ax, &ay, NULL);
            double a[2] = {ax, ay};
            mur_integrate2_(f, i, a, 1);
            /* later boids must see this one where it now is */
            f->kx[k] = f->x[i];
            f->ky[k] = f->y[i];
            f->kvx[k] = f->vx[i];
            f->kvy[k] = f->vy[i];
        }
    } else {
        mur_pool_run(f->pool, accel_chunk, f, f->n);
        if (atomic_load_explicit(&f->stopped, memory_order_relaxed)) {
            f->grid_ok = 0;
            return MUR_EINTR;  /* nothing has moved yet: the state is the last tick's */
        }
        if (p->motion == MUR_MOTION_STEER)
            mur_pool_run(f->pool, integrate_chunk, f, f->n);
        else
            mur_family_move(f);   /* the accelerations become desired headings */
    }
    f->grid_ok = 0;
    f->tick++;
    return MUR_OK;
}
