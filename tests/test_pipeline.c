/* The render pipeline end to end, through the murmur binary: threads and
 * the encoding queue never change the frames; --from/--to renders exactly
 * the frames of a whole render; SIGINT leaves a playable file of every
 * frame rendered, kill -9 leaves nothing at the final name; failures are
 * one line and exit 1 with nothing at the final name; every output carries
 * its provenance; the progress line shows on a terminal.
 *
 * Signals are sent once a condition is seen on disk (polled, with a bound),
 * never after a sleep: the test asserts on what murmur says it wrote. */
#define _DEFAULT_SOURCE   /* wait4: a child's own peak memory */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "cli_util.h"
#include "decode.h"
#include "harness.h"
#include "murmur/version.h"

/* 240x160, 24 fps; trails and a readout so that drawing depends on history
 * (the part of a render must rebuild it to match the whole). */
static const char *scene_file(const char *name, const char *duration)
{
    static char text[1024], paths[4][256];   /* scratch_path's buffers rotate: keep our own */
    static int next;
    char *path = paths[next++ % 4];
    snprintf(path, sizeof paths[0], "%s", scratch_path(name));
    snprintf(text, sizeof text,
             "seed: 5\n"
             "model: wrkspc\n"
             "flock: {count: 120, noise: 0.05}\n"
             "video: {width: 240, height: 160, fps: 24, duration: %s, quality: 20}\n"
             "look:\n"
             "  background: \"#204060\"\n"
             "  boid: {shape: arrow, size: 6, color: heading}\n"
             "  trails: {length: 12, fade: true}\n"
             "  overlays:\n"
             "    - readout: [order]\n",
             duration);
    write_file(path, text);
    return path;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static const char *read_text(const char *path, char *buf, size_t n)
{
    buf[0] = '\0';
    FILE *fp = fopen(path, "r");
    if (fp) {
        buf[fread(buf, 1, n - 1, fp)] = '\0';
        fclose(fp);
    }
    return buf;
}

/* ---- threads and parts ----------------------------------------------------------- */

/* --threads 1 is the reference: one simulation thread and no encoding
 * queue; 3 runs the queue and a pool of three. Same decoded frames. */
TEST(threads_and_queue_never_change_the_frames)
{
    const char *scene = scene_file("threads.yaml", "1s");
    const int threads[] = {1, 3};
    uint64_t h[2];
    for (int i = 0; i < 2; i++) {
        char args[512], err[4096], name[32];
        snprintf(name, sizeof name, "t%d.mp4", threads[i]);
        snprintf(args, sizeof args, "render %s -o %s -q --threads %d", scene, scratch_path(name),
                 threads[i]);
        REQUIRE(murmur(args, err, sizeof err) == 0, "--threads %d: %s", threads[i], err);
        h[i] = test_video_hash(scratch_path(name));
    }
    CHECK(h[0] != 0 && h[0] == h[1], "hashes %016llx %016llx", (unsigned long long)h[0],
          (unsigned long long)h[1]);
}

/* Lossless H.264 (quality 0) decodes to exactly the converted frames, so a
 * part equals the same frames of the whole iff the drawn frames do. */
TEST(from_to_parts_equal_the_same_frames_of_the_whole)
{
    const char *scene = scene_file("parts.yaml", "1.5s");
    char args[512], err[4096], text[4096];
    snprintf(text, sizeof text, "sed -i 's/quality: 20/quality: 0/' %s", scene);
    REQUIRE(system(text) == 0, "sed failed");
    const char *whole = scratch_path("whole.mp4");
    snprintf(args, sizeof args, "render %s -o %s -q", scene, whole);
    REQUIRE(murmur(args, err, sizeof err) == 0, "whole: %s", err);
    /* 36 frames: [0, 12) [12, 30) [30, 36); 75 ticks of 60/s = 1.25 s */
    struct {
        const char *from, *to;
        int first, count;
    } parts[] = {{"0s", "0.5s", 0, 12}, {"0.5s", "75t", 12, 18}, {"1.25s", "1.5s", 30, 6}};
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "part%d.mp4", i);
        const char *out = scratch_path(name);
        snprintf(args, sizeof args, "render %s -o %s -q --from %s --to %s", scene, out,
                 parts[i].from, parts[i].to);
        REQUIRE(murmur(args, err, sizeof err) == 0, "part %d: %s", i, err);
        test_video_info info;
        CHECK(test_video_probe(out, &info) == 0 && info.frames == parts[i].count,
              "part %d has %d frames, want %d", i, info.frames, parts[i].count);
        uint64_t a = test_video_hash_range(whole, parts[i].first, parts[i].count);
        uint64_t b = test_video_hash(out);
        CHECK(a != 0 && a == b, "part %d (%s..%s) differs from frames %d..%d of the whole", i,
              parts[i].from, parts[i].to, parts[i].first, parts[i].first + parts[i].count - 1);
    }
    /* and the comparison can fail: a part shifted by one frame differs */
    uint64_t shifted = test_video_hash_range(whole, 13, 18);
    CHECK(shifted != test_video_hash(scratch_path("part1.mp4")), "shifted part compares equal");
}

