/* Predators that hunt (issue 31): `pursue: nearest | centre | largest`
 * moves a predator itself, at its own speed and turning limit, toward its
 * prey; a flee `burst` lets boids within its radius outrun max_speed while
 * they flee. Read through the library: a session's flock and its predators. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/flock.h"
#include "murmur/scene.h"
#include "murmur/session.h"

#define HUNT_SCENE                                                                              \
    "seed: 2\nmodel: wrkspc\nworld: {width: 600, height: 400, boundary: wrap}\n"             \
    "flock: {count: 80}\nvideo: {width: 320, height: 214, fps: 30, duration: 20s, warmup: 30s}\n"

static mur_session *session_of(const char *yaml, mur_scene **s)
{
    mur_error err = {{0}};
    *s = NULL;
    if (mur_scene_parse(s, "hunt.yaml", yaml, strlen(yaml), &err)) {
        fprintf(stderr, "  %s\n", err.msg);
        return NULL;
    }
    mur_session *ss = NULL;
    mur_session_opts o = MUR_SESSION_OPTS_INIT;
    o.threads = 1;
    if (mur_session_create(&ss, *s, &o, &err))
        fprintf(stderr, "  %s\n", err.msg);
    return ss;
}

/* The first hunting predator of the session's flock, or NULL. */
static const mur_predator *hunter(const mur_session *ss)
{
    int n;
    const mur_predator *p = mur_flock_predators(mur_session_flock(ss, 0), &n);
    for (int k = 0; k < n; k++)
        if (p[k].hunting)
            return &p[k];
    return NULL;
}

/* Distance from the hunter to its prey now (nearest image). */
static double to_prey(const mur_session *ss, mur_pursue what)
{
    const mur_flock *f = mur_session_flock(ss, 0);
    const mur_predator *h = hunter(ss);
    double tx, ty, dx, dy;
    if (!h || mur_flock_pursue_target(f, what, h->x, h->y, &tx, &ty))
        return NAN;
    mur_flock_offset(f, h->x, h->y, tx, ty, &dx, &dy);
    return hypot(dx, dy);
}

TEST(a_pursuing_predator_closes_on_its_target)
{
    static const char *const names[] = {"nearest", "centre", "largest"};
    for (int w = 0; w < 3; w++) {
        char yaml[2048];
        snprintf(yaml, sizeof yaml,
                 HUNT_SCENE "predators:\n  - {mode: flee, pursue: %s, speed: 3, turn: 4, radius: 60, "
                            "strength: 0.5, from: 1s, x: \"0\", y: \"0\"}\n",
                 names[w]);
        mur_scene *s;
        mur_session *ss = session_of(yaml, &s);
        REQUIRE(ss, "%s: no session", names[w]);
        mur_error err = {{0}};
        REQUIRE(mur_session_run_to(ss, 62, &err) == 0, "%s", err.msg);
        REQUIRE(hunter(ss), "%s: no hunter in the flock at 1s", names[w]);
        double x0 = hunter(ss)->x, y0 = hunter(ss)->y, start = to_prey(ss, (mur_pursue)(w + 1)), closest = start;
        double ox, oy;   /* a tick or two after it started at its x, y (0, 0) */
        mur_flock_offset(mur_session_flock(ss, 0), 0, 0, x0, y0, &ox, &oy);
        CHECK(hypot(ox, oy) <= 2 * 3 + 1e-9, "%s: the hunter is at (%g, %g), not a step or two from its x, y (0, 0)",
              names[w], x0, y0);
        for (long t = 62; t < 62 + 600; t += 10) {
            REQUIRE(mur_session_run_to(ss, t, &err) == 0, "%s", err.msg);
            closest = fmin(closest, to_prey(ss, (mur_pursue)(w + 1)));
        }
        CHECK(start > 60, "%s: the hunter started %.1f from its prey: the test cannot fail", names[w], start);
        CHECK(closest < (w == 0 ? 10 : 30), "%s: %.1f from its prey at first, at best %.1f in 10 s", names[w], start,
              closest);
        mur_session_destroy(ss);
        mur_scene_destroy(s);
    }
    /* a predator without pursue stays where its expressions put it */
    mur_scene *s;
    mur_session *ss = session_of(HUNT_SCENE "predators:\n  - {mode: flee, radius: 60, x: \"0\", y: \"0\"}\n", &s);
    REQUIRE(ss, "no session");
    mur_error err = {{0}};
    REQUIRE(mur_session_run_to(ss, 300, &err) == 0, "%s", err.msg);
    int n;
    const mur_predator *p = mur_flock_predators(mur_session_flock(ss, 0), &n);
    CHECK(n == 1 && p[0].x == 0 && p[0].y == 0 && !p[0].hunting, "a scripted predator moved or hunts");
    mur_session_destroy(ss);
    mur_scene_destroy(s);
}

