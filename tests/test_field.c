/* The field's measures (docs/model.md "Measures of the field"): rotation,
 * C(r) and its correlation length, elongation, and the per-boid quantities,
 * each against a brute-force computation written out here from the
 * definitions, on random and on formed flocks, with and without wrap; and
 * on hand-built groups whose answers are known. A core test. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "murmur/flock.h"
#include "murmur/metrics.h"
#include "murmur/presets.h"

#define PI 3.14159265358979323846

/* ---- brute force, from the definitions ------------------------------------ */

/* The offset a -> b on an axis of size w, nearest image when wrapping. */
static double image(double a, double b, int wrap, double w)
{
    double d = b - a;
    if (wrap)
        d -= w * round(d / w);
    return d;
}

/* The group's centre: mean angle per axis under wrap, mean else. */
static void centre(const mur_flock *f, double *cx, double *cy)
{
    const mur_params *p = mur_flock_params(f);
    int n = mur_flock_count(f), wrap = p->boundary == MUR_BOUNDARY_WRAP;
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    double a = 0, b = 0, c = 0, d = 0;
    for (int i = 0; i < n; i++) {
        if (wrap) {
            a += sin(2 * PI * x[i] / p->width);
            b += cos(2 * PI * x[i] / p->width);
            c += sin(2 * PI * y[i] / p->height);
            d += cos(2 * PI * y[i] / p->height);
        } else {
            a += x[i];
            c += y[i];
        }
    }
    if (wrap) {
        double ax = atan2(a, b), ay = atan2(c, d);
        *cx = (ax < 0 ? ax + 2 * PI : ax) * p->width / (2 * PI);
        *cy = (ay < 0 ? ay + 2 * PI : ay) * p->height / (2 * PI);
    } else {
        *cx = a / n;
        *cy = c / n;
    }
}

static double brute_rotation(const mur_flock *f)
{
    const mur_params *p = mur_flock_params(f);
    int n = mur_flock_count(f), wrap = p->boundary == MUR_BOUNDARY_WRAP;
    double cx, cy, sum = 0;
    centre(f, &cx, &cy);
    for (int i = 0; i < n; i++) {
        double dx = image(cx, mur_flock_x(f)[i], wrap, p->width), dy = image(cy, mur_flock_y(f)[i], wrap, p->height);
        double vx = mur_flock_vx(f)[i], vy = mur_flock_vy(f)[i];
        double r = hypot(dx, dy), v = hypot(vx, vy);
        if (r > 0 && v > 0)
            sum += (dx / r) * (vy / v) - (dy / r) * (vx / v);
    }
    return fabs(sum) / n;
}

/* sqrt(l_max / l_min) of the covariance, its eigenvalues found by turning
 * the axes until the off-diagonal term is zero (Jacobi), not by the
 * closed form the core uses. */
static double brute_elongation(const mur_flock *f)
{
    const mur_params *p = mur_flock_params(f);
    int n = mur_flock_count(f), wrap = p->boundary == MUR_BOUNDARY_WRAP;
    double cx, cy, mx = 0, my = 0;
    centre(f, &cx, &cy);
    double *dx = malloc(n * sizeof *dx), *dy = malloc(n * sizeof *dy);
    for (int i = 0; i < n; i++) {
        dx[i] = image(cx, mur_flock_x(f)[i], wrap, p->width);
        dy[i] = image(cy, mur_flock_y(f)[i], wrap, p->height);
        mx += dx[i] / n;
        my += dy[i] / n;
    }
    double a = 0, b = 0, c = 0;   /* [[a c] [c b]] */
    for (int i = 0; i < n; i++) {
        a += (dx[i] - mx) * (dx[i] - mx) / n;
        b += (dy[i] - my) * (dy[i] - my) / n;
        c += (dx[i] - mx) * (dy[i] - my) / n;
    }
    free(dx);
    free(dy);
    double th = 0.5 * atan2(2 * c, a - b), co = cos(th), si = sin(th);
    double l1 = co * co * a + 2 * co * si * c + si * si * b, l2 = si * si * a - 2 * co * si * c + co * co * b;
    double big = fmax(l1, l2), small = fmin(l1, l2);
    return sqrt(big / small);
}

