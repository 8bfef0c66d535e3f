/* Chunked renders (issue 13.3): `murmur render --chunk K/N` and `murmur
 * join`. The promise is that the join of every chunk decodes to exactly
 * the frames of a whole render (ffmpeg's framemd5, a reader that is not
 * murmur's), for .mp4, .webm, .mov and .gif, with the trails, plots and
 * fades of the scene carried across each cut; that chunks are cut on the
 * 2 s segments every video is encoded in; and that every bad chunk or
 * chunk option is refused with exit status 2, one line, nothing written.
 * Scenes are small and short (160x120 at 10 fps: a segment is 20 frames). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_util.h"
#include "decode.h"
#include "harness.h"
#include "murmur/video.h"

/* Trails, a plot, a fade-in, a fade-out and two chapters: what a cut must
 * not break. 6 s at 10 fps: 60 frames, 3 segments of 20. */
static const char *scene_text(const char *output, int seed, const char *background)
{
    static char text[1200];
    snprintf(text, sizeof text,
             "seed: %d\nmodel: wrkspc\nworld: {width: 320, height: 240, boundary: wrap}\n"
             "flock: {count: 60}\n"
             "video: {width: 160, height: 120, fps: 10, duration: 6s, output: %s}\n"
             "look:\n  background: \"%s\"\n  boid: {shape: arrow, size: 5, color: heading}\n"
             "  trails: {length: 30, fade: true}\n"
             "  overlays:\n    - plot: {metric: order, window: 4s, corner: top-right}\n"
             "timeline:\n"
             "  - at: 0s\n    chapter: \"Forming\"\n    event: fade-in\n    over: 1s\n"
             "  - at: 1s\n    chapter: \"Flocking\"\n"
             "  - at: 5s\n    event: fade-out\n    over: 1s\n",
             seed, output, background);
    return text;
}

/* The scene file in the scratch folder, writing to out; its path lives
 * in a ring of 4 of its own (scratch_path's rotates with every murmur()). */
static const char *scene(const char *name, const char *out, int seed)
{
    static char ring[4][256];
    static int next;
    char *path = ring[next++ % 4];
    snprintf(path, sizeof ring[0], "%s", scratch_path(name));
    write_file(path, scene_text(out, seed, "#0b0d0f"));
    return path;
}

/* ffmpeg's framemd5 of a video (the decoded frames, one line each); NULL
 * when ffmpeg fails. Caller frees. */
static char *framemd5_with(const char *decoder, const char *path)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "ffmpeg -nostdin -v error %s%s -i '%s' -map 0:v -f framemd5 - 2>&1",
             decoder ? "-c:v " : "", decoder ? decoder : "", path);
    char *out = malloc(1 << 16);
    if (!out)
        return NULL;
    if (run_tool_output(cmd, out, 1 << 16) != 0 || !strstr(out, "#tb")) {
        fprintf(stderr, "  ffmpeg on %s: %.300s\n", path, out);
        free(out);
        return NULL;
    }
    return out;
}

static char *framemd5(const char *path)
{
    return framemd5_with(NULL, path);
}

static int frame_lines(const char *md5)
{
    int n = 0;
    for (const char *p = md5; (p = strchr(p, '\n')); p++)
        n += p[1] && p[1] != '#';
    return n;
}

/* 1 when the two files hold the same bytes. */
static int same_bytes(const char *a, const char *b)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", a, b);
    return system(cmd) == 0;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Files in dir whose names start with prefix (temporaries: ".x.part."). */
static int count_named(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += !strncmp(e->d_name, prefix, strlen(prefix));
    if (d)
        closedir(d);
    return n;
}

/* Renders the scene whole to whole.EXT and in n chunks to c1.EXT ...,
 * joins them given in reverse order into joined.EXT; 0 when every step
 * exits 0. Paths under the scratch folder, prefixed by tag. */
