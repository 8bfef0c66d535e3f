/* The 3D core (docs/model.md "Three dimensions"): the Reynolds family
 * against a literal O(N^2) transcription of docs/model.md's steps written
 * here, the grid against the brute-force loop for every kind and
 * boundary, topological ties, rotation invariance in open space,
 * translation invariance under wrap, thread counts, vector units, the
 * refusals, and a flock in a plane stepping as the 2D flock. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flock_util.h"
#include "harness.h"
#include "murmur/flock.h"
#include "murmur/presets.h"
#include "murmur/rng.h"

#define PI 3.14159265358979323846

static mur_params space(const char *preset, mur_boundary b)
{
    const mur_preset *p = mur_preset_find(preset);
    if (!p)
        abort();
    mur_params q = p->params;
    q.dimensions = 3;
    q.density = 0;
    q.width = 300;
    q.height = 240;
    q.depth = 180;
    q.boundary = b;
    return q;
}

/* The largest difference between two flocks' states (positions under wrap
 * by the nearest image). */
static double apart(const mur_flock *a, const mur_flock *b)
{
    const mur_params *p = mur_flock_params(a);
    double most = 0;
    const double *ax[6] = {mur_flock_x(a), mur_flock_y(a), mur_flock_z(a),
                           mur_flock_vx(a), mur_flock_vy(a), mur_flock_vz(a)};
    const double *bx[6] = {mur_flock_x(b), mur_flock_y(b), mur_flock_z(b),
                           mur_flock_vx(b), mur_flock_vy(b), mur_flock_vz(b)};
    const double size[3] = {p->width, p->height, p->depth};
    for (int c = 0; c < 6; c++)
        for (int i = 0; i < mur_flock_count(a); i++) {
            double d = ax[c][i] - bx[c][i];
            if (c < 3 && p->boundary == MUR_BOUNDARY_WRAP)
                d -= size[c] * round(d / size[c]);
            if (!(fabs(d) <= most))
                most = isnan(d) ? INFINITY : fabs(d);
        }
    return most;
}

/* ---- the literal model ---------------------------------------------------- */

typedef struct {
    int n;
    double r[512][3], v[512][3];
} state;

static void load(const mur_flock *f, state *s)
{
    s->n = mur_flock_count(f);
    for (int i = 0; i < s->n; i++) {
        s->r[i][0] = mur_flock_x(f)[i];
        s->r[i][1] = mur_flock_y(f)[i];
        s->r[i][2] = mur_flock_z(f)[i];
        s->v[i][0] = mur_flock_vx(f)[i];
        s->v[i][1] = mur_flock_vy(f)[i];
        s->v[i][2] = mur_flock_vz(f)[i];
    }
}

static double len(const double a[3]) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

static void unit(const double a[3], double u[3])
{
    double l = len(a);
    for (int c = 0; c < 3; c++)
        u[c] = l > 0 ? a[c] / l : 0;
}

/* One tick of docs/model.md steps 1-7 (normalize combine, clamp speed rule,
 * wrap), every boid from the state at the start of the tick, over every
 * pair. */
