/* The topological measures of docs/model.md ("Border and core",
 * "Anisotropy", "Roll") on hand-built configurations whose answers are
 * known: a lattice with tangent twins on its surface (border and core r1),
 * lattices stretched along and across the heading (gamma(1) near 1 and 0)
 * and isotropic random clouds (gamma near 1/D on average), a curve's n_c,
 * the starling's roll against its definition, and correlation_length in
 * 3D past 10 R. A core test. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "murmur/flock.h"
#include "murmur/metrics.h"
#include "murmur/presets.h"
#include "murmur/rng.h"

#define PI 3.14159265358979323846
#define MAXN 4096

typedef struct {
    int n;
    double x[MAXN], y[MAXN], z[MAXN], vx[MAXN], vy[MAXN], vz[MAXN];
} cloud;

static mur_flock *flock_of(const cloud *c, int dims, mur_boundary b, double side)
{
    mur_params p = mur_preset_find("wrkspc")->params;
    p.count = c->n;
    p.dimensions = dims;
    p.width = p.height = side;
    p.depth = side;
    p.boundary = b;
    mur_flock *f = NULL;
    mur_error err;
    int rc = mur_flock_create(&f, &p, 1, &err);
    if (!rc)
        rc = dims == 3 ? mur_flock_set_state3(f, c->n, c->x, c->y, c->z, c->vx, c->vy, c->vz, &err)
                       : mur_flock_set_state(f, c->n, c->x, c->y, c->vx, c->vy, &err);
    if (rc) {
        fprintf(stderr, "flock_of: %s\n", err.msg);
        abort();
    }
    return f;
}

static mur_metrics measure(const mur_flock *f)
{
    mur_metrics m;
    mur_metrics_ctx *ctx = mur_metrics_ctx_create();
    if (!ctx || mur_metrics_compute(ctx, f, &m))
        abort();
    mur_metrics_ctx_destroy(ctx);
    return m;
}

static void put(cloud *c, double x, double y, double z)
{
    c->x[c->n] = x;
    c->y[c->n] = y;
    c->z[c->n] = z;
    c->vx[c->n] = 1;
    c->vy[c->n] = c->vz[c->n] = 0;
    c->n++;
}

/* An L^D lattice of spacing 1 at 10 + index; with twins, each surface bird
 * that has an axis along which it is not at an end gets a twin 0.25 along
 * the first such axis (inside its face or edge: still on the surface). */
static void lattice(cloud *c, int L, int dims, int twins)
{
    c->n = 0;
    for (int k = 0; k < (dims == 3 ? L : 1); k++)
        for (int j = 0; j < L; j++)
            for (int i = 0; i < L; i++) {
                int q[3] = {i, j, k}, end = 0, free_axis = -1;
                for (int a = 0; a < dims; a++) {
                    int e = q[a] == 0 || q[a] == L - 1;
                    end |= e;
                    if (!e && free_axis < 0)
                        free_axis = a;
                }
                put(c, 10 + i, 10 + j, dims == 3 ? 10 + k : 0);
                if (twins && end && free_axis >= 0)
                    put(c, 10 + i + 0.25 * (free_axis == 0), 10 + j + 0.25 * (free_axis == 1),
                        dims == 3 ? 10 + k + 0.25 * (free_axis == 2) : 0);
            }
}