/* C(r) over every pair i < j, in nbins bins of width bin. */
static void brute_correlation(const mur_flock *f, double bin, int nbins, double *c, double *pairs)
{
    const mur_params *p = mur_flock_params(f);
    int n = mur_flock_count(f), wrap = p->boundary == MUR_BOUNDARY_WRAP;
    const double *x = mur_flock_x(f), *y = mur_flock_y(f), *vx = mur_flock_vx(f), *vy = mur_flock_vy(f);
    double mvx = 0, mvy = 0, uu = 0;
    for (int i = 0; i < n; i++) {
        mvx += vx[i] / n;
        mvy += vy[i] / n;
    }
    for (int i = 0; i < n; i++)
        uu += ((vx[i] - mvx) * (vx[i] - mvx) + (vy[i] - mvy) * (vy[i] - mvy)) / n;
    double *sum = calloc(nbins, sizeof *sum);
    for (int k = 0; k < nbins; k++)
        pairs[k] = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double r = hypot(image(x[i], x[j], wrap, p->width), image(y[i], y[j], wrap, p->height));
            int k = (int)floor(r / bin);
            if (k >= nbins)
                continue;
            sum[k] += (vx[i] - mvx) * (vx[j] - mvx) + (vy[i] - mvy) * (vy[j] - mvy);
            pairs[k]++;
        }
    for (int k = 0; k < nbins; k++)
        c[k] = pairs[k] > 0 ? sum[k] / pairs[k] / uu : NAN;
    free(sum);
}

/* The first zero crossing, by linear interpolation between the centres of
 * consecutive non-empty bins, from (0, 1). */
static double brute_zero(const double *c, int nbins, double bin)
{
    double r0 = 0, c0 = 1;
    for (int k = 0; k < nbins; k++) {
        if (c[k] != c[k])
            continue;
        double r = (k + 0.5) * bin;
        if (c[k] <= 0)
            return r0 + c0 * (r - r0) / (c0 - c[k]);
        r0 = r;
        c0 = c[k];
    }
    return NAN;
}

/* ---- flocks --------------------------------------------------------------- */

/* wrkspc's flock of n in a W x H world, after `ticks` ticks: random at 0,
 * formed (groups heading together) after a few hundred. */
static mur_flock *flock(int n, double w, double h, mur_boundary b, int ticks, uint64_t seed)
{
    mur_params p = mur_preset_find("wrkspc")->params;
    p.count = n;
    p.width = w;
    p.height = h;
    p.boundary = b;
    mur_flock *f = NULL;
    mur_error err;
    if (mur_flock_create(&f, &p, seed, &err)) {
        fprintf(stderr, "flock: %s\n", err.msg);
        abort();
    }
    for (int t = 0; t < ticks; t++)
        mur_flock_step(f);
    return f;
}

/* A flock holding exactly the given state. */
static mur_flock *state(int n, const double *x, const double *y, const double *vx, const double *vy, double w,
                        double h, mur_boundary b)
{
    mur_params p = mur_preset_find("wrkspc")->params;
    p.width = w;
    p.height = h;
    p.boundary = b;
    p.count = n;
    mur_flock *f = NULL;
    mur_error err;
    if (mur_flock_create(&f, &p, 1, &err) || mur_flock_set_state(f, n, x, y, vx, vy, &err)) {
        fprintf(stderr, "state: %s\n", err.msg);
        abort();
    }
    return f;
}

static int close_to(double a, double b, double tol)
{
    return (isnan(a) && isnan(b)) || a == b || fabs(a - b) <= tol * fmax(1, fabs(b));
}

/* ---- against brute force -------------------------------------------------- */