static void literal_tick(const mur_params *p, uint64_t seed, uint64_t tick, state *s)
{
    static state next;
    const double size[3] = {p->width, p->height, p->depth};
    const double cosh = cos(p->fov / 2 * PI / 180);
    next.n = s->n;
    for (int i = 0; i < s->n; i++) {
        double S[3] = {0, 0, 0}, A[3] = {0, 0, 0}, C[3] = {0, 0, 0};
        int na = 0, nc = 0;
        for (int j = 0; j < s->n; j++) {
            if (j == i)
                continue;
            double d[3];
            for (int c = 0; c < 3; c++) {
                d[c] = s->r[j][c] - s->r[i][c];
                d[c] -= size[c] * round(d[c] / size[c]);   /* nearest image */
            }
            double dl = len(d), vl = len(s->v[i]);
            if (dl == 0)
                continue;
            if (p->fov < 360 && vl > 0 &&
                d[0] * s->v[i][0] + d[1] * s->v[i][1] + d[2] * s->v[i][2] < cosh * vl * dl)
                continue;
            if (dl < p->separation_radius) {
                double w = pow(dl + p->separation_softening, 1 + p->separation_falloff);
                for (int c = 0; c < 3; c++)
                    S[c] -= d[c] / w;
            }
            if (dl < p->alignment_radius) {
                for (int c = 0; c < 3; c++)
                    A[c] += s->v[j][c];
                na++;
            }
            if (dl < p->cohesion_radius) {
                for (int c = 0; c < 3; c++)
                    C[c] += d[c];
                nc++;
            }
        }
        for (int c = 0; c < 3; c++) {
            A[c] = na ? A[c] / na : 0;
            C[c] = nc ? C[c] / nc : 0;
        }
        double uS[3], uA[3], uC[3], a[3];
        unit(S, uS);
        unit(A, uA);
        unit(C, uC);
        for (int c = 0; c < 3; c++)
            a[c] = p->separation * p->gain_separation * uS[c] +
                   p->alignment * p->gain_alignment * uA[c] +
                   p->cohesion * p->gain_cohesion * uC[c];
        double al = len(a);
        if (p->max_force > 0 && al > p->max_force)
            for (int c = 0; c < 3; c++)
                a[c] *= p->max_force / al;
        if (p->noise > 0) {   /* a direction uniform on the sphere: z = 1 - 2 u0, azimuth 2 pi u1 */
            double u0 = mur_noise_u01(seed, tick, (uint64_t)i, 0);
            double u1 = mur_noise_u01(seed, tick, (uint64_t)i, 1);
            double z = 1 - 2 * u0, rr = sqrt(1 - z * z);
            double u[3] = {rr * cos(2 * PI * u1), rr * sin(2 * PI * u1), z};
            for (int c = 0; c < 3; c++)
                a[c] += p->noise * p->max_speed * u[c];
        }
        double v[3];
        for (int c = 0; c < 3; c++)
            v[c] = s->v[i][c] + a[c];
        double sp = len(v);
        double target = sp > p->max_speed ? p->max_speed : sp < p->min_speed ? p->min_speed : sp;
        for (int c = 0; c < 3; c++) {
            if (sp > 0)
                v[c] *= target / sp;
            double x = s->r[i][c] + v[c];
            x = fmod(x, size[c]);
            if (x < 0)
                x += size[c];
            next.r[i][c] = x;
            next.v[i][c] = v[c];
        }
    }
    *s = next;
}

TEST(reynolds_in_3d_is_the_literal_model_for_50_ticks)
{
    mur_params p = space("wrkspc", MUR_BOUNDARY_WRAP);
    p.count = 300;
    p.noise = 0.05;
    p.fov = 270;
    p.width = 200;
    p.height = 160;
    p.depth = 120;
    mur_flock *f = make(&p, 11);
    static state s;
    load(f, &s);
    double worst = 0;
    for (int t = 0; t < 50; t++) {
        literal_tick(&p, 11, (uint64_t)t, &s);
        step(f, 1);
        for (int i = 0; i < s.n; i++) {
            const double got[6] = {mur_flock_x(f)[i], mur_flock_y(f)[i], mur_flock_z(f)[i],
                                   mur_flock_vx(f)[i], mur_flock_vy(f)[i], mur_flock_vz(f)[i]};
            for (int c = 0; c < 6; c++) {
                double want = c < 3 ? s.r[i][c] : s.v[i][c - 3], d = got[c] - want;
                if (c < 3) {
                    const double size[3] = {p.width, p.height, p.depth};
                    d -= size[c] * round(d / size[c]);
                }
                worst = fmax(worst, fabs(d));
            }
        }
    }
    CHECK(worst < 1e-9, "the core and the literal model differ by %g", worst);
    mur_flock_destroy(f);
}

/* ---- the grid against every pair ------------------------------------------ */

typedef struct {
    const char *preset;
    mur_neighbours nb;
} kind;

