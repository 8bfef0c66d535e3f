/* The metrics in a 3D world (docs/model.md "Metrics", "Three dimensions"):
 * every metric, C(r) and the per-boid quantities against a brute-force
 * computation written out here from the definitions (every pair, a
 * labelling by search, the eigenvalues by the trigonometric closed form,
 * not the core's Jacobi), on random and formed flocks, with wrap, walls
 * and open space; the values do not change when the state is rotated; and
 * known answers (a lattice box's extents, a turning ring). In 2D the new
 * extents are the plane's: thickness 0. A core test. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "murmur/flock.h"
#include "murmur/metrics.h"
#include "murmur/presets.h"

#define PI 3.14159265358979323846

static int close_to(double a, double b, double tol)
{
    return (isnan(a) && isnan(b)) || a == b || fabs(a - b) <= tol * fmax(1, fabs(b));
}

/* ---- flocks --------------------------------------------------------------- */

static mur_params params3(int n, mur_boundary b)
{
    mur_params p = mur_preset_find("wrkspc")->params;
    p.count = n;
    p.dimensions = 3;
    p.width = 480;
    p.height = 320;
    p.depth = 200;
    p.boundary = b;
    return p;
}

static mur_flock *flock3(int n, mur_boundary b, int ticks, uint64_t seed)
{
    mur_params p = params3(n, b);
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

static mur_flock *state3(int n, const double *x, const double *y, const double *z, const double *vx,
                         const double *vy, const double *vz, mur_boundary b)
{
    mur_params p = params3(n, b);
    mur_flock *f = NULL;
    mur_error err;
    if (mur_flock_create(&f, &p, 1, &err) || mur_flock_set_state3(f, n, x, y, z, vx, vy, vz, &err)) {
        fprintf(stderr, "state: %s\n", err.msg);
        abort();
    }
    return f;
}

/* ---- brute force, from the definitions ------------------------------------ */

typedef struct {
    int n, wrap;
    double size[3];
    const double *p[3], *v[3];
} view;

static view view_of(const mur_flock *f)
{
    const mur_params *p = mur_flock_params(f);
    view w = {mur_flock_count(f), p->boundary == MUR_BOUNDARY_WRAP, {p->width, p->height, p->depth},
              {mur_flock_x(f), mur_flock_y(f), mur_flock_z(f)}, {mur_flock_vx(f), mur_flock_vy(f), mur_flock_vz(f)}};
    return w;
}

/* The offset a -> b on an axis of size s, nearest image when wrapping. */
static double image(double a, double b, int wrap, double s)
{
    double d = b - a;
    if (wrap)
        d -= s * round(d / s);
    return d;
}

static void offset(const view *w, const double a[3], int j, double d[3])
{
    for (int c = 0; c < 3; c++)
        d[c] = image(a[c], w->p[c][j], w->wrap, w->size[c]);
}

static double dist(const view *w, int i, int j)
{
    double a[3] = {w->p[0][i], w->p[1][i], w->p[2][i]}, d[3];
    offset(w, a, j, d);
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* The centre of the boids in[0..k): the mean angle per axis under wrap,
 * taken in [0, 2 pi), or the mean. */
static void centre(const view *w, const int *in, int k, double c[3])
{
    for (int a = 0; a < 3; a++) {
        double s = 0, co = 0, m = 0;
        for (int e = 0; e < k; e++) {
            double u = w->p[a][in[e]];
            s += sin(2 * PI * u / w->size[a]);
            co += cos(2 * PI * u / w->size[a]);
            m += u;
        }
        if (w->wrap) {
            double t = atan2(s, co);
            c[a] = (t < 0 ? t + 2 * PI : t) * w->size[a] / (2 * PI);
        } else {
            c[a] = m / k;
        }
    }
}

/* |sum over in[] of unit(c_i - c) x unit(v_i)| about c. */
static double turning(const view *w, const int *in, int k, const double c[3])
{
    double t[3] = {0, 0, 0};
    for (int e = 0; e < k; e++) {
        int i = in[e];
        double d[3], v[3] = {w->v[0][i], w->v[1][i], w->v[2][i]};
        offset(w, c, i, d);
        double dl = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), vl = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (dl > 0 && vl > 0) {
            t[0] += (d[1] * v[2] - d[2] * v[1]) / (dl * vl);
            t[1] += (d[2] * v[0] - d[0] * v[2]) / (dl * vl);
            t[2] += (d[0] * v[1] - d[1] * v[0]) / (dl * vl);
        }
    }
    return sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
}

/* Eigenvalues of a symmetric 3 x 3 matrix, ascending, by the trigonometric
 * closed form (Smith 1961). */
static void eigen3(const double A[3][3], double l[3])
{
    double p1 = A[0][1] * A[0][1] + A[0][2] * A[0][2] + A[1][2] * A[1][2];
    if (p1 == 0) {
        l[0] = A[0][0];
        l[1] = A[1][1];
        l[2] = A[2][2];
    } else {
        double q = (A[0][0] + A[1][1] + A[2][2]) / 3;
        double p2 = (A[0][0] - q) * (A[0][0] - q) + (A[1][1] - q) * (A[1][1] - q) + (A[2][2] - q) * (A[2][2] - q) + 2 * p1;
        double p = sqrt(p2 / 6), B[3][3];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                B[i][j] = (A[i][j] - (i == j ? q : 0)) / p;
        double r = (B[0][0] * (B[1][1] * B[2][2] - B[1][2] * B[2][1]) - B[0][1] * (B[1][0] * B[2][2] - B[1][2] * B[2][0]) +
                    B[0][2] * (B[1][0] * B[2][1] - B[1][1] * B[2][0])) / 2;
        double phi = r <= -1 ? PI / 3 : r >= 1 ? 0 : acos(r) / 3;
        l[2] = q + 2 * p * cos(phi);
        l[0] = q + 2 * p * cos(phi + 2 * PI / 3);
        l[1] = 3 * q - l[0] - l[2];
    }
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (l[j] < l[i]) {
                double t = l[i];
                l[i] = l[j];
                l[j] = t;
            }
}

typedef struct {
    double order, nearest, neighbours, largest, milling, rotation, elongation, thickness, width, length;
    int clusters;
} brute;

static brute brute_force(const mur_flock *f, double R)
{
    view w = view_of(f);
    int n = w.n;
    brute b = {0};
    double s[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        double l = sqrt(w.v[0][i] * w.v[0][i] + w.v[1][i] * w.v[1][i] + w.v[2][i] * w.v[2][i]);
        for (int c = 0; l > 0 && c < 3; c++)
            s[c] += w.v[c][i] / l;
    }
    b.order = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]) / n;
    /* nearest, neighbours; clusters by search from each unlabelled boid */
    size_t un = (size_t)(n > 0 ? n : 1);
    int *label = malloc(un * sizeof *label), *stack = malloc(un * sizeof *stack), *in = calloc(un, sizeof *in);
    double near = 0, count = 0;
    for (int i = 0; i < n; i++) {
        double best = INFINITY;
        for (int j = 0; j < n; j++)
            if (j != i) {
                double d = dist(&w, i, j);
                best = fmin(best, d);
                count += d < R;
            }
        near += best;
        label[i] = -1;
    }
    b.nearest = near / n;
    b.neighbours = count / n;
    int largest = 0;
    double mill = 0;
    for (int i = 0; i < n; i++) {
        if (label[i] >= 0)
            continue;
        int top = 0, k = 0;
        label[i] = i;
        stack[top++] = i;
        while (top) {
            int a = stack[--top];
            in[k++] = a;
            for (int j = 0; j < n; j++)
                if (label[j] < 0 && dist(&w, a, j) < R) {
                    label[j] = i;
                    stack[top++] = j;
                }
        }
        b.clusters++;
        largest = k > largest ? k : largest;
        if (k >= 2) {
            double c[3];
            centre(&w, in, k, c);
            mill += turning(&w, in, k, c);
        }
    }
    b.largest = (double)largest / n;
    b.milling = mill / n;
    for (int i = 0; i < n; i++)
        in[i] = i;
    double c[3];
    centre(&w, in, n, c);
    b.rotation = turning(&w, in, n, c) / n;
    double m[3] = {0, 0, 0}, A[3][3] = {{0}}, *d = malloc(3 * un * sizeof *d);
    for (int i = 0; i < n; i++) {
        offset(&w, c, i, &d[3 * i]);
        for (int a = 0; a < 3; a++)
            m[a] += d[3 * i + a] / n;
    }
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++)
            for (int e = 0; e < 3; e++)
                A[a][e] += (d[3 * i + a] - m[a]) * (d[3 * i + e] - m[e]) / n;
    double l[3];
    eigen3(A, l);
    b.elongation = sqrt(l[2] / l[0]);
    b.thickness = sqrt(12 * l[0]);
    b.width = sqrt(12 * l[1]);
    b.length = sqrt(12 * l[2]);
    free(d);
    free(label);
    free(stack);
    free(in);
    return b;
}

