/* Experiments over conditions: `series` runs every condition (or the one
 * --condition names), a sweep expands into the product of its values with
 * one column per swept setting, and its bad input is refused with the line. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/experiment.h"
#include "murmur/session.h"

/* ---- helpers ------------------------------------------------------------- */

static mur_scene *parse(const char *text, mur_error *err)
{
    mur_scene *s = NULL;
    mur_scene_parse(&s, "t.yaml", text, strlen(text), err);
    return s;
}

/* Lines of a text file whose first field is `first` ("" for every line
 * but the header), with that field cut; returned as one malloc'd text. */
static char *rows_of(const char *csv, const char *first)
{
    char *out = calloc(1, strlen(csv) + 1);
    size_t n = 0, fl = strlen(first);
    const char *line = strchr(csv, '\n');
    for (line = line ? line + 1 : NULL; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line + 1) : strlen(line);
        if (!fl) {
            memcpy(out + n, line, len);
            n += len;
        } else if (!strncmp(line, first, fl) && line[fl] == ',') {
            memcpy(out + n, line + fl + 1, len - fl - 1);
            n += len - fl - 1;
        }
        line += len;
    }
    return out;
}

static int starts(const char *text, const char *head) { return !strncmp(text, head, strlen(head)); }

static const char two_conditions[] =
    "seed: 5\nmodel: wrkspc\nflock: {count: 40}\nvideo: {duration: 1s}\n"
    "experiment:\n  conditions:\n    all: {}\n    deaf: {alignment: 0, cohesion: 0}\n";

/* ---- series over conditions ---------------------------------------------- */

