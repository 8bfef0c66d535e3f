/* A 3D world drawn through its camera (issue #29; docs/scenes.md
 * "look.sky" and "A 3D world's camera"): a bird at the camera's target is
 * drawn at the frame's centre, one behind the camera is not drawn, a
 * following camera keeps the flock's centre in the middle, the frames are
 * the same bytes on any thread count, vector stills draw, absorption
 * darkens, colour modes colour the birds, and each bad 3D camera or look
 * exits 2 naming file:line:col. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "cli_util.h"
#include "decode.h"
#include "harness.h"
#include "scene_util.h"
#include "murmur/render.h"
#include "murmur/scene.h"

/* A white world but for the birds: every sky colour white, no trees, so a
 * dark pixel is a bird. */
#define WHITE_SKY                                                                                          \
    "  sky: {zenith: '#ffffff', horizon: '#ffffff', ground: '#ffffff', trees: '#ffffff', tree_height: 0}\n"

/* Draws scene yaml's look at time 0 with one bird at p flying with
 * velocity v, and hands the image to see(). -1: it could not draw. */
static int with_one_bird(const char *yaml, const double p[3], const double v[3],
                         void (*see)(const uint8_t *px, int stride, int w, int h, void *arg), void *arg)
{
    mur_scene *s = scene_of(yaml);
    if (!s)
        return -1;
    mur_error err = {{0}};
    mur_renderer *r = NULL;
    mur_flock *f = NULL;
    int rc = -1;
    if (!mur_renderer_create(&r, mur_scene_look(s), s->width, s->height, &err) &&
        !mur_flock_create(&f, &s->params, s->seed, &err) &&
        !mur_flock_set_state3(f, 1, &p[0], &p[1], &p[2], &v[0], &v[1], &v[2], &err)) {
        const uint8_t *px;
        int stride;
        const mur_flock *fl = f;
        if (!mur_renderer_draw_image(r, &fl, 1, 0, &px, &stride, &err)) {
            see(px, stride, s->width, s->height, arg);
            rc = 0;
        }
    }
    if (err.msg[0])
        fprintf(stderr, "  %s\n", err.msg);
    mur_flock_destroy(f);
    mur_renderer_destroy(r);
    mur_scene_destroy(s);
    return rc;
}

/* The dark pixels' count and their centroid, weighted by darkness. */
typedef struct {
    int dark, w, h;
    double cx, cy;
} darkness;

static void measure_dark(const uint8_t *px, int stride, int w, int h, void *arg)
{
    darkness *d = arg;
    double sx = 0, sy = 0, wsum = 0;
    d->dark = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t c = ((const uint32_t *)(px + (size_t)y * (size_t)stride))[x];
            double lum = ((c >> 16 & 0xff) + (c >> 8 & 0xff) + (c & 0xff)) / 3.0;
            double ink = (255 - lum) / 255;
            if (ink > 0) {
                d->dark++;
                sx += ink * (x + 0.5);
                sy += ink * (y + 0.5);
                wsum += ink;
            }
        }
    d->cx = wsum > 0 ? sx / wsum : -1;
    d->cy = wsum > 0 ? sy / wsum : -1;
    d->w = w;
    d->h = h;
}

/* Draws scene yaml's look with one bird at (x, y, z) flying along +x at
 * time 0; the dark pixels' count and centroid. -1: it could not draw. */
static int draw_one(const char *yaml, const double p[3], double *cx, double *cy, int *w, int *h)
{
    const double v[3] = {1, 0, 0};
    darkness d = {-1, 0, 0, -1, -1};
    int rc = with_one_bird(yaml, p, v, measure_dark, &d);
    *cx = d.cx;
    *cy = d.cy;
    *w = d.w;
    *h = d.h;
    return rc ? -1 : d.dark;
}

static const char *one_bird =
    "world: {dimensions: 3, width: 480, height: 320, depth: 200, boundary: reflect}\n"
    "flock: {count: 1}\n"
    "video: {width: 320, height: 180, duration: 1s}\n"
    "camera: {position: [100, -200, 20], target: [200, 150, 120], fov: 40}\n"
    "look:\n"
    "  birds: points\n"
    "  boid: {size: 8, color: '#000000'}\n" WHITE_SKY;

/* A bird at the target is at the frame's centre; points are discs centred
 * on the projection, so the centroid is the centre to a small fraction of
 * a pixel. */
