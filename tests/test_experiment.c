/* Experiments: percentiles against hand-computed values, the state label's
 * thresholds, paired conditions, the same bytes for any thread count, a
 * flock with every rule off keeping its order, `stats` and `series` output
 * that parses back, and figures that are valid files with something drawn. */
#include <cairo.h>
#include <json-c/json.h>
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <unistd.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/experiment.h"
#include "murmur/plot.h"
#include "murmur/figure_data.h"
#include "murmur/rng.h"
#include "murmur/session.h"
#include "murmur/version.h"
#include "png_text.h"

/* ---- helpers ------------------------------------------------------------- */

static mur_scene *parse(const char *text, mur_error *err)
{
    mur_scene *s = NULL;
    mur_scene_parse(&s, "t.yaml", text, strlen(text), err);
    return s;
}

/* A small wrkspc scene: 60 boids, three conditions, short runs. The path
 * is copied out of scratch_path's rotating buffers (one per name). */
static const char *small_scene(const char *name)
{
    static char paths[8][256];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, 256, "%s", scratch_path(name));
    write_file(path,
               "title: small\n"
               "seed: 11\n"
               "model: wrkspc\n"
               "world: {width: 240, height: 160, boundary: wrap}\n"
               "flock: {count: 60}\n"
               "video: {duration: 2s, ticks_per_second: 60}\n"
               "timeline:\n"
               "  - at: 0.5s\n    ramp: {noise: 0.05}\n    over: 0.5s\n    ease: linear\n"
               "  - at: 1s\n    event: scatter\n"
               "experiment:\n"
               "  runs: 6\n"
               "  ticks: 90\n"
               "  conditions:\n"
               "    all: {}\n"
               "    \"no, alignment\": {alignment: 0}\n"
               "    none: {separation: 0, alignment: 0, cohesion: 0}\n"
               "  metrics: [order, nearest, clusters, milling]\n");
    return path;
}

/* Split one CSV line (RFC 4180 quoting: "a, b" and "" for a quote) into at
 * most max fields, in place; returns the count. */
static int csv_fields(char *line, char **f, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        char *w = p, *start = p;
        if (*p == '"') {
            for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
                if (*p == '"')
                    p++;  /* "" is one quote */
                *w++ = *p;
            }
            if (*p == '"')
                p++;
        } else {
            while (*p && *p != ',' && *p != '\n')
                *w++ = *p++;
        }
        char end = *p;
        *w = 0;
        if (n < max)
            f[n++] = start;
        if (end != ',')
            break;
        p++;
    }
    return n;
}

/* ---- experiments ---------------------------------------------------------- */

TEST(conditions_share_run_seeds)
{
    /* Two conditions with the same (empty) overrides must give the same
     * numbers run for run; different runs must differ. */
    mur_error err = {{0}};
    mur_scene *s = parse("seed: 5\nmodel: wrkspc\nflock: {count: 50}\n"
                         "experiment: {runs: 4, ticks: 30, conditions: {a: {}, b: {}, c: {cohesion: 0}}}\n",
                         &err);
    REQUIRE(s, "%s", err.msg);
    mur_experiment *e = NULL;
    mur_experiment_def def = {.version = MUR_EXPERIMENT_DEF_VERSION, .threads = 2};
    int rc = mur_experiment_run(&e, s, &def, &err);
    REQUIRE(rc == 0, "run: %s", err.msg);
    CHECK(mur_experiment_conditions(e) == 3 && mur_experiment_runs(e) == 4 && mur_experiment_ticks(e) == 30,
          "shape %d x %d x %ld", mur_experiment_conditions(e), mur_experiment_runs(e), mur_experiment_ticks(e));
    for (int r = 0; r < 4; r++) {
        const mur_metrics *a = mur_experiment_metrics(e, 0, r, 30), *b = mur_experiment_metrics(e, 1, r, 30);
        CHECK(memcmp(a, b, sizeof *a) == 0, "run %d: conditions a and b differ (order %.17g vs %.17g)", r,
              a->order, b->order);
    }
    CHECK(mur_experiment_metrics(e, 0, 0, 30)->order != mur_experiment_metrics(e, 0, 1, 30)->order,
          "runs 0 and 1 are the same run");
    CHECK(mur_experiment_metrics(e, 0, 0, 30)->nearest != mur_experiment_metrics(e, 2, 0, 30)->nearest,
          "the cohesion knockout changed nothing");
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
}

TEST(run_zero_is_the_scene_seed)
{
    /* Run 0 of an experiment is the flock a render of the scene shows. */
    mur_error err = {{0}};
    mur_scene *s = parse("seed: 9\nmodel: wrkspc\nflock: {count: 40}\n", &err);
    REQUIRE(s, "%s", err.msg);
    mur_experiment *e = NULL;
    mur_experiment_def def = {.version = MUR_EXPERIMENT_DEF_VERSION, .runs = 2, .ticks = 20, .scene_only = 1, .every_tick = 1, .threads = 1};
    REQUIRE(mur_experiment_run(&e, s, &def, &err) == 0, "%s", err.msg);
    mur_flock *f = NULL;
    REQUIRE(mur_flock_create(&f, &s->params, s->seed, &err) == 0, "%s", err.msg);
    mur_metrics_ctx *mc = mur_metrics_ctx_create();
    for (int t = 0; t < 20; t++)
        mur_flock_step(f);
    mur_metrics m;   /* the metrics an experiment keeps: the field's measures only when named */
    mur_metrics_compute_some(mc, f, mur_experiment_metrics_kept(e), &m);
    const mur_metrics *got = mur_experiment_metrics(e, 0, 0, 20);
    CHECK(memcmp(&m, got, sizeof m) == 0, "order %.17g vs the direct flock's %.17g", got->order, m.order);
    CHECK(!strcmp(mur_experiment_condition_name(e, 0), "scene"), "name %s", mur_experiment_condition_name(e, 0));
    mur_metrics_ctx_destroy(mc);
    mur_flock_destroy(f);
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
}