/* C(r) over every pair i < j, in nbins bins of width bin. */
static void brute_correlation(const mur_flock *f, double bin, int nbins, double *c, double *pairs)
{
    view w = view_of(f);
    int n = w.n;
    double mv[3] = {0, 0, 0}, uu = 0;
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++)
            mv[a] += w.v[a][i] / n;
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++)
            uu += (w.v[a][i] - mv[a]) * (w.v[a][i] - mv[a]) / n;
    double *sum = calloc(nbins, sizeof *sum);
    for (int k = 0; k < nbins; k++)
        pairs[k] = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            int k = (int)floor(dist(&w, i, j) / bin);
            if (k >= nbins)
                continue;
            for (int a = 0; a < 3; a++)
                sum[k] += (w.v[a][i] - mv[a]) * (w.v[a][j] - mv[a]);
            pairs[k]++;
        }
    for (int k = 0; k < nbins; k++)
        c[k] = pairs[k] > 0 ? sum[k] / pairs[k] / uu : NAN;
    free(sum);
}

/* ---- against brute force -------------------------------------------------- */

static void check_against_brute(const mur_flock *f, double radius, const char *what)
{
    mur_metrics_ctx *ctx = mur_metrics_ctx_create();
    REQUIRE(ctx, "ctx");
    mur_metrics_ctx_set_radius(ctx, radius);
    double R = radius > 0 ? radius : mur_flock_params(f)->cohesion_radius;
    mur_metrics m;
    REQUIRE(mur_metrics_compute(ctx, f, &m) == 0, "%s: compute", what);
    brute b = brute_force(f, R);
    const struct {
        const char *name;
        double got, want;
    } v[] = {
        {"order", m.order, b.order}, {"nearest", m.nearest, b.nearest}, {"neighbours", m.neighbours, b.neighbours},
        {"clusters", m.clusters, b.clusters}, {"largest", m.largest, b.largest}, {"milling", m.milling, b.milling},
        {"rotation", m.rotation, b.rotation}, {"elongation", m.elongation, b.elongation},
        {"thickness", m.thickness, b.thickness}, {"width", m.width, b.width}, {"length", m.length, b.length},
    };
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
        CHECK(close_to(v[k].got, v[k].want, 1e-9), "%s: %s %.17g, brute %.17g", what, v[k].name, v[k].got,
              v[k].want);
    CHECK(m.thickness <= m.width && m.width <= m.length && m.thickness > 0, "%s: extents %g %g %g", what,
          m.thickness, m.width, m.length);
    /* the metrics asked for one at a time are the same numbers */
    for (int k = 0; k < MUR_METRIC_COUNT; k++) {
        mur_metrics one;
        REQUIRE(mur_metrics_compute_some(ctx, f, 1u << k, &one) == 0, "%s: metric %d alone", what, k);
        double a = mur_metrics_value(&one, k), e = mur_metrics_value(&m, k);
        CHECK(a == e || (isnan(a) && isnan(e)), "%s: %s alone %.17g, with the others %.17g", what,
              mur_metric_name(k), a, e);
    }
    /* C(r): every bin, its pairs exactly */
    enum { NB = 40 };
    double bin = R / 4, c[NB], bc[NB], pairs[NB], bp[NB];
    REQUIRE(mur_metrics_correlation(ctx, f, bin, NB, c, pairs) == 0, "%s: correlation", what);
    brute_correlation(f, bin, NB, bc, bp);
    int bad = -1;
    for (int k = NB - 1; k >= 0; k--)
        if (pairs[k] != bp[k] || !close_to(c[k], bc[k], 1e-9))
            bad = k;
    CHECK(bad < 0, "%s: bin %d: C %.17g over %.0f pairs, brute %.17g over %.0f", what, bad, bad < 0 ? 0 : c[bad],
          bad < 0 ? 0 : pairs[bad], bad < 0 ? 0 : bc[bad], bad < 0 ? 0 : bp[bad]);
    double zero = mur_correlation_zero(bc, NB, bin);
    if (isnan(zero)) {   /* above 0 within 10 R: measured again over every pair, as far as the box's diagonal */
        static double wide[MUR_CORRELATION_BINS], wp[MUR_CORRELATION_BINS];
        view vw = view_of(f);
        double diag = 0;
        for (int a = 0; a < 3; a++) {
            double lo = INFINITY, hi = -INFINITY;
            for (int i = 0; i < vw.n; i++) {
                lo = fmin(lo, vw.p[a][i]);
                hi = fmax(hi, vw.p[a][i]);
            }
            diag += (hi - lo) * (hi - lo);
        }
        int nb = (int)ceil(sqrt(diag) * (1 + 1e-9) / bin);
        REQUIRE(nb <= MUR_CORRELATION_BINS, "%s: %d bins", what, nb);
        brute_correlation(f, bin, nb, wide, wp);
        zero = mur_correlation_zero(wide, nb, bin);
    }
    CHECK(close_to(m.correlation_length, zero, 1e-9), "%s: correlation length %.17g, brute %.17g", what,
          m.correlation_length, zero);
    /* per boid */
    view w = view_of(f);
    double *q = malloc(w.n * sizeof *q);
    for (int k = 0; k < MUR_BOID_QUANTITY_COUNT; k++) {
        REQUIRE(mur_metrics_per_boid(ctx, f, k, q) == 0, "%s: per boid %d", what, k);
        int worst = -1;
        double want = 0;
        for (int i = w.n - 1; i >= 0; i--) {
            double best = INFINITY, count = 0, e;
            for (int j = 0; j < w.n; j++)
                if (j != i) {
                    double d = dist(&w, i, j);
                    best = fmin(best, d);
                    count += d < R;
                }
            e = k == 0 ? best : k == 1 ? count
                      : k == 2 ? sqrt(w.v[0][i] * w.v[0][i] + w.v[1][i] * w.v[1][i] + w.v[2][i] * w.v[2][i])
                               : NAN;   /* roll: no body frame outside the starling */
            if (!close_to(q[i], e, 1e-12)) {
                worst = i;
                want = e;
            }
        }
        CHECK(worst < 0, "%s: %s of boid %d: %.17g, brute %.17g", what, mur_boid_quantity_at(k)->name, worst,
              worst < 0 ? 0 : q[worst], want);
    }
    free(q);
    mur_metrics_ctx_destroy(ctx);
}

