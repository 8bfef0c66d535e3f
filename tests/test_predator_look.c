/* A predator's own look (docs/scenes.md `predators[].size`, `color`,
 * `trail`; issue #45): the same keys draw the plane's marker and a 3D
 * world's falcon, each found in the pixels of a still; its trail is what
 * it flew; a look without the keys draws every predator as before (the
 * golden images and scene hashes hold that); bad values are refused at
 * their line. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "cli_util.h"
#include "harness.h"

/* Pixels of a PNG: for each, whether it is "near" the colour (r, g, b)
 * (each channel within 60; r -1: any shade of green or red, for a fading
 * trail), counted inside the box x0..x1, y0..y1, with the centroid of
 * those found. -1: it cannot be read. */
typedef struct {
    long n;
    double cx, cy;
} found;

static int find_colour(const char *png, int r, int g, int b, int x0, int y0, int x1, int y1, found *out)
{
    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return -1;
    }
    const unsigned char *d = cairo_image_surface_get_data(s);
    int st = cairo_image_surface_get_stride(s), w = cairo_image_surface_get_width(s),
        h = cairo_image_surface_get_height(s);
    double sx = 0, sy = 0;
    out->n = 0;
    for (int y = y0 < 0 ? 0 : y0; y < h && y <= y1; y++)
        for (int x = x0 < 0 ? 0 : x0; x < w && x <= x1; x++) {
            uint32_t c = ((const uint32_t *)(d + (size_t)y * (size_t)st))[x];
            int cr = c >> 16 & 0xff, cg = c >> 8 & 0xff, cb = c & 0xff;
            int near = abs(cr - r) < 60 && abs(cg - g) < 60 && abs(cb - b) < 60;
            if (r < 0)   /* (-1, g, b): any shade where green (g 1) or red (g 0) leads by 40 */
                near = g ? cg - (cr > cb ? cr : cb) > 40 : cr - (cg > cb ? cg : cb) > 40;
            if (near) {
                out->n++;
                sx += x + 0.5;
                sy += y + 0.5;
            }
        }
    cairo_surface_destroy(s);
    out->cx = out->n ? sx / out->n : -1;
    out->cy = out->n ? sy / out->n : -1;
    return 0;
}

/* A still at `at` of a scene made of `body` and `predator` (one predator's
 * keys, indented under `  - `), into png; 0 or -1 with the error in err. */
static int still_of(const char *name, const char *body, const char *predator, const char *at, const char *png,
                    char *err, size_t n)
{
    char text[4096], args[1024];
    snprintf(text, sizeof text, "%spredators:\n  - %s\n", body, predator);
    const char *path = scratch_path(name);
    write_file(path, text);
    snprintf(args, sizeof args, "still %s --at %s -q -o %s", path, at, png);
    return murmur(args, err, n) == 0 ? 0 : -1;
}

/* Three stills at `at` of body with one predator of `path` and each of
 * keys[k] (a size and a colour, or nothing), the pixels near rgb over the
 * whole frame into out[k]; 0, or -1 with the error in err. */
static int three_looks(const char *body, const char *path, const char *const keys[3], const char *at,
                       const int rgb[3], found out[3], char *err, size_t n)
{
    const char *png = scratch_path("predator-look.png");
    for (int k = 0; k < 3; k++) {
        char predator[512];
        snprintf(predator, sizeof predator, "{%s%s}", path, keys[k]);
        if (still_of("look.yaml", body, predator, at, png, err, n) ||
            find_colour(png, rgb[0], rgb[1], rgb[2], 0, 0, 1 << 14, 1 << 14, &out[k]))
            return -1;
    }
    return 0;
}

/* 480 x 320 world units on 480 x 320 pixels: a world unit is a pixel. The
 * lone bird is white and small, far from green. */
static const char *plane =
    "seed: 3\n"
    "world: {width: 480, height: 320, boundary: wrap}\n"
    "flock: {count: 1}\n"
    "video: {width: 480, height: 320, fps: 30, duration: 4s}\n"
    "look: {boid: {size: 4, color: '#ffffff'}}\n";

/* Along y = 160 from x = 100 at 0 s to x = 380 at 4 s: at 3 s it is at x = 310. */
#define PLANE_PATH "path: [[0s, 100, 160], [4s, 380, 160]], interpolate: linear, radius: 4, strength: 0.01"

