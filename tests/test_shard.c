/* Experiments in shards (shard.h, `--shard K/N`, `murmur merge`, `murmur
 * plan`): the round-robin assignment, shard files that give back every
 * number bit for bit, merges whose outputs are the whole run's bytes
 * (table, JSON, per-run file, figures; series), the refusals (a shard
 * missing, twice, truncated, of another scene, seed, shard count or murmur),
 * resuming, traces (.csv and .h5), and a real GNU parallel running a plan. */
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/experiment.h"
#include "murmur/shard.h"

/* ---- helpers ------------------------------------------------------------- */

/* A small scene of three conditions (one with a comma in its name), an
 * `until` and a measure window: every kind of per-run number a table reads.
 * Written into folder dir as name. */
static const char *scene_in(const char *dir, const char *name, int seed, const char *extra)
{
    static char paths[8][512];
    static int next;
    char *path = paths[next++ % 8];
    char text[2048];
    snprintf(path, 512, "%s/%s", dir, name);
    snprintf(text, sizeof text,
             "title: small\n"
             "seed: %d\n"
             "model: wrkspc\n"
             "world: {width: 240, height: 160, boundary: wrap}\n"
             "flock: {count: 40}\n"
             "video: {duration: 6s, ticks_per_second: 60}\n"
             "timeline:\n"
             "  - at: 0.5s\n    ramp: {noise: 0.05}\n    over: 0.25s\n    ease: linear\n"
             "experiment:\n"
             "  runs: 5\n"
             "  ticks: 60\n"
             "  conditions:\n"
             "    all: {}\n"
             "    \"no, alignment\": {alignment: 0}\n"
             "    none: {separation: 0, alignment: 0, cohesion: 0}\n"
             "  metrics: [order, nearest, clusters, milling]\n"
             "%s",
             seed, extra ? extra : "  until: {order: \"> 0.6\"}\n  measure: {window: 20t, every: 5t}\n");
    write_file(path, text);
    return path;
}

/* A fresh folder under the scratch directory. */
static const char *folder(const char *name)
{
    static char dirs[8][256];
    static int next;
    char *d = dirs[next++ % 8];
    snprintf(d, 256, "%s", scratch_path(name));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/out'", d, d);
    if (system(cmd) != 0)
        abort();
    return d;
}

/* `cd DIR && LINE` in a shell, stderr into err (n bytes; err may be NULL);
 * the exit status. */