TEST(a_bird_at_the_target_draws_at_the_centre)
{
    double at[3] = {200, 150, 120}, cx, cy;
    int w = 0, h = 0;
    int dark = draw_one(one_bird, at, &cx, &cy, &w, &h);
    REQUIRE(dark > 0, "the bird is drawn (%d dark pixels)", dark);
    CHECK(fabs(cx - w / 2.0) < 0.05 && fabs(cy - h / 2.0) < 0.05, "drawn at (%.3f, %.3f), the centre is (%g, %g)",
          cx, cy, w / 2.0, h / 2.0);
    CHECK(dark < 60, "a small bird: %d dark pixels", dark);
    /* a bird above the target draws above the centre, one to the camera's right to the right */
    double above[3] = {200, 150, 150}, right[3] = {240, 130, 120};
    CHECK(draw_one(one_bird, above, &cx, &cy, &w, &h) > 0 && cy < h / 2.0 - 5, "above: at y %.1f", cy);
    CHECK(draw_one(one_bird, right, &cx, &cy, &w, &h) > 0 && cx > w / 2.0 + 5, "right: at x %.1f", cx);
}

/* A silhouette (the default) at the target is drawn around the centre too. */
TEST(a_silhouette_at_the_target_draws_around_the_centre)
{
    const char *yaml =
        "world: {dimensions: 3, width: 480, height: 320, depth: 200, boundary: reflect}\n"
        "flock: {count: 1}\n"
        "video: {width: 320, height: 180, duration: 1s}\n"
        "camera: {position: [100, -200, 20], target: [200, 150, 120]}\n"
        "look:\n"
        "  wingbeat: 0\n"
        "  boid: {size: 8, color: '#000000'}\n" WHITE_SKY;
    double at[3] = {200, 150, 120}, cx, cy;
    int w = 0, h = 0;
    int dark = draw_one(yaml, at, &cx, &cy, &w, &h);
    REQUIRE(dark > 0, "the bird is drawn (%d dark pixels)", dark);
    CHECK(hypot(cx - w / 2.0, cy - h / 2.0) < 3, "drawn around (%.2f, %.2f), the centre is (%g, %g)", cx, cy,
          w / 2.0, h / 2.0);
}

/* A bird behind the camera (and one beside it, outside the view) is not drawn. */
TEST(a_bird_behind_the_camera_is_not_drawn)
{
    double behind[3] = {50, -350, -10}, cx, cy;   /* past the position, away from the target */
    int w = 0, h = 0;
    CHECK(draw_one(one_bird, behind, &cx, &cy, &w, &h) == 0, "nothing drawn");
    double in_camera[3] = {100, -200, 20};
    CHECK(draw_one(one_bird, in_camera, &cx, &cy, &w, &h) == 0, "a bird at the camera: nothing drawn");
}

static void centre_pixel(const uint8_t *px, int stride, int w, int h, void *arg)
{
    *(long *)arg = ((const uint32_t *)(px + (size_t)(h / 2) * (size_t)stride))[w / 2] & 0xffffff;
}

/* The colour of the pixel at the frame's centre with one bird at the
 * camera's target flying with velocity v, drawn as a point large enough
 * to cover that pixel whole (no antialiased edge there): 0xRRGGBB, or -1. */
static long centre_colour(const char *yaml, const double v[3])
{
    const double at[3] = {200, 150, 120};
    long out = -1;
    return with_one_bird(yaml, at, v, centre_pixel, &out) ? -1 : out;
}

/* look.boid.color's modes colour 3D birds too: by heading, a bird flying
 * along +x is red (hue 0) and one along -x cyan (hue 180); by speed, a
 * bird climbing straight up at the top speed has the colour of one flying
 * level at it, not of the slowest one (the speed counts z). */
TEST(colour_modes_colour_3d_birds)
{
    const char *base =
        "world: {dimensions: 3, width: 480, height: 320, depth: 200, boundary: reflect}\n"
        "model: wrkspc\n"
        "flock: {count: 1}\n"
        "video: {width: 320, height: 180, duration: 1s}\n"
        "camera: {position: [100, -200, 20], target: [200, 150, 120], fov: 40}\n"
        "look:\n"
        "  birds: points\n" WHITE_SKY;
    char yaml[1024];
    snprintf(yaml, sizeof yaml, "%s  boid: {size: 40, color: heading}\n", base);
    const double east[3] = {2, 0, 0}, west[3] = {-2, 0, 0};
    long e = centre_colour(yaml, east), w = centre_colour(yaml, west);
    REQUIRE(e >= 0 && w >= 0, "drawn");
    CHECK((e >> 16 & 0xff) > 0xe0 && (e & 0xff) < 0x90, "flying +x: red, not #%06lx", e);
    CHECK((w >> 16 & 0xff) < 0x90 && (w & 0xff) > 0xe0, "flying -x: cyan, not #%06lx", w);
    snprintf(yaml, sizeof yaml, "%s  boid: {size: 40, color: speed}\n", base);
    const double up[3] = {0, 0, 2.4}, level[3] = {2.4, 0, 0}, slow[3] = {0, 0, 1.2};
    long u = centre_colour(yaml, up), l = centre_colour(yaml, level), sl = centre_colour(yaml, slow);
    CHECK(u >= 0 && u == l, "climbing at 2.4: #%06lx, level at 2.4: #%06lx", u, l);
    CHECK(sl >= 0 && sl != u, "climbing at 1.2 (the slowest): #%06lx, as fast as the fastest", sl);
    snprintf(yaml, sizeof yaml, "%s  boid: {size: 40, color: '#000000'}\n", base);
    CHECK(centre_colour(yaml, east) == 0, "a fixed colour draws as it was: #%06lx", centre_colour(yaml, east));
}