TEST(a_plane_predator_is_drawn_at_its_size_in_its_colour)
{
    char err[2048];
    found f[3];
    const char *keys[3] = {", size: 40, color: '#00ff00'", ", size: 20, color: '#00ff00'", ""};
    REQUIRE(!three_looks(plane, PLANE_PATH, keys, "3s", (const int[3]){0, 255, 0}, f, err, sizeof err), "%s", err);
    const found big = f[0], small = f[1], plain = f[2];
    /* a disc of diameter 40 less its x: about pi 20^2 = 1257 pixels */
    CHECK(big.n > 800 && big.n < 1400, "size 40: %ld green pixels", big.n);
    CHECK(hypot(big.cx - 310, big.cy - 160) < 1.5, "size 40: centred at (%.1f, %.1f), not (310, 160)", big.cx,
          big.cy);
    CHECK(small.n > 180 && small.n < big.n / 3, "size 20: %ld green pixels (size 40: %ld)", small.n, big.n);
    CHECK(plain.n == 0, "without a colour the marker is not green (%ld pixels)", plain.n);
}

/* A trail's case: a still of body at `at` with the predator `with` its
 * trail and one `without`, and three boxes (x0, y0, x1, y1) of the first:
 * behind it along its path, ahead of it, and older than the trail. */
typedef struct {
    const char *body, *with, *without, *at;
    int green;                   /* the colour looked for: any green shade (1) or red (0) */
    int behind[4], ahead[4], old[4];
} trail_case;

/* The pixels of the trail's colour in the case's boxes: out[0..2] behind,
 * ahead and old with the trail, out[3] behind without it; 0, or -1 with
 * the error in err. */
static int trail_look(const trail_case *tc, found out[4], char *err, size_t n)
{
    const char *png = scratch_path("predator-trail.png");
    const int *box[4] = {tc->behind, tc->ahead, tc->old, tc->behind};
    for (int k = 0; k < 4; k++) {
        if (k == 0 || k == 3) {
            char predator[512];
            snprintf(predator, sizeof predator, "{%s}", k ? tc->without : tc->with);
            if (still_of("trail.yaml", tc->body, predator, tc->at, png, err, n))
                return -1;
        }
        if (find_colour(png, -1, tc->green, 0, box[k][0], box[k][1], box[k][2], box[k][3], &out[k]))
            return -1;
    }
    return 0;
}

TEST(a_plane_predator_trail_is_the_path_it_flew)
{
    /* at 3 s it is at x = 310; 2 s of trail reach back to x = 170 */
    const trail_case tc = {plane, PLANE_PATH ", size: 10, color: '#00ff00', trail: 2s",
                           PLANE_PATH ", size: 10, color: '#00ff00'", "3s", 1,
                           {200, 150, 290, 170}, {330, 150, 470, 170}, {100, 150, 160, 170}};
    char err[2048];
    found f[4];
    REQUIRE(!trail_look(&tc, f, err, sizeof err), "%s", err);
    CHECK(f[0].n > 180, "the trail behind it: %ld pixels", f[0].n);
    CHECK(fabs(f[0].cy - 160) < 1, "the trail lies on its path (y %.2f)", f[0].cy);
    CHECK(f[1].n == 0, "nothing ahead of it (%ld pixels)", f[1].n);
    CHECK(f[2].n == 0, "nothing older than 2 s (%ld pixels)", f[2].n);
    CHECK(f[3].n == 0, "no trail without `trail` (%ld pixels)", f[3].n);
}

/* A 1080p frame of a 3D world on a white sky; the lone bird starts behind
 * the camera. The camera looks at where the falcon is at 2 s. */
static const char *sky =
    "seed: 4\n"
    "world: {dimensions: 3, width: 480, height: 320, depth: 200, boundary: open}\n"
    "flock: {count: 1, start: {ball: {center: [240, -900, 40], radius: 1}}}\n"
    "video: {width: 1920, height: 1080, fps: 30, duration: 4s}\n"
    "camera: {position: [240, -300, 20], target: [240, 160, 120], fov: 50}\n"
    "look:\n"
    "  boid: {size: 6, color: '#000000'}\n"
    "  sky: {zenith: '#ffffff', horizon: '#ffffff', ground: '#ffffff', trees: '#ffffff', tree_height: 0}\n";

#define SKY_PATH "mode: flee, radius: 5, strength: 0.01, interpolate: linear, path: [[0s, 40, 160, 120], [4s, 440, 160, 120]]"