static int run_in(const char *dir, const char *line, char *err, size_t n)
{
    const char *errfile = scratch_path("stderr.txt");
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && { %s ; } >%s.out 2>%s", dir, line, errfile, errfile);
    int st = system(cmd);
    if (err && n) {
        size_t len = 0;
        char *text = test_slurp(errfile, &len);
        snprintf(err, n, "%s", text ? text : "");
        free(text);
    }
    return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

/* `cd DIR && murmur ARGS` (ARGS may go on with more shell). */
static int murmur_in(const char *dir, const char *args, char *err, size_t n)
{
    char line[4096];
    snprintf(line, sizeof line, "%s %s", MURMUR_EXE, args);
    return run_in(dir, line, err, n);
}

static int same_file(const char *a, const char *b)
{
    size_t na = 0, nb = 0;
    char *x = test_slurp(a, &na), *y = test_slurp(b, &nb);
    int same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

static int exists(const char *dir, const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return access(p, F_OK) == 0;
}

static int lines_of(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* ---- the assignment and the file ------------------------------------------- */

TEST(shards_split_the_jobs_round_robin_each_job_once)
{
    CHECK(mur_shard_jobs(10, 1, 4) == 3 && mur_shard_jobs(10, 2, 4) == 3 && mur_shard_jobs(10, 3, 4) == 2 &&
              mur_shard_jobs(10, 4, 4) == 2,
          "10 jobs in 4 shards: 3, 3, 2, 2");
    CHECK(mur_shard_jobs(3, 4, 4) == 0 && mur_shard_jobs(3, 3, 4) == 1, "more shards than jobs: the last empty");
    CHECK(mur_shard_jobs(7, 0, 4) == 0 && mur_shard_jobs(7, 5, 4) == 0, "a shard out of range has none");
    for (long jobs = 1; jobs <= 40; jobs++)
        for (int n = 1; n <= 9; n++) {
            long sum = 0;
            for (int k = 1; k <= n; k++)
                sum += mur_shard_jobs(jobs, k, n);
            CHECK(sum == jobs, "%ld jobs in %d shards sum to %ld", jobs, n, sum);
        }
}

/* Every number the outputs read, of every condition and run, equal in
 * bits between a and b. */
static int same_numbers(const mur_experiment *a, const mur_experiment *b)
{
    const mur_scene *s = mur_experiment_scene(a);
    for (int c = 0; c < mur_experiment_conditions(a); c++)
        for (int r = 0; r < mur_experiment_runs(a); r++) {
            for (int k = 0; k < MUR_METRIC_COUNT; k++) {
                double x = mur_experiment_value(a, c, r, k), y = mur_experiment_value(b, c, r, k);
                if (memcmp(&x, &y, sizeof x))
                    return 0;
            }
            for (int i = 0; i < s->nuntil; i++) {
                double x = mur_experiment_until(a, c, r, i), y = mur_experiment_until(b, c, r, i);
                if (memcmp(&x, &y, sizeof x))
                    return 0;
            }
            for (long t = 0; mur_experiment_every_tick(a) && t <= mur_experiment_ticks(a); t++)
                for (int k = 0; k < MUR_METRIC_COUNT; k++) {
                    double x = mur_metrics_value(mur_experiment_metrics(a, c, r, t), k);
                    double y = mur_metrics_value(mur_experiment_metrics(b, c, r, t), k);
                    if (memcmp(&x, &y, sizeof x))
                        return 0;
                }
        }
    return 1;
}

TEST(shard_files_give_back_every_number_bit_for_bit)
{
    const char *dir = folder("roundtrip");
    for (int series = 0; series < 2; series++) {
        mur_scene *s = NULL;
        mur_error err = {{0}};
        REQUIRE(mur_scene_load(&s, scene_in(dir, "s.yaml", 5, NULL), &err) == 0, "%s", err.msg);
        mur_experiment_def def = MUR_EXPERIMENT_DEF_INIT;
        def.every_tick = series;
        def.threads = 2;
        mur_experiment *whole = NULL, *merged = NULL;
        REQUIRE(mur_experiment_run(&whole, s, &def, &err) == 0, "%s", err.msg);
        char paths[3][512];
        const char *p[3];
        for (int k = 1; k <= 3; k++) {
            mur_experiment *e = NULL;
            def.shard = k;
            def.shards = 3;
            snprintf(paths[k - 1], sizeof paths[0], "%s/out/s.shard-%d-of-3.mur", dir, k);
            p[3 - k] = paths[k - 1];   /* merged in any order */
            REQUIRE(mur_experiment_run(&e, s, &def, &err) == 0, "%s", err.msg);
            CHECK(mur_experiment_shard_write(e, &def, series ? "series" : "stats", paths[k - 1], &err) == 0, "%s",
                  err.msg);
            CHECK(mur_shard_done(paths[k - 1], s, &def, series ? "series" : "stats"), "shard %d complete", k);
            mur_experiment_destroy(e);
        }
        mur_shard_info in;
        REQUIRE(mur_shard_read_info(p[0], &in, &err) == 0, "%s", err.msg);
        CHECK(in.shard == 3 && in.shards == 3 && in.runs == 5 && in.ticks == 60 && in.seed == 5 &&
                  in.jobs == mur_shard_jobs(15, 3, 3) && in.every_tick == series && !strcmp(in.command, series ? "series" : "stats"),
              "the header says what was run");
        mur_shard_info_free(&in);
        CHECK(mur_experiment_merge(&merged, s, p, 3, &err) == 0, "%s", err.msg);
        CHECK(merged && same_numbers(whole, merged), "the merge's numbers are the whole run's bits");
        mur_experiment_destroy(merged);
        mur_experiment_destroy(whole);
        mur_scene_destroy(s);
    }
}

/* ---- merges are the whole run, byte for byte -------------------------------- */

TEST(merge_of_stats_shards_writes_the_whole_runs_bytes)
{
    const char *dir = folder("stats");
    scene_in(dir, "s.yaml", 3, NULL);
    scene_in(dir, "e.yaml", 3, "  baseline: all\n");   /* paired effects: a seeded bootstrap */
    char err[4096];
    for (int sc = 0; sc < 2; sc++) {
        const char *name = sc ? "e" : "s";
        char args[1024];
        /* figures of the scene with a baseline (a scene with `until` has none) */
        const char *figs = sc ? " --plot out/w.png --plot-effects out/we.pdf" : "";
        const char *svg = sc ? " --plot out/w.svg" : "";
        snprintf(args, sizeof args, "stats %s.yaml -o out/w.csv --runs-out out/wr.csv%s > out/w.txt", name, figs);
        REQUIRE(murmur_in(dir, args, err, sizeof err) == 0, "%s", err);
        snprintf(args, sizeof args, "stats %s.yaml -o out/w.json%s > /dev/null", name, svg);
        REQUIRE(murmur_in(dir, args, err, sizeof err) == 0, "%s", err);
        for (int k = 1; k <= 4; k++) {
            snprintf(args, sizeof args, "stats %s.yaml --shard %d/4 -o out/ --threads 1", name, k);
            CHECK(murmur_in(dir, args, err, sizeof err) == 0, "%s", err);
        }
        snprintf(args, sizeof args, "merge out/%s.shard-*-of-4.mur -o out/m.csv --runs-out out/mr.csv%s > out/m.txt",
                 name, sc ? " --plot out/m.png --plot-effects out/me.pdf" : "");
        CHECK(murmur_in(dir, args, err, sizeof err) == 0, "%s", err);
        snprintf(args, sizeof args, "merge out/%s.shard-*-of-4.mur -o out/m.json%s > /dev/null", name,
                 sc ? " --plot out/m.svg" : "");
        CHECK(murmur_in(dir, args, err, sizeof err) == 0, "%s", err);
        static const char *const outs[] = {".csv", "r.csv", ".png", "e.pdf", ".txt", ".json", ".svg",
                                           ".csv.provenance.txt", "r.csv.provenance.txt"};
        for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
            char a[512], b[512];
            if (!sc && (strstr(outs[i], "png") || strstr(outs[i], "pdf") || strstr(outs[i], "svg")))
                continue;
            snprintf(a, sizeof a, "%s/out/w%s", dir, outs[i]);
            snprintf(b, sizeof b, "%s/out/m%s", dir, outs[i]);
            CHECK(same_file(a, b), "%s: merged %s differs from the whole run's", name, outs[i]);
        }
    }
}

TEST(merge_of_series_shards_writes_the_whole_runs_bytes)
{
    const char *dir = folder("series");
    scene_in(dir, "s.yaml", 9, "");
    char err[4096];
    REQUIRE(murmur_in(dir, "series s.yaml --runs 4 -o out/w.csv --plot out/w.svg", err, sizeof err) == 0, "%s", err);
    REQUIRE(murmur_in(dir, "series s.yaml --runs 4 --condition none -o out/wn.csv", err, sizeof err) == 0, "%s", err);
    for (int k = 1; k <= 3; k++) {
        char args[256];
        snprintf(args, sizeof args, "series s.yaml --runs 4 --shard %d/3 -o out/", k);
        CHECK(murmur_in(dir, args, err, sizeof err) == 0, "%s", err);
        snprintf(args, sizeof args, "series s.yaml --runs 4 --condition none --shard %d/3 -o out/n/x.csv", k);
        CHECK(run_in(dir, "mkdir -p out/n", NULL, 0) == 0 && murmur_in(dir, args, err, sizeof err) == 0, "%s",
              err);
    }
    CHECK(murmur_in(dir, "merge out/s.shard-*-of-3.mur -o out/m.csv --plot out/m.svg", err, sizeof err) == 0, "%s", err);
    CHECK(murmur_in(dir, "merge out/n/x.shard-*-of-3.mur -o out/mn.csv", err, sizeof err) == 0, "%s", err);
    char a[512], b[512];
    static const char *const pairs[][2] = {{"w.csv", "m.csv"}, {"w.svg", "m.svg"}, {"wn.csv", "mn.csv"},
                                           {"w.csv.provenance.txt", "m.csv.provenance.txt"}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        snprintf(a, sizeof a, "%s/out/%s", dir, pairs[i][0]);
        snprintf(b, sizeof b, "%s/out/%s", dir, pairs[i][1]);
        CHECK(same_file(a, b), "merged %s differs from the whole run's %s", pairs[i][1], pairs[i][0]);
    }
}

/* ---- bad input ------------------------------------------------------------- */

TEST(shard_option_takes_only_k_of_n_counted_from_one)
{
    const char *dir = folder("badshard");
    scene_in(dir, "s.yaml", 1, NULL);
    static const char *const bad[] = {"5/4", "0/0", "0/4", "1/0", "-1/4", "a/4", "1/4x", "2", "/4", "1/100001"};
    char err[4096], args[256];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "stats s.yaml --shard '%s' -o out/", bad[i]);
        CHECK(murmur_in(dir, args, err, sizeof err) == 2, "--shard %s: exit 2", bad[i]);
        CHECK(strstr(err, "--shard must be K/N") && lines_of(err) == 2, "--shard %s: one line (and the hint): %s",
              bad[i], err);
    }
    CHECK(murmur_in(dir, "stats s.yaml --shard 1/2 --plot out/x.png", err, sizeof err) == 2 &&
              strstr(err, "--plot is for the merge"),
          "a shard's --plot belongs to the merge: %s", err);
    CHECK(run_in(dir, "ls out | grep -q .", NULL, 0) != 0, "nothing written");
}

