/* Density drawing (src/render/density.c): the splat accumulator conserves
 * weight and is the same on any thread count; frames of splats are the
 * same for --threads 1, 2, 3 and 8; a crowd's frame is not uniform once it
 * flocks; a look left to choose its shape switches to splats below two
 * pixels and keeps shapes above (and `murmur check` says so); at the
 * switch both drawings are alike; bad input is refused at its line. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/render.h"
#include "murmur/rng.h"
#include "murmur/session.h"
#include "render/density.h"
#include "scene_util.h"

/* ---- the accumulator ------------------------------------------------------ */

/* n points at random sub-pixel places of a w x h buffer, scale 1, seeded. */
static void random_points(double *x, double *y, int *bin, int n, double w, double h, uint64_t seed)
{
    mur_rng g;
    mur_rng_seed(&g, seed);
    for (int i = 0; i < n; i++) {
        x[i] = mur_rng_uniform(&g) * w;
        y[i] = mur_rng_uniform(&g) * h;
        bin[i] = i % 7;
    }
}

TEST(splats_conserve_total_weight)
{
    enum { N = 20000, W = 97, H = 61 };
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    int *bin = malloc(N * sizeof *bin);
    static const uint8_t rgb[7][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {9, 9, 9}, {1, 2, 3}, {200, 100, 50}, {7, 70, 170}};
    mur_density *d = mur_density_create(2);
    REQUIRE(x && y && bin && d, "out of memory");
    random_points(x, y, bin, N, W, H, 3);
    /* A wrapping world exactly the buffer: a splat over an edge lands on
     * the far side, so nothing is lost, to the unit. */
    mur_splat_job job = {.x = x, .y = y, .bin = bin, .n = N, .sx = 1, .sy = 1, .w = W, .h = H,
                         .period_x = W, .period_y = H, .rgb = rgb};
    REQUIRE(mur_density_accumulate(d, &job) == 0, "accumulate failed");
    CHECK(mur_density_total(d) == (uint64_t)N * MUR_SPLAT_ONE, "wrapped: total %llu, want %llu",
          (unsigned long long)mur_density_total(d), (unsigned long long)N * MUR_SPLAT_ONE);
    /* Without wrap, only the parts of splats beyond the buffer's edge go:
     * at most a boid's weight for each point within a pixel of it. */
    job.period_x = job.period_y = 0;
    int near = 0;
    for (int i = 0; i < N; i++)
        near += x[i] < 1 || y[i] < 1 || x[i] > W - 1 || y[i] > H - 1;
    REQUIRE(mur_density_accumulate(d, &job) == 0, "accumulate failed");
    uint64_t t = mur_density_total(d), full = (uint64_t)N * MUR_SPLAT_ONE;
    CHECK(t <= full && t >= full - (uint64_t)near * MUR_SPLAT_ONE, "open: total %llu of %llu (%d near an edge)",
          (unsigned long long)t, (unsigned long long)full, near);
    /* One point: its weight's centre is the point, to the 1/16 pixel grid. */
    double px = 40.3, py = 20.71;
    mur_splat_job one = {.x = &px, .y = &py, .n = 1, .sx = 1, .sy = 1, .w = W, .h = H};
    REQUIRE(mur_density_accumulate(d, &one) == 0, "accumulate failed");
    double mx = 0, my = 0, sum = 0;
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            double w = mur_density_weight(d, i, j);
            mx += w * (i + 0.5);
            my += w * (j + 0.5);
            sum += w;
        }
    CHECK(sum == MUR_SPLAT_ONE, "one point weighs %g", sum);
    CHECK(fabs(mx / sum - px) <= 1.0 / 16 && fabs(my / sum - py) <= 1.0 / 16,
          "one point at (%g, %g) has its weight at (%g, %g)", px, py, mx / sum, my / sum);
    mur_density_destroy(d);
    free(x);
    free(y);
    free(bin);
}