TEST(metrics_in_3d_match_brute_force_on_random_and_formed_flocks)
{
    static const struct {
        int n, ticks;
        mur_boundary b;
        double radius;
    } cases[] = {
        {300, 0, MUR_BOUNDARY_WRAP, 0},     {300, 0, MUR_BOUNDARY_REFLECT, 0},
        {300, 300, MUR_BOUNDARY_WRAP, 0},   {300, 300, MUR_BOUNDARY_REFLECT, 0},
        {300, 200, MUR_BOUNDARY_AVOID, 0},  {300, 200, MUR_BOUNDARY_OPEN, 0},
        /* a small radius: many boxes, nearest neighbours beyond the block */
        {800, 0, MUR_BOUNDARY_WRAP, 6},     {800, 150, MUR_BOUNDARY_REFLECT, 6},
        {800, 150, MUR_BOUNDARY_OPEN, 4},
        /* a radius past half the world: boxes one or two wide */
        {200, 100, MUR_BOUNDARY_WRAP, 130},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mur_flock *f = flock3(cases[i].n, cases[i].b, cases[i].ticks, 5 + i);
        char what[32];
        snprintf(what, sizeof what, "case %zu", i);
        check_against_brute(f, cases[i].radius, what);
        mur_flock_destroy(f);
    }
}

