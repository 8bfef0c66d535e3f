/* Paired effects: the median of run-by-run differences against the
 * baseline and its seeded bootstrap interval; exactly zero for a condition
 * against itself, the same bytes for any thread count, in the CSV, the JSON
 * and a figure; every JSON row with its CSV row's keys, null where the CSV is
 * empty; a baseline that names no condition is refused at its line. */
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/experiment.h"
#include "murmur/plot.h"
#include "murmur/stats.h"

static mur_scene *parse(const char *text, mur_error *err)
{
    mur_scene *s = NULL;
    mur_scene_parse(&s, "t.yaml", text, strlen(text), err);
    return s;
}

static const char paired[] =
    "seed: 9\nmodel: wrkspc\nworld: {width: 200, height: 140}\nflock: {count: 30}\n"
    "experiment:\n  runs: 9\n  ticks: 60\n  baseline: all\n  metrics: [order, nearest, clusters]\n"
    "  conditions:\n    all: {}\n    same: {}\n    deaf: {alignment: 0}\n";

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

TEST(a_condition_against_itself_is_exactly_zero)
{
    mur_error err = {{0}};
    mur_scene *s = parse(paired, &err);
    REQUIRE(s, "%s", err.msg);
    CHECK(s->baseline == 0 && s->baseline_named && s->effects, "baseline %d", s->baseline);
    mur_experiment_def def = MUR_EXPERIMENT_DEF_INIT;
    def.threads = 2;
    mur_experiment *e = NULL;
    REQUIRE(mur_experiment_run(&e, s, &def, &err) == 0, "%s", err.msg);
    for (int i = 0; i < s->nmetrics; i++) {
        int k = s->metrics[i];
        for (int c = 0; c < 2; c++) {   /* the baseline itself, and an identical condition */
            mur_effect f;
            REQUIRE(mur_experiment_effect(e, c, 0, k, &f, &err) == 0, "%s", err.msg);
            CHECK(f.median == 0 && f.ci_low == 0 && f.ci_high == 0 && f.n == 9,
                  "metric %d, condition %d against all: %.17g [%.17g, %.17g]", k, c, f.median, f.ci_low, f.ci_high);
        }
        /* a real change: the median of the paired differences, with an interval around it */
        double d[9];
        for (int r = 0; r < 9; r++)
            d[r] = mur_metrics_value(mur_experiment_metrics(e, 2, r, 60), k) -
                   mur_metrics_value(mur_experiment_metrics(e, 0, r, 60), k);
        qsort(d, 9, sizeof d[0], cmp);
        mur_effect f;
        REQUIRE(mur_experiment_effect(e, 2, 0, k, &f, &err) == 0, "%s", err.msg);
        CHECK(f.median == d[4], "metric %d: effect %.17g, median of the paired differences %.17g", k, f.median, d[4]);
        CHECK(f.ci_low <= f.median && f.median <= f.ci_high && f.ci_low >= d[0] && f.ci_high <= d[8],
              "metric %d: interval [%g, %g] around %g within [%g, %g]", k, f.ci_low, f.ci_high, f.median, d[0], d[8]);
    }
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
}

