/* Trails in a 3D world (issue #29; docs/scenes.md "look.trails"): drawn
 * through the camera behind a moving bird and not ahead of it, paler far
 * away as the birds are, the same bytes on 1 and 2 threads, and a frame
 * drawn alone the same as that frame of a whole run. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "decode.h"
#include "harness.h"
#include "scene_util.h"
#include "murmur/render.h"
#include "murmur/scene.h"
#include "murmur/session.h"

/* A white world but for the birds, the camera looking along +y at a bird
 * flying along +x (to the picture's right). */
#define ONE_BIRD                                                                                             \
    "model: wrkspc\nworld: {dimensions: 3, width: 480, height: 320, depth: 200, boundary: open}\n"           \
    "flock: {count: 1, noise: 0}\n"                                                                          \
    "video: {width: 320, height: 180}\n"                                                                     \
    "camera: {position: [240, 40, 100], target: [240, 160, 100], fov: 40}\n"                               \
    "look:\n  boid: {size: 6, color: '#000000'}\n  birds: points\n"                                         \
    "  sky: {zenith: '#ffffff', horizon: '#ffffff', ground: '#ffffff', trees: '#ffffff', tree_height: 0}\n" \
    "  trails: {length: %d, fade: %s}\n"

/* One bird from (200, 160, 100) flying +x at 1.5 a tick for `ticks`
 * ticks, observed after every tick, then drawn: the dark pixels' columns,
 * the bird's column (the darkest pixel's) into *bird. -1: not drawn. */