static int whole_and_joined(const char *scn, const char *tag, const char *ext, int n)
{
    char args[1400], err[1024];
    snprintf(args, sizeof args, "render %s -q -o %s/%s-whole.%s", scn, scratch(), tag, ext);
    if (murmur(args, err, sizeof err) != 0) {
        fprintf(stderr, "  %s: %s\n", args, err);
        return -1;
    }
    size_t k = (size_t)snprintf(args, sizeof args, "join -q -o %s/%s-joined.%s", scratch(), tag, ext);
    for (int i = n; i >= 1; i--) {
        char one[1024];
        snprintf(one, sizeof one, "render %s -q --chunk %d/%d -o %s/%s-c%d.%s", scn, i, n, scratch(),
                 tag, i, ext);
        if (murmur(one, err, sizeof err) != 0) {
            fprintf(stderr, "  %s: %s\n", one, err);
            return -1;
        }
        k += (size_t)snprintf(args + k, sizeof args - k, " %s/%s-c%d.%s", scratch(), tag, i, ext);
    }
    if (murmur(args, err, sizeof err) != 0) {
        fprintf(stderr, "  %s: %s\n", args, err);
        return -1;
    }
    return 0;
}

/* Whole and joined decode to the same frames, all `frames` of them. */
static void check_same_frames(const char *tag, const char *ext, int frames)
{
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/%s-whole.%s", scratch(), tag, ext);
    snprintf(b, sizeof b, "%s/%s-joined.%s", scratch(), tag, ext);
    char *ma = framemd5(a), *mb = framemd5(b);
    CHECK(ma && mb && !strcmp(ma, mb), "%s: the joined file's framemd5 differs from the whole render's",
          ext);
    CHECK(ma && frame_lines(ma) == frames, "%s: %d frames, want %d", ext, ma ? frame_lines(ma) : -1,
          frames);
    free(ma);
    free(mb);
}

/* ---- where chunks are cut ----------------------------------------------------- */

TEST(chunks_are_runs_of_whole_segments_dealt_out_as_evenly_as_possible)
{
    mur_error err;
    CHECK(mur_video_segment_frames(30) == 60 && mur_video_segment_frames(10) == 20,
          "a segment is 2 s of frames");
    /* 290 frames at 30 fps: 5 segments, the last 50 frames; cut in 1 to 5 */
    for (int n = 1; n <= 5; n++) {
        long next = 0, least = 1000, most = 0;
        for (int k = 1; k <= n; k++) {
            long first = -1, count = -1;
            REQUIRE(mur_video_chunk_frames(290, 30, k, n, &first, &count, &err) == 0, "%d/%d: %s", k,
                    n, err.msg);
            CHECK(first == next, "chunk %d/%d starts at %ld, want %ld", k, n, first, next);
            CHECK(first % 60 == 0, "chunk %d/%d starts inside a segment (%ld)", k, n, first);
            long segs = (count + 59) / 60;
            least = segs < least ? segs : least;
            most = segs > most ? segs : most;
            next = first + count;
        }
        CHECK(next == 290, "%d chunks cover %ld frames, want 290", n, next);
        CHECK(most - least <= 1, "%d chunks: %ld to %ld segments each", n, least, most);
    }
    long first, count;
    CHECK(mur_video_chunk_frames(290, 30, 1, 6, &first, &count, &err) == MUR_EINPUT &&
              strstr(err.msg, "at most 5"),
          "6 chunks of 5 segments: %s", err.msg);
    CHECK(mur_video_chunk_frames(290, 30, 0, 3, &first, &count, &err) == MUR_EINPUT, "chunk 0");
    CHECK(mur_video_chunk_frames(290, 30, 4, 3, &first, &count, &err) == MUR_EINPUT, "chunk 4 of 3");
}

/* Every chunk starts with a keyframe, and so does every segment of a whole
 * render: each is a fresh encoder's first frame. */
