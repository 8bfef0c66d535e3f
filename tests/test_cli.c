/* End to end: the murmur binary renders scenes to files that libav (not our
 * writer) reads back, identically every time, and rejects bad scenes with
 * file:line:col and exit status 2. */
#include <libavutil/pixfmt.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bad_scene.h"
#include "cli_util.h"
#include "decode.h"
#include "harness.h"
#include "murmur/limits.h"
#include "murmur/look.h"

static const char *small_scene(const char *name, const char *extra)
{
    static char text[2048];
    const char *path = scratch_path(name);
    snprintf(text, sizeof text,
             "seed: 3\n"
             "model: wrkspc\n"
             "video: {width: 320, height: 214, fps: 24, duration: 2s, quality: 20}\n"
             "look:\n"
             "  background: \"#204060\"\n"
             "  boid: {shape: arrow, size: 6, color: heading}\n"
             "%s",
             extra ? extra : "");
    write_file(path, text);
    return path;
}

TEST(render_writes_h264_bt709_with_every_frame)
{
    const char *scene = small_scene("e2e.yaml", NULL);
    char args[512], err[4096];
    const char *out = scratch_path("e2e.mp4");
    snprintf(args, sizeof args, "render %s -o %s -q", scene, out);
    int st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "render exited %d: %s", st, err);
    test_video_info info;
    REQUIRE(test_video_probe(out, &info) == 0, "cannot probe %s", out);
    CHECK(strcmp(info.codec, "h264") == 0, "codec %s", info.codec);
    CHECK(strcmp(info.pix_fmt, "yuv420p") == 0, "pix_fmt %s", info.pix_fmt);
    CHECK(info.primaries == AVCOL_PRI_BT709, "primaries %d", info.primaries);
    CHECK(info.trc == AVCOL_TRC_BT709, "transfer %d", info.trc);
    CHECK(info.colorspace == AVCOL_SPC_BT709, "matrix %d", info.colorspace);
    CHECK(info.range == AVCOL_RANGE_MPEG, "range %d (want limited)", info.range);
    CHECK(info.frames == 48, "%d frames, want 24 fps x 2 s = 48", info.frames);
    CHECK(info.width == 320 && info.height == 214, "size %dx%d", info.width, info.height);
    /* A corner pixel is background: #204060 within +-3 per channel. */
    uint8_t *rgb;
    int w, h;
    REQUIRE(test_video_frame_rgb(out, 10, &rgb, &w, &h) == 0, "cannot decode frame 10");
    const uint8_t *px = rgb + 3 * ((size_t)2 * w + 2);
    CHECK(abs(px[0] - 0x20) <= 3 && abs(px[1] - 0x40) <= 3 && abs(px[2] - 0x60) <= 3,
          "background decoded as %d,%d,%d, want 32,64,96", px[0], px[1], px[2]);
    /* and the boids are drawn: some pixel differs clearly from it */
    int drawn = 0;
    for (int i = 0; i < w * h && !drawn; i++)
        drawn = abs(rgb[3 * i] - 0x20) + abs(rgb[3 * i + 1] - 0x40) + abs(rgb[3 * i + 2] - 0x60) > 120;
    CHECK(drawn, "no boid visible in frame 10");
    free(rgb);
}

TEST(same_scene_gives_identical_frames_on_any_thread_count)
{
    const char *scene = small_scene("det.yaml", "flock: {noise: 0.05}\n");
    char args[512], err[4096];
    const char *a = scratch_path("det1.mp4"), *b = scratch_path("det2.mp4");
    snprintf(args, sizeof args, "render %s -o %s -q --threads 1", scene, a);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    snprintf(args, sizeof args, "render %s -o %s -q --threads 2", scene, b);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    uint64_t ha = test_video_hash(a), hb = test_video_hash(b);
    CHECK(ha != 0 && ha == hb, "frame hashes differ: %016llx vs %016llx", (unsigned long long)ha,
          (unsigned long long)hb);
    /* and a different seed does change them (the hash can fail) */
    const char *other = small_scene("det3.yaml", "flock: {noise: 0.05}\n");
    char text[1024];
    snprintf(text, sizeof text, "sed -i 's/seed: 3/seed: 4/' %s", other);
    REQUIRE(system(text) == 0, "sed failed");
    const char *c = scratch_path("det3.mp4");
    snprintf(args, sizeof args, "render %s -o %s -q", other, c);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    CHECK(test_video_hash(c) != ha, "seed 4 rendered the same frames as seed 3");
}


TEST(bad_scenes_exit_2_naming_the_line)
{
    expect_bad("unknown.yaml", "model: wrkspc\nflock:\n  alignmnet: 1\n", "3:3:",
               "did you mean 'alignment'?");
    expect_bad("type.yaml", "model: wrkspc\nflock:\n  count: many\n", "3:10:", "must be a number");
    expect_bad("negative.yaml", "flock:\n  count: -5\n", "2:10:", "out of range");
    expect_bad("toplevel.yaml", "seed: 1\nvidoe: {fps: 30}\n", "2:1:", "did you mean 'video'?");
    expect_bad("yaml.yaml", "flock: {count: 3\n", "", "error");
    expect_bad("huge.yaml", "flock: {count: 1000000000000}\n", "1:16:", "out of range [0, 4000000]");
    expect_bad("bigvideo.yaml", "video: {width: 100000, height: 100000}\n", "1:16:", "out of range");
}