/* ---- rotation invariance -------------------------------------------------- */

/* R = Rz(a) Ry(b) Rx(c). */
static void rotation_matrix(double a, double b, double c, double R[3][3])
{
    double ca = cos(a), sa = sin(a), cb = cos(b), sb = sin(b), cc = cos(c), sc = sin(c);
    double Rz[3][3] = {{ca, -sa, 0}, {sa, ca, 0}, {0, 0, 1}}, Ry[3][3] = {{cb, 0, sb}, {0, 1, 0}, {-sb, 0, cb}},
           Rx[3][3] = {{1, 0, 0}, {0, cc, -sc}, {0, sc, cc}}, T[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            T[i][j] = 0;
            for (int k = 0; k < 3; k++)
                T[i][j] += Ry[i][k] * Rx[k][j];
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            R[i][j] = 0;
            for (int k = 0; k < 3; k++)
                R[i][j] += Rz[i][k] * T[k][j];
        }
}

TEST(metrics_in_3d_do_not_change_when_the_state_is_rotated)
{
    const int ticks[] = {0, 250};
    for (int t = 0; t < 2; t++) {
        mur_flock *f = flock3(400, MUR_BOUNDARY_OPEN, ticks[t], 21 + t);
        view w = view_of(f);
        int n = w.n;
        double *s = malloc(6 * n * sizeof *s), R[3][3], o[3] = {240, 160, 100};
        rotation_matrix(0.7, -1.1, 2.3, R);
        for (int i = 0; i < n; i++)
            for (int a = 0; a < 3; a++) {
                s[a * n + i] = o[a];
                s[(3 + a) * n + i] = 0;
                for (int k = 0; k < 3; k++) {
                    s[a * n + i] += R[a][k] * (w.p[k][i] - o[k]);
                    s[(3 + a) * n + i] += R[a][k] * w.v[k][i];
                }
            }
        mur_flock *g = state3(n, s, s + n, s + 2 * n, s + 3 * n, s + 4 * n, s + 5 * n, MUR_BOUNDARY_OPEN);
        mur_metrics_ctx *ctx = mur_metrics_ctx_create();
        mur_metrics a, b;
        REQUIRE(ctx && mur_metrics_compute(ctx, f, &a) == 0 && mur_metrics_compute(ctx, g, &b) == 0, "compute");
        const int keep[] = {MUR_METRIC_ORDER,      MUR_METRIC_NEAREST,    MUR_METRIC_ROTATION, MUR_METRIC_ELONGATION,
                            MUR_METRIC_THICKNESS,  MUR_METRIC_WIDTH,      MUR_METRIC_LENGTH,   MUR_METRIC_NEIGHBOURS,
                            MUR_METRIC_CLUSTERS,   MUR_METRIC_LARGEST,    MUR_METRIC_MILLING};
        for (size_t k = 0; k < sizeof keep / sizeof keep[0]; k++) {
            double u = mur_metrics_value(&a, keep[k]), v = mur_metrics_value(&b, keep[k]);
            CHECK(close_to(v, u, 1e-9), "ticks %d: %s %.17g, rotated %.17g", ticks[t], mur_metric_name(keep[k]), u, v);
        }
        mur_metrics_ctx_destroy(ctx);
        mur_flock_destroy(g);
        mur_flock_destroy(f);
        free(s);
    }
}