/* Runs the merge of args, which must fail with exit 2 and one line holding
 * want, and write nothing. */
static void refused(const char *dir, const char *args, const char *want)
{
    char err[4096], line[1024];
    snprintf(line, sizeof line, "merge %s -o out/m.csv --runs-out out/mr.csv", args);
    int st = murmur_in(dir, line, err, sizeof err);
    CHECK(st == 2, "merge %s: exit %d, not 2 (%s)", args, st, err);
    CHECK(strstr(err, want) && lines_of(err) == 1, "merge %s: one line with '%s', not: %s", args, want, err);
    CHECK(!exists(dir, "out/m.csv") && !exists(dir, "out/mr.csv"), "merge %s: nothing written", args);
}

TEST(merge_refuses_a_missing_twice_truncated_or_foreign_shard)
{
    const char *dir = folder("refuse");
    scene_in(dir, "s.yaml", 1, NULL);
    scene_in(dir, "t.yaml", 2, NULL);
    char err[4096], args[1024];
    REQUIRE(run_in(dir, "mkdir -p out/four", NULL, 0) == 0, "mkdir");
    for (int k = 1; k <= 3; k++) {
        snprintf(args, sizeof args, "stats s.yaml --shard %d/3 -o out/ && %s stats t.yaml --shard %d/3 -o out/ && "
                                    "%s stats s.yaml --shard %d/4 -o out/four/",
                 k, MURMUR_EXE, k, MURMUR_EXE, k);
        REQUIRE(murmur_in(dir, args, err, sizeof err) == 0, "%s", err);
    }
    REQUIRE(murmur_in(dir, "stats s.yaml --shard 4/4 -o out/four/", err, sizeof err) == 0, "%s", err);
    refused(dir, "out/s.shard-1-of-3.mur out/s.shard-3-of-3.mur", "shard 2 of 3 is missing (out/s.shard-2-of-3.mur)");
    refused(dir, "out/s.shard-*-of-3.mur out/s.shard-2-of-3.mur", "out/s.shard-2-of-3.mur: shard 2 of 3 again");
    refused(dir, "out/s.shard-1-of-3.mur out/s.shard-2-of-3.mur out/t.shard-3-of-3.mur",
            "out/t.shard-3-of-3.mur: another scene than");
    refused(dir, "out/s.shard-1-of-3.mur out/s.shard-2-of-3.mur out/four/s.shard-3-of-4.mur",
            "out/four/s.shard-3-of-4.mur: another shard count than");
    refused(dir, "out/s.shard-*-of-3.mur s.yaml", "s.yaml: not a murmur shard file");
    refused(dir, "out/s.shard-*-of-3.mur out/none.mur", "cannot read shard 'out/none.mur'");
    /* truncated: a byte short, as a copy cut off would be */
    REQUIRE(run_in(dir, "cp out/s.shard-2-of-3.mur out/cut.mur && truncate -s -1 out/cut.mur", err, sizeof err) == 0, "cp");
    refused(dir, "out/s.shard-1-of-3.mur out/cut.mur out/s.shard-3-of-3.mur", "out/cut.mur: truncated or damaged shard");
    /* a bit flipped inside the numbers: the hash tells */
    REQUIRE(run_in(dir, "cp out/s.shard-2-of-3.mur out/flip.mur && printf 'Z' | dd of=out/flip.mur bs=1 seek=$(( $(stat -c %s out/flip.mur) - 40 )) conv=notrunc 2>/dev/null", err, sizeof err) == 0, "flip");
    refused(dir, "out/s.shard-1-of-3.mur out/flip.mur out/s.shard-3-of-3.mur", "out/flip.mur: damaged shard");
    /* a header claiming more records than its bytes hold: refused before anything is allocated */
    REQUIRE(run_in(dir, "sed 's/^jobs: .*/jobs: 400000000/' out/s.shard-2-of-3.mur > out/many.mur", err, sizeof err) == 0, "sed");
    refused(dir, "out/s.shard-1-of-3.mur out/many.mur out/s.shard-3-of-3.mur", "records cannot fit in");
    /* another murmur: the version in its header */
    REQUIRE(run_in(dir, "sed '3s/^murmur: .*/murmur: 0.0.1/' out/s.shard-2-of-3.mur > out/old.mur", err, sizeof err) == 0, "sed");
    refused(dir, "out/s.shard-1-of-3.mur out/old.mur out/s.shard-3-of-3.mur", "out/old.mur: a shard of murmur 0.0.1");
    /* another seed, same scene path: the scene's text and seed changed since */
    REQUIRE(run_in(dir, "sed -i 's/^seed: 1$/seed: 8/' s.yaml", err, sizeof err) == 0, "sed");
    refused(dir, "out/s.shard-*-of-3.mur", "a shard of s.yaml (seed 1), not of s.yaml");
    REQUIRE(run_in(dir, "sed -i 's/^seed: 8$/seed: 1/; s/title: small/title: smaller/' s.yaml", err, sizeof err) == 0, "sed");
    refused(dir, "out/s.shard-*-of-3.mur", "the scene has changed since");
    /* usage */
    CHECK(murmur_in(dir, "merge -o out/m.csv", err, sizeof err) == 2 && strstr(err, "merge needs the shard files"), "%s", err);
    REQUIRE(run_in(dir, "sed -i 's/title: smaller/title: small/' s.yaml", err, sizeof err) == 0, "sed");
    CHECK(murmur_in(dir, "merge out/s.shard-*-of-3.mur -o out/m.txt", err, sizeof err) == 2 &&
              strstr(err, "must end in .csv or .json"),
          "%s", err);
    CHECK(murmur_in(dir, "merge out/s.shard-*-of-3.mur -o out/m.csv", err, sizeof err) == 0, "the same shards, whole again: %s", err);
}