TEST(every_segment_of_a_render_starts_with_a_keyframe)
{
    const char *scn = scene("keys.yaml", scratch_path("keys.mp4"), 3);
    char args[512], err[1024];
    snprintf(args, sizeof args, "render %s -q", scn);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    char cmd[1024], out[4096];
    snprintf(cmd, sizeof cmd,
             "ffprobe -v error -select_streams v -show_entries packet=pts,flags -of csv=p=0 '%s' | "
             "awk -F, '$2 ~ /K/ {print $1}' | tr '\\n' ' '",
             scratch_path("keys.mp4"));
    REQUIRE(run_tool_output(cmd, out, sizeof out) == 0, "ffprobe failed");
    /* pts in 1/10240 s (the MP4 muxer's time base for 10 fps): 0, 2 s, 4 s;
     * x264 may add its own at a cut in the picture (the fades) */
    CHECK(!strncmp(out, "0 ", 2) && strstr(out, " 20480 ") && strstr(out, " 40960 "),
          "keyframes at %s, want at 0, 2 s and 4 s", out);
    /* decode times rise packet by packet across the segments' joins, and
     * no frame is shown before it is decoded */
    snprintf(cmd, sizeof cmd,
             "ffprobe -v error -select_streams v -show_entries packet=pts,dts -of csv=p=0 '%s' | "
             "awk -F, 'NR > 1 && $2 <= d {bad++} $1 < $2 {bad++} {d = $2; n++} "
             "END {print n, bad + 0}'",
             scratch_path("keys.mp4"));
    REQUIRE(run_tool_output(cmd, out, sizeof out) == 0, "ffprobe failed");
    CHECK(!strcmp(out, "60 0\n"), "packets, and dts out of order or after pts: %s", out);
}

/* ---- whole = join of chunks ------------------------------------------------------ */

TEST(joined_mp4_is_the_whole_render_frame_for_frame_and_byte_for_byte)
{
    const char *scn = scene("mp4.yaml", scratch_path("unused.mp4"), 3);
    REQUIRE(whole_and_joined(scn, "mp4", "mp4", 3) == 0, "render or join failed");
    check_same_frames("mp4", "mp4", 60);
    /* the packets are the same, and so is the rest: chapters joined across
     * the cuts, the whole render's provenance, +faststart's layout */
    CHECK(same_bytes(scratch_path("mp4-whole.mp4"), scratch_path("mp4-joined.mp4")),
          "the joined .mp4 differs from the whole render's bytes");
    char whole[8192], part[8192];
    REQUIRE(test_video_tag(scratch_path("mp4-whole.mp4"), "comment", whole, sizeof whole) == 0 &&
                test_video_tag(scratch_path("mp4-c2.mp4"), "comment", part, sizeof part) == 0,
            "no provenance");
    CHECK(!strncmp(part, "chunk: 2 of 3, frames 20 to 39\n", 31) && !strcmp(part + 31, whole),
          "a chunk's provenance is its chunk line, then the whole render's: %.60s", part);
}

TEST(joined_webm_and_mov_decode_to_the_whole_renders_frames)
{
    const char *scn = scene("wm.yaml", scratch_path("unused.mp4"), 3);
    REQUIRE(whole_and_joined(scn, "webm", "webm", 2) == 0, "webm: render or join failed");
    check_same_frames("webm", "webm", 60);
    REQUIRE(whole_and_joined(scn, "mov", "mov", 2) == 0, "mov: render or join failed");
    check_same_frames("mov", "mov", 60);
}

/* Translucent frames keep their alpha through the join: ProRes 4444 (the
 * same bytes) and VP9 with alpha (libvpx decodes the alpha plane; ffmpeg's
 * own VP9 decoder would drop it). */
TEST(joined_translucent_videos_keep_their_alpha)
{
    char path[256];   /* scratch_path's buffers rotate */
    snprintf(path, sizeof path, "%s", scratch_path("alpha.yaml"));
    /* half transparent */
    const char *text = scene_text(scratch_path("unused.mov"), 3, "#0b0d0f80");
    write_file(path, text);
    REQUIRE(whole_and_joined(path, "amov", "mov", 2) == 0, "mov: render or join failed");
    check_same_frames("amov", "mov", 60);
    CHECK(same_bytes(scratch_path("amov-whole.mov"), scratch_path("amov-joined.mov")),
          "the joined ProRes 4444 differs from the whole render's bytes");
    REQUIRE(whole_and_joined(path, "awebm", "webm", 2) == 0, "webm: render or join failed");
    char *a = framemd5_with("libvpx-vp9", scratch_path("awebm-whole.webm"));
    char *b = framemd5_with("libvpx-vp9", scratch_path("awebm-joined.webm"));
    CHECK(a && b && !strcmp(a, b) && frame_lines(a) == 60,
          "the joined VP9 with alpha decodes to other frames than the whole render's");
    CHECK(a && strstr(a, "#dimensions"), "no framemd5");
    free(a);
    free(b);
}

