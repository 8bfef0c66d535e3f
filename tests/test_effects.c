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
#include "decode.h"
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

/* ---- one measured value per run: effects against --runs-out -------------- */

/* Field `col` (0-based) of a CSV line without quoted fields, into out. */
static void field(const char *line, int col, char *out, size_t n)
{
    for (int i = 0; i < col && line; i++)
        line = (line = strchr(line, ',')) ? line + 1 : NULL;
    size_t k = 0;
    for (; line && line[k] && line[k] != ',' && line[k] != '\n' && k + 1 < n; k++)
        out[k] = line[k];
    out[k] = 0;
}

#define MAX_ROWS 256

typedef struct {
    char condition[32], metric[32];
    int run;
    double value;
} run_row;

/* --runs-out's rows (condition,run,seed,metric,value): the number of rows. */
static int read_runs(const char *path, run_row *rows)
{
    FILE *fp = fopen(path, "r");
    char line[512], v[64];
    int n = 0;
    if (!fp)
        return -1;
    for (int first = 1; fgets(line, sizeof line, fp) && n < MAX_ROWS; first = 0) {
        if (first)
            continue;
        field(line, 0, rows[n].condition, sizeof rows[n].condition);
        field(line, 1, v, sizeof v);
        rows[n].run = atoi(v);
        field(line, 3, rows[n].metric, sizeof rows[n].metric);
        field(line, 4, v, sizeof v);
        rows[n].value = strtod(v, NULL);
        n++;
    }
    fclose(fp);
    return n;
}

static double run_value(const run_row *rows, int n, const char *c, const char *metric, int run)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(rows[i].condition, c) && !strcmp(rows[i].metric, metric) && rows[i].run == run)
            return rows[i].value;
    return NAN;
}

/* Every effect_median of the stats CSV `table` against the median (numpy's
 * linear rule; 7 runs: the middle one) of the paired differences of the
 * per-run values in `runs`, to the bit. Returns the rows compared, or -1. */
static int effects_match_runs(const char *table, const char *runs, char *why, size_t nwhy)
{
    static run_row rows[MAX_ROWS];
    int nrows = read_runs(runs, rows), compared = 0;
    FILE *fp = fopen(table, "r");
    char line[1024];
    if (nrows <= 0 || !fp) {
        snprintf(why, nwhy, "cannot read %s or %s", table, runs);
        if (fp)
            fclose(fp);
        return -1;
    }
    int base_col = -1;   /* baseline, then effect_median (a `censored` column before them with `until`) */
    for (int first = 1; fgets(line, sizeof line, fp); first = 0) {
        char c[32], metric[32], base[32], eff[64];
        for (int k = 0; first && k < 16; k++) {
            field(line, k, base, sizeof base);
            base_col = !strcmp(base, "baseline") ? k : base_col;
        }
        if (first || base_col < 0)
            continue;
        field(line, 0, c, sizeof c);
        field(line, 1, metric, sizeof metric);
        field(line, base_col, base, sizeof base);
        field(line, base_col + 1, eff, sizeof eff);
        if (!eff[0])   /* a row with no effect (time_to_...) */
            continue;
        double d[7];
        for (int r = 0; r < 7; r++)
            d[r] = run_value(rows, nrows, c, metric, r) - run_value(rows, nrows, base, metric, r);
        qsort(d, 7, sizeof d[0], cmp);
        double got = strtod(eff, NULL);
        if (got != d[3]) {
            snprintf(why, nwhy, "%s %s: effect_median %s, paired median of --runs-out %.17g", c, metric, eff, d[3]);
            fclose(fp);
            return -1;
        }
        compared++;
    }
    fclose(fp);
    return compared;
}

static const char measured_head[] =
    "seed: 3\nmodel: wrkspc\nworld: {width: 200, height: 140, boundary: wrap}\nflock: {count: 40}\n"
    "experiment:\n  runs: 7\n  ticks: 80\n  baseline: all\n  metrics: [order, nearest, neighbours]\n"
    "  conditions: {all: {}, deaf: {alignment: 0}, loose: {cohesion: 0}}\n";