/* The fastest boid within the predator's radius, and the fastest anywhere. */
static void speeds(const mur_session *ss, double *near, double *any)
{
    const mur_flock *f = mur_session_flock(ss, 0);
    int n, np;
    const mur_predator *p = mur_flock_predators(f, &np);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f), *vx = mur_flock_vx(f), *vy = mur_flock_vy(f);
    for (int i = 0; i < (n = mur_flock_count(f)); i++) {
        double dx, dy, v = hypot(vx[i], vy[i]);
        *any = fmax(*any, v);
        mur_flock_offset(f, p[0].x, p[0].y, x[i], y[i], &dx, &dy);
        if (np && hypot(dx, dy) < p[0].radius)
            *near = fmax(*near, v);
    }
}

TEST(a_flee_burst_outruns_max_speed_only_while_fleeing)
{
    for (int burst = 0; burst < 2; burst++) {
        char yaml[2048];
        snprintf(yaml, sizeof yaml,
                 HUNT_SCENE "predators:\n  - {mode: flee, pursue: centre, speed: 3, radius: 80, strength: 0.8, "
                            "from: 1s, x: \"0\", y: \"0\"%s}\n",
                 burst ? ", burst: 1.8" : "");
        mur_scene *s;
        mur_session *ss = session_of(yaml, &s);
        REQUIRE(ss, "no session");
        double top = mur_flock_params(mur_session_flock(ss, 0))->max_speed, near = 0, any = 0, far = 0;
        mur_error err = {{0}};
        for (long t = 62; t < 62 + 600; t++) {
            REQUIRE(mur_session_run_to(ss, t, &err) == 0, "%s", err.msg);
            double a = 0;
            speeds(ss, &near, &a);
            any = fmax(any, a);
        }
        (void)far;
        if (burst) {
            CHECK(near > 1.3 * top, "with burst 1.8 the fleeing boids reached %.3f, max_speed %.3f", near, top);
            CHECK(any <= 1.8 * top + 1e-9, "a boid went %.3f, above 1.8 x max_speed %.3f", any, top);
        } else {
            CHECK(any <= top + 1e-9, "without a burst a boid went %.3f, above max_speed %.3f", any, top);
        }
        mur_session_destroy(ss);
        mur_scene_destroy(s);
    }
}

#define HUNT_SCENE3                                                                             \
    "seed: 3\nmodel: wrkspc\nworld: {dimensions: 3, width: 400, height: 300, depth: 200, boundary: wrap}\n" \
    "flock: {count: 80}\nvideo: {width: 320, height: 214, fps: 30, duration: 20s, warmup: 30s}\n"

/* Distance from the 3D hunter to its prey now (nearest image along x, y and z). */
static double to_prey3(const mur_session *ss, mur_pursue what)
{
    const mur_flock *f = mur_session_flock(ss, 0);
    const mur_predator *h = hunter(ss);
    double at[3], to[3], d[3];
    if (!h)
        return NAN;
    at[0] = h->x;
    at[1] = h->y;
    at[2] = h->z;
    if (mur_flock_pursue_target3(f, what, at, to))
        return NAN;
    mur_params_offset3(mur_flock_params(f), at, to, d);
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

TEST(a_pursuing_predator_closes_on_its_target_in_3d)
{
    static const char *const names[] = {"nearest", "centre", "largest"};
    for (int w = 0; w < 3; w++) {
        char yaml[2048];
        snprintf(yaml, sizeof yaml,
                 HUNT_SCENE3 "predators:\n  - {mode: flee, pursue: %s, speed: 3, turn: 4, radius: 60, "
                             "strength: 0.5, from: 1s, x: \"0\", y: \"0\", z: \"10\"}\n",
                 names[w]);
        mur_scene *s;
        mur_session *ss = session_of(yaml, &s);
        REQUIRE(ss, "%s: no session", names[w]);
        mur_error err = {{0}};
        REQUIRE(mur_session_run_to(ss, 62, &err) == 0, "%s", err.msg);
        REQUIRE(hunter(ss), "%s: no hunter in the 3D flock at 1s", names[w]);
        const mur_predator *h = hunter(ss);
        double a[3] = {0, 0, 10}, b[3] = {h->x, h->y, h->z}, o[3];
        mur_params_offset3(mur_flock_params(mur_session_flock(ss, 0)), a, b, o);
        CHECK(sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]) <= 2 * 3 + 1e-9,
              "%s: the hunter is at (%g, %g, %g), not a step or two from its x, y, z (0, 0, 10)", names[w], h->x,
              h->y, h->z);
        double start = to_prey3(ss, (mur_pursue)(w + 1)), closest = start, lo = h->z, hi = h->z;
        for (long t = 62; t < 62 + 600; t += 5) {
            REQUIRE(mur_session_run_to(ss, t, &err) == 0, "%s", err.msg);
            closest = fmin(closest, to_prey3(ss, (mur_pursue)(w + 1)));
            lo = fmin(lo, hunter(ss)->z);
            hi = fmax(hi, hunter(ss)->z);
        }
        CHECK(start > 60, "%s: the hunter started %.1f from its prey: the test cannot fail", names[w], start);
        CHECK(closest < (w == 0 ? 10 : 30), "%s: %.1f from its prey at first, at best %.1f in 10 s", names[w], start,
              closest);
        CHECK(hi - lo > 20, "%s: the hunter kept to z in [%.1f, %.1f]: it does not climb or dive", names[w], lo, hi);
        mur_session_destroy(ss);
        mur_scene_destroy(s);
    }
}

