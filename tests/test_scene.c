/* The scene loader, the timeline and the driver against the scene format
 * (docs/scenes.md): every key of its example, the timeline as a pure
 * function of time, events seen in the flock, predators, limits checked
 * before allocation, errors with file:line:col, and the fuzzer's
 * regression inputs. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/scene.h"
#include "scene_util.h"

static mur_scene *parse(const char *text, mur_error *err)
{
    mur_scene *s = NULL;
    mur_scene_parse(&s, "t.yaml", text, strlen(text), err);
    return s;
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
    /* no captions, predators or panels: the look asks for none */
    const mur_look *lk = mur_scene_look(s);
    CHECK(lk->panels == 1 && !lk->labels && !lk->caption_at && !lk->predators_at && !lk->title, "look");
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
    expect_refusal("flock:\n  alignmnet: 1\n", "t.yaml:2:3: error:", "did you mean 'alignment'?");
    expect_refusal("model: wrkspcc\n", "t.yaml:1:8:", "did you mean 'wrkspc'?");
    expect_refusal("flock: {count: 2.5}\n", "1:16", "whole number");
    expect_refusal("flock: {noise: -1}\n", "1:16", "out of range [0, 10]");
    expect_refusal("video: {fps: 29.97}\n", "1:14", "whole number");
    expect_refusal("flock: {count: 20}\nlook: {overlays: [{watch: {boid: 20}}]}\n", "2:34",
                 "the watch view shows boid 20, but the flock has 20");
    expect_refusal("video: {duration: 0s}\n", "1:19", "less than one frame");
    expect_refusal("look: {background: \"#12345\"}\n", "1:20", "6 or 8 hex digits");
    expect_refusal("predators:\n  - {mode: attract, x: \"1/0\", y: \"0\"}\n", "2:24",
                 "not a finite number");
    expect_refusal("world: {boundary: torus}\n", "1:19", "expected one of: wrap, reflect, avoid");
    expect_refusal("look: {background: red}\n", "1:20", "colour");
    expect_refusal("video: {duration: 10 minutes}\n", "1:19", "must be a time");
    expect_refusal("timeline:\n  - set: {alignment: 0}\n", "2:5", "needs 'at'");
    expect_refusal("timeline:\n  - at: 1s\n    ramp: {alignment: 0}\n", "3:5", "needs 'over'");
    expect_refusal("timeline:\n  - at: 1s\n    ramp: {update: sync}\n    over: 1s\n", "3:20", "cannot ramp");
    expect_refusal("predators:\n  - mode: flee\n", "2:5", "needs a 'path'");
    expect_refusal("predators:\n  - {x: \"t +* 2\", y: \"1\"}\n", "2:9", "cannot parse expression");
    expect_refusal("seed: 1\nseed: 2\n", "2:1", "given twice");
    expect_refusal("flock: {min_speed: 5}\n", "1:8", "min_speed");
    expect_refusal("flock: [1, 2]\n", "1:8", "must be a mapping");
    expect_refusal("", "t.yaml", "empty");
    expect_refusal("- 1\n- 2\n", "1:1", "must be a mapping");
    expect_refusal("a: &x [*x]\n", "t.yaml", "error");
}

TEST(hostile_aliases_are_bounded)
{
    /* Unknown keys stop a "billion laughs" document before any walk ... */
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
    /* ... and the walk budget stops aliases the loader has to read: 4000
     * timeline entries aliasing one entry with big maps. */
    mur_scene *r = NULL;
    int rc = mur_scene_load(&r, "tests/fuzz/regressions/alias-bomb.yaml", &err);
    CHECK(rc == MUR_EINPUT && strstr(err.msg, "alias-bomb.yaml:") && strstr(err.msg, "error:"),
          "alias bomb: %s", err.msg);
    mur_scene_destroy(r);
}

/* A file of N nested '[' once cost O(N^2) inside libyaml's scanner (1 MB:
 * about ten minutes). The guard stops at the 65th level, at its column,
 * having scanned a few hundred bytes; without it this case runs for minutes
 * and then fails on the message. */
TEST(deep_nesting_is_refused_at_the_first_level_too_many)
{
    size_t n = MUR_SCENE_MAX_BYTES;
    char *deep = malloc(n + 1);
    REQUIRE(deep, "malloc");
    memcpy(deep, "world: ", 7);
    memset(deep + 7, '[', n - 7);
    deep[n] = 0;
    /* The document's mapping is level 1, so the 64th '[' is level 65. */
    expect_refusal(deep, "t.yaml:1:71: error:", "nests more than 64 levels deep");
    memset(deep + 7, '{', n - 7);
    expect_refusal(deep, "t.yaml:1:71: error:", "nests more than 64 levels deep");
    /* Block style: one "- " deeper per line. */
    size_t len = (size_t)sprintf(deep, "timeline:\n");
    for (int i = 1; i < 100; i++)
        len += (size_t)sprintf(deep + len, "%*s- \n", 2 * i, "");
    expect_refusal(deep, "t.yaml:65:", "nests more than 64 levels deep");
    free(deep);
    /* 64 levels is allowed through the guard (and then a schema error). */
    char ok[256] = "world: ";
    memset(ok + 7, '[', 63);
    memset(ok + 70, ']', 63);
    strcpy(ok + 133, "\n");
    expect_refusal(ok, "t.yaml:1:8:", "must be a mapping");
}

/* An alias costs what its anchor stands for at every use, so a scene's
 * expanded size is bounded however the aliases nest; the error names the
 * alias that crossed the bound. */