/* Orthographic: the target at the centre, and the size does not depend on
 * the distance. */
TEST(orthographic_draws_the_target_at_the_centre)
{
    const char *yaml =
        "world: {dimensions: 3, width: 480, height: 320, depth: 200, boundary: reflect}\n"
        "flock: {count: 1}\n"
        "video: {width: 320, height: 180, duration: 1s}\n"
        "camera: {mode: orthographic, height: 200, position: [240, -300, 100], target: [240, 160, 100]}\n"
        "look:\n"
        "  birds: points\n"
        "  boid: {size: 8, color: '#000000'}\n" WHITE_SKY;
    double at[3] = {240, 160, 100}, far[3] = {240, 300, 100}, cx, cy;
    int w = 0, h = 0;
    int a = draw_one(yaml, at, &cx, &cy, &w, &h);
    CHECK(a > 0 && fabs(cx - w / 2.0) < 0.05 && fabs(cy - h / 2.0) < 0.05, "at (%.3f, %.3f)", cx, cy);
    int b = draw_one(yaml, far, &cx, &cy, &w, &h);
    CHECK(b == a, "the same size farther off: %d and %d pixels", a, b);
}

/* The ink-weighted centroid of a PNG's dark pixels into (cx, cy), and how
 * much ink (0: none). */
static double png_ink(const char *png, double *cx, double *cy, int *w, int *h)
{
    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return 0;
    }
    const unsigned char *d = cairo_image_surface_get_data(s);
    int st = cairo_image_surface_get_stride(s);
    *w = cairo_image_surface_get_width(s);
    *h = cairo_image_surface_get_height(s);
    double sx = 0, sy = 0, sw = 0;
    for (int y = 0; y < *h; y++)
        for (int x = 0; x < *w; x++) {
            uint32_t c = ((const uint32_t *)(d + (size_t)y * (size_t)st))[x];
            double ink = (255 - ((c >> 16 & 0xff) + (c >> 8 & 0xff) + (c & 0xff)) / 3.0) / 255;
            sx += ink * (x + 0.5), sy += ink * (y + 0.5), sw += ink;
        }
    cairo_surface_destroy(s);
    *cx = sw > 0 ? sx / sw : -1;
    *cy = sw > 0 ? sy / sw : -1;
    return sw;
}

/* The scene's loader gives the default camera, following the flock keeps
 * a lone bird in the middle of every frame of a video (smooth: 0s), read
 * back from a still at several times. */
TEST(following_the_flock_keeps_it_in_the_middle)
{
    char path[256];   /* scratch_path's buffers rotate */
    snprintf(path, sizeof path, "%s", scratch_path("follow3d.yaml"));
    write_file(path, "seed: 4\n"
                     "world: {dimensions: 3, width: 480, height: 320, depth: 200}\n"
                     "flock: {count: 1}\n"
                     "video: {width: 320, height: 180, fps: 30, duration: 4s}\n"
                     "camera: {follow: flock, smooth: 0s, position: [240, -300, 40]}\n"
                     "look:\n"
                     "  birds: points\n"
                     "  boid: {size: 6, color: '#000000'}\n" WHITE_SKY);
    const char *times[] = {"0.5s", "1.7s", "3.2s"};
    for (int k = 0; k < 3; k++) {
        char args[512], err[2048];
        const char *png = scratch_path("follow3d.png");
        snprintf(args, sizeof args, "still %s -o %s --at %s -q", path, png, times[k]);
        REQUIRE(murmur(args, err, sizeof err) == 0, "still: %s", err);
        double cx = -1, cy = -1;
        int w = 0, h = 0;
        REQUIRE(png_ink(png, &cx, &cy, &w, &h) > 0, "at %s: the bird is drawn", times[k]);
        CHECK(hypot(cx - w / 2.0, cy - h / 2.0) < 0.05, "at %s: at (%.3f, %.3f)", times[k], cx, cy);
    }
}

/* At each of the times, the ink's centroid of scene `path`'s still is
 * within 3 px of the middle (the camera follows what it draws), and that
 * of `fixed`'s (the same scene, the camera's target fixed) over 20 px off. */
