/* The camera (docs/scenes.md `camera`): a following camera keeps its boid
 * in the middle, checked from the engine's positions and the camera's view
 * and on a decoded video; a view across a wrapping world's seam equals the
 * same view of the world shifted by half the box; the identity camera
 * changes no pixel; the timeline ramps the zoom; bad cameras are refused
 * with file:line:col. */
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

/* A renderer of s's look fed by a driver of s's flock, tick by tick, as a
 * session feeds one. */
typedef struct {
    mur_scene *s;
    mur_flock *f;
    mur_driver *d;
    mur_renderer *r;
} rig;

static void rig_observe(void *ctx, const mur_flock *f, long tick)
{
    mur_renderer_observe(ctx, 0, f, tick);
}

static int rig_open(rig *g, const char *yaml)
{
    memset(g, 0, sizeof *g);
    mur_error err = {{0}};
    if (!(g->s = scene_of(yaml)))
        return -1;
    if (mur_renderer_create(&g->r, mur_scene_look(g->s), g->s->width, g->s->height, &err) ||
        mur_flock_create(&g->f, &g->s->params, g->s->seed, &err) || mur_driver_create(&g->d, &err))
        return -1;
    mur_driver_set_on_tick(g->d, rig_observe, g->r);
    return mur_driver_start(g->d, g->s, g->f, &g->s->params, &err);
}

static void rig_close(rig *g)
{
    mur_renderer_destroy(g->r);
    mur_driver_destroy(g->d);
    mur_flock_destroy(g->f);
    mur_scene_destroy(g->s);
}

/* Pixels from the middle of the frame to where boid i is drawn: its image
 * nearest the view's centre, at the view's scale. */
static double off_centre(const rig *g, const mur_view *v, int i)
{
    const mur_params *p = mur_flock_params(g->f);
    double dx, dy;
    mur_params_offset(p, v->x, v->y, mur_flock_x(g->f)[i], mur_flock_y(g->f)[i], &dx, &dy);
    double fit = fmin(g->s->width / p->width, g->s->height / p->height);
    return hypot(dx, dy) * fit * v->zoom;
}

static const char *follow_scene =
    "seed: 3\n"
    "world: {width: 480, height: 320, boundary: wrap}\n"
    "flock: {count: 160, noise: 0.1}\n"
    "video: {width: 1280, height: 720, fps: 30, duration: 10s}\n"
    "camera: {follow: {boid: 7}, zoom: 3}\n";

/* Ten seconds of a jostled boid in a flock that turns and splits: at 3x
 * zoom it never leaves the middle by more than a few pixels (the filter
 * tracks its velocity), and the camera moves on with it (it is following,
 * not standing still). */
TEST(following_a_boid_keeps_it_in_the_middle)
{
    rig g;
    CHECK(rig_open(&g, follow_scene) == 0, "rig");
    double worst = 0, travelled = 0, px = 0, py = 0;
    long frames = mur_scene_frames(g.s);
    mur_error err = {{0}};
    for (long k = 0; k < frames; k++) {
        CHECK(mur_driver_run_to(g.d, mur_scene_frame_tick(g.s, k), &err) == 0, "%s", err.msg);
        mur_view v;
        mur_renderer_view(g.r, 0, g.f, mur_scene_frame_time(g.s, k), &v);
        CHECK(v.zoom == 3, "zoom %g", v.zoom);
        worst = fmax(worst, off_centre(&g, &v, 7));
        if (k) {
            double dx, dy;
            mur_params_offset(mur_flock_params(g.f), px, py, v.x, v.y, &dx, &dy);
            travelled += hypot(dx, dy);
        }
        px = v.x;
        py = v.y;
    }
    CHECK(worst < 3, "boid 7 strayed %.2f pixels from the middle", worst);
    CHECK(travelled > 200, "the camera moved only %.1f world units in 10 s", travelled);
    rig_close(&g);
}

/* The same on decoded frames: one red boid on black, wandering under noise
 * through a wrapping world, at 4x zoom; the red pixels' centre is the
 * frame's middle in every frame. */
