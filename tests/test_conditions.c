/* Experiments over conditions: `series` runs every condition (or the one
 * --condition names), a sweep expands into the product of its values with
 * one column per swept setting, and its bad input is refused with the line. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/experiment.h"

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