/* A part of a PNG sequence keeps the whole's frame numbers and bytes. */
TEST(png_sequence_part_keeps_numbers_and_bytes)
{
    const char *scene = scene_file("seq.yaml", "1s");
    char args[512], err[4096], cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p %s %s", scratch_path("seqall"), scratch_path("seqpart"));
    REQUIRE(system(cmd) == 0, "mkdir");
    snprintf(args, sizeof args, "render %s -o %s/%%03d.png -q", scene, scratch_path("seqall"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "whole: %s", err);
    snprintf(args, sizeof args, "render %s -o %s/%%03d.png -q --from 10t --to 0.5s", scene,
             scratch_path("seqpart"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "part: %s", err);
    /* 10 ticks at 60/s = frame 4 (ceil of 10/60*24), 0.5 s = frame 12 */
    snprintf(cmd, sizeof cmd, "ls %s | tr '\\n' ' '", scratch_path("seqpart"));
    FILE *ls = popen(cmd, "r");
    char listing[512] = "";
    if (ls) {
        listing[fread(listing, 1, sizeof listing - 1, ls)] = '\0';
        pclose(ls);
    }
    CHECK(strcmp(listing, "004.png 005.png 006.png 007.png 008.png 009.png 010.png 011.png "
                          "frames.txt ") == 0,
          "part holds: %s", listing);
    for (int k = 4; k < 12; k++) {
        snprintf(cmd, sizeof cmd, "cmp -s %s/%03d.png %s/%03d.png", scratch_path("seqall"), k,
                 scratch_path("seqpart"), k);
        CHECK(system(cmd) == 0, "frame %d of the part differs from the whole's", k);
    }
}

/* ---- provenance ------------------------------------------------------------------- */

TEST(outputs_carry_version_seed_resolved_settings_and_scene)
{
    const char *scene = scene_file("prov.yaml", "0.5s");
    char args[512], err[4096], text[16384];
    const char *mp4 = scratch_path("prov.mp4");
    snprintf(args, sizeof args, "render %s -o %s -q", scene, mp4);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    REQUIRE(test_video_tag(mp4, "comment", text, sizeof text) == 0, "no comment in %s", mp4);
    const char *want[] = {"murmur " MUR_VERSION_STRING "\n", "seed: 5\n", "frames requested: 0 to 11 of 12",
                          "model: wrkspc\n", "separation_radius:", "# scene file\n",
                          "trails: {length: 12, fade: true}\n"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        CHECK(strstr(text, want[i]) != NULL, "comment lacks '%s': %s", want[i], text);

    snprintf(args, sizeof args, "mkdir -p %s", scratch_path("provseq"));
    REQUIRE(system(args) == 0, "mkdir");
    snprintf(args, sizeof args, "render %s -o %s/img_%%02d.png -q", scene,
             scratch_path("provseq"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    char side[16384], path[512];
    snprintf(path, sizeof path, "%s/img.txt", scratch_path("provseq"));
    read_text(path, side, sizeof side);
    CHECK(strcmp(side, text) == 0, "%s differs from the video's comment:\n%s", path, side);

    /* an animated WebP: the same text, in its XMP chunk */
    const char *webp = scratch_path("prov.webp");
    snprintf(args, sizeof args, "render %s -o %s -q", scene, webp);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    CHECK(test_webp_provenance(webp, side, sizeof side) == 0, "no provenance read from %s", webp);
    CHECK(strcmp(side, text) == 0, "%s's provenance differs from the video's comment:\n%s", webp, side);
}

/* ---- interruption --------------------------------------------------------------------- */

/* Starts murmur with args (argv, NULL-terminated after the program name);
 * stderr goes to errpath. */
static pid_t spawn(const char *const *args, const char *errpath)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            dup2(fd, 2);
            close(fd);
        }
        execv(MURMUR_EXE, (char *const *)args);
        _exit(127);
    }
    return pid;
}

/* Polls until path has grown past the first size it showed above empty,
 * for at most 60 s; 0 when it did, -1 when murmur exited first or time ran
 * out. The file is made empty, then the container's header reaches the disk
 * before any frame (an MP4's 48 bytes at once): growth past that is frames.
 * Taking the empty file's size as the first would count the header as
 * frames whenever a poll fell between the two. */
static int wait_for_growth(pid_t pid, const char *path)
{
    struct timespec tick = {0, 5 * 1000 * 1000};
    long first = -1;
    for (int i = 0; i < 12000; i++) {
        long size = file_size(path);
        if (first < 0 && size > 0)
            first = size;
        if (first >= 0 && size > first)
            return 0;
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid)
            return -1;
        nanosleep(&tick, NULL);
    }
    return -1;
}

/* Polls until path exists, for at most 60 s; as wait_for_growth. */
static int wait_for_file(pid_t pid, const char *path)
{
    struct timespec tick = {0, 5 * 1000 * 1000};
    for (int i = 0; i < 12000; i++) {
        if (file_size(path) >= 0)
            return 0;
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid)
            return -1;
        nanosleep(&tick, NULL);
    }
    return -1;
}