TEST(missing_scene_file_exits_2)
{
    char err[4096];
    int st = murmur("render /nonexistent/scene.yaml -q", err, sizeof err);
    CHECK(st == 2, "exit %d, want 2", st);
    CHECK(strstr(err, "/nonexistent/scene.yaml") && strstr(err, "No such file"), "stderr: %s", err);
}

TEST(bad_usage_exits_2_and_help_exits_0)
{
    char err[4096];
    CHECK(murmur("frobnicate x.yaml", err, sizeof err) == 2, "unknown command: %s", err);
    CHECK(murmur("render", err, sizeof err) == 2, "missing scene: %s", err);
    CHECK(murmur("render scenes/flock.yaml --threads zero", err, sizeof err) == 2, "bad threads: %s", err);
    CHECK(murmur("still scenes/flock.yaml --at 1s --from 1s -o /tmp/x.png", err, sizeof err) == 2 &&
              strstr(err, "does not apply to 'still'"),
          "an option the command ignores was accepted: %s", err);
    CHECK(murmur("render scenes/flock.yaml -o a.mp4 -o b.mp4", err, sizeof err) == 2 &&
              strstr(err, "given twice"),
          "a repeated option was accepted: %s", err);
    CHECK(murmur("--help", err, sizeof err) == 0, "--help failed");
    CHECK(murmur("--version", err, sizeof err) == 0, "--version failed");
}

TEST(unwritable_output_exits_1_without_a_file)
{
    const char *scene = small_scene("unwritable.yaml", NULL);
    char args[512], err[4096];
    snprintf(args, sizeof args, "render %s -o /nonexistent/dir/x.mp4 -q", scene);
    int st = murmur(args, err, sizeof err);
    CHECK(st == 1, "exit %d, want 1: %s", st, err);
    CHECK(strstr(err, "/nonexistent/dir/x.mp4") != NULL, "stderr does not name the path: %s", err);
}

TEST(check_and_presets_print_the_resolved_settings)
{
    char err[4096];
    CHECK(murmur("check scenes/flock.yaml", err, sizeof err) == 0, "check failed: %s", err);
    FILE *fp = fopen(scratch_path("stderr.txt.out"), "r");
    REQUIRE(fp, "no stdout captured");
    char out[8192];
    size_t n = fread(out, 1, sizeof out - 1, fp);
    out[n] = 0;
    fclose(fp);
    CHECK(strstr(out, "separation_radius:      12"), "check lacks the preset's radius: %s", out);
    CHECK(murmur("presets lab", err, sizeof err) == 0, "presets lab failed");
    CHECK(murmur("presets nosuch", err, sizeof err) == 2, "unknown preset accepted");
}

/* A writer must support the scene's own output: `check` says so at the
 * line of `video.output`, and `render` fails there before any work. */
TEST(an_unsupported_output_in_the_scene_is_an_error_at_its_line)
{
    char err[1024];
    const char *scene = scratch_path("avi.yaml");
    write_file(scene, "seed: 1\nvideo:\n  duration: 1s\n  output: out/talk.avi\n");
    char args[512];
    snprintf(args, sizeof args, "check %s", scene);
    CHECK(murmur(args, err, sizeof err) == 2, "check accepted .avi");
    CHECK(strstr(err, "avi.yaml:4:11: error: unsupported output format '.avi'"), "%s", err);
    snprintf(args, sizeof args, "render -q %s", scene);
    CHECK(murmur(args, err, sizeof err) == 2, "render accepted .avi");
    CHECK(strstr(err, "avi.yaml:4:11: error:"), "%s", err);
    write_file(scene, "video:\n  output: out/frames.png\n");
    snprintf(args, sizeof args, "check %s", scene);
    CHECK(murmur(args, err, sizeof err) == 2, "check accepted a sequence without a number");
    CHECK(strstr(err, "avi.yaml:2:11: error: image sequence"), "%s", err);
    /* A failure on the command line's -o says who speaks. */
    write_file(scene, "video:\n  duration: 1s\n");
    snprintf(args, sizeof args, "render -q %s -o %s", scene, scratch_path("x.avi"));
    CHECK(murmur(args, err, sizeof err) == 2, "render -o x.avi");
    CHECK(strncmp(err, "murmur: error: unsupported output format", 40) == 0, "%s", err);
}

/* ---- stats, series, still: I/O errors say why; killed runs' temporaries ---- */

/* stderr's whole text is the one line `murmur: error: cannot write 'PATH': REASON`. */
static int says_cannot_write(const char *err, const char *path, const char *reason)
{
    char want[1024];
    snprintf(want, sizeof want, "murmur: error: cannot write '%s': %s\n", path, reason);
    return strcmp(err, want) == 0;
}