static const kind kinds[] = {
    {"wrkspc", MUR_NEIGHBOURS_METRIC}, {"wrkspc", MUR_NEIGHBOURS_TOPOLOGICAL},
    {"reynolds", MUR_NEIGHBOURS_METRIC}, {"vicsek", MUR_NEIGHBOURS_METRIC},
    {"vicsek", MUR_NEIGHBOURS_TOPOLOGICAL}, {"couzin", MUR_NEIGHBOURS_METRIC},
    {"couzin", MUR_NEIGHBOURS_TOPOLOGICAL},
};

/* A kind scaled to a world in which its flock has neighbours. */
static mur_params kind_params(const kind *k, mur_boundary b)
{
    mur_params p = space(k->preset, b);
    p.neighbours = k->nb;
    p.count = 400;
    if (!strcmp(k->preset, "vicsek") || !strcmp(k->preset, "couzin")) {
        p.width = 12;
        p.height = 10;
        p.depth = 8;
    }
    if (!strcmp(k->preset, "wrkspc"))
        p.noise = 0.02;
    return p;
}

TEST(the_grid_finds_the_neighbours_every_pair_finds_for_every_kind_and_boundary)
{
    const mur_boundary bs[] = {MUR_BOUNDARY_WRAP, MUR_BOUNDARY_REFLECT, MUR_BOUNDARY_AVOID,
                               MUR_BOUNDARY_OPEN};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (size_t b = 0; b < 4; b++) {
            mur_params p = kind_params(&kinds[k], bs[b]);
            mur_flock *g = make(&p, 5), *brute = make(&p, 5);
            mur_flock_set_brute_force(brute, 1);
            step(g, 25);
            step(brute, 25);
            double d = apart(g, brute);
            if (kinds[k].nb == MUR_NEIGHBOURS_TOPOLOGICAL)
                CHECK(d == 0, "%s topological, boundary %zu: grid and brute differ by %g",
                      kinds[k].preset, b, d);   /* the k set is visited in index order */
            else
                CHECK(d < 1e-9, "%s metric, boundary %zu: grid and brute differ by %g",
                      kinds[k].preset, b, d);
            mur_flock_destroy(g);
            mur_flock_destroy(brute);
        }
}

TEST(topological_ties_go_to_the_lower_index_as_every_pair_finds_them)
{
    /* a lattice: many boids at exactly equal distances */
    mur_params p = space("wrkspc", MUR_BOUNDARY_WRAP);
    p.neighbours = MUR_NEIGHBOURS_TOPOLOGICAL;
    p.width = p.height = p.depth = 80;
    int n = 8 * 8 * 8;
    p.count = n;
    static double x[512], y[512], z[512], vx[512], vy[512], vz[512];
    for (int i = 0; i < n; i++) {
        x[i] = 10.0 * (i % 8);
        y[i] = 10.0 * (i / 8 % 8);
        z[i] = 10.0 * (i / 64);
        vx[i] = 1;
        vy[i] = 0.5 * ((i * 7) % 3 - 1);
        vz[i] = 0.25 * ((i * 5) % 3 - 1);
    }
    mur_flock *g = make(&p, 1), *brute = make(&p, 1);
    mur_error err;
    REQUIRE(!mur_flock_set_state3(g, n, x, y, z, vx, vy, vz, &err), "%s", err.msg);
    REQUIRE(!mur_flock_set_state3(brute, n, x, y, z, vx, vy, vz, &err), "%s", err.msg);
    mur_flock_set_brute_force(brute, 1);
    step(g, 5);
    step(brute, 5);
    CHECK(apart(g, brute) == 0, "ties: grid and brute differ by %g", apart(g, brute));
    mur_flock_destroy(g);
    mur_flock_destroy(brute);
}

/* ---- symmetries ----------------------------------------------------------- */

