/* Frames drawn in bands (frame.c): the renderer's image is drawn band by
 * band on --threads threads, and must hold the same pixels for any thread
 * count and the same pixels as the frame drawn whole, in one piece, by the
 * path vector stills and embedding programs take (mur_session_draw onto a
 * cairo_t of the caller's). Each scene below puts something across the
 * bands' rows: small boids (Cairo's 4 x 4 antialiasing, where a fill cut
 * at a band's row once lost a pixel), large ones (the fine grid), dots,
 * fading trails (layers kept between frames; hairlines too), trails without fade
 * (stroked afresh), overlays, text, panels and a twin's ghost. */
#include <cairo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "murmur/session.h"
#include "scene_util.h"

/* The renderer bands crowds only (frame.c's BAND_MIN_BOIDS); the flocks
 * here are small, so every frame is drawn in bands, as in a crowd. */
__attribute__((constructor)) static void always_bands(void) { setenv("MURMUR_BANDS", "always", 1); }

#define SAMPLES 3
static const long frames_at[SAMPLES] = {0, 7, 19};

static uint64_t fnv(const uint8_t *px, int stride, int width, int height)
{
    uint64_t h = 1469598103934665603ull;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < 4 * width; x++)
            h = (h ^ px[(size_t)y * (size_t)stride + (size_t)x]) * 1099511628211ull;
    return h;
}

/* Hashes of the sampled frames drawn into the renderer's image on
 * `threads` threads (threads < 0: drawn whole onto a surface of our own,
 * on one thread). 0, or -1 after a CHECK failed. */
static int hashes(const mur_scene *s, int threads, uint64_t out[SAMPLES])
{
    mur_session_opts so = MUR_SESSION_OPTS_INIT;
    so.threads = threads < 0 ? 1 : threads;
    mur_session *ss = NULL;
    mur_error err = {{0}};
    int rc = mur_session_create(&ss, s, &so, &err);
    CHECK(rc == 0, "session: %s", err.msg);
    if (rc)
        return -1;
    int w = s->width, h = s->height;
    cairo_surface_t *own = threads < 0 ? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h) : NULL;
    for (int i = 0; i < SAMPLES && !rc; i++) {
        if (own) {
            cairo_t *cr = cairo_create(own);
            rc = mur_session_draw(ss, frames_at[i], cr, w, h, &err);
            cairo_destroy(cr);
            cairo_surface_flush(own);
            out[i] = fnv(cairo_image_surface_get_data(own), cairo_image_surface_get_stride(own), w, h);
        } else {
            const uint8_t *px;
            int stride;
            rc = mur_session_frame(ss, frames_at[i], &px, &stride, &err);
            if (!rc)
                out[i] = fnv(px, stride, w, h);
        }
        CHECK(rc == 0, "frame %ld on %d threads: %s", frames_at[i], threads, err.msg);
    }
    if (own)
        cairo_surface_destroy(own);
    mur_session_destroy(ss);
    return rc ? -1 : 0;
}

/* Every thread count and the whole frame give the same hashes. */
static void same_everywhere(const char *what, const mur_scene *s)
{
    REQUIRE(s != NULL, "%s: scene", what);
    static const int counts[] = {-1, 1, 2, 3, 8};
    uint64_t ref[SAMPLES], got[SAMPLES];
    REQUIRE(hashes(s, counts[0], ref) == 0, "%s: the whole frame", what);
    for (size_t c = 1; c < sizeof counts / sizeof *counts; c++) {
        if (hashes(s, counts[c], got))
            return;
        for (int i = 0; i < SAMPLES; i++)
            CHECK(got[i] == ref[i], "%s: frame %ld on %d threads differs from the frame drawn whole", what,
                  frames_at[i], counts[c]);
    }
}

TEST(small_boids_fading_trails_and_overlays_are_the_same_in_bands)
{
    /* 2,000 boids a few pixels across over 5 bands of 64 rows */
    mur_scene *s = scene_of("seed: 3\nmodel: wrkspc\n"
                            "world: {width: 400, height: 300, boundary: wrap}\n"
                            "flock: {count: 2000}\n"
                            "video: {width: 400, height: 300, fps: 30, duration: 1s}\n"
                            "look:\n"
                            "  boid: {shape: arrow, size: 5, color: heading}\n"
                            "  trails: {length: 12, fade: true}\n"
                            "  overlays:\n"
                            "    - params\n"
                            "    - readout: [order, nearest, clusters]\n"
                            "    - plot: {metric: order, window: 2s, corner: top-right}\n"
                            "    - clock\n"
                            "timeline:\n"
                            "  - {at: 0s, caption: {text: \"bands of rows\", for: 1s}}\n");
    same_everywhere("small boids", s);
    mur_scene_destroy(s);
}

