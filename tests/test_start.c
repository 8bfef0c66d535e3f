/* The starting flock's shape (flock.start, docs/scenes.md): every boid
 * starts inside its region, heading within its spread and at its speed;
 * groups add up and keep their order; the same seed gives the same start;
 * a scene without a shape starts exactly as before; colour by group draws
 * each group in its colour; and bad shapes are refused at their line. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "murmur/session.h"
#include "scene_util.h"

/* The flock a scene starts with (after its warm-up, if any). */
static mur_flock *start_of(const mur_scene *s)
{
    mur_flock *f = NULL;
    mur_driver *d = NULL;
    mur_error err;
    int rc = mur_flock_create(&f, &s->params, s->seed, &err);
    if (rc || (rc = mur_driver_create(&d, &err)) || (rc = mur_driver_start(d, s, f, &s->params, &err)))
        fprintf(stderr, "  start: %s\n", err.msg);
    mur_driver_destroy(d);
    if (rc) {
        mur_flock_destroy(f);
        return NULL;
    }
    return f;
}

static double heading_deg(double vx, double vy) { return atan2(vy, vx) * 180 / MUR_PI; }

TEST(groups_start_in_their_regions_with_their_headings_and_speeds)
{
    mur_scene *s = scene_of("model: wrkspc\nseed: 3\nworld: {width: 1000, height: 600}\n"
                            "flock:\n  start:\n    groups:\n"
                            "      - {count: 120, disc: {center: [200, 300], radius: 50}, heading: 0, spread: 20, speed: 1.5}\n"
                            "      - {count: 80, box: {x: 700, y: 100, width: 100, height: 300}, heading: 180,"
                            " spread: 10, speed: [1, 2]}\n"
                            "      - {count: 50, ring: {center: [500, 300], radius: 100, width: 10}}\n");
    REQUIRE(s, "scene");
    CHECK(s->params.count == 250, "the groups' counts add up to the flock's: %d", s->params.count);
    mur_flock *f = start_of(s);
    REQUIRE(f, "flock");
    const double *x = mur_flock_x(f), *y = mur_flock_y(f), *vx = mur_flock_vx(f), *vy = mur_flock_vy(f);
    const unsigned char *g = mur_flock_groups(f);
    REQUIRE(g, "a flock in groups says which boid is in which");
    int out[3] = {0}, off[3] = {0}, wrong = 0;
    for (int i = 0; i < 250; i++) {
        int k = i < 120 ? 0 : i < 200 ? 1 : 2;
        wrong += g[i] != k;
        double speed = hypot(vx[i], vy[i]), h = heading_deg(vx[i], vy[i]);
        if (k == 0) {
            out[0] += hypot(x[i] - 200, y[i] - 300) > 50;
            off[0] += fabs(h) > 10 + 1e-9 || fabs(speed - 1.5) > 1e-12;
        } else if (k == 1) {
            out[1] += x[i] < 700 || x[i] > 800 || y[i] < 100 || y[i] > 400;
            off[1] += fabs(fabs(h) - 180) > 5 + 1e-9 || speed < 1 - 1e-12 || speed > 2 + 1e-12;
        } else {
            double r = hypot(x[i] - 500, y[i] - 300);
            out[2] += r < 95 || r > 105;
        }
    }
    CHECK(wrong == 0, "%d boids in the wrong group (boid 0 is the first group's first)", wrong);
    for (int k = 0; k < 3; k++)
        CHECK(out[k] == 0 && off[k] == 0, "group %d: %d outside its region, %d off heading or speed", k,
              out[k], off[k]);
    /* the same seed, the same start */
    mur_flock *f2 = start_of(s);
    REQUIRE(f2, "flock");
    CHECK(!memcmp(mur_flock_x(f2), x, 250 * sizeof *x) && !memcmp(mur_flock_vy(f2), vy, 250 * sizeof *vy),
          "two starts of one scene differ");
    mur_flock_destroy(f2);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

TEST(one_shape_places_the_whole_flock_and_uniform_is_the_default)
{
    mur_scene *s = scene_of("model: wrkspc\nseed: 3\nworld: {width: 600, height: 400}\n"
                            "flock: {start: {disc: {center: [300, 200], radius: 20}, heading: 90}, count: 300}\n");
    REQUIRE(s, "scene");
    mur_flock *f = start_of(s);
    REQUIRE(f, "flock");
    int out = 0, off = 0;
    for (int i = 0; i < mur_flock_count(f); i++) {
        out += hypot(mur_flock_x(f)[i] - 300, mur_flock_y(f)[i] - 200) > 20;
        off += fabs(heading_deg(mur_flock_vx(f)[i], mur_flock_vy(f)[i]) - 90) > 1e-9;
    }
    CHECK(mur_flock_count(f) == 300 && out == 0 && off == 0, "%d boids: %d outside, %d off heading",
          mur_flock_count(f), out, off);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
    /* `start: uniform` is the flock drawn without a start, bit for bit */
    mur_scene *a = scene_of("model: wrkspc\nseed: 8\nflock: {count: 200}\n");
    mur_scene *b = scene_of("model: wrkspc\nseed: 8\nflock: {count: 200, start: uniform}\n");
    mur_scene *c = scene_of("model: wrkspc\nseed: 8\nflock: {count: 200, start: {uniform: {}}}\n");
    REQUIRE(a && b && c, "scenes");
    mur_flock *fa = start_of(a), *fb = start_of(b), *fc = start_of(c);
    REQUIRE(fa && fb && fc, "flocks");
    CHECK(!mur_flock_groups(fa) && !mur_flock_groups(fb), "no groups without groups");
    CHECK(!memcmp(mur_flock_x(fa), mur_flock_x(fb), 200 * sizeof(double)) &&
              !memcmp(mur_flock_x(fa), mur_flock_x(fc), 200 * sizeof(double)) &&
              !memcmp(mur_flock_vx(fa), mur_flock_vx(fc), 200 * sizeof(double)),
          "a uniform start differs from no start");
    mur_flock_destroy(fa);
    mur_flock_destroy(fb);
    mur_flock_destroy(fc);
    mur_scene_destroy(a);
    mur_scene_destroy(b);
    mur_scene_destroy(c);
}

TEST(colour_by_group_draws_each_group_in_its_colour)
{
    mur_scene *s = scene_of("model: wrkspc\nseed: 1\nworld: {width: 200, height: 100}\n"
                            "video: {width: 200, height: 100, duration: 1s}\n"
                            "look: {background: '#000000', boid: {shape: dot, size: 3, color: group}}\n"
                            "flock:\n  start:\n    groups:\n"
                            "      - {count: 60, box: {x: 10, y: 10, width: 60, height: 80}, color: '#ff0000'}\n"
                            "      - {count: 60, box: {x: 130, y: 10, width: 60, height: 80}, color: '#0000ff'}\n");
    REQUIRE(s, "scene");
    mur_session *ss = NULL;
    mur_error err;
    REQUIRE(mur_session_create(&ss, s, NULL, &err) == 0, "%s", err.msg);
    const uint8_t *px;
    int stride;
    REQUIRE(mur_session_frame(ss, 0, &px, &stride, &err) == 0, "%s", err.msg);
    /* Cairo's ARGB32 in memory: B, G, R, A */
    long red[2] = {0}, blue[2] = {0};
    for (int y = 0; y < 100; y++)
        for (int x = 0; x < 200; x++) {
            const uint8_t *p = px + (size_t)y * stride + 4 * x;
            red[x >= 100] += p[2] > 100 && p[0] < 50;
            blue[x >= 100] += p[0] > 100 && p[2] < 50;
        }
    CHECK(red[0] > 50 && blue[0] == 0, "left half: %ld red, %ld blue pixels", red[0], blue[0]);
    CHECK(blue[1] > 50 && red[1] == 0, "right half: %ld red, %ld blue pixels", red[1], blue[1]);
    mur_session_destroy(ss);
    mur_scene_destroy(s);
}

TEST(bad_starts_are_refused_at_their_line)
{
    static const struct {
        const char *flock, *want;
    } cases[] = {
        {"{start: {disc: {center: [50, 50], radius: 80}}}", "test.yaml:3:23: error: the disc reaches outside the world"},
        {"{start: {disc: {center: [50, 50], radius: -1}}}", "test.yaml:3:50: error: 'radius' = -1: a disc's radius must be above 0"},
        {"{start: {box: {x: 10, y: 10, width: 600, height: 5}}}", "test.yaml:3:22: error: the box reaches outside the world"},
        {"{start: {ring: {center: [200, 150], radius: 50, width: 200}}}", "error: 'width' = 200 is out of range"},
        {"{start: {disc: {center: [200, 150], radius: 5}, box: {x: 0, y: 0, width: 1, height: 1}}}",
         "error: 'start' has one region (disc and box here): to start boids in several, list them as start: "
         "{groups: [...]}"},
        {"{start: {groups: [{count: 5, disc: {center: [200, 150], radius: 5}, box: {x: 0, y: 0, width: 1, height: 1}}]}}",
         "error: a group of start.groups has one region (disc and box here"},
        {"{start: {box: {x: 0, y: 0, width: 0, height: 1}}}", "test.yaml:3:42: error: 'width' = 0: a box's sides must be above 0"},
        {"{start: {disc: {center: [200, 150]}}}", "error: a disc needs a center [x, y] and a radius"},
        {"{start: {disc: {center: [200, 150], radius: 5}, spread: 10}}", "error: 'spread' is around a heading"},
        {"{start: {disc: {center: 3, radius: 5}}}", "error: 'center' is a point [x, y]"},
        {"{start: {groups: [{count: 3000000, uniform: {}}, {count: 3000000, uniform: {}}]}}",
         "error: the groups hold 6000000 boids (at most 4000000)"},
        {"{start: {groups: [{uniform: {}}]}}", "error: a group needs a count"},
        {"{count: 10, start: {groups: [{count: 3}, {count: 4}]}}", "error: the start's groups hold 7 boids"},
        {"{start: {groups: []}}", "error: 'groups' is a list of groups"},
        {"{start: {disc: {center: [200, 150], radius: 5}, speed: [2, 1]}}", "error: 'speed' [min, max] with min above max"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "model: wrkspc\nworld: {width: 400, height: 300}\nflock: %s\n", cases[i].flock);
        mur_scene *s = NULL;
        mur_error err;
        int rc = mur_scene_parse(&s, "test.yaml", text, strlen(text), &err);
        CHECK(rc == MUR_EINPUT && strstr(err.msg, cases[i].want), "case %zu: want '%s', got '%s'", i,
              cases[i].want, rc ? err.msg : "(loaded)");
        mur_scene_destroy(s);
    }
    mur_scene *s = NULL;
    mur_error err;
    const char *cond = "model: wrkspc\nflock: {start: {groups: [{count: 5}, {count: 5}]}}\n"
                       "experiment: {conditions: {big: {count: 20}}}\n";
    CHECK(mur_scene_parse(&s, "test.yaml", cond, strlen(cond), &err) == MUR_EINPUT &&
              strstr(err.msg, "condition 'big' sets count, which the start decides (the sum of its groups)"),
          "%s", err.msg);
    mur_scene_destroy(s);
    s = NULL;
    /* the count may come before or after the groups; a wrong one is refused either way */
    const char *after = "model: wrkspc\nflock: {start: {groups: [{count: 10}]}, count: 10}\n";
    CHECK(mur_scene_parse(&s, "test.yaml", after, strlen(after), &err) == MUR_OK, "%s", err.msg);
    mur_scene_destroy(s);
    s = NULL;
    const char *late = "model: wrkspc\nflock: {start: {groups: [{count: 100}, {count: 60}]}, count: 20}\n";
    CHECK(mur_scene_parse(&s, "test.yaml", late, strlen(late), &err) == MUR_EINPUT &&
              strstr(err.msg, "error: the start's groups hold 160 boids"), "%s", err.msg);
    mur_scene_destroy(s);
    s = NULL;
    /* one shape holds the whole flock, whatever count a condition gives it */
    const char *one = "model: wrkspc\nflock: {start: {disc: {center: [200, 150], radius: 20}}}\n"
                      "experiment: {conditions: {small: {count: 30}}}\n";
    CHECK(mur_scene_parse(&s, "test.yaml", one, strlen(one), &err) == MUR_OK, "%s", err.msg);
    mur_scene_destroy(s);
}