/* A GIF's palette is the whole video's: its chunks keep their frames
 * losslessly and join makes the very GIF a whole render makes. */
TEST(joined_gif_is_the_whole_renders_gif)
{
    const char *scn = scene("gif.yaml", scratch_path("unused.mp4"), 3);
    REQUIRE(whole_and_joined(scn, "gif", "gif", 3) == 0, "render or join failed");
    check_same_frames("gif", "gif", 60);
    CHECK(same_bytes(scratch_path("gif-whole.gif"), scratch_path("gif-joined.gif")),
          "the joined .gif differs from the whole render's bytes");
    test_video_info info;
    CHECK(test_video_probe(scratch_path("gif-c2.gif"), &info) == 0 && !strcmp(info.codec, "qtrle") &&
              info.frames == 20,
          "a .gif chunk holds its 20 frames as QuickTime Animation (%s, %d)", info.codec, info.frames);
}

/* The frames a chunk draws are the whole render's drawn frames, trails,
 * plot and fades carried across the cut: the lossless .gif chunk against
 * the PNGs of a whole render. */
TEST(a_chunk_draws_the_whole_renders_frames)
{
    const char *scn = scene("drawn.yaml", scratch_path("unused.mp4"), 5);
    char args[1024], err[1024];
    snprintf(args, sizeof args, "render %s -q -o %s/drawn/%%05d.png", scn, scratch());
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    snprintf(args, sizeof args, "render %s -q --chunk 2/3 -o %s/drawn-c2.gif", scn, scratch());
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    char seq[512];
    snprintf(seq, sizeof seq, "%s/drawn/%%05d.png", scratch());
    uint64_t whole = test_video_hash_range(seq, 20, 20), chunk = test_video_hash(scratch_path("drawn-c2.gif"));
    CHECK(whole && whole == chunk, "chunk 2 of 3 draws other frames than the whole render's 20..39");
}

/* The default name is what `murmur plan` writes and join's glob reads. */
TEST(a_chunk_without_o_is_named_after_the_scenes_output)
{
    char dir[128], out[600];
    snprintf(dir, sizeof dir, "%s/named", scratch());
    mkdir(dir, 0777);
    snprintf(out, sizeof out, "%s/talk.mp4", dir);
    const char *scn = scene("named.yaml", out, 3);
    char args[1024], err[1024];
    snprintf(args, sizeof args, "render %s --chunk 3/3", scn);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    snprintf(out, sizeof out, "%s/talk.chunk-3-of-3.mp4", dir);
    CHECK(exists(out), "no %s", out);
    CHECK(strstr(err, "talk.chunk-3-of-3.mp4 (20 frames)"), "says: %s", err);
}

/* GNU parallel runs the chunks as a cluster's engine would; the join of
 * what it made is the whole render. */
TEST(chunks_rendered_by_gnu_parallel_join_into_the_whole_render)
{
    char dir[128];
    snprintf(dir, sizeof dir, "%s/par", scratch());
    mkdir(dir, 0777);
    char out[600];
    snprintf(out, sizeof out, "%s/flock.mp4", dir);
    const char *scn = scene("par.yaml", out, 9);
    char cmd[4096], log[4096];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && parallel --will-cite --halt now,fail=1 -j 3 '%s' render '%s' -q "
             "--chunk {}/3 ::: 1 2 3 2>&1 && '%s' join -q flock.chunk-*-of-3.mp4 -o joined.mp4 2>&1 && "
             "'%s' render '%s' -q 2>&1",
             dir, MURMUR_EXE, scn, MURMUR_EXE, MURMUR_EXE, scn);
    REQUIRE(run_tool_output(cmd, log, sizeof log) == 0, "parallel, join or render failed: %s", log);
    char joined[600];
    snprintf(joined, sizeof joined, "%s/joined.mp4", dir);
    char *a = framemd5(out), *b = framemd5(joined);
    CHECK(a && b && !strcmp(a, b) && frame_lines(a) == 60,
          "the join of parallel's chunks differs from the whole render");
    free(a);
    free(b);
}