/* ---- known answers -------------------------------------------------------- */

TEST(a_lattice_box_has_its_sides_as_extents_and_a_tilted_ring_turns)
{
    /* a lattice of 12 x 8 x 4 points 10 apart: along an axis of k points
     * the variance is 100 (k^2 - 1) / 12, so the extent is 10 sqrt(k^2 - 1) */
    enum { KX = 12, KY = 8, KZ = 4, N = KX * KY * KZ };
    static double x[N], y[N], z[N], vx[N], vy[N], vz[N];
    for (int i = 0; i < N; i++) {
        x[i] = 100 + 10 * (i % KX);
        y[i] = 80 + 10 * (i / KX % KY);
        z[i] = 50 + 10 * (i / KX / KY);
        vx[i] = 1;
        vy[i] = vz[i] = 0;
    }
    mur_flock *f = state3(N, x, y, z, vx, vy, vz, MUR_BOUNDARY_REFLECT);
    mur_metrics_ctx *ctx = mur_metrics_ctx_create();
    mur_metrics m;
    REQUIRE(ctx && mur_metrics_compute(ctx, f, &m) == 0, "compute");
    CHECK(fabs(m.length - 10 * sqrt(KX * KX - 1)) < 1e-9 && fabs(m.width - 10 * sqrt(KY * KY - 1)) < 1e-9 &&
              fabs(m.thickness - 10 * sqrt(KZ * KZ - 1)) < 1e-9,
          "extents %.17g %.17g %.17g", m.thickness, m.width, m.length);
    CHECK(fabs(m.elongation - sqrt((KX * KX - 1.0) / (KZ * KZ - 1))) < 1e-9, "elongation %.17g", m.elongation);
    CHECK(m.order == 1 && fabs(m.nearest - 10) < 1e-12 && m.clusters == 1, "order %g nearest %g clusters %d",
          m.order, m.nearest, m.clusters);
    mur_flock_destroy(f);
    /* a ring of radius 60 in a tilted plane, turning about its normal,
     * across the torus's seams: rotation 1, milling 1, no thickness */
    enum { M = 120 };
    double e1[3] = {1 / sqrt(2.0), 0, 1 / sqrt(2.0)}, e2[3] = {0, 1, 0};
    for (int i = 0; i < M; i++) {
        double a = 2 * PI * i / M, c = cos(a), s = sin(a);
        double at[3] = {60 * (c * e1[0] + s * e2[0]), 60 * (c * e1[1] + s * e2[1]), 60 * (c * e1[2] + s * e2[2])};
        x[i] = fmod(at[0] + 480, 480);
        y[i] = fmod(at[1] + 320, 320);
        z[i] = fmod(at[2] + 200, 200);
        vx[i] = -s * e1[0] + c * e2[0];
        vy[i] = -s * e1[1] + c * e2[1];
        vz[i] = -s * e1[2] + c * e2[2];
    }
    f = state3(M, x, y, z, vx, vy, vz, MUR_BOUNDARY_WRAP);
    REQUIRE(mur_metrics_compute(ctx, f, &m) == 0, "compute");
    CHECK(fabs(m.rotation - 1) < 1e-9 && fabs(m.milling - 1) < 1e-9, "rotation %.17g milling %.17g", m.rotation,
          m.milling);
    CHECK(m.thickness < 1e-5 && fabs(m.width - m.length) < 1e-6 && fabs(m.length - 60 * sqrt(6.0)) < 1e-6,
          "a ring's extents %.17g %.17g %.17g", m.thickness, m.width, m.length);
    CHECK(m.order < 1e-12, "a turning ring: order %.3g", m.order);
    mur_flock_destroy(f);
    /* one boid: no extent, round */
    f = state3(1, x, y, z, vx, vy, vz, MUR_BOUNDARY_WRAP);
    REQUIRE(mur_metrics_compute(ctx, f, &m) == 0, "compute");
    CHECK(m.thickness == 0 && m.width == 0 && m.length == 0 && m.elongation == 1 && m.nearest == 0 &&
              m.clusters == 1 && m.rotation == 0,
          "one boid: %g %g %g %g", m.thickness, m.width, m.length, m.elongation);
    mur_flock_destroy(f);
    mur_metrics_ctx_destroy(ctx);
}

