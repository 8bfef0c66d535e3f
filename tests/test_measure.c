/* What a summary measures (experiment.measure) and times to an event
 * (experiment.until): a window's mean is the mean of the series at its
 * sample ticks, the time to an event is the series' first tick that meets
 * it, runs that never get there are counted as censored, and bad input is
 * refused with file:line:col. */
#include <math.h>

#include <sys/stat.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/experiment.h"
#include "scene_util.h"

#define SCENE_HEAD "seed: 5\nmodel: wrkspc\nworld: {width: 240, height: 160, boundary: wrap}\nflock: {count: 60}\n"

TEST(window_mean_is_the_mean_of_the_series_at_its_sample_ticks)
{
    mur_scene *s = scene_of(SCENE_HEAD "experiment: {runs: 3, ticks: 200, measure: {window: 50t, every: 7t}}\n");
    REQUIRE(s, "scene");
    mur_experiment *stats = experiment_of(s, 0), *series = experiment_of(s, 1);
    REQUIRE(stats && series, "experiments");
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < MUR_METRIC_COUNT; k++) {
            if (!(mur_experiment_metrics_kept(stats) >> k & 1))
                continue;   /* a field's measure the scene does not name: not computed */
            /* ticks 200, 193, ..., 151: the last 50, every 7th from the end */
            double sum = 0;
            int n = 0;
            for (long t = 200; t > 150; t -= 7, n++)
                sum += mur_metrics_value(mur_experiment_metrics(series, 0, r, t), k);
            double want = sum / n, got = mur_experiment_value(stats, 0, r, k);
            CHECK(fabs(got - want) <= 1e-12 * fmax(1, fabs(want)) && n == 8, "run %d %s: %.17g, series %.17g",
                  r, mur_metric_name(k), got, want);
            /* and not the last tick's value, for a metric that moves */
            if (k == 0)
                CHECK(got != mur_metrics_value(mur_experiment_metrics(series, 0, r, 200), 0),
                      "run %d: the window's mean is the last value", r);
        }
    mur_summary m;
    mur_experiment_summary(stats, 0, 200, 0, &m);
    CHECK(m.n == 3 && isfinite(m.median), "summary of the window");
    mur_experiment_destroy(stats);
    mur_experiment_destroy(series);
    mur_scene_destroy(s);
}

TEST(until_is_the_first_tick_that_meets_it_and_never_is_censored)
{
    mur_scene *s = scene_of(SCENE_HEAD "experiment:\n  runs: 4\n  ticks: 400\n"
                                       "  until: {order: \"> 0.8\", nearest: \"<= 9\"}\n"
                                       "  conditions: {all: {}, none: {separation: 0, alignment: 0, cohesion: 0}}\n");
    REQUIRE(s, "scene");
    mur_experiment *stats = experiment_of(s, 0), *series = experiment_of(s, 1);
    REQUIRE(stats && series, "experiments");
    int met = 0;
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < 4; r++)
            for (int i = 0; i < 2; i++) {
                long first = -1;
                for (long t = 0; t <= 400 && first < 0; t++) {
                    const mur_metrics *m = mur_experiment_metrics(series, c, r, t);
                    if (i == 0 ? m->order > 0.8 : m->nearest <= 9)
                        first = t;
                }
                double got = mur_experiment_until(stats, c, r, i);
                CHECK(first < 0 ? isinf(got) : got == first, "condition %d run %d until %d: %g, series %ld", c, r,
                      i, got, first);
                met += first >= 0;
            }
    /* with no rules the order stays where it started: every run censored, counted */
    mur_summary m;
    int censored = -1;
    mur_experiment_until_summary(stats, 1, 0, &m, &censored);
    CHECK(censored == 4 && m.n == 4 && isnan(m.median), "none: %d censored of %d, median %g", censored, m.n,
          m.median);
    CHECK(met >= 4, "only %d runs met an until", met);
    mur_experiment_destroy(stats);
    mur_experiment_destroy(series);
    mur_scene_destroy(s);
}

TEST(stats_csv_has_time_to_rows_with_the_censored_count)
{
    const char *path = scratch_path("until.yaml"), *csv = scratch_path("until.csv");
    write_file(path, SCENE_HEAD "experiment:\n  runs: 4\n  ticks: 300\n  until: {order: \"> 0.8\"}\n"
                                "  metrics: [order]\n  baseline: none\n"
                                "  conditions: {all: {}, none: {separation: 0, alignment: 0, cohesion: 0}}\n");
    char args[1024], err[4096];
    /* --plot draws the stats figure (an until is not a twin's divergence) */
    const char *png = scratch_path("until.png");
    snprintf(args, sizeof args, "stats %s -q -o %s --plot %s", path, csv, png);
    REQUIRE(murmur(args, err, sizeof err) == 0, "stats: %s", err);
    struct stat st;
    CHECK(stat(png, &st) == 0 && st.st_size > 0, "no figure at %s", png);
    char *text = test_slurp(csv, NULL);
    REQUIRE(text, "no csv");
    CHECK(strstr(text, "condition,metric,median,p10,p90,mean,runs,ticks,censored\n") == text, "header: %.80s", text);
    CHECK(strstr(text, "\nall,order,") && strstr(text, "\nall,time_to_order,"), "rows:\n%s", text);
    CHECK(strstr(text, "\nnone,time_to_order,,,,,4,300,4\n"), "none's runs are all censored:\n%s", text);
    free(text);
}