/* Completes args ending in "-o " (a figure's run) with a table to write. */
static void table_last(char *args, size_t n)
{
    size_t len = strlen(args);
    if (len > 3 && !strcmp(args + len - 3, "-o "))
        snprintf(args + len, n - len, "%s", scratch_path("table.csv"));
}

/* A symbolic link to /dev/full (every write fails with ENOSPC) is written
 * in place, not replaced; a path under a regular file fails with ENOTDIR. */
/* stats -q with -o prints nothing but errors (as render's -q); without -o
 * the table on stdout is the output, and -q leaves it. */
/* check names every shape, colour mode and overlay from the loader's own
 * tables (look.h): `color: group` was "coloured by ?" from a shorter copy.
 * And a condition's colour may be spelt color. */
TEST(check_names_every_colour_mode_shape_and_overlay)
{
    char scene[256], args[1024], err[2048], text[1024];
    snprintf(scene, sizeof scene, "%s", scratch_path("names.yaml"));   /* scratch_path's buffers rotate */
    for (int m = 1; mur_color_mode_names[m]; m++)
        for (int k = 0; mur_shape_names[k]; k++) {
            const char *ov = mur_overlay_names[k % MUR_LOOK_PREDATORS];
            snprintf(text, sizeof text, "flock: {count: 10}\nlook: {boid: {shape: %s, color: %s}, overlays: [%s]}\n"
                     "timeline:\n  - at: 0.5s\n    hide: [%s, predators]\n",
                     mur_shape_names[k], mur_color_mode_names[m], ov, ov);
            if (m == MUR_COLOR_GROUP)   /* groups come from flock.start.groups */
                snprintf(text, sizeof text, "flock: {start: {groups: [{count: 5}, {count: 5}]}}\n"
                         "look: {boid: {shape: %s, color: group}, overlays: [%s]}\n"
                         "timeline:\n  - at: 0.5s\n    hide: [%s, predators]\n", mur_shape_names[k], ov, ov);
            write_file(scene, text);
            snprintf(args, sizeof args, "check %s", scene);
            REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", text, err);
            char *out = test_slurp(scratch_path("stderr.txt.out"), NULL), want[160];
            snprintf(want, sizeof want, "boids %s size", mur_shape_names[k]);
            CHECK(out && strstr(out, want), "%s: %s", want, out ? out : "");
            snprintf(want, sizeof want, "coloured by %s,", mur_color_mode_names[m]);
            CHECK(out && strstr(out, want) && !strchr(out, '?'), "%s: %s", want, out ? out : "");
            snprintf(want, sizeof want, "hide %s predators", ov);
            CHECK(out && strstr(out, want), "%s: %s", want, out ? out : "");
            free(out);
        }
    write_file(scene, "flock: {count: 10}\nexperiment:\n  conditions: {a: {color: \"#ff0000\"}, b: {colour: \"#00ff00\"}}\n");
    snprintf(args, sizeof args, "check %s", scene);
    CHECK(murmur(args, err, sizeof err) == 0, "a condition's color: %s", err);
    write_file(scene, "flock: {count: 10}\nexperiment:\n  conditions: {a: {color: \"#ff0000\", colour: \"#ff0000\"}}\n");
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "given twice"), "both spellings: %s", err);
}

/* The limits are named once (murmur/limits.h): --help says them, and one
 * past each is refused by the scene and by the option alike. */
TEST(limits_are_the_named_constants_in_help_and_every_check)
{
    char args[1024], err[2048], want[128];
    REQUIRE(murmur("render --help", err, sizeof err) == 0, "%s", err);
    char *help = test_slurp(scratch_path("stderr.txt.out"), NULL);
    snprintf(want, sizeof want, "1 to %d", MUR_MAX_FPS);
    CHECK(help && strstr(help, want), "render --help lacks %s", want);
    snprintf(want, sizeof want, "0 to %d", MUR_MAX_QUALITY);
    CHECK(help && strstr(help, want), "render --help lacks %s", want);
    free(help);
    REQUIRE(murmur("stats --help", err, sizeof err) == 0, "%s", err);
    help = test_slurp(scratch_path("stderr.txt.out"), NULL);
    snprintf(want, sizeof want, "1 to %d", MUR_MAX_RUNS);
    CHECK(help && strstr(help, want), "stats --help lacks %s", want);
    free(help);
    char scene[256];
    snprintf(scene, sizeof scene, "%s", scratch_path("limits.yaml"));
    const char *keys[4][2] = {{"experiment", "runs"}, {"experiment", "ticks"}, {"video", "fps"}, {"video", "quality"}};
    const long max[4] = {MUR_MAX_RUNS, MUR_MAX_RUN_TICKS, MUR_MAX_FPS, MUR_MAX_QUALITY};
    for (int i = 0; i < 4; i++) {
        char text[256];
        snprintf(text, sizeof text, "flock: {count: 5}\n%s: {%s: %ld}\n", keys[i][0], keys[i][1], max[i] + 1);
        write_file(scene, text);
        snprintf(args, sizeof args, "check %s", scene);
        CHECK(murmur(args, err, sizeof err) == 2, "%s.%s = %ld: %s", keys[i][0], keys[i][1], max[i] + 1, err);
        snprintf(want, sizeof want, "%ld", max[i]);
        CHECK(strstr(err, want), "%s.%s: the message does not say %s: %s", keys[i][0], keys[i][1], want, err);
    }
    write_file(scene, "flock: {count: 5}\nexperiment: {runs: 1, ticks: 1}\n");
    snprintf(args, sizeof args, "stats %s -q --runs %d", scene, MUR_MAX_RUNS + 1);
    CHECK(murmur(args, err, sizeof err) == 2, "--runs past the limit: %s", err);
    snprintf(args, sizeof args, "render %s -q --fps %d -o %s", scene, MUR_MAX_FPS + 1, scratch_path("l.mp4"));
    CHECK(murmur(args, err, sizeof err) == 2, "--fps past the limit: %s", err);
}