static int draw_flight(int length, const char *fade, int ticks, int *left, int *right, int *bird, double *ink_left)
{
    char yaml[2048];
    snprintf(yaml, sizeof yaml, ONE_BIRD, length, fade);
    mur_scene *s = scene_of(yaml);
    if (!s)
        return -1;
    mur_error err = {{0}};
    mur_renderer *r = NULL;
    mur_flock *f = NULL;
    double x = 200, y = 160, z = 100, vx = 1.5, vy = 0, vz = 0;
    int rc = -1;
    if (!mur_renderer_create(&r, mur_scene_look(s), s->width, s->height, &err) &&
        !mur_flock_create(&f, &s->params, s->seed, &err) &&
        !mur_flock_set_state3(f, 1, &x, &y, &z, &vx, &vy, &vz, &err)) {
        mur_renderer_observe(r, 0, f, 0);
        for (long k = 1; k <= ticks; k++) {
            mur_flock_step(f);
            mur_renderer_observe(r, 0, f, k);
        }
        const uint8_t *px;
        int stride;
        const mur_flock *fl = f;
        if (!mur_renderer_draw_image(r, &fl, 1, ticks / 60.0, &px, &stride, &err)) {
            int darkest = 255 * 3;
            *left = s->width;
            *right = -1;
            *ink_left = 0;
            for (int j = 0; j < s->height; j++)
                for (int i = 0; i < s->width; i++) {
                    uint32_t c = ((const uint32_t *)(px + (size_t)j * (size_t)stride))[i];
                    int sum = (int)(c >> 16 & 0xff) + (int)(c >> 8 & 0xff) + (int)(c & 0xff);
                    if (sum < darkest) {
                        darkest = sum;
                        *bird = i;
                    }
                    if (sum < 3 * 250) {
                        *left = i < *left ? i : *left;
                        *right = i > *right ? i : *right;
                    }
                }
            for (int j = 0; j < s->height; j++)   /* ink well behind the bird: trail only */
                for (int i = 0; i < *bird - 6 && i < s->width; i++) {
                    uint32_t c = ((const uint32_t *)(px + (size_t)j * (size_t)stride))[i];
                    *ink_left += (3 * 255 - ((c >> 16 & 0xff) + (c >> 8 & 0xff) + (c & 0xff))) / 765.0;
                }
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

TEST(a_3d_trail_is_drawn_behind_a_moving_bird)
{
    static const char *const fades[] = {"false", "true"};
    for (int k = 0; k < 2; k++) {
        int left, right, bird;
        double ink;
        REQUIRE(draw_flight(20, fades[k], 30, &left, &right, &bird, &ink) == 0, "fade %s: not drawn", fades[k]);
        /* the bird moved 45 units; 20 ticks of trail are 30 units, about
         * 30 x 90 / (120 tan 20) = 62 pixels at its distance (the fading
         * one's faint end is lighter than the threshold) */
        CHECK(bird > 140 && bird < 240, "fade %s: the bird at column %d, not right of the middle", fades[k], bird);
        CHECK(bird - left > 40, "fade %s: ink reaches only %d pixels behind the bird (column %d, bird %d)", fades[k],
              bird - left, left, bird);
        CHECK(right - bird < 8, "fade %s: ink %d pixels ahead of the bird: a trail goes behind it", fades[k],
              right - bird);
        CHECK(ink > 20, "fade %s: %.1f pixels' worth of ink behind the bird", fades[k], ink);
    }
    /* without trails: nothing behind it but its own dot */
    int left, right, bird;
    double ink;
    REQUIRE(draw_flight(0, "false", 30, &left, &right, &bird, &ink) == 0, "no trail: not drawn");
    CHECK(bird - left < 8 && ink == 0, "without a trail ink reaches %d pixels behind the bird (%.1f)", bird - left,
          ink);
    /* a fading trail is fainter toward its end than one that does not fade */
    double flat, faded;
    draw_flight(20, "false", 30, &left, &right, &bird, &flat);
    draw_flight(20, "true", 30, &left, &right, &bird, &faded);
    CHECK(faded < 0.9 * flat, "a fading trail's ink %.1f, a flat one's %.1f", faded, flat);
}

/* A flock whose trails go far and near: farther trails paler, the frames
 * the same bytes on 1 and 2 threads. */
static const char *flock3 =
    "seed: 4\nmodel: wrkspc\n"
    "world: {dimensions: 3, width: 300, height: 300, depth: 150, boundary: wrap}\n"
    "flock: {count: 300, perception: 45}\n"
    "video: {width: 320, height: 180, fps: 10, duration: 1.5s, warmup: 1s}\n"
    "camera: {position: [150, -60, 20], target: [150, 150, 80], fov: 60, follow: flock}\n"
    "look:\n  boid: {size: 5, color: '#101018'}\n  trails: {length: 30, fade: true, warm: true}\n"
    "  visibility: 400\n";

TEST(a_3d_render_with_trails_is_the_same_on_1_and_2_threads)
{
    char path[256];
    snprintf(path, sizeof path, "%s", scratch_path("trails3d.yaml"));
    write_file(path, flock3);
    const int threads[] = {1, 2};
    uint64_t want = 0;
    for (int k = 0; k < 2; k++) {
        char args[512], err[2048], out[64];
        snprintf(out, sizeof out, "trails3d-%d.mp4", threads[k]);
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

static uint64_t hash_pixels(const uint8_t *px, int stride, int w, int h)
{
    uint64_t v = 1469598103934665603ULL;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < 4 * w; x++)
            v = (v ^ px[(size_t)y * stride + x]) * 1099511628211ULL;
    return v;
}

/* Frame k of a session that drew every frame before it, and of one that
 * draws it alone: the same (the trails are the ticks', not the frames'). */
TEST(a_3d_frame_with_trails_drawn_alone_is_that_frame_of_the_run)
{
    mur_scene *s = scene_of(flock3);
    REQUIRE(s, "no scene");
    mur_error err = {{0}};
    mur_session *a = NULL, *b = NULL;
    REQUIRE(!mur_session_create(&a, s, NULL, &err) && !mur_session_create(&b, s, NULL, &err), "%s", err.msg);
    const uint8_t *px;
    int stride;
    uint64_t whole = 0, first = 0;
    for (long k = 0; k <= 12; k++) {
        REQUIRE(!mur_session_frame(a, k, &px, &stride, &err), "frame %ld: %s", k, err.msg);
        if (k == 0)
            first = hash_pixels(px, stride, s->width, s->height);
        whole = hash_pixels(px, stride, s->width, s->height);
    }
    REQUIRE(!mur_session_frame(b, 12, &px, &stride, &err), "frame 12 alone: %s", err.msg);
    CHECK(hash_pixels(px, stride, s->width, s->height) == whole, "frame 12 drawn alone differs from the run's");
    CHECK(first != whole, "frames 0 and 12 are the same: the test cannot fail");
    mur_session_destroy(a);
    mur_session_destroy(b);
    mur_scene_destroy(s);
}

/* A bird crossing a wrapping world's seam under camera.wrap: nearest,
 * drawn by a camera whose x is cam_x (target likewise): the frame after
 * `ticks` ticks into *out (w x h pixels, 0xRRGGBB, the caller frees), its
 * dark pixels into *ink. 0, or -1 when it could not draw. Positions and
 * the speed are dyadic, so a camera a world's width over sees the same
 * numbers, not ones a rounding apart. */
static int draw_at_seam(double cam_x, int ticks, uint32_t **out, int *ink)
{
    char yaml[2048];
    snprintf(yaml, sizeof yaml,
             "model: wrkspc\nworld: {dimensions: 3, width: 256, height: 256, depth: 128, boundary: wrap}\n"
             "flock: {count: 1, noise: 0}\n"
             "video: {width: 320, height: 180}\n"
             "camera: {position: [%g, -64, 64], target: [%g, 128, 64], fov: 40, wrap: nearest}\n"
             "look:\n  boid: {size: 6, color: '#000000'}\n  birds: points\n"
             "  sky: {zenith: '#ffffff', horizon: '#ffffff', ground: '#ffffff', trees: '#ffffff', "
             "tree_height: 0}\n"
             "  trails: {length: 40, fade: false}\n",
             cam_x, cam_x);
    mur_scene *s = scene_of(yaml);
    if (!s)
        return -1;
    mur_error err = {{0}};
    mur_renderer *r = NULL;
    mur_flock *f = NULL;
    double x = 24, y = 128, z = 64, vx = -1.5, vy = 0, vz = 0;
    int rc = -1;
    if (!mur_renderer_create(&r, mur_scene_look(s), s->width, s->height, &err) &&
        !mur_flock_create(&f, &s->params, s->seed, &err) &&
        !mur_flock_set_state3(f, 1, &x, &y, &z, &vx, &vy, &vz, &err)) {
        mur_renderer_observe(r, 0, f, 0);
        for (long k = 1; k <= ticks; k++) {
            mur_flock_step(f);
            mur_renderer_observe(r, 0, f, k);
        }
        const uint8_t *px;
        int stride;
        const mur_flock *fl = f;
        uint32_t *img = malloc((size_t)s->width * (size_t)s->height * sizeof *img);
        if (img && !mur_renderer_draw_image(r, &fl, 1, ticks / 60.0, &px, &stride, &err)) {
            *ink = 0;
            for (int j = 0; j < s->height; j++)
                for (int i = 0; i < s->width; i++) {
                    uint32_t c = ((const uint32_t *)(px + (size_t)j * (size_t)stride))[i] & 0xffffff;
                    img[(size_t)j * (size_t)s->width + (size_t)i] = c;
                    *ink += c != 0xffffff;
                }
            *out = img;
            img = NULL;
            rc = 0;
        }
        free(img);
    }
    if (err.msg[0])
        fprintf(stderr, "  %s\n", err.msg);
    mur_flock_destroy(f);
    mur_renderer_destroy(r);
    mur_scene_destroy(s);
    return rc;
}

/* camera.wrap: nearest draws each bird at its image nearest the target,
 * and its trail must start there too: a bird that crossed the seam at
 * x = 0 (its stored x now near 256) has the same trail for a camera at
 * x = 8, beside the seam, as for one a world's width over, at x = 264. */
TEST(a_3d_trail_across_the_seam_starts_at_the_bird_as_drawn)
{
    uint32_t *a = NULL, *b = NULL;
    int ink_a = 0, ink_b = 0;
    REQUIRE(draw_at_seam(8, 30, &a, &ink_a) == 0, "camera at x = 8: not drawn");
    if (draw_at_seam(8 + 256, 30, &b, &ink_b)) {
        free(a);
        REQUIRE(0, "camera at x = 264: not drawn");
    }
    int differ = 0;
    for (size_t k = 0; k < (size_t)320 * 180; k++)
        differ += a[k] != b[k];
    /* the bird's dot is a few pixels; 40 ticks of trail are far more */
    CHECK(ink_b > 60, "the camera a world's width over sees %d pixels of ink: no trail to compare", ink_b);
    CHECK(differ == 0, "%d pixels differ between the two cameras (ink %d and %d)", differ, ink_a, ink_b);
    free(a);
    free(b);
}
