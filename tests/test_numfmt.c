/* Numbers as text (src/util/numfmt.c): every CSV and JSON number is the
 * shortest text that reads back to the same double, and reading the files
 * back gives exactly the engine's values. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/experiment.h"
#include "murmur/numfmt.h"
#include "scene_util.h"

/* Whether text is v's shortest round-tripping form: it reads back to v and
 * no shorter %.Pg text does. */
static int shortest(const char *text, double v)
{
    if (strtod(text, NULL) != v)
        return 0;
    char buf[400];   /* %g never needs this much, but the compiler cannot tell */
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v && strlen(buf) < strlen(text))
            return 0;
    }
    return 1;
}

TEST(a_double_is_written_as_short_as_reads_back)
{
    static const struct { double v; const char *text; } known[] = {
        {122.9, "122.9"}, {0.1, "0.1"}, {0.5, "0.5"}, {300, "300"}, {0, "0"}, {-0.0, "0"},
        {1e-9, "1e-09"}, {1.0 / 3, "0.3333333333333333"}, {0.1 + 0.2, "0.30000000000000004"},
        {1e22, "1e+22"}, {5e-324, "5e-324"}, {2.2250738585072014e-308, "2.2250738585072014e-308"}, {1000000, "1000000"},
    };
    char buf[MUR_FORMAT_SIZE];
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        int n = mur_format_double(buf, sizeof buf, known[i].v);
        CHECK(!strcmp(buf, known[i].text) && n == (int)strlen(buf), "%.17g: '%s', want '%s'", known[i].v, buf,
              known[i].text);
    }
    /* random bit patterns (every finite double a flock could hold, and more) */
    uint64_t x = 0x9e3779b97f4a7c15ull;
    int bad = 0;
    for (int i = 0; i < 200000 && bad < 5; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v;
        memcpy(&v, &x, sizeof v);
        if (!isfinite(v))
            continue;
        mur_format_double(buf, sizeof buf, v);
        if (!shortest(buf, v) && ++bad)
            CHECK(0, "%.17g written '%s': not the shortest that reads back", v, buf);
    }
    mur_format_double(buf, sizeof buf, NAN);
    CHECK(!strcmp(buf, "nan"), "NaN: '%s'", buf);
    mur_format_double(buf, sizeof buf, -INFINITY);
    CHECK(!strcmp(buf, "-inf"), "-inf: '%s'", buf);
}

/* Every number in text (a CSV or a JSON file: runs of number characters
 * outside quotes, "inf" and "nan" aside) is its double's shortest form.
 * Returns how many numbers it saw, or -1 naming the first that is not. */
static long all_shortest(const char *text, char *why, size_t n)
{
    long count = 0;
    int quoted = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '"' && (p == text || p[-1] != '\\'))
            quoted = !quoted;
        int starts = !quoted && (p == text || strchr(",:[ \n", p[-1])) && strchr("-0123456789", *p);
        if (!starts)
            continue;
        size_t len = strspn(p, "-+.0123456789e");
        if (!strchr(",]} \n", p[len]))   /* a word that starts with a digit (a name), not a number */
            continue;
        char tok[64], *end;
        snprintf(tok, sizeof tok, "%.*s", (int)len, p);
        double v = strtod(tok, &end);
        if (*end || !shortest(tok, v)) {
            snprintf(why, n, "'%s' is not the shortest text of %.17g", tok, v);
            return -1;
        }
        count++;
        p += len - 1;
    }
    return count;
}

static const char scene_yaml[] =
    "seed: 11\nmodel: wrkspc\nworld: {width: 160, height: 120, boundary: wrap}\nflock: {count: 25}\n"
    "video: {duration: 1s}\n"
    "experiment:\n  runs: 3\n  ticks: 30\n  baseline: all\n  measure: {window: 10t, every: 3t}\n"
    "  metrics: [order, nearest, neighbours, milling]\n  conditions: {all: {}, deaf: {alignment: 0}}\n";

TEST(every_csv_and_json_number_is_the_shortest_and_the_engines_double)
{
    char scene[256];   /* scratch_path's buffers rotate */
    snprintf(scene, sizeof scene, "%s", scratch_path("n.yaml"));
    write_file(scene, scene_yaml);
    char err[4096], args[1024], why[256];
    const char *outs[] = {"s.csv", "s.json", "r.csv", "series.csv", "trace.csv"};
    snprintf(args, sizeof args, "stats %s -q -o %s --runs-out %s", scene, scratch_path("s.csv"), scratch_path("r.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    snprintf(args, sizeof args, "stats %s -q -o %s", scene, scratch_path("s.json"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    snprintf(args, sizeof args, "series %s -q --runs 2 -o %s", scene, scratch_path("series.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    snprintf(args, sizeof args, "trace %s -q --ticks 10t -o %s", scene, scratch_path("trace.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        char *text = test_slurp(scratch_path(outs[i]), NULL);
        REQUIRE(text, "%s not written", outs[i]);
        long n = all_shortest(text, why, sizeof why);
        CHECK(n > 20, "%s: %s (%ld numbers)", outs[i], why, n);
        free(text);
    }
    /* --runs-out's values read back to the engine's own, bit for bit */
    mur_scene *s = scene_of(scene_yaml);
    REQUIRE(s, "scene");
    mur_experiment *e = experiment_of(s, 0);
    REQUIRE(e, "experiment");
    FILE *fp = fopen(scratch_path("r.csv"), "r");
    REQUIRE(fp, "r.csv");
    char line[512];
    int rows = 0, same = 0;
    while (fgets(line, sizeof line, fp)) {
        char c[16], metric[32];
        int r;
        unsigned long long seed;
        double v;
        if (sscanf(line, "%15[^,],%d,%llu,%31[^,],%lf", c, &r, &seed, metric, &v) != 5)
            continue;
        rows++;
        int k = mur_metric_find(metric), ci = strcmp(c, "all") ? 1 : 0;
        same += k >= 0 && v == mur_experiment_value(e, ci, r, k);
    }
    fclose(fp);
    CHECK(rows == 2 * 3 * 4 && same == rows, "%d of %d --runs-out values are the engine's", same, rows);
    /* and the table's medians and means (stats -o) too */
    REQUIRE(fp = fopen(scratch_path("s.csv"), "r"), "s.csv");
    rows = same = 0;
    while (fgets(line, sizeof line, fp)) {
        char c[16], metric[32];
        double median, p10, p90, mean;
        if (sscanf(line, "%15[^,],%31[^,],%lf,%lf,%lf,%lf", c, metric, &median, &p10, &p90, &mean) != 6)
            continue;
        mur_summary m;
        mur_experiment_summary(e, strcmp(c, "all") ? 1 : 0, 30, mur_metric_find(metric), &m);
        rows++;
        same += m.median == median && m.p10 == p10 && m.p90 == p90 && m.mean == mean;
    }
    fclose(fp);
    CHECK(rows == 2 * 4 && same == rows, "%d of %d stats rows are the engine's summaries", same, rows);
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
}