TEST(a_followed_boid_is_in_the_middle_of_the_decoded_frames)
{
    const char *scene = scratch_path("follow.yaml"), *out = scratch_path("follow.mp4");
    char text[1024], args[600], err[2048];
    snprintf(text, sizeof text,
             "seed: 5\n"
             "world: {width: 200, height: 200, boundary: wrap}\n"
             "flock: {count: 1, noise: 0.3}\n"
             "video: {width: 320, height: 240, fps: 30, duration: 3s, output: %s}\n"
             "look: {background: \"#000000\", boid: {shape: dot, size: 4, color: \"#ff0000\"}}\n"
             "camera: {follow: {boid: 0}, zoom: 4}\n", out);
    write_file(scene, text);
    snprintf(args, sizeof args, "render -q %s", scene);
    CHECK(murmur(args, err, sizeof err) == 0, "render: %s", err);
    test_video_info info;
    CHECK(test_video_probe(out, &info) == 0 && info.frames == 90, "frames %d", info.frames);
    double worst = 0;
    for (int k = 0; k < info.frames; k += 7) {
        uint8_t *rgb = NULL;
        int w, h;
        CHECK(test_video_frame_rgb(out, k, &rgb, &w, &h) == 0, "frame %d", k);
        if (!rgb)
            return;
        double sx = 0, sy = 0, sw = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                const uint8_t *q = rgb + ((size_t)y * w + x) * 3;
                double red = q[0] > 60 && q[1] < 60 && q[2] < 60 ? q[0] : 0;
                sx += red * (x + 0.5);
                sy += red * (y + 0.5);
                sw += red;
            }
        free(rgb);
        CHECK(sw > 0, "frame %d: no red boid", k);
        if (sw > 0)
            worst = fmax(worst, hypot(sx / sw - w / 2.0, sy / sw - h / 2.0));
    }
    CHECK(worst < 2.5, "the red boid was %.2f pixels from the middle", worst);
}

/* A camera looking at the seam (x = 0) of flock A, and one looking at the
 * middle of flock B, which is A moved by half the box: the same picture,
 * trails, rings, arrows and lines included. Without the periodic images
 * the left half of the first would be empty; with the in-box seam copies
 * drawn as well, translucent things would be doubled there. */