static void check_followed(const char *path, const char *fixed, const char *const *times, int ntimes)
{
    for (int k = 0; k < ntimes; k++)
        for (int follow = 1; follow >= 0; follow--) {
            char args[768], err[2048];
            const char *png = scratch_path("followed3d.png");
            snprintf(args, sizeof args, "still %s -o %s --at %s -q", follow ? path : fixed, png, times[k]);
            REQUIRE(murmur(args, err, sizeof err) == 0, "still: %s", err);
            double cx = -1, cy = -1;
            int w = 0, h = 0;
            REQUIRE(png_ink(png, &cx, &cy, &w, &h) > 0, "at %s: the falcon is drawn", times[k]);
            double off = hypot(cx - w / 2.0, cy - h / 2.0);   /* its wings and heading: not a point */
            if (follow)
                CHECK(off < 3, "at %s: the followed falcon is at (%.2f, %.2f), %.2f px off the middle",
                      times[k], cx, cy, off);
            else
                CHECK(off > 20, "at %s: unfollowed, the falcon is still in the middle (%.2f px)", times[k], off);
        }
}

/* camera.follow: {predator: 0} in a 3D world (issue #45): the camera
 * turns to keep the falcon in the middle of the frame while it flies its
 * keyframed path across the box and down, the frame's only ink (the lone
 * bird starts behind the camera, which does not see it). The same scene
 * with the camera's target fixed draws it elsewhere at each time, so the
 * centroid says the camera followed. */
TEST(following_a_predator_in_3d_keeps_it_in_the_middle)
{
    char path[256], fixed[256];
    const char *body = "seed: 4\n"
                       "world: {dimensions: 3, width: 480, height: 320, depth: 200, boundary: open}\n"
                       "flock: {count: 1, start: {ball: {center: [240, -700, 40], radius: 1}}}\n"
                       "predators:\n"
                       "  - {mode: flee, radius: 10, strength: 0.1, interpolate: linear,\n"
                       "     path: [[0s, 60, 200, 150], [4s, 420, 120, 50]]}\n"
                       "video: {width: 320, height: 180, fps: 30, duration: 4s}\n"
                       "look:\n"
                       "  boid: {size: 6, color: '#000000'}\n" WHITE_SKY;
    snprintf(path, sizeof path, "%s", scratch_path("follow-falcon3d.yaml"));
    snprintf(fixed, sizeof fixed, "%s", scratch_path("fixed-falcon3d.yaml"));
    char text[2048];
    snprintf(text, sizeof text, "%scamera: {follow: {predator: 0}, smooth: 0s, position: [240, -300, 40]}\n", body);
    write_file(path, text);
    snprintf(text, sizeof text, "%scamera: {target: [240, 160, 100], position: [240, -300, 40]}\n", body);
    write_file(fixed, text);
    const char *times[] = {"0.4s", "1s", "3.4s"};   /* not 2s: the path crosses the fixed target then */
    check_followed(path, fixed, times, 3);
}

/* A hunting falcon (pursue: it moves itself) followed in 3D: it flies
 * from high on the left toward the lone bird behind the camera, and the
 * locked camera keeps it in the middle; the same scene seen toward a
 * fixed target draws it off the middle. */
TEST(following_a_hunter_in_3d_keeps_it_in_the_middle)
{
    char path[256], fixed[256];
    const char *body = "seed: 4\n"
                       "world: {dimensions: 3, width: 480, height: 320, depth: 200, boundary: open}\n"
                       "flock: {count: 1, start: {ball: {center: [240, -700, 40], radius: 1}}}\n"
                       "predators:\n"
                       "  - {mode: flee, pursue: nearest, speed: 0.4, turn: 2, radius: 10, strength: 0.1,\n"
                       "     x: '60', y: '250', z: '150'}\n"
                       "video: {width: 320, height: 180, fps: 30, duration: 4s}\n"
                       "look:\n"
                       "  boid: {size: 6, color: '#000000'}\n" WHITE_SKY;
    snprintf(path, sizeof path, "%s", scratch_path("follow-hunter3d.yaml"));
    snprintf(fixed, sizeof fixed, "%s", scratch_path("fixed-hunter3d.yaml"));
    char text[2048];
    snprintf(text, sizeof text, "%scamera: {follow: {predator: 0}, smooth: 0s, position: [240, -300, 40]}\n", body);
    write_file(path, text);
    snprintf(text, sizeof text, "%scamera: {target: [240, 160, 100], position: [240, -300, 40]}\n", body);
    write_file(fixed, text);
    const char *times[] = {"0.5s", "2s", "3.5s"};
    check_followed(path, fixed, times, 3);
}

/* One 3D scene's still on 1, 2, 3 and 8 threads: the same bytes (a flock
 * large enough that a 2D frame would be drawn in bands). */