TEST(all_rules_off_keeps_the_order_parameter)
{
    /* No separation, alignment, cohesion or noise: every boid flies
     * straight (wrap keeps velocities), so the order parameter of every run
     * stays at its initial value tick after tick. The control condition
     * with the rules on must move it, or the test proves nothing. */
    mur_error err = {{0}};
    mur_scene *s = parse("seed: 3\nmodel: wrkspc\nworld: {boundary: wrap}\nflock: {count: 80}\n"
                         "experiment:\n  runs: 3\n  ticks: 120\n  conditions:\n"
                         "    off: {separation: 0, alignment: 0, cohesion: 0, noise: 0}\n"
                         "    on: {}\n",
                         &err);
    REQUIRE(s, "%s", err.msg);
    mur_experiment *e = NULL;
    mur_experiment_def def = {.version = MUR_EXPERIMENT_DEF_VERSION, .every_tick = 1, .threads = 2};
    REQUIRE(mur_experiment_run(&e, s, &def, &err) == 0, "%s", err.msg);
    for (int r = 0; r < 3; r++) {
        double o0 = mur_experiment_metrics(e, 0, r, 0)->order, worst = 0;
        for (long t = 1; t <= 120; t++)
            worst = fmax(worst, fabs(mur_experiment_metrics(e, 0, r, t)->order - o0));
        CHECK(worst < 1e-12, "run %d: order drifted by %g from %g with every rule off", r, worst, o0);
        double on0 = mur_experiment_metrics(e, 1, r, 0)->order, on1 = mur_experiment_metrics(e, 1, r, 120)->order;
        CHECK(on0 == o0, "run %d: conditions do not start from the same boids", r);
        CHECK(fabs(on1 - on0) > 0.05, "run %d: rules on left the order at %g (from %g)", r, on1, on0);
    }
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
}

TEST(experiment_limits_are_checked_before_allocating)
{
    mur_error err = {{0}};
    mur_scene *s = parse("model: wrkspc\nflock: {count: 10}\n", &err);
    REQUIRE(s, "%s", err.msg);
    mur_experiment *e = NULL;
    mur_experiment_def def = {.version = MUR_EXPERIMENT_DEF_VERSION, .runs = 100000, .ticks = 10000000, .every_tick = 1};
    CHECK(mur_experiment_run(&e, s, &def, &err) == MUR_EINPUT && !e && strstr(err.msg, "too much"),
          "huge series accepted: %s", err.msg);
    def = (mur_experiment_def){.version = MUR_EXPERIMENT_DEF_VERSION, .runs = -1};
    CHECK(mur_experiment_run(&e, s, &def, &err) == MUR_EINPUT && !e, "runs -1 accepted");
    /* A stop already raised ends the experiment with MUR_EINTR. */
    volatile sig_atomic_t stop = 1;
    def = (mur_experiment_def){.version = MUR_EXPERIMENT_DEF_VERSION, .runs = 4, .ticks = 1000, .stop = &stop};
    CHECK(mur_experiment_run(&e, s, &def, &err) == MUR_EINTR && !e, "a raised stop did not stop");
    mur_scene_destroy(s);
}

/* ---- the commands ---------------------------------------------------------- */

TEST(stats_output_is_identical_for_one_and_two_threads)
{
    const char *scene = small_scene("threads.yaml");
    char args[1024], err[4096];
    const char *names[2][2] = {{"t1.csv", "t2.csv"}, {"t1.json", "t2.json"}};
    for (int fmt = 0; fmt < 2; fmt++) {
        for (int t = 0; t < 2; t++) {
            snprintf(args, sizeof args, "stats %s --runs 5 --ticks 50 --threads %d -q -o %s", scene, t + 1,
                     scratch_path(names[fmt][t]));
            int st = murmur(args, err, sizeof err);
            REQUIRE(st == 0, "%s exited %d: %s", args, st, err);
        }
        size_t n1, n2;
        char *a = test_slurp(scratch_path(names[fmt][0]), &n1);
        char *b = test_slurp(scratch_path(names[fmt][1]), &n2);
        REQUIRE(a && b, "missing output");
        CHECK(n1 > 100 && n1 == n2 && memcmp(a, b, n1) == 0, "%s: --threads 1 and 2 differ (%zu vs %zu bytes)",
              names[fmt][0], n1, n2);
        free(a);
        free(b);
    }
    /* series with a band too */
    for (int t = 0; t < 2; t++) {
        snprintf(args, sizeof args, "series %s --runs 3 --ticks 80 --threads %d -q -o %s", scene, t + 1,
                 scratch_path(t ? "s2.csv" : "s1.csv"));
        REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    }
    size_t n1, n2;
    char *a = test_slurp(scratch_path("s1.csv"), &n1), *b = test_slurp(scratch_path("s2.csv"), &n2);
    REQUIRE(a && b, "missing series output");
    CHECK(n1 == n2 && memcmp(a, b, n1) == 0, "series: --threads 1 and 2 differ");
    free(a);
    free(b);
}