TEST(a_series_of_two_conditions_has_both)
{
    const char *path = scratch_path("two.yaml");
    write_file(path, two_conditions);
    char args[1024], err[4096];
    snprintf(args, sizeof args, "series %s --ticks 30 -q -o %s", path, scratch_path("two.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    char *csv = test_slurp(scratch_path("two.csv"), NULL);
    REQUIRE(csv, "no CSV");
    CHECK(!strncmp(csv, "condition,tick,order,", 21), "header: %.60s", csv);
    char *all = rows_of(csv, "all"), *deaf = rows_of(csv, "deaf");
    int na = 0, nd = 0;
    for (char *p = all; (p = strchr(p, '\n')); p++)
        na++;
    for (char *p = deaf; (p = strchr(p, '\n')); p++)
        nd++;
    CHECK(na == 31 && nd == 31, "rows: all %d, deaf %d (want 31 each)", na, nd);
    /* Same start (paired seeds), different rules: the two must part. */
    CHECK(!strncmp(all, deaf, 20) && strcmp(all, deaf), "the conditions did not run as themselves");
    free(all);
    free(deaf);
    free(csv);
}

TEST(series_condition_picks_one_with_the_same_rows)
{
    const char *path = scratch_path("pick.yaml");
    write_file(path, two_conditions);
    char args[1024], err[4096];
    snprintf(args, sizeof args, "series %s --ticks 30 --runs 2 -q -o %s", path, scratch_path("pick-all.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    snprintf(args, sizeof args, "series %s --ticks 30 --runs 2 --condition deaf -q -o %s", path,
             scratch_path("pick-deaf.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    char *whole = test_slurp(scratch_path("pick-all.csv"), NULL), *one = test_slurp(scratch_path("pick-deaf.csv"), NULL);
    REQUIRE(whole && one, "missing CSV");
    CHECK(!strncmp(one, "tick,order,", 11), "one condition has no condition column: %.40s", one);
    char *a = rows_of(whole, "deaf"), *b = rows_of(one, "");
    CHECK(!strcmp(a, b), "--condition deaf differs from deaf's rows of the whole series");
    free(a);
    free(b);
    free(whole);
    free(one);
    snprintf(args, sizeof args, "series %s --condition nope -q -o %s", path, scratch_path("pick-x.csv"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "'nope'") && strstr(err, "'deaf'"),
          "unknown condition: %s", err);
}

TEST(a_single_condition_is_run_as_itself)
{
    /* One condition that changes the rules: today's columns, its numbers. */
    const char *path = scratch_path("single.yaml"), *plain = scratch_path("plain.yaml");
    write_file(path, "seed: 5\nmodel: wrkspc\nflock: {count: 40}\nvideo: {duration: 1s}\n"
                     "experiment: {conditions: {deaf: {alignment: 0, cohesion: 0}}}\n");
    write_file(plain, "seed: 5\nmodel: wrkspc\nflock: {count: 40, alignment: 0, cohesion: 0}\nvideo: {duration: 1s}\n");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "series %s --ticks 30 -q -o %s", path, scratch_path("single.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    snprintf(args, sizeof args, "series %s --ticks 30 -q -o %s", plain, scratch_path("plain.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    char *a = test_slurp(scratch_path("single.csv"), NULL), *b = test_slurp(scratch_path("plain.csv"), NULL);
    REQUIRE(a && b, "missing CSV");
    CHECK(!strcmp(a, b), "a one-condition experiment is not the flock its condition makes");
    free(a);
    free(b);
}

TEST(the_library_runs_one_named_condition)
{
    mur_error err = {{0}};
    mur_scene *s = parse(two_conditions, &err);
    REQUIRE(s, "%s", err.msg);
    mur_experiment_def def = MUR_EXPERIMENT_DEF_INIT;
    def.runs = 2;
    def.ticks = 10;
    def.threads = 1;
    def.condition = "deaf";
    mur_experiment *one = NULL, *both = NULL;
    REQUIRE(mur_experiment_run(&one, s, &def, &err) == 0, "%s", err.msg);
    def.condition = NULL;
    REQUIRE(mur_experiment_run(&both, s, &def, &err) == 0, "%s", err.msg);
    CHECK(mur_experiment_conditions(one) == 1 && !strcmp(mur_experiment_condition_name(one, 0), "deaf"),
          "the chosen condition is not condition 0");
    for (int r = 0; r < 2; r++)
        CHECK(!memcmp(mur_experiment_metrics(one, 0, r, 10), mur_experiment_metrics(both, 1, r, 10), sizeof(mur_metrics)),
              "run %d of the chosen condition differs", r);
    def.condition = "nope";
    mur_experiment *none = NULL;
    CHECK(mur_experiment_run(&none, s, &def, &err) == MUR_EINPUT && !none && strstr(err.msg, "'all'"),
          "an unknown condition: %s", err.msg);
    mur_experiment_destroy(one);
    mur_experiment_destroy(both);
    mur_scene_destroy(s);
}

/* ---- sweeps -------------------------------------------------------------- */

static const char *value_of(const mur_condition *q, const char *setting, double *v)
{
    for (int i = 0; i < q->nset; i++)
        if (!strcmp(q->set[i].setting->name, setting)) {
            *v = q->set[i].value;
            return setting;
        }
    return NULL;
}

TEST(a_sweep_makes_the_product_of_its_values)
{
    mur_error err = {{0}};
    mur_scene *s = parse("flock: {count: 20}\nexperiment:\n"
                         "  sweep: {noise: {linspace: [0, 0.3, 4]}, alignment: {values: [0.5, 1]}}\n", &err);
    REQUIRE(s, "%s", err.msg);
    REQUIRE(s->nconditions == 8, "%d conditions, want 4 x 2", s->nconditions);
    CHECK(s->nsweep == 2 && !strcmp(s->sweep[0]->name, "noise") && !strcmp(s->sweep[1]->name, "alignment") &&
              s->sweep_dim[0] == 0 && s->sweep_dim[1] == 1,
          "swept settings");
    /* noise varies slowest; each grid point exactly once */
    for (int c = 0; c < 8; c++) {
        double noise = -1, ali = -1;
        CHECK(value_of(&s->conditions[c], "noise", &noise) && value_of(&s->conditions[c], "alignment", &ali),
              "condition %d lacks a swept setting", c);
        CHECK(fabs(noise - 0.1 * (c / 2)) < 1e-12 && ali == (c % 2 ? 1 : 0.5), "condition %d: noise %g alignment %g",
              c, noise, ali);
    }
    double tenth = -1;
    value_of(&s->conditions[2], "noise", &tenth);
    CHECK(tenth == 0.1, "linspace's second value is %.17g, not the 0.1 a scene writes", tenth);
    CHECK(!strcmp(s->conditions[0].name, "noise=0,alignment=0.5") &&
              !strcmp(s->conditions[3].name, "noise=0.1,alignment=1") &&
              !strcmp(s->conditions[7].name, "noise=0.3,alignment=1"),
          "names: %s %s %s", s->conditions[0].name, s->conditions[3].name, s->conditions[7].name);
    mur_scene_destroy(s);

    s = parse("flock: {count: 20}\nexperiment:\n  sweep:\n    noise: {range: [0, 0.3, 0.1]}\n"
              "    coupled: {alignment: [0.5, 1, 2], cohesion: {logspace: [0.01, 1, 3]}}\n", &err);
    REQUIRE(s, "%s", err.msg);
    REQUIRE(s->nconditions == 12, "%d conditions, want 4 x 3 (range includes its stop; coupled is one axis)",
            s->nconditions);
    CHECK(s->nsweep == 3 && s->sweep_dim[1] == 1 && s->sweep_dim[2] == 1 && s->sweep_log[2] && !s->sweep_log[0],
          "coupled settings share a dimension");
    static const double ali[3] = {0.5, 1, 2}, coh[3] = {0.01, 0.1, 1};
    for (int c = 0; c < 12; c++) {
        double a = -1, h = -1, noise = -1;
        value_of(&s->conditions[c], "alignment", &a);
        value_of(&s->conditions[c], "cohesion", &h);
        value_of(&s->conditions[c], "noise", &noise);
        CHECK(a == ali[c % 3] && fabs(h - coh[c % 3]) < 1e-15 && fabs(noise - 0.1 * (c / 3)) < 1e-12,
              "condition %d (%s): alignment %g cohesion %.17g noise %g", c, s->conditions[c].name, a, h, noise);
    }
    mur_scene_destroy(s);
}

TEST(bad_sweeps_are_refused_with_their_line)
{
    static const struct {
        const char *sweep, *says;
    } bad[] = {
        {"{noise: {values: []}}", "zero values"},
        {"{noise: {linspace: [0, 0.3, 0]}}", "zero values"},
        {"{noise: {range: [0.3, 0, 0.1]}}", "zero values"},
        {"{cohesion: {logspace: [0, 1, 3]}}", "above 0"},
        {"{cohesion: {logspace: [1, -1, 3]}}", "above 0"},
        {"{noise: {linspace: [0, 0.3, 40]}, alignment: {linspace: [0, 1, 40]}}", "at most 1024"},
        {"{noise: {linspace: [0, 0.3, 2000]}}", "at most 1024"},
        {"{nois: [0, 1]}", "'nois'"},
        {"{noise: {linspace: [0, 0.3]}}", "three numbers"},
        {"{noise: {values: [0.1, 0.1]}}", "twice"},
        {"{noise: {steps: [0, 1]}}", "unknown key 'steps'"},
        {"{coupled: {alignment: [1, 2], cohesion: [1]}}", "as many values"},
        {"{alignment: {values: [-1]}}", "out of range"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "flock: {count: 20}\nexperiment:\n  sweep: %s\n", bad[i].sweep);
        mur_error err = {{0}};
        mur_scene *s = parse(text, &err);
        CHECK(!s && !strncmp(err.msg, "t.yaml:3:", 9) && strstr(err.msg, bad[i].says),
              "sweep %s: %s", bad[i].sweep, s ? "(loaded)" : err.msg);
        mur_scene_destroy(s);
    }
    mur_error err = {{0}};
    mur_scene *s = parse("experiment:\n  conditions: {a: {}}\n  sweep: {noise: [0, 1]}\n", &err);
    CHECK(!s && strstr(err.msg, "t.yaml:3:3: error:") && strstr(err.msg, "not both"), "sweep and conditions: %s",
          s ? "(loaded)" : err.msg);
    mur_scene_destroy(s);
    /* the exit status through the command */
    const char *path = scratch_path("badsweep.yaml");
    write_file(path, "flock: {count: 20}\nexperiment:\n  sweep: {noise: {logspace: [0, 0.3, 4]}}\n");
    char args[512], msg[2048];
    snprintf(args, sizeof args, "stats %s -q", path);
    CHECK(murmur(args, msg, sizeof msg) == 2 && strstr(msg, "badsweep.yaml:3:"), "exit status: %s", msg);
}

TEST(stats_outputs_have_a_column_per_swept_setting)
{
    const char *path = scratch_path("sweep.yaml");
    write_file(path, "seed: 2\nflock: {count: 20}\nexperiment:\n  runs: 2\n  ticks: 10\n  metrics: [order]\n"
                     "  sweep: {noise: [0, 0.2], alignment_mode: [heading, relative]}\n  baseline: none\n");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "stats %s -q -o %s --runs-out %s", path, scratch_path("sweep.csv"),
             scratch_path("sweep-runs.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    char *csv = test_slurp(scratch_path("sweep.csv"), NULL), *runs = test_slurp(scratch_path("sweep-runs.csv"), NULL);
    REQUIRE(csv && runs, "no CSV");
    CHECK(starts(csv, "condition,noise,alignment_mode,metric,median,p10,p90,mean,runs,ticks\n"
                      "\"noise=0,alignment_mode=heading\",0,heading,order,"),
          "stats CSV: %.140s", csv);
    CHECK(strstr(csv, "\n\"noise=0.2,alignment_mode=relative\",0.2,relative,order,"), "last grid point: %s", csv);
    CHECK(starts(runs, "condition,noise,alignment_mode,run,seed,metric,value\n"
                       "\"noise=0,alignment_mode=heading\",0,heading,0,2,order,"),
          "runs CSV: %.140s", runs);
    free(csv);
    free(runs);
    snprintf(args, sizeof args, "series %s --ticks 3 -q -o %s", path, scratch_path("sweep-series.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    csv = test_slurp(scratch_path("sweep-series.csv"), NULL);
    CHECK(csv && starts(csv, "condition,noise,alignment_mode,tick,order,") &&
              strstr(csv, "\n\"noise=0.2,alignment_mode=relative\",0.2,relative,3,"),
          "series CSV: %.200s", csv ? csv : "");
    free(csv);
}

/* A sweep with an `until`: the time_to_<metric> rows of --runs-out carry the
 * swept value too, so every row has the header's fields. */
TEST(runs_out_rows_of_a_sweep_with_until_have_every_column)
{
    const char *path = scratch_path("sweepuntil.yaml");
    write_file(path, "seed: 2\nflock: {count: 20}\nexperiment:\n  runs: 2\n  ticks: 10\n  metrics: [order]\n"
                     "  until: {order: \"> 0.99\"}\n  sweep: {noise: [0, 0.2]}\n");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "stats %s -q -o %s --runs-out %s", path, scratch_path("su.csv"),
             scratch_path("su-runs.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    char *runs = test_slurp(scratch_path("su-runs.csv"), NULL);
    REQUIRE(runs && starts(runs, "condition,noise,run,seed,metric,value\n"), "runs CSV: %.140s", runs ? runs : "");
    int rows = 0;
    for (const char *line = strchr(runs, '\n') + 1; *line; rows++) {
        const char *eol = strchr(line, '\n');
        REQUIRE(eol, "unterminated row %d", rows);
        int commas = 0;   /* the condition's own comma-free here: noise=0 */
        for (const char *q = line; q < eol; q++)
            commas += *q == ',';
        CHECK(commas == 5, "row %d has %d fields, the header 6: %.*s", rows, commas + 1, (int)(eol - line), line);
        line = eol + 1;
    }
    CHECK(rows == 8, "%d rows (want 2 conditions x 2 runs x (order + time_to_order))", rows);
    CHECK(strstr(runs, "\nnoise=0.2,0.2,1,") && strstr(runs, ",time_to_order,"), "%s", runs);
    free(runs);
}

/* ---- how conditions look: label, colour, columns --------------------------- */

TEST(conditions_take_a_label_and_a_colour_and_panels_take_columns)
{
    mur_error err = {{0}};
    mur_scene *s = parse("flock: {count: 20}\nexperiment:\n  conditions:\n"
                         "    all: {label: \"all rules\", colour: \"#ff00ff\"}\n"
                         "    deaf: {alignment: 0}\n    blind: {cohesion: 0, label: blind}\n"
                         "    none: {separation: 0}\n"
                         "layout: {panels: conditions, columns: 4}\n", &err);
    REQUIRE(s, "%s", err.msg);
    CHECK(s->conditions[0].label && !strcmp(s->conditions[0].label, "all rules") && s->conditions[0].has_colour &&
              s->conditions[0].colour.r == 1 && s->conditions[0].colour.g == 0 && s->conditions[0].colour.b == 1,
          "label and colour of all");
    CHECK(!s->conditions[1].label && !s->conditions[1].has_colour && s->conditions[1].nset == 1,
          "deaf has neither, and its one setting");
    CHECK(s->conditions[2].nset == 1, "a label is not a setting");
    const mur_look *lk = mur_scene_look(s);
    CHECK(lk->columns == 4 && lk->panels == 4 && !strcmp(lk->labels[0], "all rules") && !strcmp(lk->labels[1], "deaf"),
          "look: %d columns, labels %s %s", lk->columns, lk->labels[0], lk->labels[1]);
    mur_scene_destroy(s);
    static const struct {
        const char *text, *says;
    } bad[] = {
        {"experiment: {conditions: {a: {colour: red}}}\n", "t.yaml:1:39: error:"},
        {"experiment: {conditions: {a: {label: [x]}}}\n", "t.yaml:1:38: error:"},
        {"experiment: {conditions: {a: {colour: \"#ff00ff\"}}}\nlayout: {columns: 0}\n", "t.yaml:2:19: error:"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s = parse(bad[i].text, &err);
        CHECK(!s && strstr(err.msg, bad[i].says), "%s: %s", bad[i].text, s ? "(loaded)" : err.msg);
        mur_scene_destroy(s);
    }
}

/* Four panels in four columns: separators at a quarter and three quarters
 * of the width, where a 2 x 2 grid (the default) has none. */
TEST(panels_are_laid_out_in_the_columns_asked_for)
{
    static const char *const scenes[2] = {
        "seed: 1\nflock: {count: 10}\nvideo: {width: 400, height: 200}\n"
        "experiment: {conditions: {a: {}, b: {}, c: {}, d: {}}}\nlayout: {panels: conditions, columns: 4}\n",
        "seed: 1\nflock: {count: 10}\nvideo: {width: 400, height: 200}\n"
        "experiment: {conditions: {a: {}, b: {}, c: {}, d: {}}}\nlayout: {panels: conditions}\n"};
    int lined[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        mur_error err = {{0}};
        mur_scene *s = parse(scenes[k], &err);
        REQUIRE(s, "%s", err.msg);
        mur_session *ss = NULL;
        const uint8_t *px = NULL;
        int stride = 0;
        REQUIRE(mur_session_create(&ss, s, NULL, &err) == 0 && mur_session_frame(ss, 0, &px, &stride, &err) == 0,
                "%s", err.msg);
        /* rows where x = 100 (and x = 300) differs from the background at x = 2 of that row */
        for (int y = 0; y < 200; y++) {
            const uint32_t *row = (const uint32_t *)(const void *)(px + (size_t)y * (size_t)stride);
            lined[k] += row[100] != row[2] && row[300] != row[2];
        }
        mur_session_destroy(ss);
        mur_scene_destroy(s);
    }
    CHECK(lined[0] > 180, "columns: 4 draws no separator at a quarter (%d rows)", lined[0]);
    CHECK(lined[1] < 40, "the 2 x 2 grid has a line at a quarter (%d rows)", lined[1]);
}

/* The stats figure: units on the axes, R_coh with its index set lower
 * (pdftotext reads "R coh", never the underscore), labels for names. */
TEST(the_stats_figure_says_units_subscripts_and_labels)
{
    char path[256];
    snprintf(path, sizeof path, "%s", scratch_path("labels.yaml"));
    write_file(path, "seed: 2\nflock: {count: 20}\nexperiment:\n  runs: 3\n  ticks: 10\n"
                     "  metrics: [nearest, neighbours]\n"
                     "  conditions: {all: {label: \"all rules\"}, deaf: {alignment: 0, colour: \"#ff00ff\"}}\n");
    char args[1024], err[4096], out[8192];
    snprintf(args, sizeof args, "stats %s -q --plot %s", path, scratch_path("labels.pdf"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "pdftotext '%s' - 2>&1", scratch_path("labels.pdf"));
    REQUIRE(run_tool_output(cmd, out, sizeof out) == 0, "pdftotext: %s", out);
    CHECK(strstr(out, "nearest-neighbour distance (world units)"), "no unit on the distance: %s", out);
    CHECK(strstr(out, "within R") && strstr(out, "coh (boids)") && !strstr(out, "R_coh"),
          "R_coh not set with its index: %s", out);
    CHECK(strstr(out, "all rules") && strstr(out, "deaf"), "labels: %s", out);
}