TEST(field_measures_match_brute_force_on_random_and_formed_flocks)
{
    static const struct {
        int n, ticks;
        mur_boundary b;
    } cases[] = {
        {800, 0, MUR_BOUNDARY_WRAP}, {800, 0, MUR_BOUNDARY_REFLECT},
        {800, 400, MUR_BOUNDARY_WRAP}, {800, 400, MUR_BOUNDARY_REFLECT},
        {1500, 250, MUR_BOUNDARY_WRAP},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mur_flock *f = flock(cases[i].n, 640, 400, cases[i].b, cases[i].ticks, 7 + i);
        mur_metrics_ctx *ctx = mur_metrics_ctx_create();
        mur_metrics m;
        REQUIRE(ctx && mur_metrics_compute(ctx, f, &m) == 0, "compute");
        double rot = brute_rotation(f), el = brute_elongation(f);
        CHECK(close_to(m.rotation, rot, 1e-9), "case %zu: rotation %.17g, brute %.17g", i, m.rotation, rot);
        CHECK(close_to(m.elongation, el, 1e-9), "case %zu: elongation %.17g, brute %.17g", i, m.elongation, el);
        CHECK(m.rotation >= 0 && m.rotation <= 1 && m.elongation >= 1, "case %zu: out of range", i);
        /* the default bins: a quarter of R_coh up to 10 R_coh */
        enum { NB = 40 };
        double R = mur_flock_params(f)->cohesion_radius, bin = R / 4, c[NB], bc[NB], pairs[NB], bp[NB];
        REQUIRE(mur_metrics_correlation(ctx, f, bin, NB, c, pairs) == 0, "correlation");
        brute_correlation(f, bin, NB, bc, bp);
        int bad = -1;
        for (int k = NB - 1; k >= 0; k--)
            if (pairs[k] != bp[k] || !close_to(c[k], bc[k], 1e-9))
                bad = k;
        CHECK(bad < 0, "case %zu: bin %d: C %.17g over %.0f pairs, brute %.17g over %.0f", i, bad,
              bad < 0 ? 0 : c[bad], bad < 0 ? 0 : pairs[bad], bad < 0 ? 0 : bc[bad], bad < 0 ? 0 : bp[bad]);
        double zero = brute_zero(bc, NB, bin);
        CHECK(close_to(m.correlation_length, zero, 1e-9), "case %zu: correlation length %.17g, brute %.17g", i,
              m.correlation_length, zero);
        /* a formed flock is correlated near by: C(r) starts well above 0
         * (its zero may lie beyond 10 R_coh: the next case looks further) */
        if (cases[i].ticks)
            CHECK(c[1] > 0.2, "case %zu: formed flock C(1.5 bin) %.3g", i, c[1]);
        mur_metrics_ctx_destroy(ctx);
        mur_flock_destroy(f);
    }
}

TEST(correlation_over_a_long_range_matches_brute_force_and_crosses_zero)
{
    /* bins out to the whole world (the grid one cell wide): every pair */
    mur_flock *f = flock(600, 300, 200, MUR_BOUNDARY_WRAP, 300, 3);
    mur_metrics_ctx *ctx = mur_metrics_ctx_create();
    enum { NB = 45 };
    double bin = 4, c[NB], bc[NB], pairs[NB], bp[NB], total = 0;
    REQUIRE(ctx && mur_metrics_correlation(ctx, f, bin, NB, c, pairs) == 0, "correlation");
    brute_correlation(f, bin, NB, bc, bp);
    for (int k = 0; k < NB; k++) {
        CHECK(pairs[k] == bp[k] && close_to(c[k], bc[k], 1e-9), "bin %d: %.17g (%.0f), brute %.17g (%.0f)", k, c[k],
              pairs[k], bc[k], bp[k]);
        total += pairs[k];
    }
    CHECK(total == 600.0 * 599 / 2, "every pair within half the diagonal: %.0f", total);
    /* the fluctuations sum to zero, so C cannot stay above zero over every pair */
    CHECK(isfinite(mur_correlation_zero(c, NB, bin)), "no zero crossing over the whole world");
    mur_metrics_ctx_set_correlation(ctx, bin, NB * bin);
    mur_metrics m;
    REQUIRE(mur_metrics_compute_some(ctx, f, 1u << MUR_METRIC_CORRELATION_LENGTH, &m) == 0, "compute");
    CHECK(m.correlation_length == mur_correlation_zero(c, NB, bin), "the metric is the zero of C: %.17g",
          m.correlation_length);
    CHECK(isnan(m.rotation) && isnan(m.elongation) && isnan(m.nearest), "only what was asked for");
    mur_metrics_ctx_destroy(ctx);
    mur_flock_destroy(f);
}

