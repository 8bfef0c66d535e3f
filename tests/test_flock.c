/* The flock core against docs/model.md: reference trajectories, the properties
 * any correct implementation has, and the grid against brute force. */
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flock_util.h"
#include "harness.h"
#include "murmur/flock.h"
#include "murmur/metrics.h"
#include "murmur/presets.h"

static mur_params preset(const char *name)
{
    const mur_preset *p = mur_preset_find(name);
    if (!p) {
        fprintf(stderr, "no preset %s\n", name);
        abort();
    }
    return p->params;
}

/* Largest absolute difference of two flocks' states (positions compared by
 * nearest image when wrap is on). */
static double state_diff(const mur_flock *a, const mur_flock *b)
{
    double worst = 0;
    int n = mur_flock_count(a);
    for (int i = 0; i < n; i++) {
        double dx, dy;
        mur_flock_offset(a, mur_flock_x(a)[i], mur_flock_y(a)[i], mur_flock_x(b)[i],
                         mur_flock_y(b)[i], &dx, &dy);
        double e[4] = {dx, dy, mur_flock_vx(a)[i] - mur_flock_vx(b)[i],
                       mur_flock_vy(a)[i] - mur_flock_vy(b)[i]};
        for (int k = 0; k < 4; k++)
            if (!(fabs(e[k]) <= worst))
                worst = isnan(e[k]) ? INFINITY : fabs(e[k]);
    }
    return worst;
}

/* ---- reference trajectories --------------------------------------------- */

static void check_reference(const char *file)
{
    json_object *root = json_object_from_file(file);
    REQUIRE(root, "cannot read %s", file);
    json_object *jpre, *jinit, *jafter, *jworld;
    REQUIRE(json_object_object_get_ex(root, "preset", &jpre) &&
                json_object_object_get_ex(root, "initial", &jinit) &&
                json_object_object_get_ex(root, "after", &jafter) &&
                json_object_object_get_ex(root, "world", &jworld),
            "%s lacks a key", file);
    mur_params p = preset(json_object_get_string(jpre));
    p.width = json_object_get_double(json_object_array_get_idx(jworld, 0));
    p.height = json_object_get_double(json_object_array_get_idx(jworld, 1));
    int n = (int)json_object_array_length(jinit);
    double *s = malloc(4 * sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 4; k++)
            s[k * n + i] = json_object_get_double(
                json_object_array_get_idx(json_object_array_get_idx(jinit, (size_t)i), (size_t)k));
    mur_flock *f = make(&p, 1);
    mur_error err;
    REQUIRE(mur_flock_set_state(f, n, s, s + n, s + 2 * n, s + 3 * n, &err) == 0, "%s", err.msg);
    const int ticks[] = {1, 10, 50, 100};
    int done = 0;
    for (int t = 0; t < 4; t++) {
        while (done < ticks[t]) {
            mur_flock_step(f);
            done++;
        }
        char key[8];
        snprintf(key, sizeof key, "%d", ticks[t]);
        json_object *ja;
        REQUIRE(json_object_object_get_ex(jafter, key, &ja), "no tick %s", key);
        double worst = 0;
        int worst_i = 0;
        for (int i = 0; i < n; i++) {
            json_object *row = json_object_array_get_idx(ja, (size_t)i);
            double want[4], got[4] = {mur_flock_x(f)[i], mur_flock_y(f)[i], mur_flock_vx(f)[i],
                                      mur_flock_vy(f)[i]};
            for (int k = 0; k < 4; k++)
                want[k] = json_object_get_double(json_object_array_get_idx(row, (size_t)k));
            double dx, dy;
            mur_flock_offset(f, want[0], want[1], got[0], got[1], &dx, &dy);
            double e[4] = {dx, dy, got[2] - want[2], got[3] - want[3]};
            for (int k = 0; k < 4; k++)
                if (!(fabs(e[k]) <= worst)) {
                    worst = isnan(e[k]) ? INFINITY : fabs(e[k]);
                    worst_i = i;
                }
        }
        CHECK(worst < 1e-9, "%s tick %d: boid %d off by %.3g", file, ticks[t], worst_i, worst);
    }
    free(s);
    mur_flock_destroy(f);
    json_object_put(root);
}

TEST(matches_reference_wrkspc) { check_reference("tests/data/wrkspc.json"); }
TEST(matches_reference_lab) { check_reference("tests/data/lab.json"); }

/* ---- properties of docs/model.md ---------------------------------------- */

static const char *const all_presets[] = {
    "lab", "reynolds", "wrkspc", "radii", "engine", "engine-school",
    "engine-swarm", "engine-blindspot", "engine-predator",
};
#define NPRESETS (int)(sizeof all_presets / sizeof all_presets[0])

static mur_flock *copy_of(const mur_flock *src, uint64_t seed)
{
    mur_flock *f = make(mur_flock_params(src), seed);
    mur_error err;
    mur_flock_set_state(f, mur_flock_count(src), mur_flock_x(src), mur_flock_y(src),
                        mur_flock_vx(src), mur_flock_vy(src), &err);
    return f;
}

TEST(translation_invariance_under_wrap)
{
    /* Shift every boid by half the box (straddling the seam): the result
     * must be the shifted result. Sync presets only: noise is the same
     * function of (tick, id) either way. */
    const char *names[] = {"wrkspc", "reynolds", "radii", "engine", "lab"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        mur_params p = preset(names[k]);
        mur_flock *a = make(&p, 11);
        for (int t = 0; t < 30; t++)
            mur_flock_step(a);  /* let flocks form, some across the seam */
        int n = mur_flock_count(a);
        double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
        for (int i = 0; i < n; i++) {
            x[i] = fmod(mur_flock_x(a)[i] + p.width / 2, p.width);
            y[i] = fmod(mur_flock_y(a)[i] + p.height / 2, p.height);
        }
        mur_flock *b = copy_of(a, 11);
        mur_error err;
        mur_flock_set_state(b, n, x, y, mur_flock_vx(a), mur_flock_vy(a), &err);
        mur_flock *a2 = copy_of(a, 11);  /* same tick counter (0) as b */
        for (int t = 0; t < 5; t++) {
            mur_flock_step(a2);
            mur_flock_step(b);
        }
        for (int i = 0; i < n; i++) {
            x[i] = fmod(mur_flock_x(a2)[i] + p.width / 2, p.width);
            y[i] = fmod(mur_flock_y(a2)[i] + p.height / 2, p.height);
        }
        mur_flock *shifted = copy_of(a2, 11);
        mur_flock_set_state(shifted, n, x, y, mur_flock_vx(a2), mur_flock_vy(a2), &err);
        double d = state_diff(shifted, b);
        CHECK(d < 1e-9, "%s: shifted flock differs by %.3g", names[k], d);
        free(x);
        free(y);
        mur_flock_destroy(a);
        mur_flock_destroy(a2);
        mur_flock_destroy(b);
        mur_flock_destroy(shifted);
    }
}