TEST(a_view_across_the_seam_is_the_world_shifted_by_half_the_box)
{
    static const char *base =
        "seed: 11\n"
        "world: {width: 480, height: 320, boundary: wrap}\n"
        "flock: {count: 200}\n"
        "video: {width: 480, height: 320, fps: 30, duration: 2s}\n"
        "look:\n"
        "  boid: {shape: arrow, size: 7, color: heading}\n"
        "  trails: {length: 20, fade: true}\n"
        "  overlays: [{watch: {boid: %d}}]\n"
        "camera: {center: [%g, 160], zoom: 1.6}\n";
    char ya[1024], yb[1024];
    rig a, b;
    /* boid 0 of A near the seam, so its rings and arrows cross it */
    snprintf(ya, sizeof ya, base, 0, 0.0);
    CHECK(rig_open(&a, ya) == 0, "rig a");
    mur_error err = {{0}};
    /* a flock whose boid 0 sits on the seam: set A's state by hand */
    int n = mur_flock_count(a.f);
    double *x = malloc(4 * (size_t)n * sizeof *x), *y = x + n, *vx = y + n, *vy = vx + n;
    memcpy(x, mur_flock_x(a.f), (size_t)n * sizeof *x);
    memcpy(y, mur_flock_y(a.f), (size_t)n * sizeof *x);
    memcpy(vx, mur_flock_vx(a.f), (size_t)n * sizeof *x);
    memcpy(vy, mur_flock_vy(a.f), (size_t)n * sizeof *x);
    x[0] = 478;
    CHECK(mur_flock_set_state(a.f, n, x, y, vx, vy, &err) == 0, "%s", err.msg);
    snprintf(yb, sizeof yb, base, 0, 240.0);
    CHECK(rig_open(&b, yb) == 0, "rig b");
    /* 20 ticks: A steps, B is A moved by half the box after every tick */
    for (long t = 1; t <= 20; t++) {
        CHECK(mur_flock_step(a.f) == 0, "step");
        for (int i = 0; i < n; i++) {
            x[i] = fmod(mur_flock_x(a.f)[i] + 240, 480);
            y[i] = mur_flock_y(a.f)[i];
            vx[i] = mur_flock_vx(a.f)[i];
            vy[i] = mur_flock_vy(a.f)[i];
        }
        CHECK(mur_flock_set_state(b.f, n, x, y, vx, vy, &err) == 0, "%s", err.msg);
        mur_renderer_observe(a.r, 0, a.f, t);
        mur_renderer_observe(b.r, 0, b.f, t);
    }
    free(x);
    const uint8_t *pa, *pb;
    int sa, sb;
    CHECK(mur_renderer_draw_image(a.r, (const mur_flock *const *)&a.f, 1, 0, &pa, &sa, &err) == 0, "%s", err.msg);
    CHECK(mur_renderer_draw_image(b.r, (const mur_flock *const *)&b.f, 1, 0, &pb, &sb, &err) == 0, "%s", err.msg);
    long differ = 0, lit = 0;
    int worst = 0;
    for (int r = 0; r < 320; r++)
        for (int c = 0; c < 480 * 4; c++) {
            int d = abs(pa[(size_t)r * sa + c] - pb[(size_t)r * sb + c]);
            differ += d > 2;
            worst = d > worst ? d : worst;
            lit += c % 4 == 1 && pa[(size_t)r * sa + c] > 60;
        }
    if (differ) {
        mur_renderer_write_png(a.r, "/tmp/murmur-seam-a.png", NULL);
        mur_renderer_write_png(b.r, "/tmp/murmur-seam-b.png", NULL);
    }
    CHECK(lit > 2000, "only %ld lit pixels: nothing drawn?", lit);
    CHECK(differ <= 20, "%ld channels differ by more than 2 (worst %d): /tmp/murmur-seam-a.png, -b.png",
          differ, worst);
    rig_close(&a);
    rig_close(&b);
}

/* A camera at the world's centre with zoom 1 is no camera: the same bytes. */
TEST(the_identity_camera_changes_no_pixel)
{
    static const char *base =
        "seed: 2\n"
        "world: {width: 480, height: 320, boundary: wrap}\n"
        "flock: {count: 120}\n"
        "video: {width: 640, height: 360, fps: 30, duration: 1s}\n"
        "look: {trails: {length: 12}, overlays: [{watch: {boid: 3}}, clock]}\n"
        "%s";
    char y0[1024], y1[1024];
    snprintf(y0, sizeof y0, base, "");
    snprintf(y1, sizeof y1, base, "camera: {center: [240, 160], zoom: 1}\n");
    mur_scene *s0 = scene_of(y0), *s1 = scene_of(y1);
    CHECK(s0 && s1, "scenes");
    if (!s0 || !s1)
        return;
    mur_session *a = NULL, *b = NULL;
    mur_error err = {{0}};
    CHECK(mur_session_create(&a, s0, NULL, &err) == 0 && mur_session_create(&b, s1, NULL, &err) == 0, "%s",
          err.msg);
    for (long k = 0; k < 30; k += 9) {
        const uint8_t *pa, *pb;
        int sa, sb;
        CHECK(mur_session_frame(a, k, &pa, &sa, &err) == 0, "%s", err.msg);
        CHECK(mur_session_frame(b, k, &pb, &sb, &err) == 0, "%s", err.msg);
        CHECK(sa == sb && memcmp(pa, pb, (size_t)sa * 360) == 0, "frame %ld differs", k);
    }
    mur_session_destroy(a);
    mur_session_destroy(b);
    mur_scene_destroy(s0);
    mur_scene_destroy(s1);
}