/* ---- known answers -------------------------------------------------------- */

TEST(a_ring_turning_rotates_and_is_round_and_an_ellipse_is_elongated)
{
    enum { N = 90 };
    double x[N], y[N], vx[N], vy[N];
    /* a ring of radius 50 turning anticlockwise, centred on the torus's corner */
    for (int i = 0; i < N; i++) {
        double a = 2 * PI * i / N;
        x[i] = fmod(50 * cos(a) + 400, 400);
        y[i] = fmod(50 * sin(a) + 300, 300);
        vx[i] = -sin(a);
        vy[i] = cos(a);
    }
    mur_flock *f = state(N, x, y, vx, vy, 400, 300, MUR_BOUNDARY_WRAP);
    mur_metrics_ctx *ctx = mur_metrics_ctx_create();
    mur_metrics m;
    REQUIRE(ctx && mur_metrics_compute(ctx, f, &m) == 0, "compute");
    CHECK(fabs(m.rotation - 1) < 1e-9, "a turning ring across the seam: rotation %.17g", m.rotation);
    CHECK(fabs(m.elongation - 1) < 1e-6, "a ring: elongation %.17g", m.elongation);
    mur_flock_destroy(f);
    /* the same ring all heading +x: no rotation; an ellipse 3 : 1 */
    for (int i = 0; i < N; i++) {
        double a = 2 * PI * i / N;
        x[i] = 200 + 90 * cos(a);
        y[i] = 150 + 30 * sin(a);
        vx[i] = 1;
        vy[i] = 0;
    }
    f = state(N, x, y, vx, vy, 400, 300, MUR_BOUNDARY_REFLECT);
    REQUIRE(mur_metrics_compute(ctx, f, &m) == 0, "compute");
    CHECK(fabs(m.elongation - 3) < 1e-9, "an ellipse 90 x 30: elongation %.17g, want 3", m.elongation);
    CHECK(m.rotation < 1e-9, "translating: rotation %.3g", m.rotation);
    /* all one velocity: no fluctuation to correlate */
    CHECK(isnan(m.correlation_length), "no fluctuations: correlation length %.3g", m.correlation_length);
    mur_flock_destroy(f);
    /* a line: infinitely elongated; one boid: round */
    for (int i = 0; i < N; i++) {
        x[i] = 10 + 3 * i;
        y[i] = 150;
    }
    f = state(N, x, y, vx, vy, 400, 300, MUR_BOUNDARY_REFLECT);
    REQUIRE(mur_metrics_compute(ctx, f, &m) == 0, "compute");
    CHECK(isinf(m.elongation), "a line: elongation %.3g", m.elongation);
    mur_flock_destroy(f);
    f = state(1, x, y, vx, vy, 400, 300, MUR_BOUNDARY_REFLECT);
    REQUIRE(mur_metrics_compute(ctx, f, &m) == 0, "compute");
    CHECK(m.elongation == 1 && m.rotation == 0 && isnan(m.correlation_length), "one boid: %.3g %.3g %.3g",
          m.elongation, m.rotation, m.correlation_length);
    mur_flock_destroy(f);
    mur_metrics_ctx_destroy(ctx);
}

TEST(two_halves_heading_apart_correlate_near_and_anticorrelate_far)
{
    /* two blobs, 200 apart, heading +x and -x: u is +-1, C = 1 within a
     * blob and -1 across; the zero is between the blobs' scales */
    enum { N = 100 };
    double x[N], y[N], vx[N], vy[N];
    for (int i = 0; i < N; i++) {
        int h = i < N / 2;
        x[i] = (h ? 100 : 300) + (i % 5) * 2;
        y[i] = 100 + (i / 5 % 10) * 2;
        vx[i] = h ? 1 : -1;
        vy[i] = 0;
    }
    mur_flock *f = state(N, x, y, vx, vy, 400, 200, MUR_BOUNDARY_REFLECT);
    mur_metrics_ctx *ctx = mur_metrics_ctx_create();
    double c[30], pairs[30];
    REQUIRE(ctx && mur_metrics_correlation(ctx, f, 10, 30, c, pairs) == 0, "correlation");
    CHECK(c[0] == 1 && c[1] == 1 && c[20] == -1, "C near %.3g %.3g, far %.3g", c[0], c[1], c[20]);
    CHECK(isnan(c[10]) && pairs[10] == 0, "an empty bin is NaN: %.3g", c[10]);
    /* last above: bin 1 (r 15, C 1); first below: bin 19 (r 195, C -1): zero at 105 */
    double z = mur_correlation_zero(c, 30, 10);
    CHECK(fabs(z - 105) < 1e-9, "zero %.17g, want 105", z);
    mur_metrics_ctx_destroy(ctx);
    mur_flock_destroy(f);
}