TEST(permutation_invariance_in_sync_mode)
{
    mur_params p = preset("wrkspc");
    p.noise = 0;  /* noise is keyed by boid id, which a relabelling changes */
    mur_flock *a = make(&p, 5);
    for (int t = 0; t < 20; t++)
        mur_flock_step(a);
    int n = mur_flock_count(a);
    int *perm = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        perm[i] = (i * 37 + 11) % n;  /* 37 is coprime to 160: a permutation */
    double *s = malloc(4 * sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++) {
        s[i] = mur_flock_x(a)[perm[i]];
        s[n + i] = mur_flock_y(a)[perm[i]];
        s[2 * n + i] = mur_flock_vx(a)[perm[i]];
        s[3 * n + i] = mur_flock_vy(a)[perm[i]];
    }
    mur_flock *b = copy_of(a, 5);
    mur_error err;
    mur_flock_set_state(b, n, s, s + n, s + 2 * n, s + 3 * n, &err);
    for (int t = 0; t < 10; t++) {
        mur_flock_step(a);
        mur_flock_step(b);
    }
    double worst = 0;
    for (int i = 0; i < n; i++) {
        double e = fabs(mur_flock_x(b)[i] - mur_flock_x(a)[perm[i]]) +
                   fabs(mur_flock_vy(b)[i] - mur_flock_vy(a)[perm[i]]);
        if (!(e <= worst))
            worst = isnan(e) ? INFINITY : e;
    }
    CHECK(worst < 1e-9, "relabelled flock differs by %.3g", worst);
    free(perm);
    free(s);
    mur_flock_destroy(a);
    mur_flock_destroy(b);
}

TEST(straight_flight_with_everything_off)
{
    for (int k = 0; k < NPRESETS; k++) {
        mur_params p = preset(all_presets[k]);
        p.separation = p.alignment = p.cohesion = p.noise = 0;
        p.min_speed = 0;
        p.boundary = MUR_BOUNDARY_WRAP;
        mur_flock *f = make(&p, 3);
        int n = mur_flock_count(f);
        double *vx = malloc(sizeof(double) * (size_t)n), *vy = malloc(sizeof(double) * (size_t)n);
        memcpy(vx, mur_flock_vx(f), sizeof(double) * (size_t)n);
        memcpy(vy, mur_flock_vy(f), sizeof(double) * (size_t)n);
        /* constant speed rescales to max_speed on the first tick: start there */
        mur_flock_step(f);
        memcpy(vx, mur_flock_vx(f), sizeof(double) * (size_t)n);
        memcpy(vy, mur_flock_vy(f), sizeof(double) * (size_t)n);
        for (int t = 0; t < 50; t++)
            mur_flock_step(f);
        double worst = 0;
        for (int i = 0; i < n; i++) {
            double e = fabs(mur_flock_vx(f)[i] - vx[i]) + fabs(mur_flock_vy(f)[i] - vy[i]);
            if (!(e <= worst))
                worst = isnan(e) ? INFINITY : e;
        }
        CHECK(worst < 1e-9, "%s: velocity changed by %.3g with every rule off", all_presets[k], worst);
        free(vx);
        free(vy);
        mur_flock_destroy(f);
    }
}

TEST(random_headings_order_near_sqrt_pi_over_4n)
{
    /* E[phi] for N random unit vectors is ~ sqrt(pi / 4N); averaged over 200
     * seeds the mean sits within a few percent of it. */
    mur_params p = preset("wrkspc");
    double sum = 0;
    const int seeds = 200;
    for (int s = 0; s < seeds; s++) {
        mur_flock *f = make(&p, (uint64_t)s + 1);
        sum += mur_metrics_order(mur_flock_count(f), mur_flock_vx(f), mur_flock_vy(f));
        mur_flock_destroy(f);
    }
    double mean = sum / seeds, want = sqrt(3.14159265358979 / (4.0 * p.count));
    CHECK(fabs(mean - want) < 0.08 * want, "mean order %.4f, expected ~%.4f", mean, want);
}

TEST(flock_forms_from_random_headings)
{
    mur_params p = preset("wrkspc");
    mur_flock *f = make(&p, 7);
    double before = mur_metrics_order(mur_flock_count(f), mur_flock_vx(f), mur_flock_vy(f));
    for (int t = 0; t < 1200; t++)
        mur_flock_step(f);
    double after = mur_metrics_order(mur_flock_count(f), mur_flock_vx(f), mur_flock_vy(f));
    CHECK(before < 0.3 && after > 0.6, "order %.3f -> %.3f: no flock formed", before, after);
    mur_flock_destroy(f);
}

/* Order of a flock after `ticks` more ticks of params q (its state kept). */
static double order_after(mur_flock *f, const mur_params *q, int ticks)
{
    mur_error err;
    if (mur_flock_set_params(f, q, &err)) {
        fprintf(stderr, "set_params: %s\n", err.msg);
        abort();
    }
    for (int t = 0; t < ticks; t++)
        mur_flock_step(f);
    return mur_metrics_order(mur_flock_count(f), mur_flock_vx(f), mur_flock_vy(f));
}

/* Why a formed, noiseless flock keeps its heading when alignment is
 * knocked out (docs/scenes.md, experiment conditions): separation and
 * cohesion answer only where the neighbours are, never where they head,
 * so with every boid heading alike nothing turns the common heading, and
 * without noise nothing scrambles it. Noise does, and then only alignment
 * brings the heading back. */
TEST(a_formed_noiseless_flock_keeps_its_heading_without_alignment)
{
    mur_params p = preset("wrkspc");
    mur_flock *a = make(&p, 7), *b = make(&p, 7), *c = make(&p, 7);
    double formed = order_after(a, &p, 1500);
    order_after(b, &p, 1500);
    order_after(c, &p, 1500);
    mur_params off = p, noisy_off = p, noisy_on = p;
    off.alignment = 0;
    noisy_off.alignment = 0;
    noisy_off.noise = noisy_on.noise = 0.1;
    double kept = order_after(a, &off, 1500), lost = order_after(b, &noisy_off, 1500),
           held = order_after(c, &noisy_on, 1500);
    fprintf(stderr, "  order: formed %.3f; no alignment %.3f; with noise 0.1 %.3f; noise and alignment %.3f\n",
            formed, kept, lost, held);
    CHECK(formed > 0.9, "the flock did not form (order %.3f)", formed);
    CHECK(kept > formed - 0.05, "without alignment and noise the order fell %.3f -> %.3f", formed, kept);
    CHECK(lost < 0.5, "noise did not scramble the heading without alignment (order %.3f)", lost);
    CHECK(held > 0.8, "with alignment the noisy flock lost its heading (order %.3f)", held);
    mur_flock_destroy(a);
    mur_flock_destroy(b);
    mur_flock_destroy(c);
}

/* ---- the grid against brute force ---------------------------------------- */

/* Steps a grid flock and a brute-force flock from the same state for `ticks`
 * ticks and returns the largest difference seen (nearest image). */
static double grid_vs_brute(const mur_params *p, const mur_predator *pred, int npred,
                            uint64_t seed, int ticks, int *at)
{
    mur_flock *g = make(p, seed), *b = make(p, seed);
    mur_flock_set_brute_force(b, 1);
    mur_flock_set_predators(g, pred, npred);
    mur_flock_set_predators(b, pred, npred);
    double worst = 0;
    *at = 0;
    for (int t = 1; t <= ticks; t++) {
        mur_flock_step(g);
        mur_flock_step(b);
        double d = state_diff(g, b);
        if (!(d <= worst)) {
            worst = isnan(d) ? INFINITY : d;
            *at = t;
        }
    }
    mur_flock_destroy(g);
    mur_flock_destroy(b);
    return worst;
}

TEST(grid_matches_brute_force_for_every_preset_and_boundary)
{
    static const char *const bname[] = {"wrap", "reflect", "avoid"};
    REQUIRE(mur_preset_count() >= 9, "only %d presets", mur_preset_count());
    for (int k = 0; k < mur_preset_count(); k++) {
        const mur_preset *pre = mur_preset_at(k);
        /* A scripted predator where the preset has one; it moves no boid
         * differently on the grid, but it stirs the flock. */
        mur_predator pred = pre->predator;
        pred.x = 0.4 * pre->params.width;
        pred.y = 0.6 * pre->params.height;
        int npred = pre->predator_x ? 1 : 0;
        for (int b = 0; b < 3; b++) {
            mur_params p = pre->params;
            p.boundary = (mur_boundary)b;
            int at;
            double d = grid_vs_brute(&p, &pred, npred, 21, 20, &at);
            CHECK(d < 1e-9, "%s/%s: grid differs from brute force by %.3g at tick %d",
                  pre->name, bname[b], d, at);
        }
    }
}