TEST(in_2d_thickness_is_zero_and_the_extents_are_the_planes)
{
    /* boids on an ellipse of half-axes 90 and 30: variances a^2 / 2, so
     * the extents are a sqrt(6) */
    enum { N = 90 };
    double x[N], y[N], vx[N], vy[N];
    for (int i = 0; i < N; i++) {
        double a = 2 * PI * i / N;
        x[i] = 200 + 90 * cos(a);
        y[i] = 150 + 30 * sin(a);
        vx[i] = 1;
        vy[i] = 0;
    }
    mur_params p = mur_preset_find("wrkspc")->params;
    p.width = 400;
    p.height = 300;
    p.count = N;
    p.boundary = MUR_BOUNDARY_REFLECT;
    mur_flock *f = NULL;
    mur_error err;
    REQUIRE(mur_flock_create(&f, &p, 1, &err) == 0 && mur_flock_set_state(f, N, x, y, vx, vy, &err) == 0, "state");
    mur_metrics_ctx *ctx = mur_metrics_ctx_create();
    mur_metrics m;
    REQUIRE(ctx && mur_metrics_compute(ctx, f, &m) == 0, "compute");
    CHECK(m.thickness == 0, "2D thickness %g", m.thickness);
    CHECK(fabs(m.length - 90 * sqrt(6.0)) < 1e-9 && fabs(m.width - 30 * sqrt(6.0)) < 1e-9, "extents %.17g %.17g",
          m.width, m.length);
    CHECK(fabs(m.elongation - m.length / m.width) < 1e-9, "elongation is length / width: %.17g", m.elongation);
    CHECK(mur_metrics_order_of(f) == mur_metrics_order(N, vx, vy), "order_of in 2D");
    mur_flock_destroy(f);
    mur_metrics_ctx_destroy(ctx);
    unsigned mask = mur_metrics_default_mask();
    CHECK(!(mask >> MUR_METRIC_THICKNESS & 1) && !(mask >> MUR_METRIC_WIDTH & 1) && !(mask >> MUR_METRIC_LENGTH & 1),
          "the extents are on request: %#x", mask);
}