TEST(a_3d_falcon_is_found_at_1080p_at_its_size_in_its_colour)
{
    char err[2048];
    found f[3];
    const char *keys[3] = {", size: 30, color: '#ff0000'", ", size: 10, color: '#ff0000'", ""};
    REQUIRE(!three_looks(sky, SKY_PATH, keys, "2s", (const int[3]){255, 0, 0}, f, err, sizeof err), "%s", err);
    const found big = f[0], small = f[1], plain = f[2];
    CHECK(big.n > 300, "size 30: %ld red pixels", big.n);
    /* its wings (mid-beat, seen from below) pull the centroid off its body's point by up to a fifth of its span */
    CHECK(hypot(big.cx - 960, big.cy - 540) < 25, "size 30: at (%.1f, %.1f), not the frame's middle", big.cx,
          big.cy);
    CHECK(small.n > 20 && small.n * 4 < big.n, "size 10: %ld red pixels (size 30: %ld)", small.n, big.n);
    CHECK(plain.n == 0, "without a colour the falcon is the birds' ink (%ld red pixels)", plain.n);
}

TEST(a_3d_falcon_trail_is_the_path_it_flew)
{
    /* it flies along +x (to the right on the picture): its last second lies
     * to its left, and nothing before that (x = 40 + 100 t: 140 at 1 s) */
    const trail_case tc = {sky, SKY_PATH ", size: 20, color: '#ff0000', trail: 1s", SKY_PATH ", size: 20, color: '#ff0000'",
                           "2s", 0, {700, 500, 900, 580}, {1040, 500, 1300, 580}, {0, 500, 480, 580}};
    char err[2048];
    found f[4];
    REQUIRE(!trail_look(&tc, f, err, sizeof err), "%s", err);
    CHECK(f[0].n > 100, "the trail behind it: %ld pixels", f[0].n);
    CHECK(fabs(f[0].cy - 540) < 4, "the trail lies on its path (y %.1f)", f[0].cy);
    CHECK(f[1].n == 0, "nothing ahead of it (%ld pixels)", f[1].n);
    CHECK(f[2].n == 0, "nothing older than 1 s (%ld pixels)", f[2].n);
    CHECK(f[3].n == 0, "no trail without `trail` (%ld pixels)", f[3].n);
}

/* `murmur check` says how each predator is drawn, in its world's words. */
TEST(check_prints_a_predators_look)
{
    char text[4096], args[1024], out[4096];
    snprintf(text, sizeof text, "%spredators:\n  - {" SKY_PATH ", size: 30, color: '#ff0000', trail: 1s}\n"
             "  - {" SKY_PATH "}\n", sky);
    const char *path = scratch_path("look-check.yaml");
    char said[300];   /* murmur() leaves the command's stdout beside its stderr */
    snprintf(said, sizeof said, "%s.out", scratch_path("stderr.txt"));
    write_file(path, text);
    snprintf(args, sizeof args, "check %s", path);
    REQUIRE(murmur(args, out, sizeof out) == 0, "check: %s", out);
    size_t len = 0;
    char *got = test_slurp(said, &len);
    REQUIRE(got, "read %s", said);
    CHECK(strstr(got, "; drawn 30 units long in #ff0000 with a 1s trail\npredator 1:") != NULL,
          "check's predator lines:\n%s", got);
    CHECK(strstr(got, "predator 1:") && !strstr(strstr(got, "predator 1:"), "drawn"),
          "a predator without a look says nothing of it:\n%s", got);
    free(got);
}

TEST(bad_predator_looks_are_refused_at_their_line)
{
    struct {
        const char *keys, *where, *says;
    } bad[] = {
        {"size: 0", ":7:11:", "lies above 0"},
        {"size: -3", ":7:11:", "lies above 0"},
        {"trail: 61s", ":7:12:", "trail"},
        {"trail: -1s", ":7:12:", "trail"},
        {"color: chartreuse-ish", ":7:12:", "color"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char text[1024], err[2048];
        snprintf(text, sizeof text,
                 "world: {width: 480, height: 320}\n"
                 "flock: {count: 10}\n"
                 "predators:\n"
                 "  - mode: flee\n"
                 "    x: \"W/2\"\n"
                 "    y: \"H/2\"\n"
                 "    %s\n",
                 bad[k].keys);
        CHECK(check_refuses("badlook.yaml", text, bad[k].where, bad[k].says, err, sizeof err), "%s: %s",
              bad[k].keys, err);
    }
}