TEST(a_rotated_flock_in_open_space_steps_to_the_rotated_result)
{
    /* a rotation about the axis (1, 2, 2) / 3 by 0.7 radians (Rodrigues) */
    double ax[3] = {1 / 3.0, 2 / 3.0, 2 / 3.0}, th = 0.7, R[3][3];
    double c = cos(th), s = sin(th);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[i][j] = (i == j ? c : 0) + (1 - c) * ax[i] * ax[j];
    R[0][1] -= s * ax[2];
    R[0][2] += s * ax[1];
    R[1][0] += s * ax[2];
    R[1][2] -= s * ax[0];
    R[2][0] -= s * ax[1];
    R[2][1] += s * ax[0];
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        mur_params p = kind_params(&kinds[k], MUR_BOUNDARY_OPEN);
        p.noise = 0;   /* the noise's frame is fixed in the world, not in the flock */
        p.count = 200;
        mur_flock *a = make(&p, 9), *b = make(&p, 9);
        int n = mur_flock_count(a);
        static double r[6][512];
        const double *src[6] = {mur_flock_x(a), mur_flock_y(a), mur_flock_z(a),
                                mur_flock_vx(a), mur_flock_vy(a), mur_flock_vz(a)};
        for (int i = 0; i < n; i++)
            for (int row = 0; row < 3; row++) {
                r[row][i] = r[row + 3][i] = 0;
                for (int col = 0; col < 3; col++) {
                    r[row][i] += R[row][col] * src[col][i];
                    r[row + 3][i] += R[row][col] * src[col + 3][i];
                }
            }
        mur_error err;
        REQUIRE(!mur_flock_set_state3(b, n, r[0], r[1], r[2], r[3], r[4], r[5], &err), "%s", err.msg);
        step(a, 20);
        step(b, 20);
        double worst = 0;
        const double *pa[6] = {mur_flock_x(a), mur_flock_y(a), mur_flock_z(a),
                               mur_flock_vx(a), mur_flock_vy(a), mur_flock_vz(a)};
        const double *pb[6] = {mur_flock_x(b), mur_flock_y(b), mur_flock_z(b),
                               mur_flock_vx(b), mur_flock_vy(b), mur_flock_vz(b)};
        for (int i = 0; i < n; i++)
            for (int row = 0; row < 6; row++) {
                int base = row < 3 ? 0 : 3, rr = row % 3;
                double want = 0;
                for (int col = 0; col < 3; col++)
                    want += R[rr][col] * pa[base + col][i];
                worst = fmax(worst, fabs(want - pb[row][i]));
            }
        CHECK(worst < 1e-9, "%s (neighbours %d): the rotated run is off by %g", kinds[k].preset,
              (int)kinds[k].nb, worst);
        mur_flock_destroy(a);
        mur_flock_destroy(b);
    }
}

TEST(a_shifted_flock_under_wrap_steps_to_the_shifted_result)
{
    const double shift[3] = {37.25, -11.5, 90.125};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        mur_params p = kind_params(&kinds[k], MUR_BOUNDARY_WRAP);
        const double size[3] = {p.width, p.height, p.depth};
        double sh[3];
        for (int c = 0; c < 3; c++)
            sh[c] = fmod(shift[c], size[c] / 3);
        mur_flock *a = make(&p, 4), *b = make(&p, 4);
        int n = mur_flock_count(a);
        static double r[6][512];
        const double *src[6] = {mur_flock_x(a), mur_flock_y(a), mur_flock_z(a),
                                mur_flock_vx(a), mur_flock_vy(a), mur_flock_vz(a)};
        for (int i = 0; i < n; i++)
            for (int c = 0; c < 6; c++)
                r[c][i] = c < 3 ? src[c][i] + sh[c] : src[c][i];
        mur_error err;
        REQUIRE(!mur_flock_set_state3(b, n, r[0], r[1], r[2], r[3], r[4], r[5], &err), "%s", err.msg);
        mur_flock_set_tick(b, 0);
        step(a, 20);
        step(b, 20);
        double worst = 0;
        const double *pa[3] = {mur_flock_x(a), mur_flock_y(a), mur_flock_z(a)};
        const double *pb[3] = {mur_flock_x(b), mur_flock_y(b), mur_flock_z(b)};
        for (int i = 0; i < n; i++)
            for (int c = 0; c < 3; c++) {
                double d = pa[c][i] + sh[c] - pb[c][i];
                d -= size[c] * round(d / size[c]);
                worst = fmax(worst, fabs(d));
            }
        CHECK(worst < 1e-9, "%s (neighbours %d): the shifted run is off by %g", kinds[k].preset,
              (int)kinds[k].nb, worst);
        mur_flock_destroy(a);
        mur_flock_destroy(b);
    }
}