TEST(frames_are_the_same_on_any_thread_count)
{
    char path[256];   /* scratch_path's buffers rotate */
    snprintf(path, sizeof path, "%s", scratch_path("threads3d.yaml"));
    write_file(path, "seed: 9\n"
                     "world: {dimensions: 3, width: 480, height: 320, depth: 200}\n"
                     "flock: {count: 3000}\n"
                     "video: {width: 640, height: 360, duration: 2s}\n"
                     "look: {visibility: 600}\n"
                     "timeline:\n"
                     "  - at: 0s\n"
                     "    ramp: {camera.position: [500, -150, 30], camera.fov: 60}\n"
                     "    over: 2s\n");
    const int threads[] = {1, 2, 3, 8};
    char *first = NULL;
    size_t first_len = 0;
    for (int k = 0; k < 4; k++) {
        char args[512], err[2048], png[64];
        snprintf(png, sizeof png, "threads3d-%d.png", threads[k]);
        snprintf(args, sizeof args, "still %s -o %s --at 1.5s --threads %d -q", path, scratch_path(png),
                 threads[k]);
        REQUIRE(murmur(args, err, sizeof err) == 0, "still on %d threads: %s", threads[k], err);
        size_t len = 0;
        char *bytes = test_slurp(scratch_path(png), &len);
        REQUIRE(bytes, "read %s", png);
        if (!first) {
            first = bytes;
            first_len = len;
        } else {
            CHECK(len == first_len && !memcmp(bytes, first, len), "%d threads differ from 1", threads[k]);
            free(bytes);
        }
    }
    free(first);
}

/* A video's frames too: the same decoded frames on 1, 2, 3 and 8 threads
 * (decode.h's hash over every frame, as test_determinism). */
TEST(video_frames_are_the_same_on_any_thread_count)
{
    char path[256];   /* scratch_path's buffers rotate */
    snprintf(path, sizeof path, "%s", scratch_path("video3d.yaml"));
    write_file(path, "seed: 2\n"
                     "world: {dimensions: 3, width: 480, height: 320, depth: 200}\n"
                     "flock: {count: 2500}\n"
                     "camera: {follow: flock}\n"
                     "video: {width: 320, height: 180, fps: 10, duration: 1s}\n");
    const int threads[] = {1, 2, 3, 8};
    uint64_t want = 0;
    for (int k = 0; k < 4; k++) {
        char args[512], err[2048], out[64];
        snprintf(out, sizeof out, "video3d-%d.mp4", threads[k]);
        snprintf(args, sizeof args, "render %s -o %s --threads %d -q", path, scratch_path(out), threads[k]);
        REQUIRE(murmur(args, err, sizeof err) == 0, "render: %s", err);
        uint64_t h = test_video_hash(scratch_path(out));
        REQUIRE(h != 0, "decode %s", out);
        if (!k)
            want = h;
        CHECK(h == want, "%d threads: frames hash %016llx, 1 thread %016llx", threads[k], (unsigned long long)h,
              (unsigned long long)want);
    }
}

/* The default look of a 3D world reads as dark birds against an evening
 * sky: the sky's top is blue, near the horizon warm, and birds darker than
 * both are in it. */
TEST(default_look_is_dark_birds_on_an_evening_sky)
{
    const char *path = scratch_path("sky3d.yaml");
    write_file(path, "world: {dimensions: 3, width: 480, height: 320, depth: 200}\n"
                     "flock: {count: 300}\n"
                     "video: {width: 320, height: 180, duration: 1s}\n");
    char args[512], err[2048];
    const char *png = scratch_path("sky3d.png");
    snprintf(args, sizeof args, "still %s -o %s --at 0.5s -q", path, png);
    REQUIRE(murmur(args, err, sizeof err) == 0, "still: %s", err);
    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    REQUIRE(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, "read");
    const unsigned char *d = cairo_image_surface_get_data(s);
    int st = cairo_image_surface_get_stride(s);
    uint32_t top = ((const uint32_t *)d)[0];
    CHECK((top & 0xff) > (top >> 16 & 0xff), "the zenith is blue: %06x", top & 0xffffff);
    int dark = 0;
    for (int y = 0; y < 60; y++)
        for (int x = 0; x < 320; x++) {
            uint32_t c = ((const uint32_t *)(d + (size_t)y * (size_t)st))[x];
            dark += (c >> 16 & 0xff) < 0x1a && (c >> 8 & 0xff) < 0x1a;
        }
    CHECK(dark > 20, "dark birds in the upper sky: %d pixels", dark);
    cairo_surface_destroy(s);
}

/* Vector stills of a 3D world: an SVG and a PDF are written, the SVG with
 * the birds as paths. */
