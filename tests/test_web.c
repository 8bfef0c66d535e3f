/* For the web page and the slides (issue 31): --loop makes a clip seamless
 * (its end crossfades into its start), checked on the decoded frames of
 * the GIF murmur writes. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "decode.h"
#include "harness.h"

#define LOOP_SCENE                                                                   \
    "seed: 3\nmodel: wrkspc\nworld: {width: 240, height: 160, boundary: wrap}\n"     \
    "flock: {count: 200, noise: 0.05}\nvideo: {width: 160, height: 108, fps: 50, ticks_per_second: 25, duration: 2s}\n" \
    "look: {background: \"#204060\", boid: {shape: arrow, size: 9, color: heading}, trails: {length: 8}}\n"

/* Mean absolute difference per channel between decoded frames a and b of path; -1 when unreadable. */
static double frame_diff(const char *path, int a, int b)
{
    uint8_t *pa = NULL, *pb = NULL;
    int w, h, w2, h2;
    if (test_video_frame_rgb(path, a, &pa, &w, &h) || test_video_frame_rgb(path, b, &pb, &w2, &h2) || w != w2 ||
        h != h2) {
        free(pa);
        free(pb);
        return -1;
    }
    /* on 4 x 4 block means: a GIF's dither is noise of its own in every pixel */
    double sum = 0;
    long blocks = 0;
    for (int by = 0; by + 4 <= h; by += 4)
        for (int bx = 0; bx + 4 <= w; bx += 4)
            for (int c = 0; c < 3; c++) {
                double d = 0;
                for (int y = by; y < by + 4; y++)
                    for (int x = bx; x < bx + 4; x++)
                        d += pa[3 * ((long)y * w + x) + c] - pb[3 * ((long)y * w + x) + c];
                sum += fabs(d / 16);
                blocks++;
            }
    free(pa);
    free(pb);
    return sum / (double)blocks;
}

TEST(a_looped_gifs_last_frame_leads_into_its_first)
{
    write_file(scratch_path("loop.yaml"), LOOP_SCENE);
    char args[1024], err[4096], gif[256], plain[256];
    snprintf(gif, sizeof gif, "%s", scratch_path("loop.gif"));
    snprintf(plain, sizeof plain, "%s", scratch_path("plain.gif"));
    snprintf(args, sizeof args, "render %s --loop 0.5s -o %s -q", scratch_path("loop.yaml"), gif);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    snprintf(args, sizeof args, "render %s -o %s -q", scratch_path("loop.yaml"), plain);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    test_video_info info;
    REQUIRE(test_video_probe(gif, &info) == 0, "probe");
    CHECK(info.frames == 100 - 25, "%d frames, want 100 - 25 (the loop's 0.5 s at 50 fps)", info.frames);
    int n = info.frames;
    double worst = 0;   /* the largest step between neighbouring frames */
    for (int k = 0; k + 1 < n; k++)
        worst = fmax(worst, frame_diff(gif, k, k + 1));
    double wrap = frame_diff(gif, n - 1, 0), jump = frame_diff(plain, 99, 0);
    fprintf(stderr, "  last to first %.2f, neighbours at most %.2f, without the loop %.2f\n", wrap, worst, jump);
    CHECK(wrap >= 0 && wrap <= worst, "last to first: %.2f per channel, more than between neighbours (%.2f)", wrap,
          worst);
    CHECK(jump > 2 * worst, "without --loop the jump is %.2f, neighbours %.2f: the test cannot fail", jump, worst);
    /* the middle frames are the clip's own */
    CHECK(frame_diff(gif, 30, 30) == 0 && test_video_hash_range(gif, 10, 40) != 0, "cannot read the loop's middle");
}

TEST(a_loop_longer_than_half_the_clip_is_refused)
{
    write_file(scratch_path("loop2.yaml"), LOOP_SCENE);
    char args[1024], err[4096];
    const char *out = scratch_path("long-loop.gif");
    snprintf(args, sizeof args, "render %s --loop 1.1s -o %s -q", scratch_path("loop2.yaml"), out);
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "--loop 1.1s") && strstr(err, "longer than half the clip"),
          "a loop of 1.1 s of 2 s: %s", err);
    CHECK(access(scratch_path("long-loop.gif"), F_OK) != 0, "a file was written");
    snprintf(args, sizeof args, "render %s --loop soon -o %s -q", scratch_path("loop2.yaml"), out);
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "--loop must be a time"), "--loop soon: %s", err);
    snprintf(args, sizeof args, "render %s --loop 0.5s --chunk 1/1 -q", scratch_path("loop2.yaml"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "no --chunk"), "--loop with --chunk: %s", err);
}