TEST(the_timeline_sets_and_ramps_the_camera)
{
    mur_scene *s = scene_of("world: {width: 400, height: 200}\n"
                            "camera: {center: [100, 50], zoom: 1}\n"
                            "timeline:\n"
                            "  - {at: 2s, ramp: {camera.zoom: 4, camera.center: [300, 150]}, over: 2s}\n"
                            "  - {at: 5s, set: {camera.x: 10}}\n");
    CHECK(s != NULL, "scene");
    if (!s)
        return;
    mur_camera c;
    mur_scene_camera_at(s, 1, &c);
    CHECK(c.zoom == 1 && c.x == 100 && c.y == 50, "before: %g %g %g", c.zoom, c.x, c.y);
    mur_scene_camera_at(s, 3, &c);   /* half-way: zoom geometric, centre linear */
    CHECK(fabs(c.zoom - 2) < 1e-12 && fabs(c.x - 200) < 1e-12 && fabs(c.y - 100) < 1e-12,
          "half-way: %g %g %g", c.zoom, c.x, c.y);
    mur_scene_camera_at(s, 4.5, &c);
    CHECK(c.zoom == 4 && c.x == 300 && c.y == 150, "after: %g %g %g", c.zoom, c.x, c.y);
    mur_scene_camera_at(s, 6, &c);
    CHECK(c.zoom == 4 && c.x == 10 && c.y == 150, "set: %g %g %g", c.zoom, c.x, c.y);
    mur_scene_destroy(s);
    /* no camera: the look has none */
    s = scene_of("seed: 1\n");
    CHECK(s && !mur_scene_look(s)->camera_at, "a scene without a camera has none");
    mur_scene_destroy(s);
}

TEST(bad_cameras_are_refused_with_their_place)
{
    expect_refusal("flock: {count: 10}\ncamera: {follow: {boid: 10}}\n", "t.yaml:2:25: error", "boid 10");
    expect_refusal("camera: {zoom: 0}\n", "t.yaml:1:16: error", "'zoom'");
    expect_refusal("camera: {zoom: -2}\n", "t.yaml:1:16: error", "out of range");
    expect_refusal("camera: {follow: {predator: 0}}\npredators: []\n", "t.yaml:1:29: error", "predator 0");
    expect_refusal("camera: {follow: herd}\n", "t.yaml:1:18: error", "flock");
    expect_refusal("timeline:\n  - {at: 1s, set: {camera.zoom: 0}}\n", "t.yaml:2:33: error", "camera.zoom");
    expect_refusal("timeline:\n  - {at: 1s, set: {camera.zom: 2}}\n", "t.yaml:2:20: error", "camera.zoom");
    expect_refusal("timeline:\n  - {at: 1s, set: {camera.smooth: 1}}\n", "t.yaml:2:20: error",
                   "set once, in the scene's camera: section");
    expect_refusal("flock: {camera.zoom: 2}\n", "t.yaml:1:9: error", "timeline");
    expect_refusal("camera: {center: [1]}\n", "t.yaml:1:18: error", "[x, y]");
    /* and the command says so with exit 2 */
    const char *scene = scratch_path("badcam.yaml");
    write_file(scene, "flock: {count: 5}\ncamera: {follow: {boid: 5}}\n");
    char args[512], err[1024];
    snprintf(args, sizeof args, "check %s", scene);
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "badcam.yaml:2:25: error"), "check: %s", err);
}

/* Red pixels of a frame drawn by g at frame k. */
static long red_pixels(rig *g, long k)
{
    mur_error err = {{0}};
    const uint8_t *px;
    int stride;
    if (mur_driver_run_to(g->d, mur_scene_frame_tick(g->s, k), &err) ||
        mur_renderer_draw_image(g->r, (const mur_flock *const *)&g->f, 1, mur_scene_frame_time(g->s, k), &px,
                                &stride, &err))
        return -1;
    long n = 0;
    for (int y = 0; y < g->s->height; y++)
        for (int x = 0; x < g->s->width; x++) {
            const uint8_t *q = px + (size_t)y * stride + 4 * (size_t)x;   /* B, G, R, A */
            n += q[2] > 128 && q[1] < 64 && q[0] < 64;
        }
    return n;
}