TEST(stats_quiet_with_an_output_prints_nothing)
{
    const char *scene = scratch_path("quiet.yaml");
    write_file(scene, "seed: 3\nflock: {count: 10}\nexperiment: {runs: 2, ticks: 3, metrics: [order]}\n");
    char args[1024], err[2048];
    snprintf(args, sizeof args, "stats %s -q -o %s", scene, scratch_path("quiet.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    char *out = test_slurp(scratch_path("stderr.txt.out"), NULL);   /* murmur()'s stdout */
    CHECK(out && !out[0] && !err[0], "stdout '%s', stderr '%s'", out ? out : "?", err);
    free(out);
    snprintf(args, sizeof args, "stats %s -q", scene);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    out = test_slurp(scratch_path("stderr.txt.out"), NULL);
    CHECK(out && strstr(out, "condition  metric"), "without -o the table stays: '%s'", out ? out : "?");
    free(out);
}

TEST(write_failures_of_stats_series_still_say_the_reason)
{
    char scene[256], args[1024], err[4096];
    snprintf(scene, sizeof scene, "%s", small_scene("io.yaml", NULL));
    char reg[256];
    snprintf(reg, sizeof reg, "%s", scratch_path("regular"));
    write_file(reg, "x");
    static const char *const cmds[][2] = {
        {"stats %s --runs 2 --ticks 5 -o %s -q", "csv"},
        {"stats %s --runs 2 --ticks 5 -o %s -q", "json"},
        {"series %s --ticks 5 -o %s -q", "csv"},
        {"still %s --at 0.5s -o %s -q", "png"},
        {"still %s --at 0.5s -o %s -q", "pdf"},
        {"still %s --at 0.5s -o %s -q", "svg"},
        {"series %s --ticks 5 --plot %s -q -o ", "png"},
        {"series %s --ticks 5 --plot %s -q -o ", "pdf"},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char full[256], under[320], name[32];
        snprintf(name, sizeof name, "full%zu.%s", i, cmds[i][1]);
        snprintf(full, sizeof full, "%s", scratch_path(name));
        unlink(full);
        CHECK(symlink("/dev/full", full) == 0, "symlink %s", full);
        snprintf(args, sizeof args, cmds[i][0], scene, full);
        table_last(args, sizeof args);
        int st = murmur(args, err, sizeof err);
        CHECK(st == 1 && says_cannot_write(err, full, "No space left on device"), "%s: exit %d: %s",
              args, st, err);
        char target[64] = "";
        CHECK(readlink(full, target, sizeof target - 1) > 0 && !strcmp(target, "/dev/full"),
              "%s: the link was replaced", args);
        snprintf(under, sizeof under, "%s/x.%s", reg, cmds[i][1]);
        snprintf(args, sizeof args, cmds[i][0], scene, under);
        table_last(args, sizeof args);
        st = murmur(args, err, sizeof err);
        CHECK(st == 1 && says_cannot_write(err, under, "Not a directory"), "%s: exit %d: %s", args,
              st, err);
    }
}

/* Every command checks its outputs before it computes: on a scene whose
 * runs, render and still would take minutes to hours (20,000 boids, 30
 * minutes of video, 40 runs of 10^5 ticks), a folder that is missing, a file in the way
 * (exit 1) or a folder where the file goes (exit 2) fail at once with the
 * path and the reason. Computed first, the test would not end. */
TEST(an_unwritable_output_fails_before_anything_is_computed)
{
    char scene[256], args[1024], err[4096], reg[256], dir[256], shard[256];
    snprintf(scene, sizeof scene, "%s",
             small_scene("huge.yaml", "flock: {count: 20000}\nworld: {width: 2000, height: 1500}\n"
                                      "experiment:\n  runs: 40\n  ticks: 100000\n"));
    /* small_scene's video: 2 s; made 30 minutes */
    char *text = test_slurp(scene, NULL);
    REQUIRE(text && strstr(text, "duration: 2s"), "the scene");
    char *d = strstr(text, "duration: 2s");
    char fixed[4096];
    snprintf(fixed, sizeof fixed, "%.*sduration: 1800s%s", (int)(d - text), text, d + strlen("duration: 2s"));
    write_file(scene, fixed);
    free(text);
    snprintf(reg, sizeof reg, "%s", scratch_path("in-the-way"));
    write_file(reg, "x");
    snprintf(dir, sizeof dir, "%s", scratch_path("a-folder.csv"));
    mkdir(dir, 0777);
    snprintf(shard, sizeof shard, "%s", scratch_path("no-such-folder/x.csv"));
    static const char *const cmds[] = {
        "stats %s -o %s -q", "stats %s --runs-out %s -q", "stats %s --shard 1/4 -o %s -q", "series %s -o %s -q",
        "trace %s -o %s -q", "still %s --at 1700s -o %s -q", "render %s -o %s -q",
    };
    static const char *const exts[] = {"csv", "csv", "csv", "csv", "h5", "png", "mp4"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char missing[320], under[320], want[400];
        snprintf(missing, sizeof missing, "%s/x.%s", scratch_path("no-such-folder"), exts[i]);
        snprintf(under, sizeof under, "%s/x.%s", reg, exts[i]);
        const char *paths[] = {missing, under, i < 4 && i != 2 ? dir : NULL};   /* a folder is a shard's DIR */
        const char *reasons[] = {"No such file or directory", "Not a directory", NULL};
        for (int k = 0; k < 3 && paths[k]; k++) {
            snprintf(args, sizeof args, cmds[i], scene, paths[k]);
            int st = murmur(args, err, sizeof err);
            /* a shard names its own file beside -o */
            snprintf(want, sizeof want, "%s", paths[k]);
            if (i == 2 && k < 2)
                snprintf(strrchr(want, '/') + 1, 64, "x.shard-1-of-4.mur");
            char dir_says[512];   /* a folder in the file's place: the user's mistake, exit 2 */
            snprintf(dir_says, sizeof dir_says, "murmur: error: '%s' is a directory: give the output a file name\n", want);
            CHECK(k == 2 ? st == 2 && !strcmp(err, dir_says) : st == 1 && says_cannot_write(err, want, reasons[k]),
                  "%s: exit %d: %s", args, st, err);
        }
    }
    /* join and merge: before reading a part */
    snprintf(args, sizeof args, "join a.chunk-1-of-2.mp4 b.chunk-2-of-2.mp4 -o %s -q", shard);
    int st = murmur(args, err, sizeof err);
    CHECK(st == 1 && says_cannot_write(err, shard, "No such file or directory"), "%s: exit %d: %s", args, st, err);
}

/* out/ is the default folder: made when a command writes into it, whether
 * or not -o names it. */
TEST(render_into_out_makes_out_with_or_without_o)
{
    const char *scene = small_scene("into-out.yaml", NULL);
    char cmd[2048], log[4096];
    const char *dir = scratch_path("into-out");
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir '%s' && cd '%s' && %s render '%s' --to 0.2s -o out/x.mp4 -q 2>&1",
             dir, dir, dir, MURMUR_EXE, scene);
    CHECK(run_tool_output(cmd, log, sizeof log) == 0, "render -o out/x.mp4 in a folder without out/: %s", log);
    char out[512];
    snprintf(out, sizeof out, "%s/out/x.mp4", dir);
    CHECK(access(out, F_OK) == 0, "no %s", out);
}

TEST(stats_series_still_remove_temporaries_of_killed_runs)
{
    char scene[256], args[1024], err[4096], stale[256], live[256];
    snprintf(scene, sizeof scene, "%s", small_scene("stale.yaml", NULL));
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    waitpid(child, NULL, 0);   /* now no process has this pid */
    static const char *const cmds[][2] = {
        {"stats %s --runs 2 --ticks 5 -o %s -q", "t.csv"},
        {"series %s --ticks 5 -o %s -q", "s.csv"},
        {"still %s --at 0.5s -o %s -q", "p.png"},
        {"series %s --ticks 5 --plot %s -q -o ", "f.pdf"},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        snprintf(stale, sizeof stale, "%s/.%s.part.%ld", scratch(), cmds[i][1], (long)child);
        snprintf(live, sizeof live, "%s/.%s.part.1", scratch(), cmds[i][1]);   /* pid 1 lives */
        write_file(stale, "killed");
        write_file(live, "running");
        snprintf(args, sizeof args, cmds[i][0], scene, scratch_path(cmds[i][1]));
        table_last(args, sizeof args);
        int st = murmur(args, err, sizeof err);
        CHECK(st == 0, "%s: exit %d: %s", args, st, err);
        CHECK(access(stale, F_OK) != 0, "%s: %s is left", args, stale);
        CHECK(access(live, F_OK) == 0, "%s: a live process's %s was removed", args, live);
        unlink(live);
    }
}

/* ---- help, manual page, completion ------------------------------------------ */

/* Every option and the commands that take it, written here a second time on
 * purpose: --help, the manual page and the completion are all printed from
 * src/cli/usage.c's table, so a row that one of them drops, or a new option
 * no test names, shows up only against a list of the test's own. */
static const struct {
    const char *name, *alias, *commands;
} cli_options[] = {
    {"--output", "-o", "render still stats series trace join merge plan"},
    {"--chunk", NULL, "render"},
    {"--loop", NULL, "render"},
    {"--shard", NULL, "stats series trace"},
    {"--shards", NULL, "plan"},
    {"--chunks", NULL, "plan"},
    {"--slurm", NULL, "plan"},
    {"--parallel", NULL, "plan"},
    {"--murmur", NULL, "plan"},
    {"--time", NULL, "plan"},
    {"--mem", NULL, "plan"},
    {"--partition", NULL, "plan"},
    {"--account", NULL, "plan"},
    {"--sbatch", NULL, "plan"},
    {"--from", NULL, "render trace"},
    {"--to", NULL, "render trace"},
    {"--at", NULL, "still check trace"},
    {"--condition", NULL, "render still trace series"},
    {"--run", NULL, "render still trace"},
    {"--runs-out", NULL, "stats merge"},
    {"--every", NULL, "trace"},
    {"--runs", NULL, "stats series trace plan"},
    {"--ticks", NULL, "stats series trace plan"},
    {"--float32", NULL, "trace"},
    {"--plot", NULL, "stats series merge"},
    {"--plot-effects", NULL, "stats merge"},
    {"--json", NULL, "stats merge"},
    {"--correlation", NULL, "stats"},
    {"--anisotropy", NULL, "stats"},
    {"--distribution", NULL, "stats"},
    {"--bin", NULL, "stats"},
    {"--plot-provenance", NULL, "stats series merge"},
    {"--preset", NULL, "render"},
    {"--size", NULL, "render still"},
    {"--fps", NULL, "render"},
    {"--quality", NULL, "render"},
    {"--draft", NULL, "render still"},
    {"--subtitles", NULL, "render"},
    {"--subtitles=embed", NULL, "render"},
    {"--threads", NULL, "render still stats series trace"},
    {"--quiet", "-q", "render still stats series trace check presets join merge plan"},
    {"--help", "-h", "render still stats series trace check presets help join merge plan"},
};
#define NCLI_OPTIONS (sizeof cli_options / sizeof cli_options[0])
static const char *const cli_commands[] = {"render", "still", "stats", "series",  "trace", "join",
                                           "merge",  "plan",  "check", "presets", "help"};
#define NCLI_COMMANDS (sizeof cli_commands / sizeof cli_commands[0])

static int in_list(const char *word, const char *list)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return 1;
    return 0;
}