/* rotation about the group's centre in 3D: a lone boid under wrap is its
 * own centre to rounding (the circular mean), and turns about nothing; so
 * does a boid on the centre of a group. */
TEST(in_3d_a_lone_boid_or_one_at_the_centre_does_not_rotate)
{
    static const double at[][3] = {{0.1, 0.3, 0.7}, {123.456789, 77.7777, 151.515}, {333.333333, 250.123, 3.3},
                                   {479.9, 319.9, 199.9}, {17.17, 301.3, 99.99}};
    for (size_t k = 0; k < sizeof at / sizeof *at; k++)
        for (int b = 0; b < 2; b++) {
            double vx = 0.6, vy = -0.8, vz = 0.2;
            mur_flock *f = state3(1, &at[k][0], &at[k][1], &at[k][2], &vx, &vy, &vz,
                                  b ? MUR_BOUNDARY_OPEN : MUR_BOUNDARY_WRAP);
            mur_metrics m;
            mur_metrics_ctx *ctx = mur_metrics_ctx_create();
            REQUIRE(ctx && !mur_metrics_compute(ctx, f, &m), "metrics");
            CHECK(m.rotation == 0, "a lone boid at (%g, %g, %g), %s: rotation %.17g, want 0", at[k][0], at[k][1],
                  at[k][2], b ? "open" : "wrap", m.rotation);
            CHECK(m.milling == 0, "a lone boid: milling %.17g, want 0", m.milling);
            mur_metrics_ctx_destroy(ctx);
            mur_flock_destroy(f);
        }
    double x[3] = {123.456789, 133.456789, 143.456789}, y[3] = {77.7777, 77.7777, 77.7777},
           z[3] = {151.515, 151.515, 151.515};
    double vx[3] = {0, 1, 0}, vy[3] = {-1, 0, 1}, vz[3] = {0, 0, 0};
    mur_flock *f = state3(3, x, y, z, vx, vy, vz, MUR_BOUNDARY_WRAP);
    mur_metrics m;
    mur_metrics_ctx *ctx = mur_metrics_ctx_create();
    REQUIRE(ctx && !mur_metrics_compute(ctx, f, &m), "metrics");
    CHECK(fabs(m.rotation - 2.0 / 3) < 1e-9, "two of three turning, one at the centre: rotation %.17g, want 2/3",
          m.rotation);
    mur_metrics_ctx_destroy(ctx);
    mur_flock_destroy(f);
}