/* Boids grow with the zoom; `boid_size: fixed` keeps their size of zoom 1. */
TEST(boids_follow_the_zoom_unless_their_size_is_fixed)
{
    static const char *base =
        "world: {width: 200, height: 200, boundary: wrap}\n"
        "flock: {count: 1}\n"
        "video: {width: 400, height: 400, fps: 30, duration: 1s}\n"
        "look: {background: \"#000000\", boid: {shape: dot, size: 10, color: \"#ff0000\"}}\n"
        "%s\n";
    const char *cams[3] = {"", "camera: {follow: {boid: 0}, zoom: 4}",
                           "camera: {follow: {boid: 0}, zoom: 4, boid_size: fixed}"};
    long n[3];
    for (int c = 0; c < 3; c++) {
        char y[1024];
        snprintf(y, sizeof y, base, cams[c]);
        rig g;
        CHECK(rig_open(&g, y) == 0, "rig %d", c);
        n[c] = red_pixels(&g, 10);
        rig_close(&g);
    }
    CHECK(n[0] > 50, "the boid covers %ld pixels at zoom 1", n[0]);
    CHECK(n[1] > 12 * n[0], "zoom 4: %ld pixels against %ld at zoom 1", n[1], n[0]);
    CHECK(n[2] > n[0] * 3 / 4 && n[2] < n[0] * 5 / 4, "fixed size: %ld pixels against %ld at zoom 1", n[2],
          n[0]);
}

/* The following camera depends on the ticks run, not on the frames drawn:
 * frame 75 drawn alone (a still) is frame 75 of a render, byte for byte. */
TEST(a_still_sees_the_camera_of_its_frame_in_a_render)
{
    mur_scene *s = scene_of("seed: 3\n"
                            "world: {width: 480, height: 320, boundary: wrap}\n"
                            "flock: {count: 160, noise: 0.1}\n"
                            "video: {width: 320, height: 180, fps: 30, duration: 3s}\n"
                            "look: {trails: {length: 15}}\n"
                            "camera: {follow: flock, zoom: 2.5}\n");
    REQUIRE(s, "scene");
    mur_session *a = NULL, *b = NULL;
    mur_error err = {{0}};
    CHECK(mur_session_create(&a, s, NULL, &err) == 0 && mur_session_create(&b, s, NULL, &err) == 0, "%s",
          err.msg);
    const uint8_t *pa = NULL, *pb = NULL;
    int sa = 0, sb = 0;
    for (long k = 0; k <= 75; k++)
        CHECK(mur_session_frame(a, k, &pa, &sa, &err) == 0, "%s", err.msg);
    CHECK(mur_session_frame(b, 75, &pb, &sb, &err) == 0, "%s", err.msg);
    CHECK(pa && pb && sa == sb && memcmp(pa, pb, (size_t)sa * 180) == 0, "frame 75 differs");
    mur_session_destroy(a);
    mur_session_destroy(b);
    mur_scene_destroy(s);
}

/* Largest change of the camera's per-frame motion over a render of g's
 * scene, pixels per frame per frame: a jump of the target shows as a
 * spike, a glide does not. */
static double worst_jerk(rig *g)
{
    mur_error err = {{0}};
    const mur_params *p = mur_flock_params(g->f);
    double fit = fmin(g->s->width / p->width, g->s->height / p->height), worst = 0;
    double px = 0, py = 0, vx = 0, vy = 0;
    long frames = mur_scene_frames(g->s);
    for (long k = 0; k < frames; k++) {
        if (mur_driver_run_to(g->d, mur_scene_frame_tick(g->s, k), &err))
            return -1;
        mur_view v;
        mur_renderer_view(g->r, 0, g->f, mur_scene_frame_time(g->s, k), &v);
        double dx = 0, dy = 0;
        if (k)
            mur_params_offset(p, px, py, v.x, v.y, &dx, &dy);
        dx *= fit * v.zoom;
        dy *= fit * v.zoom;
        if (k > 1)
            worst = fmax(worst, hypot(dx - vx, dy - vy));
        vx = dx;
        vy = dy;
        px = v.x;
        py = v.y;
    }
    return worst;
}