static int takes(size_t k, const char *cmd)
{
    return in_list(cmd, cli_options[k].commands);
}

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
}

/* Whether option word w occurs in text as a whole word; in roff (man 1)
 * each of its hyphens is written \-, and a font escape may stand before. */
static int has_option(const char *text, const char *w, int roff)
{
    char pat[64];
    size_t n = 0;
    for (const char *c = w; *c && n < sizeof pat - 3; c++) {
        if (roff && *c == '-')
            pat[n++] = '\\';
        pat[n++] = *c;
    }
    pat[n] = 0;
    for (const char *p = text; (p = strstr(p, pat)); p++)
        if ((p == text || (roff ? p[-1] != '-' : !word_char(p[-1]))) && !word_char(p[n]))
            return 1;
    return 0;
}

/* The first option-like word of text ("-x", "--xyz" after a space, a
 * bracket or a line start) that command cmd does not take; NULL if none. */
static const char *stray_option(const char *text, const char *cmd)
{
    static char word[64];
    for (const char *p = text; *p; p++) {
        if (*p != '-' || (p > text && !strchr(" [(\n", p[-1])) || !word_char(p[1]))
            continue;
        size_t n = 0;
        while (word_char(p[n]) && n < sizeof word - 1)
            n++;
        memcpy(word, p, n);
        word[n] = 0;
        int known = 0;
        for (size_t k = 0; k < NCLI_OPTIONS && !known; k++)
            known = takes(k, cmd) && (!strcmp(word, cli_options[k].name) ||
                                      (cli_options[k].alias && !strcmp(word, cli_options[k].alias)));
        if (!known)
            return word;
        p += n - 1;
    }
    return NULL;
}