/* The thin axis's direction (Ballerini et al. 2008): a lattice sheet of
 * 12 x 8 x 3 points turned about y by angle a has its thin axis along
 * (sin a, 0, cos a), so thin_gravity is |cos a| at every angle; flying
 * along its long side, (cos a, 0, -sin a), thin_heading is 0, and flying
 * along its normal 1. The plane's answer is its normal's: 1 and 0. A line
 * has no thin axis: NaN. */
TEST(the_thin_axis_is_measured_against_gravity_and_the_heading)
{
    enum { KX = 12, KY = 8, KZ = 3, N = KX * KY * KZ };
    static double x[N], y[N], z[N], vx[N], vy[N], vz[N];
    const double angles[] = {0, 0.3, 0.9, PI / 2};
    mur_metrics_ctx *ctx = mur_metrics_ctx_create();
    REQUIRE(ctx, "ctx");
    unsigned want = 1u << MUR_METRIC_THIN_GRAVITY | 1u << MUR_METRIC_THIN_HEADING;
    for (int k = 0; k < 4; k++)
        for (int up = 0; up < 2; up++) {
            double a = angles[k], c = cos(a), s = sin(a);
            for (int i = 0; i < N; i++) {
                double u = 10 * (i % KX) - 55, w = 10 * (i / KX % KY) - 35, h = 10 * (i / KX / KY) - 10;
                x[i] = 240 + c * u + s * h;
                y[i] = 160 + w;
                z[i] = 100 - s * u + c * h;
                vx[i] = up ? s : c;   /* along the sheet's long side, or along its normal */
                vy[i] = 0;
                vz[i] = up ? c : -s;
            }
            mur_flock *f = state3(N, x, y, z, vx, vy, vz, MUR_BOUNDARY_REFLECT);
            mur_metrics m;
            REQUIRE(mur_metrics_compute_some(ctx, f, want, &m) == 0, "compute");
            CHECK(fabs(m.thin_gravity - fabs(c)) < 1e-9, "angle %g: thin_gravity %.17g, want %.17g", a,
                  m.thin_gravity, fabs(c));
            CHECK(fabs(m.thin_heading - up) < 1e-9, "angle %g, %s: thin_heading %.17g", a,
                  up ? "flying along the normal" : "flying along the sheet", m.thin_heading);
            mur_flock_destroy(f);
        }
    for (int i = 0; i < 20; i++) {   /* a line along x: the two smaller extents are both 0 */
        x[i] = 100 + 5 * i;
        y[i] = 160;
        z[i] = 100;
        vx[i] = 1;
        vy[i] = vz[i] = 0;
    }
    mur_flock *f = state3(20, x, y, z, vx, vy, vz, MUR_BOUNDARY_REFLECT);
    mur_metrics m;
    REQUIRE(mur_metrics_compute_some(ctx, f, want, &m) == 0, "compute");
    CHECK(isnan(m.thin_gravity) && isnan(m.thin_heading), "a line: %g %g", m.thin_gravity, m.thin_heading);
    mur_flock_destroy(f);
    const mur_preset *pre = mur_preset_find("wrkspc");
    mur_params p = pre->params;
    mur_error err;
    REQUIRE(!mur_flock_create(&f, &p, 1, &err), "%s", err.msg);
    REQUIRE(mur_metrics_compute_some(ctx, f, want, &m) == 0, "compute");
    CHECK(m.thin_gravity == 1 && m.thin_heading == 0, "the plane: %g %g", m.thin_gravity, m.thin_heading);
    mur_flock_destroy(f);
    mur_metrics_ctx_destroy(ctx);
}