TEST(a_boid_crossing_the_frames_edge_below_a_band_is_the_same_in_bands)
{
    /* One small arrow at the left edge, flying up: its tip is in the band
     * of rows 192-255 and its tail crosses x = 0 below row 256. To that
     * band it is a shape near the clip, not one crossing it: without a
     * guard there, its fill lost pixel (0, 255) of the tip. Found in a
     * render of 2,000 boids (frame 25 of render_bench's scene). */
    mur_scene *s = scene_of("seed: 1\nmodel: wrkspc\n"
                            "world: {width: 1697.1, height: 954.6, boundary: wrap}\n"
                            "flock:\n"
                            "  count: 1\n"
                            "  start: {box: {x: 1.3437, y: 227.896, width: 0.0001, height: 0.0001},\n"
                            "          heading: -91.515, speed: 2.4}\n"
                            "video: {width: 1920, height: 1080, fps: 60, duration: 1s}\n"
                            "look:\n"
                            "  boid: {shape: arrow, size: 6, color: heading}\n");
    same_everywhere("a boid at the edge", s);
    mur_scene_destroy(s);
}

TEST(a_density_crowd_with_hairline_trails_is_the_same_in_bands)
{
    /* 4,000 boids of 1.5 pixels (drawn as density) trailing hairlines
     * 0.24 pixels wide, laid into layers bucket by bucket */
    mur_scene *s = scene_of("seed: 4\nmodel: wrkspc\n"
                            "world: {width: 800, height: 600, boundary: wrap}\n"
                            "flock: {count: 4000}\n"
                            "video: {width: 400, height: 300, fps: 30, duration: 1s}\n"
                            "look:\n"
                            "  boid: {size: 3, color: heading}\n"
                            "  trails: {length: 12, fade: true}\n");
    same_everywhere("hairlines", s);
    mur_scene_destroy(s);
}

TEST(large_boids_dots_and_plain_trails_are_the_same_in_bands)
{
    /* boids over 16 pixels (the fine antialiasing grid), a wall world,
     * trails stroked afresh each frame */
    mur_scene *s = scene_of("seed: 5\nmodel: wrkspc\n"
                            "world: {width: 200, height: 150}\n"
                            "flock: {count: 150}\n"
                            "video: {width: 480, height: 360, fps: 30, duration: 1s}\n"
                            "look:\n"
                            "  boid: {shape: arrow, size: 9, color: speed}\n"
                            "  trails: {length: 10, fade: false}\n");
    same_everywhere("large boids", s);
    mur_scene_destroy(s);
    s = scene_of("seed: 6\nmodel: wrkspc\n"
                 "world: {width: 300, height: 200, boundary: wrap}\n"
                 "flock: {count: 600}\n"
                 "video: {width: 330, height: 250, fps: 30, duration: 1s}\n"
                 "look: {boid: {shape: dot, size: 4, color: cluster}, trails: {length: 6}}\n");
    same_everywhere("dots", s);
    mur_scene_destroy(s);
}

TEST(example_scenes_are_the_same_in_bands)
{
    /* conditions side by side, a twin drawn as a ghost, and two scenes
     * where a band once differed by a pixel: flock (a guard on the clip's
     * side) and knockout (large boids in bands) */
    const char *paths[] = {"scenes/panels.yaml", "scenes/chaos.yaml", "scenes/flock.yaml",
                           "scenes/knockout.yaml", "scenes/milling.yaml"};
    for (size_t k = 0; k < sizeof paths / sizeof *paths; k++) {
        mur_scene *s = NULL;
        mur_error err = {{0}};
        CHECK(mur_scene_load(&s, paths[k], &err) == 0, "%s: %s", paths[k], err.msg);
        same_everywhere(paths[k], s);
        mur_scene_destroy(s);
    }
}

TEST(a_frame_of_one_band_draws_its_ghost_once)
{
    /* 64 rows: one band with the frame's rows, whose ghost the bands once
     * drew as well as the whole frame's pass (a darker, doubled outline) */
    mur_scene *s = scene_of("seed: 5\nmodel: wrkspc\n"
                            "world: {width: 240, height: 80, boundary: wrap}\n"
                            "flock: {count: 120}\n"
                            "video: {width: 192, height: 64, fps: 30, duration: 1s}\n"
                            "look: {boid: {shape: arrow, size: 6, color: heading}}\n"
                            "experiment: {twin: {shift: half-box}}\n");
    same_everywhere("a one-band frame with a twin's ghost", s);
    mur_scene_destroy(s);
}