TEST(aliases_count_what_they_expand_to)
{
    size_t cap = 3000;
    char *doc = malloc(cap * 4 + 4096 * 48);
    REQUIRE(doc, "malloc");
    /* An anchored 3,000-byte value aliased 2,000 times is 6 MB of text. */
    size_t len = (size_t)sprintf(doc, "x: &big \"");
    memset(doc + len, 'a', cap);
    len += cap;
    len += (size_t)sprintf(doc + len, "\"\ntimeline:\n");
    for (int i = 0; i < 2000; i++)
        len += (size_t)sprintf(doc + len, "  - {at: 1s, caption: *big}\n");
    /* Each entry is 3,011 bytes expanded (the alias and "at", "1s",
     * "caption"): the 1,392nd crosses 4 MiB, on line 1,394. */
    expect_refusal(doc, "t.yaml:1394:23:", "expands to more than 4194304 bytes");
    /* Anchors nested ten deep, each a list of ten aliases of the last. */
    strcpy(doc, "a0: &a0 [1,1,1,1,1,1,1,1,1,1]\n");
    for (int i = 1; i < 10; i++)
        sprintf(doc + strlen(doc), "a%d: &a%d [*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d,*a%d]\n",
                i, i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
    expect_refusal(doc, "t.yaml:6:", "expands to more than 1000000 values");
    /* Too many anchors. */
    strcpy(doc, "x: [");
    for (int i = 0; i <= MUR_SCENE_MAX_ANCHORS; i++)
        sprintf(doc + strlen(doc), "&a%d 1, ", i);
    strcat(doc, "]\n");
    expect_refusal(doc, "t.yaml:1:", "more than 256 anchors");
    free(doc);
}

/* Every text a scene holds fits where it goes: a caption on the screen, a
 * title, a condition's name in a table, an output path. */
TEST(texts_have_lengths_that_fit_a_screen)
{
    char doc[8192], word[5000];
    memset(word, 'w', 281);
    word[281] = 0;
    snprintf(doc, sizeof doc, "timeline:\n  - {at: 1s, caption: \"%s\"}\n", word);
    expect_refusal(doc, "t.yaml:2:23:", "'caption' is 281 characters long; at most 280 fit");
    snprintf(doc, sizeof doc, "timeline:\n  - at: 1s\n    caption: {text: \"%s\"}\n", word);
    expect_refusal(doc, "t.yaml:3:21:", "at most 280");
    word[121] = 0;
    snprintf(doc, sizeof doc, "title: %s\n", word);
    expect_refusal(doc, "t.yaml:1:8:", "'title' is 121 characters long; at most 120");
    word[65] = 0;
    snprintf(doc, sizeof doc, "experiment:\n  conditions:\n    %s: {}\n", word);
    expect_refusal(doc, "t.yaml:3:5:", "longer than 64");
    /* Characters, not bytes: 280 two-byte letters are a valid caption. */
    char *p = word;
    for (int i = 0; i < 280; i++)
        p += sprintf(p, "\xc3\xa9");
    snprintf(doc, sizeof doc, "timeline:\n  - {at: 1s, caption: \"%s\"}\n", word);
    mur_error err = {{0}};
    mur_scene *s = parse(doc, &err);
    CHECK(s, "280 accented letters refused: %s", err.msg);
    mur_scene_destroy(s);
}

/* Whole-file problems name file:1:1 like every other scene error. */
TEST(a_file_over_the_size_limit_is_named_at_its_start)
{
    size_t n = MUR_SCENE_MAX_BYTES + 1;
    char *big = malloc(n + 1);
    REQUIRE(big, "malloc");
    memset(big, '#', n);
    big[n] = 0;
    expect_refusal(big, "t.yaml:1:1: error:", "larger than 1048576 bytes");
    free(big);
}

/* ---- the format's full example ------------------------------------------ */

/* The scene format's full example, every key of the original contract:
 * every key must load. */
static const char scene_md_example[] =
    "# scenes/knockout.yaml: which rule carries the flock?\n"
    "title: Which rule carries the flock?\n"
    "seed: 7\n"
    "model: wrkspc                  # a preset from MODEL.md; settings below override it\n"
    "world: {width: 480, height: 320, boundary: wrap}   # wrap | reflect | avoid\n"
    "flock:                         # any model setting of MODEL.md, by its name\n"
    "  count: 160\n"
    "  separation: 1.5              # rule weights\n"
    "  alignment: 1.0\n"
    "  cohesion: 0.9\n"
    "  # separation_radius, alignment_radius, cohesion_radius, perception (sets\n"
    "  # alignment_radius and cohesion_radius), separation_falloff,\n"
    "  # separation_softening, alignment_mode,\n"
    "  # combine, gains, max_force, max_speed, min_speed, speed_rule, noise, fov,\n"
    "  # update, init_speed\n"
    "video:\n"
    "  width: 1920                  # output pixels; the world is scaled to fit\n"
    "  height: 1280\n"
    "  fps: 60\n"
    "  ticks_per_second: 60         # simulation ticks per second of video\n"
    "  duration: 40s\n"
    "  warmup: 0t                   # ticks simulated before the first frame\n"
    "  output: out/knockout.mp4     # .mp4 (H.264) | .webm (VP9) | .gif | dir/%05d.png\n"
    "  quality: 18                  # CRF-like: lower is better\n"
    "look:\n"
    "  background: \"#0b0d0f\"\n"
    "  boid: {shape: arrow, size: 6, color: heading}   # shape: arrow | triangle | dot\n"
    "                                # color: \"#7cf29c\" | heading | speed | neighbours | cluster\n"
    "  trails: {length: 30, fade: true}                # ticks of history\n"
    "  overlays:\n"
    "    - readout: [order, nearest, clusters]         # live numbers\n"
    "    - plot: {metric: order, window: 10s, corner: top-right}\n"
    "    - watch: {boid: 0}          # one boid from the inside: its radii, neighbours, three steering arrows\n"
    "    - params                    # \"160 boids  sep 1.50  ali 1.00  coh 0.90\"\n"
    "    - clock\n"
    "timeline:                      # what changes, and when\n"
    "  - at: 0s\n"
    "    caption: {text: \"All three rules\", for: 4s}\n"
    "  - at: 10s\n"
    "    set: {alignment: 0}        # instant change of any flock setting\n"
    "    caption: \"No alignment: they gather but never agree\"\n"
    "  - at: 20s\n"
    "    ramp: {alignment: 1.0}     # glide to a value\n"
    "    over: 3s\n"
    "    ease: smooth               # step | linear | smooth\n"
    "  - at: 30s\n"
    "    event: scatter             # scatter | reset | freeze | unfreeze\n"
    "predators:                     # scripted pointers: flee or attract\n"
    "  - mode: flee\n"
    "    radius: 80\n"
    "    strength: 0.8\n"
    "    from: 5s\n"
    "    until: 15s\n"
    "    path:                      # keyframes [time, x, y] in world units\n"
    "      - [5s, 0, 160]\n"
    "      - [10s, 480, 160]\n"
    "      - [15s, 240, 0]\n"
    "    interpolate: smooth        # linear | smooth (passes through every key)\n"
    "  - mode: attract\n"
    "    x: \"240 + 150*cos(2*PI*t/8)\"   # or an expression of t (seconds), W, H\n"
    "    y: \"160 + 100*sin(2*PI*t/8)\"\n"
    "experiment:                    # for `murmur stats`: an ensemble per condition\n"
    "  runs: 25\n"
    "  ticks: 900\n"
    "  conditions:\n"
    "    all: {}\n"
    "    no-alignment: {alignment: 0}\n"
    "    no-separation: {separation: 0}\n"
    "    no-cohesion: {cohesion: 0}\n"
    "    none: {separation: 0, alignment: 0, cohesion: 0}\n"
    "  metrics: [order, nearest, neighbours, clusters, milling]\n"
    "layout:                        # optional: small multiples, one panel per\n"
    "  panels: conditions           # experiment condition, side by side, same seed\n";

TEST(scene_md_example_loads_every_key)
{
    mur_error err;
    mur_scene *s = parse(scene_md_example, &err);
    REQUIRE(s, "%s", err.msg);
    CHECK(s->title && !strcmp(s->title, "Which rule carries the flock?"), "title");
    CHECK(s->seed == 7 && !strcmp(s->preset->name, "wrkspc"), "seed/model");
    CHECK(s->params.width == 480 && s->params.height == 320 && s->params.boundary == MUR_BOUNDARY_WRAP, "world");
    CHECK(s->params.count == 160 && s->params.separation == 1.5 && s->params.alignment == 1.0 &&
              s->params.cohesion == 0.9, "flock");
    CHECK(s->width == 1920 && s->height == 1280 && s->fps == 60 && s->tps == 60 && s->duration == 40 &&
              s->warmup == 0 && !strcmp(s->output, "out/knockout.mp4") && s->quality == 18, "video");
    CHECK(fabs(s->look.background.r - 0x0b / 255.0) < 1e-12 && s->look.shape == MUR_SHAPE_ARROW &&
              s->look.boid_size == 6 && s->look.color_mode == MUR_COLOR_HEADING, "look");
    CHECK(s->look.trail_length == 30 && s->look.trail_fade == 1, "trails");
    REQUIRE(s->look.noverlays == 5, "overlays: %d", s->look.noverlays);
    CHECK(s->look.overlays[0].kind == MUR_OVERLAY_READOUT && s->look.overlays[0].nmetrics == 3, "readout");
    CHECK(s->look.overlays[1].kind == MUR_OVERLAY_PLOT && s->look.overlays[1].window == 10 &&
              s->look.overlays[1].corner == MUR_CORNER_TOP_RIGHT, "plot");
    CHECK(s->look.overlays[2].kind == MUR_OVERLAY_WATCH && s->look.overlays[2].boid == 0, "watch");
    CHECK(s->look.overlays[3].kind == MUR_OVERLAY_PARAMS && s->look.overlays[4].kind == MUR_OVERLAY_CLOCK, "params, clock");
    REQUIRE(s->ncues == 4, "cues: %d", s->ncues);
    CHECK(s->cues[0].caption && s->cues[0].caption_for == 4, "caption with for");
    CHECK(s->cues[1].nset == 1 && s->cues[1].caption, "set + caption");
    CHECK(s->cues[2].nramp == 1 && s->cues[2].over == 3 && s->cues[2].ease == MUR_EASE_SMOOTH, "ramp");
    CHECK(s->cues[3].event == MUR_EVENT_SCATTER, "event");
    REQUIRE(s->npredators == 2, "predators: %d", s->npredators);
    CHECK(!s->predators[0].attract && s->predators[0].radius == 80 && s->predators[0].npath == 3 &&
              s->predators[0].from == 5 && s->predators[0].until == 15 && s->predators[0].smooth, "path predator");
    CHECK(s->predators[1].attract && s->predators[1].x_eval && s->predators[1].y_eval, "expression predator");
    CHECK(s->runs == 25 && s->ticks == 900 && s->nconditions == 5 && s->nmetrics == 5, "experiment");
    CHECK(!strcmp(s->conditions[4].name, "none") && s->conditions[4].nset == 3, "conditions");
    CHECK(s->panels == 1, "layout");
    /* the look borrows the rest: title, tps, a named panel per condition, the timeline */
    const mur_look *lk = mur_scene_look(s);
    REQUIRE(lk == &s->look && lk->panels == 5 && lk->labels, "look panels: %d", lk->panels);
    CHECK(lk->title == s->title && lk->name == s->path && lk->tps == 60, "look title, name, tps");
    CHECK(lk->labels[0] == s->conditions[0].name && lk->labels[4] == s->conditions[4].name, "look labels");
    double alpha;
    CHECK(lk->ctx == s && lk->caption_at && lk->caption_at(lk->ctx, 1, &alpha) == mur_scene_caption_at(s, 1, &alpha),
          "look captions");
    mur_predator a[4], b[4];
    CHECK(lk->predators_at && lk->predators_at(lk->ctx, 6, a, 4) == 2 && mur_scene_predators_at(s, 6, b, 4) == 2 &&
              a[0].x == b[0].x && a[1].y == b[1].y, "look predators");
    mur_scene_destroy(s);
}

/* ---- the timeline ------------------------------------------------------- */

TEST(entries_at_one_time_apply_in_file_order)
{
    mur_error err;
    mur_scene *s = parse("timeline:\n"
                         "  - at: 10s\n    set: {cohesion: 0.1}\n"
                         "  - at: 5s\n    set: {alignment: 0}\n"
                         "  - at: 5s\n    set: {alignment: 0.5}\n"
                         "  - at: 5s\n    event: freeze\n"
                         "  - at: 5s\n    event: unfreeze\n", &err);
    REQUIRE(s, "%s", err.msg);
    CHECK(s->cues[0].at == 5 && s->cues[3].at == 5 && s->cues[4].at == 10, "sorted by time");
    mur_params p;
    mur_scene_params_at(s, &s->params, 5, &p);
    CHECK(p.alignment == 0.5, "the later entry in the file wins: %g", p.alignment);
    CHECK(!mur_scene_frozen_at(s, 6), "freeze then unfreeze at one time: not frozen");
    mur_scene_destroy(s);
    s = parse("timeline:\n  - at: 5s\n    set: {alignment: 0.5}\n  - at: 5s\n    set: {alignment: 0}\n", &err);
    REQUIRE(s, "%s", err.msg);
    mur_scene_params_at(s, &s->params, 5, &p);
    CHECK(p.alignment == 0, "reversed file order: %g", p.alignment);
    mur_scene_destroy(s);
}

TEST(ease_step_holds_then_jumps_and_ramps_chain)
{
    mur_error err;
    mur_scene *s = parse("timeline:\n"
                         "  - at: 1s\n    ramp: {separation: 0.5}\n    over: 2s\n    ease: step\n"
                         "  - at: 4s\n    ramp: {separation: 1.5}\n    over: 2s\n", &err);
    REQUIRE(s, "%s", err.msg);
    mur_params p;
    mur_scene_params_at(s, &s->params, 2.9, &p);
    CHECK(p.separation == 1.5, "step holds: %g", p.separation);
    mur_scene_params_at(s, &s->params, 3, &p);
    CHECK(p.separation == 0.5, "step jumps at the end: %g", p.separation);
    mur_scene_params_at(s, &s->params, 5, &p);
    CHECK(fabs(p.separation - 1.0) < 1e-12, "second ramp starts from the first's target (linear default): %g",
          p.separation);
    /* Pure: asking out of order gives the same answers. */
    mur_params a, b;
    mur_scene_params_at(s, &s->params, 5, &a);
    mur_scene_params_at(s, &s->params, 0.5, &b);
    mur_scene_params_at(s, &s->params, 5, &b);
    CHECK(!memcmp(&a, &b, sizeof a), "params_at depends on something besides t");
    mur_scene_destroy(s);
}

TEST(ticks_per_second_fractional_and_large)
{
    mur_error err;
    mur_scene *s = parse("video: {ticks_per_second: 0.5, fps: 30, duration: 900t}\n", &err);
    REQUIRE(s, "%s", err.msg);
    CHECK(s->duration == 1800, "900 ticks at 0.5/s = 1800 s: %g", s->duration);
    CHECK(mur_scene_frame_tick(s, 59) == 0 && mur_scene_frame_tick(s, 60) == 1 &&
              mur_scene_frame_tick(s, 119) == 1 && mur_scene_frame_tick(s, 120) == 2,
          "slow motion: one tick every 2 s of video");
    mur_scene_destroy(s);
    s = parse("video: {ticks_per_second: 6000, fps: 30, duration: 2s}\n", &err);
    REQUIRE(s, "%s", err.msg);
    CHECK(mur_scene_frame_tick(s, 1) == 200 && mur_scene_frame_tick(s, 60) == 12000, "fast: 200 ticks a frame");
    mur_scene_destroy(s);
    expect_refusal("video: {ticks_per_second: 0}\n", "1:27", "out of range");
    expect_refusal("video: {ticks_per_second: 20000}\n", "1:27", "out of range");
}

/* ---- the driver: events and settings seen in the flock ------------------- */

typedef struct {
    mur_scene *s;
    mur_flock *f;
    mur_driver *d;
} run;

static int run_start(run *r, const char *text, mur_error *err)
{
    memset(r, 0, sizeof *r);
    if (mur_scene_parse(&r->s, "t.yaml", text, strlen(text), err))
        return -1;
    if (mur_flock_create(&r->f, &r->s->params, r->s->seed, err) || mur_driver_create(&r->d, err))
        return -1;
    return mur_driver_start(r->d, r->s, r->f, &r->s->params, err);
}

static void run_end(run *r)
{
    mur_driver_destroy(r->d);
    mur_flock_destroy(r->f);
    mur_scene_destroy(r->s);
}

static int same_state(const mur_flock *a, const mur_flock *b)
{
    int n = mur_flock_count(a);
    size_t sz = (size_t)n * sizeof(double);
    return n == mur_flock_count(b) && !memcmp(mur_flock_x(a), mur_flock_x(b), sz) &&
           !memcmp(mur_flock_y(a), mur_flock_y(b), sz) && !memcmp(mur_flock_vx(a), mur_flock_vx(b), sz) &&
           !memcmp(mur_flock_vy(a), mur_flock_vy(b), sz);
}

static void copy_state(const mur_flock *f, double *out)
{
    int n = mur_flock_count(f);
    memcpy(out, mur_flock_x(f), (size_t)n * sizeof *out);
    memcpy(out + n, mur_flock_y(f), (size_t)n * sizeof *out);
}

TEST(a_drivers_new_base_holds_from_its_next_tick_under_the_timeline)
{
    /* the timeline sets alignment 0 at 1 s (tick 60); a base changed at tick 10
     * holds from the next tick run, and the timeline's set still wins after 1 s */
    run r;
    mur_error err;
    REQUIRE(!run_start(&r, "flock: {count: 30, alignment: 1}\nvideo: {duration: 2s}\ntimeline:\n"
                           "  - at: 1s\n    set: {alignment: 0}\n", &err), "%s", err.msg);
    REQUIRE(!mur_driver_run_to(r.d, 10, &err), "%s", err.msg);
    CHECK(mur_driver_tick(r.d) == 10 && mur_driver_base(r.d)->alignment == 1,
          "tick %ld, base alignment %g", mur_driver_tick(r.d), mur_driver_base(r.d)->alignment);
    mur_params p = *mur_driver_base(r.d);
    p.alignment = 0.25;
    mur_driver_set_base(r.d, &p);
    REQUIRE(!mur_driver_run_to(r.d, 11, &err), "%s", err.msg);
    CHECK(mur_flock_params(r.f)->alignment == 0.25, "tick 10 ran with alignment %g, not the new base's 0.25",
          mur_flock_params(r.f)->alignment);
    REQUIRE(!mur_driver_run_to(r.d, 62, &err), "%s", err.msg);
    CHECK(mur_flock_params(r.f)->alignment == 0, "after 1 s the timeline's set: %g",
          mur_flock_params(r.f)->alignment);
    run_end(&r);
}

TEST(freeze_holds_reset_restores_scatter_turns)
{
    /* 60 ticks a second: freeze at 1 s (tick 60), unfreeze at 2 s, reset at
     * 3 s, scatter at 4 s. */
    run r;
    mur_error err;
    REQUIRE(!run_start(&r, "flock: {count: 50}\nvideo: {duration: 6s}\ntimeline:\n"
                           "  - at: 1s\n    event: freeze\n  - at: 2s\n    event: unfreeze\n"
                           "  - at: 3s\n    event: reset\n  - at: 4s\n    event: scatter\n",
                       &err), "%s", err.msg);
    mur_flock *initial = NULL;
    REQUIRE(!mur_flock_create(&initial, &r.s->params, r.s->seed, &err), "%s", err.msg);
    static double before[100], after[100];
    REQUIRE(!mur_driver_run_to(r.d, 59, &err), "%s", err.msg);
    copy_state(r.f, before);
    mur_driver_run_to(r.d, 60, &err);
    copy_state(r.f, after);
    CHECK(memcmp(before, after, sizeof before), "still moving before the freeze");
    copy_state(r.f, before);
    mur_driver_run_to(r.d, 119, &err);
    copy_state(r.f, after);
    CHECK(!memcmp(before, after, sizeof before), "positions changed while frozen");
    CHECK(mur_flock_tick(r.f) == 60, "flock stepped %llu ticks, not 60", (unsigned long long)mur_flock_tick(r.f));
    mur_driver_run_to(r.d, 121, &err);
    copy_state(r.f, after);
    CHECK(memcmp(before, after, sizeof before), "moving again after unfreeze");
    mur_driver_run_to(r.d, 180, &err);
    CHECK(same_state(r.f, initial), "the state at the reset time is the initial flock");
    double vx = mur_flock_vx(r.f)[3], vy = mur_flock_vy(r.f)[3];
    (void)vx;
    mur_driver_run_to(r.d, 239, &err);
    vx = mur_flock_vx(r.f)[3];
    vy = mur_flock_vy(r.f)[3];
    double speed = hypot(vx, vy);
    mur_driver_run_to(r.d, 240, &err);
    double vx2 = mur_flock_vx(r.f)[3], vy2 = mur_flock_vy(r.f)[3];
    CHECK(fabs(hypot(vx2, vy2) - speed) < 1e-12 * speed + 0.1, "scatter keeps speeds roughly");
    CHECK(fabs(atan2(vy2, vx2) - atan2(vy, vx)) > 1e-6, "scatter turned boid 3");
    mur_flock_destroy(initial);
    run_end(&r);
}

TEST(warmup_runs_with_the_settings_of_time_zero_before_the_first_frame)
{
    run r;
    mur_error err;
    int ticks_seen = 0;
    (void)ticks_seen;
    REQUIRE(!run_start(&r, "flock: {count: 40}\nvideo: {warmup: 2s, ticks_per_second: 30}\n"
                           "timeline:\n  - at: 0s\n    set: {count: 25}\n", &err), "%s", err.msg);
    CHECK(r.s->warmup == 60, "warm-up 2 s at 30 ticks/s = 60 ticks: %g", r.s->warmup);
    CHECK(mur_driver_tick(r.d) == 0 && mur_flock_tick(r.f) == 60,
          "after warm-up: driver tick %ld, flock tick %llu", mur_driver_tick(r.d),
          (unsigned long long)mur_flock_tick(r.f));
    CHECK(mur_flock_count(r.f) == 25, "warm-up used the count set at 0 s: %d", mur_flock_count(r.f));
    run_end(&r);
    /* A reset at 0 s after warm-up returns to the initial flock. */
    REQUIRE(!run_start(&r, "flock: {count: 40}\nvideo: {warmup: 100t}\n"
                           "timeline:\n  - at: 0s\n    event: reset\n", &err), "%s", err.msg);
    CHECK(mur_flock_tick(r.f) == 0, "reset at 0 s undoes the warm-up");
    run_end(&r);
}

TEST(slow_motion_driver_steps_one_tick_per_two_seconds)
{
    run r;
    mur_error err;
    REQUIRE(!run_start(&r, "flock: {count: 20}\nvideo: {ticks_per_second: 0.5, duration: 10s}\n"
                           "timeline:\n  - at: 3s\n    event: reset\n", &err), "%s", err.msg);
    long frames = mur_scene_frames(r.s);
    CHECK(frames == 300, "frames %ld", frames);
    REQUIRE(!mur_driver_run_to(r.d, mur_scene_frame_tick(r.s, 299), &err), "%s", err.msg);
    /* Ticks 0..4 ran; the reset at 3 s fired once the clock reached 4 s
     * (tick 2), so the flock has stepped 2 ticks since. */
    CHECK(mur_driver_tick(r.d) == 4 && mur_flock_tick(r.f) == 2, "tick %ld, flock tick %llu",
          mur_driver_tick(r.d), (unsigned long long)mur_flock_tick(r.f));
    run_end(&r);
}

static long observed;
static void count_ticks(void *ctx, const mur_flock *f, long tick)
{
    (void)ctx;
    (void)f;
    observed = tick;
}

TEST(frames_alone_match_a_whole_run)
{
    /* Settings, ramps, events and predators: the state at tick 150 must not
     * depend on whether the run stopped to draw frames on the way. */
    static const char text[] =
        "flock: {count: 80}\nvideo: {duration: 4s}\n"
        "timeline:\n  - at: 0.5s\n    set: {alignment: 0}\n"
        "  - at: 1s\n    ramp: {alignment: 1, cohesion: 2}\n    over: 1s\n    ease: smooth\n"
        "  - at: 1.5s\n    event: scatter\n  - at: 2.2s\n    event: freeze\n  - at: 2.4s\n    event: unfreeze\n"
        "predators:\n  - {x: \"W/2 + 100*cos(t)\", y: \"H/2\", from: 0.2s, until: 3s, radius: 60}\n";
    run a, b;
    mur_error err;
    REQUIRE(!run_start(&a, text, &err), "%s", err.msg);
    REQUIRE(!run_start(&b, text, &err), "%s", err.msg);
    mur_driver_set_on_tick(a.d, count_ticks, NULL);
    REQUIRE(!mur_driver_run_to(a.d, 200, &err), "%s", err.msg);
    CHECK(observed == 200, "on_tick saw tick %ld", observed);
    for (long k = 1; k <= 200; k += 7)
        REQUIRE(!mur_driver_run_to(b.d, k, &err), "%s", err.msg);
    mur_driver_run_to(b.d, 200, &err);
    CHECK(same_state(a.f, b.f), "stepping in pieces changed the state");
    run_end(&a);
    run_end(&b);
}

/* ---- predators ------------------------------------------------------------ */

TEST(predators_have_windows_and_several_run_at_once)
{
    mur_error err;
    mur_scene *s = parse("predators:\n"
                         "  - {from: 1s, until: 3s, path: [[0s, 0, 0], [4s, 400, 40]], interpolate: linear}\n"
                         "  - {from: 2s, x: \"10*t\", y: \"H - 1\", mode: attract}\n"
                         "  - {until: 2.5s, path: [[1s, 5, 5]]}\n", &err);
    REQUIRE(s, "%s", err.msg);
    mur_predator p[8];
    CHECK(mur_scene_predators_at(s, 0.5, p, 8) == 1, "only the third before 1 s");
    int n = mur_scene_predators_at(s, 2, p, 8);
    CHECK(n == 3, "three at once at 2 s: %d", n);
    CHECK(fabs(p[0].x - 200) < 1e-9 && fabs(p[0].y - 20) < 1e-9, "linear path at 2 s: %g %g", p[0].x, p[0].y);
    CHECK(p[1].attract && p[1].x == 20 && p[1].y == 319, "expression at 2 s: %g %g", p[1].x, p[1].y);
    CHECK(p[2].x == 5 && p[2].y == 5, "a one-key path stays put");
    CHECK(mur_scene_predators_at(s, 2, p, 2) == 2, "max respected");
    CHECK(mur_scene_predators_at(s, 3, p, 8) == 1, "at 3 s only the open-ended one");
    CHECK(p[0].radius == 80 && p[0].strength == 0.5, "wrkspc's default predator settings");
    mur_scene_destroy(s);
}

TEST(an_expression_giving_nan_hides_the_predator_not_the_flock)
{
    run r;
    mur_error err;
    REQUIRE(!run_start(&r, "flock: {count: 60}\npredators:\n"
                           "  - {x: \"sqrt(t - 1)*100\", y: \"sqrt(1.5 - t)\", radius: 300, strength: 2}\n"
                           "  - {x: \"1/(t-2)\", y: \"H/2\", radius: 300, strength: 2}\n"
                           "  - {x: \"exp(1000*gt(t, 1.5))\", y: \"W\", radius: 300, strength: 2}\n",
                           &err), "%s", err.msg);
    mur_predator p[4];
    CHECK(mur_scene_predators_at(r.s, 2, p, 4) == 0, "NaN, inf and overflow are all hidden");
    REQUIRE(!mur_driver_run_to(r.d, 120, &err), "%s", err.msg);
    int finite = 1;
    for (int i = 0; i < mur_flock_count(r.f); i++)
        finite &= isfinite(mur_flock_x(r.f)[i]) && isfinite(mur_flock_vx(r.f)[i]);
    CHECK(finite, "a NaN predator poisoned the flock");
    run_end(&r);
}

TEST(expressions_may_only_use_pure_bounded_functions)
{
    expect_refusal("predators:\n  - {x: \"while(1, 1)\", y: \"1\"}\n", "2:9", "'while'");
    expect_refusal("predators:\n  - {x: \"st(0, ld(0) + 1)\", y: \"1\"}\n", "2:9", "'st'");
    expect_refusal("predators:\n  - {x: \"random(0)\", y: \"1\"}\n", "2:9", "'random'");
    expect_refusal("predators:\n  - {x: \"time(0)\", y: \"1\"}\n", "2:9", "'time'");
    expect_refusal("predators:\n  - {x: \"1\", y: \"root(t, 100)\"}\n", "2:17", "'root'");
    expect_refusal("predators:\n  - {x: \"taylor(t, 1)\", y: \"1\"}\n", "2:9", "'taylor'");
    expect_refusal("predators:\n  - {x: \"sinn(t)\", y: \"1\"}\n", "2:9", "did you mean 'sin'?");
    expect_refusal("predators:\n  - {x: \"print(t)\", y: \"1\"}\n", "2:9", "'print'");
    mur_error err;
    mur_scene *s = parse("predators:\n  - {x: \"W/2 + 0.3*W*cos(2*PI*t/12) + 2k - 2000 + 1e2 - 100\", "
                         "y: \"if(gt(t, 2), min(H, 5), max(0, hypot(3, 4)))\"}\n", &err);
    REQUIRE(s, "%s", err.msg);
    mur_predator p[1];
    REQUIRE(mur_scene_predators_at(s, 3, p, 1) == 1, "predator at 3 s");
    CHECK(fabs(p[0].x - (240 + 144 * cos(2 * 3.141592653589793 * 3 / 12))) < 1e-9 && p[0].y == 5,
          "evaluated: %g %g", p[0].x, p[0].y);
    mur_scene_destroy(s);
}

TEST(engine_predator_brings_its_predator_unless_the_scene_says_otherwise)
{
    mur_error err;
    mur_scene *s = parse("model: engine-predator\n", &err);
    REQUIRE(s, "%s", err.msg);
    CHECK(s->npredators == 1 && !s->predators[0].attract && s->predators[0].radius == 80 &&
              s->predators[0].strength == 0.6, "the preset's flee predator");
    mur_predator p[1];
    CHECK(mur_scene_predators_at(s, 0, p, 1) == 1 && fabs(p[0].x - 480) < 1e-9, "circling: x = %g", p[0].x);
    mur_scene_destroy(s);
    s = parse("model: engine-predator\npredators: []\n", &err);
    REQUIRE(s, "%s", err.msg);
    CHECK(s->npredators == 0, "an empty list removes it");
    mur_scene_destroy(s);
}

/* ---- limits --------------------------------------------------------------- */

TEST(limits_are_checked_before_anything_is_allocated)
{
    expect_refusal("flock: {count: 1000000000000}\n", "1:16", "out of range [0, 4000000]");
    expect_refusal("video: {width: 100000, height: 100000}\n", "1:16", "out of range [16, 8192]");
    expect_refusal("video: {duration: 100000s}\n", "1:19", "out of range");
    expect_refusal("video: {duration: 36000s, ticks_per_second: 10000}\n", "1:8", "at most 100000000");
    expect_refusal("flock: {count: 4000000}\nvideo: {duration: 1000s}\n", "2:8", "boid-ticks");
    expect_refusal("flock: {count: 1000}\nvideo: {duration: 1000s}\n"
                 "timeline:\n  - at: 1s\n    set: {count: 4000000}\n"
                 "  - at: 2s\n    ramp: {count: 10}\n    over: 1s\n", "2:8", "at most 1e+11");
    expect_refusal("video: {width: 8192, height: 8192, fps: 240, duration: 36000s, ticks_per_second: 1}\n",
                 "1:8", "pixel-frames");
    expect_refusal("flock: {count: 100000}\nvideo: {duration: 1s}\nlook: {trails: {length: 1000}}\n",
                 "3:7", "trail");
    expect_refusal("experiment: {runs: 100000, ticks: 10000000}\n", "1:13", "experiment needs");
    expect_refusal("timeline:\n  - at: 1s\n    set: {count: 4000001}\n", "3:18", "out of range");
    /* No boids, but a long timeline recomputed for 10^8 ticks. */
    static char tl[65536];
    strcpy(tl, "flock: {count: 0}\nvideo: {duration: 36000s, ticks_per_second: 2700}\ntimeline:\n");
    for (int i = 0; i < 200; i++)
        snprintf(tl + strlen(tl), sizeof tl - strlen(tl), "  - {at: %ds, set: {noise: 0.%d}}\n", i, i % 10);
    expect_refusal(tl, "4:3", "evaluated for each of");
    /* A long file of one repeated key fails at the second, in linear time. */
    size_t n = 100000 * 8;
    char *big = malloc(n + 1);
    REQUIRE(big, "malloc");
    for (size_t i = 0; i < n; i += 8)
        memcpy(big + i, "seed: 1\n", 8);
    big[n] = 0;
    expect_refusal(big, "2:1", "given twice");
    free(big);
}

TEST(tied_settings_are_checked_along_the_timeline)
{
    expect_refusal("timeline:\n  - at: 1s\n    set: {min_speed: 2}\n  - at: 2s\n    set: {max_speed: 1.5}\n",
                 "t.yaml:4:5: error: at 2s", "min_speed");
    expect_refusal("timeline:\n  - at: 1s\n    ramp: {min_speed: 2.2}\n    over: 2s\n"
                 "  - at: 1s\n    ramp: {max_speed: 1.5}\n    over: 2s\n", "t.yaml:2:5: error: at 3s", "above max_speed");
    expect_refusal("timeline:\n  - at: 1s\n    set: {min_speed: 2}\n"
                 "experiment:\n  conditions:\n    slow: {max_speed: 1.5}\n", "2:5", "condition slow");
    /* Overlapping ramps that cross between the checked points: the driver
     * stops with the time and a file:line:col. */
    run r;
    mur_error err;
    REQUIRE(!run_start(&r, "flock: {count: 10}\ntimeline:\n"
                           "  - at: 0s\n    ramp: {min_speed: 2.0}\n    over: 2s\n"
                           "  - at: 0s\n    ramp: {max_speed: 1.9}\n    over: 8s\n"
                           "  - at: 8s\n    set: {min_speed: 1.0}\n", &err), "loader: %s", err.msg);
    int rc = mur_driver_run_to(r.d, 8 * 60, &err);
    CHECK(rc == MUR_EINPUT && strstr(err.msg, "t.yaml:6:5: error: at 6.4") && strstr(err.msg, "min_speed"),
          "driver: rc %d: %s", rc, err.msg);
    run_end(&r);
}

TEST(every_error_names_file_line_and_column)
{
    static const char *const bad[] = {
        "", "---\n...\n", "seed: [1\n", "\t- x\n", "seed: 1\n---\nseed: 2\n", "a: 1\n", "seed: -1\n",
        "video: 5\n", "timeline: {}\n", "timeline:\n  - at: 1s\n", "predators:\n  - {x: \"(\", y: 1}\n",
        "look:\n  overlays:\n    - plot: {metric: speed}\n", "flock: {fov: 400}\n", "\xff\xfe\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mur_error err = {{0}};
        mur_scene *s = parse(bad[i], &err);
        unsigned line, col;
        char word[8] = "";
        int ok = sscanf(err.msg, "t.yaml:%u:%u: %7[a-z]:", &line, &col, word) == 3 && !strcmp(word, "error");
        CHECK(!s && ok && line >= 1 && col >= 1, "case %zu: %s", i, err.msg);
        mur_scene_destroy(s);
    }
}

/* ---- presets, pasted -------------------------------------------------------- */

/* `murmur presets NAME` prints YAML; pasted into a scene it must give the
 * preset exactly. */
TEST(printed_presets_paste_back_exactly)
{
    for (int i = 0; i < mur_preset_count(); i++) {
        const mur_preset *pre = mur_preset_at(i);
        char cmd[512];
        snprintf(cmd, sizeof cmd, "%s presets %s", MURMUR_EXE, pre->name);
        FILE *pp = popen(cmd, "r");
        REQUIRE(pp, "popen");
        static char text[16384];
        size_t n = fread(text, 1, sizeof text - 64, pp);
        int st = pclose(pp);
        text[n] = 0;
        CHECK(st == 0 && n > 100, "%s: status %d, %zu bytes", pre->name, st, n);
        strcat(text, "video: {duration: 1s}\n");
        mur_error err;
        mur_scene *s = parse(text, &err);
        CHECK(s, "%s: pasted YAML does not load: %s", pre->name, err.msg);
        if (!s)
            continue;
        CHECK(!memcmp(&s->params, &pre->params, sizeof s->params), "%s: pasted settings differ", pre->name);
        CHECK(s->preset == pre, "%s: model", pre->name);
        CHECK(s->npredators == (pre->predator_x ? 1 : 0), "%s: predators %d", pre->name, s->npredators);
        mur_scene_destroy(s);
    }
}

/* ---- fuzzer regressions --------------------------------------------------- */

/* Every input the fuzzer ever crashed on stays here: each must load or fail
 * cleanly, and a loaded one must answer the timeline's questions. */
TEST(fuzz_regressions_load_or_fail_cleanly)
{
    DIR *dir = opendir("tests/fuzz/regressions");
    if (!dir)
        return;
    struct dirent *e;
    int files = 0;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "tests/fuzz/regressions/%s", e->d_name);
        mur_error err = {{0}};
        mur_scene *s = NULL;
        int rc = mur_scene_load(&s, path, &err);
        files++;
        CHECK(rc == 0 ? s != NULL : (s == NULL && err.msg[0]), "%s: rc %d, message '%s'", path, rc, err.msg);
        if (s) {
            mur_params p;
            mur_predator pr[MUR_MAX_PREDATORS];
            double a;
            for (double t = 0; t <= s->duration; t += s->duration / 7 + 0.01) {
                mur_scene_params_at(s, &s->params, t, &p);
                mur_scene_predators_at(s, t, pr, MUR_MAX_PREDATORS);
                mur_scene_caption_at(s, t, &a);
            }
        }
        mur_scene_destroy(s);
    }
    closedir(dir);
    CHECK(files > 0, "no regression inputs in tests/fuzz/regressions");
}