TEST(splat_weights_are_the_same_on_any_thread_count)
{
    enum { N = 50000, W = 203, H = 150 };
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    int *bin = malloc(N * sizeof *bin);
    uint32_t *first = malloc((size_t)W * H * sizeof *first);
    REQUIRE(x && y && bin && first, "out of memory");
    random_points(x, y, bin, N, W, H, 9);
    for (int i = 0; i < N / 2; i++) {   /* half of them crowded into a corner */
        x[i] = 3 + x[i] / 20;
        y[i] = 2 + y[i] / 20;
    }
    static const int threads[] = {1, 2, 3, 8};
    for (int k = 0; k < 4; k++) {
        mur_density *d = mur_density_create(threads[k]);
        REQUIRE(d, "out of memory");
        mur_splat_job job = {.x = x, .y = y, .bin = bin, .n = N, .sx = 1, .sy = 1, .w = W, .h = H,
                             .period_x = W, .period_y = H};
        REQUIRE(mur_density_accumulate(d, &job) == 0, "accumulate failed");
        int differ = 0;
        for (int j = 0; j < H; j++)
            for (int i = 0; i < W; i++) {
                uint32_t w = mur_density_weight(d, i, j);
                if (k == 0)
                    first[j * W + i] = w;
                else
                    differ += first[j * W + i] != w;
            }
        CHECK(differ == 0, "%d threads: %d pixels differ from 1 thread's", threads[k], differ);
        mur_density_destroy(d);
    }
    free(x);
    free(y);
    free(bin);
    free(first);
}

/* ---- frames -------------------------------------------------------------- */

static uint64_t fnv(const uint8_t *p, int stride, int w, int h)
{
    uint64_t v = 1469598103934665603ull;
    for (int j = 0; j < h; j++)
        for (int i = 0; i < 4 * w; i++) {
            v ^= p[(size_t)j * stride + i];
            v *= 1099511628211ull;
        }
    return v;
}

/* Frame k of scene s on `threads` threads: its hash, and a copy of its
 * pixels (ARGB32, w x h, tightly packed) into out if given. 0 when it
 * cannot be drawn. */
static uint64_t frame_of(const mur_scene *s, int threads, long k, uint32_t *out)
{
    mur_session_opts o = MUR_SESSION_OPTS_INIT;
    o.threads = threads;
    mur_session *ss = NULL;
    mur_error err = {{0}};
    const uint8_t *px;
    int stride;
    if (mur_session_create(&ss, s, &o, &err) || mur_session_frame(ss, k, &px, &stride, &err)) {
        fprintf(stderr, "  frame: %s\n", err.msg);
        mur_session_destroy(ss);
        return 0;
    }
    uint64_t h = fnv(px, stride, s->width, s->height);
    if (out)
        for (int j = 0; j < s->height; j++)
            memcpy(out + (size_t)j * s->width, px + (size_t)j * stride, (size_t)s->width * 4);
    mur_session_destroy(ss);
    return h;
}

/* A crowd in a wrapping world at a low resolution: 30,000 boids at the
 * wrkspc density, uniform start, each about a pixel long. */
#define CROWD(extra)                                                                              \
    "seed: 5\nmodel: wrkspc\nworld: {width: 6600, height: 4400, boundary: wrap}\n"                \
    "flock: {count: 30000}\n"                                                                     \
    "video: {width: 240, height: 160, fps: 30, duration: 10s, warmup: " extra "}\n"              \
    "look: {boid: {size: 15, color: heading}}\n"

TEST(splat_frames_are_the_same_for_any_threads)
{
    mur_scene *s = scene_of(
        "seed: 2\nmodel: wrkspc\nworld: {width: 2000, height: 1200, boundary: wrap}\n"
        "flock: {count: 30000, start: {disc: {center: [1000, 600], radius: 500}, heading: 30, spread: 90}}\n"
        "video: {width: 320, height: 192, fps: 30, duration: 2s}\n"
        "camera: {zoom: 0.8}\n"   /* the world's images side by side: the tiled path */
        "look: {boid: {shape: density, size: 6, color: speed}}\n");
    REQUIRE(s, "scene");
    mur_scene *plain = scene_of(CROWD("0t"));
    REQUIRE(plain, "scene");
    const mur_scene *scenes[2] = {s, plain};
    for (int c = 0; c < 2; c++) {
        static const int threads[] = {1, 2, 3, 8};
        uint64_t want = 0;
        for (int k = 0; k < 4; k++) {
            uint64_t h = frame_of(scenes[c], threads[k], 3, NULL);
            CHECK(h != 0, "scene %d, %d threads: no frame", c, threads[k]);
            if (k == 0)
                want = h;
            CHECK(h == want, "scene %d, %d threads: frame hash %016llx, 1 thread's %016llx", c, threads[k],
                  (unsigned long long)h, (unsigned long long)want);
        }
    }
    mur_scene_destroy(s);
    mur_scene_destroy(plain);
}