TEST(grid_matches_brute_force_in_small_and_dense_worlds)
{
    /* Worlds of 1 to 4 cells a side (the wrap special cases of the grid) and
     * a crowd of 6 boids a cell, every boundary. */
    const double sizes[][2] = {{35, 30}, {85, 60}, {130, 125}, {170, 300}};
    const char *names[] = {"wrkspc", "lab", "engine-blindspot"};
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < 3; k++)
            for (int b = 0; b < 3; b++) {
                mur_params p = preset(names[k]);
                p.width = sizes[s][0];
                p.height = sizes[s][1];
                p.count = (int)(p.width * p.height / 300);
                p.boundary = (mur_boundary)b;
                int at;
                double d = grid_vs_brute(&p, NULL, 0, 5, 20, &at);
                CHECK(d < 1e-9, "%s %gx%g boundary %d: grid differs by %.3g at tick %d", names[k],
                      p.width, p.height, b, d, at);
            }
    /* Sequential ticks read boids that moved this tick, up to max_speed out
     * of the cell they were filed in: in a crowd, many neighbours cross a
     * cell border and come within reach in the same tick. */
    for (int b = 0; b < 3; b++) {
        mur_params p = preset("lab");
        p.count = 1000;
        p.max_speed = 8;  /* fast: more boids cross a cell border each tick */
        p.boundary = (mur_boundary)b;
        int at;
        double d = grid_vs_brute(&p, NULL, 0, 6, 12, &at);
        CHECK(d < 1e-9, "lab crowd, boundary %d: grid differs by %.3g at tick %d", b, d, at);
    }
}

/* ---- determinism -------------------------------------------------------- */

static int same_bytes(const mur_flock *a, const mur_flock *b)
{
    size_t n = (size_t)mur_flock_count(a) * sizeof(double);
    return mur_flock_count(a) == mur_flock_count(b) &&
           memcmp(mur_flock_x(a), mur_flock_x(b), n) == 0 &&
           memcmp(mur_flock_y(a), mur_flock_y(b), n) == 0 &&
           memcmp(mur_flock_vx(a), mur_flock_vx(b), n) == 0 &&
           memcmp(mur_flock_vy(a), mur_flock_vy(b), n) == 0;
}

TEST(thread_count_gives_identical_bytes)
{
    const char *names[] = {"engine", "wrkspc"};  /* engine has noise */
    const int threads[] = {2, 4, 7};
    for (int k = 0; k < 2; k++) {
        mur_params p = preset(names[k]);
        double scale = sqrt(5000.0 / p.count);  /* the preset's own density */
        p.count = 5000;
        p.width *= scale;
        p.height *= scale;
        mur_error err;
        mur_flock *ref = make(&p, 77);
        REQUIRE(mur_flock_set_threads(ref, 1, &err) == 0, "%s", err.msg);
        for (int t = 0; t < 200; t++)
            mur_flock_step(ref);
        for (int m = 0; m < 3; m++) {
            mur_flock *f = make(&p, 77);
            REQUIRE(mur_flock_set_threads(f, threads[m], &err) == 0, "%s", err.msg);
            CHECK(mur_flock_threads(f) == threads[m], "%d threads asked, %d running",
                  threads[m], mur_flock_threads(f));
            for (int t = 0; t < 200; t++)
                mur_flock_step(f);
            CHECK(same_bytes(ref, f), "%s: %d threads differ from 1 thread after 200 ticks",
                  names[k], threads[m]);
            mur_flock_destroy(f);
        }
        mur_flock_destroy(ref);
    }
}

/* FNV-1a over the state's bytes: x, y, vx, vy in that order. */
static uint64_t state_hash(const mur_flock *f)
{
    uint64_t h = 0xcbf29ce484222325u;
    size_t n = (size_t)mur_flock_count(f) * sizeof(double);
    const double *cols[4] = {mur_flock_x(f), mur_flock_y(f), mur_flock_vx(f), mur_flock_vy(f)};
    for (int c = 0; c < 4; c++)
        for (size_t i = 0; i < n; i++)
            h = (h ^ ((const uint8_t *)cols[c])[i]) * 0x100000001b3u;
    return h;
}

/* A pinned hash (Box2D's EXPECTED_HASH): the state of a fixed flock after
 * 150 ticks hashes to a constant written here, for 1 to 16 threads and
 * every vector unit this CPU runs. Comparing runs with each other cannot
 * see a change that moves them all alike (a compiler flag, a reordered
 * sum); this can. A deliberate change of the simulation's bits re-pins it
 * in the same commit, saying why. */
TEST(a_fixed_flock_hashes_to_its_pinned_value_on_every_thread_count_and_vector_unit)
{
    static const struct {
        const char *preset;
        uint64_t expected;
    } pins[] = {
        {"engine", 0xdf0685660be4fb21u},   /* sync, noise, clamp, steer */
        {"wrkspc", 0x726f4ec9c07015bdu},   /* sync, normalize, max_force */
        {"lab", 0x58bf016f98ab92ceu},      /* sequential, constant speed */
    };
    for (size_t k = 0; k < sizeof pins / sizeof pins[0]; k++) {
        mur_params p = preset(pins[k].preset);
        p.count = 1000;
        p.width = p.height = 500;
        mur_error err;
        /* Every thread count at the CPU's best vector unit, and every vector
         * unit at 1 and at 16 threads. */
        for (int run = 0; run < 16 + 8; run++) {
            int threads = run < 16 ? run + 1 : run < 20 ? 1 : 16;
            int level = run < 16 ? 3 : (run - 16) % 4;
            mur_flock *f = make(&p, 2026);
            REQUIRE(mur_flock_set_threads(f, threads, &err) == 0, "%s", err.msg);
            int got = mur_flock_set_simd(f, level);
            if (run >= 16 && got != level) {
                mur_flock_destroy(f);
                continue;   /* this CPU stops below level */
            }
            for (int t = 0; t < 150; t++)
                mur_flock_step(f);
            uint64_t h = state_hash(f);
            CHECK(h == pins[k].expected, "%s, %d threads, vector level %d: hash 0x%016llxu, "
                  "pinned 0x%016llxu", pins[k].preset, threads, got, (unsigned long long)h,
                  (unsigned long long)pins[k].expected);
            mur_flock_destroy(f);
        }
    }
}

