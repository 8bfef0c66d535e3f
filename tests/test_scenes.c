/* The scenes users copy, through the murmur binary: every file in scenes/
 * loads and renders (briefly) to a decodable video, and every one in bench/
 * loads; part of a render is exactly the same frames of the whole; `check`
 * prints the timeline table; bad scenes exit 2 with file:line:col. */
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_util.h"
#include "decode.h"
#include "harness.h"
#include "murmur/scene.h"

/* Every scene in scenes/ renders its first 0.04 s: exit 0, an H.264 file (VP9 for a translucent scene) of
 * the scene's size with the frames asked for. Short, because ASan runs it
 * too (where a process costs about a second to start and check for leaks,
 * so the renders run three at a time); the scenes' full renders are looked at
 * by people, not tests. */
TEST(every_scene_in_scenes_renders)
{
    DIR *dir = opendir("scenes");
    REQUIRE(dir, "no scenes/ folder (run from the source tree)");
    const char *list = scratch_path("scenes.txt");
    FILE *fp = fopen(list, "w");
    REQUIRE(fp, "%s", list);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(dir))) {
        size_t len = strlen(e->d_name);
        if (len > 5 && !strcmp(e->d_name + len - 5, ".yaml")) {
            /* a translucent scene to VP9 with alpha: H.264 has none */
            char path[512];
            snprintf(path, sizeof path, "scenes/%s", e->d_name);
            mur_error merr;
            mur_scene *s = NULL;
            int alpha = !mur_scene_load(&s, path, &merr) && s->look.transparent;
            mur_scene_destroy(s);
            fprintf(fp, "%.*s %s\n", (int)(len - 5), e->d_name, alpha ? "webm" : "mp4");
            n++;
        }
    }
    closedir(dir);
    fclose(fp);
    CHECK(n >= 12, "only %d scenes found", n);
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "xargs -P 3 -L 1 sh -c '%s render scenes/$0.yaml -o %s/$0.$1 --to 0.04s -q "
             "2>%s/$0.err; echo $? >%s/$0.rc' <%s",
             MURMUR_EXE, scratch(), scratch(), scratch(), list);
    REQUIRE(system(cmd) == 0, "could not run the renders");
    fp = fopen(list, "r");
    REQUIRE(fp, "%s", list);
    char name[256], ext[8];
    while (fscanf(fp, "%255s %7s", name, ext) == 2) {
        char path[512], out[512], file[512], err[2048] = "";
        snprintf(path, sizeof path, "scenes/%s.yaml", name);
        snprintf(out, sizeof out, "%s/%s.%s", scratch(), name, ext);
        mur_error merr;
        mur_scene *s = NULL;
        CHECK(!mur_scene_load(&s, path, &merr), "%s does not load: %s", path, merr.msg);
        int st = -1;
        snprintf(file, sizeof file, "%s/%s.rc", scratch(), name);
        FILE *rc = fopen(file, "r");
        if (rc) {
            if (fscanf(rc, "%d", &st) != 1)
                st = -1;
            fclose(rc);
        }
        snprintf(file, sizeof file, "%s/%s.err", scratch(), name);
        FILE *ef = fopen(file, "r");
        if (ef) {
            size_t got = fread(err, 1, sizeof err - 1, ef);
            err[got] = 0;
            fclose(ef);
        }
        CHECK(st == 0, "%s: exit %d: %s", path, st, err);
        test_video_info info;
        if (s && st == 0) {
            long want = (long)ceil(0.04 * s->fps - 1e-9);
            if (want > mur_scene_frames(s))
                want = mur_scene_frames(s);
            int ok = !test_video_probe(out, &info);
            CHECK(ok && !strcmp(info.codec, strcmp(ext, "mp4") ? "vp9" : "h264") && info.frames == want && info.width == (s->width & ~1) &&
                      info.height == (s->height & ~1),
                  "%s: %s %dx%d, %d frames (want %dx%d x %ld)", path, ok ? info.codec : "undecodable",
                  ok ? info.width : 0, ok ? info.height : 0, ok ? info.frames : 0, s->width & ~1,
                  s->height & ~1, want);
        }
        remove(out);
        mur_scene_destroy(s);
    }
    fclose(fp);
}

