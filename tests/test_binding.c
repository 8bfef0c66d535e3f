/* What a binding (python/murmur, any FFI) needs of the C API: options
 * filled by functions rather than macros, a session's tick and settings, a
 * refusal to draw a frame the flocks have passed, and statistics of the
 * caller's own computed inside an experiment. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "murmur/murmur.h"
#include "murmur/trace.h"
#include "scene_util.h"

static const char *const yaml =
    "seed: 5\nflock: {count: 60}\nworld: {width: 200, height: 150}\nvideo: {width: 160, height: 120, "
    "fps: 10, duration: 2s, ticks_per_second: 20}\nexperiment: {runs: 4, ticks: 30}\n";

TEST(opts_init_functions_fill_what_the_macros_do)
{
    mur_session_opts a = MUR_SESSION_OPTS_INIT, b;
    memset(&b, 0x5a, sizeof b);
    mur_session_opts_init(&b);
    CHECK(memcmp(&a, &b, sizeof a) == 0, "session options");
    mur_render_opts ra = MUR_RENDER_OPTS_INIT, rb;
    memset(&rb, 0x5a, sizeof rb);
    mur_render_opts_init(&rb);
    CHECK(ra.version == rb.version && rb.last == -1 && rb.path == NULL && rb.progress == NULL &&
              rb.chunk == 0 && rb.nchunks == 0, "render options");
    mur_trace_opts ta = MUR_TRACE_OPTS_INIT, tb;
    memset(&tb, 0x5a, sizeof tb);
    mur_trace_opts_init(&tb);
    CHECK(ta.version == tb.version && tb.run == -1 && tb.runs == 1 && tb.last == -1 && tb.every == 1 &&
              tb.stop == NULL && tb.shards == 0, "trace options");
    mur_experiment_def ea = MUR_EXPERIMENT_DEF_INIT, eb;
    memset(&eb, 0x5a, sizeof eb);
    mur_experiment_def_init(&eb);
    CHECK(eb.version == ea.version && eb.version == 4 && eb.runs == 0 && eb.nextra == 0 && eb.extra == NULL &&
              eb.condition == NULL && eb.stop == NULL, "experiment def");
    mur_video_opts vb;
    memset(&vb, 0x5a, sizeof vb);
    mur_video_opts_init(&vb);
    CHECK(vb.version == MUR_VIDEO_OPTS_VERSION && vb.path == NULL && vb.nchunks == 0, "video options");
}

TEST(a_session_says_its_tick_and_takes_a_setting_as_a_timeline_set_does)
{
    mur_scene *s = scene_of(yaml);
    REQUIRE(s, "scene");
    mur_session *a = NULL, *b = NULL;
    mur_error err = {{0}};
    REQUIRE(mur_session_create(&a, s, NULL, &err) == MUR_OK, "%s", err.msg);
    REQUIRE(mur_session_create(&b, s, NULL, &err) == MUR_OK, "%s", err.msg);
    CHECK(mur_session_tick(a) == 0, "tick after create: %ld", mur_session_tick(a));
    CHECK(mur_session_run_to(a, 7, &err) == MUR_OK && mur_session_tick(a) == 7, "tick 7");
    CHECK(mur_session_set(a, "alignment", 0, &err) == MUR_OK, "%s", err.msg);
    CHECK(mur_flock_params(mur_session_flock(a, 0))->alignment != 0, "takes effect on the next tick");
    CHECK(mur_session_run_to(a, 8, &err) == MUR_OK && mur_flock_params(mur_session_flock(a, 0))->alignment == 0,
          "alignment 0 after the next tick");
    CHECK(mur_session_run_to(b, 8, &err) == MUR_OK && mur_flock_params(mur_session_flock(b, 0))->alignment != 0,
          "another session keeps its own");
    CHECK(mur_session_set(a, "alignmnet", 1, &err) == MUR_EINPUT && strstr(err.msg, "alignmnet"),
          "unknown setting: %s", err.msg);
    CHECK(mur_session_set(a, "fov", 400, &err) == MUR_EINPUT && strstr(err.msg, "fov"), "out of range: %s",
          err.msg);
    CHECK(mur_session_set(a, "separation_falloff", 1.5, &err) == MUR_EINPUT, "a whole number: %s", err.msg);
    mur_session_destroy(a);
    mur_session_destroy(b);
    mur_scene_destroy(s);
}

TEST(a_frame_before_the_sessions_tick_is_refused)
{
    mur_scene *s = scene_of(yaml);
    REQUIRE(s, "scene");
    mur_session *ss = NULL;
    mur_error err = {{0}};
    REQUIRE(mur_session_create(&ss, s, NULL, &err) == MUR_OK, "%s", err.msg);
    const uint8_t *px;
    int stride;
    REQUIRE(mur_session_frame(ss, 10, &px, &stride, &err) == MUR_OK, "%s", err.msg);
    CHECK(mur_session_frame(ss, 10, &px, &stride, &err) == MUR_OK, "the same frame again: %s", err.msg);
    err.msg[0] = 0;
    CHECK(mur_session_frame(ss, 3, &px, &stride, &err) == MUR_EINPUT && strstr(err.msg, "frame 3") &&
              strstr(err.msg, "before"), "frame: %s", err.msg);
    err.msg[0] = 0;
    CHECK(mur_session_still(ss, 3, "/tmp/murmur-test-binding-never.png", &err) == MUR_EINPUT &&
              strstr(err.msg, "before"), "still: %s", err.msg);
    FILE *f = fopen("/tmp/murmur-test-binding-never.png", "rb");
    CHECK(!f, "no still written");
    if (f)
        fclose(f);
    CHECK(mur_session_tick(ss) == mur_scene_frame_tick(s, 10), "the session stays where it was");
    mur_session_destroy(ss);
    mur_scene_destroy(s);
}

/* The extra hook: the mean x of the flock and the run's index. */
static int mean_x(void *ctx, const mur_flock *f, int c, int run, double *out)
{
    int *calls = ctx;
    __atomic_add_fetch(calls, 1, __ATOMIC_RELAXED);
    double sum = 0;
    const double *x = mur_flock_x(f);
    for (int i = 0; i < mur_flock_count(f); i++)
        sum += x[i];
    out[0] = sum / mur_flock_count(f);
    out[1] = run + 100 * c;
    return 0;
}