TEST(every_vector_unit_gives_identical_bytes)
{
    /* The neighbour filter has portable, SSE2, AVX2 and AVX-512 versions
     * (src/core/filter.h), and each must give the same bits. Cases: wrap
     * and walls, sync and sequential, a blind spot, separate radii, and a
     * crowd whose 3 x 3 blocks overflow the scan's buffer and are read in
     * place. (Brute force always runs the portable filter, so the tests
     * comparing the grid with it compare the filters too.) */
    struct {
        const char *preset;
        int boundary, count;
        double scale;  /* world side against the preset's */
    } cases[] = {
        {"wrkspc", MUR_BOUNDARY_WRAP, 400, 1.6},
        {"lab", MUR_BOUNDARY_WRAP, 300, 1.2},
        {"engine-blindspot", MUR_BOUNDARY_REFLECT, 300, 1},
        {"radii", MUR_BOUNDARY_AVOID, 300, 1},
        {"reynolds", MUR_BOUNDARY_WRAP, 150, 1},
        {"wrkspc", MUR_BOUNDARY_WRAP, 4000, 0.4},
    };
    int levels = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        mur_params p = preset(cases[c].preset);
        p.boundary = (mur_boundary)cases[c].boundary;
        p.count = cases[c].count;
        p.width *= cases[c].scale;
        p.height *= cases[c].scale;
        mur_flock *ref = make(&p, 5);
        CHECK(mur_flock_set_simd(ref, 0) == 0, "the portable filter is always there");
        for (int t = 0; t < 40; t++)
            mur_flock_step(ref);
        mur_flock *probe = make(&p, 5);
        int best = mur_flock_set_simd(probe, 99);
        mur_flock_destroy(probe);
        levels = best;
        for (int level = 1; level <= best; level++) {
            mur_flock *f = make(&p, 5);
            CHECK(mur_flock_set_simd(f, level) == level, "level %d refused", level);
            for (int t = 0; t < 40; t++)
                mur_flock_step(f);
            CHECK(same_bytes(ref, f), "%s (boundary %d, %d boids): vector level %d differs from "
                  "the portable filter", cases[c].preset, cases[c].boundary, p.count, level);
            mur_flock_destroy(f);
        }
        mur_flock_destroy(ref);
    }
#if defined(__x86_64__)
    CHECK(levels >= 1, "an x86-64 CPU always has SSE2, yet only level %d ran", levels);
#endif
}

TEST(boids_flying_past_a_whole_world_wrap_the_same_on_every_vector_unit)
{
    /* With AVX2, boids move four at a time (motion_d.h, steer4); a boid
     * that lands more than a world away takes wrap_pos's fmod, and its four
     * go back to the scalar code. In a world smaller than a tick's step
      * (1 x 1 unit, speeds 1.2 to 2.4) most boids do, every tick: each
     * level must step to the same bytes as the portable code, inside the
     * world. */
    mur_params p = preset("wrkspc");
    p.count = 37;   /* not a multiple of four: the scalar tail too */
    p.width = 1;
    p.height = 1;
    mur_flock *ref = make(&p, 11);
    mur_flock_set_simd(ref, 0);
    for (int t = 0; t < 6; t++)
        mur_flock_step(ref);
    mur_flock *probe = make(&p, 11);
    int best = mur_flock_set_simd(probe, 99);
    mur_flock_destroy(probe);
    for (int level = 1; level <= best; level++) {
        mur_flock *f = make(&p, 11);
        CHECK(mur_flock_set_simd(f, level) == level, "level %d refused", level);
        for (int t = 0; t < 6; t++)
            mur_flock_step(f);
        CHECK(same_bytes(ref, f), "vector level %d wraps boids past a whole world differently", level);
        for (int i = 0; i < p.count; i++)
            CHECK(mur_flock_x(f)[i] >= 0 && mur_flock_x(f)[i] < p.width && mur_flock_y(f)[i] >= 0 &&
                      mur_flock_y(f)[i] < p.height,
                  "boid %d at (%g, %g), outside the world", i, mur_flock_x(f)[i], mur_flock_y(f)[i]);
        mur_flock_destroy(f);
    }
    mur_flock_destroy(ref);
}

TEST(a_rule_switched_off_is_skipped_exactly)
{
    /* A rule with weight 0 is not summed at all (flock.c, rules_used). The
     * one-boid view sums every rule, in index order as brute force does, so
     * on a brute-force flock each boid's acceleration from the view must be
     * exactly the step's: v' = v + a wherever the speed rule does not
     * rescale. The five knockout conditions of wrkspc, and steer. */
    const double w[5][3] = {{1.5, 1, 0.9}, {1.5, 0, 0.9}, {0, 1, 0.9}, {1.5, 1, 0}, {0, 0, 0}};
    const char *names[] = {"wrkspc", "reynolds"};
    for (int k = 0; k < 2; k++)
        for (int c = 0; c < 5; c++) {
            mur_params p = preset(names[k]);
            p.separation = w[c][0];
            p.alignment = w[c][1];
            p.cohesion = w[c][2];
            mur_flock *f = make(&p, 9);
            mur_flock_set_brute_force(f, 1);
            for (int t = 0; t < 60; t++)
                mur_flock_step(f);
            int n = mur_flock_count(f), checked = 0, wrong = 0;
            double *want = malloc(2 * sizeof(double) * (size_t)n);
            for (int i = 0; i < n; i++) {
                mur_rules r;
                mur_flock_rules(f, i, &r);
                want[2 * i] = mur_flock_vx(f)[i] + r.accel[0];
                want[2 * i + 1] = mur_flock_vy(f)[i] + r.accel[1];
            }
            mur_flock_step(f);
            for (int i = 0; i < n; i++) {
                double s = hypot(want[2 * i], want[2 * i + 1]);
                if (!(s > p.min_speed * 1.001 && s < p.max_speed * 0.999))
                    continue;  /* the speed rule rescales: not the sum alone */
                checked++;
                wrong += mur_flock_vx(f)[i] != want[2 * i] || mur_flock_vy(f)[i] != want[2 * i + 1];
            }
            CHECK(checked > n / 10, "%s condition %d: only %d of %d boids unclamped", names[k], c,
                  checked, n);
            CHECK(wrong == 0, "%s weights %g/%g/%g: %d of %d boids moved otherwise than their "
                  "rules say", names[k], w[c][0], w[c][1], w[c][2], wrong, checked);
            free(want);
            mur_flock_destroy(f);
        }
}

TEST(radius_tests_decide_as_the_square_root_does)
{
    /* The scan decides d < R from d2 against a precomputed bound, without a
     * square root (flock.c, sqrt_bound); it must agree with sqrt(d2) < R
     * for neighbours a few ulps either side of every radius. */
    const char *names[] = {"lab", "radii", "wrkspc"};
    for (int k = 0; k < 3; k++) {
        mur_params p = preset(names[k]);
        p.boundary = MUR_BOUNDARY_REFLECT;
        p.width = p.height = 1000;
        const double radii[3] = {p.separation_radius, p.alignment_radius, p.cohesion_radius};
        enum { M = 121 };
        double x[M], y[M], vx[M], vy[M];
        x[0] = y[0] = 500;
        vx[0] = 1;
        vy[0] = 0;
        int want[3] = {0, 0, 0};
        for (int j = 1; j < M; j++) {
            /* radius (j % 3), nudged by -20 .. +19 ulps, at angle j */
            double r = radii[j % 3], a = j * 0.7;
            for (int u = 0; u < (j / 3) % 40; u++)
                r = nextafter(r, 0);
            for (int u = 0; u < 20 - (j / 3) % 40; u++)
                r = nextafter(r, INFINITY);
            x[j] = 500 + r * cos(a);
            y[j] = 500 + r * sin(a);
            vx[j] = 1;
            vy[j] = 0;
            double dx = x[j] - x[0], dy = y[j] - y[0], d = sqrt(dx * dx + dy * dy);
            for (int q = 0; q < 3; q++)
                want[q] += d > 0 && d < radii[q];
        }
        mur_error err;
        mur_flock *f = make(&p, 1);
        REQUIRE(mur_flock_set_state(f, M, x, y, vx, vy, &err) == 0, "%s", err.msg);
        mur_rules r;
        mur_flock_rules(f, 0, &r);
        CHECK(r.n_sep == want[0] && r.n_ali == want[1] && r.n_coh == want[2],
              "%s: neighbours %d/%d/%d, sqrt says %d/%d/%d", names[k], r.n_sep, r.n_ali, r.n_coh,
              want[0], want[1], want[2]);
        CHECK(want[2] > 0 && want[2] < M - 1, "%s: the case tests nothing (%d of %d within)",
              names[k], want[2], M - 1);
        mur_flock_destroy(f);
    }
}

