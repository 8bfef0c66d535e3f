/* murmur-bench: how fast the flock core ticks.
 *
 *   murmur-bench [--json] [--quick]
 *
 * The workload is the `wrkspc` preset at its own density: N boids in a world
 * scaled by sqrt(N / 160) per axis, so each boid has the same ~5 neighbours
 * at every N and the figures measure the engine, not a changing workload.
 * For each N the flock is warmed up (flocks form, which raises the neighbour
 * count and so the cost of a tick), the state is saved, and every
 * configuration starts from that same state:
 *
 *   grid  on 1 thread and on all cores, N = 1e3, 1e4, 1e5, 1e6;
 *   brute (the O(N^2) reference) on 1 thread and all cores, N = 1e3, 1e4.
 *
 * Warm-up is 300 ticks, except at 1e6: 100 ticks there, since 300 would
 * take most of the ~3 minute budget on their own. Flocks form and crowd as
 * they warm up (at 1e5, candidates a boid grow from ~16 at tick 0 to ~18 at
 * 50, ~20 at 100 and ~28 at 300), so the 1e6 figure is for a somewhat
 * lighter load than the others. --quick: 50 warm-up ticks, no 1e6, shorter
 * samples (a smoke test, not a measurement). Warm-up runs on the grid on
 * all cores; brute force then continues from the same saved state, so both
 * are timed on the same flock.
 *
 * Then the 3D core (`"dimensions": 3` rows) at N = 1e4 and 1e5 (1e4 with
 * --quick), grid on all cores: the same preset in a cube whose volume
 * gives each boid, at the start, the 2D flock's mean number of boids
 * within R_ali (density pi R^2 rho2 = 4/3 pi R^3 rho3), warmed up the
 * same way. After warm-up both flocks' mean neighbour counts (boids within
 * R_ali, from a sample of 500 boids against all) are printed beside the
 * rates, since flocks crowd differently in 2D and 3D.
 *
 * Each figure is the median of several samples; a sample times enough
 * consecutive ticks (CLOCK_MONOTONIC) to last about a quarter of a second.
 * Plain output is a table; --json prints an array of objects with keys
 * impl, threads, n, ticks_per_s, ns_per_boid_tick. Progress goes to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include "murmur/flock.h"
#include "murmur/presets.h"

typedef struct {
    const char *impl;   /* "grid" or "brute" */
    int dimensions;
    int threads;
    int n;
    double neighbours;  /* mean boids within R_ali after warm-up (0: not measured) */
    double ticks_per_s;
    double ns_per_boid_tick;
} result;

#define MAX_RESULTS 32
#define MAX_SAMPLES 9

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

static void die(const char *what, const mur_error *err)
{
    fprintf(stderr, "murmur-bench: %s: %s\n", what, err ? err->msg : "failed");
    exit(1);
}

/* Ticks per second of f from its current state: median of `samples`
 * samples, each `per` ticks long, `per` chosen from one timed tick so that
 * a sample lasts about `target` seconds. */
static double measure(mur_flock *f, int samples, double target)
{
    double t0 = now();
    mur_flock_step(f);  /* also wakes the pool and touches the scratch */
    double one = now() - t0;
    int per = one > 0 ? (int)ceil(target / one) : 1000;
    if (per < 1)
        per = 1;
    double rate[MAX_SAMPLES];
    for (int s = 0; s < samples; s++) {
        t0 = now();
        for (int k = 0; k < per; k++)
            mur_flock_step(f);
        rate[s] = per / (now() - t0);
    }
    qsort(rate, (size_t)samples, sizeof rate[0], cmp_double);
    return samples % 2 ? rate[samples / 2] : 0.5 * (rate[samples / 2 - 1] + rate[samples / 2]);
}

/* Mean boids within R_ali of a sample of boids (every n / 500-th), against
 * every boid, nearest image under wrap. */
