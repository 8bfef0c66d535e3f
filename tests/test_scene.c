/* The scene loader and timeline against SCENE.md. */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "murmur/scene.h"

static mur_scene *parse(const char *text, mur_error *err)
{
    mur_scene *s = NULL;
    mur_scene_parse(&s, "t.yaml", text, strlen(text), err);
    return s;
}

/* Parse must fail with a message containing each of the given pieces. */
static void expect_error(const char *text, const char *where, const char *words)
{
    mur_error err = {{0}};
    mur_scene *s = parse(text, &err);
    CHECK(!s, "accepted: %s", text);
    mur_scene_destroy(s);
    CHECK(strstr(err.msg, where) != NULL, "'%s' not in: %s", where, err.msg);
    CHECK(strstr(err.msg, words) != NULL, "'%s' not in: %s", words, err.msg);
}

TEST(empty_mapping_gives_the_wrkspc_preset_and_defaults)
{
    mur_error err;
    mur_scene *s = parse("seed: 5\n", &err);
    REQUIRE(s, "%s", err.msg);
    CHECK(!strcmp(s->preset->name, "wrkspc"), "preset %s", s->preset->name);
    CHECK(s->params.count == 160 && s->params.separation_radius == 12, "params not the preset's");
    CHECK(s->seed == 5, "seed %llu", (unsigned long long)s->seed);
    CHECK(!strcmp(s->output, "out/t.mp4"), "default output %s", s->output);
    mur_scene_destroy(s);
}

TEST(model_and_overrides_resolve_in_any_key_order)
{
    mur_error err;
    mur_scene *s = parse("flock: {alignment: 0.25, perception: 33, gains: [1, 2, 3]}\n"
                         "world: {width: 800, height: 600, boundary: reflect}\n"
                         "model: lab\n", &err);
    REQUIRE(s, "%s", err.msg);
    CHECK(s->params.count == 220, "lab count %d", s->params.count);
    CHECK(s->params.alignment == 0.25, "alignment %g", s->params.alignment);
    CHECK(s->params.alignment_radius == 33 && s->params.cohesion_radius == 33, "perception");
    CHECK(s->params.gain_cohesion == 3, "gains");
    CHECK(s->params.width == 800 && s->params.boundary == MUR_BOUNDARY_REFLECT, "world");
    mur_scene_destroy(s);
}

TEST(times_in_seconds_and_ticks)
{
    mur_error err;
    mur_scene *s = parse("video: {duration: 900t, ticks_per_second: 30, warmup: 2s}\n"
                         "timeline:\n  - at: 1.5\n    set: {cohesion: 0}\n", &err);
    REQUIRE(s, "%s", err.msg);
    CHECK(fabs(s->duration - 30) < 1e-12, "900t at 30 ticks/s = 30 s, got %g", s->duration);
    CHECK(s->warmup == 60, "warm-up 2 s = 60 ticks, got %g", s->warmup);
    CHECK(s->cues[0].at == 1.5, "bare number is seconds");
    mur_scene_destroy(s);
}

TEST(set_and_ramp_are_a_pure_function_of_time)
{
    mur_error err;
    mur_scene *s = parse("timeline:\n"
                         "  - at: 10s\n    set: {alignment: 0}\n"
                         "  - at: 20s\n    ramp: {alignment: 1.0}\n    over: 4s\n    ease: linear\n"
                         "  - at: 30s\n    ramp: {cohesion: 0}\n    over: 2s\n    ease: smooth\n",
                         &err);
    REQUIRE(s, "%s", err.msg);
    mur_params p;
    mur_scene_params_at(s, &s->params, 5, &p);
    CHECK(p.alignment == 1.0, "before: %g", p.alignment);
    mur_scene_params_at(s, &s->params, 10, &p);
    CHECK(p.alignment == 0, "at the set: %g", p.alignment);
    mur_scene_params_at(s, &s->params, 21, &p);
    CHECK(fabs(p.alignment - 0.25) < 1e-12, "a quarter into the ramp: %g", p.alignment);
    mur_scene_params_at(s, &s->params, 31, &p);
    CHECK(fabs(p.cohesion - 0.45) < 1e-12, "smooth midpoint: %g", p.cohesion);
    mur_scene_params_at(s, &s->params, 30.5, &p);
    CHECK(fabs(p.cohesion - 0.9 * (1 - 0.15625)) < 1e-12, "smooth at 1/4: %g", p.cohesion);
    mur_scene_params_at(s, &s->params, 100, &p);
    CHECK(p.alignment == 1.0 && p.cohesion == 0, "after: %g %g", p.alignment, p.cohesion);
    mur_scene_destroy(s);
}