TEST(a_lattice_has_border_and_core_as_its_surface_and_its_inside)
{
    for (int dims = 2; dims <= 3; dims++) {
        int L = dims == 3 ? 8 : 10;
        cloud *c = calloc(1, sizeof *c);
        lattice(c, L, dims, 0);
        mur_flock *f = flock_of(c, dims, MUR_BOUNDARY_OPEN, 100);
        mur_metrics m = measure(f);
        CHECK(fabs(m.nearest_border - 1) < 1e-12 && fabs(m.nearest_core - 1) < 1e-12 &&
                  fabs(m.nearest_ratio - 1) < 1e-12,
              "%dD lattice: border %g, core %g, ratio %g (all 1)", dims, m.nearest_border, m.nearest_core,
              m.nearest_ratio);
        mur_flock_destroy(f);
        /* twins 0.25 apart on the surface: the border's r1 falls, the core's stays 1.
         * 3D, L = 8: 296 surface birds, 288 of them (all but the 8 corners) with a
         * twin; 576 birds at 0.25, the corners 0.75 from an edge bird's twin (its
         * twin steps toward them), but the corner at the origin, 1 (they step away).
         * 2D, L = 10: 36 and 32; 64 at 0.25, 3 corners at 0.75 and one at 1. */
        lattice(c, L, dims, 1);
        f = flock_of(c, dims, MUR_BOUNDARY_OPEN, 100);
        m = measure(f);
        double want = dims == 3 ? (576 * 0.25 + 7 * 0.75 + 1) / 584 : (64 * 0.25 + 3 * 0.75 + 1) / 68;
        CHECK(fabs(m.nearest_border - want) < 1e-12, "%dD twins: border r1 %.15g, want %.15g", dims,
              m.nearest_border, want);
        CHECK(fabs(m.nearest_core - 1) < 1e-12, "%dD twins: core r1 %.15g, want 1", dims, m.nearest_core);
        CHECK(fabs(m.nearest_ratio - want) < 1e-12, "%dD twins: ratio %g", dims, m.nearest_ratio);
        mur_flock_destroy(f);
        free(c);
    }
}

TEST(border_and_core_are_undefined_without_birds_or_a_core)
{
    cloud *c = calloc(1, sizeof *c);
    put(c, 1, 1, 1);
    mur_flock *f = flock_of(c, 3, MUR_BOUNDARY_OPEN, 100);
    mur_metrics m = measure(f);
    CHECK(isnan(m.nearest_border) && isnan(m.nearest_core) && isnan(m.anisotropy) && isnan(m.anisotropy_n),
          "one bird: all NaN");
    mur_flock_destroy(f);
    c->n = 0;
    for (int i = 0; i < 5; i++)   /* a line: every bird on the border */
        put(c, 10 + i, 10, 10);
    f = flock_of(c, 3, MUR_BOUNDARY_OPEN, 100);
    m = measure(f);
    CHECK(fabs(m.nearest_border - 1) < 1e-12 && isnan(m.nearest_core) && isnan(m.nearest_ratio),
          "a line: border %g, core %g", m.nearest_border, m.nearest_core);
    CHECK(isnan(m.roll_mean) && isnan(m.roll_steep), "no body frames: no roll");
    mur_flock_destroy(f);
    free(c);
}

/* A 3D (2D) lattice of spacings sx along the heading (x), 1 across,
 * jittered by 0.02 so the four (two) first neighbours across are not tied. */
static void stretched(cloud *c, int dims, double sx, uint64_t seed)
{
    mur_rng r;
    mur_rng_seed(&r, seed);
    c->n = 0;
    int L = dims == 3 ? 12 : 40;
    for (int k = 0; k < (dims == 3 ? L : 1); k++)
        for (int j = 0; j < L; j++)
            for (int i = 0; i < L; i++)
                put(c, 10 + sx * i + 0.02 * (mur_rng_uniform(&r) - 0.5), 10 + j + 0.02 * (mur_rng_uniform(&r) - 0.5),
                    dims == 3 ? 10 + k + 0.02 * (mur_rng_uniform(&r) - 0.5) : 0);
}