/* The benchmarks' scenes (the .yaml files in bench/) load: they are timed, not
 * rendered here (a million birds are minutes of work), but a key renamed
 * under them must not go unnoticed until someone runs the benchmark. */
TEST(every_scene_in_bench_loads)
{
    DIR *dir = opendir("bench");
    REQUIRE(dir, "no bench/ folder (run from the source tree)");
    struct dirent *e;
    int n = 0;
    while ((e = readdir(dir))) {
        size_t len = strlen(e->d_name);
        if (len <= 5 || strcmp(e->d_name + len - 5, ".yaml"))
            continue;
        char path[512];
        snprintf(path, sizeof path, "bench/%s", e->d_name);
        mur_error merr;
        mur_scene *s = NULL;
        CHECK(!mur_scene_load(&s, path, &merr), "%s does not load: %s", path, merr.msg);
        mur_scene_destroy(s);
        n++;
    }
    closedir(dir);
    CHECK(n >= 1, "no scenes in bench/");
}

/* Settings, ramps, events, a predator expression and captions: frames
 * 100-149 rendered alone are bit for bit frames 100-149 of the whole render
 * (PNG sequences, so no encoder stands between the frames compared). */
TEST(part_of_a_render_is_the_same_frames_as_the_whole)
{
    const char *scene = scratch_path("part.yaml");
    write_file(scene,
               "seed: 3\nmodel: wrkspc\nflock: {count: 90}\n"
               "video: {width: 192, height: 128, fps: 30, ticks_per_second: 60, duration: 5.1s}\n"
               "look: {boid: {color: heading}}\n"
               "timeline:\n"
               "  - at: 1s\n    set: {alignment: 0}\n    caption: Off\n"
               "  - at: 2s\n    ramp: {alignment: 1, cohesion: 2}\n    over: 1.5s\n    ease: smooth\n"
               "  - at: 3.4s\n    event: scatter\n"
               "  - at: 4s\n    event: freeze\n  - at: 4.5s\n    event: unfreeze\n"
               "  - at: 4.7s\n    event: reset\n"
               "predators:\n  - {x: \"W/2 + 100*cos(t)\", y: \"H/2\", radius: 50, from: 2.5s, until: 6s}\n");
    char whole[512], part[512], args[1600], err[2048];
    snprintf(whole, sizeof whole, "%s/whole", scratch());
    snprintf(part, sizeof part, "%s/part", scratch());
    mkdir(whole, 0777);
    mkdir(part, 0777);
    snprintf(args, sizeof args, "render %s -o %s/%%05d.png -q", scene, whole);
    REQUIRE(murmur(args, err, sizeof err) == 0, "whole render: %s", err);
    snprintf(args, sizeof args, "render %s -o %s/%%05d.png --from 200t --to 300t -q", scene, part);
    REQUIRE(murmur(args, err, sizeof err) == 0, "part render: %s", err);
    char wp[600], pp[600];
    snprintf(wp, sizeof wp, "%s/%%05d.png", whole);
    snprintf(pp, sizeof pp, "%s/%%05d.png", part);
    test_video_info info;
    REQUIRE(!test_video_probe(pp, &info), "part does not decode");
    CHECK(info.frames == 50, "part has %d frames, not 50", info.frames);
    uint64_t a = test_video_hash_range(wp, 100, 50), b = test_video_hash_range(pp, 0, 50);
    CHECK(a && a == b, "frames 100-149 differ: whole %016llx, part %016llx", (unsigned long long)a,
          (unsigned long long)b);
    /* And the property is not vacuous: neighbouring frames differ. */
    CHECK(test_video_hash_range(wp, 101, 50) != a, "frames do not change over time");
}

/* Reads `murmur check` stdout into buf. */
static int check_output(const char *scene, char *buf, size_t n)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s check %s 2>&1", MURMUR_EXE, scene);
    FILE *pp = popen(cmd, "r");
    if (!pp)
        return -1;
    size_t got = fread(buf, 1, n - 1, pp);
    buf[got] = 0;
    int st = pclose(pp);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Finds the table row that starts with time `t` ("  8s ...") and reads the
 * first three values after its line number. */