/* ---- refusals ------------------------------------------------------------------------- */

/* murmur ARGS exits 2 with one line on stderr containing want. */
static void refused(const char *args, const char *want)
{
    char err[2048];
    int st = murmur(args, err, sizeof err);
    CHECK(st == 2, "%s: exit %d, want 2 (%s)", args, st, err);
    char *nl = strchr(err, '\n');
    CHECK(nl && !nl[1], "%s: not one line: %s", args, err);
    CHECK(strstr(err, want), "%s: says '%s', not '%s'", args, err, want);
}

TEST(bad_chunk_options_are_refused_in_one_line)
{
    const char *scn = scene("bad.yaml", scratch_path("bad.mp4"), 3);
    char args[1400];
    const struct {
        const char *opt, *want;
    } cases[] = {
        {"--chunk 5/4", "1 <= K <= N"},
        {"--chunk 0/0", "1 <= K <= N"},
        {"--chunk 0/3", "chunks count from 1"},
        {"--chunk 2", "K/N"},
        {"--chunk 1/4", "at most 3"},   /* 3 segments */
        {"--chunk 1/2 --subtitles", "no --subtitles"},
        {"--chunk 1/2 -o SCRATCH/seq/%05d.png", "not a PNG sequence"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char opt[512];
        const char *at = strstr(cases[i].opt, "SCRATCH");
        if (at)
            snprintf(opt, sizeof opt, "%.*s%s%s", (int)(at - cases[i].opt), cases[i].opt, scratch(),
                     at + 7);
        else
            snprintf(opt, sizeof opt, "%s", cases[i].opt);
        snprintf(args, sizeof args, "render %s -q %s", scn, opt);
        refused(args, cases[i].want);
    }
    snprintf(args, sizeof args, "still %s --at 1s --chunk 1/2 -o %s", scn, scratch_path("s.png"));
    char err[1024];
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "--chunk does not apply to 'still'"),
          "--chunk on a still: %s", err);
    CHECK(!exists(scratch_path("bad.mp4")) && !exists(scratch_path("s.png")) &&
              !exists(scratch_path("seq")),
          "something was written");
}