TEST(gamma_is_near_one_stretched_along_the_heading_and_near_zero_across)
{
    for (int dims = 2; dims <= 3; dims++) {
        cloud *c = calloc(1, sizeof *c);
        stretched(c, dims, 2, 7);   /* sparse along the heading: W(1) is the heading */
        mur_flock *f = flock_of(c, dims, MUR_BOUNDARY_OPEN, 200);
        mur_metrics m = measure(f);
        CHECK(m.anisotropy > 0.95, "%dD, spaced 2 along the heading: gamma(1) %g", dims, m.anisotropy);
        double g[MUR_ANISOTROPY_N];
        mur_metrics_ctx *ctx = mur_metrics_ctx_create();
        REQUIRE(mur_metrics_anisotropy(ctx, f, g) == 0, "the curve");
        CHECK(g[0] == m.anisotropy, "the curve's gamma(1) is the metric's");
        mur_metrics_ctx_destroy(ctx);
        mur_flock_destroy(f);
        stretched(c, dims, 0.5, 7);   /* dense along the heading: W(1) across it */
        f = flock_of(c, dims, MUR_BOUNDARY_OPEN, 200);
        m = measure(f);
        CHECK(m.anisotropy < 0.05, "%dD, spaced 0.5 along the heading: gamma(1) %g", dims, m.anisotropy);
        mur_flock_destroy(f);
        free(c);
    }
}

TEST(gamma_of_isotropic_random_clouds_averages_one_over_d)
{
    for (int dims = 2; dims <= 3; dims++) {
        cloud *c = calloc(1, sizeof *c);
        double sum = 0;
        int runs = 60;
        for (int s = 0; s < runs; s++) {
            mur_rng r;
            mur_rng_seed(&r, 100 + s);
            c->n = 0;
            while (c->n < 600) {   /* uniform in a ball (disc) of radius 10 */
                double p[3] = {0, 0, 0};
                for (int a = 0; a < dims; a++)
                    p[a] = 20 * mur_rng_uniform(&r) - 10;
                if (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] <= 100)
                    put(c, 50 + p[0], 50 + p[1], dims == 3 ? 50 + p[2] : 0);
            }
            mur_flock *f = flock_of(c, dims, MUR_BOUNDARY_OPEN, 100);
            sum += measure(f).anisotropy;
            mur_flock_destroy(f);
        }
        /* each gamma is cos^2 of a random angle: mean 1/D, sd 0.30 (3D), 0.35 (2D) */
        double mean = sum / runs, iso = 1.0 / dims;
        CHECK(fabs(mean - iso) < 0.13, "%dD: mean gamma(1) %g over %d clouds, want %g", dims, mean, runs, iso);
        free(c);
    }
}

TEST(n_c_is_where_gamma_first_reaches_one_over_d)
{
    double g[] = {0.9, 0.7, 0.5, 0.36, 0.2, 0.34};
    double edge = 1.0 / 3 + 0.05, want = 3 + (0.5 - edge) / (0.5 - 0.36);   /* between n = 3 and 4 */
    CHECK(fabs(mur_anisotropy_range(g, 6, 3) - want) < 1e-12, "n_c %.15g, want %.15g",
          mur_anisotropy_range(g, 6, 3), want);
    CHECK(isnan(mur_anisotropy_range(g, 3, 3)), "not yet near 1/3: NaN");
    double jump[] = {0.9, 0.6, 0.05};   /* across the band in one step: its near edge's crossing */
    CHECK(fabs(mur_anisotropy_range(jump, 3, 3) - (2 + (0.6 - edge) / 0.55)) < 1e-12, "a jump");
    double iso[] = {0.35, 0.9};
    CHECK(mur_anisotropy_range(iso, 2, 3) == 1, "near at n = 1: 1");
    double low[] = {0.0, 0.1, 0.3};   /* from below: the edge 1/3 - 0.05 */
    CHECK(fabs(mur_anisotropy_range(low, 3, 3) - (2 + (1.0 / 3 - 0.05 - 0.1) / 0.2)) < 1e-12, "from below");
    double flat[] = {0.9, 0.52};
    CHECK(fabs(mur_anisotropy_range(flat, 2, 2) - (1 + (0.9 - 0.55) / (0.9 - 0.52))) < 1e-12, "2D: near 1/2");
}

