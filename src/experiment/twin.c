/* The chaos twins (twin.h): a run's flock made a second time, moved or
 * nudged at tick 0, and driven through the same timeline.
 *
 * The twin is made by repeating the run's own start (create with the same
 * seed, the same warm-up) rather than by copying the run's flock: a copy
 * through the public API would lose the tick count and the PRNG's state,
 * on which noise, scatter and added boids depend, and the twin must differ
 * from the first by the move alone. */
#include "murmur/twin.h"
#include "murmur/alloc.h"

#include <math.h>
#include <string.h>

#include "murmur/rng.h"

#define SALT_TWIN 0x7477696eULL   /* "twin": directions of a perturbation */

static const char *const metric_names[MUR_TWIN_METRIC_COUNT] = {
    "doubling_time", "ticks_to_1e-9", "ticks_to_1e-5", "ticks_to_1"};
static const double sizes[MUR_TWIN_METRIC_COUNT] = {0, 1e-9, 1e-5, 1};

const char *mur_twin_metric_name(int k)
{
    return k >= 0 && k < MUR_TWIN_METRIC_COUNT ? metric_names[k] : "?";
}

double mur_twin_size(int k) { return k >= 0 && k < MUR_TWIN_METRIC_COUNT ? sizes[k] : 0; }

void mur_twin_result_compute(const double *rms, long n, mur_twin_result *out)
{
    mur_growth_fit(rms, n, &out->growth);
    out->value[0] = isfinite(out->growth.doubling_time) ? out->growth.doubling_time : INFINITY;
    for (int k = 1; k < MUR_TWIN_METRIC_COUNT; k++) {
        long t = mur_divergence_first_reaching(rms, n, sizes[k]);
        out->value[k] = t < 0 ? INFINITY : (double)t;
    }
}

void mur_twin_shift(const mur_scene *s, const mur_params *p, double out[2])
{
    out[0] = out[1] = 0;
    if (s->twin.kind != MUR_TWIN_SHIFT)
        return;
    out[0] = s->twin.half_box ? p->width / 2 : s->twin.shift[0];
    out[1] = s->twin.half_box ? p->height / 2 : s->twin.shift[1];
}

void mur_twin_shift3(const mur_scene *s, const mur_params *p, double out[3])
{
    mur_twin_shift(s, p, out);
    out[2] = 0;
    if (s->twin.kind != MUR_TWIN_SHIFT || p->dimensions != 3)
        return;
    double written[3];
    mur_scene_twin_shift(s, written);
    out[2] = s->twin.half_box ? p->depth / 2 : written[2];
}

/* x taken into [0, w). */
static double fold(double x, double w)
{
    x = fmod(x, w);
    return x < 0 ? x + w : x;
}

/* Moves every boid of f by the shift, or by twin.perturb in a direction
 * drawn from (seed, boid): the same nudge for a run on any machine. In 3D
 * the direction is uniform on the sphere (the polar angle's cosine and the
 * azimuth, as a scatter draws them); the plane keeps its own draw, so its
 * twins keep their bits. */