/* Following the flock: the largest cluster's centre jumps whenever boids
 * join or leave it, or another cluster becomes the largest (locked to it,
 * smooth: 0, the camera leaps across the world from one frame to the
 * next); the default spring turns that into a pan whose speed changes by
 * a twentieth of that at most from one frame to the next. */
TEST(following_the_flock_glides_where_its_centre_jumps)
{
    static const char *base = "seed: 4\n"
                              "world: {width: 600, height: 400, boundary: wrap}\n"
                              "flock: {count: 220, noise: 0.05}\n"
                              "video: {width: 640, height: 360, fps: 30, duration: 12s}\n"
                              "camera: {follow: flock, zoom: 2%s}\n";
    char y[512];
    rig g;
    snprintf(y, sizeof y, base, ", smooth: 0");
    CHECK(rig_open(&g, y) == 0, "rig");
    double locked = worst_jerk(&g);
    rig_close(&g);
    snprintf(y, sizeof y, base, "");
    CHECK(rig_open(&g, y) == 0, "rig");
    double smooth = worst_jerk(&g);
    rig_close(&g);
    CHECK(locked > 20, "locked to the cluster the camera jerked at most %.2f px: no jump to smooth", locked);
    CHECK(smooth < locked / 20, "the following camera's motion changed by %.2f px in one frame (locked: %.2f)",
          smooth, locked);
}

/* The timeline changes what the camera follows: boid 7, then boid 40 from
 * 2 s (locked: smooth 0, so the switch is a cut), then predator 0 from 4 s
 * on; each is in the middle of the view while it is followed, the
 * scene's camera says what it follows at each time, and a still after
 * each switch is the render's frame, byte for byte. */