/* Brightness of the frame in cells of c x c pixels, and the share of
 * non-background pixels. */
static void cell_brightness(const uint32_t *px, int w, int h, int c, double *cells, int *ncells, double *cover)
{
    int n = 0, lit = 0;
    uint32_t bg = px[0];
    for (int y0 = 0; y0 + c <= h; y0 += c)
        for (int x0 = 0; x0 + c <= w; x0 += c) {
            double sum = 0;
            for (int j = y0; j < y0 + c; j++)
                for (int i = x0; i < x0 + c; i++) {
                    uint32_t v = px[(size_t)j * w + i];
                    sum += ((v >> 16 & 255) + (v >> 8 & 255) + (v & 255)) / 3.0;
                }
            cells[n++] = sum / (c * c);
        }
    for (int k = 0; k < w * h; k++)
        lit += px[k] != bg;
    *ncells = n;
    *cover = (double)lit / (w * h);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

TEST(crowd_frame_is_not_uniform_once_it_flocks)
{
    /* 30,000 boids, each under a pixel: drawn as density. At the start they
     * are spread evenly; after 400 ticks they have gathered into flocks,
     * and the brightest cells of the frame are several times the dimmest. */
    mur_scene *start = scene_of(CROWD("0t")), *formed = scene_of(CROWD("400t"));
    REQUIRE(start && formed, "scene");
    int w = 240, h = 160, c = 8;
    uint32_t *px = malloc((size_t)w * h * sizeof *px);
    double cells[600];
    REQUIRE(px, "out of memory");
    double ratio[2];
    for (int k = 0; k < 2; k++) {
        REQUIRE(frame_of(k ? formed : start, 2, 0, px), "frame");
        int n;
        double cover;
        cell_brightness(px, w, h, c, cells, &n, &cover);
        qsort(cells, (size_t)n, sizeof *cells, cmp_double);
        double bg = 0x0d;   /* the background's mean channel, about */
        double lo = cells[n / 10] - bg, hi = cells[n - 1 - n / 10] - bg;
        ratio[k] = hi / fmax(lo, 0.5);
        printf("  %s: cells p10 %.1f p90 %.1f over the background (ratio %.2f), %.0f%% of pixels lit\n",
               k ? "after 400 ticks" : "at the start", lo, hi, ratio[k], 100 * cover);
    }
    CHECK(ratio[0] < 2, "the even start is already uneven (%.2f)", ratio[0]);
    CHECK(ratio[1] > 3, "after 400 ticks the brightest tenth of the frame is only %.2f times the dimmest",
          ratio[1]);
    free(px);
    mur_scene_destroy(start);
    mur_scene_destroy(formed);
}

/* ---- the switch ------------------------------------------------------------ */

/* A small flock drawn with look.boid `boid` at 320 x 200 (the world 1600 x
 * 1000: a size of 10 is 2 pixels). */
static mur_scene *switch_scene(const char *boid)
{
    char yaml[1024];
    snprintf(yaml, sizeof yaml,
             "seed: 8\nmodel: wrkspc\nworld: {width: 1600, height: 1000, boundary: wrap}\n"
             "flock: {count: 20000}\n"
             "video: {width: 320, height: 200, fps: 30, duration: 1s}\n"
             "look: {boid: %s}\n", boid);
    return scene_of(yaml);
}

TEST(auto_shape_picks_splats_below_two_pixels_and_shapes_above)
{
    struct { const char *auto_look, *same_as; } cases[] = {
        {"{size: 9, color: heading}", "{shape: density, size: 9, color: heading}"},   /* 1.8 px */
        {"{size: 11, color: heading}", "{shape: arrow, size: 11, color: heading}"},   /* 2.2 px */
        {"{size: 40, color: heading}", "{shape: arrow, size: 40, color: heading}"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        mur_scene *a = switch_scene(cases[k].auto_look), *b = switch_scene(cases[k].same_as);
        REQUIRE(a && b, "scene");
        uint64_t ha = frame_of(a, 2, 0, NULL), hb = frame_of(b, 2, 0, NULL);
        CHECK(ha && ha == hb, "look %s does not draw as %s", cases[k].auto_look, cases[k].same_as);
        mur_scene_destroy(a);
        mur_scene_destroy(b);
    }
    /* a chosen shape never switches: arrows of 1.8 px are not density */
    mur_scene *a = switch_scene("{shape: arrow, size: 9}"), *b = switch_scene("{shape: density, size: 9}");
    REQUIRE(a && b, "scene");
    CHECK(frame_of(a, 2, 0, NULL) != frame_of(b, 2, 0, NULL), "an explicit arrow switched to density");
    mur_scene_destroy(a);
    mur_scene_destroy(b);
}

TEST(at_the_switch_splats_and_arrows_look_alike)
{
    /* The same frame just under and just over two pixels: about the same
     * brightness over the background (within a quarter). */
    double mean[2];
    const char *looks[2] = {"{size: 9.9, color: heading}", "{size: 10.1, color: heading}"};
    int w = 320, h = 200;
    uint32_t *px = malloc((size_t)w * h * sizeof *px);
    REQUIRE(px, "out of memory");
    for (int k = 0; k < 2; k++) {
        mur_scene *s = switch_scene(looks[k]);
        REQUIRE(s && frame_of(s, 2, 0, px), "frame");
        double sum = 0;
        for (int i = 0; i < w * h; i++)
            sum += (px[i] >> 16 & 255) + (px[i] >> 8 & 255) + (px[i] & 255);
        mean[k] = sum / (3.0 * w * h) - 0x0d;
        mur_scene_destroy(s);
    }
    printf("  mean brightness over the background: splats %.2f, arrows %.2f\n", mean[0], mean[1]);
    CHECK(mean[0] > 0 && mean[1] > 0 && fabs(mean[0] / mean[1] - 1) < 0.25,
          "splats %.2f and arrows %.2f differ by more than a quarter", mean[0], mean[1]);
    free(px);
}

/* ---- bad input ------------------------------------------------------------- */

TEST(density_with_no_size_is_refused_at_its_line)
{
    static const char *const bad[][2] = {
        {"look: {boid: {shape: density, size: 0}}\n", "test.yaml:1:37: error:"},
        {"look:\n  boid: {shape: density, size: -2}\n", "test.yaml:2:32: error:"},
        {"look:\n  boid: {shape: densty}\n", "test.yaml:2:17: error:"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        mur_scene *s = NULL;
        mur_error err = {{0}};
        int rc = mur_scene_parse(&s, "test.yaml", bad[k][0], strlen(bad[k][0]), &err);
        CHECK(rc == MUR_EINPUT && !s, "'%s' was accepted", bad[k][0]);
        CHECK(strstr(err.msg, bad[k][1]) != NULL, "'%s': message '%s' does not start with %s", bad[k][0],
              err.msg, bad[k][1]);
        mur_scene_destroy(s);
    }
}

TEST(check_says_when_arrows_are_drawn_as_density_and_bad_sizes_exit_2)
{
    static const char *const base =
        "world: {width: 4800, height: 2700}\nvideo: {width: 480, height: 270}\nlook: {boid: %s}\n";
    struct { const char *boid; int density; } cases[] = {
        {"{size: 15}", 1},                  /* 1.5 px, no shape: density */
        {"{size: 25}", 0},                  /* 2.5 px */
        {"{shape: arrow, size: 15}", 0},    /* chosen: never switches */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char yaml[512], cmd[1024], out[4096];
        snprintf(yaml, sizeof yaml, base, cases[k].boid);
        write_file(scratch_path("check.yaml"), yaml);
        snprintf(cmd, sizeof cmd, "%s check %s", MURMUR_EXE, scratch_path("check.yaml"));
        CHECK(run_tool_output(cmd, out, sizeof out) == 0, "check %s failed", cases[k].boid);
        CHECK(!strstr(out, "drawn as density") == !cases[k].density, "look.boid %s: check says %s",
              cases[k].boid, strstr(out, "look:") ? strstr(out, "look:") : out);
    }
    char err[1024];
    write_file(scratch_path("bad.yaml"), "look:\n  boid: {shape: density, size: 0}\n");
    char args[512];
    snprintf(args, sizeof args, "check %s", scratch_path("bad.yaml"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "bad.yaml:2:32: error:"),
          "a density of size 0: %s", err);
}