/* ---- resuming ---------------------------------------------------------------- */

TEST(a_complete_shard_is_not_run_again_and_a_partial_one_is)
{
    const char *dir = folder("resume");
    scene_in(dir, "s.yaml", 4, NULL);
    char err[4096], path[512];
    snprintf(path, sizeof path, "%s/out/s.shard-2-of-2.mur", dir);
    REQUIRE(murmur_in(dir, "stats s.yaml --shard 2/2", err, sizeof err) == 0, "%s", err);
    struct stat a, b;
    REQUIRE(stat(path, &a) == 0, "the shard is at %s", path);
    CHECK(murmur_in(dir, "stats s.yaml --shard 2/2", err, sizeof err) == 0 && strstr(err, "is complete") &&
              strstr(err, "nothing to do"),
          "run again: %s", err);
    CHECK(stat(path, &b) == 0 && a.st_ino == b.st_ino && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec &&
              a.st_mtime == b.st_mtime,
          "the complete shard was left as it was");
    /* cut short: run again, whole */
    REQUIRE(run_in(dir, "cp out/s.shard-2-of-2.mur out/keep.mur && truncate -s 100 out/s.shard-2-of-2.mur", err, sizeof err) == 0, "cut");
    CHECK(murmur_in(dir, "stats s.yaml --shard 2/2", err, sizeof err) == 0 && strstr(err, "wrote"), "%s", err);
    char keep[512];
    snprintf(keep, sizeof keep, "%s/out/keep.mur", dir);
    CHECK(same_file(path, keep), "the shard run again is the same file");
    /* other --runs: another run, so not skipped */
    CHECK(murmur_in(dir, "stats s.yaml --shard 2/2 --runs 3", err, sizeof err) == 0 && strstr(err, "wrote"), "%s", err);
}

