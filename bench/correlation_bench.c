/* murmur-corrbench: what C(r) costs, in ticks of the same flock.
 *
 *   murmur-corrbench [--n N] [--warm T] [--rounds K] [--threads M]
 *
 * The flock is `wrkspc` at its own density (N boids, default 100,000, in a
 * world scaled by sqrt(N / its count) per axis), warmed up T ticks (default
 * 300: groups form and crowd, the heavier load for both). Each round times
 * 20 ticks (one thread, or M) and then, on the state they leave, C(r) with
 * the metric's default bins (a quarter of R_coh up to 10 R_coh) and with a
 * shorter and a longer cut-off (4 and 20 R_coh), all with CLOCK_MONOTONIC;
 * the ratio of each C(r) to the 20 ticks is a round's figure, and the
 * median over K rounds (default 7) is printed per cut-off with the pairs it
 * looked at. issue #28 asks that the default's stay at or below 1. C(r)
 * itself is one thread (metrics are single-threaded by design: an
 * experiment runs a run per core). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "murmur/flock.h"
#include "murmur/metrics.h"
#include "murmur/presets.h"

#define MAX_ROUNDS 31

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv)
{
    int n = 100000, warm = 300, rounds = 7, threads = 1;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "--n"))
            n = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--warm"))
            warm = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--rounds"))
            rounds = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--threads"))
            threads = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: murmur-corrbench [--n N] [--warm T] [--rounds K] [--threads M]\n");
            return 2;
        }
    }
    if (n < 2 || warm < 0 || rounds < 1 || rounds > MAX_ROUNDS || threads < 0) {
        fprintf(stderr, "murmur-corrbench: N >= 2, T >= 0, 1 <= K <= %d, M >= 0\n", MAX_ROUNDS);
        return 2;
    }
    mur_params p = mur_preset_find("wrkspc")->params;
    double scale = sqrt(n / (double)p.count);
    p.count = n;
    p.width *= scale;
    p.height *= scale;
    mur_flock *f = NULL;
    mur_error err;
    mur_metrics_ctx *mc = mur_metrics_ctx_create();
    if (!mc || mur_flock_create(&f, &p, 1, &err) || mur_flock_set_threads(f, threads, &err)) {
        fprintf(stderr, "murmur-corrbench: %s\n", mc ? err.msg : "out of memory");
        return 1;
    }
    fprintf(stderr, "N = %d in %.0f x %.0f: %d warm-up ticks...\n", n, p.width, p.height, warm);
    for (int t = 0; t < warm; t++)
        mur_flock_step(f);
    static const double ranges[3] = {10, 4, 20};   /* x R_coh; the first is the default */
    double R = p.cohesion_radius, bin = R / 4;
    double ratio[3][MAX_ROUNDS], ticks[MAX_ROUNDS], pairs[3] = {0}, zero[3] = {0};
    double *c = malloc(MUR_CORRELATION_BINS * sizeof *c), *np = malloc(MUR_CORRELATION_BINS * sizeof *np);
    if (!c || !np)
        return 1;
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        for (int t = 0; t < 20; t++)
            mur_flock_step(f);
        ticks[r] = now() - t0;
        for (int k = 0; k < 3; k++) {
            int nbins = (int)lround(ranges[k] * 4);
            t0 = now();
            if (mur_metrics_correlation(mc, f, bin, nbins, c, np))
                return 1;
            ratio[k][r] = (now() - t0) / ticks[r];
            pairs[k] = 0;
            for (int b = 0; b < nbins; b++)
                pairs[k] += np[b];
            zero[k] = mur_correlation_zero(c, nbins, bin);
        }
    }
    printf("C(r) of %d wrkspc boids after %d ticks, against 20 ticks on %d thread%s (%.3f s, median of %d)\n", n,
           warm, mur_flock_threads(f), mur_flock_threads(f) == 1 ? "" : "s", median(ticks, rounds), rounds);
    printf("%-12s %14s %16s %22s\n", "cut-off", "pairs", "zero (world u.)", "C(r) / 20 ticks");
    for (int k = 0; k < 3; k++)
        printf("%4.0f R_coh%s %14.0f %16.1f %22.3f\n", ranges[k], k == 0 ? "*" : " ", pairs[k], zero[k],
               median(ratio[k], rounds));
    printf("* the metric's default (bins of R_coh / 4)\n");
    free(c);
    free(np);
    mur_metrics_ctx_destroy(mc);
    mur_flock_destroy(f);
    return 0;
}
