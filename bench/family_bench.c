/* murmur-familybench: ticks per second of the model family's kinds beside
 * the metric grid's, in the same run.
 *
 *   murmur-familybench [--threads T] [--quick] [--kinds K1,K2,...]
 *
 * At N = 10,000 and 100,000 boids on T threads (default 1):
 *   metric       wrkspc at its own density (the world scaled by sqrt(N / 160)
 *                per axis: ~5 neighbours a boid, as murmur-bench runs it);
 *   topological  the same flock with each boid's 7 nearest in place of radii;
 *   vicsek       Vicsek 1995 at density 4, r = 1 (~12 neighbours a boid);
 *   couzin       Couzin 2002 in open space at the preset's density, zones of
 *                width 2 and 14.
 * Each is warmed up (flocks form: 100 ticks at 1e4, 40 at 1e5), then timed:
 * the median of 3 samples of about a second each (CLOCK_MONOTONIC). The
 * table gives ticks/s and each kind's rate over the metric's at that N.
 *
 * Measured 2026-12-02 on the shared 2-core machine (load ~13 from other
 * work, so absolute rates are low and noisy; the ratios are of one run),
 * 1 thread, rate / metric:
 *            topological  vicsek  couzin
 *   10,000      0.40       0.32    0.05
 *  100,000      0.17       0.27    0.01
 * (an earlier run under heavier load: 0.40 / 0.42 / 0.06 and 0.12 / 0.13 /
 * 0.01). Topological then missed its 1/3 target at 1e5: it went by ~30
 * candidates a boid through a sorted insert, where the metric scan
 * filters ~15 with the vector unit (it meets it now: below). Couzin's
 * reach r_a = 17 at its density holds ~450 candidates a boid: its cost
 * is its model's.
 *
 * `--kinds topological` runs the metric and the named kinds only.
 * 2026-12-02, after the search read its boid's cell in grid order rather
 * than from cell_of by id (a cache miss a boid at 1e5; perf put ~45% of
 * search() on that load): old and new binaries interleaved, 3 runs each,
 * median topological / metric: 10,000: 0.45 -> 0.50; 100,000: 0.20 ->
 * 0.26 (runs 0.09-0.39 old, 0.22-0.29 new: the machine's load swings
 * more than the change). Still short of 1/3 at 1e5. Tried and dropped
 * as no faster here: a branch-free distance pass before the sorted
 * insert, and skipping block cells beyond the k-th best (3 x 3 block:
 * ~38 candidates and ~8 inserts a boid; the insert's shifting and the
 * final sqrt per neighbour lead the profile).
 * 2026-12-02, later (issue #28): the topological tick stores each boid's
 * result by position (by id, two scattered stores a boid held up the
 * stores after them), and the search takes candidates through the metric
 * scan's vector filter into a pool cut to the best k. Old and new
 * binaries interleaved, 4 runs each, load 6-10, median topological /
 * metric at 100,000: this benchmark 0.27 -> 0.37 (runs 0.16-0.44 old,
 * 0.28-0.43 new); CPU time in one process, metric and topological
 * alternating, 0.25 -> 0.39 (topological 10.1 -> 15.6 ticks/s). At
 * 10,000 the ratio's runs swing 0.29-0.50 either way (the metric's rate
 * swings 118-340 ticks/s), while topological alone goes 119 -> 158
 * ticks/s in CPU time (3 runs each). Tried and dropped as no
 * faster: Reynolds' add inlined into the topological visit; cells 1.1,
 * 1.2 and 1.7 times the median k-th distance (1.4 stays fastest). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "murmur/flock.h"
#include "murmur/presets.h"

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

/* The median of 3 samples, each ~target seconds, of f's ticks per second. */
static double measure(mur_flock *f, double target)
{
    double t0 = now();
    mur_flock_step(f);
    double one = now() - t0;
    int per = one > 0 ? (int)ceil(target / one) : 100;
    double rate[3];
    for (int s = 0; s < 3; s++) {
        t0 = now();
        for (int k = 0; k < per; k++)
            mur_flock_step(f);
        rate[s] = per / (now() - t0);
    }
    qsort(rate, 3, sizeof rate[0], cmp_double);
    return rate[1];
}

/* Whether name is one of the comma-separated list's items. */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *s = list; *s;) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == n && !strncmp(s, name, n))
            return 1;
        s += len + (e != NULL);
    }
    return 0;
}

static mur_params config(const char *kind, int n)
{
    const char *base = !strcmp(kind, "metric") ? "wrkspc" : kind;
    mur_params p = mur_preset_find(base)->params;
    if (p.density == 0) {
        double scale = sqrt(n / (double)p.count);
        p.width *= scale;
        p.height *= scale;
    }
    p.count = n;
    mur_params_resolve(&p);
    return p;
}

int main(int argc, char **argv)
{
    int threads = 1, quick = 0;
    const char *only = NULL;   /* --kinds: a comma list; metric always runs */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--kinds") && i + 1 < argc)
            only = argv[++i];
        else {
            fprintf(stderr, "usage: murmur-familybench [--threads T] [--quick] [--kinds K1,K2,...]\n");
            return 2;
        }
    }
    const char *kinds[] = {"metric", "topological", "vicsek", "couzin"};
    const int sizes[] = {10000, 100000};
    printf("%-12s %8s %8s %12s %10s\n", "kind", "n", "threads", "ticks/s", "/ metric");
    for (int s = 0; s < 2; s++) {
        double metric = 0;
        for (int k = 0; k < 4; k++) {
            if (k > 0 && only && !listed(only, kinds[k]))
                continue;
            mur_params p = config(kinds[k], sizes[s]);
            mur_flock *f = NULL;
            mur_error err;
            if (mur_flock_create(&f, &p, 1, &err) || mur_flock_set_threads(f, threads, &err)) {
                fprintf(stderr, "murmur-familybench: %s: %s\n", kinds[k], err.msg);
                return 1;
            }
            int warm = quick ? 10 : sizes[s] > 10000 ? 40 : 100;
            for (int t = 0; t < warm; t++)
                mur_flock_step(f);
            double r = measure(f, quick ? 0.1 : 1.0);
            if (k == 0)
                metric = r;
            printf("%-12s %8d %8d %12.2f %10.2f\n", kinds[k], sizes[s], mur_flock_threads(f), r,
                   r / metric);
            fflush(stdout);
            mur_flock_destroy(f);
        }
    }
    return 0;
}