TEST(stats_csv_and_json_parse_back)
{
    const char *scene = small_scene("parse.yaml");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "stats %s --runs 5 --ticks 40 -q -o %s", scene, scratch_path("p.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    snprintf(args, sizeof args, "stats %s --runs 5 --ticks 40 -q -o %s", scene, scratch_path("p.json"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);

    static const char *const conds[3] = {"all", "no, alignment", "none"};
    static const char *const metrics[4] = {"order", "nearest", "clusters", "milling"};
    double csv[12][4];
    FILE *fp = fopen(scratch_path("p.csv"), "r");
    REQUIRE(fp, "no CSV");
    char line[1024];
    REQUIRE(fgets(line, sizeof line, fp), "empty CSV");
    /* three conditions: effects against the first, by default */
    CHECK(!strcmp(line, "condition,metric,median,p10,p90,mean,runs,ticks,baseline,effect_median,ci_low,ci_high\n"),
          "header: %s", line);
    int rows = 0;
    while (fgets(line, sizeof line, fp)) {
        char *f[16];
        int nf = csv_fields(line, f, 16);
        REQUIRE(rows < 12, "more than 3 conditions x 4 metrics rows");
        CHECK(nf == 12 && !strcmp(f[8], "all"), "row %d has %d fields", rows, nf);
        CHECK(!strcmp(f[0], conds[rows / 4]) && !strcmp(f[1], metrics[rows % 4]), "row %d is %s/%s", rows,
              f[0], f[1]);
        for (int k = 0; k < 4; k++) {
            char *end;
            csv[rows][k] = strtod(f[2 + k], &end);
            CHECK(end != f[2 + k] && !*end, "row %d field %d '%s' is not a number", rows, k, f[2 + k]);
        }
        CHECK(csv[rows][1] <= csv[rows][0] && csv[rows][0] <= csv[rows][2], "row %d: p10 %g median %g p90 %g",
              rows, csv[rows][1], csv[rows][0], csv[rows][2]);
        CHECK(!strcmp(f[6], "5") && !strcmp(f[7], "40"), "row %d: runs %s ticks %s", rows, f[6], f[7]);
        rows++;
    }
    fclose(fp);
    CHECK(rows == 12, "%d rows, want 12", rows);

    json_object *top = json_object_from_file(scratch_path("p.json")), *root = NULL;
    REQUIRE(top && json_object_object_get_ex(top, "rows", &root) && json_object_is_type(root, json_type_array),
            "JSON has no array \"rows\"");
    CHECK(json_object_array_length(root) == 12, "%zu objects", json_object_array_length(root));
    static const char *const keys[4] = {"median", "p10", "p90", "mean"};
    for (size_t i = 0; i < json_object_array_length(root) && i < 12; i++) {
        json_object *o = json_object_array_get_idx(root, i), *v;
        CHECK(json_object_object_get_ex(o, "condition", &v) && !strcmp(json_object_get_string(v), conds[i / 4]),
              "object %zu condition", i);
        CHECK(json_object_object_get_ex(o, "metric", &v) && !strcmp(json_object_get_string(v), metrics[i % 4]),
              "object %zu metric", i);
        for (int k = 0; k < 4; k++) {
            CHECK(json_object_object_get_ex(o, keys[k], &v) && json_object_get_double(v) == csv[i][k],
                  "object %zu %s: %g vs CSV %g", i, keys[k], v ? json_object_get_double(v) : NAN, csv[i][k]);
        }
        CHECK(json_object_object_get_ex(o, "runs", &v) && json_object_get_int(v) == 5, "object %zu runs", i);
        CHECK(json_object_object_get_ex(o, "ticks", &v) && json_object_get_int(v) == 40, "object %zu ticks", i);
    }
    json_object_put(top);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

TEST(runs_csv_reproduces_the_summarys_medians)
{
    /* Every run's value read back from --runs-out, sorted and cut by the
     * summary's own percentile rule, gives the summary's median, p10 and
     * p90 as printed: the rows are the values the summary summarised.
     * Six runs, so the median falls between two of them. */
    const char *scene = small_scene("runs.yaml");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "stats %s --runs 6 --ticks 40 -q -o %s --runs-out %s", scene,
             scratch_path("rs.csv"), scratch_path("rr.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    static const char *const conds[3] = {"all", "no, alignment", "none"};
    static const char *const metrics[4] = {"order", "nearest", "clusters", "milling"};
    double v[3][4][6];
    FILE *fp = fopen(scratch_path("rr.csv"), "r");
    REQUIRE(fp, "no runs CSV");
    char line[1024];
    REQUIRE(fgets(line, sizeof line, fp), "empty runs CSV");
    CHECK(!strcmp(line, "condition,run,seed,metric,value\n"), "header: %s", line);
    int rows = 0;
    while (fgets(line, sizeof line, fp)) {
        char *f[8];
        int nf = csv_fields(line, f, 8);
        REQUIRE(rows < 72, "more than 3 conditions x 6 runs x 4 metrics rows");
        int c = rows / 24, r = rows / 4 % 6, k = rows % 4;
        char seed[32];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)mur_rng_derive(11, (uint64_t)r));
        CHECK(nf == 5 && !strcmp(f[0], conds[c]) && atoi(f[1]) == r && !strcmp(f[2], seed) &&
                  !strcmp(f[3], metrics[k]),
              "row %d is %s,%s,%s,%s, want %s,%d,%s,%s", rows, f[0], f[1], f[2], f[3], conds[c], r, seed,
              metrics[k]);
        char *end;
        v[c][k][r] = strtod(f[4], &end);
        CHECK(end != f[4] && !*end, "row %d value '%s' is not a number", rows, f[4]);
        rows++;
    }
    fclose(fp);
    REQUIRE(rows == 72, "%d rows, want 72", rows);
    /* each value is the engine's double, digit for digit */
    mur_error e2 = {{0}};
    mur_scene *s = NULL;
    REQUIRE(mur_scene_load(&s, scene, &e2) == 0, "%s", e2.msg);
    mur_experiment *e = NULL;
    mur_experiment_def def = {.version = MUR_EXPERIMENT_DEF_VERSION, .runs = 6, .ticks = 40};
    REQUIRE(mur_experiment_run(&e, s, &def, &e2) == 0, "%s", e2.msg);
    for (int i = 0; i < 72; i++) {
        int c = i / 24, r = i / 4 % 6, k = i % 4;
        double want = mur_metrics_value(mur_experiment_metrics(e, c, r, 40), s->metrics[k]);
        CHECK(v[c][k][r] == want, "%s run %d %s: %.17g in the CSV, %.17g in the engine", conds[c], r,
              metrics[k], v[c][k][r], want);
    }
    mur_experiment_destroy(e);
    mur_scene_destroy(s);

    fp = fopen(scratch_path("rs.csv"), "r");
    REQUIRE(fp && fgets(line, sizeof line, fp), "no summary CSV");
    for (int row = 0; fgets(line, sizeof line, fp); row++) {
        char *f[16];
        REQUIRE(row < 12 && csv_fields(line, f, 16) == 12, "summary row %d: %s", row, line);
        double *x = v[row / 4][row % 4];
        qsort(x, 6, sizeof *x, cmp_double);
        double q[3] = {mur_percentile(x, 6, 50), mur_percentile(x, 6, 10), mur_percentile(x, 6, 90)};
        for (int i = 0; i < 3; i++)   /* exactly: both files read back to the engine's doubles */
            CHECK(strtod(f[2 + i], NULL) == q[i], "%s/%s: summary column %d is %s, the runs give %.17g", f[0], f[1],
                  2 + i, f[2 + i], q[i]);
    }
    fclose(fp);
}

/* Two conditions, a warm-up, a ramp and an event: what a run's flock goes
 * through besides stepping. */
static const char run_scene[] =
    "seed: 21\nmodel: wrkspc\n"
    "world: {width: 200, height: 150, boundary: wrap}\n"
    "flock: {count: 50}\n"
    "video: {duration: 1s, ticks_per_second: 60, fps: 10, width: 96, height: 64, warmup: 25t}\n"
    "timeline:\n"
    "  - at: 0.2s\n    ramp: {noise: 0.1}\n    over: 0.3s\n"
    "  - at: 0.6s\n    event: scatter\n"
    "experiment:\n  runs: 5\n  ticks: 10\n"
    "  conditions: {all: {}, no-alignment: {alignment: 0}, loose: {cohesion: 0.2}}\n";

/* The metrics of panel p of a session of s with these options, at the last
 * frame (drawn, as a render draws it); 0 or the session's error. */
static int last_frame_metrics(const mur_scene *s, int condition, int run, int p, mur_metrics *out,
                              mur_error *err)
{
    mur_session_opts so = MUR_SESSION_OPTS_INIT;
    so.threads = 2;
    so.condition = condition;
    so.run = run;
    mur_session *ss = NULL;
    int rc = mur_session_create(&ss, s, &so, err);
    const uint8_t *px;
    int stride;
    if (!rc)
        rc = mur_session_frame(ss, mur_scene_frames(s) - 1, &px, &stride, err);
    mur_metrics_ctx *mc = mur_metrics_ctx_create();
    if (!rc)
        rc = mc ? mur_metrics_compute(mc, mur_session_flock(ss, p), out) : MUR_ERUN;
    mur_metrics_ctx_destroy(mc);
    mur_session_destroy(ss);
    return rc;
}

/* The same metrics of the default set (an experiment keeps the field's
 * measures only when its scene names them). */
static int same_metrics(const mur_metrics *a, const mur_metrics *b)
{
    for (int k = 0; k < MUR_METRIC_COUNT; k++)
        if ((mur_metrics_default_mask() >> k & 1) && mur_metrics_value(a, k) != mur_metrics_value(b, k))
            return 0;
    return 1;
}

TEST(a_chosen_condition_and_run_is_the_experiments_run)
{
    /* render --condition X --run K: the last frame's flock has exactly the
     * metrics the experiment measured for condition X, run K at that tick
     * (same overrides, seed, warm-up and timeline), and differs from the
     * scene's own flock. */
    mur_error err = {{0}};
    mur_scene *s = parse(run_scene, &err);
    REQUIRE(s, "%s", err.msg);
    long last = mur_scene_frame_tick(s, mur_scene_frames(s) - 1);
    REQUIRE(last > 30, "the last frame shows tick %ld", last);
    mur_experiment *e = NULL;
    mur_experiment_def def = {.version = MUR_EXPERIMENT_DEF_VERSION, .ticks = last, .threads = 1};
    REQUIRE(mur_experiment_run(&e, s, &def, &err) == 0, "%s", err.msg);
    static const int picks[3][2] = {{1, 3}, {2, 4}, {0, 0}};
    for (int i = 0; i < 3; i++) {
        int c = picks[i][0], r = picks[i][1];
        mur_metrics m;
        REQUIRE(last_frame_metrics(s, c, r, 0, &m, &err) == 0, "%s", err.msg);
        const mur_metrics *want = mur_experiment_metrics(e, c, r, last);
        CHECK(same_metrics(&m, want), "condition %d run %d: order %.17g, the experiment's %.17g", c, r,
              m.order, want->order);
    }
    mur_metrics scene_own;
    REQUIRE(last_frame_metrics(s, -1, -1, 0, &scene_own, &err) == 0, "%s", err.msg);
    CHECK(same_metrics(&scene_own, mur_experiment_metrics(e, 0, 0, last)), "the scene is not run 0 of 'all'");
    CHECK(!same_metrics(&scene_own, mur_experiment_metrics(e, 0, 3, last)), "run 3 is the scene's flock");
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
}

TEST(a_run_of_a_panels_scene_is_that_run_in_every_panel)
{
    /* Small multiples with --run K: panel c is condition c's run K; with
     * --condition as well, one panel. Out-of-range choices are refused. */
    mur_error err = {{0}};
    char text[sizeof run_scene + 64];
    snprintf(text, sizeof text, "%slayout: {panels: conditions}\n", run_scene);
    mur_scene *s = parse(text, &err);
    REQUIRE(s, "%s", err.msg);
    long last = mur_scene_frame_tick(s, mur_scene_frames(s) - 1);
    mur_experiment *e = NULL;
    mur_experiment_def def = {.version = MUR_EXPERIMENT_DEF_VERSION, .ticks = last, .runs = 3, .threads = 1};
    REQUIRE(mur_experiment_run(&e, s, &def, &err) == 0, "%s", err.msg);
    for (int c = 0; c < 3; c++) {
        mur_metrics m;
        REQUIRE(last_frame_metrics(s, -1, 2, c, &m, &err) == 0, "%s", err.msg);
        CHECK(same_metrics(&m, mur_experiment_metrics(e, c, 2, last)), "panel %d of run 2", c);
    }
    mur_session_opts so = MUR_SESSION_OPTS_INIT;
    so.condition = 1;
    mur_session *ss = NULL;
    REQUIRE(mur_session_create(&ss, s, &so, &err) == 0, "%s", err.msg);
    CHECK(mur_session_panels(ss) == 1, "--condition on a panels scene: %d panels", mur_session_panels(ss));
    mur_session_destroy(ss);
    const int bad[3][2] = {{3, -1}, {-2, -1}, {0, 100000}};
    for (int i = 0; i < 3; i++) {
        so.condition = bad[i][0];
        so.run = bad[i][1];
        CHECK(mur_session_create(&ss, s, &so, &err) == MUR_EINPUT && !ss, "condition %d run %d accepted",
              bad[i][0], bad[i][1]);
    }
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
}

TEST(render_and_still_refuse_an_unknown_condition_or_run)
{
    char path[256];
    snprintf(path, sizeof path, "%s", scratch_path("choice.yaml"));
    write_file(path, run_scene);
    char args[1024], err[4096];
    snprintf(args, sizeof args, "still %s --at 0.5s --condition no-cohesion -o %s", path, scratch_path("c.png"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "no-cohesion") &&
              strstr(err, "'all', 'no-alignment', 'loose'") && !strchr(err, '\n')[1],
          "unknown condition: %s", err);
    snprintf(args, sizeof args, "render %s --run 5 -o %s", path, scratch_path("r.mp4"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "--run") && strstr(err, "0 to 4") &&
              !strchr(err, '\n')[1],
          "run 5 of 5: %s", err);
    snprintf(args, sizeof args, "still %s --at 0.5s --run -1 -o %s", path, scratch_path("c.png"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "--run"), "run -1: %s", err);
    CHECK(access(scratch_path("c.png"), F_OK) != 0 && access(scratch_path("r.mp4"), F_OK) != 0,
          "a refused choice wrote a file");
    snprintf(args, sizeof args, "still %s --at 0.5s --condition loose --run 4 -q -o %s", path,
             scratch_path("c.png"));
    CHECK(murmur(args, err, sizeof err) == 0 && access(scratch_path("c.png"), F_OK) == 0, "%s: %s", args, err);
    snprintf(args, sizeof args, "stats %s --runs-out %s", path, scratch_path("r.txt"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "--runs-out"), "--runs-out r.txt: %s", err);
}

TEST(series_rows_follow_the_timeline)
{
    /* Rules off: the order parameter holds until the scatter event at 1 s
     * (tick 60) and changes right after it; rows carry the state label of
     * their own order and milling, and the ramped noise as a column. */
    const char *path = scratch_path("timeline.yaml");
    write_file(path, "seed: 4\nmodel: wrkspc\n"
                     "flock: {count: 50, separation: 0, alignment: 0, cohesion: 0}\n"
                     "video: {duration: 2s, ticks_per_second: 60}\n"
                     "timeline:\n  - at: 1s\n    event: scatter\n"
                     "  - at: 1.5s\n    ramp: {noise: 0.2}\n    over: 0.25s\n    ease: linear\n");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "series %s -q -o %s", path, scratch_path("tl.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    FILE *fp = fopen(scratch_path("tl.csv"), "r");
    REQUIRE(fp, "no series CSV");
    char line[2048];
    REQUIRE(fgets(line, sizeof line, fp), "empty");
    CHECK(!strcmp(line, "tick,order,nearest,neighbours,clusters,largest,milling,state,noise\n"), "header: %s", line);
    double order[121] = {0}, noise[121] = {0};
    int rows = 0;
    while (fgets(line, sizeof line, fp) && rows <= 120) {
        char *f[12];
        int nf = csv_fields(line, f, 12);
        REQUIRE(nf == 9, "row %d has %d fields", rows, nf);
        CHECK(atol(f[0]) == rows, "row %d is tick %s", rows, f[0]);
        order[rows] = strtod(f[1], NULL);
        double milling = strtod(f[6], NULL);
        noise[rows] = strtod(f[8], NULL);
        CHECK(!strcmp(f[7], mur_state_name(mur_state_classify(order[rows], milling))),
              "row %d: state %s for order %g milling %g", rows, f[7], order[rows], milling);
        rows++;
    }
    fclose(fp);
    REQUIRE(rows == 121, "%d rows, want ticks 0..120", rows);
    /* Tick 60 is the clock's 1 s; whether its row shows the scatter is the
     * driver's convention, so only the ticks on either side are pinned. */
    CHECK(order[59] == order[0], "order changed before the scatter: %.17g vs %.17g", order[59], order[0]);
    CHECK(order[61] != order[0], "the scatter at 1 s did not show by tick 61");
    CHECK(noise[90] == 0 && fabs(noise[97] - 0.2 * 7 / 15.0) < 1e-9 && noise[120] == 0.2,
          "noise column %g %g %g", noise[90], noise[97], noise[120]);
}

TEST(series_band_columns_bracket_the_median)
{
    const char *scene = small_scene("band.yaml");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "series %s --runs 5 --ticks 30 --condition all -q -o %s", scene,
             scratch_path("band.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    FILE *fp = fopen(scratch_path("band.csv"), "r");
    REQUIRE(fp, "no CSV");
    char line[4096];
    REQUIRE(fgets(line, sizeof line, fp), "empty");
    CHECK(strstr(line, ",state,order_median,order_p10,order_p90,nearest_median,") &&
              strstr(line, "milling_p90,noise\n"),
          "header: %s", line);
    int rows = 0;
    while (fgets(line, sizeof line, fp)) {
        char *f[40];
        int nf = csv_fields(line, f, 40);
        REQUIRE(nf == 8 + 18 + 1, "row %d has %d fields", rows, nf);
        for (int k = 0; k < 6; k++) {
            double med = strtod(f[8 + 3 * k], NULL), lo = strtod(f[9 + 3 * k], NULL), hi = strtod(f[10 + 3 * k], NULL);
            CHECK(lo <= med && med <= hi, "row %d metric %d: %g %g %g", rows, k, lo, med, hi);
        }
        rows++;
    }
    fclose(fp);
    CHECK(rows == 31, "%d rows, want 31", rows);
}

TEST(bad_usage_exits_2)
{
    const char *scene = small_scene("usage.yaml");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "stats %s -o %s", scene, scratch_path("x.txt"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, ".csv or .json"), "-o x.txt: %s", err);
    snprintf(args, sizeof args, "stats %s --runs 0", scene);
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "--runs"), "--runs 0: %s", err);
    snprintf(args, sizeof args, "stats %s --ticks soon", scene);
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "--ticks"), "--ticks soon: %s", err);
    snprintf(args, sizeof args, "series %s", scene);
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "-o"), "series without -o: %s", err);
    snprintf(args, sizeof args, "series %s -o %s --plot %s", scene, scratch_path("y.csv"), scratch_path("y.gif"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "--plot"), "--plot y.gif: %s", err);
    CHECK(access(scratch_path("y.csv"), F_OK) != 0, "bad usage still wrote y.csv");
}