/* A copy of text from the end of the first `from` to the next `to` (or the
 * end); "" when there is no `from`. The caller frees it. */
static char *section(const char *text, const char *from, const char *to)
{
    const char *p = text ? strstr(text, from) : NULL;
    if (!p)
        return strdup("");
    p += strlen(from);
    const char *e = strstr(p, to);
    return strndup(p, e ? (size_t)(e - p) : strlen(p));
}

/* stdout of `murmur ARGS` (exit status to *st); the caller frees it. */
static char *murmur_stdout(const char *args, int *st)
{
    char err[4096];
    *st = murmur(args, err, sizeof err);
    char *out = test_slurp(scratch_path("stderr.txt.out"), NULL);
    if (*st != 0)
        fprintf(stderr, "  murmur %s: exit %d: %s\n", args, *st, err);
    return out;
}

TEST(each_command_help_shows_its_own_options_and_no_other)
{
    for (size_t c = 0; c < NCLI_COMMANDS; c++) {
        const char *cmd = cli_commands[c];
        char args[128];
        int st;
        snprintf(args, sizeof args, "%s --help", cmd);
        char *help = murmur_stdout(args, &st);
        REQUIRE(st == 0 && help, "%s", args);
        snprintf(args, sizeof args, "help %s", cmd);
        char *same = murmur_stdout(args, &st);
        CHECK(st == 0 && same && !strcmp(help, same), "murmur %s differs from murmur %s --help", args,
              cmd);
        free(same);
        char usage[64];
        snprintf(usage, sizeof usage, "usage: murmur %s", cmd);
        CHECK(!strncmp(help, usage, strlen(usage)), "%s --help does not start with its synopsis: %.80s",
              cmd, help);
        /* The synopsis shows the short form; the options list both. */
        char *synopsis = section(help, "usage:", "\n\n");
        char *list = section(help, "\noptions:\n", "\n\n");
        for (size_t k = 0; k < NCLI_OPTIONS; k++) {
            const char *words[2] = {cli_options[k].name, cli_options[k].alias};
            for (int w = 0; w < 2 && words[w]; w++)
                CHECK(has_option(list, words[w], 0) == takes(k, cmd), "%s --help's options %s %s",
                      cmd, takes(k, cmd) ? "lack" : "show", words[w]);
            const char *shown = words[1] ? words[1] : words[0];
            if (strcmp(shown, "-h"))
                CHECK(has_option(synopsis, shown, 0) == takes(k, cmd), "%s --help's synopsis %s %s",
                      cmd, takes(k, cmd) ? "lacks" : "shows", shown);
        }
        free(synopsis);
        free(list);
        const char *stray = stray_option(help, cmd);
        CHECK(!stray, "%s --help names %s, which it does not take (or this test's list lacks)", cmd,
              stray);
        free(help);
    }
    int st;
    char *overview = murmur_stdout("--help", &st);
    REQUIRE(st == 0 && overview, "--help");
    for (size_t c = 0; c < NCLI_COMMANDS; c++) {
        char line[64];
        snprintf(line, sizeof line, "  murmur %s ", cli_commands[c]);
        CHECK(strstr(overview, line), "--help does not list %s", cli_commands[c]);
    }
    CHECK(has_option(overview, "--version", 0) && strstr(overview, "exit status: 0 done"),
          "--help lacks --version or the exit statuses");
    free(overview);
    char err[1024];
    CHECK(murmur("help frobnicate", err, sizeof err) == 2, "help of an unknown command: %s", err);
    CHECK(murmur("--completion zsh", err, sizeof err) == 2, "an unknown shell: %s", err);
}