/* ---- plans and a real engine -------------------------------------------------- */

TEST(plan_writes_a_slurm_array_with_its_merge_and_a_parallel_line)
{
    const char *dir = folder("plan");
    scene_in(dir, "s.yaml", 1, NULL);
    char err[4096], *out;
    char outpath[512];
    snprintf(outpath, sizeof outpath, "%s/plan.txt", dir);
    REQUIRE(murmur_in(dir, "plan s.yaml --shards 4 --slurm > plan.txt", err, sizeof err) == 0, "%s", err);
    out = test_slurp(outpath, NULL);
    REQUIRE(out, "plan.txt");
    CHECK(strstr(out, "#!/bin/bash\n") == out, "a script");
    CHECK(strstr(out, "\nsubmit 1 4\n"), "a job array of 4: %s", out);
    CHECK(strstr(out, "--dependency=afterok$jobs --kill-on-invalid-dep=yes"), "the merge after the array");
    CHECK(strstr(out, "--shard $K/4 -o out/s.csv"), "each task its shard");
    CHECK(strstr(out, "merge out/s.shard-*-of-4.mur -o out/s.csv >/dev/null"), "the merge of the four, in one line");
    CHECK(strstr(out, "# 15 runs (3 conditions x 5 runs of 60 ticks)") && strstr(out, "CPU time: about"),
          "the runs and the CPU time");
    free(out);
    REQUIRE(murmur_in(dir, "plan s.yaml --shards 3 --parallel --runs 7 -o out/x.json > plan.txt", err, sizeof err) == 0, "%s", err);
    out = test_slurp(outpath, NULL);
    REQUIRE(out, "plan.txt");
    CHECK(strstr(out, "parallel --joblog out/x.shards.joblog ") && strstr(out, "::: $(seq 1 3)\n") &&
              !strstr(out, "--resume-failed"),
          "a GNU parallel line: %s", out);
    CHECK(strstr(out, "--shard {}/3 -o out/x.json --runs 7 --threads 1"), "shards of 7 runs: %s", out);
    CHECK(strstr(out, "merge out/x.shard-*-of-3.mur -o out/x.json >/dev/null\n"), "then the merge, in one line");
    free(out);
    REQUIRE(murmur_in(dir, "plan s.yaml --chunks 3 --slurm > plan.txt", err, sizeof err) == 0, "%s", err);
    out = test_slurp(outpath, NULL);
    REQUIRE(out, "plan.txt");
    CHECK(strstr(out, "render s.yaml --chunk $K/3 -o out/s.chunk-$K-of-3.mp4") &&
              strstr(out, "join out/s.chunk-*-of-3.mp4 -o out/s.mp4"),
          "a render in chunks, then the join: %s", out);
    CHECK(strstr(out, "CPU time: about") && strstr(out, "per chunk") && strstr(out, "the first 15 frames took"),
          "a render's plan prices it from a calibration render: %s", out);
    free(out);
    static const char *const bad[] = {"--shards 4", "--slurm", "--shards 0 --slurm", "--shards 2 --chunks 2 --slurm",
                                      "--shards 2 --slurm --parallel", "--shards 2 --slurm -o out/x.txt",
                                      "--chunks 5000 --parallel",   /* more chunks than 2 s segments */
                                      "--shards 2 --parallel --time 10", "--shards 2 --slurm --time 1h",
                                      "--shards 2 --slurm --mem 2X", "--shards 2 --slurm --partition 'a b'",
                                      "--shards 2 --slurm --sbatch '--qos=x; rm -rf x'", "--shards 2 --slurm --murmur ''"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[256];
        snprintf(args, sizeof args, "plan s.yaml %s", bad[i]);
        CHECK(murmur_in(dir, args, err, sizeof err) == 2, "plan %s: exit 2 (%s)", bad[i], err);
    }
}

