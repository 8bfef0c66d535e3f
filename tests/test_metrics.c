/* The metrics of docs/model.md on hand-built flocks whose answers are known, the
 * grid-based metrics against an O(N^2) computation written out here, and
 * the statistics quoted from them (percentiles, summaries, the state label).
 * A core test: it links the core alone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "murmur/flock.h"
#include "murmur/metrics.h"
#include "murmur/presets.h"
#include "murmur/stats.h"

#define PI 3.14159265358979323846

/* A flock of n boids in a W x H world with the given boundary and cohesion
 * radius, holding exactly the given state. */
static mur_flock *flock_of(int n, const double *x, const double *y, const double *vx,
                           const double *vy, double w, double h, mur_boundary b, double rcoh)
{
    mur_params p = mur_preset_find("wrkspc")->params;
    p.width = w;
    p.height = h;
    p.boundary = b;
    p.cohesion_radius = rcoh;
    p.count = n;
    mur_flock *f = NULL;
    mur_error err;
    if (mur_flock_create(&f, &p, 1, &err) || mur_flock_set_state(f, n, x, y, vx, vy, &err)) {
        fprintf(stderr, "flock_of: %s\n", err.msg);
        abort();
    }
    return f;
}

static mur_metrics metrics_of(const mur_flock *f)
{
    mur_metrics m;
    mur_metrics_ctx *ctx = mur_metrics_ctx_create();
    if (!ctx || mur_metrics_compute(ctx, f, &m)) {
        fprintf(stderr, "metrics_of: failed\n");
        abort();
    }
    mur_metrics_ctx_destroy(ctx);
    return m;
}

/* ---- order -------------------------------------------------------------- */

TEST(order_of_an_aligned_flock_is_one_and_of_opposite_boids_zero)
{
    double x[5] = {10, 50, 90, 130, 170}, y[5] = {10, 60, 20, 80, 40};
    double vx[5] = {1, 2, 0.5, 3, 1.7}, vy[5] = {0.5, 1, 0.25, 1.5, 0.85};  /* one heading */
    mur_flock *f = flock_of(5, x, y, vx, vy, 200, 100, MUR_BOUNDARY_WRAP, 40);
    mur_metrics m = metrics_of(f);
    CHECK(fabs(m.order - 1) < 1e-12, "aligned flock: order %.15g", m.order);
    CHECK(fabs(mur_metrics_order(5, vx, vy) - 1) < 1e-12, "mur_metrics_order disagrees");
    mur_flock_destroy(f);

    double ox[2] = {1.5, -0.5}, oy[2] = {-2, 0.6666666666666666};  /* opposite headings */
    f = flock_of(2, x, y, ox, oy, 200, 100, MUR_BOUNDARY_WRAP, 40);
    m = metrics_of(f);
    CHECK(fabs(m.order) < 1e-12, "two opposite boids: order %.3g", m.order);
    mur_flock_destroy(f);
    CHECK(mur_metrics_order(0, NULL, NULL) == 0, "empty flock: order not 0");
}

/* ---- nearest neighbour and neighbour count -------------------------------- */

TEST(nearest_neighbour_of_a_hand_built_flock)
{
    /* pairs 5 and 8 apart, far from each other: nearest 5, 5, 8, 8 */
    double x[4] = {10, 13, 100, 100}, y[4] = {10, 14, 60, 68}, v[4] = {1, 1, 1, 1};
    mur_flock *f = flock_of(4, x, y, v, v, 200, 100, MUR_BOUNDARY_REFLECT, 40);
    mur_metrics m = metrics_of(f);
    CHECK(fabs(m.nearest - 6.5) < 1e-12, "nearest %.15g, want 6.5", m.nearest);
    mur_flock_destroy(f);

    /* across the wrap seam x = 1 and x = W - 1 are 2 apart; with walls 198 */
    double sx[2] = {1, 199}, sy[2] = {50, 50};
    f = flock_of(2, sx, sy, v, v, 200, 100, MUR_BOUNDARY_WRAP, 40);
    m = metrics_of(f);
    CHECK(fabs(m.nearest - 2) < 1e-12, "wrap: boids at x = 1 and W - 1 %.15g apart, want 2",
          m.nearest);
    mur_flock_destroy(f);
    double ty[2] = {1, 99}, tx[2] = {100, 100};  /* the other seam */
    f = flock_of(2, tx, ty, v, v, 200, 100, MUR_BOUNDARY_WRAP, 40);
    m = metrics_of(f);
    CHECK(fabs(m.nearest - 2) < 1e-12, "wrap: boids at y = 1 and H - 1 %.15g apart", m.nearest);
    mur_flock_destroy(f);
    f = flock_of(2, sx, sy, v, v, 200, 100, MUR_BOUNDARY_REFLECT, 40);
    m = metrics_of(f);
    CHECK(fabs(m.nearest - 198) < 1e-12, "reflect: %.15g apart, want 198", m.nearest);
    mur_flock_destroy(f);
    /* far apart, many cells between them: the ring search must go out */
    double fx[2] = {3, 1900}, fy[2] = {3, 1500};
    f = flock_of(2, fx, fy, v, v, 4000, 3000, MUR_BOUNDARY_AVOID, 40);
    m = metrics_of(f);
    CHECK(fabs(m.nearest - hypot(1897, 1497)) < 1e-9, "far pair: nearest %.15g", m.nearest);
    mur_flock_destroy(f);
}