TEST(man_page_is_clean_roff_naming_every_command_and_option)
{
    int st;
    char *man = murmur_stdout("--man", &st);
    REQUIRE(st == 0 && man, "--man failed");
    CHECK(!strncmp(man, ".\\\"", 3) && strstr(man, "\n.TH MURMUR 1 "), "not a man page: %.80s", man);
    static const char *const sections[] = {"NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS",
                                           "EXIT STATUS", "FILES", "EXAMPLES", "SEE ALSO"};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        char sh[32];
        snprintf(sh, sizeof sh, "\n.SH %s\n", sections[i]);
        CHECK(strstr(man, sh), "no section %s", sections[i]);
    }
    for (size_t c = 0; c < NCLI_COMMANDS; c++) {
        char b[32];
        snprintf(b, sizeof b, "\n.B %s\n", cli_commands[c]);
        CHECK(strstr(man, b), "the man page lacks the command %s", cli_commands[c]);
    }
    char *synopsis = section(man, "\n.SH SYNOPSIS\n", "\n.SH ");
    char *list = section(man, "\n.SH OPTIONS\n", "\n.SH ");
    for (size_t k = 0; k < NCLI_OPTIONS; k++) {
        const char *name = cli_options[k].name, *alias = cli_options[k].alias;
        CHECK(has_option(list, name, 1), "OPTIONS lacks %s", name);
        CHECK(!alias || has_option(list, alias, 1), "OPTIONS lacks %s", alias);
        CHECK(has_option(synopsis, alias && strcmp(alias, "-h") ? alias : name, 1),
              "SYNOPSIS lacks %s", name);
    }
    CHECK(has_option(list, "--version", 1) && has_option(synopsis, "--version", 1),
          "the man page lacks --version");
    free(synopsis);
    free(list);
    CHECK(strstr(man, "\n.B 130\n"), "the man page lacks exit status 130");
    free(man);
    /* groff's warnings (-ww) are what `man --warnings` shows. */
    if (system("command -v groff >/dev/null") != 0)
        SKIP("groff is not installed (Debian: groff): the roff is not checked");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s --man | groff -man -Tutf8 -ww -z >%s 2>&1", MURMUR_EXE,
             scratch_path("groff.txt"));
    CHECK(system(cmd) == 0, "groff failed");
    char *warnings = test_slurp(scratch_path("groff.txt"), NULL);
    CHECK(warnings && !warnings[0], "groff warns: %s", warnings ? warnings : "(no output)");
    free(warnings);
}