TEST(the_bootstrap_is_seeded_and_answers_known_cases)
{
    const double d[6] = {0.3, -0.1, 0.9, 0.4, 0.2, 1.5};
    mur_effect a, b, c;
    REQUIRE(mur_effect_compute(&a, d, 6, 95, 2000, 42) == 0, "out of memory");
    REQUIRE(mur_effect_compute(&b, d, 6, 95, 2000, 42) == 0, "out of memory");
    CHECK(a.median == 0.35 && a.ci_low == b.ci_low && a.ci_high == b.ci_high && a.n == 6, "same seed: %.17g [%.17g, %.17g] vs [%.17g, %.17g]",
          a.median, a.ci_low, a.ci_high, b.ci_low, b.ci_high);
    CHECK(a.ci_low < a.median && a.median < a.ci_high && a.ci_low >= -0.1 && a.ci_high <= 1.5,
          "interval [%g, %g]", a.ci_low, a.ci_high);
    /* The seed reaches the resampling: with 40 differences, seeds 41 and
     * 42 give different intervals (the ends are resampled medians, a
     * discrete set, so many seeds share an interval). */
    double many[40];
    for (int i = 0; i < 40; i++)
        many[i] = sin(i * 1.7) + 0.01 * i;
    REQUIRE(mur_effect_compute(&a, many, 40, 95, 2000, 42) == 0, "out of memory");
    REQUIRE(mur_effect_compute(&c, many, 40, 95, 2000, 41) == 0, "out of memory");
    CHECK(c.ci_low != a.ci_low || c.ci_high != a.ci_high, "another seed gave the very same interval");
    const double same[4] = {2.5, 2.5, 2.5, 2.5};
    REQUIRE(mur_effect_compute(&a, same, 4, 95, 500, 1) == 0, "out of memory");
    CHECK(a.median == 2.5 && a.ci_low == 2.5 && a.ci_high == 2.5, "equal differences: %g [%g, %g]", a.median,
          a.ci_low, a.ci_high);
    const double bad[3] = {1, NAN, 2};
    REQUIRE(mur_effect_compute(&a, bad, 3, 95, 500, 1) == 0, "out of memory");
    CHECK(isnan(a.median) && isnan(a.ci_low) && isnan(a.ci_high), "a NaN difference passed for a number");
}