TEST(every_kind_steps_to_the_same_bits_on_1_2_3_and_8_threads)
{
    const int threads[] = {2, 3, 8};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        mur_params p = kind_params(&kinds[k], MUR_BOUNDARY_WRAP);
        p.count = 1000;
        mur_flock *one = make(&p, 2);
        step(one, 10);
        for (int t = 0; t < 3; t++) {
            mur_flock *f = make(&p, 2);
            mur_error err;
            REQUIRE(!mur_flock_set_threads(f, threads[t], &err), "%s", err.msg);
            step(f, 10);
            CHECK(apart(one, f) == 0, "%s on %d threads differs by %g", kinds[k].preset, threads[t],
                  apart(one, f));
            mur_flock_destroy(f);
        }
        mur_flock_destroy(one);
    }
}

/* Whether a and b hold the same 3D state, byte for byte. */
static int same_bits(const mur_flock *a, const mur_flock *b)
{
    size_t n = (size_t)mur_flock_count(a) * sizeof(double);
    const double *ax[6] = {mur_flock_x(a), mur_flock_y(a), mur_flock_z(a),
                           mur_flock_vx(a), mur_flock_vy(a), mur_flock_vz(a)};
    const double *bx[6] = {mur_flock_x(b), mur_flock_y(b), mur_flock_z(b),
                           mur_flock_vx(b), mur_flock_vy(b), mur_flock_vz(b)};
    if (mur_flock_count(a) != mur_flock_count(b))
        return 0;
    for (int c = 0; c < 6; c++)
        if (memcmp(ax[c], bx[c], n))
            return 0;
    return 1;
}