TEST(measure_and_until_bad_input_exits_2_naming_the_line)
{
    static const struct {
        const char *yaml, *where, *says;
    } cases[] = {
        {"experiment:\n  until: {ordr: \"> 0.9\"}\n", ":2:11:", "did you mean 'order'"},
        {"experiment:\n  until: {order: \"~ 0.9\"}\n", ":2:18:", "comparison"},
        {"experiment:\n  until: {order: \"> high\"}\n", ":2:18:", "comparison"},
        {"experiment:\n  until: {}\n", ":2:10:", "1 to 21 metrics"},
        {"experiment:\n  measure: {at: last, window: 10t}\n", ":2:12:", "not both"},
        {"experiment:\n  measure: {at: first}\n", ":2:17:", "expected one of: last"},
        {"experiment:\n  measure: {every: 5t}\n", ":2:20:", "samples a 'window'"},
        {"experiment:\n  measure: {window: 10t, every: 20t}\n", ":2:33:", "longer than the window"},
        {"experiment:\n  ticks: 50\n  measure: {window: 100t}\n", ":3:21:", "longer than the experiment"},
        {"experiment:\n  measure: {window: 0t}\n", ":2:21:", "at least one tick"},
        {"experiment:\n  measure: {radius: 0}\n", ":2:21:", "out of range"},
        {"experiment:\n  measure: {radius: -3}\n", ":2:21:", "out of range"},
        {"experiment:\n  measure: {radius: wide}\n", ":2:21:", "must be a number"},
        {"experiment:\n  measure: {radius: 100000}\n", ":2:21:", "larger than the world"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[4096];
        CHECK(check_refuses("bad-measure.yaml", cases[i].yaml, cases[i].where, cases[i].says, err, sizeof err),
              "case %zu: %s", i, err);
    }
}

/* A window the scene's ticks hold, outlasted by --ticks: exit 2 naming the
 * window's line. */
TEST(a_window_longer_than_the_run_asked_for_exits_2_naming_its_line)
{
    const char *path = scratch_path("long-window.yaml");
    write_file(path, SCENE_HEAD "experiment:\n  ticks: 200\n  measure: {window: 100t}\n");
    char args[1024], err[4096], where[512];
    snprintf(args, sizeof args, "stats %s -q --runs 2 --ticks 50", path);
    int rc = murmur(args, err, sizeof err);
    snprintf(where, sizeof where, "%s:7:21: error:", path);
    CHECK(rc == 2 && strstr(err, where) && strstr(err, "longer than the run's 50 ticks"), "exit %d: %s", rc, err);
}

/* measure.radius: neighbours (and clusters) are counted within it, and the
 * flock moves exactly as without it. */
TEST(measure_radius_changes_neighbours_and_not_the_dynamics)
{
    mur_scene *a = scene_of(SCENE_HEAD "experiment: {runs: 2, ticks: 60}\n");
    mur_scene *b = scene_of(SCENE_HEAD "experiment: {runs: 2, ticks: 60, measure: {radius: 12}}\n");
    REQUIRE(a && b, "scenes");
    CHECK(a->measure.radius == 0 && b->measure.radius == 12, "radius %g, %g", a->measure.radius, b->measure.radius);
    mur_experiment *ea = experiment_of(a, 1), *eb = experiment_of(b, 1);
    REQUIRE(ea && eb, "experiments");
    int same_motion = 1, fewer = 0;
    for (int r = 0; r < 2; r++)
        for (long t = 0; t <= 60; t++) {
            const mur_metrics *x = mur_experiment_metrics(ea, 0, r, t), *y = mur_experiment_metrics(eb, 0, r, t);
            same_motion &= x->order == y->order && x->nearest == y->nearest;
            fewer += y->neighbours < x->neighbours;   /* 12 against wrkspc's cohesion radius */
        }
    CHECK(same_motion, "order or nearest changed with the measuring radius");
    CHECK(fewer == 2 * 61, "neighbours within 12 fewer than within the cohesion radius at %d of 122 ticks", fewer);
    mur_experiment_destroy(ea);
    mur_experiment_destroy(eb);
    /* the traced flocks are the same bytes (positions and velocities), and an
     * .h5's observables measure with the radius */
    const char *pa = scratch_path("ra.yaml"), *pb = scratch_path("rb.yaml");
    write_file(pa, SCENE_HEAD "experiment: {runs: 2, ticks: 60}\n");
    write_file(pb, SCENE_HEAD "experiment: {runs: 2, ticks: 60, measure: {radius: 12}}\n");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "trace %s -q --ticks 40t -o %s", pa, scratch_path("ra.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    snprintf(args, sizeof args, "trace %s -q --ticks 40t -o %s", pb, scratch_path("rb.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    size_t la, lb;
    char *ta = test_slurp(scratch_path("ra.csv"), &la), *tb = test_slurp(scratch_path("rb.csv"), &lb);
    CHECK(ta && tb && la == lb && la > 1000 && !memcmp(ta, tb, la), "the traces differ (%zu, %zu bytes)", la, lb);
    free(ta);
    free(tb);
    /* and the provenance says which radius measured */
    char *pr = test_slurp(scratch_path("rb.csv.provenance.txt"), NULL), *pq = test_slurp(scratch_path("ra.csv.provenance.txt"), NULL);
    CHECK(pr && strstr(pr, "\nmeasure radius: 12\n"), "provenance: %.300s", pr ? pr : "(none)");
    CHECK(pq && strstr(pq, "\nmeasure radius: cohesion_radius\n"), "provenance: %.300s", pq ? pq : "(none)");
    free(pr);
    free(pq);
    mur_scene_destroy(a);
    mur_scene_destroy(b);
}
