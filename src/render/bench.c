/* The drawing benchmark: how long one frame takes to draw, apart from
 * simulation and encoding, for the numbers DESIGN.md keeps out of tests.
 * A bench program (or `murmur bench`) calls it; it never prints. */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int mur_render_bench(int boids, int width, int height, int trail_length, int frames,
                     double *median_ms, mur_error *err)
{
    *median_ms = 0;
    if (boids < 1 || boids > MUR_MAX_BOIDS || frames < 1 || frames > 100000 || trail_length < 0 ||
        trail_length > 1000)
        return mur_error_set(err, MUR_EINPUT, "bench: bad sizes");
    /* The wrkspc preset's density (160 boids in 480 x 320) at the frame's
     * aspect: the flock a user would render at that count. */
    double area = boids * (480.0 * 320.0 / 160.0), aspect = (double)width / height;
    double ww = sqrt(area * aspect), wh = area / ww;
    char yaml[512];
    snprintf(yaml, sizeof yaml,
             "model: wrkspc\nseed: 1\nworld: {width: %.0f, height: %.0f, boundary: wrap}\n"
             "flock: {count: %d}\nvideo: {width: %d, height: %d}\n"
             "look: {boid: {shape: arrow, size: 6, color: heading}, trails: {length: %d}}\n",
             ww, wh, boids, width, height, trail_length);
    mur_scene *s = NULL;
    mur_renderer *r = NULL;
    mur_flock *f = NULL;
    double *ms = NULL;
    int rc;
    if ((rc = mur_scene_parse(&s, "bench.yaml", yaml, strlen(yaml), err)) ||
        (rc = mur_renderer_create(&r, s, width, height, err)) ||
        (rc = mur_flock_create(&f, &s->params, s->seed, err)) ||
        (rc = mur_flock_set_threads(f, 0, err)))
        goto done;
    if (!(ms = malloc((size_t)frames * sizeof *ms))) {
        rc = mur_error_set(err, MUR_ERUN, "out of memory");
        goto done;
    }
    long tick = 0;
    for (int k = 0; k < trail_length + 10; k++) {
        mur_flock_step(f);
        mur_renderer_observe(r, 0, f, ++tick);
    }
    const mur_flock *const fl[1] = {f};
    for (int k = 0; k < frames; k++) {
        mur_flock_step(f);
        mur_renderer_observe(r, 0, f, ++tick);
        const uint8_t *px;
        int stride;
        double t0 = now_ms();
        if ((rc = mur_renderer_draw_image(r, fl, 1, tick / s->tps, &px, &stride, err)))
            goto done;
        ms[k] = now_ms() - t0;
    }
    qsort(ms, (size_t)frames, sizeof *ms, cmp_double);
    *median_ms = frames % 2 ? ms[frames / 2] : (ms[frames / 2 - 1] + ms[frames / 2]) / 2;
done:
    free(ms);
    mur_flock_destroy(f);
    mur_renderer_destroy(r);
    mur_scene_destroy(s);
    return rc;
}