TEST(the_starlings_roll_is_the_up_vectors_turn_from_level)
{
    mur_params p = mur_preset_find("starling")->params;
    p.count = 300;
    mur_flock *f = NULL;
    mur_error err;
    REQUIRE(mur_flock_create(&f, &p, 5, &err) == 0, "starling flock");
    mur_metrics m = measure(f);
    CHECK(m.roll_mean < 1e-9 && m.roll_steep == 0, "level at the start: %g, %g", m.roll_mean, m.roll_steep);
    for (int t = 0; t < 3000; t++)
        mur_flock_step(f);
    m = measure(f);
    int n = mur_flock_count(f);
    const double *up = mur_flock_up(f), *vx = mur_flock_vx(f), *vy = mur_flock_vy(f), *vz = mur_flock_vz(f);
    double *roll = malloc((size_t)n * sizeof *roll), sum = 0;
    int steep = 0;
    mur_metrics_ctx *ctx = mur_metrics_ctx_create();
    REQUIRE(mur_metrics_per_boid(ctx, f, mur_boid_quantity_find("roll"), roll) == 0, "per-boid roll");
    for (int i = 0; i < n; i++) {
        /* |roll| = the angle between u and the world's up made normal to the heading */
        double v = sqrt(vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]), fz = vz[i] / v;
        double hu[3] = {-fz * vx[i] / v, -fz * vy[i] / v, 1 - fz * fz}, l = sqrt(1 - fz * fz);
        double c = (up[3 * i] * hu[0] + up[3 * i + 1] * hu[1] + up[3 * i + 2] * hu[2]) / l;
        double deg = acos(fmax(-1, fmin(1, c))) * 180 / PI;
        CHECK(fabs(roll[i] - deg) < 1e-6, "bird %d: roll %g, want %g", i, roll[i], deg);
        sum += deg;
        steep += deg > 45;
    }
    CHECK(m.roll_mean > 0.1 && fabs(m.roll_mean - sum / n) < 1e-6, "roll_mean %g, want %g", m.roll_mean, sum / n);
    CHECK(fabs(m.roll_steep - (double)steep / n) < 1e-12, "roll_steep %g", m.roll_steep);
    mur_metrics_ctx_destroy(ctx);
    free(roll);
    mur_flock_destroy(f);
}

TEST(correlation_length_in_3d_reaches_past_ten_measuring_radii)
{
    /* 800 birds in a 120 x 20 x 20 m slab, fluctuations u = (x - 60) / 60 along
     * x: C(r) is positive out past r ~ 40 m, beyond 10 R (R = 4 m, the starling's) */
    cloud *c = calloc(1, sizeof *c);
    mur_rng r;
    mur_rng_seed(&r, 3);
    for (int i = 0; i < 800; i++) {
        put(c, 40 + 120 * mur_rng_uniform(&r), 40 + 20 * mur_rng_uniform(&r), 40 + 20 * mur_rng_uniform(&r));
        c->vx[i] = 10 + (c->x[i] - 100) / 60;
    }
    mur_params p = mur_preset_find("wrkspc")->params;
    p.count = c->n;
    p.dimensions = 3;
    p.width = p.height = p.depth = 200;
    p.boundary = MUR_BOUNDARY_OPEN;
    p.cohesion_radius = 4;
    mur_flock *f = NULL;
    mur_error err;
    REQUIRE(mur_flock_create(&f, &p, 1, &err) == 0 &&
                mur_flock_set_state3(f, c->n, c->x, c->y, c->z, c->vx, c->vy, c->vz, &err) == 0,
            "the slab");
    mur_metrics_ctx *ctx = mur_metrics_ctx_create();
    double cr[4096];
    REQUIRE(mur_metrics_correlation(ctx, f, 1, 40, cr, NULL) == 0, "C(r) to 10 R");
    CHECK(isnan(mur_correlation_zero(cr, 40, 1)), "no zero within 10 R (the case being tested)");
    REQUIRE(mur_metrics_correlation(ctx, f, 1, 200, cr, NULL) == 0, "C(r) to 200 m");
    double want = mur_correlation_zero(cr, 200, 1);
    mur_metrics m = measure(f);
    CHECK(isfinite(m.correlation_length) && m.correlation_length > 40 && fabs(m.correlation_length - want) < 1e-9,
          "correlation_length %g, want %g (every pair)", m.correlation_length, want);
    mur_metrics_ctx_destroy(ctx);
    mur_flock_destroy(f);
    free(c);
}

