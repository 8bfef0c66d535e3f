/* murmur-bench: how fast the flock core ticks.
 *
 *   murmur-bench [--json] [--quick]
 *
 * The workload is the `wrkspc` preset at its own density: N boids in a world
 * scaled by sqrt(N / 160) per axis, so each boid starts with the same ~5
 * neighbours at every N and the figures measure the engine, not a changing
 * workload. For each N the flock is warmed up (flocks form, which raises
 * the neighbour count and so the cost of a tick), the state is saved, and
 * every configuration starts from that same state:
 *
 *   grid  on 1 thread and on all cores, N = 1e3, 1e4, 1e5, 1e6;
 *   brute (the O(N^2) reference) on 1 thread and all cores, N = 1e3, 1e4.
 *
 * Warm-up is 300 ticks, except at 1e6: 100 ticks there, since 300 would
 * take most of the budget on their own. Flocks form and crowd as they warm
 * up (at 1e5 the mean count of boids within R_ali grows from ~5 at tick 0
 * to ~8 at 100 and ~13 at 300), so the 1e6 figure is for a lighter load
 * than the others. Warm-up runs on the grid on all cores; brute force then
 * continues from the same saved state, so both are timed on the same flock.
 *
 * Then the 3D core (`"dimensions": 3` rows), grid on all cores, at N = 1e4
 * and 1e5, against the 2D flock of the same N, at the same mean neighbour
 * count after warm-up. The count is the mean number of boids within R_ali
 * of a sample of 2000 boids (every N / 2000-th), against every boid,
 * nearest image under wrap. 3D flocks crowd more than 2D ones as they
 * warm up, so a cube giving each boid the 2D count at the start has ~20%
 * more after 300 ticks. The cube's density is therefore found by trial:
 * 3D flocks are warmed up the same 300 ticks at a density, their count
 * measured and the density corrected (secant steps on log count against
 * log density) until the count is within 3% of the 2D flock's at the same
 * N, at most 4 tries. The tries at 1e4 are the pilot of 1e5: the density
 * found there is warmed up at 1e5 and corrected the same way, at most
 * twice more, until within 5% of the 2D count at 1e5 (counts after warm-up
 * grow a little with N, in 2D and 3D alike: 12.1 and 13.3 in 2D). Both counts and the density (as a multiple of the one that
 * matches the counts at the start) are reported.
 *
 * The 3D figure is taken against the 2D flock, restored to its saved
 * state, in pairs of samples timed back to back (2D then 3D, then 3D then
 * 2D, alternating), so that load from other work on a shared machine falls
 * on both sides of a ratio: "vs_2d" is the median of the pairs' ratios of
 * 3D ticks/s over 2D ticks/s, and ticks_per_s the median of the 3D samples.
 *
 * Each other figure is the median of several samples (5; 3 for brute force
 * at 1e4); a sample times enough consecutive ticks (CLOCK_MONOTONIC) to last
 * about a quarter of a second. 3D pairs: 7.
 *
 * --quick is a smoke test, not a measurement: 50 warm-up ticks, no 1e6,
 * 3 samples of ~0.05 s, the 3D core at 1e4 only (its density tries also
 * after 50 ticks), 3 pairs.
 *
 * Plain output is a table and the targets; --json prints an array of
 * objects with keys impl, dimensions, threads, n, ticks_per_s,
 * ns_per_boid_tick, neighbours (0: not measured), and on 3D rows also
 * neighbours_2d, density and vs_2d. Progress goes to stderr. */
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
    double neighbours_2d;  /* 3D: the 2D flock's, at the same n */
    double density;     /* 3D: the cube's density over the one matching at the start */
    double vs_2d;       /* 3D: median of paired ratios of ticks/s, 3D over 2D */
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

/* Mean boids within R_ali of a sample of 2000 boids (every n / 2000-th),
 * against every boid, nearest image under wrap. Counts are uneven across a
 * clustered flock: 500 boids left the mean ~3% uncertain, too coarse to
 * match two flocks to 5%. */