/* ---- figures ------------------------------------------------------------- */

/* Share of pixels that are not white, and whether a strongly coloured
 * (saturated) pixel exists, in a PNG file. -1 when it cannot be read. */
static double ink_share(const char *png, int *coloured, int *width)
{
    cairo_surface_t *img = cairo_image_surface_create_from_png(png);
    if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(img);
        return -1;
    }
    int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img);
    int stride = cairo_image_surface_get_stride(img);
    const uint8_t *d = cairo_image_surface_get_data(img);
    long inked = 0;
    *coloured = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t px = *(const uint32_t *)(const void *)(d + (size_t)y * stride + 4 * (size_t)x);
            int r = (px >> 16) & 255, g = (px >> 8) & 255, b = px & 255;
            if (r < 240 || g < 240 || b < 240)
                inked++;
            int mx = r > g ? (r > b ? r : b) : (g > b ? g : b), mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
            if (mx - mn > 100)
                *coloured = 1;
        }
    *width = w;
    cairo_surface_destroy(img);
    return (double)inked / ((double)w * h);
}

static int run_tool(const char *cmd)
{
    int st = system(cmd);
    return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

/* Pixels of a PNG's top rows [0, rows) that are light blue, as a band of
 * the first palette colour (#0072B2 at a fifth to a quarter over white)
 * is: blue clearly above red, red still light. -1 when unreadable. */
static long light_blue_pixels(const char *png, double rows_pt)
{
    cairo_surface_t *img = cairo_image_surface_create_from_png(png);
    if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(img);
        return -1;
    }
    int w = cairo_image_surface_get_width(img), stride = cairo_image_surface_get_stride(img);
    int rows = (int)(rows_pt * w / MUR_PLOT_WIDTH);
    const uint8_t *d = cairo_image_surface_get_data(img);
    long n = 0;
    for (int y = 0; y < rows && y < cairo_image_surface_get_height(img); y++)
        for (int x = 0; x < w; x++) {
            uint32_t px = *(const uint32_t *)(const void *)(d + (size_t)y * stride + 4 * (size_t)x);
            int r = (px >> 16) & 255, b = px & 255;
            n += r > 170 && b > r + 25;
        }
    cairo_surface_destroy(img);
    return n;
}