TEST(the_timeline_changes_what_the_camera_follows)
{
    static const char *yaml = "seed: 3\n"
                              "world: {width: 480, height: 320, boundary: wrap}\n"
                              "flock: {count: 160, noise: 0.1}\n"
                              "video: {width: 320, height: 180, fps: 30, duration: 6s}\n"
                              "camera: {follow: {boid: 7}, zoom: 3, smooth: 0}\n"
                              "predators:\n"
                              "  - {mode: flee, path: [[0s, 40, 40], [6s, 400, 260]]}\n"
                              "timeline:\n"
                              "  - {at: 2s, set: {camera.follow: {boid: 40}}}\n"
                              "  - {at: 4s, set: {camera.follow: {predator: 0}}}\n";
    rig g;
    REQUIRE(rig_open(&g, yaml) == 0, "rig");
    mur_camera c;
    mur_scene_camera_at(g.s, 1.9, &c);
    CHECK(c.follows && c.follow == MUR_FOLLOW_BOID && c.follow_index == 7 && c.smooth == 0, "at 1.9 s");
    mur_scene_camera_at(g.s, 2, &c);
    CHECK(c.follows && c.follow == MUR_FOLLOW_BOID && c.follow_index == 40, "at 2 s: boid %d", c.follow_index);
    mur_scene_camera_at(g.s, 5, &c);
    CHECK(c.follows && c.follow == MUR_FOLLOW_PREDATOR && c.follow_index == 0 && c.has_target, "at 5 s");
    double worst7 = 0, worst40 = 0, worst_p = 0;
    long frames = mur_scene_frames(g.s);
    mur_error err = {{0}};
    for (long k = 0; k < frames; k++) {
        REQUIRE(mur_driver_run_to(g.d, mur_scene_frame_tick(g.s, k), &err) == 0, "%s", err.msg);
        double t = mur_scene_frame_time(g.s, k);
        mur_view v;
        mur_renderer_view(g.r, 0, g.f, t, &v);
        if (t < 2)
            worst7 = fmax(worst7, off_centre(&g, &v, 7));
        else if (t < 4)
            worst40 = fmax(worst40, off_centre(&g, &v, 40));
        else {
            mur_scene_camera_at(g.s, t, &c);
            const mur_params *p = mur_flock_params(g.f);
            double dx, dy, fit = fmin(g.s->width / p->width, g.s->height / p->height);
            mur_params_offset(p, v.x, v.y, c.tx, c.ty, &dx, &dy);
            worst_p = fmax(worst_p, hypot(dx, dy) * fit * v.zoom);
        }
    }
    CHECK(worst7 < 1e-6 && worst40 < 1e-6 && worst_p < 1e-6,
          "off the middle: boid 7 by %.3g px, boid 40 by %.3g px, the predator by %.3g px", worst7, worst40,
          worst_p);
    rig_close(&g);
    /* a still after each switch sees the render's camera */
    mur_scene *s = scene_of(yaml);
    REQUIRE(s, "scene");
    mur_session *a = NULL;
    mur_error e2 = {{0}};
    REQUIRE(mur_session_create(&a, s, NULL, &e2) == 0, "%s", e2.msg);
    const long at[] = {61, 125};
    uint8_t *kept[2] = {NULL, NULL};
    const uint8_t *px = NULL;
    int stride = 0;
    for (long k = 0; k <= at[1]; k++) {
        CHECK(mur_session_frame(a, k, &px, &stride, &e2) == 0, "%s", e2.msg);
        for (int i = 0; i < 2; i++)
            if (k == at[i] && (kept[i] = malloc((size_t)stride * 180)))
                memcpy(kept[i], px, (size_t)stride * 180);
    }
    for (int i = 0; i < 2; i++) {
        mur_session *b = NULL;
        const uint8_t *pb = NULL;
        int sb = 0;
        CHECK(mur_session_create(&b, s, NULL, &e2) == 0 && mur_session_frame(b, at[i], &pb, &sb, &e2) == 0,
              "%s", e2.msg);
        CHECK(kept[i] && pb && sb == stride && memcmp(kept[i], pb, (size_t)sb * 180) == 0,
              "frame %ld drawn alone differs from the render's", at[i]);
        mur_session_destroy(b);
        free(kept[i]);
    }
    mur_session_destroy(a);
    mur_scene_destroy(s);
}

/* How far predator `tag` - 1, hunting, is from the view's centre, in
 * pixels (-1: it is not hunting now). */
static double hunter_off(const rig *g, const mur_view *v, int tag)
{
    int n = 0;
    const mur_predator *own = mur_flock_predators(g->f, &n);
    const mur_params *p = mur_flock_params(g->f);
    for (int k = 0; k < n; k++)
        if (own[k].hunting && own[k].tag == tag) {
            double dx, dy, fit = fmin(g->s->width / p->width, g->s->height / p->height);
            mur_params_offset(p, v->x, v->y, own[k].x, own[k].y, &dx, &dy);
            return hypot(dx, dy) * fit * v->zoom;
        }
    return -1;
}

/* A hunter (pursue: it moves itself, tick by tick) is followed as any
 * predator: locked (smooth 0) it is in the middle of every frame while it
 * hunts, across the wrapping world's seam; smoothed, the spring matches
 * its velocity (its step from the tick before), so it lags by a few
 * pixels as it turns, where a spring that took it as standing still
 * would trail it by some 2 v / w = 22 world units, 60 pixels. */