TEST(neighbour_count_within_the_cohesion_radius)
{
    /* a row 30 apart, R = 40: ends have 1 neighbour, inner boids 2; a
     * lone boid 0; across the seam (x = 5 and x = 395) 1 each */
    double x[7] = {100, 130, 160, 190, 300, 5, 395}, y[7] = {50, 50, 50, 50, 150, 250, 250};
    double v[7] = {1, 1, 1, 1, 1, 1, 1};
    mur_flock *f = flock_of(7, x, y, v, v, 400, 300, MUR_BOUNDARY_WRAP, 40);
    mur_metrics m = metrics_of(f);
    double want = (1 + 2 + 2 + 1 + 0 + 1 + 1) / 7.0;
    CHECK(fabs(m.neighbours - want) < 1e-12, "neighbours %.15g, want %.15g", m.neighbours, want);
    mur_flock_destroy(f);
    /* exactly R apart is outside */
    double ex[2] = {100, 140}, ey[2] = {100, 100};
    f = flock_of(2, ex, ey, v, v, 400, 300, MUR_BOUNDARY_WRAP, 40);
    m = metrics_of(f);
    CHECK(m.neighbours == 0 && m.clusters == 2, "boids exactly R apart: %g neighbours, %d clusters",
          m.neighbours, m.clusters);
    mur_flock_destroy(f);
}

/* ---- clusters ----------------------------------------------------------- */