/* ---- field of view ------------------------------------------------------ */

TEST(fov_360_sees_all_round)
{
    /* Every boid's neighbour counts and raw rule vectors at fov 360 against
     * sums written out here with no cone at all. */
    mur_params p = preset("engine");  /* three distinct radii would be better: */
    p.separation_radius = 20;
    p.alignment_radius = 35;
    p.cohesion_radius = 50;
    p.count = 400;
    p.fov = 360;
    mur_flock *f = make(&p, 8);
    for (int t = 0; t < 30; t++)
        mur_flock_step(f);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    const double *vx = mur_flock_vx(f), *vy = mur_flock_vy(f);
    int n = mur_flock_count(f), bad = 0, behind = 0;
    double worst = 0;
    for (int i = 0; i < n; i++) {
        int ns = 0, na = 0, nc = 0;
        double S[2] = {0, 0}, A[2] = {0, 0}, C[2] = {0, 0};
        for (int j = 0; j < n; j++) {
            if (j == i)
                continue;
            double dx, dy;
            mur_flock_offset(f, x[i], y[i], x[j], y[j], &dx, &dy);
            double d = sqrt(dx * dx + dy * dy);
            if (d == 0)
                continue;
            if (d < p.cohesion_radius && dx * vx[i] + dy * vy[i] < 0)
                behind++;
            if (d < p.separation_radius) {  /* falloff 1: d / d^2 */
                S[0] -= dx / (d * d);
                S[1] -= dy / (d * d);
                ns++;
            }
            if (d < p.alignment_radius) {
                A[0] += vx[j];
                A[1] += vy[j];
                na++;
            }
            if (d < p.cohesion_radius) {
                C[0] += dx;
                C[1] += dy;
                nc++;
            }
        }
        mur_rules r;
        mur_flock_rules(f, i, &r);
        if (r.n_sep != ns || r.n_ali != na || r.n_coh != nc)
            bad++;
        double e[6] = {r.sep[0] - S[0], r.sep[1] - S[1],
                       na ? r.ali[0] - A[0] / na : r.ali[0], na ? r.ali[1] - A[1] / na : r.ali[1],
                       nc ? r.coh[0] - C[0] / nc : r.coh[0], nc ? r.coh[1] - C[1] / nc : r.coh[1]};
        for (int k = 0; k < 6; k++)
            if (!(fabs(e[k]) <= worst))
                worst = isnan(e[k]) ? INFINITY : fabs(e[k]);
    }
    REQUIRE(behind > 100, "only %d neighbours behind a boid: the test shows nothing", behind);
    CHECK(bad == 0, "%d boids with neighbour counts other than no-cone counts", bad);
    CHECK(worst < 1e-9, "rule vectors differ from no-cone sums by %.3g", worst);
    mur_flock_destroy(f);
}

/* Boid 0 at (100, 100) heading +x; the others placed at `deg` degrees off
 * its heading, 10 units away. Returns boid 0's n_coh. */
static int seen_by_boid0(double fov, int n, const double *deg)
{
    mur_params p = preset("engine");
    p.fov = fov;
    double x[8] = {100}, y[8] = {100}, vx[8] = {1.5}, vy[8] = {0};
    for (int k = 0; k < n; k++) {
        double a = deg[k] * 3.14159265358979323846 / 180;
        x[k + 1] = 100 + 10 * cos(a);
        y[k + 1] = 100 + 10 * sin(a);
        vx[k + 1] = 1;
        vy[k + 1] = 0;
    }
    mur_flock *f = make(&p, 1);
    mur_error err;
    mur_flock_set_state(f, n + 1, x, y, vx, vy, &err);
    mur_rules r;
    mur_flock_rules(f, 0, &r);
    mur_flock_destroy(f);
    return r.n_coh;
}

TEST(fov_below_360_excludes_boids_behind)
{
    const double ahead = 0, behind = 180;
    int seen = seen_by_boid0(200, 2, (double[]){ahead, behind});
    CHECK(seen == 1, "fov 200: %d of {ahead, behind} seen, want 1", seen);
    CHECK(seen_by_boid0(360, 2, (double[]){ahead, behind}) == 2, "fov 360 must see both");
    /* fov 200 is a half-angle of 100 degrees either side of the heading. */
    CHECK(seen_by_boid0(200, 2, (double[]){95, -95}) == 2, "95 degrees off is inside fov 200");
    CHECK(seen_by_boid0(200, 2, (double[]){105, -105}) == 0, "105 degrees off is outside fov 200");
    CHECK(seen_by_boid0(90, 2, (double[]){40, 50}) == 1, "fov 90: 40 in, 50 out");
}

/* ---- robustness --------------------------------------------------------- */

static int all_finite(const mur_flock *f)
{
    for (int i = 0; i < mur_flock_count(f); i++)
        if (!isfinite(mur_flock_x(f)[i]) || !isfinite(mur_flock_y(f)[i]) ||
            !isfinite(mur_flock_vx(f)[i]) || !isfinite(mur_flock_vy(f)[i]))
            return 0;
    return 1;
}

TEST(a_rule_switched_off_stays_off_when_its_sum_overflows)
{
    /* Two boids 1.4e-130 apart: with falloff 2 and no softening, (d + e)^3
     * underflows to 0 and their separation sum is infinite. Switched off,
     * the rule must add nothing, in the step and in the one-boid view alike,
     * rather than 0 * NaN. (A reviewer's reproducer.) */
    const char *names[] = {"wrkspc", "reynolds"};
    for (int k = 0; k < 2; k++) {
        mur_params p = preset(names[k]);
        p.boundary = MUR_BOUNDARY_REFLECT;
        p.separation = 0;
        p.separation_falloff = 2;
        p.separation_softening = 0;
        double x[3] = {0, 1e-130, 3}, y[3] = {0, 1e-130, 0}, vx[3] = {1, 1, 1}, vy[3] = {0, 0, 0};
        mur_error err;
        mur_flock *f = make(&p, 1);
        REQUIRE(mur_flock_set_state(f, 3, x, y, vx, vy, &err) == 0, "%s", err.msg);
        mur_rules r;
        mur_flock_rules(f, 0, &r);
        CHECK(isfinite(r.accel[0]) && isfinite(r.accel[1]), "%s: the view's acceleration is %g, %g",
              names[k], r.accel[0], r.accel[1]);
        mur_flock_step(f);
        CHECK(all_finite(f), "%s: a switched-off rule made a velocity NaN", names[k]);
        mur_flock_destroy(f);
    }
}