TEST(gnu_parallel_runs_a_plan_whose_merge_is_the_whole_run)
{
    if (system("command -v parallel >/dev/null") != 0)
        SKIP("GNU parallel is not installed (Debian: apt-get install parallel)");
    const char *dir = folder("parallel");
    scene_in(dir, "s.yaml", 6, NULL);
    char err[4096];
    REQUIRE(murmur_in(dir, "stats s.yaml -o out/whole.csv > /dev/null", err, sizeof err) == 0, "%s", err);
    REQUIRE(murmur_in(dir, "plan s.yaml --shards 4 --parallel -o out/s.csv > plan.sh", err, sizeof err) == 0, "%s", err);
    /* --will-cite: parallel's notice is for people, not tests */
    CHECK(run_in(dir, "PARALLEL=--will-cite bash plan.sh > /dev/null", err, sizeof err) == 0,
          "the plan ran: %s", err);
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/out/whole.csv", dir);
    snprintf(b, sizeof b, "%s/out/s.csv", dir);
    CHECK(same_file(a, b), "parallel's shards merged are the whole run's bytes");
    CHECK(exists(dir, "out/s.shards.joblog") && exists(dir, "out/s.shard-4-of-4.mur"), "the joblog and the shards");
    /* again: complete shards are kept, the same file */
    CHECK(run_in(dir, "PARALLEL=--will-cite bash plan.sh > /dev/null", err, sizeof err) == 0,
          "the plan again: %s", err);
    CHECK(same_file(a, b), "still the whole run's bytes");
    /* a shard deleted and one cut short after the plan succeeded (its
     * joblog says they ran): both run again, and the merge is whole */
    struct stat kept, again;
    REQUIRE(stat(scratch_path("parallel/out/s.shard-1-of-4.mur"), &kept) == 0, "shard 1");
    REQUIRE(run_in(dir, "rm out/s.shard-2-of-4.mur out/s.csv && truncate -s 100 out/s.shard-3-of-4.mur", NULL, 0) == 0,
            "rm");
    CHECK(run_in(dir, "PARALLEL=--will-cite bash plan.sh > /dev/null", err, sizeof err) == 0,
          "the plan after a shard was lost: %s", err);
    CHECK(same_file(a, b), "the lost shards ran again: the whole run's bytes");
    CHECK(stat(scratch_path("parallel/out/s.shard-1-of-4.mur"), &again) == 0 && again.st_ino == kept.st_ino,
          "a complete shard is kept, not written again");
}

/* Chunks under GNU parallel as shards: run again, a plan keeps a complete
 * chunk (the same file, not written again) and renders again one deleted
 * or cut short, and the join is the whole render's bytes. */
TEST(gnu_parallel_renders_a_deleted_or_truncated_chunk_again_and_keeps_the_rest)
{
    REQUIRE(system("command -v parallel >/dev/null") == 0,
            "GNU parallel is not installed (Debian: apt-get install parallel)");
    const char *dir = folder("chunks");
    write_file(scratch_path("chunks/r.yaml"), "seed: 5\nmodel: wrkspc\nworld: {width: 240, height: 160}\n"
                                              "flock: {count: 30}\nvideo: {width: 160, height: 108, fps: 10, "
                                              "duration: 6s, output: out/r.mp4}\n");
    char err[4096];
    REQUIRE(murmur_in(dir, "render r.yaml -o whole.mp4 -q", err, sizeof err) == 0, "%s", err);
    REQUIRE(murmur_in(dir, "plan r.yaml --chunks 3 --parallel -o video/r.mp4 > plan.sh", err, sizeof err) == 0, "%s", err);
    CHECK(run_in(dir, "PARALLEL=--will-cite bash plan.sh", err, sizeof err) == 0, "the plan ran: %s", err);
    const char *whole = scratch_path("chunks/whole.mp4"), *joined = scratch_path("chunks/video/r.mp4");
    CHECK(same_file(whole, joined), "the join is the whole render's bytes");
    CHECK(strstr(err, "murmur: wrote video/r.mp4 (3 chunks, 60 frames)\n") && lines_of(err) == 1,
          "the join says one line: %s", err);
    struct stat kept, again;
    REQUIRE(stat(scratch_path("chunks/video/r.chunk-1-of-3.mp4"), &kept) == 0, "chunk 1");
    REQUIRE(run_in(dir, "rm video/r.chunk-2-of-3.mp4 video/r.mp4 && truncate -s 2000 video/r.chunk-3-of-3.mp4", NULL, 0) == 0,
            "rm");
    CHECK(run_in(dir, "PARALLEL=--will-cite bash plan.sh", err, sizeof err) == 0, "the plan again: %s", err);
    CHECK(same_file(whole, joined), "the chunks rendered again: the whole render's bytes");
    CHECK(stat(scratch_path("chunks/video/r.chunk-1-of-3.mp4"), &again) == 0 && again.st_ino == kept.st_ino,
          "a complete chunk is kept, not rendered again");
}