/* Where the 3D nearest-pursuing hunter is after `ticks`, on `threads` threads. */
static void hunter3_after(long ticks, int threads, double out[3])
{
    const char *yaml = HUNT_SCENE3 "predators:\n  - {mode: flee, pursue: nearest, speed: 3, turn: 4, radius: 60, "
                                   "strength: 0.5, from: 1s, x: \"0\", y: \"0\", z: \"10\"}\n";
    mur_scene *s = NULL;
    mur_error err = {{0}};
    out[0] = out[1] = out[2] = NAN;
    if (mur_scene_parse(&s, "hunt.yaml", yaml, strlen(yaml), &err))
        return;
    mur_session *ss = NULL;
    mur_session_opts o = MUR_SESSION_OPTS_INIT;
    o.threads = threads;
    if (!mur_session_create(&ss, s, &o, &err) && !mur_session_run_to(ss, ticks, &err) && hunter(ss)) {
        out[0] = hunter(ss)->x;
        out[1] = hunter(ss)->y;
        out[2] = hunter(ss)->z;
    }
    mur_session_destroy(ss);
    mur_scene_destroy(s);
}

TEST(a_3d_hunt_is_the_same_every_run_and_on_any_thread_count)
{
    double a[3], b[3], c[3];
    hunter3_after(400, 1, a);
    hunter3_after(400, 1, b);
    hunter3_after(400, 2, c);
    REQUIRE(isfinite(a[0]), "no hunter after 400 ticks");
    CHECK(!memcmp(a, b, sizeof a), "two runs: (%.17g, %.17g, %.17g) and (%.17g, %.17g, %.17g)", a[0], a[1], a[2],
          b[0], b[1], b[2]);
    CHECK(!memcmp(a, c, sizeof a), "1 and 2 threads: (%.17g, %.17g, %.17g) and (%.17g, %.17g, %.17g)", a[0], a[1],
          a[2], c[0], c[1], c[2]);
}

TEST(bad_hunters_exit_2_naming_the_line)
{
    char err[4096];
    CHECK(check_refuses("hunt-path.yaml",
                        "model: wrkspc\npredators:\n  - mode: attract\n    pursue: nearest\n    path: [[0s, 0, 0], [1s, 9, 9]]\n",
                        ":4:13:", "cannot pursue", err, sizeof err),
          "pursue on a path: %s", err);
    CHECK(check_refuses("hunt-speed.yaml", "model: wrkspc\npredators:\n  - {x: \"0\", y: \"0\", speed: 3}\n", ":3:29:",
                        "give 'pursue' too", err, sizeof err),
          "speed without pursue: %s", err);
    CHECK(check_refuses("hunt-prey.yaml", "model: wrkspc\npredators:\n  - {x: \"0\", y: \"0\", pursue: slowest}\n",
                        ":3:30:", "pursue", err, sizeof err),
          "an unknown prey: %s", err);
    CHECK(check_refuses("hunt-burst.yaml", "model: wrkspc\npredators:\n  - {x: \"0\", y: \"0\", burst: 0.5}\n", ":3:29:",
                        "out of range", err, sizeof err),
          "a burst below 1: %s", err);
}
