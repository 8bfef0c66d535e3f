/* The determinism matrix (DESIGN.md: same scene + seed => same frames on any
 * thread count): one small scene, rendered by the murmur binary to every
 * output format x --threads 1, 2, 4 x two runs, decodes to the same frames
 * (decode.h's hash over every decoded frame) within each format.
 *
 * --threads 1 is the path with no encoding thread (the caller converts and
 * encodes), 2 and 4 go through the queue; the flock steps on 1, 2 or 4
 * threads. The scene has trails, overlays and a caption so every drawing
 * path is in the frames, and is small (160x96, 12 frames) so the 30 renders
 * take a few seconds.
 *
 * The second run of each pair fills memory from malloc with a byte of its
 * own (glibc's MALLOC_PERTURB_), so a frame that depends on memory nobody
 * wrote (uninitialised padding handed to swscale or an encoder) differs
 * between the runs instead of passing by luck of a fresh heap. That is how
 * the .mp4 case failed while x264's macroblock tree was on (stream.c): on
 * a CPU with AVX-512 its frames followed the fill. */
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_util.h"
#include "decode.h"
#include "harness.h"

#define FRAMES 12   /* 0.5 s at 24 fps */

static const char *scene(void)
{
    static const char *path;
    if (!path) {
        path = strdup(scratch_path("matrix.yaml"));
        write_file(path, "seed: 9\n"
                         "model: wrkspc\n"
                         "world: {width: 240, height: 144, boundary: wrap}\n"
                         "flock: {count: 24, noise: 0.05}\n"
                         "video: {width: 160, height: 96, fps: 24, duration: 0.5s, quality: 20}\n"
                         "look:\n"
                         "  background: \"#0b0d0f\"\n"
                         "  boid: {shape: triangle, size: 6, color: heading}\n"
                         "  trails: {length: 8, fade: true}\n"
                         "  overlays:\n"
                         "    - clock\n"
                         "    - readout: [order]\n"
                         "timeline:\n"
                         "  - at: 0s\n"
                         "    caption: {text: \"same frames\", for: 1s}\n");
    }
    return path;
}

/* Renders the scene with --threads `threads` to a fresh output of kind ext
 * ("seq" = a PNG sequence in a folder of its own); the output's path (a
 * pattern for a sequence) goes to out. Returns murmur's exit status. */
static int render(const char *ext, int threads, int run, char *out, size_t n, char *err,
                  size_t errn)
{
    char name[64], args[1024];
    if (strcmp(ext, "seq") == 0) {
        snprintf(name, sizeof name, "seq-t%d-r%d", threads, run);
        mkdir(scratch_path(name), 0777);
        snprintf(out, n, "%s/%%05d.png", scratch_path(name));
    } else {
        snprintf(name, sizeof name, "t%d-r%d.%s", threads, run, ext);
        snprintf(out, n, "%s", scratch_path(name));
    }
    if (run)
        setenv("MALLOC_PERTURB_", threads == 1 ? "165" : "90", 1);
    snprintf(args, sizeof args, "render %s -o '%s' -q --threads %d", scene(), out, threads);
    int st = murmur(args, err, errn);
    unsetenv("MALLOC_PERTURB_");
    return st;
}

/* Removes a render: the file, or a sequence's frames, provenance and folder. */
static void discard(const char *ext, const char *out)
{
    char cmd[1200];
    if (strcmp(ext, "seq") == 0)
        snprintf(cmd, sizeof cmd, "rm -rf \"$(dirname '%s')\"", out);
    else
        snprintf(cmd, sizeof cmd, "rm -f '%s'", out);
    if (system(cmd) != 0)
        fprintf(stderr, "  (could not remove %s)\n", out);
}

static void matrix(const char *ext)
{
    static const int threads[] = {1, 2, 4};
    uint64_t want = 0;
    char first[600] = "";
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        for (int run = 0; run < 2; run++) {
            char out[600], err[4096];
            int st = render(ext, threads[i], run, out, sizeof out, err, sizeof err);
            CHECK(st == 0, "%s --threads %d run %d exited %d: %s", ext, threads[i], run + 1, st,
                  err);
            if (st != 0)
                continue;
            uint64_t h = test_video_hash_range(out, 0, FRAMES);
            CHECK(h != 0, "%s: cannot decode %d frames", out, FRAMES);
            if (!want) {
                want = h;
                snprintf(first, sizeof first, "%s", out);
                continue;   /* kept: the reference */
            }
            CHECK(h == want, "%s --threads %d run %d: frames hash %016llx, but %s gave %016llx",
                  ext, threads[i], run + 1, (unsigned long long)h, first,
                  (unsigned long long)want);
            discard(ext, out);
        }
    }
    if (first[0])
        discard(ext, first);
}

TEST(mp4_frames_are_the_same_for_any_threads_and_run) { matrix("mp4"); }
TEST(webm_frames_are_the_same_for_any_threads_and_run) { matrix("webm"); }
TEST(mov_frames_are_the_same_for_any_threads_and_run) { matrix("mov"); }
TEST(gif_frames_are_the_same_for_any_threads_and_run) { matrix("gif"); }
TEST(png_sequence_frames_are_the_same_for_any_threads_and_run) { matrix("seq"); }