TEST(effects_are_the_same_bytes_for_any_thread_count)
{
    char path[256];
    snprintf(path, sizeof path, "%s", scratch_path("paired.yaml"));
    write_file(path, paired);
    char args[1024], err[4096];
    const char *ext[2] = {"csv", "json"};
    for (int x = 0; x < 2; x++) {
        char *out[2] = {NULL, NULL};
        for (int t = 0; t < 2; t++) {
            char name[32];
            snprintf(name, sizeof name, "paired-%d.%s", t + 1, ext[x]);
            snprintf(args, sizeof args, "stats %s --threads %d -q -o %s", path, t + 1, scratch_path(name));
            REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
            out[t] = test_slurp(scratch_path(name), NULL);
        }
        REQUIRE(out[0] && out[1], "missing output");
        CHECK(!strcmp(out[0], out[1]), "%s: --threads 1 and 2 differ", ext[x]);
        if (x == 0) {
            const char *head = "condition,metric,median,p10,p90,mean,runs,ticks,baseline,effect_median,ci_low,ci_high\n";
            CHECK(!strncmp(out[0], head, strlen(head)), "header: %.100s", out[0]);
            const char *row = strstr(out[0], "\nsame,order,");
            const char *end = row ? strchr(row + 1, '\n') : NULL;
            CHECK(end && end - row > 16 && !strncmp(end - 15, ",9,60,all,0,0,0\n", 16),
                  "same against all is not 0 in [0, 0]: %.120s", row ? row : out[0]);
        } else {
            /* the JSON is json-c's: read back, the baseline's own row has 0 in [0, 0] */
            json_object *top = json_tokener_parse(out[0]), *rows = NULL, *v;
            json_object *row = top && json_object_object_get_ex(top, "rows", &rows) ? json_object_array_get_idx(rows, 0)
                                                                                   : NULL;
            int zero = row != NULL;
            for (int k = 0; zero && k < 3; k++) {
                const char *key[3] = {"effect_median", "ci_low", "ci_high"};
                zero = json_object_object_get_ex(row, key[k], &v) && v && json_object_get_double(v) == 0;
            }
            CHECK(zero && json_object_object_get_ex(row, "baseline", &v) && !strcmp(json_object_get_string(v), "all"),
                  "JSON lacks the effect keys: %.400s", out[0]);
            json_object_put(top);
        }
        free(out[0]);
        free(out[1]);
    }
    snprintf(args, sizeof args, "stats %s -q --plot-effects %s", path, scratch_path("effects.png"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    size_t n = 0;
    char *png = test_slurp(scratch_path("effects.png"), &n);
    CHECK(png && n > 2000 && !memcmp(png, "\x89PNG", 4), "no effects figure (%zu bytes)", n);
    free(png);
}

TEST(a_baseline_that_names_no_condition_is_refused)
{
    mur_error err = {{0}};
    mur_scene *s = parse("experiment:\n  conditions: {a: {}, b: {alignment: 0}}\n  baseline: c\n", &err);
    CHECK(!s && strstr(err.msg, "t.yaml:3:13: error:") && strstr(err.msg, "'c'") && strstr(err.msg, "'a', 'b'"),
          "%s", s ? "(loaded)" : err.msg);
    mur_scene_destroy(s);
    s = parse("experiment:\n  baseline: b\n  conditions: {a: {}, b: {alignment: 0}}\n", &err);
    CHECK(s && s->baseline == 1, "a baseline written before its conditions: %s", s ? "wrong index" : err.msg);
    mur_scene_destroy(s);
    s = parse("experiment:\n  sweep: {noise: [0, 0.1]}\n  baseline: noise=0.1\n", &err);
    CHECK(s && s->baseline == 1, "a sweep's condition as baseline: %s", s ? "wrong index" : err.msg);
    mur_scene_destroy(s);
    s = parse("experiment: {baseline: all}\n", &err);
    CHECK(!s && strstr(err.msg, "t.yaml:1:24: error:"), "a baseline with no conditions: %s", s ? "(loaded)" : err.msg);
    mur_scene_destroy(s);
}

TEST(baseline_none_keeps_the_tables_columns)
{
    char path[256];
    snprintf(path, sizeof path, "%s", scratch_path("nobase.yaml"));
    write_file(path, "seed: 9\nflock: {count: 20}\nexperiment:\n  runs: 2\n  ticks: 5\n  metrics: [order]\n"
                     "  baseline: none\n  conditions: {all: {}, deaf: {alignment: 0}}\n");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "stats %s -q -o %s", path, scratch_path("nobase.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    char *csv = test_slurp(scratch_path("nobase.csv"), NULL);
    CHECK(csv && !strncmp(csv, "condition,metric,median,p10,p90,mean,runs,ticks\nall,order,", 58), "%.80s", csv);
    free(csv);
    /* and a figure of effects it turned off is refused, not drawn against a guess */
    snprintf(args, sizeof args, "stats %s -q --plot-effects %s", path, scratch_path("nobase.svg"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "baseline: none"), "%s", err);
}

/* Unnamed, the baseline is the first condition (two or more of them), and
 * the table's first line says so; one condition has no effects. */
TEST(the_first_condition_is_the_default_baseline)
{
    mur_error e = {{0}};
    mur_scene *s = parse("experiment:\n  conditions: {deaf: {alignment: 0}, all: {}}\n", &e);
    REQUIRE(s, "%s", e.msg);
    CHECK(s->baseline == 0 && s->effects && !s->baseline_named, "baseline %d effects %d", s->baseline, s->effects);
    mur_scene_destroy(s);
    s = parse("experiment:\n  conditions: {a: {}}\n", &e);
    CHECK(s && !s->effects, "one condition has nothing to compare");
    mur_scene_destroy(s);
    s = parse("experiment:\n  conditions: {a: {}, none: {}}\n  baseline: none\n", &e);
    CHECK(s && !s->effects, "baseline: none (beside a condition named none)");
    mur_scene_destroy(s);

    const char *path = scratch_path("firstbase.yaml");
    write_file(path, "seed: 9\nflock: {count: 20}\nexperiment:\n  runs: 3\n  ticks: 5\n  metrics: [order]\n"
                     "  conditions: {deaf: {alignment: 0}, all: {}}\n");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "stats %s -q -o %s", path, scratch_path("firstbase.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    char *csv = test_slurp(scratch_path("firstbase.csv"), NULL);
    CHECK(csv && strstr(csv, "runs,ticks,baseline,effect_median,ci_low,ci_high\ndeaf,order,") &&
              strstr(csv, ",deaf,0,0,0\n"),
          "%s", csv);
    free(csv);
    snprintf(args, sizeof args, "stats %s", path);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    char *table = test_slurp(scratch_path("stderr.txt.out"), NULL);   /* murmur()'s stdout */
    CHECK(table && strstr(table, "; effects against deaf (the first condition)\n"), "%s", table);
    free(table);
}

/* The fields of one CSV line (RFC 4180 quoting) into f[max][64]; *end is
 * set past the line's '\n'. Returns the number of fields. */
static int csv_fields(const char *p, const char **end, char f[][64], int max)
{
    int n = 0;
    for (;;) {
        size_t k = 0;
        char *out = n < max ? f[n] : NULL;
        if (*p == '"') {
            for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
                if (*p == '"')
                    p++;
                if (out && k < 63)
                    out[k++] = *p;
            }
            if (*p == '"')
                p++;
        }
        for (; *p && *p != ',' && *p != '\n'; p++)
            if (out && k < 63)
                out[k++] = *p;
        if (out)
            out[k] = 0;
        n++;
        if (*p != ',')
            break;
        p++;
    }
    *end = *p == '\n' ? p + 1 : p;
    return n;
}

TEST(json_rows_have_the_csv_columns_with_null_where_it_is_empty)
{
    /* A baseline with a twin and an `until`: their rows have no paired
     * effect, so the CSV's effect cells are empty there. */
    char path[256];
    snprintf(path, sizeof path, "%s", scratch_path("rows.yaml"));
    write_file(path, "seed: 9\nmodel: wrkspc\nworld: {width: 200, height: 140, boundary: wrap}\nflock: {count: 20}\n"
                     "experiment:\n  runs: 3\n  ticks: 30\n  baseline: all\n  twin: {shift: half-box}\n"
                     "  until: {order: \"> 0.9\"}\n  metrics: [order, nearest]\n"
                     "  conditions:\n    all: {}\n    deaf: {alignment: 0}\n");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "stats %s -q -o %s", path, scratch_path("rows.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    snprintf(args, sizeof args, "stats %s -q -o %s", path, scratch_path("rows.json"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    char *csv = test_slurp(scratch_path("rows.csv"), NULL);
    json_object *top = json_object_from_file(scratch_path("rows.json")), *rows = NULL;
    REQUIRE(csv && top && json_object_object_get_ex(top, "rows", &rows) && json_object_is_type(rows, json_type_array),
            "no CSV or no JSON rows");
    char head[32][64], cell[32][64];
    const char *p = csv;
    int ncol = csv_fields(p, &p, head, 32), nrow = 0, effectless = 0;
    REQUIRE(ncol == 13 && !strcmp(head[12], "ci_high"), "header: %.200s", csv);
    for (; *p; nrow++) {
        int n = csv_fields(p, &p, cell, 32);
        REQUIRE(n == ncol, "CSV row %d has %d fields, the header %d", nrow, n, ncol);
        REQUIRE((size_t)nrow < json_object_array_length(rows), "JSON has only %zu rows", json_object_array_length(rows));
        json_object *o = json_object_array_get_idx(rows, (size_t)nrow), *v;
        CHECK(json_object_object_length(o) == ncol, "JSON row %d (%s) has %d keys, the CSV %d", nrow, cell[1],
              json_object_object_length(o), ncol);
        for (int k = 0; k < ncol; k++) {
            if (!json_object_object_get_ex(o, head[k], &v)) {
                CHECK(0, "JSON row %d (%s) lacks \"%s\"", nrow, cell[1], head[k]);
                continue;
            }
            if (!cell[k][0])
                CHECK(v == NULL, "row %d (%s) \"%s\": JSON %s where the CSV is empty", nrow, cell[1], head[k],
                      json_object_to_json_string(v));
            else if (json_object_is_type(v, json_type_string))
                CHECK(!strcmp(json_object_get_string(v), cell[k]), "row %d \"%s\": %s vs CSV %s", nrow, head[k],
                      json_object_get_string(v), cell[k]);
            else
                /* the same value, and the same text (json-c keeps the number's) */
                CHECK(v && json_object_get_double(v) == strtod(cell[k], NULL) &&
                          !strcmp(json_object_to_json_string(v), cell[k]),
                      "row %d (%s) \"%s\": JSON %s vs CSV %s", nrow, cell[1], head[k],
                      v ? json_object_to_json_string(v) : "null", cell[k]);
        }
        effectless += !strcmp(head[9], "baseline") && !strcmp(cell[9], "all") && !cell[10][0];
    }
    CHECK(nrow == 14 && json_object_array_length(rows) == 14, "%d CSV rows, %zu JSON rows (want 2 x (2 + 4 + 1))",
          nrow, json_object_array_length(rows));
    CHECK(effectless == 10, "%d rows without an effect (want the twin's and the until's, 10)", effectless);
    json_object_put(top);
    free(csv);
}