/* The exit status, 1000 + the signal that ended it, or -1 (already reaped
 * by a wait_for_* that saw it exit). */
static int wait_exit(pid_t pid)
{
    int st = 0, r;
    while ((r = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
        ;
    if (r < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 1000 + WTERMSIG(st) : -1;
}

/* The frame count murmur reports in "holds the N frames rendered", or -1. */
static long reported_frames(const char *err)
{
    const char *p = strstr(err, "holds the ");
    return p ? strtol(p + 10, NULL, 10) : -1;
}

/* The render would take 1,440 frames; the signal comes once frames are on
 * disk (mp4: the temporary file has grown past its first buffer). */
TEST(sigint_leaves_a_playable_file_of_every_frame_rendered)
{
    const char *scene = scene_file("long.yaml", "60s");
    const char *formats[] = {"int.mp4", "int.webm", "intseq/%05d.png"};
    for (int i = 0; i < 3; i++) {
        char out[512], tmp[600], errpath[512], err[4096], probe[600];
        snprintf(out, sizeof out, "%s", scratch_path(formats[i]));
        snprintf(errpath, sizeof errpath, "%s", scratch_path("int.err"));
        if (i == 2) {
            snprintf(tmp, sizeof tmp, "mkdir -p %s", scratch_path("intseq"));
            REQUIRE(system(tmp) == 0, "mkdir");
        }
        const char *args[] = {"murmur", "render", scene, "-o", out, "-q", NULL};
        pid_t pid = spawn(args, errpath);
        REQUIRE(pid > 0, "fork failed");
        if (i < 2)
            snprintf(tmp, sizeof tmp, "%s/.%s.part.%ld", scratch(), formats[i], (long)pid);
        else
            snprintf(tmp, sizeof tmp, "%s/intseq/00002.png", scratch());
        /* a sequence's frame exists only whole: its appearance is enough */
        int seen = i < 2 ? wait_for_growth(pid, tmp) : wait_for_file(pid, tmp);
        CHECK(seen == 0, "%s: %s never appeared", formats[i], tmp);
        kill(pid, SIGINT);
        int st = wait_exit(pid);
        read_text(errpath, err, sizeof err);
        CHECK(st == 130, "%s: exit %d, want 130: %s", formats[i], st, err);
        long n = reported_frames(err);
        CHECK(n > 0 && n < 1440, "%s: reported %ld frames: %s", formats[i], n, err);
        test_video_info info;
        snprintf(probe, sizeof probe, "%s", out);
        CHECK(test_video_probe(probe, &info) == 0, "%s: not decodable", formats[i]);
        CHECK(info.frames == n, "%s: %d frames decoded, murmur reported %ld", formats[i],
              info.frames, n);
        if (i < 2)
            CHECK(!exists(tmp), "%s: temporary file left", formats[i]);
    }
}

TEST(kill_9_leaves_nothing_at_the_final_name)
{
    const char *scene = scene_file("killed.yaml", "60s");
    const char *out = scratch_path("killed.mp4");
    char tmp[600];
    const char *args[] = {"murmur", "render", scene, "-o", out, "-q", NULL};
    pid_t pid = spawn(args, scratch_path("killed.err"));
    REQUIRE(pid > 0, "fork failed");
    snprintf(tmp, sizeof tmp, "%s/.killed.mp4.part.%ld", scratch(), (long)pid);
    CHECK(wait_for_growth(pid, tmp) == 0, "%s never grew", tmp);
    kill(pid, SIGKILL);
    CHECK(wait_exit(pid) == 1000 + SIGKILL, "murmur was not killed");
    CHECK(!exists(out), "%s exists after kill -9", out);
    CHECK(exists(tmp), "the temporary file is what remains");
    remove(tmp);
}

/* ---- failures ---------------------------------------------------------------------------- */

/* Runs `murmur ARGS` under sh with a setup prefix (NULL: none), stderr
 * captured into err; the exit status. */
static int murmur_sh(const char *prefix, const char *args, char *err, size_t n)
{
    char cmd[2048];
    const char *errfile = scratch_path("sh.err");
    snprintf(cmd, sizeof cmd, "sh -c '%s%sexec %s %s' >/dev/null 2>%s", prefix ? prefix : "",
             prefix ? "; " : "", MURMUR_EXE, args, errfile);
    int st = system(cmd);
    read_text(errfile, err, n);
    return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

/* One line on stderr, naming the cause; exit 1; nothing left in dir. */
static void expect_failure(const char *what, const char *prefix, const char *args,
                           const char *dir, const char *cause)
{
    char err[4096];
    int st = murmur_sh(prefix, args, err, sizeof err);
    CHECK(st == 1, "%s: exit %d, want 1: %s", what, st, err);
    CHECK(strstr(err, cause) != NULL, "%s: stderr lacks '%s': %s", what, cause, err);
    char *nl = strchr(err, '\n');
    CHECK(nl && nl[1] == '\0', "%s: not one line: %s", what, err);
    if (dir) {
        char ls[512];
        snprintf(ls, sizeof ls, "test -z \"$(ls -A %s)\"", dir);
        CHECK(system(ls) == 0, "%s: files left in %s", what, dir);
    }
}

TEST(failures_are_one_line_exit_1_and_leave_nothing)
{
    const char *scene = scene_file("fail.yaml", "0.5s");
    char args[1024];
    snprintf(args, sizeof args, "render %s -o %s/missing/x.mp4 -q", scene, scratch());
    expect_failure("missing folder", NULL, args, NULL, "No such file or directory");

    write_file(scratch_path("plainfile"), "x");
    snprintf(args, sizeof args, "render %s -o %s/x.webm -q", scene, scratch_path("plainfile"));
    expect_failure("folder is a file", NULL, args, NULL, "Not a directory");

    /* A full disk: a file size limit makes writes fail as ENOSPC would,
     * with EFBIG (and SIGXFSZ ignored, so the write reports it rather than
     * the signal killing murmur). */
    const char *formats[] = {"full.mp4", "full.gif", "%05d.png"};
    char dir[512];
    snprintf(dir, sizeof dir, "%s", scratch_path("fulldir"));
    REQUIRE(mkdir(dir, 0700) == 0 || errno == EEXIST, "mkdir %s", dir);
    for (int i = 0; i < 3; i++) {
        snprintf(args, sizeof args, "render %s -o %s/%s -q", scene, dir, formats[i]);
        expect_failure(formats[i], "trap \"\" XFSZ; ulimit -f 2", args, dir, "File too large");
    }
}

/* ---- progress ------------------------------------------------------------------------------ */

/* On a terminal (script(1) gives murmur a pty) the progress line shows
 * frames done/total, fps, ETA and the output size; -q silences it. */
TEST(progress_shows_on_a_terminal_and_q_silences_it)
{
    const char *scene = scene_file("progress.yaml", "0.5s");
    char cmd[1024], text[8192];
    const char *log = scratch_path("progress.log");
    snprintf(cmd, sizeof cmd, "script -qec '%s render %s -o %s' %s >/dev/null 2>&1", MURMUR_EXE,
             scene, scratch_path("progress.mp4"), log);
    REQUIRE(system(cmd) == 0, "render under script failed");
    read_text(log, text, sizeof text);
    CHECK(strstr(text, "12/12 frames") != NULL, "no done/total: %s", text);
    CHECK(strstr(text, " fps") && strstr(text, "ETA "), "no fps or ETA: %s", text);
    CHECK(strstr(text, " kB") || strstr(text, " MB"), "no output size: %s", text);

    snprintf(cmd, sizeof cmd, "script -qec '%s render %s -o %s -q' %s >/dev/null 2>&1",
             MURMUR_EXE, scene, scratch_path("progress.mp4"), log);
    REQUIRE(system(cmd) == 0, "quiet render under script failed");
    read_text(log, text, sizeof text);
    CHECK(strstr(text, "frames") == NULL && strstr(text, "ETA") == NULL, "-q printed: %s", text);
}

/* ---- memory ------------------------------------------------------------------------------- */

#if !defined(__SANITIZE_ADDRESS__)
/* Peak resident memory (kB) of `murmur render SCENE -o out -q --to T`; -1
 * when it fails. */
static long render_peak_kb(const char *scene, const char *out, const char *to)
{
    char errpath[512];
    snprintf(errpath, sizeof errpath, "%s", scratch_path("mem.err"));
    const char *args[] = {"murmur", "render", scene, "-o",         out, "-q",
                          "--to",   to,       "--preset", "ultrafast", NULL};
    pid_t pid = spawn(args, errpath);
    int st;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return -1;
    return ru.ru_maxrss;
}
#endif

/* However long the render, memory stays flat: the queue is bounded, and a
 * GIF's first pass keeps a histogram while its second decodes one frame at
 * a time. Both renders pass a segment boundary (every 2 s a fresh encoder,
 * stream.c), where the heap takes one step up the first time (glibc keeps
 * what the first encoder freed in its threads' arenas) and none after.
 * Four times the frames may not cost a tenth more memory (at
 * 640x428 holding the frames would add 100 MB; a dithering paletteuse once
 * grew by about a frame per frame). x264 runs ultrafast: no lookahead to
 * fill, which would make the first second the smaller by its own buffers.
 * Under AddressSanitizer freed memory sits in quarantine and the figures
 * mean nothing. */
TEST(memory_stays_flat_however_long_the_render)
{
#if defined(__SANITIZE_ADDRESS__)
    SKIP("under AddressSanitizer its quarantine holds freed memory");
#else
    const char *scene = scratch_path("mem.yaml");
    write_file(scene, "seed: 7\n"
                      "model: wrkspc\n"
                      "flock: {count: 160}\n"
                      "video: {width: 640, height: 428, fps: 30, duration: 10s}\n"
                      "look: {boid: {shape: arrow, size: 7, color: heading}}\n");
    char scene_copy[256];
    snprintf(scene_copy, sizeof scene_copy, "%s", scene);
    const char *outs[] = {"mem.gif", "mem.mp4"};
    for (int i = 0; i < 2; i++) {
        char out[512];
        snprintf(out, sizeof out, "%s", scratch_path(outs[i]));
        long brief = render_peak_kb(scene_copy, out, "2.5s");
        long longer = render_peak_kb(scene_copy, out, "10s");
        CHECK(brief > 0 && longer > 0, "%s: render failed", outs[i]);
        CHECK(longer < brief + brief / 10, "%s: peak %ld kB for 10 s, %ld kB for 2.5 s", outs[i],
              longer, brief);
    }
#endif
}