TEST(the_camera_follows_a_hunter)
{
    static const char *fmt = "seed: 5\n"
                             "world: {width: 480, height: 320, boundary: wrap}\n"
                             "flock: {count: 120}\n"
                             "video: {width: 320, height: 180, fps: 30, duration: 8s}\n"
                             "camera: {follow: {predator: 1}, zoom: 2, smooth: %s}\n"
                             "predators:\n"
                             "  - {mode: flee, path: [[0s, 40, 40], [8s, 400, 260]]}\n"
                             "  - {mode: flee, pursue: nearest, speed: 3, turn: 3, from: 1s, x: 'W/2', y: 'H/2'}\n";
    const char *smooth[] = {"0s", "0.5s"};
    for (int m = 0; m < 2; m++) {
        char yaml[1024];
        snprintf(yaml, sizeof yaml, fmt, smooth[m]);
        rig g;
        REQUIRE(rig_open(&g, yaml) == 0, "rig");
        double worst = 0;
        int seen = 0;
        long frames = mur_scene_frames(g.s);
        mur_error err = {{0}};
        for (long k = 0; k < frames; k++) {
            REQUIRE(mur_driver_run_to(g.d, mur_scene_frame_tick(g.s, k), &err) == 0, "%s", err.msg);
            double t = mur_scene_frame_time(g.s, k);
            mur_view v;
            mur_renderer_view(g.r, 0, g.f, t, &v);
            double off = hunter_off(&g, &v, 2);
            if (fabs(t - 1) > 0.05)   /* the frame at 1 s shows the tick before it */
                CHECK((off >= 0) == (t > 1), "at %gs the hunter is %s", t, off >= 0 ? "hunting" : "not hunting");
            if (t >= 3)   /* the smoothed camera has caught up with it */
                worst = fmax(worst, off), seen++;
        }
        CHECK(seen > 100, "%d frames", seen);
        if (m == 0)
            CHECK(worst < 1e-6, "locked, the hunter is %.3g px off the middle", worst);
        else {
            CHECK(worst < 15, "smoothed, the hunter is up to %.3g px off the middle", worst);
        }
        rig_close(&g);
    }
}

/* Ramping what the camera follows, or a predator the scene lacks, is
 * refused at its place. */
TEST(a_bad_follow_on_the_timeline_is_refused_with_its_place)
{
    expect_refusal("timeline:\n  - {at: 1s, ramp: {camera.follow: flock}, over: 1s}\n", "t.yaml:2:21: error",
                   "set, not ramped");
    expect_refusal("flock: {count: 10}\ntimeline:\n  - {at: 1s, set: {camera.follow: {boid: 10}}}\n",
                   "t.yaml:3:42: error", "boid 10");
    expect_refusal("timeline:\n  - {at: 1s, set: {camera.follow: {predator: 0}}}\npredators: []\n",
                   "t.yaml:2:5: error", "predator 0 from 1s");
    expect_refusal("timeline:\n  - {at: 1s, set: {camera.follow: herd}}\n", "t.yaml:2:35: error", "flock");
}

/* `murmur check` lists a change of what the camera follows, with the
 * smooth the camera moves over with (each kind of target's default when
 * the scene gives none). */
TEST(check_lists_what_the_camera_follows_from_when)
{
    const char *scene = scratch_path("follow.yaml");
    write_file(scene, "camera: {follow: {boid: 2}}\n"
                      "timeline:\n"
                      "  - {at: 2s, set: {camera.follow: flock}}\n"
                      "  - {at: 4s, set: {camera.follow: {boid: 3}}}\n");
    char args[512], err[1024], out[8192] = "", path[600];
    snprintf(args, sizeof args, "check %s", scene);
    REQUIRE(murmur(args, err, sizeof err) == 0, "check: %s", err);
    snprintf(path, sizeof path, "%s.out", scratch_path("stderr.txt"));
    FILE *fp = fopen(path, "r");
    REQUIRE(fp, "no output");
    out[fread(out, 1, sizeof out - 1, fp)] = 0;
    fclose(fp);
    CHECK(strstr(out, "camera: follows boid 2, zoom 1, smooth 0.02s"), "camera line: %s", out);
    CHECK(strstr(out, "set camera.follow the flock (its largest cluster) (smooth 1s)"), "at 2 s: %s", out);
    CHECK(strstr(out, "set camera.follow boid 3 (smooth 0.02s)"), "at 4 s: %s", out);
}