/* Slurm's default MaxArraySize is 1001: a plan of more shards submits
 * several arrays, none over it, that together hold every shard once. */
TEST(plan_of_2000_shards_has_no_job_array_over_slurms_limit)
{
    const char *dir = folder("arrays");
    scene_in(dir, "s.yaml", 1, NULL);
    char err[4096];
    REQUIRE(murmur_in(dir, "plan s.yaml --shards 2000 --slurm --runs 700 > plan.sh", err, sizeof err) == 0, "%s", err);
    char *out = test_slurp(scratch_path("arrays/plan.sh"), NULL);
    REQUIRE(out, "plan.sh");
    long next = 1, arrays = 0;
    int ok = 1;
    for (const char *l = strstr(out, "\nsubmit "); l; l = strstr(l + 1, "\nsubmit ")) {
        long first, count;
        if (sscanf(l, "\nsubmit %ld %ld", &first, &count) != 2)
            continue;   /* the function's own line */
        ok &= first == next && count >= 1 && count <= 1000;
        next = first + count;
        arrays++;
    }
    CHECK(ok && next == 2001 && arrays == 2, "2 arrays of at most 1000 holding shards 1 to 2000 (%ld, up to %ld)",
          arrays, next - 1);
    CHECK(strstr(out, "in 2 job arrays of at most 1000 (the default MaxArraySize is 1001)"), "said: %s", out);
    CHECK(strstr(out, "K=$((MURMUR_PLAN_FIRST + SLURM_ARRAY_TASK_ID - 1))"), "a task's shard: its array's first + index");
    free(out);
}

/* The cluster's options reach every task and the merge; the merge is
 * submitted by the script where it is run (a cluster may forbid sbatch on
 * its nodes), after the arrays, never by a task. */
TEST(a_slurm_plan_carries_the_clusters_options_and_submits_its_merge_itself)
{
    const char *dir = folder("options");
    scene_in(dir, "s.yaml", 1, NULL);
    char err[4096];
    REQUIRE(murmur_in(dir, "plan s.yaml --shards 3 --slurm --time 1:30:00 --mem 2G --partition short --account lab1 "
                           "--sbatch '--qos=low --nice=5' --murmur /opt/murmur/bin/murmur -o res/x.csv > plan.sh",
                      err, sizeof err) == 0, "%s", err);
    char *out = test_slurp(scratch_path("options/plan.sh"), NULL);
    REQUIRE(out, "plan.sh");
    CHECK(strstr(out, "\nopts=(--time=1:30:00 --mem=2G --partition=short --account=lab1 --qos=low --nice=5)\n"),
          "the options: %s", out);
    const char *task = strstr(out, "if [ -n \"${SLURM_ARRAY_TASK_ID:-}\" ]"), *fi = task ? strstr(task, "\nfi\n") : NULL;
    const char *array = strstr(out, "id=$(sbatch --parsable \"${opts[@]}\" --array=1-\"$2\""),
               *merge = strstr(out, "id=$(sbatch --parsable \"${opts[@]}\" --job-name=murmur-x-merge "
                                    "--dependency=afterok$jobs");
    REQUIRE(task && fi, "a task's part: %s", out);
    CHECK(array && merge && array > fi && merge > strstr(out, "\nsubmit 1 3\n"),
          "the array and then the merge (afterok on it) submitted by the script, outside a task");
    char between[4096];
    snprintf(between, sizeof between, "%.*s", (int)(fi - task), task);
    CHECK(!strstr(between, "sbatch --"), "no task submits anything: %s", between);
    CHECK(strstr(out, "\nmkdir -p res/\n") && strstr(out, "--output=res/x.shards-%A_%a.log"),
          "the outputs' folder made, a log per task in it");
    CHECK(strstr(out, "    /opt/murmur/bin/murmur stats s.yaml --shard $K/3 -o res/x.csv") &&
              strstr(out, "--wrap='/opt/murmur/bin/murmur merge res/x.shard-*-of-3.mur") &&
              strstr(out, "# Every task runs /opt/murmur/bin/murmur"),
          "--murmur runs the tasks and the merge, said in the header");
    free(out);
    /* no --time: estimated from the calibration, said */
    REQUIRE(murmur_in(dir, "plan s.yaml --shards 3 --slurm > plan.sh", err, sizeof err) == 0, "%s", err);
    out = test_slurp(scratch_path("options/plan.sh"), NULL);
    REQUIRE(out, "plan.sh");
    CHECK(strstr(out, "\nopts=(--time=0:") && strstr(out, "estimated: twice a shard's CPU time and 10 minutes") &&
              strstr(out, "# Every task runs /") && strstr(out, "(--murmur PATH names another)"),
          "the time estimated, the absolute murmur said: %s", out);
    free(out);
}