TEST(effects_are_the_paired_medians_of_the_runs_out_values)
{
    static const char *const measures[][2] = {
        {"last", ""},
        {"window", "  measure: {window: 40t}\n"},
        {"every", "  measure: {window: 50t, every: 7t}\n"},
        {"until", "  measure: {window: 30t, every: 3t}\n  until: {order: \"> 0.9\"}\n"},
    };
    char err[4096], why[512], args[1024], text[2048];
    for (size_t i = 0; i < sizeof measures / sizeof measures[0]; i++) {
        const char *name = measures[i][0];
        char scene[64], table[64], runs[64];
        snprintf(scene, sizeof scene, "m-%s.yaml", name);
        snprintf(text, sizeof text, "%s%s", measured_head, measures[i][1]);
        write_file(scratch_path(scene), text);
        snprintf(table, sizeof table, "%s", scratch_path("t.csv"));
        snprintf(runs, sizeof runs, "%s", scratch_path("r.csv"));
        snprintf(args, sizeof args, "stats %s -q -o %s --runs-out %s", scratch_path(scene), table, runs);
        REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", name, err);
        int n = effects_match_runs(table, runs, why, sizeof why);
        CHECK(n == 9, "%s: %s (%d rows)", name, why, n);
        if (i == 0)
            continue;
        /* in shards and merged: the same values, the same effects */
        char dir[64];
        snprintf(dir, sizeof dir, "%s", scratch_path(name));
        snprintf(args, sizeof args, "mkdir -p %s", dir);
        REQUIRE(system(args) == 0, "mkdir");
        for (int k = 1; k <= 3; k++) {
            snprintf(args, sizeof args, "stats %s -q --shard %d/3 -o %s/", scratch_path(scene), k, dir);
            REQUIRE(murmur(args, err, sizeof err) == 0, "%s shard %d: %s", name, k, err);
        }
        snprintf(args, sizeof args, "merge -q %s/m-%s.shard-*-of-3.mur -o %s --runs-out %s", dir, name, table, runs);
        REQUIRE(murmur(args, err, sizeof err) == 0, "%s merge: %s", name, err);
        n = effects_match_runs(table, runs, why, sizeof why);
        CHECK(n == 9, "%s merged: %s (%d rows)", name, why, n);
    }
}

/* Columns [x0, x1) of an RGB image that hold ink (a dark pixel). */
static int inked_columns(const uint8_t *rgb, int w, int h, int x0, int x1)
{
    int n = 0;
    for (int x = x0; x < x1; x++) {
        int dark = 0;
        for (int y = 0; y < h && !dark; y++) {
            const uint8_t *p = rgb + ((size_t)y * w + x) * 3;
            dark = p[0] + p[1] + p[2] < 3 * 160;
        }
        n += dark;
    }
    return n;
}

/* --plot-effects with a baseline label too long for a panel's title line
 * and a condition name too long for its slot: the titles shrink and wrap
 * inside the panels' width, the turned names stay on the figure (the right
 * margin and the left edge are blank). */
TEST(effects_titles_and_names_fit_the_figure)
{
    const char *scene = scratch_path("long-names.yaml"), *png = scratch_path("long-names.png");
    write_file(scene, "seed: 7\nmodel: wrkspc\nworld: {width: 300, height: 200, boundary: wrap}\nflock: {count: 60}\n"
                      "experiment:\n  runs: 5\n  ticks: 60\n  baseline: all\n  metrics: [order, neighbours]\n"
                      "  conditions:\n"
                      "    all: {label: \"all three rules at their published strengths (the reference run)\"}\n"
                      "    no-alignment-with-a-very-long-condition-name: {alignment: 0}\n"
                      "    no-cohesion: {cohesion: 0}\n");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "stats %s -q --plot-effects %s", scene, png);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    uint8_t *rgb = NULL;
    int w = 0, h = 0;
    REQUIRE(test_video_frame_rgb(png, 0, &rgb, &w, &h) == 0, "cannot decode %s", png);
    /* the panels end MARGIN_R (8 pt) before the figure's right edge */
    int margin = (int)(w * 8 / MUR_PLOT_WIDTH) - 4;
    CHECK(inked_columns(rgb, w, h, w - margin, w) == 0, "ink in the right margin: a title runs off the panel");
    CHECK(inked_columns(rgb, w, h, 0, 2) == 0, "ink at the left edge: a condition's name runs off the figure");
    free(rgb);
}
