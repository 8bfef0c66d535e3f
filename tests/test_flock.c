/* The flock core against MODEL.md: reference trajectories, the properties
 * any correct implementation has, and the grid against brute force. */
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static mur_flock *make(const mur_params *p, uint64_t seed)
{
    mur_flock *f = NULL;
    mur_error err;
    if (mur_flock_create(&f, p, seed, &err)) {
        fprintf(stderr, "create: %s\n", err.msg);
        abort();
    }
    return f;
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

/* ---- properties of MODEL.md --------------------------------------------- */

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