TEST(every_kind_and_boundary_steps_to_the_same_bits_on_every_vector_unit)
{
    /* The 3D metric scan's candidate filter has portable, AVX2 and AVX-512
     * versions (filter.c), picked by mur_flock_set_simd; each must give the
     * neighbours in the same order with the same offsets, so the same bits.
     * Every kind on every boundary (the box has 4 cells along z at wrkspc's
     * radius, so the nearest image is taken on every cell there), a blind
     * spot, a crowd whose 3 x 3 x 3 blocks overflow the block's buffer
     * (each boid then walks its rows), and the starling's adaptive kind.
     * Without noise, reynolds' normalised sums are finished and the boids
     * moved four at a time on AVX2 and up (interaction3.c, motion3.c):
     * three flocks take those paths, on wrap and open, with alignment
     * relative, a separation falloff of 2 and softening, unequal radii, no
     * force clamp and a rule switched off.
     * The levels this CPU lacks are capped, and skipped. */
    const mur_boundary bs[] = {MUR_BOUNDARY_WRAP, MUR_BOUNDARY_REFLECT, MUR_BOUNDARY_AVOID,
                               MUR_BOUNDARY_OPEN};
    enum { KINDS = sizeof kinds / sizeof kinds[0] };
    int ran = 0;
    for (size_t c = 0; c < KINDS * 4 + 6; c++) {
        mur_params p;
        const char *what;
        if (c < KINDS * 4) {
            p = kind_params(&kinds[c / 4], bs[c % 4]);
            what = kinds[c / 4].preset;
        } else if (c == KINDS * 4) {
            p = kind_params(&kinds[0], MUR_BOUNDARY_WRAP);
            p.fov = 270;
            what = "wrkspc, fov 270";
        } else if (c == KINDS * 4 + 1) {
            p = space("wrkspc", MUR_BOUNDARY_WRAP);
            p.count = 3000;   /* 3 cells a side, so every block is the whole box */
            p.width = p.height = p.depth = 150;
            what = "wrkspc, a crowd";
        } else if (c == KINDS * 4 + 2) {
            p = kind_params(&kinds[0], MUR_BOUNDARY_WRAP);
            p.noise = 0;
            what = "wrkspc, no noise";
        } else if (c == KINDS * 4 + 3) {
            p = kind_params(&kinds[0], MUR_BOUNDARY_OPEN);
            p.noise = 0;
            p.alignment_mode = MUR_ALIGN_RELATIVE;
            p.separation_falloff = 2;
            p.separation_softening = 0.5;
            p.cohesion_radius = 1.5 * p.alignment_radius;
            what = "wrkspc, no noise, open, relative, falloff 2";
        } else if (c == KINDS * 4 + 4) {
            p = kind_params(&kinds[0], MUR_BOUNDARY_WRAP);
            p.noise = 0;
            p.max_force = 0;
            p.alignment = 0;
            what = "wrkspc, no noise, no clamp, alignment off";
        } else {
            const mur_preset *pre = mur_preset_find("starling");
            REQUIRE(pre, "no starling preset");
            p = pre->params;
            p.count = 600;
            what = "starling";
        }
        mur_flock *ref = make(&p, 4);
        CHECK(mur_flock_set_simd(ref, 0) == 0, "the portable filter is always there");
        step(ref, 12);
        int best = mur_flock_set_simd(ref, 99);
        for (int level = 1; level <= best; level++) {
            mur_flock *f = make(&p, 4);
            CHECK(mur_flock_set_simd(f, level) == level, "level %d refused", level);
            step(f, 12);
            CHECK(same_bits(ref, f), "%s (neighbours %d, boundary %d): vector level %d differs "
                  "from the portable filter", what, (int)p.neighbours, (int)p.boundary, level);
            mur_flock_destroy(f);
            ran += level >= 2;
        }
        mur_flock_destroy(ref);
    }
#if defined(__x86_64__)
    CHECK(ran > 0 || !__builtin_cpu_supports("avx2"), "no vector level ran on an AVX2 CPU");
#endif
}

TEST(a_3d_flock_moves_in_all_three_axes_and_stays_in_its_box)
{
    mur_params p = space("wrkspc", MUR_BOUNDARY_REFLECT);
    p.count = 500;
    mur_flock *f = make(&p, 3);
    REQUIRE(mur_flock_dimensions(f) == 3 && mur_flock_z(f) && mur_flock_vz(f), "no third axis");
    double z0 = mur_flock_z(f)[0];
    step(f, 100);
    int outside = 0;
    for (int i = 0; i < mur_flock_count(f); i++)
        outside += !(mur_flock_x(f)[i] >= 0 && mur_flock_x(f)[i] <= p.width &&
                     mur_flock_y(f)[i] >= 0 && mur_flock_y(f)[i] <= p.height &&
                     mur_flock_z(f)[i] >= 0 && mur_flock_z(f)[i] <= p.depth);
    CHECK(outside == 0, "%d boids left the box", outside);
    CHECK(mur_flock_z(f)[0] != z0, "z never changed");
    mur_flock_destroy(f);
}