static int displace(mur_flock *f, const mur_scene *s, uint64_t seed, const double shift[3], mur_error *err)
{
    int n = mur_flock_count(f), three = mur_flock_dimensions(f) == 3;
    double *dx = mur_malloc((size_t)(n > 0 ? n : 1) * sizeof *dx);
    double *dy = mur_malloc((size_t)(n > 0 ? n : 1) * sizeof *dy);
    double *dz = three ? mur_malloc((size_t)(n > 0 ? n : 1) * sizeof *dz) : NULL;
    if (!dx || !dy || (three && !dz)) {
        mur_free(dx);
        mur_free(dy);
        mur_free(dz);
        return mur_error_set(err, MUR_ERUN, "out of memory for a twin of %d boids", n);
    }
    for (int i = 0; i < n; i++) {
        if (s->twin.kind == MUR_TWIN_PERTURB && three) {
            uint64_t h = mur_hash3(seed ^ SALT_TWIN, 0, (uint64_t)i);
            double c = 2 * mur_u01(h) - 1, sn = sqrt(fmax(0, 1 - c * c));
            double a = 2 * MUR_PI * mur_u01(mur_hash3(h, 0, 1));
            dx[i] = s->twin.perturb * sn * cos(a);
            dy[i] = s->twin.perturb * sn * sin(a);
            dz[i] = s->twin.perturb * c;
        } else if (s->twin.kind == MUR_TWIN_PERTURB) {
            double a = 2 * MUR_PI * mur_u01(mur_hash3(seed ^ SALT_TWIN, 0, (uint64_t)i));
            dx[i] = s->twin.perturb * cos(a);
            dy[i] = s->twin.perturb * sin(a);
        } else {
            dx[i] = shift[0];
            dy[i] = shift[1];
            if (three)
                dz[i] = shift[2];
        }
    }
    if (three)
        mur_flock_displace3(f, dx, dy, dz);
    else
        mur_flock_displace(f, dx, dy);
    mur_free(dx);
    mur_free(dy);
    mur_free(dz);
    return MUR_OK;
}

int mur_twin_start(mur_twin *t, const mur_scene *s, const mur_params *base, uint64_t seed,
                   int threads, volatile sig_atomic_t *stop, mur_error *err)
{
    memset(t, 0, sizeof *t);
    double shift[3];
    mur_twin_shift3(s, base, shift);
    t->shift[0] = shift[0];
    t->shift[1] = shift[1];
    int rc = mur_flock_create(&t->flock, base, seed, err);
    if (rc || (rc = mur_flock_set_threads(t->flock, threads, err)) ||
        (rc = mur_driver_create(&t->driver, err)))
        goto fail;
    mur_flock_set_stop(t->flock, stop);
    mur_driver_set_stop(t->driver, stop);
    /* within one world, where the flock's nearest-image rule finds them */
    if (base->dimensions == 3) {
        /* folded under wrap alone: in a walled world the boids keep the move as it
         * is, and so do their predators and the offset (mur_twin_offset) */
        int wrap = base->boundary == MUR_BOUNDARY_WRAP;
        double moved[3] = {wrap ? fold(shift[0], base->width) : shift[0],
                           wrap ? fold(shift[1], base->height) : shift[1],
                           wrap ? fold(shift[2], base->depth) : shift[2]};
        mur_driver_set_predator_shift3(t->driver, moved);
    } else {
        mur_driver_set_predator_shift(t->driver, fold(t->shift[0], base->width), fold(t->shift[1], base->height));
    }
    if ((rc = mur_driver_start(t->driver, s, t->flock, base, err)) ||
        (rc = displace(t->flock, s, seed, shift, err)))
        goto fail;
    return MUR_OK;
fail:
    mur_twin_free(t);
    return rc;
}

int mur_twin_run_to(mur_twin *t, long tick, mur_error *err)
{
    return mur_driver_run_to(t->driver, tick, err);
}

void mur_twin_offset(const mur_twin *t, double out[3])
{
    double predators[3] = {0, 0, 0};
    if (t->driver)   /* the z its predators were moved by is the twin's: the driver keeps it */
        mur_driver_predator_shift3(t->driver, predators);
    out[0] = t->shift[0];
    out[1] = t->shift[1];
    out[2] = predators[2];
}

void mur_twin_measure(const mur_twin *t, const mur_flock *first, mur_divergence *out)
{
    if (mur_flock_dimensions(first) != 3) {
        mur_divergence_measure(first, t->flock, t->shift[0], t->shift[1], out);
        return;
    }
    double shift[3];
    mur_twin_offset(t, shift);
    mur_divergence_measure3(first, t->flock, shift, out);
}

void mur_twin_free(mur_twin *t)
{
    if (!t)
        return;
    mur_driver_destroy(t->driver);
    mur_flock_destroy(t->flock);
    memset(t, 0, sizeof *t);
}