static int failing(void *ctx, const mur_flock *f, int c, int run, double *out)
{
    (void)ctx, (void)f, (void)c, (void)out;
    return run == 2;
}

TEST(an_experiment_computes_the_callers_statistics_at_each_runs_measured_tick)
{
    mur_scene *s = scene_of(yaml);
    REQUIRE(s, "scene");
    int calls = 0;
    mur_experiment_def def;
    mur_experiment_def_init(&def);
    def.threads = 2;
    def.scene_only = 1;
    def.nextra = 2;
    def.extra = mean_x;
    def.extra_ctx = &calls;
    mur_experiment *e = NULL;
    mur_error err = {{0}};
    REQUIRE(mur_experiment_run(&e, s, &def, &err) == MUR_OK, "%s", err.msg);
    CHECK(calls == 4 && mur_experiment_nextra(e) == 2, "one call a run: %d", calls);
    for (int r = 0; r < 4; r++) {
        /* the run's flock at its last tick, stepped by a session of that run */
        mur_session_opts so = MUR_SESSION_OPTS_INIT;
        so.run = r;
        mur_session *ss = NULL;
        REQUIRE(mur_session_create(&ss, s, &so, &err) == MUR_OK && mur_session_run_to(ss, 30, &err) == MUR_OK,
                "%s", err.msg);
        double want[2];
        mean_x(&calls, mur_session_flock(ss, 0), 0, r, want);
        CHECK(mur_experiment_extra(e, 0, r, 0) == want[0] && mur_experiment_extra(e, 0, r, 1) == r,
              "run %d: %.17g against %.17g", r, mur_experiment_extra(e, 0, r, 0), want[0]);
        mur_session_destroy(ss);
    }
    mur_experiment_destroy(e);
    e = NULL;
    def.extra = failing;
    CHECK(mur_experiment_run(&e, s, &def, &err) == MUR_ERUN && !e && strstr(err.msg, "run 2"), "failing: %s",
          err.msg);
    def.extra = NULL;
    CHECK(mur_experiment_run(&e, s, &def, &err) == MUR_EINPUT && !e, "no function: %s", err.msg);
    def.extra = mean_x;
    def.nextra = MUR_EXPERIMENT_MAX_EXTRA + 1;
    CHECK(mur_experiment_run(&e, s, &def, &err) == MUR_EINPUT && !e, "too many: %s", err.msg);
    mur_scene_destroy(s);
}

TEST(the_callers_statistic_is_averaged_over_a_measure_window)
{
    char text[512];
    snprintf(text, sizeof text, "%s", yaml);
    char *end = strstr(text, "experiment:");
    snprintf(end, sizeof text - (size_t)(end - text),
             "experiment: {runs: 2, ticks: 30, measure: {window: 5t}}\n");
    mur_scene *s = scene_of(text);
    REQUIRE(s, "scene");
    int calls = 0;
    mur_experiment_def def = MUR_EXPERIMENT_DEF_INIT;
    def.scene_only = 1;
    def.nextra = 2;
    def.extra = mean_x;
    def.extra_ctx = &calls;
    mur_experiment *e = NULL;
    mur_error err = {{0}};
    REQUIRE(mur_experiment_run(&e, s, &def, &err) == MUR_OK, "%s", err.msg);
    CHECK(calls == 2 * 5, "five samples a run: %d calls", calls);
    CHECK(mur_experiment_extra(e, 0, 1, 1) == 1, "the mean of a constant is itself: %g",
          mur_experiment_extra(e, 0, 1, 1));
    mur_session_opts so = MUR_SESSION_OPTS_INIT;
    so.run = 0;
    mur_session *ss = NULL;
    REQUIRE(mur_session_create(&ss, s, &so, &err) == MUR_OK, "%s", err.msg);
    double sum = 0, v[2];
    for (long t = 26; t <= 30; t++) {
        REQUIRE(mur_session_run_to(ss, t, &err) == MUR_OK, "%s", err.msg);
        mean_x(&calls, mur_session_flock(ss, 0), 0, 0, v);
        sum += v[0];
    }
    CHECK(mur_experiment_extra(e, 0, 0, 0) == sum / 5, "window mean %.17g against %.17g",
          mur_experiment_extra(e, 0, 0, 0), sum / 5);
    mur_session_destroy(ss);
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
}