TEST(coincident_boids_give_no_nan)
{
    /* A boid on the very same point is no neighbour (it has no direction). */
    {
        mur_params p = preset("reynolds");
        double x[3] = {100, 100, 110}, y[3] = {50, 50, 50}, vx[3] = {1, -1, 1}, vy[3] = {0, 0, 0};
        mur_flock *f = make(&p, 1);
        mur_error err;
        mur_flock_set_state(f, 3, x, y, vx, vy, &err);
        mur_rules r;
        mur_flock_rules(f, 0, &r);
        CHECK(r.n_sep == 1 && r.n_ali == 1 && r.n_coh == 1,
              "boid 0 counts %d/%d/%d neighbours, want 1/1/1 (boid 1 is on it)", r.n_sep,
              r.n_ali, r.n_coh);
        CHECK(r.sep[0] == -0.01 && r.sep[1] == 0 && r.coh[0] == 10 && r.ali[0] == 1,
              "boid 0 rule vectors S (%g, %g) C (%g) A (%g)", r.sep[0], r.sep[1], r.coh[0],
              r.ali[0]);
        mur_flock_destroy(f);
    }
    for (int k = 0; k < mur_preset_count(); k++) {
        mur_params p = mur_preset_at(k)->params;
        mur_flock *f = make(&p, 13);
        int n = mur_flock_count(f);
        double *s = malloc(4 * sizeof(double) * (size_t)n);
        memcpy(s, mur_flock_x(f), sizeof(double) * (size_t)n);
        memcpy(s + n, mur_flock_y(f), sizeof(double) * (size_t)n);
        memcpy(s + 2 * n, mur_flock_vx(f), sizeof(double) * (size_t)n);
        memcpy(s + 3 * n, mur_flock_vy(f), sizeof(double) * (size_t)n);
        /* boid 1 on boid 0 with another heading; boids 3-5 on boid 2 with
         * its very velocity (they stay together until something parts
         * them); boid 6 on 7 at rest */
        s[1] = s[0];
        s[n + 1] = s[n];
        for (int j = 3; j <= 5; j++) {
            s[j] = s[2];
            s[n + j] = s[n + 2];
            s[2 * n + j] = s[2 * n + 2];
            s[3 * n + j] = s[3 * n + 2];
        }
        s[6] = s[7];
        s[n + 6] = s[n + 7];
        s[2 * n + 6] = s[3 * n + 6] = s[2 * n + 7] = s[3 * n + 7] = 0;
        mur_error err;
        mur_flock_set_state(f, n, s, s + n, s + 2 * n, s + 3 * n, &err);
        int t = 0;
        for (; t < 100 && all_finite(f); t++)
            mur_flock_step(f);
        CHECK(t == 100 && all_finite(f), "%s: NaN or inf at tick %d", mur_preset_at(k)->name, t);
        free(s);
        mur_flock_destroy(f);
    }
}

TEST(boundaries_keep_every_boid_inside)
{
    static const char *const bname[] = {"wrap", "reflect", "avoid"};
    for (int b = 0; b < 3; b++) {
        mur_params p = preset("wrkspc");
        p.count = 160;
        p.boundary = (mur_boundary)b;
        mur_flock *f = make(&p, 31);
        int outside = 0, first = -1;
        for (int t = 1; t <= 10000; t++) {
            /* A strong predator sweeping the world drives boids into the
             * walls (and keeps the flock from packing into one clump). */
            mur_predator pred = {p.width * (0.5 + 0.45 * cos(t / 40.0)),
                                 p.height * (0.5 + 0.45 * sin(t / 55.0)), 120, 2.0, 0, 0, 0, 0, 0};
            mur_flock_set_predators(f, &pred, 1);
            mur_flock_step(f);
            const double *x = mur_flock_x(f), *y = mur_flock_y(f);
            for (int i = 0; i < p.count; i++) {
                int in = b == MUR_BOUNDARY_WRAP
                             ? x[i] >= 0 && x[i] < p.width && y[i] >= 0 && y[i] < p.height
                             : x[i] >= 0 && x[i] <= p.width && y[i] >= 0 && y[i] <= p.height;
                if (!in) {
                    outside++;
                    if (first < 0)
                        first = t;
                }
            }
        }
        CHECK(outside == 0, "%s: %d boid-ticks outside the world, first at tick %d", bname[b],
              outside, first);
        mur_flock_destroy(f);
    }
}

TEST(every_preset_keeps_its_speed_rule_for_2000_ticks)
{
    for (int k = 0; k < mur_preset_count(); k++) {
        const mur_preset *pre = mur_preset_at(k);
        mur_params p = pre->params;
        mur_flock *f = make(&p, 17);
        mur_predator pred = pre->predator;
        int bad = 0, nan_at = -1;
        double worst = 0;
        for (int t = 1; t <= 2000 && nan_at < 0; t++) {
            if (pre->predator_x) {  /* a predator circling the world */
                pred.x = p.width * (0.5 + 0.3 * cos(t / 100.0));
                pred.y = p.height * (0.5 + 0.3 * sin(t / 70.0));
                mur_flock_set_predators(f, &pred, 1);
            }
            mur_flock_step(f);
            if (!all_finite(f))
                nan_at = t;
            for (int i = 0; i < p.count; i++) {
                /* a 3D preset's speed has its z (starling) */
                double vz = mur_flock_vz(f) ? mur_flock_vz(f)[i] : 0;
                double v = sqrt(pow(mur_flock_vx(f)[i], 2) + pow(mur_flock_vy(f)[i], 2) + vz * vz);
                if (v == 0)
                    continue;
                int ok = p.speed_rule == MUR_SPEED_CONSTANT
                             ? fabs(v - p.max_speed) <= 1e-9
                             : v >= p.min_speed - 1e-9 && v <= p.max_speed + 1e-9;
                if (!ok) {
                    bad++;
                    if (fabs(v - p.max_speed) > worst)
                        worst = fabs(v - p.max_speed);
                }
            }
        }
        CHECK(nan_at < 0, "%s: not finite at tick %d", pre->name, nan_at);
        CHECK(bad == 0, "%s: %d speeds outside the rule (|v| - max up to %.3g)", pre->name, bad,
              worst);
        mur_flock_destroy(f);
    }
}

/* ---- settings between ticks ------------------------------------------------ */

TEST(settings_changed_between_ticks_apply_from_the_next_tick)
{
    mur_params p = preset("wrkspc"), q = p;
    q.cohesion_radius = 80;  /* also changes the grid's cell size */
    q.alignment = 0;
    q.separation = 3;
    mur_flock *a = make(&p, 3), *same = make(&p, 3);
    for (int t = 0; t < 10; t++) {
        mur_flock_step(a);
        mur_flock_step(same);
    }
    /* reference: a fresh flock built with q, loaded with a's state, stepped
     * once by brute force */
    mur_flock *ref = copy_of(a, 3);
    mur_error err;
    REQUIRE(mur_flock_set_params(ref, &q, &err) == 0, "%s", err.msg);
    mur_flock_set_state(ref, p.count, mur_flock_x(a), mur_flock_y(a), mur_flock_vx(a),
                        mur_flock_vy(a), &err);
    mur_flock_set_brute_force(ref, 1);
    REQUIRE(mur_flock_set_params(a, &q, &err) == 0, "%s", err.msg);
    CHECK(mur_flock_params(a)->cohesion_radius == 80, "params not stored");
    CHECK(same_bytes(a, same), "set_params moved boids before the tick");
    mur_flock_step(a);
    mur_flock_step(same);
    mur_flock_step(ref);
    CHECK(state_diff(a, ref) < 1e-9, "tick after set_params differs from a flock built with "
          "the new settings by %.3g", state_diff(a, ref));
    CHECK(state_diff(a, same) > 1e-6, "the new settings changed nothing");
    mur_flock_destroy(a);
    mur_flock_destroy(same);
    mur_flock_destroy(ref);
}

