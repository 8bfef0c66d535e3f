/* For the web page and the slides (issue 31): --loop makes a clip seamless
 * (its end crossfades into its start), checked on the decoded frames of
 * the GIF murmur writes. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "decode.h"
#include "harness.h"
#include "murmur/scene.h"
#include "murmur/session.h"

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

/* Frame k of the scene yaml drawn through a session: a copy of its pixels
 * (w x h ARGB32, rows packed), or NULL. */
static uint32_t *session_frame(const char *yaml, long k, int *w, int *h)
{
    mur_scene *s = NULL;
    mur_session *ss = NULL;
    mur_error err = {{0}};
    uint32_t *out = NULL;
    mur_session_opts o = MUR_SESSION_OPTS_INIT;
    o.threads = 1;
    const uint8_t *px;
    int stride;
    if (mur_scene_parse(&s, "warm.yaml", yaml, strlen(yaml), &err) || mur_session_create(&ss, s, &o, &err) ||
        mur_session_frame(ss, k, &px, &stride, &err)) {
        fprintf(stderr, "  %s\n", err.msg);
    } else if ((out = malloc((size_t)s->width * s->height * 4))) {
        for (int y = 0; y < s->height; y++)
            memcpy(out + (size_t)y * s->width, px + (size_t)y * stride, (size_t)s->width * 4);
        *w = s->width;
        *h = s->height;
    }
    mur_session_destroy(ss);
    mur_scene_destroy(s);
    return out;
}

#define WARM_SCENE(warmup, warm)                                                              \
    "seed: 5\nmodel: wrkspc\nworld: {width: 240, height: 160, boundary: wrap}\nflock: {count: 50}\n" \
    "video: {width: 240, height: 160, fps: 30, ticks_per_second: 60, duration: 3s, warmup: " warmup "}\n" \
    "look: {background: \"#000000\", boid: {size: 5, color: heading}, trails: {length: 40, fade: true" warm "}}\n"

/* look.trails.warm: the first frame after a warm-up has its trails whole,
 * those of the same tick reached without a warm-up (pixel for pixel). */
TEST(warm_trails_on_the_first_frame_equal_the_same_tick_reached_without_a_warm_up)
{
    int w, h, w2, h2, w3, h3;
    uint32_t *warm = session_frame(WARM_SCENE("90t", ", warm: true"), 0, &w, &h);
    uint32_t *cold = session_frame(WARM_SCENE("90t", ""), 0, &w3, &h3);
    uint32_t *reached = session_frame(WARM_SCENE("0t", ""), 45, &w2, &h2);   /* frame 45: tick 90 */
    REQUIRE(warm && cold && reached && w == w2 && h == h2, "frames");
    long differ = 0, bare = 0;
    for (long i = 0; i < (long)w * h; i++) {
        differ += warm[i] != reached[i];
        bare += cold[i] != reached[i];
    }
    CHECK(differ == 0, "%ld pixels of the warm first frame differ from tick 90 reached without a warm-up", differ);
    CHECK(bare > 200, "without warm trails only %ld pixels differ: the test cannot fail", bare);
    free(warm);
    free(cold);
    free(reached);
}

/* Distinct colours of decoded frame k of path; -1 when unreadable. */
static int colours_of(const char *path, int k)
{
    uint8_t *px = NULL;
    int w, h;
    if (test_video_frame_rgb(path, k, &px, &w, &h))
        return -1;
    static unsigned char seen[1 << 24 >> 3];
    memset(seen, 0, sizeof seen);
    int n = 0;
    for (long i = 0; i < (long)w * h; i++) {
        unsigned c = (unsigned)px[3 * i] << 16 | (unsigned)px[3 * i + 1] << 8 | px[3 * i + 2];
        if (!(seen[c >> 3] & (1 << (c & 7)))) {
            seen[c >> 3] |= (unsigned char)(1 << (c & 7));
            n++;
        }
    }
    free(px);
    return n;
}

/* video.gif_colours and gif_dither: the palette's size and how colours
 * between its entries are drawn. */