TEST(bad_3d_settings_and_mixed_states_are_refused)
{
    mur_error err;
    mur_flock *f = NULL;
    mur_params p = space("wrkspc", MUR_BOUNDARY_WRAP);
    p.dimensions = 4;
    CHECK(mur_flock_create(&f, &p, 1, &err) == MUR_EINPUT && strstr(err.msg, "dimensions"), "4D");
    p.dimensions = 3;
    p.depth = 0;
    CHECK(mur_flock_create(&f, &p, 1, &err) == MUR_EINPUT && strstr(err.msg, "depth"), "depth 0");
    p.depth = 100;
    f = make(&p, 1);
    double a[1] = {1};
    CHECK(mur_flock_set_state(f, 1, a, a, a, a, &err) == MUR_EINPUT && strstr(err.msg, "3D"),
          "a 2D state in a 3D world");
    mur_params two = mur_preset_find("wrkspc")->params;
    CHECK(mur_flock_set_params(f, &two, &err) == MUR_EINPUT && strstr(err.msg, "dimensions"),
          "dimensions changed during a run");
    mur_flock *g = make(&two, 1);
    CHECK(mur_flock_set_state3(g, 1, a, a, a, a, a, a, &err) == MUR_EINPUT &&
              strstr(err.msg, "2D"),
          "a 3D state in a 2D world");
    mur_start_group grp = {.count = p.count, .region = MUR_REGION_DISC, .radius = 10};
    CHECK(mur_flock_set_start(f, &grp, 1, &err) == MUR_EINPUT, "a 2D region in a 3D world");
    mur_flock_destroy(f);
    mur_flock_destroy(g);
}

TEST(density_in_3d_is_boids_per_unit_volume)
{
    mur_params p = space("vicsek", MUR_BOUNDARY_WRAP);
    p.count = 1000;
    p.density = 8;
    mur_params_resolve(&p);
    CHECK(fabs(p.width - 5) < 1e-12 && fabs(p.height - 5) < 1e-12 && fabs(p.depth - 5) < 1e-12,
          "a cube of side cbrt(1000 / 8) = 5, got %g x %g x %g", p.width, p.height, p.depth);
}

TEST(a_3d_start_places_its_groups_in_a_ball_a_box_and_a_slab)
{
    mur_params p = space("wrkspc", MUR_BOUNDARY_WRAP);
    p.count = 900;
    mur_flock *f = make(&p, 8);
    mur_start_group g[3] = {
        {.count = 300, .region = MUR_REGION_BALL, .cx = 100, .cy = 120, .cz = 90, .radius = 30,
         .heading_random = 1, .speed_min = -1},
        {.count = 300, .region = MUR_REGION_BOX, .x = 10, .y = 20, .z = 5, .w = 50, .h = 40, .d = 30,
         .heading = 90, .spread = 20, .speed_min = 1, .speed_max = 2},
        {.count = 300, .region = MUR_REGION_SLAB, .z = 150, .d = 10, .heading_random = 1, .speed_min = -1},
    };
    mur_error err;
    REQUIRE(!mur_flock_set_start(f, g, 3, &err), "%s", err.msg);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f), *z = mur_flock_z(f);
    const double *vx = mur_flock_vx(f), *vy = mur_flock_vy(f), *vz = mur_flock_vz(f);
    int bad[3] = {0, 0, 0}, climbing = 0;
    double zmin = 1e9, zmax = -1e9;
    for (int i = 0; i < 300; i++)
        bad[0] += hypot(hypot(x[i] - 100, y[i] - 120), z[i] - 90) > 30;
    for (int i = 300; i < 600; i++) {
        bad[1] += !(x[i] >= 10 && x[i] <= 60 && y[i] >= 20 && y[i] <= 60 && z[i] >= 5 && z[i] <= 35);
        double a = atan2(vy[i], vx[i]) * 180 / 3.14159265358979323846, s = hypot(hypot(vx[i], vy[i]), vz[i]);
        bad[1] += !(fabs(a - 90) <= 10 + 1e-9 && vz[i] == 0 && s >= 1 - 1e-12 && s <= 2 + 1e-12);
    }
    for (int i = 600; i < 900; i++) {
        bad[2] += !(z[i] >= 150 && z[i] <= 160);
        zmin = fmin(zmin, z[i]);
        zmax = fmax(zmax, z[i]);
        climbing += vz[i] > 0;
    }
    CHECK(!bad[0] && !bad[1] && !bad[2], "outside their regions: ball %d, box %d, slab %d", bad[0], bad[1],
          bad[2]);
    CHECK(zmax - zmin > 9, "the slab is filled: z from %g to %g", zmin, zmax);
    CHECK(climbing > 100 && climbing < 200, "random headings on the sphere: %d of 300 climb", climbing);
    mur_start_group disc = {.count = 900, .region = MUR_REGION_DISC, .radius = 5};
    CHECK(mur_flock_set_start(f, &disc, 1, &err) == MUR_EINPUT && strstr(err.msg, "2D"), "a disc in 3D");
    mur_flock_destroy(f);
}