TEST(captions_fade_and_events_freeze)
{
    mur_error err;
    mur_scene *s = parse("timeline:\n"
                         "  - at: 0s\n    caption: {text: \"All three rules\", for: 4s}\n"
                         "  - at: 5s\n    event: freeze\n    caption: Frozen\n"
                         "  - at: 7s\n    event: unfreeze\n", &err);
    REQUIRE(s, "%s", err.msg);
    double a;
    const char *c = mur_scene_caption_at(s, 0, &a);
    CHECK(c && !strcmp(c, "All three rules") && a == 1, "caption at 0: %s %g", c ? c : "-", a);
    c = mur_scene_caption_at(s, 3.9, &a);
    CHECK(c && a > 0 && a < 1, "fading out at 3.9: %g", a);
    CHECK(!mur_scene_caption_at(s, 4.5, &a), "caption after its time");
    CHECK(!mur_scene_frozen_at(s, 4.9) && mur_scene_frozen_at(s, 5) && mur_scene_frozen_at(s, 6.9) &&
              !mur_scene_frozen_at(s, 7),
          "freeze window wrong");
    mur_scene_destroy(s);
}

TEST(predator_paths_pass_through_every_key)
{
    mur_error err;
    mur_scene *s = parse("predators:\n"
                         "  - mode: flee\n    radius: 80\n    strength: 0.8\n    from: 5s\n    until: 15s\n"
                         "    path: [[5s, 0, 160], [10s, 480, 160], [15s, 240, 0]]\n"
                         "  - mode: attract\n    x: \"240 + 150*cos(2*PI*t/8)\"\n    y: \"H/2\"\n", &err);
    REQUIRE(s, "%s", err.msg);
    mur_predator p[4];
    int n = mur_scene_predators_at(s, 4, p, 4);
    CHECK(n == 1 && p[0].attract && fabs(p[0].x - (240 + 150 * cos(2 * 3.141592653589793 * 4 / 8))) < 1e-9 &&
              p[0].y == 160,
          "expression predator at 4 s: n=%d x=%g y=%g", n, p[0].x, p[0].y);
    n = mur_scene_predators_at(s, 10, p, 4);
    CHECK(n == 2 && fabs(p[0].x - 480) < 1e-9 && fabs(p[0].y - 160) < 1e-9, "key at 10 s: %g %g", p[0].x, p[0].y);
    CHECK(p[0].radius == 80 && p[0].strength == 0.8 && !p[0].attract, "predator settings");
    n = mur_scene_predators_at(s, 7.5, p, 4);
    CHECK(n == 2 && p[0].y != 160, "smooth path bends between keys: y=%g", p[0].y);
    CHECK(mur_scene_predators_at(s, 15, p, 4) == 1, "until is exclusive");
    mur_scene_destroy(s);
}

TEST(errors_name_line_column_and_suggest)
{
    expect_error("flock:\n  alignmnet: 1\n", "t.yaml:2:3: error:", "did you mean 'alignment'?");
    expect_error("model: wrkspcc\n", "t.yaml:1:8:", "did you mean 'wrkspc'?");
    expect_error("flock: {count: 2.5}\n", "1:16", "whole number");
    expect_error("flock: {noise: -1}\n", "1:16", "out of range [0, 10]");
    expect_error("world: {boundary: torus}\n", "1:19", "expected one of: wrap, reflect, avoid");
    expect_error("look: {background: red}\n", "1:20", "colour");
    expect_error("video: {duration: 10 minutes}\n", "1:19", "must be a time");
    expect_error("timeline:\n  - set: {alignment: 0}\n", "2:5", "needs 'at'");
    expect_error("timeline:\n  - at: 1s\n    ramp: {alignment: 0}\n", "3:5", "needs 'over'");
    expect_error("timeline:\n  - at: 1s\n    ramp: {update: sync}\n    over: 1s\n", "3:20", "cannot ramp");
    expect_error("predators:\n  - mode: flee\n", "2:5", "needs a 'path'");
    expect_error("predators:\n  - {x: \"t +* 2\", y: \"1\"}\n", "2:9", "cannot parse expression");
    expect_error("seed: 1\nseed: 2\n", "2:1", "given twice");
    expect_error("flock: {min_speed: 5}\n", "1:8", "min_speed");
    expect_error("flock: [1, 2]\n", "1:8", "must be a mapping");
    expect_error("", "t.yaml", "empty");
    expect_error("- 1\n- 2\n", "1:1", "must be a mapping");
    expect_error("a: &x [*x]\n", "t.yaml", "error");
}

TEST(hostile_aliases_are_bounded)
{
    /* A "billion laughs" document: nine levels of nine aliases. The loader
     * must refuse it quickly (walk budget), not expand it. */
    char doc[4096] = "a0: &a0 [1,1,1,1,1,1,1,1,1]\n";
    for (int i = 1; i < 9; i++) {
        char line[128];
        snprintf(line, sizeof line, "a%d: &a%d [*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d]\n", i, i,
                 i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
        strcat(doc, line);
    }
    mur_error err;
    mur_scene *s = parse(doc, &err);
    CHECK(!s && strstr(err.msg, "error"), "accepted a hostile document: %s", err.msg);
    mur_scene_destroy(s);
}