/* COMPREPLY of the installed completion function for a command line given
 * as shell words (the last one being completed), one word a line. */
static char *complete_words(const char *script, const char *words)
{
    const char *driver = scratch_path("complete.sh");
    write_file(driver, "source \"$1\"; shift\n"
                       "f=$(complete -p murmur); f=${f#*-F }; f=${f%% *}\n"
                       "COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1))\n"
                       "COMP_LINE=\"$*\"; COMP_POINT=${#COMP_LINE}\n"
                       "\"$f\" murmur \"${COMP_WORDS[COMP_CWORD]}\" \"${COMP_WORDS[COMP_CWORD-1]}\"\n"
                       "printf '%s\\n' \"${COMPREPLY[@]}\"\n");
    const char *out = scratch_path("complete.txt");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "bash %s %s %s >%s 2>&1", driver, script, words, out);
    if (system(cmd) != 0)
        return NULL;
    return test_slurp(out, NULL);
}

static int has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = text; p && (p = strstr(p, line)); p++)
        if ((p == text || p[-1] == '\n') && p[n] == '\n')
            return 1;
    return 0;
}

TEST(bash_completion_offers_commands_each_commands_options_and_files)
{
    char script[256], cmd[1024];
    snprintf(script, sizeof script, "%s", scratch_path("murmur.bash"));
    snprintf(cmd, sizeof cmd, "%s --completion bash >%s", MURMUR_EXE, script);
    REQUIRE(system(cmd) == 0, "--completion bash failed");
    snprintf(cmd, sizeof cmd, "bash -n %s", script);
    REQUIRE(system(cmd) == 0, "bash -n rejects the completion script");

    char *got = complete_words(script, "murmur ren");
    CHECK(got && !strcmp(got, "render\n"), "murmur ren -> %s", got ? got : "(failed)");
    free(got);
    got = complete_words(script, "murmur render --fr");
    CHECK(got && !strcmp(got, "--from\n"), "murmur render --fr -> %s", got ? got : "(failed)");
    free(got);
    got = complete_words(script, "murmur ''");
    for (size_t c = 0; c < NCLI_COMMANDS; c++)
        CHECK(has_line(got, cli_commands[c]), "the first word does not offer %s", cli_commands[c]);
    CHECK(has_line(got, "--version"), "the first word does not offer --version");
    free(got);

    for (size_t c = 0; c < NCLI_COMMANDS; c++) {
        char words[64];
        snprintf(words, sizeof words, "murmur %s -", cli_commands[c]);
        got = complete_words(script, words);
        REQUIRE(got, "%s failed", words);
        int offered = 0;
        for (const char *p = got; *p; p += strcspn(p, "\n") + 1)
            offered++;
        int want = 0;
        for (size_t k = 0; k < NCLI_OPTIONS; k++) {
            const char *names[2] = {cli_options[k].name, cli_options[k].alias};
            for (int w = 0; w < 2 && names[w]; w++) {
                want += takes(k, cli_commands[c]);
                CHECK(has_line(got, names[w]) == takes(k, cli_commands[c]), "%s: %s %s", words,
                      takes(k, cli_commands[c]) ? "lacks" : "offers", names[w]);
            }
        }
        CHECK(offered == want, "%s offers %d words, want %d:\n%s", words, offered, want, got);
        free(got);
    }

    /* Files: a scene is a .yaml (or a folder); -o and --plot take any file. */
    write_file(scratch_path("comp-scene.yaml"), "seed: 1\n");
    write_file(scratch_path("comp-notes.txt"), "x\n");
    char words[512], yaml[256], txt[256];
    snprintf(yaml, sizeof yaml, "%s", scratch_path("comp-scene.yaml"));
    snprintf(txt, sizeof txt, "%s", scratch_path("comp-notes.txt"));
    snprintf(words, sizeof words, "murmur check %s/comp-", scratch());
    got = complete_words(script, words);
    CHECK(has_line(got, yaml) && !has_line(got, txt), "%s -> %s", words, got ? got : "(failed)");
    free(got);
    static const char *const file_options[] = {"render x.yaml -o", "stats x.yaml --plot"};
    for (size_t i = 0; i < sizeof file_options / sizeof file_options[0]; i++) {
        snprintf(words, sizeof words, "murmur %s %s/comp-", file_options[i], scratch());
        got = complete_words(script, words);
        CHECK(has_line(got, yaml) && has_line(got, txt), "%s -> %s", words, got ? got : "(failed)");
        free(got);
    }
    got = complete_words(script, "murmur presets l");
    CHECK(got && has_line(got, "lab"), "murmur presets l -> %s", got ? got : "(failed)");
    free(got);
}