static double mean_neighbours(const mur_flock *f)
{
    const mur_params *p = mur_flock_params(f);
    int n = mur_flock_count(f), step = n / 500 > 0 ? n / 500 : 1, m = 0;
    const double *x = mur_flock_x(f), *y = mur_flock_y(f), *z = mur_flock_z(f);
    double r2 = p->alignment_radius * p->alignment_radius, total = 0;
    for (int i = 0; i < n; i += step, m++)
        for (int j = 0; j < n; j++) {
            if (j == i)
                continue;
            double a[3] = {x[i], y[i], z ? z[i] : 0}, b[3] = {x[j], y[j], z ? z[j] : 0}, d[3];
            mur_params_offset3(p, a, b, d);
            if (!z)
                d[2] = 0;
            total += d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < r2;
        }
    return m ? total / m : 0;
}

int main(int argc, char **argv)
{
    int json = 0, quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else {
            fprintf(stderr, "usage: murmur-bench [--json] [--quick]\n");
            return 2;
        }
    }
    const mur_preset *pre = mur_preset_find("wrkspc");
    if (!pre)
        die("preset wrkspc", NULL);
    const int sizes[] = {1000, 10000, 100000, 1000000};
    const int nsizes = quick ? 3 : 4;
    const int samples = quick ? 3 : 5;
    const double target = quick ? 0.05 : 0.25;

    result res[MAX_RESULTS];
    int nres = 0;
    mur_error err;
    double t_start = now();
    for (int s = 0; s < nsizes; s++) {
        int n = sizes[s];
        mur_params p = pre->params;
        double scale = sqrt(n / (double)p.count);
        p.count = n;
        p.width *= scale;
        p.height *= scale;
        mur_flock *f = NULL;
        if (mur_flock_create(&f, &p, 1, &err) || mur_flock_set_threads(f, 0, &err))
            die("create", &err);
        int warm = quick ? 50 : (n >= 1000000 ? 100 : 300);
        fprintf(stderr, "N = %d: %d warm-up ticks...\n", n, warm);
        for (int t = 0; t < warm; t++)
            mur_flock_step(f);
        size_t bytes = (size_t)n * sizeof(double);
        double *snap = malloc(4 * bytes);
        if (!snap)
            die("snapshot", NULL);
        memcpy(snap, mur_flock_x(f), bytes);
        memcpy(snap + n, mur_flock_y(f), bytes);
        memcpy(snap + 2 * (size_t)n, mur_flock_vx(f), bytes);
        memcpy(snap + 3 * (size_t)n, mur_flock_vy(f), bytes);

        for (int brute = 0; brute <= (n <= 10000); brute++)
            for (int all = 0; all <= 1; all++) {
                if (mur_flock_set_state(f, n, snap, snap + n, snap + 2 * (size_t)n,
                                        snap + 3 * (size_t)n, &err) ||
                    mur_flock_set_threads(f, all ? 0 : 1, &err))
                    die("set up", &err);
                mur_flock_set_brute_force(f, brute);
                /* Brute force at 1e4 takes ~0.1 s a tick: fewer, longer samples. */
                int k = brute && n >= 10000 ? 3 : samples;
                result *r = &res[nres++];
                r->impl = brute ? "brute" : "grid";
                r->dimensions = 2;
                r->neighbours = n <= 100000 && !brute && all ? mean_neighbours(f) : 0;
                r->threads = mur_flock_threads(f);
                r->n = n;
                r->ticks_per_s = measure(f, k, target);
                r->ns_per_boid_tick = 1e9 / (r->ticks_per_s * n);
                fprintf(stderr, "  %-5s %2d threads: %10.2f ticks/s\n", r->impl, r->threads,
                        r->ticks_per_s);
            }
        free(snap);
        mur_flock_destroy(f);
    }
    /* The 3D core at the 2D flock's starting neighbour count. */
    const int sizes3[] = {10000, 100000};
    for (int s = 0; s < (quick ? 1 : 2); s++) {
        int n = sizes3[s];
        mur_params p = pre->params;
        double R = p.alignment_radius, rho2 = p.count / (p.width * p.height);
        double rho3 = rho2 * MUR_PI * R * R / (4.0 / 3.0 * MUR_PI * R * R * R);
        p.dimensions = 3;
        p.count = n;
        p.width = p.height = p.depth = cbrt(n / rho3);
        mur_flock *f = NULL;
        if (mur_flock_create(&f, &p, 1, &err) || mur_flock_set_threads(f, 0, &err))
            die("create 3D", &err);
        int warm = quick ? 50 : 300;
        fprintf(stderr, "3D, N = %d: %d warm-up ticks...\n", n, warm);
        for (int t = 0; t < warm; t++)
            mur_flock_step(f);
        result *r = &res[nres++];
        r->impl = "grid";
        r->dimensions = 3;
        r->threads = mur_flock_threads(f);
        r->n = n;
        r->neighbours = mean_neighbours(f);
        r->ticks_per_s = measure(f, samples, target);
        r->ns_per_boid_tick = 1e9 / (r->ticks_per_s * n);
        fprintf(stderr, "  3D grid %2d threads: %10.2f ticks/s\n", r->threads, r->ticks_per_s);
        mur_flock_destroy(f);
    }
    fprintf(stderr, "total %.1f s\n", now() - t_start);

    if (json) {
        printf("[\n");
        for (int i = 0; i < nres; i++)
            printf("  {\"impl\": \"%s\", \"dimensions\": %d, \"threads\": %d, \"n\": %d, "
                   "\"ticks_per_s\": %.6g, \"ns_per_boid_tick\": %.6g, \"neighbours\": %.4g}%s\n",
                   res[i].impl, res[i].dimensions, res[i].threads, res[i].n, res[i].ticks_per_s,
                   res[i].ns_per_boid_tick, res[i].neighbours, i + 1 < nres ? "," : "");
        printf("]\n");
        return 0;
    }
    printf("%-6s %4s %8s %10s %14s %18s %11s\n", "impl", "dims", "threads", "n", "ticks/s",
           "ns/boid-tick", "neighbours");
    for (int i = 0; i < nres; i++)
        printf("%-6s %4d %8d %10d %14.2f %18.1f %11.2f\n", res[i].impl, res[i].dimensions,
               res[i].threads, res[i].n, res[i].ticks_per_s, res[i].ns_per_boid_tick,
               res[i].neighbours);
    /* Grid over brute force on the same thread count and state. */
    printf("\n");
    double speedup_10k = 0;
    for (int i = 0; i < nres; i++)
        for (int j = 0; j < nres; j++)
            if (strcmp(res[i].impl, "grid") == 0 && strcmp(res[j].impl, "brute") == 0 &&
                res[i].dimensions == 2 &&
                res[i].n == res[j].n && res[i].threads == res[j].threads) {
                double x = res[i].ticks_per_s / res[j].ticks_per_s;
                printf("grid / brute at n = %d, %d thread%s: %.0fx\n", res[i].n, res[i].threads,
                       res[i].threads == 1 ? "" : "s", x);
                if (res[i].n == 10000 && res[i].threads == 1)
                    speedup_10k = x;
            }
    /* The targets of the engine, on all cores (the last grid row of an n). */
    double at[2] = {0, 0};
    for (int i = 0; i < nres; i++)
        if (strcmp(res[i].impl, "grid") == 0 && res[i].dimensions == 2 &&
            (res[i].n == 100000 || res[i].n == 1000000))
            at[res[i].n == 1000000] = res[i].ticks_per_s;
    printf("\ntargets: 1e5 boids >= 150 ticks/s on all cores: %s (%.1f)\n",
           at[0] >= 150 ? "met" : "MISSED", at[0]);
    if (nsizes > 3)
        printf("         1e6 boids >= 2 ticks/s on all cores: %s (%.2f)\n",
               at[1] >= 2 ? "met" : "MISSED", at[1]);
    printf("         grid >= 100x brute force at 1e4, 1 thread: %s (%.0fx)\n",
           speedup_10k >= 100 ? "met" : "MISSED", speedup_10k);
    /* 3D over 2D at the same n, all cores */
    for (int i = 0; i < nres; i++)
        for (int j = 0; j < nres; j++)
            if (res[i].dimensions == 3 && res[j].dimensions == 2 && res[j].n == res[i].n &&
                !strcmp(res[j].impl, "grid") && res[j].threads == res[i].threads)
                printf("         3D >= half of 2D at %d, all cores: %s (%.2f; neighbours %.1f vs "
                       "%.1f)\n",
                       res[i].n, res[i].ticks_per_s >= 0.5 * res[j].ticks_per_s ? "met" : "MISSED",
                       res[i].ticks_per_s / res[j].ticks_per_s, res[i].neighbours,
                       res[j].neighbours);
    return 0;
}