TEST(topological_measures_do_not_move_with_the_seam)
{
    /* a gas filling a wrapped box, then the same shifted across the seam */
    cloud *c = calloc(1, sizeof *c), *d = calloc(1, sizeof *d);
    mur_rng r;
    mur_rng_seed(&r, 11);
    for (int i = 0; i < 1500; i++)
        put(c, 30 * mur_rng_uniform(&r), 30 * mur_rng_uniform(&r), 30 * mur_rng_uniform(&r));
    *d = *c;
    for (int i = 0; i < d->n; i++) {
        d->x[i] = fmod(d->x[i] + 11.3, 30);
        d->y[i] = fmod(d->y[i] + 4.1, 30);
        d->z[i] = fmod(d->z[i] + 23.9, 30);
    }
    mur_flock *f = flock_of(c, 3, MUR_BOUNDARY_WRAP, 30), *g = flock_of(d, 3, MUR_BOUNDARY_WRAP, 30);
    mur_metrics a = measure(f), b = measure(g);
    /* no edge: at most the chance few whose 16 neighbours lie on one side (0.4%) */
    CHECK(isnan(a.nearest_border) || fabs(a.nearest_border - b.nearest_border) < 1e-9,
          "border r1 %g, shifted %g", a.nearest_border, b.nearest_border);
    CHECK(fabs(a.nearest_core - b.nearest_core) < 1e-9 && fabs(a.nearest_core - a.nearest) < 0.02 * a.nearest,
          "core r1 %g, shifted %g, every bird's %g", a.nearest_core, b.nearest_core, a.nearest);
    CHECK(fabs(a.anisotropy - b.anisotropy) < 1e-6, "gamma(1) %g, shifted %g", a.anisotropy, b.anisotropy);
    mur_flock_destroy(f);
    mur_flock_destroy(g);
    free(c);
    free(d);
}

/* The mean order over the last 1,000 of 3,000 ticks (a sample every 100) of
 * the preset's flock with the given neighbours, dimensions and overrides. */
static double held_order(int dims, mur_neighbours kind, double alignment, double max_force)
{
    mur_params p = mur_preset_find("topological")->params;
    p.dimensions = dims;
    p.depth = 200;
    p.neighbours = kind;
    if (alignment > 0) {
        p.alignment = alignment;
        p.max_force = max_force;
    }
    mur_flock *f = NULL;
    mur_error err;
    if (mur_flock_create(&f, &p, 1, &err))
        abort();
    double sum = 0;
    int samples = 0;
    for (int t = 1; t <= 3000; t++) {
        mur_flock_step(f);
        if (t >= 2000 && t % 100 == 0) {
            sum += mur_metrics_order_of(f);
            samples++;
        }
    }
    mur_flock_destroy(f);
    return sum / samples;
}

TEST(the_topological_preset_is_as_ordered_as_the_metric_one)
{
    for (int dims = 2; dims <= 3; dims++) {
        double topo = held_order(dims, MUR_NEIGHBOURS_TOPOLOGICAL, 0, 0);
        double metric = held_order(dims, MUR_NEIGHBOURS_METRIC, 0, 0);
        CHECK(topo > 0.95 && topo > metric - 0.03, "%dD: order %g on the 7 nearest, %g metric", dims, topo, metric);
    }
    /* wrkspc's alignment 1 and max_force 0.06, as the preset had them: disordered in 3D */
    double old = held_order(3, MUR_NEIGHBOURS_TOPOLOGICAL, 1.0, 0.06);
    CHECK(old < 0.92, "3D with wrkspc's values: order %g (measured 0.848)", old);
}