TEST(vector_stills_of_a_3d_world)
{
    const char *path = scratch_path("vector3d.yaml");
    write_file(path, "world: {dimensions: 3, width: 480, height: 320, depth: 200}\n"
                     "flock: {count: 50}\n"
                     "video: {width: 320, height: 180, duration: 1s}\n");
    const char *outs[] = {"v3d.svg", "v3d.pdf"};
    for (int k = 0; k < 2; k++) {
        char args[512], err[2048];
        snprintf(args, sizeof args, "still %s -o %s --at 0.5s -q", path, scratch_path(outs[k]));
        REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", outs[k], err);
        size_t len = 0;
        char *b = test_slurp(scratch_path(outs[k]), &len);
        REQUIRE(b && len > 1000, "%s written (%zu bytes)", outs[k], len);
        if (k == 0)
            CHECK(strstr(b, "<path") && strstr(b, "<image"), "the SVG has the sky (an image) and paths");
        else
            CHECK(!memcmp(b, "%PDF", 4), "a PDF");
        free(b);
    }
}

/* Density by absorption: the flock drawn as absorbing specks darkens the
 * sky (more birds: darker), and leaves an empty sky as it was. */
TEST(absorption_darkens_the_sky)
{
    const char *yaml =
        "world: {dimensions: 3, width: 480, height: 320, depth: 200, boundary: reflect}\n"
        "flock: {count: 1}\n"
        "video: {width: 320, height: 180, duration: 1s}\n"
        "camera: {position: [100, -200, 20], target: [200, 150, 120]}\n"
        "look:\n"
        "  boid: {shape: density, size: 8, color: '#00000080'}\n" WHITE_SKY;
    double at[3] = {200, 150, 120}, behind[3] = {50, -350, -10}, cx, cy;
    int w = 0, h = 0;
    int dark = draw_one(yaml, at, &cx, &cy, &w, &h);
    CHECK(dark > 0 && hypot(cx - w / 2.0, cy - h / 2.0) < 0.5, "one absorbing bird at the centre: %d pixels at "
          "(%.2f, %.2f)", dark, cx, cy);
    CHECK(draw_one(yaml, behind, &cx, &cy, &w, &h) == 0, "the sky unchanged with no bird in view");
}

static const char *W3 = "world: {dimensions: 3, width: 480, height: 320, depth: 200}\n";