static int row_values(const char *text, const char *t, char v[3][32])
{
    char key[32];
    snprintf(key, sizeof key, "\n  %s ", t);
    const char *row = strstr(text, key);
    if (!row)
        return -1;
    char tt[32];
    int line;
    return sscanf(row + 1, "%31s %d %31s %31s %31s", tt, &line, v[0], v[1], v[2]) == 5 ? 0 : -1;
}

TEST(check_prints_the_timeline_as_a_table_of_values)
{
    static char out[65536];
    REQUIRE(check_output("scenes/knockout.yaml", out, sizeof out) == 0, "%s", out);
    const char *head = strstr(out, "\n  time ");
    const char *a = head ? strstr(head, "alignment") : NULL, *b = a ? strstr(a, "separation") : NULL;
    const char *c = b ? strstr(b, "cohesion") : NULL, *eol = head ? strchr(head + 1, '\n') : NULL;
    CHECK(c && c < eol, "no columns per changed setting:\n%s", out);
    char v[3][32];
    CHECK(!row_values(out, "0s", v) && !strcmp(v[0], "1") && !strcmp(v[1], "1.5") && !strcmp(v[2], "0.9"),
          "row 0s");
    CHECK(!row_values(out, "8s", v) && !strcmp(v[0], "0") && !strcmp(v[1], "1.5"), "row 8s: %s %s", v[0], v[1]);
    CHECK(!row_values(out, "16s", v) && !strcmp(v[0], "1") && !strcmp(v[1], "0"), "row 16s");
    CHECK(!row_values(out, "32s", v) && !strcmp(v[0], "0") && !strcmp(v[1], "0") && !strcmp(v[2], "0"),
          "row 32s");
    CHECK(strstr(out, "event reset") && strstr(out, "caption \"No rules"), "events and captions listed");

    const char *scene = scratch_path("ramp.yaml");
    write_file(scene, "timeline:\n  - at: 2s\n    ramp: {cohesion: 0.1}\n    over: 4s\n    ease: linear\n"
                      "  - at: 4s\n    set: {noise: 0.5}\n");
    REQUIRE(check_output(scene, out, sizeof out) == 0, "%s", out);
    CHECK(!row_values(out, "2s", v) && !strcmp(v[0], "0.9") && !strcmp(v[1], "0"), "ramp start: %s", out);
    CHECK(!row_values(out, "4s", v) && !strcmp(v[0], "0.5") && !strcmp(v[1], "0.5"), "half-way: %s", out);
    CHECK(!row_values(out, "6s", v) && !strcmp(v[0], "0.1") && strstr(out, "ramp ends"), "end: %s", out);
}

TEST(bad_scenes_exit_2_with_file_line_col)
{
    char err[2048], args[1024];
    const char *bad = scratch_path("bad.yaml");
    write_file(bad, "flock:\n  alignmnet: 1\n");
    snprintf(args, sizeof args, "check %s", bad);
    CHECK(murmur(args, err, sizeof err) == 2, "check: not exit 2");
    CHECK(strstr(err, "bad.yaml:2:3: error: unknown setting 'alignmnet' (did you mean 'alignment'?)"),
          "message: %s", err);
    /* Limits: refused before anything runs or is allocated. */
    write_file(bad, "flock: {count: 4000000}\nvideo: {duration: 36000s}\n");
    snprintf(args, sizeof args, "render %s -o %s -q", bad, scratch_path("never.mp4"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "bad.yaml:2:8: error:") && strstr(err, "boid-ticks"),
          "huge render: %s", err);
    write_file(bad, "video: {width: 100000, height: 100000}\n");
    snprintf(args, sizeof args, "still %s --at 0 -o %s", bad, scratch_path("never.png"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "bad.yaml:1:16: error:") && strstr(err, "[16, 8192]"),
          "huge video: %s", err);
}