TEST(correlation_zero_interpolates_between_bins)
{
    double c[4] = {0.5, NAN, -0.5, 0.7};
    CHECK(fabs(mur_correlation_zero(c, 4, 2) - 3) < 1e-12, "(1, 0.5) to (5, -0.5): %.17g", mur_correlation_zero(c, 4, 2));
    double d[2] = {-1, 0.3};
    CHECK(fabs(mur_correlation_zero(d, 2, 2) - 0.5) < 1e-12, "from C(0) = 1 to (1, -1): %.17g",
          mur_correlation_zero(d, 2, 2));
    double e[3] = {0.9, 0.4, 0.1};
    CHECK(isnan(mur_correlation_zero(e, 3, 1)), "never crosses: NaN");
}

TEST(per_boid_quantities_match_brute_force)
{
    mur_flock *f = flock(700, 500, 300, MUR_BOUNDARY_WRAP, 200, 11);
    const mur_params *p = mur_flock_params(f);
    int n = mur_flock_count(f);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    mur_metrics_ctx *ctx = mur_metrics_ctx_create();
    double *v = malloc(n * sizeof *v);
    REQUIRE(ctx && v, "memory");
    double R = p->cohesion_radius;
    for (int k = 0; k < MUR_BOID_QUANTITY_COUNT; k++) {
        const mur_boid_quantity *q = mur_boid_quantity_at(k);
        REQUIRE(q && mur_boid_quantity_find(q->name) == k, "quantity %d", k);
        REQUIRE(mur_metrics_per_boid(ctx, f, k, v) == 0, "%s", q->name);
        int bad = -1;
        double want = 0;
        for (int i = n - 1; i >= 0; i--) {
            double best = INFINITY, count = 0, w;
            for (int j = 0; j < n; j++) {
                if (j == i)
                    continue;
                double d = hypot(image(x[i], x[j], 1, p->width), image(y[i], y[j], 1, p->height));
                best = fmin(best, d);
                count += d < R;
            }
            w = !strcmp(q->name, "nearest") ? best : !strcmp(q->name, "neighbours") ? count
                : !strcmp(q->name, "speed") ? hypot(mur_flock_vx(f)[i], mur_flock_vy(f)[i])
                                            : NAN;   /* roll: a plane's boids have no body frame */
            if (!close_to(v[i], w, 1e-12)) {
                bad = i;
                want = w;
            }
        }
        CHECK(bad < 0, "%s of boid %d: %.17g, brute %.17g", q->name, bad, bad < 0 ? 0 : v[bad], want);
    }
    CHECK(mur_boid_quantity_find("heading") == -1 && mur_boid_quantity_at(MUR_BOID_QUANTITY_COUNT) == NULL,
          "unknown quantities");
    free(v);
    mur_metrics_ctx_destroy(ctx);
    mur_flock_destroy(f);
}

TEST(only_the_default_set_is_on_by_default)
{
    unsigned mask = mur_metrics_default_mask();
    for (int k = 0; k < MUR_METRIC_COUNT; k++) {
        const mur_metric_info *m = mur_metric_info_at(k);
        CHECK((int)!(mask >> k & 1) == m->on_request, "%s: on request %d, in the default mask %u", m->name,
              m->on_request, mask >> k & 1);
    }
    CHECK(mask == 0x3f, "the six metrics of old are the default: %#x", mask);
    CHECK(mur_metric_find("rotation") == MUR_METRIC_ROTATION &&
              mur_metric_find("correlation_length") == MUR_METRIC_CORRELATION_LENGTH &&
              mur_metric_find("elongation") == MUR_METRIC_ELONGATION,
          "names");
}