/* The legend of a sweep's stats figure with one line shows its band in the
 * bands' own light blue (it was grey beside light blue bands: issue 31). */
TEST(a_sweep_figures_band_swatch_is_the_bands_colour)
{
    const char *scene = scratch_path("swatch.yaml"), *png = scratch_path("swatch.png");
    write_file(scene, "seed: 7\nmodel: wrkspc\nworld: {width: 200, height: 150, boundary: wrap}\n"
                      "flock: {count: 40}\nexperiment:\n  runs: 4\n  ticks: 30\n"
                      "  sweep:\n    noise: {linspace: [0, 0.3, 4]}\n  metrics: [order]\n");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "stats %s -q -o %s --plot %s", scene, scratch_path("swatch.csv"), png);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    /* the legend is the top 15 pt; the swatch is 10 x 6 pt, some 1,500 pixels at 300 dpi */
    long blue = light_blue_pixels(png, 15);
    CHECK(blue > 500, "%ld light blue pixels in the legend: the band swatch is not the bands' colour", blue);
}

TEST(figures_are_valid_and_not_blank)
{
    const char *scene = small_scene("fig.yaml");
    char args[1024], err[4096], cmd[2048];
    snprintf(args, sizeof args, "series %s --runs 3 --ticks 80 -q -o %s --plot %s", scene, scratch_path("f.csv"),
             scratch_path("series.png"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    snprintf(args, sizeof args, "series %s --runs 3 --ticks 80 -q -o %s --plot %s", scene, scratch_path("f.csv"),
             scratch_path("series.pdf"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    snprintf(args, sizeof args, "stats %s --runs 3 --ticks 20 -q --plot %s", scene, scratch_path("stats.png"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    snprintf(args, sizeof args, "stats %s --runs 3 --ticks 20 -q --plot %s", scene, scratch_path("stats.pdf"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    snprintf(args, sizeof args, "stats %s --runs 3 --ticks 20 -q --plot %s", scene, scratch_path("stats.svg"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);

    const char *pngs[2] = {"series.png", "stats.png"};
    for (int i = 0; i < 2; i++) {
        int coloured, w;
        double share = ink_share(scratch_path(pngs[i]), &coloured, &w);
        CHECK(share > 0.02 && share < 0.6, "%s: %.3f of the pixels inked", pngs[i], share);
        CHECK(coloured, "%s: no coloured pixel (no data drawn?)", pngs[i]);
        CHECK(w == (int)ceil(MUR_PLOT_WIDTH * MUR_PLOT_DPI / 72), "%s: %d px wide, want a column at 300 dpi",
              pngs[i], w);
    }
    /* PDFs: pdfinfo accepts them at a column's width, and rasterised by
     * poppler (not by Cairo, which wrote them) they show ink and colour. */
    const char *pdfs[2] = {"series.pdf", "stats.pdf"};
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "pdfinfo %s 2>&1 | grep -q 'Page size: *252 x'", scratch_path(pdfs[i]));
        CHECK(run_tool(cmd) == 0, "pdfinfo rejects %s or its width is not 252 pt", pdfs[i]);
        snprintf(cmd, sizeof cmd, "pdftoppm -r 100 -png -singlefile %s %s/raster%d >/dev/null 2>&1",
                 scratch_path(pdfs[i]), scratch(), i);
        if (run_tool(cmd) == 0) {
            char png[300];
            snprintf(png, sizeof png, "%s/raster%d.png", scratch(), i);
            int coloured, w;
            double share = ink_share(png, &coloured, &w);
            CHECK(share > 0.02 && coloured, "%s rasterised: %.3f inked, coloured %d", pdfs[i], share, coloured);
        }
    }
    size_t n;
    char *svg = test_slurp(scratch_path("stats.svg"), &n);
    CHECK(svg && strstr(svg, "<svg") && strstr(svg, "</svg>") && n > 2000, "stats.svg is not a whole SVG");
    free(svg);
    DIR *dir = opendir(scratch());
    for (struct dirent *e; dir && (e = readdir(dir));)
        CHECK(!strstr(e->d_name, ".part"), "temporary file left behind: %s", e->d_name);
    if (dir)
        closedir(dir);
}

TEST(plot_rejects_an_unknown_format)
{
    mur_error err = {{0}};
    mur_scene *s = parse("model: wrkspc\nflock: {count: 10}\n", &err);
    REQUIRE(s, "%s", err.msg);
    mur_experiment *e = NULL;
    mur_experiment_def def = {.version = MUR_EXPERIMENT_DEF_VERSION, .runs = 2, .ticks = 5};
    REQUIRE(mur_experiment_run(&e, s, &def, &err) == 0, "%s", err.msg);
    int k = 0;
    CHECK(mur_experiment_plot_stats(scratch_path("x.jpg"), e, &k, 1, &err) == MUR_EINPUT, "jpg accepted");
    CHECK(mur_experiment_plot_series(scratch_path("x.png"), e, &k, 1, &err) == MUR_EINPUT && strstr(err.msg, "every tick"),
          "a last-tick experiment drawn as a series: %s", err.msg);
    CHECK(!mur_plot_format_ok("a.png.txt") && mur_plot_format_ok("dir.v2/a.pdf") && !mur_plot_format_ok("dir.png/a"),
          "format by the file's own extension");
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
}

/* ---- provenance ------------------------------------------------------------- */

/* The text provenance of an experiment on small_scene: version, seed,
 * path, the run asked for, the settings and the scene's own text. */
static void check_experiment_provenance(const char *what, const char *t, const char *scene, const char *request)
{
    REQUIRE(t, "%s: no provenance", what);
    char head[512];
    snprintf(head, sizeof head, "murmur " MUR_VERSION_STRING "\nscene: %s\nseed: 11\n%s", scene, request);
    CHECK(!strncmp(t, head, strlen(head)), "%s: starts\n%.300s\nnot\n%s", what, t, head);
    CHECK(strstr(t, "# resolved settings (as murmur check prints them)\nmodel: wrkspc\n") &&
              strstr(t, "  count:                  60 "), "%s: no resolved settings", what);
    size_t n = 0;
    char *text = test_slurp(scene, &n);
    CHECK(text && strstr(t, text), "%s: the scene file is not in it", what);
    free(text);
}

TEST(stats_and_series_csv_keep_their_header_and_carry_provenance_beside)
{
    const char *scene = small_scene("prov.yaml");
    char args[1024], err[4096], side[300];
    snprintf(args, sizeof args, "stats %s --runs 3 --ticks 20 -q -o %s", scene, scratch_path("prov.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    snprintf(args, sizeof args, "series %s --ticks 20 --condition all -q -o %s", scene,
             scratch_path("prov-series.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    size_t n = 0;
    char *csv = test_slurp(scratch_path("prov.csv"), &n);
    CHECK(csv && !strncmp(csv, "condition,metric,median,p10,p90,mean,runs,ticks,baseline,effect_median,ci_low,ci_high\n"
                               "all,order,", 96),
          "the stats CSV does not start with its header and a row: %.80s", csv ? csv : "");
    free(csv);
    csv = test_slurp(scratch_path("prov-series.csv"), &n);
    CHECK(csv && !strncmp(csv, "tick,order,", 11) && !strstr(csv, "murmur"), "the series CSV is not a plain table");
    free(csv);
    snprintf(side, sizeof side, "%s", scratch_path("prov.csv.provenance.txt"));
    char *t = test_slurp(side, &n);
    check_experiment_provenance("stats sidecar", t, scene,
                                "experiment: 3 conditions x 3 runs x 20 ticks\nconditions: all no, alignment none\n");
    free(t);
    snprintf(side, sizeof side, "%s", scratch_path("prov-series.csv.provenance.txt"));
    t = test_slurp(side, &n);
    check_experiment_provenance("series sidecar", t, scene,
                                "experiment: 1 condition x 1 run x 20 ticks, every tick\nconditions: all\n");
    free(t);
}

TEST(stats_json_has_a_provenance_object)
{
    const char *scene = small_scene("provj.yaml");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "stats %s --runs 3 --ticks 20 -q -o %s", scene, scratch_path("prov.json"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    json_object *top = json_object_from_file(scratch_path("prov.json")), *p, *v, *set;
    REQUIRE(top && json_object_object_get_ex(top, "provenance", &p), "no \"provenance\" object");
    CHECK(json_object_object_get_ex(p, "murmur", &v) && !strcmp(json_object_get_string(v), MUR_VERSION_STRING),
          "version");
    CHECK(json_object_object_get_ex(p, "scene", &v) && !strcmp(json_object_get_string(v), scene), "scene path");
    CHECK(json_object_object_get_ex(p, "seed", &v) && json_object_get_int64(v) == 11, "seed");
    CHECK(json_object_object_get_ex(p, "request", &v) &&
              strstr(json_object_get_string(v), "3 conditions x 3 runs x 20 ticks"), "request");
    REQUIRE(json_object_object_get_ex(p, "settings", &set), "no settings");
    CHECK(json_object_object_get_ex(set, "model", &v) && !strcmp(json_object_get_string(v), "wrkspc"), "model");
    CHECK(json_object_object_get_ex(set, "count", &v) && json_object_get_int(v) == 60, "count");
    CHECK(json_object_object_get_ex(set, "boundary", &v) && !strcmp(json_object_get_string(v), "wrap"), "boundary");
    CHECK(json_object_object_get_ex(set, "alignment_radius", &v) && json_object_get_double(v) == 40, "radius");
    size_t n = 0;
    char *text = test_slurp(scene, &n);
    CHECK(json_object_object_get_ex(p, "scene_text", &v) && text && !strcmp(json_object_get_string(v), text),
          "scene_text is not the scene file");
    free(text);
    json_object_put(top);
}

TEST(plots_carry_provenance_in_every_format)
{
    const char *scene = small_scene("provp.yaml");
    char args[1024], err[4096], cmd[700], out[16384];
    const char *ext[3] = {"png", "pdf", "svg"};
    for (int k = 0; k < 3; k++) {
        char name[32];
        snprintf(name, sizeof name, "provp.%s", ext[k]);
        const char *plot = scratch_path(name);
        snprintf(args, sizeof args, "series %s --ticks 20 --condition all -q -o - --plot %s", scene, plot);
        REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
        const char *req = "experiment: 1 condition x 1 run x 20 ticks, every tick\n";
        if (k == 0) {
            int bad = 0;
            char *t = png_text(plot, "murmur:provenance", &bad, NULL);
            CHECK(bad == 0, "PNG plot: %d bad CRCs", bad);
            check_experiment_provenance("PNG plot", t, scene, req);
            free(t);
        } else if (k == 1) {
            snprintf(cmd, sizeof cmd, "pdfinfo '%s' 2>&1", plot);
            REQUIRE(run_tool_output(cmd, out, sizeof out) == 0, "pdfinfo: %s", out);
            char *subject = strstr(out, "Subject:         ");
            check_experiment_provenance("PDF plot", subject ? subject + 17 : NULL, scene, req);
            CHECK(strstr(out, "Title:           small\n"), "PDF plot title: %s", out);
        } else {
            size_t n = 0;
            char *t = test_slurp(plot, &n), *meta = t ? strstr(t, "<metadata id=\"murmur-provenance\">") : NULL;
            check_experiment_provenance("SVG plot", meta ? meta + 33 : NULL, scene, req);
            free(t);
        }
    }
}

TEST(a_still_of_a_chosen_run_and_the_runs_out_csv_say_which_run)
{
    const char *scene = small_scene("provr.yaml");
    char args[1024], err[4096], want[256];
    snprintf(args, sizeof args, "still %s --at 1s --condition none --run 3 -q -o %s", scene,
             scratch_path("provr.png"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    int bad = 0;
    char *t = png_text(scratch_path("provr.png"), "murmur:provenance", &bad, NULL);
    snprintf(want, sizeof want, "\nseed: %llu\nexperiment: condition none, run 3\nstill: frame ",
             (unsigned long long)mur_rng_derive(11, 3));
    CHECK(t && strstr(t, want), "the still's provenance does not name run 3's seed and condition:\n%.400s",
          t ? t : "(none)");
    free(t);
    snprintf(args, sizeof args, "stats %s --runs 2 --ticks 10 -q --runs-out %s", scene, scratch_path("provr.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    size_t n = 0;
    t = test_slurp(scratch_path("provr.csv.provenance.txt"), &n);
    check_experiment_provenance("--runs-out sidecar", t, scene,
                                "experiment: 3 conditions x 2 runs x 10 ticks\nconditions: all no, alignment none\n");
    free(t);
}
