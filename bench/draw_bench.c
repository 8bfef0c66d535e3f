/* murmur-drawbench: how long the renderer takes to draw one 1080p frame, apart from
 * simulation and encoding.
 *
 *   murmur-drawbench [--frames F] [N ...]     (default: 2000 10000 100000)
 *
 * For each boid count N (the wrkspc preset at its own density, colour by
 * heading, arrows of size 6) it prints the median milliseconds a frame takes
 * to draw without trails and with 30-tick fading trails, the two figures the
 * render benchmark (render_bench.sh) is made of besides the encoder. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "murmur/render.h"
#include "murmur/scene.h"

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

/* Drawing time: a flock of `boids` (the wrkspc preset at its own density, so
 * the world grows with the count; colour by heading) drawn at width x height
 * with trails of trail_length ticks (0 = none), `frames` times after a short
 * warm-up. *median_ms is the median draw time of one frame in milliseconds. */
static int draw_median_ms(int boids, int width, int height, int trail_length, int frames,
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
        (rc = mur_renderer_create(&r, mur_scene_look(s), width, height, err)) ||
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


int main(int argc, char **argv)
{
    int frames = 15, counts[16], ncounts = 0;
    for (int i = 1; i < argc; i++) {
        char *end;
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            frames = (int)strtol(argv[++i], &end, 10);
            if (*end || frames < 1)
                goto usage;
        } else if (ncounts < 16) {
            counts[ncounts++] = (int)strtol(argv[i], &end, 10);
            if (*end || counts[ncounts - 1] < 1)
                goto usage;
        } else {
            goto usage;
        }
    }
    if (!ncounts) {
        counts[0] = 2000;
        counts[1] = 10000;
        counts[2] = 100000;
        ncounts = 3;
    }
    printf("%8s %14s %18s   (median ms a 1920x1080 frame, %d frames)\n", "boids", "no trails",
           "30-tick trails", frames);
    for (int k = 0; k < ncounts; k++) {
        double plain, trails;
        mur_error err;
        if (draw_median_ms(counts[k], 1920, 1080, 0, frames, &plain, &err) ||
            draw_median_ms(counts[k], 1920, 1080, 30, frames, &trails, &err)) {
            fprintf(stderr, "murmur-drawbench: %s\n", err.msg);
            return 1;
        }
        printf("%8d %14.1f %18.1f\n", counts[k], plain, trails);
        fflush(stdout);
    }
    return 0;
usage:
    fprintf(stderr, "usage: murmur-drawbench [--frames F] [N ...]\n");
    return 2;
}