TEST(gif_palette_colours_and_dither_are_the_scenes)
{
    char args[1024], err[4096], out[3][256];
    static const char *const extra[3] = {"", "  gif_colours: 8\n", "  gif_colours: 8\n  gif_dither: bayer\n"};
    for (int i = 0; i < 3; i++) {
        char yaml[2048];
        snprintf(yaml, sizeof yaml,
                 "seed: 3\nmodel: wrkspc\nworld: {width: 240, height: 160, boundary: wrap}\nflock: {count: 120}\n"
                 "video:\n  width: 160\n  height: 108\n  fps: 10\n  duration: 1s\n%s"
                 "look: {background: \"#204060\", boid: {shape: arrow, size: 8, color: heading}, trails: {length: 10}}\n",
                 extra[i]);
        char name[32];
        snprintf(name, sizeof name, "pal%d.yaml", i);
        write_file(scratch_path(name), yaml);
        snprintf(out[i], sizeof out[i], "%s/pal%d.gif", scratch(), i);
        snprintf(args, sizeof args, "render %s -o %s -q", scratch_path(name), out[i]);
        REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", name, err);
    }
    int full = colours_of(out[0], 5), eight = colours_of(out[1], 5), dithered = colours_of(out[2], 5);
    CHECK(full > 16, "the default palette drew %d colours", full);
    CHECK(eight >= 2 && eight <= 8, "gif_colours: 8 drew %d colours", eight);
    CHECK(dithered >= 2 && dithered <= 8, "dithered, 8 colours: %d", dithered);
    CHECK(test_video_hash(out[1]) != test_video_hash(out[2]), "bayer dither drew the same frames as none");
    char why[4096];
    CHECK(check_refuses("pal-bad.yaml", "model: wrkspc\nvideo: {gif_colours: 1}\n", ":2:22:", "out of range", why,
                        sizeof why),
          "gif_colours 1: %s", why);
    CHECK(check_refuses("pal-dither.yaml", "model: wrkspc\nvideo: {gif_dither: noisy}\n", ":2:21:", "bayer", why,
                        sizeof why),
          "gif_dither noisy: %s", why);
}

/* theme: dark draws figures for a dark slide: a near-black ground, light ink. */
TEST(a_dark_themes_figure_is_light_ink_on_black)
{
    char args[1024], err[4096], png[2][256];
    for (int dark = 0; dark < 2; dark++) {
        char yaml[1024], name[32];
        snprintf(yaml, sizeof yaml,
                 "%sseed: 7\nmodel: wrkspc\nworld: {width: 200, height: 150, boundary: wrap}\nflock: {count: 40}\n"
                 "experiment: {runs: 3, ticks: 30, conditions: {all: {}, no-alignment: {alignment: 0}}, metrics: [order]}\n",
                 dark ? "theme: dark\n" : "");
        snprintf(name, sizeof name, "theme%d.yaml", dark);
        write_file(scratch_path(name), yaml);
        snprintf(png[dark], sizeof png[dark], "%s/theme%d.png", scratch(), dark);
        snprintf(args, sizeof args, "stats %s -q --plot %s", scratch_path(name), png[dark]);
        REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    }
    for (int dark = 0; dark < 2; dark++) {
        uint8_t *px = NULL;
        int w, h;
        REQUIRE(test_video_frame_rgb(png[dark], 0, &px, &w, &h) == 0, "cannot read %s", png[dark]);
        long light = 0, black = 0;
        for (long i = 0; i < (long)w * h; i++) {
            int r = px[3 * i], g = px[3 * i + 1], b = px[3 * i + 2];
            light += r > 200 && g > 200 && b > 200;
            black += r < 30 && g < 30 && b < 30;
        }
        long all = (long)w * h;
        if (dark)
            CHECK(black > all / 2 && light > all / 200 && light < all / 5,
                  "dark: %ld black and %ld light pixels of %ld", black, light, all);
        else
            CHECK(light > all / 2 && black < all / 5, "light: %ld light and %ld black pixels of %ld", light, black, all);
        free(px);
    }
}