TEST(join_refuses_chunks_that_do_not_make_one_render)
{
    char dir[128];
    snprintf(dir, sizeof dir, "%s/ref", scratch());
    mkdir(dir, 0777);
    char out[256], other[256];
    snprintf(out, sizeof out, "%s/a.mp4", dir);
    snprintf(other, sizeof other, "%s/b.mp4", dir);
    const char *scn = scene("ref-a.yaml", out, 3);
    char scn_a[256];
    snprintf(scn_a, sizeof scn_a, "%s", scn);
    const char *scn_b = scene("ref-b.yaml", other, 4);   /* another seed */
    char args[1400], err[1024];
    const char *renders[] = {"%s --chunk 1/3", "%s --chunk 2/3", "%s --chunk 3/3",
                             "%s --chunk 2/3 --size 120x90 -o %s/small.mp4",
                             "%s --chunk 2/3 -o %s/vp9.webm", "%s -o %s/whole.mp4"};
    for (size_t i = 0; i < sizeof renders / sizeof renders[0]; i++) {
        char r[1024];
        snprintf(r, sizeof r, renders[i], scn_a, dir);
        snprintf(args, sizeof args, "render %s -q", r);
        REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    }
    snprintf(args, sizeof args, "render %s -q --chunk 2/3", scn_b);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    /* a copy of chunk 2 cut short, as a killed copy leaves it */
    snprintf(args, sizeof args, "head -c 40000 %s/a.chunk-2-of-3.mp4 > %s/cut.mp4", dir, dir);
    REQUIRE(system(args) == 0, "head failed");

    const struct {
        const char *parts, *want;
    } cases[] = {
        {"a.chunk-1-of-3.mp4 a.chunk-3-of-3.mp4", "chunk 2 of 3 is missing"},
        {"a.chunk-1-of-3.mp4 a.chunk-2-of-3.mp4 a.chunk-2-of-3.mp4 a.chunk-3-of-3.mp4",
         "are both chunk 2 of 3"},
        {"a.chunk-1-of-3.mp4 small.mp4 a.chunk-3-of-3.mp4", "small.mp4' is 120x90"},
        {"a.chunk-1-of-3.mp4 vp9.webm a.chunk-3-of-3.mp4", "vp9.webm' holds"},
        {"a.chunk-1-of-3.mp4 b.chunk-2-of-3.mp4 a.chunk-3-of-3.mp4", "another render"},
        {"a.chunk-1-of-3.mp4 cut.mp4 a.chunk-3-of-3.mp4", "cut.mp4' is truncated"},
        {"a.chunk-1-of-3.mp4 whole.mp4 a.chunk-3-of-3.mp4", "whole.mp4' is not a chunk"},
        {"a.chunk-1-of-3.mp4 gone.mp4", "gone.mp4"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char parts[1000] = "";
        size_t n = 0;
        char list[512];
        snprintf(list, sizeof list, "%s", cases[i].parts);
        for (char *p = strtok(list, " "); p; p = strtok(NULL, " "))
            n += (size_t)snprintf(parts + n, sizeof parts - n, " %s/%s", dir, p);
        snprintf(args, sizeof args, "join%s -o %s/joined.mp4", parts, dir);
        refused(args, cases[i].want);
        CHECK(!exists(scratch_path("ref/joined.mp4")), "%s: a file was written", cases[i].parts);
    }
    /* the library's line names no program; the CLI says it as every
     * command says an error, "murmur: error: 'x' is ..." */
    char err2[1024];
    snprintf(args, sizeof args, "join %s/a.chunk-1-of-3.mp4 %s/cut.mp4 %s/a.chunk-3-of-3.mp4 -o %s/joined.mp4",
             dir, dir, dir, dir);
    CHECK(murmur(args, err2, sizeof err2) == 2 && !strncmp(err2, "murmur: error: '", 16), "says: %s", err2);
    snprintf(args, sizeof args, "join %s/a.chunk-1-of-3.mp4 -o %s/joined.avi", dir, dir);
    CHECK(murmur(args, err2, sizeof err2) == 2 && !strncmp(err2, "murmur: error: unsupported output format", 40),
          "an output's format is refused as every command refuses it: %s", err2);
    char p1[256], p3[256];
    snprintf(p1, sizeof p1, "%s/a.chunk-1-of-3.mp4", dir);
    snprintf(p3, sizeof p3, "%s/a.chunk-3-of-3.mp4", dir);
    const char *two[] = {p1, p3};
    mur_error why = {{0}};
    CHECK(mur_video_join(scratch_path("ref/joined.mp4"), two, 2, NULL, NULL, &why) == MUR_EINPUT &&
              !strcmp(why.msg, "chunk 2 of 3 is missing (2 given)"),
          "the library's line: %s", why.msg);
    /* the chunks of an .mp4 make an .mp4, not a .webm */
    snprintf(args, sizeof args, "join %s/a.chunk-1-of-3.mp4 %s/a.chunk-2-of-3.mp4 %s/a.chunk-3-of-3.mp4 -o %s/j.webm",
             dir, dir, dir, dir);
    refused(args, "join chunks into their own format");
    CHECK(count_named(dir, ".joined") == 0 && count_named(dir, ".j.webm") == 0 && !exists(scratch_path("ref/j.webm")),
          "a temporary file was left");
}

/* A join stopped (Ctrl-C sets the flag) writes nothing: the GIF's writer
 * and the stream copy both poll it. */
TEST(a_stopped_join_writes_nothing)
{
    char dir[128];
    snprintf(dir, sizeof dir, "%s/stop", scratch());
    mkdir(dir, 0777);
    char out[256];
    snprintf(out, sizeof out, "%s/s.gif", dir);
    const char *scn = scene("stop.yaml", out, 3);
    char args[1400], err[1024];
    for (int k = 1; k <= 2; k++) {
        snprintf(args, sizeof args, "render %s -q --chunk %d/2", scn, k);
        REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    }
    const char *exts[] = {"gif", "mp4"};
    for (int e = 0; e < 2; e++) {
        char a[256], b[256], joined[256];
        if (e == 1) {   /* .mp4 chunks too */
            for (int k = 1; k <= 2; k++) {
                snprintf(args, sizeof args, "render %s -q --chunk %d/2 -o %s/s.chunk-%d-of-2.mp4", scn,
                         k, dir, k);
                REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
            }
        }
        snprintf(a, sizeof a, "%s/s.chunk-1-of-2.%s", dir, exts[e]);
        snprintf(b, sizeof b, "%s/s.chunk-2-of-2.%s", dir, exts[e]);
        snprintf(joined, sizeof joined, "%s/joined.%s", dir, exts[e]);
        const char *parts[] = {b, a};
        volatile sig_atomic_t stop = 1;
        mur_error why = {{0}};
        CHECK(mur_video_join(joined, parts, 2, &stop, NULL, &why) == MUR_EINTR, "%s: not stopped: %s",
              exts[e], why.msg);
        CHECK(!exists(joined) && count_named(dir, ".joined") == 0, "%s: a stopped join left a file",
              exts[e]);
        stop = 0;
        mur_join_result res;
        CHECK(mur_video_join(joined, parts, 2, &stop, &res, &why) == 0 && res.parts == 2 &&
                  res.frames == 60,
              "%s: %s", exts[e], why.msg);
    }
}

/* ---- many parts ------------------------------------------------------------------------ */

/* A join holds a part open only while it reads it, so it joins more parts
 * than the open-file limit allows (often 1024; here 16, for 24 chunks; a
 * join needs 2 besides stdin, stdout and stderr): the same bytes as the
 * whole render, parts given in the shell's order (1, 10, 11, ..., 2, 20,
 * ...). One frame a second at 32x24 for 48 s: 24 segments of 2 frames,
 * one chunk each; two chapters, each cut into many chunks and joined. */
TEST(a_join_of_more_parts_than_the_open_file_limit_is_the_whole_render)
{
    char dir[128];
    snprintf(dir, sizeof dir, "%s/many", scratch());
    mkdir(dir, 0777);
    char scn[256], out[256];
    snprintf(scn, sizeof scn, "%s/m.yaml", dir);
    snprintf(out, sizeof out, "%s/m.mp4", dir);
    char text[600];
    snprintf(text, sizeof text,
             "seed: 3\nmodel: wrkspc\nworld: {width: 160, height: 120, boundary: wrap}\n"
             "flock: {count: 12}\n"
             "video: {width: 32, height: 24, fps: 1, duration: 48s, output: %s}\n"
             "timeline:\n  - at: 0s\n    chapter: \"One\"\n  - at: 17s\n    chapter: \"Two\"\n",
             out);
    write_file(scn, text);
    const char *exts[] = {"mp4", "gif"};   /* a stream copy, and decoding into the GIF writer */
    for (int e = 0; e < 2; e++) {
        const char *x = exts[e];
        char cmd[2048], log[4096];
        snprintf(cmd, sizeof cmd,
                 "cd '%s' && '%s' render m.yaml -q --threads 1 -o whole.%s 2>&1 && "
                 "for k in $(seq 24); do '%s' render m.yaml -q --threads 1 --chunk $k/24 "
                 "-o m.chunk-$k-of-24.%s 2>&1 || exit 1; done && "
                 "ulimit -n 16 && '%s' join -q m.chunk-*-of-24.%s -o joined.%s 2>&1",
                 dir, MURMUR_EXE, x, MURMUR_EXE, x, MURMUR_EXE, x, x);
        REQUIRE(run_tool_output(cmd, log, sizeof log) == 0, "%s: render or join failed: %s", x, log);
        char whole[256], joined[256];
        snprintf(whole, sizeof whole, "%s/whole.%s", dir, x);
        snprintf(joined, sizeof joined, "%s/joined.%s", dir, x);
        CHECK(same_bytes(whole, joined),
              "%s: the join of 24 chunks under 16 open files differs from the whole render", x);
        char *a = framemd5(joined);
        CHECK(a && frame_lines(a) == 48, "%s: %d frames, want 48", x, a ? frame_lines(a) : -1);
        free(a);
    }
}