/* A scene measured over a window longer than the usual calibration run is
 * priced all the same, by runs as long as the window. */
TEST(plan_of_a_windowed_scene_estimates_its_time)
{
    const char *dir = folder("window");
    write_file(scratch_path("window/s.yaml"), "seed: 3\nmodel: wrkspc\nworld: {width: 240, height: 160}\n"
                                               "flock: {count: 40}\nexperiment:\n  runs: 3\n  ticks: 300\n"
                                               "  conditions: {all: {}, free: {alignment: 0}}\n"
                                               "  measure: {window: 200t, every: 10t}\n");
    char err[4096];
    REQUIRE(murmur_in(dir, "plan s.yaml --shards 2 --parallel > plan.sh", err, sizeof err) == 0, "%s", err);
    char *out = test_slurp(scratch_path("window/plan.sh"), NULL);
    REQUIRE(out, "plan.sh");
    CHECK(strstr(out, "CPU time: about") && strstr(out, "(and the warm-up, at least the measurement window) took"),
          "priced by runs as long as the window: %s", out);
    free(out);
}

/* ---- traces ------------------------------------------------------------------ */

TEST(merge_of_trace_shards_writes_the_whole_traces_bytes)
{
    const char *dir = folder("trace");
    scene_in(dir, "s.yaml", 2, "");
    char err[4096], args[512];
    for (int h5 = 0; h5 < 2; h5++) {
        const char *ext = h5 ? "h5" : "csv";
        snprintf(args, sizeof args, "trace s.yaml --runs 5 --ticks 20 --every 2t --condition none -o out/w.%s -q", ext);
        REQUIRE(murmur_in(dir, args, err, sizeof err) == 0, "%s", err);
        for (int k = 1; k <= 3; k++) {
            snprintf(args, sizeof args, "trace s.yaml --runs 5 --ticks 20 --every 2t --condition none --shard %d/3 -o out/%s/x.%s",
                     k, ext, ext);
            REQUIRE(run_in(dir, h5 ? "mkdir -p out/h5" : "mkdir -p out/csv", NULL, 0) == 0, "mkdir");
            CHECK(murmur_in(dir, args, err, sizeof err) == 0, "%s", err);
        }
        snprintf(args, sizeof args, "merge out/%s/x.shard-*-of-3.mur -o out/m.%s", ext, ext);
        CHECK(murmur_in(dir, args, err, sizeof err) == 0, "%s", err);
        static const char *const csv_files[][2] = {{"w.csv", "m.csv"}, {"w.csv.provenance.txt", "m.csv.provenance.txt"}};
        static const char *const h5_files[][2] = {{"w-run0.h5", "m-run0.h5"}, {"w-run2.h5", "m-run2.h5"},
                                                  {"w-run4.h5", "m-run4.h5"}};
        for (int i = 0; i < (h5 ? 3 : 2); i++) {
            char a[512], b[512];
            snprintf(a, sizeof a, "%s/out/%s", dir, h5 ? h5_files[i][0] : csv_files[i][0]);
            snprintf(b, sizeof b, "%s/out/%s", dir, h5 ? h5_files[i][1] : csv_files[i][1]);
            CHECK(same_file(a, b), "merged %s differs from the whole trace's", b);
        }
        /* the other format: refused, nothing written */
        snprintf(args, sizeof args, "merge out/%s/x.shard-*-of-3.mur -o out/other.%s", ext, h5 ? "csv" : "h5");
        CHECK(murmur_in(dir, args, err, sizeof err) == 2 && strstr(err, "-o must be a") && lines_of(err) == 1,
              "a .%s trace's shards merged to the other format: %s", ext, err);
        CHECK(!exists(dir, "out/other.csv") && !exists(dir, "out/other.h5") && !exists(dir, "out/other-run0.h5"),
              "nothing written");
    }
    CHECK(run_in(dir, "ls -a out/csv out/h5 | grep -q murmur-trace-shard", NULL, 0) != 0,
          "a trace shard's temporary folder was left");
    CHECK(murmur_in(dir, "merge out/csv/x.shard-*-of-3.mur -o out/m2.csv --plot out/x.png", err, sizeof err) == 2,
          "--plot with trace shards: %s", err);
}
