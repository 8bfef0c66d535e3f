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

/* x taken into [0, w). */
static double fold(double x, double w)
{
    x = fmod(x, w);
    return x < 0 ? x + w : x;
}

/* Moves every boid of f by the shift, or by twin.perturb in a direction
 * drawn from (seed, boid): the same nudge for a run on any machine. */
static int displace(mur_flock *f, const mur_scene *s, uint64_t seed, const double shift[2], mur_error *err)
{
    int n = mur_flock_count(f);
    double *dx = mur_malloc((size_t)(n > 0 ? n : 1) * sizeof *dx);
    double *dy = mur_malloc((size_t)(n > 0 ? n : 1) * sizeof *dy);
    if (!dx || !dy) {
        mur_free(dx);
        mur_free(dy);
        return mur_error_set(err, MUR_ERUN, "out of memory for a twin of %d boids", n);
    }
    for (int i = 0; i < n; i++) {
        if (s->twin.kind == MUR_TWIN_PERTURB) {
            double a = 2 * MUR_PI * mur_u01(mur_hash3(seed ^ SALT_TWIN, 0, (uint64_t)i));
            dx[i] = s->twin.perturb * cos(a);
            dy[i] = s->twin.perturb * sin(a);
        } else {
            dx[i] = shift[0];
            dy[i] = shift[1];
        }
    }
    mur_flock_displace(f, dx, dy);
    mur_free(dx);
    mur_free(dy);
    return MUR_OK;
}

int mur_twin_start(mur_twin *t, const mur_scene *s, const mur_params *base, uint64_t seed,
                   int threads, volatile sig_atomic_t *stop, mur_error *err)
{
    memset(t, 0, sizeof *t);
    mur_twin_shift(s, base, t->shift);
    int rc = mur_flock_create(&t->flock, base, seed, err);
    if (rc || (rc = mur_flock_set_threads(t->flock, threads, err)) ||
        (rc = mur_driver_create(&t->driver, err)))
        goto fail;
    mur_flock_set_stop(t->flock, stop);
    mur_driver_set_stop(t->driver, stop);
    /* within one world, where the flock's nearest-image rule finds them */
    mur_driver_set_predator_shift(t->driver, fold(t->shift[0], base->width), fold(t->shift[1], base->height));
    if ((rc = mur_driver_start(t->driver, s, t->flock, base, err)) ||
        (rc = displace(t->flock, s, seed, t->shift, err)))
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

void mur_twin_measure(const mur_twin *t, const mur_flock *first, mur_divergence *out)
{
    mur_divergence_measure(first, t->flock, t->shift[0], t->shift[1], out);
}

void mur_twin_free(mur_twin *t)
{
    if (!t)
        return;
    mur_driver_destroy(t->driver);
    mur_flock_destroy(t->flock);
    memset(t, 0, sizeof *t);
}