/* ---- the plane inside the box --------------------------------------------- */

/* Steps a 2D flock of p and the 3D flock of the same settings whose boids
 * start where the 2D ones do, at height z0 with vz = 0, for `ticks` ticks;
 * the largest difference of x, y, vx, vy (nearest image under wrap) and of
 * z from z0 and vz from 0. */
static double plane_apart(mur_params p, double z0, int ticks, uint64_t seed)
{
    mur_params p2 = p;
    p2.dimensions = 2;
    p2.depth = 0;
    mur_flock *a = make(&p2, seed), *b = make(&p, seed);
    int n = mur_flock_count(a);
    static double zero[512], z[512];
    for (int i = 0; i < n; i++)
        zero[i] = 0, z[i] = z0;
    mur_error err;
    if (mur_flock_set_state3(b, n, mur_flock_x(a), mur_flock_y(a), z, mur_flock_vx(a), mur_flock_vy(a),
                             zero, &err)) {
        fprintf(stderr, "set_state3: %s\n", err.msg);
        abort();
    }
    double worst = 0;
    const double size[2] = {p.width, p.height};
    for (int t = 0; t < ticks; t++) {
        step(a, 1);
        step(b, 1);
    }
    const double *pa[4] = {mur_flock_x(a), mur_flock_y(a), mur_flock_vx(a), mur_flock_vy(a)};
    const double *pb[4] = {mur_flock_x(b), mur_flock_y(b), mur_flock_vx(b), mur_flock_vy(b)};
    for (int i = 0; i < n; i++) {
        for (int c = 0; c < 4; c++) {
            double d = pa[c][i] - pb[c][i];
            if (c < 2 && p.boundary == MUR_BOUNDARY_WRAP)
                d -= size[c] * round(d / size[c]);
            worst = isnan(d) ? INFINITY : fmax(worst, fabs(d));
        }
        worst = fmax(worst, fabs(mur_flock_z(b)[i] - z0));
        worst = fmax(worst, fabs(mur_flock_vz(b)[i]));
    }
    mur_flock_destroy(a);
    mur_flock_destroy(b);
    return worst;
}

TEST(a_3d_flock_in_a_plane_steps_as_the_2d_flock_for_every_kind)
{
    /* Every kind without noise (the noise's direction is drawn on the
     * sphere, which the plane does not contain), in an open world at z = 0
     * and under wrap at a height inside a box of any depth: the x and y of
     * 500 ticks agree with the 2D flock's to 1e-12, z stays put (under
     * wrap an ulp may go at the first fold, (z + D) - D). Fields of view of
     * 360 and 270 degrees: the cone cut by the plane is the 2D wedge. Every
     * kind agrees to the bit but vicsek, whose 3D heading is the unit sum
     * turned onto a cap and not the 2D cos and sin of its angle (about
     * 1e-13 apart after 500 ticks: docs/notes/threed.md). */
    const mur_boundary bs[] = {MUR_BOUNDARY_OPEN, MUR_BOUNDARY_WRAP};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (int b = 0; b < 2; b++)
            for (int fov = 0; fov < 2; fov++) {
                mur_params p = kind_params(&kinds[k], bs[b]);
                p.noise = 0;
                p.count = 150;
                p.fov = fov ? 270 : 360;
                double z0 = bs[b] == MUR_BOUNDARY_WRAP ? p.depth * 0.37 : 0;
                double d = plane_apart(p, z0, 500, 3);
                CHECK(d <= 1e-12, "%s (neighbours %d), %s, fov %g: the plane's flock is off the 2D one by %g",
                      kinds[k].preset, (int)kinds[k].nb, b ? "wrap" : "open", p.fov, d);
            }
}