TEST(shrinking_a_wrapped_world_keeps_boids_inside_and_grid_exact)
{
    mur_params p = preset("wrkspc");
    p.count = 1500;
    p.width = 1200;
    p.height = 900;
    mur_flock *g = make(&p, 4), *b = make(&p, 4);
    mur_flock_set_brute_force(b, 1);
    p.width = 300;  /* most boids are now beyond the world, some by 3 worlds */
    p.height = 200;
    mur_error err;
    mur_flock_set_params(g, &p, &err);
    mur_flock_set_params(b, &p, &err);
    int outside = 0;
    for (int i = 0; i < p.count; i++)
        outside += !(mur_flock_x(g)[i] >= 0 && mur_flock_x(g)[i] < p.width &&
                     mur_flock_y(g)[i] >= 0 && mur_flock_y(g)[i] < p.height);
    CHECK(outside == 0, "%d boids outside the wrapped world after it shrank", outside);
    for (int t = 0; t < 5; t++) {
        mur_flock_step(g);
        mur_flock_step(b);
    }
    CHECK(state_diff(g, b) < 1e-9, "grid differs from brute force by %.3g after the world shrank",
          state_diff(g, b));
    mur_flock_destroy(g);
    mur_flock_destroy(b);
}

TEST(count_change_in_place_keeps_the_first_boids)
{
    mur_params p = preset("wrkspc");
    mur_flock *f = make(&p, 9);
    for (int t = 0; t < 25; t++)
        mur_flock_step(f);
    int n0 = p.count;
    size_t bytes = (size_t)n0 * sizeof(double);
    double *before = malloc(4 * bytes);
    memcpy(before, mur_flock_x(f), bytes);
    memcpy(before + n0, mur_flock_y(f), bytes);
    memcpy(before + 2 * n0, mur_flock_vx(f), bytes);
    memcpy(before + 3 * n0, mur_flock_vy(f), bytes);
    mur_error err;
    p.count = 400;
    REQUIRE(mur_flock_set_params(f, &p, &err) == 0, "%s", err.msg);
    CHECK(mur_flock_count(f) == 400, "count %d after growing to 400", mur_flock_count(f));
    CHECK(memcmp(mur_flock_x(f), before, bytes) == 0 &&
              memcmp(mur_flock_y(f), before + n0, bytes) == 0 &&
              memcmp(mur_flock_vx(f), before + 2 * n0, bytes) == 0 &&
              memcmp(mur_flock_vy(f), before + 3 * n0, bytes) == 0,
          "growing changed the first %d boids", n0);
    int bad = 0, distinct = 0;
    for (int i = n0; i < 400; i++) {
        double x = mur_flock_x(f)[i], y = mur_flock_y(f)[i];
        double v = hypot(mur_flock_vx(f)[i], mur_flock_vy(f)[i]);
        bad += !(x >= 0 && x < p.width && y >= 0 && y < p.height &&
                 fabs(v - p.init_speed_max) < 1e-9);
        distinct += i > n0 && x != mur_flock_x(f)[i - 1];
    }
    CHECK(bad == 0, "%d added boids outside the world or not at init speed", bad);
    CHECK(distinct == 400 - n0 - 1, "added boids are not drawn afresh");
    p.count = 100;
    REQUIRE(mur_flock_set_params(f, &p, &err) == 0, "%s", err.msg);
    CHECK(mur_flock_count(f) == 100, "count %d after shrinking to 100", mur_flock_count(f));
    CHECK(memcmp(mur_flock_x(f), before, 100 * sizeof(double)) == 0 &&
              memcmp(mur_flock_vy(f), before + 3 * n0, 100 * sizeof(double)) == 0,
          "shrinking did not keep the first 100 boids");
    for (int t = 0; t < 20; t++)
        mur_flock_step(f);
    CHECK(all_finite(f), "shrunk flock went non-finite");
    free(before);
    mur_flock_destroy(f);
}

/* ---- predators ---------------------------------------------------------- */

/* Mean nearest-image distance to (px, py) of the boids `mask` marks. */
static double mean_distance(const mur_flock *f, const char *mask, double px, double py)
{
    double sum = 0;
    int m = 0;
    for (int i = 0; i < mur_flock_count(f); i++)
        if (mask[i]) {
            double dx, dy;
            mur_flock_offset(f, px, py, mur_flock_x(f)[i], mur_flock_y(f)[i], &dx, &dy);
            sum += hypot(dx, dy);
            m++;
        }
    return m ? sum / m : 0;
}

TEST(predators_push_away_and_attractors_pull)
{
    mur_params p = preset("engine");
    p.noise = 0;
    p.count = 300;
    double px = p.width / 2, py = p.height / 2;
    mur_flock *none = make(&p, 12), *flee = make(&p, 12), *attract = make(&p, 12);
    mur_predator pr = {px, py, 120, 0.6, 0, 0, 0, 0, 0};
    mur_flock_set_predators(flee, &pr, 1);
    pr.attract = 1;
    mur_flock_set_predators(attract, &pr, 1);
    char *mask = calloc((size_t)p.count, 1);
    int near = 0;
    for (int i = 0; i < p.count; i++) {
        mask[i] = hypot(mur_flock_x(none)[i] - px, mur_flock_y(none)[i] - py) < 100;
        near += mask[i];
    }
    REQUIRE(near > 5, "only %d boids near the predator", near);
    for (int t = 0; t < 20; t++) {
        mur_flock_step(none);
        mur_flock_step(flee);
        mur_flock_step(attract);
    }
    double d0 = mean_distance(none, mask, px, py), d1 = mean_distance(flee, mask, px, py),
           d2 = mean_distance(attract, mask, px, py);
    CHECK(d1 > d0 + 5, "flee: mean distance %.1f, without predator %.1f", d1, d0);
    CHECK(d2 < d0 - 5, "attract: mean distance %.1f, without attractor %.1f", d2, d0);
    free(mask);
    mur_flock_destroy(none);
    mur_flock_destroy(flee);
    mur_flock_destroy(attract);
}

/* One boid, every rule off and no speed limit in reach: its velocity change
 * over one tick is the predator term alone. */
static void predator_term(double bx, double by, const mur_predator *pr, double *ax, double *ay)
{
    mur_params p = preset("wrkspc");
    p.separation = p.alignment = p.cohesion = p.noise = 0;
    p.max_force = 0;
    p.min_speed = 0;
    p.max_speed = 100;
    double vx = 0.3, vy = -0.2;
    mur_flock *f = make(&p, 1);
    mur_error err;
    mur_flock_set_state(f, 1, &bx, &by, &vx, &vy, &err);
    mur_flock_set_predators(f, pr, 1);
    mur_flock_step(f);
    *ax = mur_flock_vx(f)[0] - vx;
    *ay = mur_flock_vy(f)[0] - vy;
    mur_flock_destroy(f);
}

TEST(predator_acceleration_is_the_formula)
{
    /* a = sign f (1 - d/R) unit(r - p), nearest image (world 480 x 320). */
    struct {
        double bx, by, px, py, R, f;
        int attract;
        double rx, ry;  /* r - p, nearest image */
    } cases[] = {
        {200, 150, 170, 110, 80, 0.5, 0, 30, 40},   /* d = 50 */
        {200, 150, 170, 110, 80, 0.5, 1, 30, 40},
        {5, 300, 470, 20, 60, 1.2, 0, 15, -40},     /* across both seams */
        {5, 300, 470, 20, 60, 1.2, 1, 15, -40},
        {100, 100, 100, 190, 90, 0.7, 0, 0, -90},   /* d = R: no effect */
        {100, 100, 300, 100, 90, 0.7, 0, -200, 0},  /* beyond R */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        mur_predator pr = {cases[k].px, cases[k].py, cases[k].R, cases[k].f, cases[k].attract, 0, 0, 0, 0};
        double ax, ay;
        predator_term(cases[k].bx, cases[k].by, &pr, &ax, &ay);
        double d = hypot(cases[k].rx, cases[k].ry), m = 0;
        if (d < cases[k].R)
            m = (cases[k].attract ? -1 : 1) * cases[k].f * (1 - d / cases[k].R) / d;
        double ex = m * cases[k].rx, ey = m * cases[k].ry;
        CHECK(fabs(ax - ex) < 1e-12 && fabs(ay - ey) < 1e-12,
              "case %zu: a = (%.15g, %.15g), want (%.15g, %.15g)", k, ax, ay, ex, ey);
    }
}