static double mean_neighbours(const mur_flock *f)
{
    const mur_params *p = mur_flock_params(f);
    int n = mur_flock_count(f), step = n / 2000 > 0 ? n / 2000 : 1, m = 0;
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

/* A wrkspc flock of n boids on all cores: 2D in the preset's world scaled
 * to keep its density, or 3D in a cube at `mul` times the density that
 * gives each boid, at the start, the 2D flock's mean count within R_ali
 * (pi R^2 rho2 = 4/3 pi R^3 rho3); warmed up `warm` ticks. */
static mur_flock *wrkspc(const mur_preset *pre, int dims, int n, double mul, int warm)
{
    mur_params p = pre->params;
    double R = p.alignment_radius, rho2 = p.count / (p.width * p.height);
    if (dims == 3) {
        double rho3 = mul * rho2 * MUR_PI * R * R / (4.0 / 3.0 * MUR_PI * R * R * R);
        p.dimensions = 3;
        p.width = p.height = p.depth = cbrt(n / rho3);
    } else {
        double scale = sqrt(n / (double)p.count);
        p.width *= scale;
        p.height *= scale;
    }
    p.count = n;
    mur_flock *f = NULL;
    mur_error err;
    if (mur_flock_create(&f, &p, 1, &err) || mur_flock_set_threads(f, 0, &err))
        die(dims == 3 ? "create 3D" : "create", &err);
    for (int t = 0; t < warm; t++)
        mur_flock_step(f);
    return f;
}

/* A 3D flock of n boids whose mean count after `warm` ticks is within
 * tol of `want`, trying at most `tries` densities from *mul: each next one
 * by a secant step on log count against log density, the first with slope
 * 3/4 (near the match the count grows as about density^0.73 at 1e5).
 * Returns the last flock tried (the closest, when tries run out), its
 * density in *mul and its count in *got. */
static mur_flock *match3(const mur_preset *pre, int n, int warm, double want, double tol,
                         int tries, double *mul, double *got)
{
    double slope = 0.75, lm0 = 0, lc0 = 0, best = INFINITY, best_mul = *mul;
    for (int t = 0;; t++) {
        mur_flock *f = wrkspc(pre, 3, n, *mul, warm);
        *got = mean_neighbours(f);
        fprintf(stderr, "  3D, N = %d, density x%.4f: %.2f neighbours (2D: %.2f)\n", n, *mul,
                *got, want);
        double off = fabs(*got / want - 1);
        if (off <= tol || (t + 1 >= tries && off <= best))
            return f;
        mur_flock_destroy(f);
        if (off < best)
            best = off, best_mul = *mul;
        if (t + 1 >= tries) {   /* out of tries: back to the closest */
            *mul = best_mul;
            f = wrkspc(pre, 3, n, *mul, warm);
            *got = mean_neighbours(f);
            return f;
        }
        double lm = log(*mul), lc = log(*got);
        if (t > 0 && lm != lm0 && lc != lc0) {
            double s = (lc - lc0) / (lm - lm0);
            if (s > 0.2 && s < 2)   /* else noise: keep the last slope */
                slope = s;
        }
        lm0 = lm;
        lc0 = lc;
        *mul = exp(lm + (log(want) - lc) / slope);
    }
}

/* Flocks a (2D) and b (3D) timed in `pairs` pairs of samples back to back,
 * the order alternating, each sample about `target` seconds: the median
 * of b's rates and of the pairs' ratios b / a. */
static void measure_pairs(mur_flock *a, mur_flock *b, int pairs, double target, double *rate_b,
                          double *ratio)
{
    mur_flock *fl[2] = {a, b};
    int per[2];
    for (int s = 0; s < 2; s++) {
        double t0 = now();
        mur_flock_step(fl[s]);   /* also wakes the pool and touches the scratch */
        double one = now() - t0;
        per[s] = one > 0 ? (int)ceil(target / one) : 1000;
        per[s] = per[s] < 1 ? 1 : per[s];
    }
    double rb[MAX_SAMPLES], q[MAX_SAMPLES];
    for (int k = 0; k < pairs; k++) {
        double rate[2];
        for (int o = 0; o < 2; o++) {
            int s = (k + o) % 2;   /* 2D first on even pairs, 3D first on odd */
            double t0 = now();
            for (int t = 0; t < per[s]; t++)
                mur_flock_step(fl[s]);
            rate[s] = per[s] / (now() - t0);
        }
        rb[k] = rate[1];
        q[k] = rate[1] / rate[0];
    }
    qsort(rb, (size_t)pairs, sizeof rb[0], cmp_double);
    qsort(q, (size_t)pairs, sizeof q[0], cmp_double);
    *rate_b = pairs % 2 ? rb[pairs / 2] : 0.5 * (rb[pairs / 2 - 1] + rb[pairs / 2]);
    *ratio = pairs % 2 ? q[pairs / 2] : 0.5 * (q[pairs / 2 - 1] + q[pairs / 2]);
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
    /* the 3D core's sizes, and the 2D state and count kept for each */
    const int sizes3[] = {10000, 100000};
    const int nsizes3 = quick ? 1 : 2;
    double *snap3[2] = {NULL, NULL}, nb2[2] = {0, 0};

    result res[MAX_RESULTS];
    int nres = 0;
    mur_error err;
    double t_start = now();
    for (int s = 0; s < nsizes; s++) {
        int n = sizes[s];
        int warm = quick ? 50 : (n >= 1000000 ? 100 : 300);
        fprintf(stderr, "N = %d: %d warm-up ticks...\n", n, warm);
        mur_flock *f = wrkspc(pre, 2, n, 1, warm);
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
                memset(r, 0, sizeof *r);
                r->impl = brute ? "brute" : "grid";
                r->dimensions = 2;
                r->neighbours = n <= 100000 && !brute && all ? mean_neighbours(f) : 0;
                r->threads = mur_flock_threads(f);
                r->n = n;
                r->ticks_per_s = measure(f, k, target);
                r->ns_per_boid_tick = 1e9 / (r->ticks_per_s * n);
                fprintf(stderr, "  %-5s %2d threads: %10.2f ticks/s\n", r->impl, r->threads,
                        r->ticks_per_s);
                for (int t = 0; t < nsizes3; t++)
                    if (sizes3[t] == n && r->neighbours > 0)
                        nb2[t] = r->neighbours;
            }
        int kept = 0;
        for (int t = 0; t < nsizes3; t++)
            if (sizes3[t] == n)
                snap3[t] = snap, kept = 1;
        if (!kept)
            free(snap);
        mur_flock_destroy(f);
    }

    /* The 3D core at the 2D flock's neighbour count after warm-up. */
    /* The density found at 1e4 is 1e5's start: the 1e4 tries are 1e5's
     * pilot, 300 ticks at 1e4 costing a tenth of 300 at 1e5. */
    double mul = 1;
    for (int s = 0; s < nsizes3; s++) {
        int n = sizes3[s];
        int warm = quick ? 50 : 300;
        double got = 0;
        fprintf(stderr, "3D, N = %d: densities tried, %d warm-up ticks each...\n", n, warm);
        mur_flock *f3 = match3(pre, n, warm, nb2[s], s > 0 ? 0.05 : 0.03, s > 0 ? 3 : 4, &mul,
                               &got);
        mur_flock *f2 = wrkspc(pre, 2, n, 1, 0);
        double *snap = snap3[s];
        if (mur_flock_set_state(f2, n, snap, snap + n, snap + 2 * (size_t)n, snap + 3 * (size_t)n,
                                &err) ||
            mur_flock_set_threads(f2, 0, &err))
            die("set up 2D", &err);
        result *r = &res[nres++];
        memset(r, 0, sizeof *r);
        r->impl = "grid";
        r->dimensions = 3;
        r->threads = mur_flock_threads(f3);
        r->n = n;
        r->neighbours = got;
        r->neighbours_2d = nb2[s];
        r->density = mul;
        measure_pairs(f2, f3, quick ? 3 : 7, target, &r->ticks_per_s, &r->vs_2d);
        r->ns_per_boid_tick = 1e9 / (r->ticks_per_s * n);
        fprintf(stderr, "  3D grid %2d threads: %10.2f ticks/s, %.3f of 2D (paired)\n", r->threads,
                r->ticks_per_s, r->vs_2d);
        mur_flock_destroy(f2);
        mur_flock_destroy(f3);
    }
    for (int t = 0; t < nsizes3; t++)
        free(snap3[t]);
    fprintf(stderr, "total %.1f s\n", now() - t_start);

    if (json) {
        printf("[\n");
        for (int i = 0; i < nres; i++) {
            const result *r = &res[i];
            printf("  {\"impl\": \"%s\", \"dimensions\": %d, \"threads\": %d, \"n\": %d, "
                   "\"ticks_per_s\": %.6g, \"ns_per_boid_tick\": %.6g, \"neighbours\": %.4g",
                   r->impl, r->dimensions, r->threads, r->n, r->ticks_per_s, r->ns_per_boid_tick,
                   r->neighbours);
            if (r->dimensions == 3)
                printf(", \"neighbours_2d\": %.4g, \"density\": %.4g, \"vs_2d\": %.4g",
                       r->neighbours_2d, r->density, r->vs_2d);
            printf("}%s\n", i + 1 < nres ? "," : "");
        }
        printf("]\n");
        return 0;
    }
    printf("%-6s %4s %8s %10s %14s %18s %11s %8s\n", "impl", "dims", "threads", "n", "ticks/s",
           "ns/boid-tick", "neighbours", "vs 2D");
    for (int i = 0; i < nres; i++) {
        printf("%-6s %4d %8d %10d %14.2f %18.1f %11.2f", res[i].impl, res[i].dimensions,
               res[i].threads, res[i].n, res[i].ticks_per_s, res[i].ns_per_boid_tick,
               res[i].neighbours);
        if (res[i].dimensions == 3)
            printf(" %8.3f", res[i].vs_2d);
        printf("\n");
    }
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
    for (int i = 0; i < nres; i++)
        if (res[i].dimensions == 3)
            printf("         3D >= half of 2D at %d, all cores, paired: %s (%.3f; neighbours "
                   "%.2f vs %.2f, density x%.3f)\n",
                   res[i].n, res[i].vs_2d >= 0.5 ? "met" : "MISSED", res[i].vs_2d,
                   res[i].neighbours, res[i].neighbours_2d, res[i].density);
    return 0;
}