/* Each bad 3D camera or look: exit 2, file:line:col and what is wrong. */
TEST(bad_3d_cameras_are_refused_at_their_line)
{
    struct {
        const char *rest, *where, *says;
    } bad[] = {
        {"camera: {position: [1, 2, 3], target: [1, 2, 3]}\n", ":2:39:", "target equals its position"},
        {"camera: {position: [0, 0, 0], target: [0, 0, 5]}\n", ":2:39:", "up is parallel"},
        {"camera: {position: [0, 0, 0], target: [0, 5, 0], up: [0, 2, 0]}\n", ":2:54:", "up is parallel"},
        {"camera: {fov: 180}\n", ":2:15:", "between 0 and 180"},
        {"camera: {fov: 0}\n", ":2:15:", "between 0 and 180"},
        {"camera: {fov: -20}\n", ":2:15:", "between 0 and 180"},
        {"camera: {position: [0, 0]}\n", ":2:20:", "[x, y, z]"},
        {"camera: {target: [0, 0, 1, 2]}\n", ":2:18:", "[x, y, z]"},
        {"camera: {up: 3}\n", ":2:14:", "up"},
        {"camera: {zoom: 2}\n", ":2:10:", "2D world's camera"},
        {"camera: {center: [1, 2]}\n", ":2:10:", "2D world's camera"},
        {"camera: {follow: {predator: 0}}\n", ":2:29:", "follows predator 0, but the scene has 0"},
        {"camera: {mode: fisheye}\n", ":2:16:", "fisheye"},
        {"camera: {mode: orthographic, height: 0}\n", ":2:38:", "height"},
        {"timeline:\n  - at: 1s\n    set: {camera.zoom: 2}\n", ":4:11:", "2D world's camera"},
        {"timeline:\n  - at: 1s\n    ramp: {camera.position: [240, 160, 100]}\n    over: 2s\n", ":3:5:",
         "target equals its position"},
        {"timeline:\n  - at: 1s\n    set: {camera.fov: 200}\n", ":4:23:", "between 0 and 180"},
        {"timeline:\n  - at: 1s\n    ramp: {camera.target: [1, 2]}\n    over: 1s\n", ":4:27:", "[x, y, z]"},
        {"look: {boid: {shape: density, color: heading}}\n", ":2:38:", "one ink"},
        {"look: {sky: {zenith: '#00000080'}}\n", ":2:22:", "opaque"},
        {"look: {birds: arrows}\n", ":2:15:", "arrows"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char yaml[1024], err[2048];
        snprintf(yaml, sizeof yaml, "%s%s", W3, bad[k].rest);
        CHECK(check_refuses("bad3d.yaml", yaml, bad[k].where, bad[k].says, err, sizeof err), "%s: %s",
              bad[k].rest, err);
    }
}

/* A 2D world's scene refuses the 3D keys, naming the line. */
TEST(keys_of_3d_in_a_2d_world_are_refused)
{
    struct {
        const char *yaml, *where, *says;
    } bad[] = {
        {"world: {width: 480}\ncamera: {position: [0, 0, 0]}\n", ":2:10:", "3D world's camera"},
        {"world: {width: 480}\ncamera: {fov: 40}\n", ":2:10:", "3D world's camera"},
        {"world: {width: 480}\ncamera: {mode: orthographic}\n", ":2:10:", "3D world's camera"},
        {"world: {width: 480}\ntimeline:\n  - at: 1s\n    set: {camera.fov: 40}\n", ":4:11:", "3D world's camera"},
        {"world: {width: 480}\nlook: {sky: {zenith: '#000000'}}\n", ":2:8:", "3D world's"},
        {"world: {width: 480}\nlook: {birds: points}\n", ":2:8:", "3D world's"},
        {"world: {width: 480}\nlook: {visibility: 100}\n", ":2:8:", "3D world's"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char err[2048];
        CHECK(check_refuses("bad2d.yaml", bad[k].yaml, bad[k].where, bad[k].says, err, sizeof err), "%s: %s",
              bad[k].yaml, err);
    }
}

/* The timeline's camera.position, camera.target and camera.fov ramps:
 * the camera half way is half way (linear), and the default camera is the
 * one docs/scenes.md gives. */
TEST(camera_ramps_and_the_default_camera)
{
    mur_scene *s = scene_of("world: {dimensions: 3, width: 400, height: 300, depth: 100}\n"
                            "timeline:\n"
                            "  - at: 2s\n"
                            "    ramp: {camera.position: [0, -100, 50], camera.target: [100, 100, 100], camera.fov: 30}\n"
                            "    over: 2s\n"
                            "    ease: linear\n");
    REQUIRE(s, "scene");
    mur_camera c = {0};
    mur_scene_camera_at(s, 0, &c);
    CHECK(c.view3d && c.position[0] == 200 && c.position[1] == -180 && c.position[2] == 15, "default position "
          "[%g, %g, %g]", c.position[0], c.position[1], c.position[2]);
    CHECK(c.target[0] == 200 && c.target[1] == 150 && c.target[2] == 50 && c.fov == 50 && c.up[2] == 1,
          "default target [%g, %g, %g], fov %g", c.target[0], c.target[1], c.target[2], c.fov);
    mur_scene_camera_at(s, 3, &c);
    CHECK(fabs(c.position[0] - 100) < 1e-9 && fabs(c.position[1] + 140) < 1e-9 && fabs(c.position[2] - 32.5) < 1e-9,
          "half way: [%g, %g, %g]", c.position[0], c.position[1], c.position[2]);
    CHECK(fabs(c.target[0] - 150) < 1e-9 && fabs(c.fov - 40) < 1e-9, "target x %g, fov %g", c.target[0], c.fov);
    mur_scene_camera_at(s, 9, &c);
    CHECK(c.position[0] == 0 && c.target[2] == 100 && c.fov == 30, "at the end");
    mur_scene_destroy(s);
}

/* Small multiples of a 3D world: each panel its own sky (blue at its top)
 * under its label; and `murmur check` says where the camera stands. */
TEST(panels_of_a_3d_world_and_check)
{
    char path[256];
    snprintf(path, sizeof path, "%s", scratch_path("panels3d.yaml"));
    write_file(path, "world: {dimensions: 3, width: 480, height: 320, depth: 200}\n"
                     "flock: {count: 100}\n"
                     "video: {width: 600, height: 300, duration: 1s}\n"
                     "experiment:\n"
                     "  conditions:\n"
                     "    calm: {}\n"
                     "    noisy: {noise: 0.5}\n"
                     "layout: {panels: conditions}\n");
    char args[512], err[4096];
    const char *png = scratch_path("panels3d.png");
    snprintf(args, sizeof args, "still %s -o %s --at 0.5s -q", path, png);
    REQUIRE(murmur(args, err, sizeof err) == 0, "still: %s", err);
    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    REQUIRE(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, "read");
    const unsigned char *d = cairo_image_surface_get_data(s);
    int st = cairo_image_surface_get_stride(s);
    for (int k = 0; k < 2; k++) {   /* a little under each panel's label strip, a quarter across it */
        uint32_t c = ((const uint32_t *)(d + (size_t)40 * (size_t)st))[150 + 300 * k];
        CHECK((c & 0xff) > (c >> 16 & 0xff) + 10, "panel %d: a blue sky at its top (%06x)", k, c & 0xffffff);
    }
    cairo_surface_destroy(s);
    char out[4096];
    snprintf(args, sizeof args, "%s check %s 2>&1", MURMUR_EXE, path);
    FILE *p = popen(args, "r");
    REQUIRE(p, "popen");
    size_t got = fread(out, 1, sizeof out - 1, p);
    out[got] = 0;
    CHECK(pclose(p) == 0, "check exits 0");
    CHECK(strstr(out, "camera: (default) perspective from [240, -192, 30] at [240, 160, 100], up [0, 0, 1], fov 50"),
          "check's camera line: %s", out);
}

/* Depth of field (camera.aperture; focus at the target's distance): a bird
 * at the focus draws as it does without it; one far nearer the camera is
 * spread over more pixels than the same bird drawn sharp. */
TEST(depth_of_field_blurs_only_what_is_out_of_focus)
{
    const char *sharp =
        "world: {dimensions: 3, width: 480, height: 320, depth: 200, boundary: reflect}\n"
        "flock: {count: 1}\n"
        "video: {width: 320, height: 180, duration: 1s}\n"
        "camera: {position: [100, -200, 20], target: [200, 150, 120], fov: 40}\n"
        "look:\n"
        "  birds: points\n"
        "  boid: {size: 8, color: '#000000'}\n" WHITE_SKY;
    const char *blurred =
        "world: {dimensions: 3, width: 480, height: 320, depth: 200, boundary: reflect}\n"
        "flock: {count: 1}\n"
        "video: {width: 320, height: 180, duration: 1s}\n"
        "camera: {position: [100, -200, 20], target: [200, 150, 120], fov: 40, aperture: 4}\n"
        "look:\n"
        "  birds: points\n"
        "  boid: {size: 8, color: '#000000'}\n" WHITE_SKY;
    double at[3] = {200, 150, 120}, cx0, cy0, cx1, cy1;
    int w = 0, h = 0;
    int d0 = draw_one(sharp, at, &cx0, &cy0, &w, &h), d1 = draw_one(blurred, at, &cx1, &cy1, &w, &h);
    REQUIRE(d0 > 0 && d1 > 0, "both drawn (%d, %d dark pixels)", d0, d1);
    CHECK(d0 == d1 && cx0 == cx1 && cy0 == cy1, "in focus: %d pixels at (%.3f, %.3f) against %d at (%.3f, %.3f)",
          d1, cx1, cy1, d0, cx0, cy0);
    /* a third of the way from the camera to the target: far out of focus */
    double near[3] = {100 + 100 / 3.0, -200 + 350 / 3.0, 20 + 100 / 3.0};
    d0 = draw_one(sharp, near, &cx0, &cy0, &w, &h);
    d1 = draw_one(blurred, near, &cx1, &cy1, &w, &h);
    REQUIRE(d0 > 0 && d1 > 0, "both drawn near (%d, %d dark pixels)", d0, d1);
    CHECK(d1 > d0 + 10, "out of focus it spreads: %d pixels against %d sharp", d1, d0);
    CHECK(fabs(cx1 - cx0) < 0.5 && fabs(cy1 - cy0) < 0.5, "about the same place: (%.2f, %.2f) against (%.2f, %.2f)",
          cx1, cy1, cx0, cy0);
}

/* camera.views: the perspective view beside the top, front and side
 * projections, each its own clipped panel in a vector still; without the
 * key the still is the one view it was. */
TEST(a_still_with_views_has_a_panel_for_each)
{
    const char *one = scratch_path("views0.yaml"), *four = scratch_path("views4.yaml");
    write_file(one, "world: {dimensions: 3, width: 480, height: 320, depth: 200}\n"
                    "flock: {count: 50}\n"
                    "video: {width: 640, height: 360, duration: 1s}\n");
    write_file(four, "world: {dimensions: 3, width: 480, height: 320, depth: 200}\n"
                     "flock: {count: 50}\n"
                     "camera: {views: [perspective, top, front, side]}\n"
                     "video: {width: 640, height: 360, duration: 1s}\n");
    int clips[2] = {-1, -1};
    const char *yamls[] = {one, four}, *outs[] = {"views0.svg", "views4.svg"};
    for (int k = 0; k < 2; k++) {
        char args[512], err[2048];
        snprintf(args, sizeof args, "still %s -o %s --at 0.5s -q", yamls[k], scratch_path(outs[k]));
        REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", outs[k], err);
        size_t len = 0;
        char *b = test_slurp(scratch_path(outs[k]), &len);
        REQUIRE(b && len > 1000, "%s written (%zu bytes)", outs[k], len);
        clips[k] = 0;
        for (const char *q = b; (q = strstr(q, "<clipPath")); q++)
            clips[k]++;
        free(b);
    }
    CHECK(clips[0] == 0, "one view: no panels clipped (%d)", clips[0]);
    CHECK(clips[1] >= 4, "four views: at least four clipped panels (%d)", clips[1]);
}