/* ---- noise -------------------------------------------------------------- */

TEST(noise_is_a_function_of_seed_tick_and_id)
{
    mur_params p = preset("engine-swarm");
    mur_flock *a = make(&p, 101), *b = make(&p, 101), *c = make(&p, 102);
    mur_error err;
    mur_flock_set_threads(b, 3, &err);
    for (int t = 0; t < 150; t++) {
        mur_flock_step(a);
        mur_flock_step(b);
    }
    CHECK(same_bytes(a, b), "same seed, 1 and 3 threads: different flocks");
    /* c: another seed, but a's initial state: only the noise differs */
    mur_flock_reset(a);
    mur_flock_set_state(c, p.count, mur_flock_x(a), mur_flock_y(a), mur_flock_vx(a),
                        mur_flock_vy(a), &err);
    mur_flock_step(a);
    mur_flock_step(c);
    CHECK(state_diff(a, c) > 1e-6, "another seed gives the same noise");

    /* Lone boids (no neighbours in reach): boid i's noise must not depend on
     * how many boids there are, nor on replaying after set_state. */
    p.separation_radius = p.alignment_radius = p.cohesion_radius = 1;
    p.min_speed = 0;
    double x[6], y[6], vx[6] = {0}, vy[6] = {0};
    for (int i = 0; i < 6; i++) {
        x[i] = 50 + 90 * i;
        y[i] = 300;
    }
    mur_flock *six = make(&p, 7), *three = make(&p, 7);
    mur_flock_set_state(six, 6, x, y, vx, vy, &err);
    mur_flock_set_state(three, 3, x, y, vx, vy, &err);
    mur_flock_step(six);
    mur_flock_step(three);
    double kick = p.noise * p.max_speed;
    for (int i = 0; i < 3; i++) {
        double v = hypot(mur_flock_vx(six)[i], mur_flock_vy(six)[i]);
        CHECK(fabs(v - kick) < 1e-12, "boid %d: noise kick %.15g, want noise x max_speed = %g", i,
              v, kick);
        CHECK(mur_flock_vx(six)[i] == mur_flock_vx(three)[i] &&
                  mur_flock_vy(six)[i] == mur_flock_vy(three)[i],
              "boid %d: noise depends on the boid count", i);
    }
    CHECK(mur_flock_vx(six)[0] != mur_flock_vx(six)[1], "boids 0 and 1 got the same noise");
    double vx1 = mur_flock_vx(six)[1], vy1 = mur_flock_vy(six)[1];
    mur_flock_step(six);  /* tick 1 draws other noise than tick 0 */
    CHECK(fabs(mur_flock_vx(six)[1] - 2 * vx1) + fabs(mur_flock_vy(six)[1] - 2 * vy1) > 1e-9,
          "ticks 0 and 1 drew the same noise for boid 1");
    mur_flock_set_state(six, 6, x, y, vx, vy, &err);
    mur_flock_step(six);
    CHECK(mur_flock_vx(six)[1] == vx1, "replaying tick 0 after set_state drew other noise");
    mur_flock_destroy(a);
    mur_flock_destroy(b);
    mur_flock_destroy(c);
    mur_flock_destroy(six);
    mur_flock_destroy(three);
}

/* ---- walls -------------------------------------------------------------- */

TEST(reflect_flips_the_velocity_component_at_a_wall)
{
    mur_params p = preset("wrkspc");
    p.boundary = MUR_BOUNDARY_REFLECT;
    p.separation = p.alignment = p.cohesion = 0;
    double x[2] = {5, 240}, y[2] = {100, 317}, vx[2] = {-2.2, 0.5}, vy[2] = {0.3, 2.0};
    mur_flock *f = make(&p, 1);
    mur_error err;
    mur_flock_set_state(f, 2, x, y, vx, vy, &err);
    for (int t = 0; t < 3; t++)
        mur_flock_step(f);
    /* boid 0: x 5 -> 2.8 -> 0.6 -> -1.6, mirrored to 1.6, moving +x again;
     * boid 1: y 317 -> 319 -> 321 (mirrored to 319, heading down) -> 317. */
    const double *fx = mur_flock_x(f), *fy = mur_flock_y(f);
    const double *fvx = mur_flock_vx(f), *fvy = mur_flock_vy(f);
    CHECK(fabs(fx[0] - 1.6) < 1e-12 && fvx[0] == 2.2 && fvy[0] == 0.3,
          "boid 0 at x %.15g, v (%g, %g); want x 1.6, v (2.2, 0.3)", fx[0], fvx[0], fvy[0]);
    CHECK(fabs(fy[1] - 317) < 1e-12 && fvy[1] == -2.0 && fvx[1] == 0.5,
          "boid 1 at y %.15g, v (%g, %g); want y 317, v (0.5, -2)", fy[1], fvx[1], fvy[1]);
    CHECK(fabs(fy[0] - 100.9) < 1e-12 && fabs(fx[1] - 241.5) < 1e-12,
          "the other component moved wrongly: %.15g, %.15g", fy[0], fx[1]);
    mur_flock_destroy(f);
}

/* A 2D flock says it is 2D and has no third axis (issue #29: 2D callers
 * never read z, so their arithmetic and bytes are unchanged). */
TEST(two_dimensional_flock_has_no_z)
{
    mur_params p = preset("reynolds");
    mur_flock *f = make(&p, 7);
    CHECK(mur_flock_dimensions(f) == 2, "dimensions %d", mur_flock_dimensions(f));
    CHECK(mur_flock_z(f) == NULL && mur_flock_vz(f) == NULL, "no z in 2D");
    CHECK(mur_flock_x(f) != NULL, "x is there");
    mur_flock_destroy(f);
}

/* mur_params carries its layout's version (issue #45): a set from a preset
 * or mur_params_init is taken, a zeroed one or one from a newer header is
 * refused by name rather than read with the wrong layout. */
TEST(a_params_set_without_its_version_is_refused)
{
    mur_params p;
    mur_params_init(&p);
    CHECK(p.version == MUR_PARAMS_VERSION, "mur_params_init gives version %u", p.version);
    CHECK(!memcmp(&p, &mur_preset_find(MUR_PRESET_DEFAULT)->params, sizeof p),
          "mur_params_init is the default preset's settings");
    for (int i = 0; i < mur_preset_count(); i++)
        CHECK(mur_preset_at(i)->params.version == MUR_PARAMS_VERSION, "preset %s has version %u",
              mur_preset_at(i)->name, mur_preset_at(i)->params.version);
    mur_flock *f = NULL;
    mur_error err;
    REQUIRE(!mur_flock_create(&f, &p, 1, &err), "%s", err.msg);
    const unsigned bad[] = {0, MUR_PARAMS_VERSION + 1};
    for (int k = 0; k < 2; k++) {
        mur_params q = p;
        q.version = bad[k];
        mur_flock *g = NULL;
        CHECK(mur_flock_create(&g, &q, 1, &err) == MUR_EINPUT && !g, "version %u is taken", bad[k]);
        CHECK(strstr(err.msg, "mur_params version") != NULL, "the refusal says why: %s", err.msg);
        CHECK(mur_flock_set_params(f, &q, &err) == MUR_EINPUT, "set_params takes version %u", bad[k]);
    }
    mur_flock_destroy(f);
}