TEST(two_separated_groups_are_two_clusters)
{
    /* a chain of 5 (links of 30 < R = 40) and a chain of 3, 200 apart */
    double x[8] = {50, 80, 110, 140, 170, 400, 430, 460};
    double y[8] = {100, 100, 100, 100, 100, 300, 300, 300};
    double v[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    mur_flock *f = flock_of(8, x, y, v, v, 800, 600, MUR_BOUNDARY_REFLECT, 40);
    mur_metrics m = metrics_of(f);
    CHECK(m.clusters == 2, "%d clusters, want 2", m.clusters);
    CHECK(fabs(m.largest - 5.0 / 8) < 1e-12, "largest share %.15g, want 5/8", m.largest);
    mur_flock_destroy(f);
}

TEST(a_cluster_straddling_the_seam_is_one_cluster)
{
    /* a chain through the corner of the torus: (395, 295) - (5, 295) -
     * (5, 5) - (395, 5), links of 10 across the seams */
    double x[6] = {395, 5, 5, 395, 20, 380}, y[6] = {295, 295, 5, 5, 5, 295};
    double v[6] = {1, 1, 1, 1, 1, 1};
    mur_flock *f = flock_of(6, x, y, v, v, 400, 300, MUR_BOUNDARY_WRAP, 40);
    mur_metrics m = metrics_of(f);
    CHECK(m.clusters == 1 && m.largest == 1, "wrap: %d clusters (largest %.3g), want 1",
          m.clusters, m.largest);
    mur_flock_destroy(f);
    /* with walls the same points are four groups: the corners */
    f = flock_of(6, x, y, v, v, 400, 300, MUR_BOUNDARY_REFLECT, 40);
    m = metrics_of(f);
    CHECK(m.clusters == 4, "reflect: %d clusters, want 4", m.clusters);
    mur_flock_destroy(f);
}

TEST(coincident_boids_are_neighbours_in_one_cluster)
{
    double x[3] = {50, 50, 300}, y[3] = {50, 50, 200}, v[3] = {1, 1, 1};
    mur_flock *f = flock_of(3, x, y, v, v, 400, 300, MUR_BOUNDARY_WRAP, 40);
    mur_metrics m = metrics_of(f);
    CHECK(m.clusters == 2, "two boids on one point and a lone one: %d clusters, want 2",
          m.clusters);
    CHECK(fabs(m.neighbours - 2.0 / 3) < 1e-12, "neighbours %.15g, want 2/3", m.neighbours);
    double want = (0 + 0 + hypot(150, 150)) / 3;  /* nearest image of (-250, -150) */
    CHECK(fabs(m.nearest - want) < 1e-12, "nearest %.15g, want %.15g", m.nearest, want);
    mur_flock_destroy(f);
}

/* ---- milling ------------------------------------------------------------ */

/* n boids on a circle of radius r about (cx, cy) moving tangentially
 * (counter-clockwise), into arrays of n. */
static void ring(int n, double cx, double cy, double r, double w, double h, double *x,
                 double *y, double *vx, double *vy)
{
    for (int i = 0; i < n; i++) {
        double a = 2 * PI * i / n;
        x[i] = fmod(cx + r * cos(a) + w, w);
        y[i] = fmod(cy + r * sin(a) + h, h);
        vx[i] = -2 * sin(a);
        vy[i] = 2 * cos(a);
    }
}

TEST(a_mill_has_milling_near_one_and_order_near_zero)
{
    enum { N = 60 };
    double x[N], y[N], vx[N], vy[N];
    /* radius 100: neighbours 10.5 apart, one cluster at R = 40 */
    ring(N, 250, 250, 100, 500, 500, x, y, vx, vy);
    mur_flock *f = flock_of(N, x, y, vx, vy, 500, 500, MUR_BOUNDARY_WRAP, 40);
    mur_metrics m = metrics_of(f);
    CHECK(m.clusters == 1, "ring: %d clusters", m.clusters);
    CHECK(m.milling > 0.99, "ring: milling %.4f, want ~1", m.milling);
    CHECK(m.order < 0.01, "ring: order %.4f, want ~0", m.order);
    mur_flock_destroy(f);
    /* the same ring centred on the corner of the torus */
    ring(N, 0, 0, 100, 500, 500, x, y, vx, vy);
    f = flock_of(N, x, y, vx, vy, 500, 500, MUR_BOUNDARY_WRAP, 40);
    m = metrics_of(f);
    CHECK(m.clusters == 1 && m.milling > 0.99, "ring across the seams: %d clusters, milling %.4f",
          m.clusters, m.milling);
    mur_flock_destroy(f);
    /* two rings turning opposite ways are two mills: milling is per cluster */
    double x2[2 * N], y2[2 * N], vx2[2 * N], vy2[2 * N];
    ring(N, 150, 250, 100, 1000, 500, x2, y2, vx2, vy2);
    ring(N, 700, 250, 100, 1000, 500, x2 + N, y2 + N, vx2 + N, vy2 + N);
    for (int i = N; i < 2 * N; i++) {
        vx2[i] = -vx2[i];
        vy2[i] = -vy2[i];
    }
    f = flock_of(2 * N, x2, y2, vx2, vy2, 1000, 500, MUR_BOUNDARY_REFLECT, 40);
    m = metrics_of(f);
    CHECK(m.clusters == 2 && m.milling > 0.99, "counter-rotating rings: %d clusters, milling %.4f",
          m.clusters, m.milling);
    mur_flock_destroy(f);
}

TEST(a_polarized_flock_has_milling_near_zero)
{
    enum { N = 49 };
    double x[N], y[N], vx[N], vy[N];
    for (int i = 0; i < N; i++) {  /* a 7 x 7 lattice, spacing 15, all heading +x */
        x[i] = 200 + 15 * (i % 7);
        y[i] = 200 + 15 * (i / 7);
        vx[i] = 2;
        vy[i] = 0.1;
    }
    mur_flock *f = flock_of(N, x, y, vx, vy, 600, 600, MUR_BOUNDARY_WRAP, 40);
    mur_metrics m = metrics_of(f);
    CHECK(m.clusters == 1, "lattice: %d clusters", m.clusters);
    CHECK(m.milling < 0.05, "polarized flock: milling %.4f, want ~0", m.milling);
    CHECK(m.order > 0.999, "polarized flock: order %.4f", m.order);
    mur_flock_destroy(f);
}

/* ---- grid metrics against O(N^2) ---------------------------------------- */

static int root(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

/* The O(N^2) answer for f's boids: each one's count of neighbours closer
 * than R (count), the clusters as a union-find whose roots are their
 * smallest members (parent), and the sum over boids of the distance to the
 * nearest other one (returned). */
static double brute_force(const mur_flock *f, double R, int *parent, int *count)
{
    int n = mur_flock_count(f);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    double near_sum = 0;
    for (int i = 0; i < n; i++) {
        parent[i] = i;
        count[i] = 0;
    }
    for (int i = 0; i < n; i++) {
        double best = INFINITY;
        for (int j = 0; j < n; j++) {
            if (j == i)
                continue;
            double dx, dy;
            mur_flock_offset(f, x[i], y[i], x[j], y[j], &dx, &dy);
            double d2 = dx * dx + dy * dy;
            best = fmin(best, d2);
            if (sqrt(d2) < R) {
                count[i]++;
                int a = root(parent, i), b = root(parent, j);
                if (a != b)
                    parent[a > b ? a : b] = a < b ? a : b;   /* the smaller root stays */
            }
        }
        near_sum += sqrt(best);
    }
    return near_sum;
}

/* The brute force's pairs, clusters and largest cluster from its union-find
 * (parent) and neighbour counts; size is n zeroed ints of scratch. */
static void tally(int n, int *parent, const int *count, int *size, long *pairs, int *clusters, int *largest)
{
    *pairs = 0;
    *clusters = *largest = 0;
    for (int i = 0; i < n; i++) {
        *pairs += count[i];
        size[root(parent, i)]++;
    }
    for (int i = 0; i < n; i++)
        if (size[i]) {
            ++*clusters;
            *largest = size[i] > *largest ? size[i] : *largest;
        }
}

TEST(grid_metrics_match_brute_force_on_2000_random_boids)
{
    enum { N = 2000 };
    const double W = 1800, H = 1500, R = 40;
    for (int run = 0; run < 6; run++) {
        int b = run % 3, ticks = run < 3 ? 0 : 40;  /* uniform, then some structure */
        mur_params p = mur_preset_find("wrkspc")->params;
        p.count = N;
        p.width = W;
        p.height = H;
        p.boundary = (mur_boundary)b;
        p.cohesion_radius = R;
        mur_flock *f = NULL;
        mur_error err;
        REQUIRE(mur_flock_create(&f, &p, 42 + (uint64_t)b, &err) == 0, "%s", err.msg);
        for (int t = 0; t < ticks; t++)
            mur_flock_step(f);
        int *parent = malloc(N * sizeof(int)), *count = malloc(N * sizeof(int)), *size = calloc(N, sizeof(int));
        REQUIRE(parent && count && size, "memory");
        double near_sum = brute_force(f, R, parent, count);
        long pairs;
        int clusters, largest;
        tally(N, parent, count, size, &pairs, &clusters, &largest);
        mur_metrics_ctx *ctx = mur_metrics_ctx_create();
        mur_metrics m;
        REQUIRE(ctx && mur_metrics_compute(ctx, f, &m) == 0, "compute");
        const int *label = mur_metrics_cluster_of(ctx);
        int bad_label = -1;
        for (int i = N - 1; i >= 0; i--)
            if (label[i] != root(parent, i))   /* a cluster's label: its smallest member */
                bad_label = i;
        CHECK(bad_label < 0, "boundary %d tick %d: boid %d labelled %d, brute %d", b, ticks, bad_label,
              bad_label < 0 ? 0 : label[bad_label], bad_label < 0 ? 0 : root(parent, bad_label));
        mur_metrics_ctx_destroy(ctx);
        REQUIRE(clusters > 20 && largest > 5,
                "boundary %d tick %d: %d clusters, largest %d: too uniform a test", b, ticks,
                clusters, largest);
        CHECK(fabs(m.nearest - near_sum / N) < 1e-9,
              "boundary %d tick %d: nearest %.15g, brute %.15g", b, ticks, m.nearest,
              near_sum / N);
        CHECK(m.neighbours == (double)pairs / N,
              "boundary %d tick %d: neighbours %.15g, brute %.15g", b, ticks, m.neighbours,
              (double)pairs / N);
        CHECK(m.clusters == clusters, "boundary %d tick %d: %d clusters, brute %d", b, ticks,
              m.clusters, clusters);
        CHECK(m.largest == (double)largest / N, "boundary %d tick %d: largest %.15g, brute %.15g",
              b, ticks, m.largest, (double)largest / N);
        CHECK(fabs(m.order - mur_metrics_order(N, mur_flock_vx(f), mur_flock_vy(f))) < 1e-15,
              "order differs from mur_metrics_order");
        CHECK(m.milling >= 0 && m.milling <= 1, "milling %.3g outside [0, 1]", m.milling);
        free(parent);
        free(size);
        free(count);
        mur_flock_destroy(f);
    }
}

/* Each pair is measured once, from one of its two cells (metrics.c): every
 * boid's neighbour count and cluster label, and the mean nearest distance,
 * against the O(N^2) answer, in worlds from one cell wide to many, so the
 * grids whose neighbour cells wrap onto one another (1 to 3 cells on an
 * axis) are covered, with and without wrap. */
TEST(each_boids_neighbours_and_cluster_match_brute_force_on_narrow_grids)
{
    enum { N = 400 };
    const double R = 40;
    const double sizes[][2] = {{30, 30}, {70, 50}, {100, 130}, {125, 170}, {170, 90}, {420, 95}, {900, 700}};
    for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++)
        for (int b = 0; b < 3; b++) {
            mur_params p = mur_preset_find("wrkspc")->params;
            p.count = N;
            p.width = sizes[s][0];
            p.height = sizes[s][1];
            p.boundary = (mur_boundary)b;
            p.cohesion_radius = R;
            mur_flock *f = NULL;
            mur_error err;
            REQUIRE(mur_flock_create(&f, &p, 7 + (uint64_t)s, &err) == 0, "%s", err.msg);
            for (int t = 0; t < 10; t++)
                mur_flock_step(f);
            int *parent = malloc(N * sizeof(int)), *count = malloc(N * sizeof(int));
            REQUIRE(parent && count, "memory");
            double near_sum = brute_force(f, R, parent, count);
            mur_metrics_ctx *ctx = mur_metrics_ctx_create();
            mur_metrics m;
            REQUIRE(ctx && mur_metrics_compute(ctx, f, &m) == 0, "compute");
            const int *label = mur_metrics_cluster_of(ctx), *k = mur_metrics_neighbour_counts(ctx);
            int bad_count = -1, bad_label = -1;
            for (int i = N - 1; i >= 0; i--) {
                if (k[i] != count[i])
                    bad_count = i;
                if (label[i] != root(parent, i))   /* a cluster's label: its smallest member */
                    bad_label = i;
            }
            CHECK(bad_count < 0, "%gx%g boundary %d: boid %d has %d neighbours, brute %d", p.width, p.height, b,
                  bad_count, bad_count < 0 ? 0 : k[bad_count], bad_count < 0 ? 0 : count[bad_count]);
            CHECK(bad_label < 0, "%gx%g boundary %d: boid %d labelled %d, brute %d", p.width, p.height, b,
                  bad_label, bad_label < 0 ? 0 : label[bad_label], bad_label < 0 ? 0 : root(parent, bad_label));
            CHECK(m.nearest == near_sum / N, "%gx%g boundary %d: nearest %.17g, brute %.17g", p.width, p.height,
                  b, m.nearest, near_sum / N);
            mur_metrics_ctx_destroy(ctx);
            free(parent);
            free(count);
            mur_flock_destroy(f);
        }
}

TEST(metric_names_and_values_agree)
{
    mur_metrics m = {0.1, 2, 3, 4, 0.5, 0.6, 0.7, 8, 9, 10, 11, 12, 0.13, 0.14, 15, 16, 17, 0.18, 19, 20, 0.21, 22, 23};
    for (int k = 0; k < MUR_METRIC_COUNT; k++)
        CHECK(mur_metric_find(mur_metric_name(k)) == k, "name %s not found at %d",
              mur_metric_name(k), k);
    CHECK(mur_metrics_value(&m, mur_metric_find("clusters")) == 4, "clusters value");
    CHECK(mur_metrics_value(&m, mur_metric_find("milling")) == 0.6, "milling value");
    CHECK(mur_metrics_value(&m, mur_metric_find("thickness")) == 10 && mur_metrics_value(&m, mur_metric_find("width")) == 11 &&
              mur_metrics_value(&m, mur_metric_find("length")) == 12,
          "the extents' values");
    CHECK(mur_metrics_value(&m, mur_metric_find("thin_gravity")) == 0.13 &&
              mur_metrics_value(&m, mur_metric_find("thin_heading")) == 0.14,
          "the thin axis's values");
    const char *topo[] = {"nearest_border", "nearest_core", "nearest_ratio", "anisotropy", "anisotropy_n",
                          "roll_mean", "roll_steep"};
    double want[] = {15, 16, 17, 0.18, 19, 20, 0.21};
    for (int k = 0; k < 7; k++)
        CHECK(mur_metric_find(topo[k]) == MUR_METRIC_THIN_HEADING + 1 + k &&
                  mur_metrics_value(&m, mur_metric_find(topo[k])) == want[k],
              "%s's place and value", topo[k]);
    CHECK(mur_metrics_value(&m, mur_metric_find("wave_speed")) == 22 &&
              mur_metrics_value(&m, mur_metric_find("wave_birds")) == 23,
          "the wave's values");
    CHECK(mur_metric_find("nope") == -1, "unknown name found");
}

TEST(lone_boids_do_not_mill)
{
    /* Boids far apart, at awkward positions under wrap where the circular
     * mean gives back each position with rounding: every cluster is a
     * single boid, so there is no rotation at all. */
    double x[4] = {0.1, 123.456789, 333.333333, 240.0001}, y[4] = {0.3, 77.7777, 250.123, 160.0003};
    double vx[4] = {1, 0, -1, 0.6}, vy[4] = {0, 1, 0, -0.8};
    mur_flock *f = flock_of(4, x, y, vx, vy, 480, 320, MUR_BOUNDARY_WRAP, 10);
    mur_metrics m = metrics_of(f);
    CHECK(m.clusters == 4, "clusters %d", m.clusters);
    CHECK(m.milling == 0, "milling of lone boids %.17g, want 0", m.milling);
    mur_flock_destroy(f);
}

/* rotation about the group's centre: a lone boid is the centre, and under
 * wrap the circular mean gives its place back only to rounding, whose
 * direction made one boid read anything from 0 to 1. A boid within a
 * billionth of the world's size of the centre turns about nothing. */
TEST(a_lone_boid_or_one_at_the_centre_does_not_rotate)
{
    static const double at[][2] = {{0.1, 0.3}, {123.456789, 77.7777}, {333.333333, 250.123}, {240.0001, 160.0003},
                                   {479.9, 319.9}, {17.17, 301.3}};
    for (size_t k = 0; k < sizeof at / sizeof *at; k++)
        for (int b = 0; b < 2; b++) {
            double x = at[k][0], y = at[k][1], vx = 0.6, vy = -0.8;
            mur_flock *f = flock_of(1, &x, &y, &vx, &vy, 480, 320, b ? MUR_BOUNDARY_OPEN : MUR_BOUNDARY_WRAP, 10);
            mur_metrics m = metrics_of(f);
            CHECK(m.rotation == 0, "a lone boid at (%g, %g), %s: rotation %.17g, want 0", x, y, b ? "open" : "wrap",
                  m.rotation);
            mur_flock_destroy(f);
        }
    /* three in a line, the middle one on the centre: only the outer two turn (about it, the same way) */
    double x[3] = {123.456789, 133.456789, 143.456789}, y[3] = {77.7777, 77.7777, 77.7777};
    double vx[3] = {0, 1, 0}, vy[3] = {-1, 0, 1};
    mur_flock *f = flock_of(3, x, y, vx, vy, 480, 320, MUR_BOUNDARY_WRAP, 50);
    mur_metrics m = metrics_of(f);
    CHECK(fabs(m.rotation - 2.0 / 3) < 1e-9, "two of three turning, one at the centre: rotation %.17g, want 2/3",
          m.rotation);
    mur_flock_destroy(f);
}

/* ---- percentiles and the state label ------------------------------------- */

TEST(percentiles_interpolate_between_closest_ranks)
{
    /* Hand-computed, h = (n - 1) p / 100:
     * {1,2,3,4}: p50 h=1.5 -> 2.5; p10 h=0.3 -> 1.3; p90 h=2.7 -> 3.7.
     * {1,3,10,20,100}: p50 -> 10; p10 h=0.4 -> 1 + 0.4*2 = 1.8;
     *                  p90 h=3.6 -> 20 + 0.6*80 = 68; p25 h=1 -> 3. */
    const double a[4] = {1, 2, 3, 4}, b[5] = {1, 3, 10, 20, 100}, one[1] = {7};
    struct { const double *x; int n; double p, want; } cases[] = {
        {a, 4, 50, 2.5}, {a, 4, 10, 1.3}, {a, 4, 90, 3.7}, {a, 4, 0, 1}, {a, 4, 100, 4},
        {b, 5, 50, 10}, {b, 5, 10, 1.8}, {b, 5, 90, 68}, {b, 5, 25, 3}, {b, 5, 75, 20},
        {one, 1, 10, 7}, {one, 1, 90, 7},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double got = mur_percentile(cases[i].x, cases[i].n, cases[i].p);
        CHECK(fabs(got - cases[i].want) < 1e-12, "case %zu: p%g of %d values = %.17g, want %g", i,
              cases[i].p, cases[i].n, got, cases[i].want);
    }
    double v[5] = {100, 1, 20, 3, 10};  /* unsorted: the summary sorts */
    mur_summary s;
    mur_summary_compute(&s, v, 5);
    CHECK(s.n == 5 && fabs(s.median - 10) < 1e-12 && fabs(s.p10 - 1.8) < 1e-12 &&
              fabs(s.p90 - 68) < 1e-12 && fabs(s.mean - 26.8) < 1e-12,
          "summary %g %g %g %g (want 10 1.8 68 26.8)", s.median, s.p10, s.p90, s.mean);
    double w[3] = {1, NAN, 2};
    mur_summary_compute(&s, w, 3);
    CHECK(isnan(s.median) && isnan(s.p10) && isnan(s.p90) && isnan(s.mean), "a NaN must not pass for a number");
}

TEST(state_label_follows_tunstrom_thresholds)
{
    struct { double order, milling; mur_state want; } cases[] = {
        {0.90, 0.10, MUR_STATE_POLARIZED}, {0.66, 0.34, MUR_STATE_POLARIZED},
        {0.10, 0.90, MUR_STATE_MILLING},   {0.34, 0.66, MUR_STATE_MILLING},
        {0.10, 0.10, MUR_STATE_SWARM},     {0.34, 0.34, MUR_STATE_SWARM},
        {0.65, 0.10, MUR_STATE_TRANSITION}, /* thresholds are strict */
        {0.90, 0.35, MUR_STATE_TRANSITION}, {0.35, 0.10, MUR_STATE_TRANSITION},
        {0.50, 0.50, MUR_STATE_TRANSITION}, {0.90, 0.90, MUR_STATE_TRANSITION},
        {NAN, 0.10, MUR_STATE_TRANSITION},  {0.10, NAN, MUR_STATE_TRANSITION},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mur_state got = mur_state_classify(cases[i].order, cases[i].milling);
        CHECK(got == cases[i].want, "order %g milling %g: %s, want %s", cases[i].order, cases[i].milling,
              mur_state_name(got), mur_state_name(cases[i].want));
    }
    CHECK(!strcmp(mur_state_name(MUR_STATE_SWARM), "swarm") &&
              !strcmp(mur_state_name(MUR_STATE_MILLING), "milling") &&
              !strcmp(mur_state_name(MUR_STATE_POLARIZED), "polarized") &&
              !strcmp(mur_state_name(MUR_STATE_TRANSITION), "transition"),
          "state names");
}

/* Computing some metrics gives exactly those of computing all, and NaN for
 * the rest (a trace asks only for its observables). */
TEST(some_metrics_are_those_of_all_and_the_rest_nan)
{
    mur_params p = mur_preset_find("wrkspc")->params;
    p.count = 300;
    mur_flock *f = NULL;
    mur_error err;
    REQUIRE(mur_flock_create(&f, &p, 9, &err) == 0, "%s", err.msg);
    for (int t = 0; t < 60; t++)
        mur_flock_step(f);
    mur_metrics_ctx *ctx = mur_metrics_ctx_create();
    mur_metrics all, order, nearest, clusters;
    REQUIRE(ctx && mur_metrics_compute(ctx, f, &all) == 0, "compute");
    CHECK(mur_metrics_compute_some(ctx, f, 1u << 0, &order) == 0 && order.order == all.order &&
              isnan(order.nearest) && isnan(order.milling),
          "order alone");
    CHECK(mur_metrics_compute_some(ctx, f, 1u << 1, &nearest) == 0 && nearest.nearest == all.nearest &&
              nearest.clusters == -1 && isnan(nearest.milling),
          "nearest alone");
    CHECK(mur_metrics_compute_some(ctx, f, 1u << 5, &clusters) == 0 && clusters.milling == all.milling &&
              clusters.clusters == all.clusters && clusters.largest == all.largest && isnan(clusters.nearest),
          "milling and what it rests on");
    /* the readout's nearest and clusters: the clusters without the
     * milling's centres, and each boid's cluster as computing all gives */
    int *labels = malloc(300 * sizeof *labels);
    REQUIRE(labels, "memory");
    memcpy(labels, mur_metrics_cluster_of(ctx), 300 * sizeof *labels);
    mur_metrics readout;
    unsigned want = 1u << MUR_METRIC_NEAREST | 1u << MUR_METRIC_CLUSTERS;
    CHECK(mur_metrics_compute_some(ctx, f, want, &readout) == 0 && readout.nearest == all.nearest &&
              readout.clusters == all.clusters && readout.largest == all.largest &&
              readout.neighbours == all.neighbours && isnan(readout.milling),
          "nearest and clusters");
    CHECK(memcmp(labels, mur_metrics_cluster_of(ctx), 300 * sizeof *labels) == 0,
          "the clusters' labels differ from those of all the metrics");
    free(labels);
    mur_metrics_ctx_destroy(ctx);
    mur_flock_destroy(f);
}

/* An open world has no box to hold the boids: the measuring grid spans the
 * group wherever it flew. A clumpy group of 3,000 boids far off the world's
 * box (which would crowd them into one edge cell of a grid over it) gives
 * the brute force's nearest distances, neighbours and clusters. */
TEST(metrics_of_a_group_far_off_an_open_worlds_box_match_brute_force)
{
    enum { N = 3000 };
    const double R = 40;
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y), *vx = malloc(N * sizeof *vx),
           *vy = malloc(N * sizeof *vy);
    int *parent = malloc(N * sizeof(int)), *count = malloc(N * sizeof(int)), *size = calloc(N, sizeof(int));
    REQUIRE(x && y && vx && vy && parent && count && size, "memory");
    uint64_t s = 12345;
    for (int i = 0; i < N; i++) {   /* 30 clumps of 100 around (25,000, -9,000) */
        double u = (double)((s = s * 6364136223846793005ULL + 1442695040888963407ULL) >> 11) / 9007199254740992.0;
        double v = (double)((s = s * 6364136223846793005ULL + 1442695040888963407ULL) >> 11) / 9007199254740992.0;
        int c = i / 100;
        x[i] = 25000 + 400 * (c % 6) + 60 * u;
        y[i] = -9000 + 400 * (c / 6) + 60 * v;
        vx[i] = cos(6 * u + v);
        vy[i] = sin(6 * u + v);
    }
    mur_flock *f = flock_of(N, x, y, vx, vy, 640, 480, MUR_BOUNDARY_OPEN, R);
    double near_sum = brute_force(f, R, parent, count);
    long pairs;
    int clusters, largest;
    tally(N, parent, count, size, &pairs, &clusters, &largest);
    mur_metrics m = metrics_of(f);
    CHECK(fabs(m.nearest - near_sum / N) < 1e-9, "nearest %.15g, brute %.15g", m.nearest, near_sum / N);
    CHECK(m.neighbours == (double)pairs / N, "neighbours %.15g, brute %.15g", m.neighbours, (double)pairs / N);
    CHECK(m.clusters == clusters && clusters >= 30, "%d clusters, brute %d", m.clusters, clusters);
    CHECK(m.largest == (double)largest / N, "largest %.15g, brute %.15g", m.largest, (double)largest / N);
    mur_flock_destroy(f);
    free(x), free(y), free(vx), free(vy), free(parent), free(count), free(size);
}
