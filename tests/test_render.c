/* The renderer: shapes, colour modes, trails and overlays against small
 * golden PNGs; the trail geometry at a wrap seam; the one-boid view against
 * the engine's rule vectors; vector stills parsed back.
 *
 * Goldens (PNGs in tests/golden) are compared pixel by pixel with a tolerance
 * per channel and a budget of differing pixels, so antialiasing that moves
 * by a level in a Cairo patch release passes but a wrong colour or a
 * missing overlay fails. Text-heavy goldens get a larger budget (fonts
 * hint differently between FreeType builds) and their text is checked by
 * presence: the region differs from the same frame without the overlay.
 * To regenerate after an intended change to the drawing:
 *     MURMUR_UPDATE_GOLDEN=1 ./build/tests/test_render
 * (from the source tree), then look at every changed PNG before committing.
 * A failing comparison writes the frame drawn to /tmp for a look. */
#include <cairo.h>
#include <cairo-svg.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_util.h"
#include "harness.h"
#include "scene_util.h"
#include "murmur/metrics.h"
#include "murmur/render.h"
#include "murmur/scene.h"
#include "murmur/session.h"
#include "murmur/version.h"
#include "png_text.h"
#include "render/internal.h"   /* the trail layers, for the tiles test */

#define GOLDEN_DIR "tests/golden"

/* ---- helpers -------------------------------------------------------------- */

/* A small LCG: the test's own positions, independent of the core's PRNG. */
static double lcg(uint64_t *st)
{
    *st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*st >> 11) / 9007199254740992.0;
}

/* A flock of n boids at explicit positions drawn from seed, speeds in
 * [0.5, 2.5], in the scene's world. */
static mur_flock *flock_of(const mur_scene *s, int n, uint64_t seed)
{
    mur_flock *f = NULL;
    mur_error err = {{0}};
    if (mur_flock_create(&f, &s->params, 1, &err)) {
        fprintf(stderr, "  flock: %s\n", err.msg);
        return NULL;
    }
    double x[64], y[64], vx[64], vy[64];
    uint64_t st = seed;
    for (int i = 0; i < n && i < 64; i++) {
        x[i] = lcg(&st) * s->params.width;
        y[i] = lcg(&st) * s->params.height;
        double a = lcg(&st) * 2 * 3.14159265358979, sp = 0.5 + 2 * lcg(&st);
        vx[i] = sp * cos(a);
        vy[i] = sp * sin(a);
    }
    mur_flock_set_state(f, n, x, y, vx, vy, &err);
    return f;
}

/* Draw one frame of f with a fresh renderer into a new image surface. */
static cairo_surface_t *draw(const mur_scene *s, const mur_flock *f, int w, int h, double t)
{
    mur_renderer *r = NULL;
    mur_error err = {{0}};
    if (mur_renderer_create(&r, mur_scene_look(s), w, h, &err)) {
        fprintf(stderr, "  renderer: %s\n", err.msg);
        return NULL;
    }
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    cairo_t *cr = cairo_create(img);
    const mur_flock *fl[1] = {f};
    int rc = mur_renderer_draw(r, cr, fl, 1, t, &err);
    cairo_destroy(cr);
    mur_renderer_destroy(r);
    if (rc) {
        fprintf(stderr, "  draw: %s\n", err.msg);
        cairo_surface_destroy(img);
        return NULL;
    }
    cairo_surface_flush(img);
    return img;
}

static uint32_t pixel(cairo_surface_t *img, int x, int y)
{
    const unsigned char *d = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    return *(const uint32_t *)(d + (size_t)y * stride + (size_t)x * 4);
}

static int channel_diff(uint32_t a, uint32_t b)
{
    int m = 0;
    for (int sh = 0; sh < 32; sh += 8) {
        int d = abs((int)((a >> sh) & 255) - (int)((b >> sh) & 255));
        if (d > m)
            m = d;
    }
    return m;
}

/* Pixels of the rectangle whose largest channel difference exceeds tol. */
static long count_diff(cairo_surface_t *a, cairo_surface_t *b, int x0, int y0, int x1, int y1, int tol)
{
    long n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            n += channel_diff(pixel(a, x, y), pixel(b, x, y)) > tol;
    return n;
}

static const char *tmp_dir(void)
{
    static char dir[64];
    if (!dir[0]) {
        strcpy(dir, "/tmp/murmur-render-XXXXXX");
        if (!mkdtemp(dir))
            abort();
    }
    return dir;
}

/* Compare img with tests/golden/<name>.png: at most budget (a fraction of
 * the pixels) may differ by more than tol in some channel. */
static void golden(const char *name, cairo_surface_t *img, int tol, double budget)
{
    char path[512];
    snprintf(path, sizeof path, GOLDEN_DIR "/%s.png", name);
    if (getenv("MURMUR_UPDATE_GOLDEN")) {
        mkdir(GOLDEN_DIR, 0777);
        CHECK(cairo_surface_write_to_png(img, path) == CAIRO_STATUS_SUCCESS, "cannot write %s", path);
        printf("  updated %s\n", path);
        return;
    }
    cairo_surface_t *g = cairo_image_surface_create_from_png(path);
    if (cairo_surface_status(g) != CAIRO_STATUS_SUCCESS) {
        CHECK(0, "no golden %s (MURMUR_UPDATE_GOLDEN=1 makes it)", path);
        cairo_surface_destroy(g);
        return;
    }
    int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img);
    int ok = cairo_image_surface_get_width(g) == w && cairo_image_surface_get_height(g) == h;
    CHECK(ok, "%s: size %dx%d, golden %dx%d", name, w, h, cairo_image_surface_get_width(g),
          cairo_image_surface_get_height(g));
    if (ok) {
        /* the golden loads as RGB24 (opaque): compare colour channels only */
        long n = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                n += channel_diff(pixel(img, x, y) & 0xffffff, pixel(g, x, y) & 0xffffff) > tol;
        long allowed = (long)(budget * w * h);
        if (n > allowed) {
            char out[512];
            snprintf(out, sizeof out, "%s/%s.png", tmp_dir(), name);
            cairo_surface_write_to_png(img, out);
            CHECK(0, "%s: %ld pixels differ (allowed %ld); drawn: %s", name, n, allowed, out);
        }
    }
    cairo_surface_destroy(g);
}

/* Parts of a scene shared by the goldens: a 320 x 240 world seen at 160 x 120. */
#define WORLD "seed: 1\nmodel: wrkspc\nworld: {width: 320, height: 240, boundary: wrap}\n" \
              "video: {width: 160, height: 120}\n"

static void golden_of(const char *name, const char *look, int n, int tol, double budget)
{
    char yaml[2048];
    snprintf(yaml, sizeof yaml, WORLD "%s", look);
    mur_scene *s = scene_of(yaml);
    REQUIRE(s, "scene for %s", name);
    mur_flock *f = flock_of(s, n, 42);
    cairo_surface_t *img = f ? draw(s, f, 160, 120, 0) : NULL;
    CHECK(img, "drew %s", name);
    if (img)
        golden(name, img, tol, budget);
    cairo_surface_destroy(img);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* ---- shapes and colours --------------------------------------------------- */

TEST(golden_shapes)
{
    golden_of("shape_arrow", "look: {boid: {shape: arrow, size: 16, color: \"#7cf29c\"}}\n", 24, 48, 0.003);
    golden_of("shape_triangle", "look: {boid: {shape: triangle, size: 16, color: \"#7cf29c\"}}\n", 24,
              48, 0.003);
    golden_of("shape_dot", "look: {boid: {shape: dot, size: 16, color: \"#7cf29c\"}}\n", 24, 48, 0.003);
}

TEST(golden_colour_modes)
{
    golden_of("colour_heading", "look: {boid: {shape: triangle, size: 18, color: heading}}\n", 30, 48,
              0.003);
    golden_of("colour_speed", "look: {boid: {shape: triangle, size: 18, color: speed}}\n", 30, 48, 0.003);
    golden_of("colour_neighbours",
              "flock: {perception: 60}\nlook: {boid: {shape: dot, size: 18, color: neighbours}}\n", 40,
              48, 0.003);
    golden_of("colour_cluster",
              "flock: {perception: 45}\nlook: {boid: {shape: dot, size: 18, color: cluster}}\n", 40, 48,
              0.003);
}

/* A golden drawn with another colour must fail: the comparison has teeth. */
TEST(golden_comparison_catches_a_wrong_colour)
{
    mur_scene *s = scene_of(WORLD "look: {boid: {shape: arrow, size: 16, color: \"#f27c9c\"}}\n");
    REQUIRE(s, "scene");
    mur_flock *f = flock_of(s, 24, 42);
    cairo_surface_t *img = draw(s, f, 160, 120, 0);
    cairo_surface_t *g = cairo_image_surface_create_from_png(GOLDEN_DIR "/shape_arrow.png");
    if (!getenv("MURMUR_UPDATE_GOLDEN") && cairo_surface_status(g) == CAIRO_STATUS_SUCCESS && img) {
        long n = 0;
        for (int y = 0; y < 120; y++)
            for (int x = 0; x < 160; x++)
                n += channel_diff(pixel(img, x, y) & 0xffffff, pixel(g, x, y) & 0xffffff) > 48;
        CHECK(n > (long)(0.003 * 160 * 120), "a pink flock passes as the green golden (%ld differ)", n);
    }
    cairo_surface_destroy(g);
    cairo_surface_destroy(img);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* The pixel at a boid's centre, in a frame where the world is the frame. */
static uint32_t centre_of(cairo_surface_t *img, double x, double y)
{
    return pixel(img, (int)x, (int)y);
}

TEST(colour_by_cluster_is_stable_when_the_smallest_member_leaves)
{
    /* Two clusters; boid 0 starts in cluster A, then leaves it. A's colour
     * must stay (a name by smallest member alone would change it). */
    mur_scene *s = scene_of("seed: 1\nmodel: wrkspc\nworld: {width: 200, height: 100, boundary: wrap}\n"
                            "flock: {perception: 20}\nvideo: {width: 200, height: 100}\n"
                            "look: {boid: {shape: dot, size: 12, color: cluster}}\n");
    REQUIRE(s, "scene");
    mur_flock *f = NULL;
    mur_error err = {{0}};
    REQUIRE(!mur_flock_create(&f, &s->params, 1, &err), "%s", err.msg);
    double x[7] = {40, 46, 52, 58, 140, 146, 152}, y[7] = {50, 50, 50, 50, 50, 50, 50};
    double vx[7] = {1, 1, 1, 1, 1, 1, 1}, vy[7] = {0};
    mur_renderer *r = NULL;
    REQUIRE(!mur_renderer_create(&r, mur_scene_look(s), 200, 100, &err), "%s", err.msg);
    const mur_flock *fl[1] = {f};
    uint32_t a0 = 0, b0 = 0;
    for (int tick = 1; tick <= 3; tick++) {
        if (tick == 3)
            x[0] = 10, y[0] = 10;   /* boid 0 leaves A: now alone */
        mur_flock_set_state(f, 7, x, y, vx, vy, &err);
        mur_renderer_observe(r, 0, f, tick);
        const uint8_t *px;
        int stride;
        REQUIRE(!mur_renderer_draw_image(r, fl, 1, tick / 60.0, &px, &stride, &err), "%s", err.msg);
        uint32_t a = *(const uint32_t *)(px + 50 * stride + 52 * 4);
        uint32_t b = *(const uint32_t *)(px + 50 * stride + 146 * 4);
        if (tick == 1) {
            a0 = a;
            b0 = b;
            CHECK(channel_diff(a, b) > 40, "two clusters share a colour: %08x %08x", a, b);
        } else {
            CHECK(channel_diff(a, a0) <= 8, "tick %d: cluster A changed colour %08x -> %08x", tick, a0, a);
            CHECK(channel_diff(b, b0) <= 8, "tick %d: cluster B changed colour %08x -> %08x", tick, b0, b);
        }
        if (tick == 3) {
            uint32_t lone = *(const uint32_t *)(px + 10 * stride + 10 * 4);
            int r8 = (lone >> 16) & 255, g8 = (lone >> 8) & 255, b8 = lone & 255;
            CHECK(abs(r8 - g8) < 12 && abs(g8 - b8) < 12 && r8 > 90, "a lone boid is not grey: %08x", lone);
        }
    }
    mur_renderer_destroy(r);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* The per-boid metrics behind colour by neighbours and by cluster agree
 * with the flock's summary metrics. */
TEST(per_boid_metrics_agree_with_the_summary)
{
    mur_scene *s = scene_of(WORLD "flock: {perception: 25}\n");
    REQUIRE(s, "scene");
    mur_flock *f = flock_of(s, 60, 3);
    mur_metrics_ctx *mx = mur_metrics_ctx_create();
    mur_metrics m;
    REQUIRE(f && mx && !mur_metrics_compute(mx, f, &m), "metrics");
    const int *label = mur_metrics_cluster_of(mx), *count = mur_metrics_neighbour_counts(mx);
    long sum = 0;
    int clusters = 0, bad = 0;
    for (int i = 0; i < 60; i++) {
        sum += count[i];
        clusters += label[i] == i;
        bad += label[i] > i || label[label[i]] != label[i];
    }
    CHECK(fabs((double)sum / 60 - m.neighbours) < 1e-12, "counts sum to %ld, mean %g", sum, m.neighbours);
    CHECK(clusters == m.clusters, "%d labels, %d clusters", clusters, m.clusters);
    CHECK(bad == 0, "%d boids labelled by other than their cluster's smallest member", bad);
    CHECK(m.clusters > 1 && m.clusters < 60, "a degenerate test flock: %d clusters", m.clusters);
    mur_metrics_ctx_destroy(mx);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

TEST(colour_by_heading_and_speed_tell_boids_apart)
{
    mur_scene *h = scene_of("seed: 1\nworld: {width: 200, height: 100}\nvideo: {width: 200, height: 100}\n"
                            "look: {boid: {shape: dot, size: 16, color: heading}}\n");
    mur_scene *sp = scene_of("seed: 1\nworld: {width: 200, height: 100}\nvideo: {width: 200, height: 100}\n"
                             "look: {boid: {shape: dot, size: 16, color: speed}}\n");
    REQUIRE(h && sp, "scenes");
    double x[2] = {50, 150}, y[2] = {50, 50}, vx[2] = {2, -2}, vy[2] = {0, 0};
    double vxs[2] = {1.25, 2.35};
    mur_error err;
    mur_flock *f = NULL, *g = NULL;
    REQUIRE(!mur_flock_create(&f, &h->params, 1, &err) && !mur_flock_create(&g, &sp->params, 1, &err),
            "%s", err.msg);
    mur_flock_set_state(f, 2, x, y, vx, vy, &err);
    mur_flock_set_state(g, 2, x, y, vxs, vy, &err);
    cairo_surface_t *a = draw(h, f, 200, 100, 0), *b = draw(sp, g, 200, 100, 0);
    REQUIRE(a && b, "drawn");
    CHECK(channel_diff(centre_of(a, 50, 50), centre_of(a, 150, 50)) > 60, "opposite headings look alike");
    CHECK(channel_diff(centre_of(b, 50, 50), centre_of(b, 150, 50)) > 60, "slow and fast look alike");
    cairo_surface_destroy(a);
    cairo_surface_destroy(b);
    mur_flock_destroy(f);
    mur_flock_destroy(g);
    mur_scene_destroy(h);
    mur_scene_destroy(sp);
}

/* ---- trails --------------------------------------------------------------- */

/* One boid flying straight along y = 60 at 2 units a tick (no rules act on
 * a lone boid), observed after every tick. */
static mur_flock *straight_flyer(const mur_scene *s, double x0)
{
    mur_flock *f = NULL;
    mur_error err;
    if (mur_flock_create(&f, &s->params, 1, &err))
        return NULL;
    double x = x0, y = 60.5, vx = 2, vy = 0;   /* centred on pixel row 60 */
    mur_flock_set_state(f, 1, &x, &y, &vx, &vy, &err);
    return f;
}

/* The straight flyer from x0 in a 160 x 120 wrapping world drawn at
 * 160 x 120 with the given look, and its renderer: 0, or -1. */
static int flyer_fixture(const char *look, double x0, mur_scene **s, mur_flock **f,
                         mur_renderer **r)
{
    char yaml[512];
    snprintf(yaml, sizeof yaml, "seed: 1\nworld: {width: 160, height: 120, boundary: wrap}\n"
                                "video: {width: 160, height: 120}\nlook: %s\n", look);
    mur_error err = {{0}};
    *f = NULL;
    *r = NULL;
    if (!(*s = scene_of(yaml)) || !(*f = straight_flyer(*s, x0)))
        return -1;
    if (mur_renderer_create(r, mur_scene_look(*s), 160, 120, &err)) {
        fprintf(stderr, "  renderer: %s\n", err.msg);
        return -1;
    }
    return 0;
}

TEST(trail_across_the_wrap_seam_has_no_long_segment)
{
    mur_scene *s;
    mur_flock *f;
    mur_renderer *r;
    mur_error err;
    REQUIRE(!flyer_fixture("{boid: {shape: dot, size: 8, color: \"#ffffff\"}, "
                           "trails: {length: 20, fade: false}}", 140, &s, &f, &r), "fixture");
    for (long t = 1; t <= 20; t++) {   /* from x = 140 across the seam at 160 to x = 20 */
        mur_flock_step(f);
        mur_renderer_observe(r, 0, f, t);
    }
    CHECK(mur_flock_x(f)[0] < 40, "the boid did not wrap: x = %g", mur_flock_x(f)[0]);
    double px[32], py[32];
    int n = mur_renderer_trail(r, 0, 0, mur_flock_params(f), px, py, 32);
    CHECK(n == 20, "the trail has %d points, not 20 (broken at the seam?)", n);
    CHECK(n > 0 && fabs(px[0] - mur_flock_x(f)[0]) < 1e-4, "the trail does not start at the boid");
    for (int k = 1; k < n; k++) {
        double d = hypot(px[k] - px[k - 1], py[k] - py[k - 1]);
        CHECK(d <= 2 + 1e-3, "segment %d is %g long, the step is 2", k, d);
    }
    /* and on screen: nothing lit in the middle of the row it flies along */
    const mur_flock *fl[1] = {f};
    const uint8_t *pix;
    int stride;
    REQUIRE(!mur_renderer_draw_image(r, fl, 1, 20 / 60.0, &pix, &stride, &err), "%s", err.msg);
    int lit = 0, near_seam = 0;
    for (int x = 0; x < 160; x++) {
        uint32_t p = *(const uint32_t *)(pix + 60 * stride + x * 4);
        int on = ((p >> 8) & 255) > 60;
        if (x >= 50 && x < 120)
            lit += on;
        if (x >= 145 || x < 15)
            near_seam += on;
    }
    CHECK(lit == 0, "%d pixels lit mid-row: a streak across the world", lit);
    CHECK(near_seam > 10, "the trail is not drawn on both sides of the seam (%d lit)", near_seam);
    /* A jump (a reset) ends the trail there. */
    double x = 80, y = 20, vx = 2, vy = 0;
    mur_flock_set_state(f, 1, &x, &y, &vx, &vy, &err);
    mur_renderer_observe(r, 0, f, 21);
    n = mur_renderer_trail(r, 0, 0, mur_flock_params(f), px, py, 32);
    CHECK(n == 1, "a jump leaves a trail of %d points", n);
    mur_renderer_destroy(r);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* wrkspc flock of `count` (a string) in a wrapping 320 x 240 world drawn at
 * w x h, arrows of `size` coloured by heading with fading trails of `len`
 * ticks (0.16 of the size wide: under half a pixel, hairlines). */
#define TRAIL_SCENE_SIZED(count, w, h, len, size)                                                 \
    "seed: 1\nmodel: wrkspc\nworld: {width: 320, height: 240, boundary: wrap}\nflock: {count: " \
    count "}\nvideo: {width: " w ", height: " h "}\nlook: {boid: {shape: arrow, size: " size    \
    ", color: heading}, trails: {length: " len ", fade: true}}\n"
#define TRAIL_SCENE(count, w, h, len) TRAIL_SCENE_SIZED(count, w, h, len, "8")

/* Flock seeded `seed` stepped `ticks` ticks with renderer r observing
 * every tick and drawing a frame whenever tick % every == 0 (and at the
 * last). At tick 40 five boids join; at tick 70 the world widens, which
 * moves every trail on screen. Returns the last frame's pixels (in r), or
 * with `vector`, draws the last frame there instead and returns its flock's
 * count as a non-NULL token. */
static const uint8_t *run_trails(const mur_scene *s, mur_renderer *r, int ticks, int every,
                                 int *stride, cairo_t *vector)
{
    mur_flock *f = NULL;
    mur_error err = {{0}};
    const uint8_t *px = NULL;
    if (mur_flock_create(&f, &s->params, 7, &err))
        return NULL;
    const mur_flock *fl[1] = {f};
    for (int t = 1; t <= ticks; t++) {
        mur_flock_step(f);
        if (t == 40) {
            int n = mur_flock_count(f);
            double x[256], y[256], vx[256], vy[256];
            for (int i = 0; i < n + 5 && i < 256; i++) {
                int j = i < n ? i : i - n;
                x[i] = mur_flock_x(f)[j] + (i < n ? 0 : 3);
                y[i] = mur_flock_y(f)[j];
                vx[i] = mur_flock_vx(f)[j];
                vy[i] = mur_flock_vy(f)[j];
            }
            mur_flock_set_state(f, n + 5, x, y, vx, vy, &err);
        }
        if (t == 70) {
            mur_params p = *mur_flock_params(f);
            p.width *= 1.25;
            mur_flock_set_params(f, &p, &err);
        }
        mur_renderer_observe(r, 0, f, t);
        if (vector && t == ticks) {
            px = mur_renderer_draw(r, vector, fl, 1, t / 60.0, &err) ? NULL : (const uint8_t *)s;
            break;
        }
        if (t % every == 0 || t == ticks)
            if (mur_renderer_draw_image(r, fl, 1, t / 60.0, &px, stride, &err)) {
                fprintf(stderr, "  draw: %s\n", err.msg);
                px = NULL;
                break;
            }
    }
    mur_flock_destroy(f);
    return px;
}

/* Trail bands are kept between frames as layers: a frame must not depend on
 * which frames were drawn before it (a still at T, a --from render).
 * Stroked trails (0.8 pixels wide) and hairlines (0.4). */
TEST(trails_drawn_frame_by_frame_equal_the_same_frame_drawn_alone)
{
    const char *scenes[2] = {TRAIL_SCENE("120", "200", "150", "24"),
                             TRAIL_SCENE_SIZED("120", "200", "150", "24", "4")};
    for (int v = 0; v < 2; v++) {
        mur_scene *s = scene_of(scenes[v]);
        REQUIRE(s, "scene");
        int ends[] = {30, 57, 69, 71, 100};
        for (int c = 0; c < 5; c++) {
            mur_renderer *a = NULL, *b = NULL;
            mur_error err;
            REQUIRE(!mur_renderer_create(&a, mur_scene_look(s), 200, 150, &err) &&
                        !mur_renderer_create(&b, mur_scene_look(s), 200, 150, &err), "%s", err.msg);
            int sa = 0, sb = 0;
            const uint8_t *pa = run_trails(s, a, ends[c], 2, &sa, NULL);   /* two ticks a frame */
            const uint8_t *pb = run_trails(s, b, ends[c], 1000, &sb, NULL); /* the last frame only */
            REQUIRE(pa && pb && sa == sb, "frames");
            int differ = 0;
            for (int y = 0; y < 150; y++)
                differ += memcmp(pa + (size_t)y * sa, pb + (size_t)y * sb, 200 * 4) != 0;
            CHECK(differ == 0, "%s: at tick %d, %d rows differ between a frame drawn after the "
                  "others and the same frame drawn alone", v ? "hairlines" : "stroked", ends[c], differ);
            /* and the trails are there: the frame is not just the boids
             * (which alone light as many pixels as faint hairlines do), and
             * the layers hold the trails' ink */
            long lit = 0;
            for (int y = 0; y < 150; y++)
                for (int x = 0; x < 200; x++)
                    lit += (pa[(size_t)y * sa + (size_t)x * 4 + 1] > 40);
            CHECK(v || lit > 600, "stroked: only %ld pixels lit at tick %d", lit, ends[c]);
            long inked = 0;
            const mur_trails *t = &a->panels[0].trails;
            for (int k = 0; k < t->nlayers; k++)
                if (t->layers[k].img) {
                    cairo_surface_flush(t->layers[k].img);
                    const unsigned char *d = cairo_image_surface_get_data(t->layers[k].img);
                    int st = cairo_image_surface_get_stride(t->layers[k].img);
                    for (int y = 0; y < t->lh; y++)
                        for (int x = 0; x < t->lw; x++)
                            inked += d[(size_t)y * st + (size_t)x * 4 + 3] != 0;
                }
            CHECK(inked > 1000, "%s: only %ld pixels inked in the trail layers at tick %d",
                  v ? "hairlines" : "stroked", inked, ends[c]);
            mur_renderer_destroy(a);
            mur_renderer_destroy(b);
        }
        mur_scene_destroy(s);
    }
}

/* Trails join consecutive ticks only: after a gap in the ticks observed
 * (a caller that skipped some) they start again, as a renderer that never
 * saw the ticks before the gap draws them. */
TEST(a_gap_in_the_ticks_starts_the_trails_again)
{
    mur_scene *s = scene_of(TRAIL_SCENE("80", "160", "120", "12"));
    REQUIRE(s, "scene");
    mur_flock *f = NULL;
    mur_renderer *a = NULL, *b = NULL;
    mur_error err;
    REQUIRE(!mur_flock_create(&f, &s->params, 3, &err) &&
                !mur_renderer_create(&a, mur_scene_look(s), 160, 120, &err) &&
                !mur_renderer_create(&b, mur_scene_look(s), 160, 120, &err), "%s", err.msg);
    const mur_flock *fl[1] = {f};
    const uint8_t *pa = NULL, *pb = NULL;
    int sa = 0, sb = 0;
    for (long t = 1; t <= 26; t++) {   /* bands of the ticks before the gap still show at 26 */
        mur_flock_step(f);
        if (t <= 20 || t >= 23)
            mur_renderer_observe(a, 0, f, t);   /* 21 and 22 missed */
        if (t >= 23)
            mur_renderer_observe(b, 0, f, t);
        if (t == 20)
            REQUIRE(!mur_renderer_draw_image(a, fl, 1, t / 60.0, &pa, &sa, &err), "%s", err.msg);
    }
    REQUIRE(!mur_renderer_draw_image(a, fl, 1, 26 / 60.0, &pa, &sa, &err) &&
                !mur_renderer_draw_image(b, fl, 1, 26 / 60.0, &pb, &sb, &err), "%s", err.msg);
    int differ = 0;
    for (int y = 0; y < 120; y++)
        differ += memcmp(pa + (size_t)y * sa, pb + (size_t)y * sb, 160 * 4) != 0;
    CHECK(differ == 0, "%d rows differ from the frame of a renderer that began after the gap", differ);
    mur_renderer_destroy(a);
    mur_renderer_destroy(b);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* A layer is wiped and laid over the frame only in the tiles marked drawn
 * on: ink outside them would be lost, or left over into a later band. */
static void tiles_cover_the_ink(const char *yaml)
{
    mur_scene *s = scene_of(yaml);
    REQUIRE(s, "scene");
    int ends[] = {20, 45, 90};
    for (int c = 0; c < 3; c++) {
        mur_renderer *r = NULL;
        mur_error err;
        REQUIRE(!mur_renderer_create(&r, mur_scene_look(s), 400, 300, &err), "%s", err.msg);
        int stride = 0;
        REQUIRE(run_trails(s, r, ends[c], 1, &stride, NULL), "frames");
        const mur_trails *t = &r->panels[0].trails;
        REQUIRE(t->layers && t->nlayers > 0, "no trail layers kept");
        long inked = 0, outside = 0;
        int tile = MUR_TRAIL_TILE;
        for (int k = 0; k < t->nlayers; k++) {
            const mur_trail_layer *L = &t->layers[k];
            if (!L->img)
                continue;
            cairo_surface_flush(L->img);
            const unsigned char *d = cairo_image_surface_get_data(L->img);
            int st = cairo_image_surface_get_stride(L->img);
            for (int y = 0; y < t->lh; y++)
                for (int x = 0; x < t->lw; x++)
                    if (d[(size_t)y * st + (size_t)x * 4 + 3]) {   /* alpha */
                        inked++;
                        outside += !L->tiles[(y / tile) * t->tw + x / tile];
                    }
        }
        CHECK(inked > 1000, "only %ld pixels inked in the layers at tick %d", inked, ends[c]);
        CHECK(outside == 0, "%ld inked pixels lie outside the marked tiles at tick %d", outside,
              ends[c]);
        mur_renderer_destroy(r);
    }
    mur_scene_destroy(s);
}

TEST(trail_layers_mark_every_tile_they_draw_on)
{
    tiles_cover_the_ink(TRAIL_SCENE("120", "400", "300", "24"));   /* stroked: 1.6 pixels wide */
    tiles_cover_the_ink(TRAIL_SCENE_SIZED("120", "400", "300", "24", "1.6"));   /* hairlines: 0.32 */
}

/* A band's ink (its nonzero pixels, ink.c) laid over a frame gives the
 * bytes Cairo gives painting the whole layer with the same opacity through
 * the same clip: random translucent ink over a random translucent frame,
 * at opacities from 1 to almost nothing. */
TEST(ink_laid_equals_the_layer_painted)
{
    enum { LW = 200, LH = 120, FW = 230, FH = 150, DX = 5, DY = 7, TW = (LW + 31) / 32, TH = (LH + 31) / 32 };
    cairo_surface_t *layer = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, LW, LH);
    cairo_surface_t *fa = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, FW, FH);
    cairo_surface_t *fb = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, FW, FH);
    REQUIRE(cairo_surface_status(layer) == CAIRO_STATUS_SUCCESS && cairo_surface_status(fa) == CAIRO_STATUS_SUCCESS &&
            cairo_surface_status(fb) == CAIRO_STATUS_SUCCESS, "surfaces");
    uint32_t seed = 12345;
    unsigned char tiles[TW * TH] = {0};
    unsigned char *ld = cairo_image_surface_get_data(layer);
    int ls = cairo_image_surface_get_stride(layer);
    long inked = 0;
    for (int y = 0; y < LH; y++)
        for (int x = 0; x < LW; x++) {
            seed = seed * 1664525u + 1013904223u;
            uint32_t a = seed >> 24, v = 0;
            /* about one pixel in 16 inked, none in one tile (a span of
             * tiles ends inside the clip) */
            if ((seed >> 8 & 15) == 0 && a && !(x / 32 == 2 && y / 32 == 1)) {
                v = a << 24;
                for (int c = 0; c < 3; c++) {
                    seed = seed * 1664525u + 1013904223u;
                    v |= ((seed >> 16) % (a + 1)) << (8 * c);   /* premultiplied: <= alpha */
                }
                tiles[(y / 32) * TW + x / 32] = 1;
                inked++;
            }
            memcpy(ld + (size_t)y * ls + (size_t)x * 4, &v, 4);
        }
    tiles[TW * TH - 1] = 1;   /* a marked tile without ink */
    cairo_surface_mark_dirty(layer);
    mur_ink ink = {0};
    REQUIRE(mur_ink_read(&ink, ld, ls, LW, LH, tiles, TW, 32, (size_t)inked / 2) == 1,
            "ink of %ld pixels read under a limit of half of them", inked);
    REQUIRE(!mur_ink_read(&ink, ld, ls, LW, LH, tiles, TW, 32, (size_t)LW * LH), "read");
    long held = 0;
    for (size_t i = 0; i < ink.npx; i++)
        held += ink.px[i] != 0;
    CHECK(held == inked, "the ink holds %ld of %ld inked pixels", held, inked);
    CHECK(ink.npx < (size_t)LW * LH / 4, "the ink takes %zu pixels for %ld inked", ink.npx, inked);
    mur_ink whole;
    mur_ink_whole(&whole, ld, ls, LW, LH, tiles, TW, 32);
    unsigned char *dc = malloc((size_t)cairo_image_surface_get_stride(fa) * FH);
    REQUIRE(dc, "memory");
    double alphas[] = {1.0, 0.55, 0.5 * 0.8, 0.3137, 0.1, 0.01, 0.002, 0.0004};
    for (size_t k = 0; k < sizeof alphas / sizeof *alphas; k++) {
        unsigned char *da = cairo_image_surface_get_data(fa), *db = cairo_image_surface_get_data(fb);
        int fs = cairo_image_surface_get_stride(fa);
        for (int y = 0; y < FH; y++)
            for (int x = 0; x < FW; x++) {
                seed = seed * 1664525u + 1013904223u;
                uint32_t a = (seed >> 24) | (x % 3 ? 0 : 255), v = a << 24;   /* some opaque */
                for (int c = 0; c < 3; c++) {
                    seed = seed * 1664525u + 1013904223u;
                    v |= ((seed >> 16) % (a + 1)) << (8 * c);
                }
                memcpy(da + (size_t)y * fs + (size_t)x * 4, &v, 4);
            }
        memcpy(db, da, (size_t)fs * FH);
        memcpy(dc, da, (size_t)fs * FH);
        cairo_surface_mark_dirty(fa);
        cairo_surface_mark_dirty(fb);
        /* Cairo: the layer painted through a clip that cuts it */
        cairo_t *cr = cairo_create(fa);
        cairo_rectangle(cr, 10, 12, 150, 100);
        cairo_clip(cr);
        cairo_set_source_surface(cr, layer, DX, DY);
        cairo_paint_with_alpha(cr, alphas[k]);
        REQUIRE(cairo_status(cr) == CAIRO_STATUS_SUCCESS, "paint");
        cairo_destroy(cr);
        cairo_surface_flush(fa);
        int m = mur_ink_mask(alphas[k]);
        REQUIRE(m >= 0 && m <= 255, "mask of %g: %d", alphas[k], m);
        const mur_ink *one[1] = {&ink};
        mur_ink_lay(one, &m, 1, db, fs, DX, DY, 10, 12, 160, 112);
        long differ = 0;
        for (size_t i = 0; i < (size_t)fs * FH; i++)
            differ += da[i] != db[i];
        CHECK(differ == 0, "opacity %g (mask %d): %ld bytes differ from Cairo's", alphas[k], m, differ);
        /* and the layer itself laid as ink, its marked tiles whole */
        const mur_ink *all[1] = {&whole};
        mur_ink_lay(all, &m, 1, dc, fs, DX, DY, 10, 12, 160, 112);
        differ = 0;
        for (size_t i = 0; i < (size_t)fs * FH; i++)
            differ += da[i] != dc[i];
        CHECK(differ == 0, "opacity %g (mask %d): the whole layer laid: %ld bytes differ from Cairo's",
              alphas[k], m, differ);
    }
    free(dc);
    mur_ink_free(&ink);
    cairo_surface_destroy(layer);
    cairo_surface_destroy(fa);
    cairo_surface_destroy(fb);
}

/* A frame laid from the bands' ink equals the same frame with every layer
 * painted whole, and most bands are laid from ink. */
TEST(trail_frames_from_ink_equal_the_layers_painted)
{
    mur_scene *s = scene_of(TRAIL_SCENE("120", "400", "300", "24"));
    REQUIRE(s, "scene");
    mur_renderer *r = NULL;
    mur_flock *f = NULL;
    mur_error err;
    REQUIRE(!mur_renderer_create(&r, mur_scene_look(s), 400, 300, &err), "%s", err.msg);
    REQUIRE(!mur_flock_create(&f, &s->params, 7, &err), "%s", err.msg);
    const mur_flock *fl[1] = {f};
    const uint8_t *px = NULL;
    int stride = 0;
    for (int t = 1; t <= 50; t++) {
        mur_flock_step(f);
        mur_renderer_observe(r, 0, f, t);
        REQUIRE(!mur_renderer_draw_image(r, fl, 1, t / 60.0, &px, &stride, &err), "%s", err.msg);
    }
    uint8_t *a = malloc((size_t)stride * 300);
    REQUIRE(a, "memory");
    memcpy(a, px, (size_t)stride * 300);
    mur_trails *tr = &r->panels[0].trails;
    int inked = 0;
    for (int k = 0; k < tr->nlayers; k++) {
        inked += tr->layers[k].inked;
        tr->layers[k].inked = 0;
    }
    CHECK(inked >= 3, "only %d bands were laid from ink", inked);
    REQUIRE(!mur_renderer_draw_image(r, fl, 1, 50 / 60.0, &px, &stride, &err), "%s", err.msg);
    int differ = 0;
    for (int y = 0; y < 300; y++)
        differ += memcmp(a + (size_t)y * stride, px + (size_t)y * stride, 400 * 4) != 0;
    CHECK(differ == 0, "%d rows differ between the frame laid from ink and the layers painted", differ);
    free(a);
    mur_renderer_destroy(r);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* A trail under half a pixel wide is a hairline: it lays the ink of its
 * width times its length, on the row it runs along, with no joint laid
 * twice (a stroke's joints overlap, which on so thin a line shows as
 * beads). One boid flies 2 pixels a tick along the middle of row 60, its
 * trail 0.32 pixels wide (size 2); each whole band of 6 ticks in the
 * layers must hold 0.32 x 12 pixels of ink. */
TEST(hairline_trail_lays_the_ink_of_its_width)
{
    mur_scene *s;
    mur_flock *f;
    mur_renderer *r;
    mur_error err;
    REQUIRE(!flyer_fixture("{background: \"#000000\", boid: {shape: dot, size: 2, "
                           "color: \"#ffffff\"}, trails: {length: 30, fade: true}}",
                           10, &s, &f, &r), "fixture");
    const mur_flock *fl[1] = {f};
    for (long t = 1; t <= 40; t++) {
        mur_flock_step(f);
        mur_renderer_observe(r, 0, f, t);
        const uint8_t *px;
        int stride;
        REQUIRE(!mur_renderer_draw_image(r, fl, 1, t / 60.0, &px, &stride, &err), "%s", err.msg);
    }
    const mur_trails *t = &r->panels[0].trails;
    REQUIRE(t->layers && t->nlayers > 0, "no trail layers kept");
    int whole = 0;
    for (int k = 0; k < t->nlayers; k++) {
        const mur_trail_layer *L = &t->layers[k];
        if (!L->img || L->band < 1 || L->upto != L->band * 6 + 5)
            continue;   /* band 0 starts before the first segment; the newest is still drawn */
        cairo_surface_flush(L->img);
        const unsigned char *d = cairo_image_surface_get_data(L->img);
        int st = cairo_image_surface_get_stride(L->img);
        double ink = 0, off_row = 0;
        for (int y = 0; y < t->lh; y++)
            for (int x = 0; x < t->lw; x++) {
                double a = d[(size_t)y * st + (size_t)x * 4 + 3] / 255.0;
                ink += a;
                off_row += y != 60 ? a : 0;
            }
        whole++;
        /* pixels two segments share are laid one over the other (OVER: a
         * little under the sum), and each is rounded to 8 bits */
        CHECK(ink > 0.32 * 12 * 0.94 && ink < 0.32 * 12 * 1.02, "band %ld holds %.3f pixels of ink, "
              "not about %.3f", L->band, ink, 0.32 * 12);
        CHECK(off_row == 0, "band %ld lays %.3f of its ink off the row it runs along", L->band, off_row);
    }
    CHECK(whole >= 4, "only %d whole bands kept", whole);
    mur_renderer_destroy(r);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* A fading trail dims a little every frame and is gone once invisible: no
 * part of it drops by a visible step (the old five-step fade dropped a
 * seventh of the trail's brightness at once). One white boid flies
 * straight along pixel row 60; a pixel it passed is followed frame by
 * frame. */
TEST(fading_trail_dims_smoothly_and_ends_dark)
{
    mur_scene *s;
    mur_flock *f;
    mur_renderer *r;
    mur_error err;
    REQUIRE(!flyer_fixture("{background: \"#000000\", boid: {shape: dot, size: 6, "
                           "color: \"#ffffff\"}, trails: {length: 30, fade: true}}",
                           10, &s, &f, &r), "fixture");
    const mur_flock *fl[1] = {f};
    int prev = -1, max_drop = 0, rises = 0, peak = 0, last = 0;
    for (long t = 1; t <= 60; t++) {   /* 2 units a tick: x = 12 .. 130 */
        mur_flock_step(f);
        mur_renderer_observe(r, 0, f, t);
        const uint8_t *px;
        int stride;
        REQUIRE(!mur_renderer_draw_image(r, fl, 1, t / 60.0, &px, &stride, &err), "%s", err.msg);
        int v = px[60 * stride + 30 * 4 + 1];   /* green of pixel (30, 60): passed at tick 10 */
        if (t > 14) {   /* the boid and its newest band have moved on */
            if (prev >= 0 && v > prev)
                rises++;
            if (prev >= 0 && prev - v > max_drop)
                max_drop = prev - v;
            peak = v > peak ? v : peak;
        }
        prev = v;
        last = v;
    }
    CHECK(peak > 80, "the trail is too faint to follow: peak %d", peak);
    CHECK(rises == 0, "the trail brightened %d times while fading", rises);
    /* 0.55 of 255 over 30 ticks is 4.7 a tick */
    CHECK(max_drop <= 8, "the trail dimmed by %d levels in one frame", max_drop);
    CHECK(last == 0, "the trail is still lit (%d) 50 ticks after the boid passed", last);
    mur_renderer_destroy(r);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* Vector surfaces get each band stroked afresh with its opacity, images
 * get the kept layers: the two must look the same. */
TEST(trails_on_vector_surfaces_look_like_the_image_ones)
{
    mur_scene *s = scene_of(TRAIL_SCENE("120", "200", "150", "24"));
    REQUIRE(s, "scene");
    mur_renderer *r = NULL;
    mur_error err;
    REQUIRE(!mur_renderer_create(&r, mur_scene_look(s), 200, 150, &err), "%s", err.msg);
    int stride = 0;
    const uint8_t *px = run_trails(s, r, 60, 1, &stride, NULL);
    REQUIRE(px, "frames");
    /* the same state through a recording surface, played back on an image */
    cairo_surface_t *rec = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, NULL);
    mur_renderer *r2 = NULL;
    REQUIRE(!mur_renderer_create(&r2, mur_scene_look(s), 200, 150, &err), "%s", err.msg);
    cairo_t *cr = cairo_create(rec);
    int drawn = run_trails(s, r2, 60, 1000, &stride, cr) != NULL;
    cairo_destroy(cr);
    REQUIRE(drawn, "the vector frame");
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 200, 150);
    cr = cairo_create(img);
    cairo_set_source_surface(cr, rec, 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_flush(img);
    cairo_surface_t *ref = cairo_image_surface_create_for_data((unsigned char *)px, CAIRO_FORMAT_ARGB32,
                                                               200, 150, stride);
    int far = 0, lit = 0;
    for (int y = 0; y < 150; y++)
        for (int x = 0; x < 200; x++) {
            far += channel_diff(pixel(img, x, y), pixel(ref, x, y)) > 24;
            lit += ((pixel(ref, x, y) >> 8) & 255) > 40;
        }
    CHECK(lit > 600, "only %d pixels lit", lit);
    /* crossings within a band add up when stroked and do not in a layer */
    CHECK(far <= lit / 25, "%d pixels differ by more than 24 levels (of %d lit)", far, lit);
    cairo_surface_destroy(ref);
    cairo_surface_destroy(img);
    cairo_surface_destroy(rec);
    mur_renderer_destroy(r);
    mur_renderer_destroy(r2);
    mur_scene_destroy(s);
}

/* Colour by heading's bin as atan2 gives it: the angle over 2 pi, in
 * [0, 1), times 48 bins. */
static int heading_bin_by_atan2(double vx, double vy)
{
    double a = atan2(vy, vx) / (2 * MUR_PI), u = a < 0 ? a + 1 : a;
    return !(u > 0) ? 0 : u >= 1 ? 47 : (int)(u * 48);
}

/* The renderer takes a heading's bin mostly without atan2, and must give
 * atan2's bin for every velocity: random ones, the bins' very edges and a
 * few units in the last place either side, the axes, signed zeros, the
 * tiny, the huge and the not finite. */
TEST(heading_bins_are_the_ones_atan2_gives)
{
    enum { MAX = 2100000 };
    double *hx = malloc(MAX * sizeof *hx), *hy = malloc(MAX * sizeof *hy);
    int *hb = malloc(MAX * sizeof *hb);
    REQUIRE(hx && hy && hb, "memory");
    long tried = 0, wrong = 0;
    uint32_t seed = 2024;
    /* one at a time here, and all of them at once below */
#define TRY(x, y)                                                                                  \
    do {                                                                                           \
        double vx_ = (x), vy_ = (y);                                                               \
        int got_ = mur_heading_bin(vx_, vy_), want_ = heading_bin_by_atan2(vx_, vy_);              \
        if (tried < MAX) {                                                                         \
            hx[tried] = vx_;                                                                       \
            hy[tried] = vy_;                                                                       \
        }                                                                                          \
        tried++;                                                                                   \
        if (got_ != want_ && wrong++ < 5)                                                          \
            fprintf(stderr, "  (%.17g, %.17g): bin %d, atan2 gives %d\n", vx_, vy_, got_, want_);  \
    } while (0)
    for (int k = 0; k < 2000000; k++) {
        seed = seed * 1664525u + 1013904223u;
        double t = seed / 4294967296.0 * 2 * MUR_PI;
        seed = seed * 1664525u + 1013904223u;
        double m = pow(10, seed / 4294967296.0 * 8 - 4);   /* 1e-4 .. 1e4 */
        TRY(m * cos(t), m * sin(t));
    }
    const double mags[] = {1e-300, 1e-9, 0.3, 1, 2.4, 7, 1e6, 1e300};
    for (int b = 0; b <= 48; b++)
        for (size_t g = 0; g < sizeof mags / sizeof *mags; g++) {
            double t = 2 * MUR_PI * b / 48, x = mags[g] * cos(t), y = mags[g] * sin(t);
            for (int dx = -3; dx <= 3; dx++)
                for (int dy = -3; dy <= 3; dy++) {
                    double xx = x, yy = y;
                    for (int s = 0; s < abs(dx); s++)
                        xx = nextafter(xx, dx < 0 ? -INFINITY : INFINITY);
                    for (int s = 0; s < abs(dy); s++)
                        yy = nextafter(yy, dy < 0 ? -INFINITY : INFINITY);
                    TRY(xx, yy);
                }
        }
    const double odd[] = {0.0, -0.0, 1.0, -1.0, 5e-324, -5e-324, 1e308, -1e308, INFINITY, -INFINITY, NAN};
    for (size_t i = 0; i < sizeof odd / sizeof *odd; i++)
        for (size_t j = 0; j < sizeof odd / sizeof *odd; j++)
            TRY(odd[i], odd[j]);
#undef TRY
    CHECK(wrong == 0, "%ld of %ld headings got another bin than atan2's", wrong, tried);
    REQUIRE(tried <= MAX, "%ld headings tried, room for %d", tried, (int)MAX);
    mur_heading_bins(hx, hy, (int)tried, hb);
    long batch_wrong = 0;
    for (long k = 0; k < tried; k++)
        if (hb[k] != heading_bin_by_atan2(hx[k], hy[k]) && batch_wrong++ < 5)
            fprintf(stderr, "  together: (%.17g, %.17g): bin %d, atan2 gives %d\n", hx[k], hy[k], hb[k],
                    heading_bin_by_atan2(hx[k], hy[k]));
    CHECK(batch_wrong == 0, "together, %ld of %ld headings got another bin than atan2's", batch_wrong, tried);
    free(hx);
    free(hy);
    free(hb);
}

TEST(golden_trails)
{
    mur_scene *s = scene_of(WORLD "look: {boid: {shape: arrow, size: 14, color: heading}, "
                                  "trails: {length: 24, fade: true}}\n");
    REQUIRE(s, "scene");
    mur_flock *f = NULL;
    mur_error err;
    REQUIRE(!mur_flock_create(&f, &s->params, 1, &err), "%s", err.msg);
    mur_renderer *r = NULL;
    REQUIRE(!mur_renderer_create(&r, mur_scene_look(s), 160, 120, &err), "%s", err.msg);
    /* twelve boids on circles of their own, some crossing the seams */
    enum { N = 12 };
    double cx[N] = {60, 160, 260, 100, 310, 200, 20, 120, 220, 300, 60, 170};
    double cy[N] = {60, 120, 60, 180, 200, 5, 130, 40, 190, 110, 230, 70};
    double rad[N] = {40, 50, 35, 45, 30, 40, 30, 25, 35, 45, 30, 20};
    for (int t = 0; t <= 40; t++) {
        double x[N], y[N], vx[N], vy[N];
        for (int i = 0; i < N; i++) {
            double w = (i % 2 ? 1 : -1) * 0.07;
            x[i] = fmod(cx[i] + rad[i] * cos(w * t + i) + 320, 320);
            y[i] = fmod(cy[i] + rad[i] * sin(w * t + i) + 240, 240);
            vx[i] = -rad[i] * w * sin(w * t + i);
            vy[i] = rad[i] * w * cos(w * t + i);
        }
        mur_flock_set_state(f, N, x, y, vx, vy, &err);
        mur_renderer_observe(r, 0, f, t + 1);
    }
    const mur_flock *fl[1] = {f};
    const uint8_t *px;
    int stride;
    REQUIRE(!mur_renderer_draw_image(r, fl, 1, 1, &px, &stride, &err), "%s", err.msg);
    cairo_surface_t *img = cairo_image_surface_create_for_data((unsigned char *)px, CAIRO_FORMAT_ARGB32,
                                                               160, 120, stride);
    golden("trails_fade", img, 48, 0.004);
    cairo_surface_destroy(img);
    mur_renderer_destroy(r);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* ---- overlays ------------------------------------------------------------- */

TEST(watch_arrows_are_the_engine_rule_vectors)
{
    const char *base = "seed: 1\nmodel: wrkspc\nworld: {width: 320, height: 240}\n"
                       "flock: {perception: 60}\nvideo: {width: 320, height: 240}\n";
    mur_scene *s0 = scene_of(base);
    REQUIRE(s0, "scene");
    mur_flock *f = flock_of(s0, 40, 9);
    REQUIRE(f, "flock");
    for (int k = 0; k < 5; k++)
        mur_flock_step(f);   /* a state the engine made, not only the test's */
    /* watch a boid well inside the frame, with neighbours */
    int w = -1;
    mur_watch_view v;
    mur_rules rules;
    mur_error err;
    for (int i = 0; i < 40 && w < 0; i++) {
        REQUIRE(!mur_render_watch_view(f, i, &v, &err), "%s", err.msg);
        if (v.x > 70 && v.x < 250 && v.y > 70 && v.y < 170 && v.n_sep == 0 && v.n_coh > 0)
            w = i;
    }
    REQUIRE(w >= 0, "no boid inside the frame with neighbours to watch");
    for (int i = 0; i < 40; i++) {
        REQUIRE(!mur_render_watch_view(f, i, &v, &err), "%s", err.msg);
        mur_flock_rules(f, i, &rules);
        const double *want[3] = {rules.sep_a, rules.ali_a, rules.coh_a};
        for (int k = 0; k < 3; k++)
            CHECK(v.steer[k][0] == want[k][0] && v.steer[k][1] == want[k][1],
                  "boid %d arrow %d is (%g, %g), the engine's (%g, %g)", i, k, v.steer[k][0],
                  v.steer[k][1], want[k][0], want[k][1]);
        CHECK(v.n_sep == rules.n_sep && v.n_ali == rules.n_ali && v.n_coh == rules.n_coh,
              "boid %d neighbour counts", i);
    }
    CHECK(v.scale > 0, "arrow scale %g", v.scale);
    CHECK(mur_render_watch_view(f, 40, &v, &err) == MUR_EINPUT, "boid 40 of 40 accepted");

    /* The drawing follows the vectors: near the tip of each arrow (its
     * head, the widest part) the pixel has that rule's colour (the boids
     * are dark grey dots). */
    char yaml[1024];
    snprintf(yaml, sizeof yaml, "%slook: {boid: {shape: dot, size: 10, color: \"#404040\"}, "
                                "overlays: [{watch: {boid: %d}}]}\n", base, w);
    mur_scene *s = scene_of(yaml);
    REQUIRE(s, "scene");
    REQUIRE(!mur_render_watch_view(f, w, &v, &err), "%s", err.msg);
    cairo_surface_t *img = draw(s, f, 320, 240, 0);
    REQUIRE(img, "drawn");
    int looked = 0;
    for (int k = 1; k < 3; k++) {   /* no boid too close: alignment and cohesion only */
        double len = hypot(v.steer[k][0], v.steer[k][1]) * v.scale;
        int px = (int)floor(v.x + 0.88 * v.steer[k][0] * v.scale);
        int py = (int)floor(v.y + 0.88 * v.steer[k][1] * v.scale);
        uint32_t p = pixel(img, px, py);
        int r8 = (p >> 16) & 255, g8 = (p >> 8) & 255, b8 = p & 255;
        /* alignment sky blue: blue high, red low; cohesion yellow: red and
         * green high, blue low */
        int ok = k == 1 ? (b8 > 170 && r8 < 140) : (r8 > 180 && g8 > 180 && b8 < 140);
        CHECK(len > 10 && ok, "arrow %d (%g long) at (%d, %d) is %02x%02x%02x", k, len, px, py, r8, g8, b8);
        looked++;
    }
    CHECK(looked == 2, "checked %d arrows", looked);
    cairo_surface_destroy(img);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
    mur_scene_destroy(s0);
}

/* Frame with and without overlays, drawn at 640 x 480: the overlay's
 * region (in those pixels) must differ. */
static long region_changed(const char *look_with, const char *look_without, int x0, int y0, int x1,
                           int y1, double t)
{
    char a[2048], b[2048];
    snprintf(a, sizeof a, WORLD "%s", look_with);
    snprintf(b, sizeof b, WORLD "%s", look_without);
    mur_scene *sa = scene_of(a), *sb = scene_of(b);
    long n = -1;
    if (sa && sb) {
        mur_flock *f = flock_of(sa, 20, 5);
        cairo_surface_t *ia = draw(sa, f, 640, 480, t), *ib = draw(sb, f, 640, 480, t);
        if (ia && ib)
            n = count_diff(ia, ib, x0, y0, x1, y1, 30);
        cairo_surface_destroy(ia);
        cairo_surface_destroy(ib);
        mur_flock_destroy(f);
    }
    mur_scene_destroy(sa);
    mur_scene_destroy(sb);
    return n;
}

TEST(text_overlays_are_present_where_they_belong)
{
    const char *none = "look: {boid: {size: 10}}\n";
    long n = region_changed("look: {boid: {size: 10}, overlays: [readout]}\n", none, 0, 0, 220, 140, 0);
    CHECK(n > 600, "readout: %ld pixels changed top left", n);
    n = region_changed("look: {boid: {size: 10}, overlays: [params]}\n", none, 0, 0, 640, 60, 0);
    CHECK(n > 600, "params: %ld pixels changed on top", n);
    n = region_changed("look: {boid: {size: 10}, overlays: [clock]}\n", none, 440, 400, 640, 480, 0);
    CHECK(n > 60, "clock: %ld pixels changed bottom right", n);
    n = region_changed("look: {boid: {size: 10}, overlays: [state]}\n", none, 0, 0, 220, 80, 0);
    CHECK(n > 250, "state: %ld pixels changed top left", n);
    n = region_changed("look: {boid: {size: 10}, overlays: [{plot: {metric: order, corner: bottom-right}}]}\n",
                       none, 400, 320, 640, 480, 0);
    CHECK(n > 400, "plot: %ld pixels changed bottom right", n);
    n = region_changed("look: {boid: {size: 10}}\ntimeline: [{at: 0s, caption: \"Hello, flock\"}]\n", none,
                       120, 360, 520, 480, 1.0);
    CHECK(n > 250, "caption: %ld pixels changed bottom centre", n);
    n = region_changed("look: {boid: {size: 10}}\ntimeline: [{at: 0s, caption: \"Hello, flock\"}]\n", none,
                       0, 0, 640, 480, 10.0);
    CHECK(n == 0, "caption still showing after it ended: %ld pixels", n);
    n = region_changed("look: {boid: {size: 10}}\npredators: [{mode: flee, x: \"160\", y: \"120\"}]\n", none,
                       300, 220, 340, 260, 0);
    CHECK(n > 400, "predator marker: %ld pixels changed at its place", n);
}

TEST(golden_overlays)
{
    /* Tolerant: text is most of what changes between font builds. */
    mur_scene *s = scene_of("seed: 1\nmodel: wrkspc\nworld: {width: 320, height: 240, boundary: wrap}\n"
                            "flock: {perception: 50}\nvideo: {width: 320, height: 240}\n"
                            "look: {boid: {shape: arrow, size: 10, color: heading}, overlays: [params, "
                            "readout, state, {plot: {metric: order, window: 5s}}, {watch: {boid: 2}}, clock]}\n"
                            "timeline: [{at: 0s, caption: {text: \"Three rules\", for: 10s}}]\n"
                            "predators: [{mode: attract, x: \"250\", y: \"190\", radius: 40}]\n");
    REQUIRE(s, "scene");
    mur_flock *f = flock_of(s, 40, 11);
    REQUIRE(f, "flock");
    mur_renderer *r = NULL;
    mur_error err;
    REQUIRE(!mur_renderer_create(&r, mur_scene_look(s), 320, 240, &err), "%s", err.msg);
    for (long t = 1; t <= 120; t++) {
        mur_flock_step(f);
        mur_renderer_observe(r, 0, f, t);
    }
    const mur_flock *fl[1] = {f};
    const uint8_t *px;
    int stride;
    REQUIRE(!mur_renderer_draw_image(r, fl, 1, 2.0, &px, &stride, &err), "%s", err.msg);
    cairo_surface_t *img = cairo_image_surface_create_for_data((unsigned char *)px, CAIRO_FORMAT_ARGB32,
                                                               320, 240, stride);
    golden("overlays", img, 64, 0.03);
    cairo_surface_destroy(img);
    mur_renderer_destroy(r);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* A program that embeds the renderer fills a look of its own: no scene. */
static const char *hand_caption(const void *ctx, double t, double *alpha)
{
    *alpha = 1;
    return t < 10 ? (const char *)ctx : NULL;
}

static int hand_predators(const void *ctx, double t, mur_predator *out, int max)
{
    (void)ctx;
    (void)t;
    if (max < 1)
        return 0;
    out[0] = (mur_predator){.x = 250, .y = 190, .radius = 40, .strength = 1, .attract = 1};
    return 1;
}

static const mur_overlay hand_overlays[] = {
    {.kind = MUR_OVERLAY_PARAMS},
    {.kind = MUR_OVERLAY_READOUT, .metrics = {0, 1, 3}, .nmetrics = 3},
    {.kind = MUR_OVERLAY_PLOT, .metric = 0, .window = 5, .corner = MUR_CORNER_TOP_RIGHT},
    {.kind = MUR_OVERLAY_WATCH, .boid = 2},
    {.kind = MUR_OVERLAY_CLOCK},
};

/* Frame 120 of one flock with a renderer of lk, into a new image. */
static cairo_surface_t *frame_of_look(const mur_look *lk, const mur_params *p)
{
    mur_flock *f = NULL;
    mur_renderer *r = NULL;
    mur_error err = {{0}};
    cairo_surface_t *img = NULL;
    if (mur_flock_create(&f, p, 1, &err) || mur_renderer_create(&r, lk, 320, 240, &err)) {
        fprintf(stderr, "  %s\n", err.msg);
        goto done;
    }
    for (long t = 1; t <= 120; t++) {
        mur_flock_step(f);
        mur_renderer_observe(r, 0, f, t);
    }
    img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 320, 240);
    cairo_t *cr = cairo_create(img);
    const mur_flock *fl[1] = {f};
    if (mur_renderer_draw(r, cr, fl, 1, 2.0, &err)) {
        fprintf(stderr, "  draw: %s\n", err.msg);
        cairo_surface_destroy(img);
        img = NULL;
    }
    cairo_destroy(cr);
done:
    mur_renderer_destroy(r);
    mur_flock_destroy(f);
    return img;
}

TEST(a_look_filled_by_hand_draws_what_the_scene_look_draws)
{
    mur_scene *s = scene_of("seed: 1\nmodel: wrkspc\nworld: {width: 320, height: 240, boundary: wrap}\n"
                            "flock: {perception: 50}\nvideo: {width: 320, height: 240}\n"
                            "look: {boid: {shape: triangle, size: 10, color: heading}, trails: {length: 20},"
                            " overlays: [params, {readout: [order, nearest, clusters]},"
                            " {plot: {metric: order, window: 5s}}, {watch: {boid: 2}}, clock]}\n"
                            "timeline: [{at: 0s, caption: {text: \"Three rules\", for: 10s}}]\n"
                            "predators: [{mode: attract, x: \"250\", y: \"190\", radius: 40}]\n");
    REQUIRE(s, "scene");
    mur_look hand = {
        .version = MUR_LOOK_VERSION,
        .background = {0x0b / 255.0, 0x0d / 255.0, 0x0f / 255.0, 1},
        .shape = MUR_SHAPE_TRIANGLE,
        .boid_size = 10,
        .color_mode = MUR_COLOR_HEADING,
        .boid_color = {0x7c / 255.0, 0xf2 / 255.0, 0x9c / 255.0, 1},
        .trail_length = 20,
        .trail_fade = 1,
        .overlays = hand_overlays,
        .noverlays = 5,
        .tps = 60,
        .panels = 1,
        .ctx = "Three rules",
        .caption_at = hand_caption,
        .predators_at = hand_predators,
    };
    cairo_surface_t *a = frame_of_look(mur_scene_look(s), &s->params);
    cairo_surface_t *b = frame_of_look(&hand, &s->params);
    REQUIRE(a && b, "frames");
    long n = count_diff(a, b, 0, 0, 320, 240, 0);
    CHECK(n == 0, "%ld pixels differ between the scene's look and the same look by hand", n);
    /* and each part of it shows: without the caption and predators, it differs */
    hand.caption_at = NULL;
    hand.predators_at = NULL;
    cairo_surface_t *c = frame_of_look(&hand, &s->params);
    REQUIRE(c, "frame");
    CHECK(count_diff(a, c, 0, 0, 320, 240, 0) > 400, "captions and predators made no difference");
    cairo_surface_destroy(a);
    cairo_surface_destroy(b);
    cairo_surface_destroy(c);
    mur_scene_destroy(s);
}

TEST(a_look_out_of_range_is_refused)
{
    mur_overlay plot = {.kind = MUR_OVERLAY_PLOT, .metric = 0, .window = 5};
    const mur_look good = {.version = MUR_LOOK_VERSION, .boid_size = 6, .tps = 60, .panels = 1, .overlays = &plot,
                           .noverlays = 1};
    mur_renderer *r = NULL;
    mur_error err = {{0}};
    REQUIRE(!mur_renderer_create(&r, &good, 64, 48, &err), "%s", err.msg);
    mur_renderer_destroy(r);
    mur_look bad[7];
    for (int i = 0; i < 7; i++)
        bad[i] = good;
    bad[0].panels = 0;
    bad[1].color_mode = (mur_color_mode)99;
    bad[2].shape = (mur_shape)-1;
    bad[3].tps = 0;
    bad[4].trail_length = -1;
    bad[5].overlays = NULL;
    mur_overlay wrong = plot;
    wrong.metric = MUR_METRIC_COUNT;
    bad[6].overlays = &wrong;
    for (int i = 0; i < 7; i++) {
        r = NULL;
        int rc = mur_renderer_create(&r, &bad[i], 64, 48, &err);
        CHECK(rc == MUR_EINPUT && !r && strstr(err.msg, "out of range"), "bad look %d: %d %s", i, rc,
              rc ? err.msg : "");
        mur_renderer_destroy(r);
    }
    mur_look old = good, later = good;   /* a zeroed version (a look from before versions) and a later one */
    old.version = 0;
    later.version = MUR_LOOK_VERSION + 1;
    CHECK(mur_renderer_create(&r, &old, 64, 48, &err) == MUR_EINPUT && !r && strstr(err.msg, "version"),
          "a look of version 0 drawn");
    CHECK(mur_renderer_create(&r, &later, 64, 48, &err) == MUR_EINPUT && !r && strstr(err.msg, "version"),
          "a look of a later version drawn");
}

static const char panels_scene[] =
    "seed: 7\nmodel: wrkspc\nworld: {width: 480, height: 320, boundary: wrap}\nflock: {count: 60}\n"
    "video: {width: 360, height: 200}\n"
    "look: {boid: {shape: arrow, size: 12, color: heading}, trails: {length: 8}, overlays: [state]}\n"
    "experiment: {conditions: {all: {}, no-alignment: {alignment: 0}, no-separation: {separation: 0}, "
    "no-cohesion: {cohesion: 0}, none: {separation: 0, alignment: 0, cohesion: 0}}}\n"
    "layout: {panels: conditions}\n";

TEST(golden_panels)
{
    mur_scene *s = scene_of(panels_scene);
    REQUIRE(s, "scene");
    REQUIRE(mur_scene_look(s)->panels == 5, "%d panels", mur_scene_look(s)->panels);
    mur_flock *f[5] = {0};
    mur_renderer *r = NULL;
    mur_error err;
    REQUIRE(!mur_renderer_create(&r, mur_scene_look(s), 360, 200, &err), "%s", err.msg);
    for (int i = 0; i < 5; i++) {
        mur_params p = s->params;
        mur_scene_apply(s->conditions[i].set, s->conditions[i].nset, &p);
        REQUIRE(!mur_flock_create(&f[i], &p, s->seed, &err), "%s", err.msg);
    }
    for (long t = 1; t <= 90; t++)
        for (int i = 0; i < 5; i++) {
            mur_flock_step(f[i]);
            mur_renderer_observe(r, i, f[i], t);
        }
    const uint8_t *px;
    int stride;
    REQUIRE(!mur_renderer_draw_image(r, (const mur_flock *const *)f, 5, 1.5, &px, &stride, &err), "%s",
            err.msg);
    cairo_surface_t *img = cairo_image_surface_create_for_data((unsigned char *)px, CAIRO_FORMAT_ARGB32,
                                                               360, 200, stride);
    golden("panels", img, 64, 0.03);
    /* the sixth cell of the 3 x 2 grid is empty: background only */
    uint32_t bg = pixel(img, 300, 150);
    long filled = 0;
    for (int y = 110; y < 195; y++)
        for (int x = 245; x < 355; x++)
            filled += channel_diff(pixel(img, x, y), bg) > 30;
    CHECK(filled == 0, "%ld pixels drawn in the empty sixth cell", filled);
    cairo_surface_destroy(img);
    mur_renderer_destroy(r);
    for (int i = 0; i < 5; i++)
        mur_flock_destroy(f[i]);
    mur_scene_destroy(s);
}

/* ---- vector stills -------------------------------------------------------- */

static long count_of(const char *hay, const char *needle)
{
    long n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

TEST(vector_stills_are_vectors_with_fonts_embedded)
{
    mur_scene *s = scene_of(panels_scene);
    REQUIRE(s, "scene");
    mur_flock *f[5] = {0};
    mur_renderer *r = NULL;
    mur_error err;
    REQUIRE(!mur_renderer_create(&r, mur_scene_look(s), 360, 200, &err), "%s", err.msg);
    for (int i = 0; i < 5; i++) {
        mur_params p = s->params;
        mur_scene_apply(s->conditions[i].set, s->conditions[i].nset, &p);
        REQUIRE(!mur_flock_create(&f[i], &p, s->seed, &err), "%s", err.msg);
        for (long t = 1; t <= 20; t++) {
            mur_flock_step(f[i]);
            mur_renderer_observe(r, i, f[i], t);
        }
    }
    char pdf[256], svg[256], png[256], bad[256], cmd[600], out[8192];
    snprintf(pdf, sizeof pdf, "%s/still.pdf", tmp_dir());
    snprintf(svg, sizeof svg, "%s/still.svg", tmp_dir());
    snprintf(png, sizeof png, "%s/still.png", tmp_dir());
    snprintf(bad, sizeof bad, "%s/still.jpg", tmp_dir());
    const mur_flock *const *fl = (const mur_flock *const *)f;
    CHECK(!mur_renderer_write_still(r, fl, 5, 0.4, pdf, &err), "pdf: %s", err.msg);
    CHECK(!mur_renderer_write_still(r, fl, 5, 0.4, svg, &err), "svg: %s", err.msg);
    CHECK(!mur_renderer_write_still(r, fl, 5, 0.4, png, &err), "png: %s", err.msg);
    CHECK(mur_renderer_write_still(r, fl, 5, 0.4, bad, &err) == MUR_EINPUT, "a .jpg still accepted");

    /* PDF: poppler reads it; one page one column wide; no images; fonts embedded */
    snprintf(cmd, sizeof cmd, "pdfinfo '%s' 2>&1", pdf);
    CHECK(run_tool_output(cmd, out, sizeof out) == 0, "pdfinfo fails: %s", out);
    CHECK(strstr(out, "Pages:") && strstr(out, "504 x 280"), "pdfinfo (small multiples: two columns wide): %s", out);
    snprintf(cmd, sizeof cmd, "pdfimages -list '%s' 2>&1", pdf);
    CHECK(run_tool_output(cmd, out, sizeof out) == 0, "pdfimages fails: %s", out);
    CHECK(count_of(out, "\n") == 2, "the PDF holds images:\n%s", out);
    snprintf(cmd, sizeof cmd, "pdffonts '%s' 2>&1", pdf);
    CHECK(run_tool_output(cmd, out, sizeof out) == 0, "pdffonts fails: %s", out);
    CHECK(strstr(out, "DejaVuSans") != NULL, "no DejaVu Sans in the PDF:\n%s", out);
    {
        /* every font line (after the two header lines) says emb yes */
        int line = 0, bad = 0;
        for (char *p = out, *nl; *p; p = nl + 1, line++) {
            nl = strchr(p, '\n');
            if (!nl)
                break;
            *nl = 0;
            if (line >= 2 && !strstr(p, " yes "))
                bad++;
            *nl = '\n';
        }
        CHECK(line > 2 && bad == 0, "fonts not embedded:\n%s", out);
    }
    snprintf(cmd, sizeof cmd, "pdftotext '%s' - 2>&1", pdf);
    CHECK(run_tool_output(cmd, out, sizeof out) == 0 && strstr(out, "no-alignment"), "panel labels not text: %s", out);

    /* SVG: many paths, no embedded bitmap, and librsvg renders it */
    size_t len = 0;
    char *text = test_slurp(svg, &len);
    REQUIRE(text, "no svg");
    CHECK(strstr(text, "<svg") != NULL, "not an SVG");
    CHECK(count_of(text, "<path") >= 20, "only %ld <path elements", count_of(text, "<path"));
    CHECK(strstr(text, "<image") == NULL, "the SVG embeds an image");
    CHECK(strstr(text, "504pt") != NULL, "the SVG is not two columns wide");
    free(text);
    snprintf(cmd, sizeof cmd, "rsvg-convert '%s' -o '%s/svg.png' 2>&1", svg, tmp_dir());
    CHECK(run_tool_output(cmd, out, sizeof out) == 0, "rsvg-convert fails: %s", out);

    cairo_surface_t *p = cairo_image_surface_create_from_png(png);
    CHECK(cairo_surface_status(p) == CAIRO_STATUS_SUCCESS && cairo_image_surface_get_width(p) == 360,
          "the PNG still is not 360 wide");
    cairo_surface_destroy(p);
    mur_renderer_destroy(r);
    for (int i = 0; i < 5; i++)
        mur_flock_destroy(f[i]);
    mur_scene_destroy(s);
}

TEST(still_command_writes_png_pdf_svg)
{
    char err[4096], args[1024];
    const char *scene = scratch_path("s.yaml");
    write_file(scene, "seed: 2\nflock: {count: 40}\nvideo: {width: 320, height: 200, duration: 2s}\n"
                      "look: {trails: {length: 10}, overlays: [params, clock]}\n");
    const char *ext[3] = {"png", "pdf", "svg"};
    for (int k = 0; k < 3; k++) {
        snprintf(args, sizeof args, "still %s --at 1s -o %s/still.%s", scene, scratch(), ext[k]);
        int st = murmur(args, err, sizeof err);
        CHECK(st == 0, "still .%s: status %d: %s", ext[k], st, err);
        char path[512];
        snprintf(path, sizeof path, "%s/still.%s", scratch(), ext[k]);
        struct stat sb;
        CHECK(stat(path, &sb) == 0 && sb.st_size > 200, "no %s", path);
    }
    snprintf(args, sizeof args, "still %s --at 1s -o %s/still.tiff", scene, scratch());
    CHECK(murmur(args, err, sizeof err) == 2, "a .tiff still: %s", err);
}

/* ---- big boids: bounded work per boid -------------------------------------- */

static cairo_status_t svg_append(void *closure, const unsigned char *data, unsigned int length)
{
    FILE *fp = closure;
    return fwrite(data, 1, length, fp) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* Cairo's scan converter pays for every crossing of two edges of one fill,
 * so boids as large as the frame filled all together cost the square of
 * their count. Drawn as SVG, each fill is one <path> element and each boid
 * image one closed outline ("Z") in it: no fill may hold more than a
 * bounded number of them, and no boid more than its four wrap images. */
TEST(huge_boids_fill_in_bounded_batches)
{
    mur_scene *s = scene_of("seed: 1\nworld: {width: 20, height: 20, boundary: wrap}\n"
                            "flock: {count: 2000}\nvideo: {width: 400, height: 400}\n"
                            "look: {boid: {shape: arrow, size: 1000}}\n");
    REQUIRE(s, "scene");
    enum { N = 2000 };
    static double x[N], y[N], vx[N], vy[N];
    uint64_t st = 3;
    for (int i = 0; i < N; i++) {
        x[i] = lcg(&st) * 20;
        y[i] = lcg(&st) * 20;
        double a = lcg(&st) * 2 * 3.14159265358979;
        vx[i] = cos(a);
        vy[i] = sin(a);
    }
    mur_flock *f = NULL;
    mur_renderer *r = NULL;
    mur_error err = {{0}};
    REQUIRE(!mur_flock_create(&f, &s->params, 1, &err) && !mur_flock_set_state(f, N, x, y, vx, vy, &err),
            "flock: %s", err.msg);
    REQUIRE(!mur_renderer_create(&r, mur_scene_look(s), 400, 400, &err), "renderer: %s", err.msg);
    char *svg = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&svg, &len);
    REQUIRE(mem, "open_memstream");
    cairo_surface_t *surf = cairo_svg_surface_create_for_stream(svg_append, mem, 400, 400);
    cairo_t *cr = cairo_create(surf);
    const mur_flock *fl[1] = {f};
    int rc = mur_renderer_draw(r, cr, fl, 1, 0, &err);
    cairo_destroy(cr);
    cairo_surface_finish(surf);
    cairo_surface_destroy(surf);
    fclose(mem);
    CHECK(rc == 0, "draw: %s", err.msg);
    long most = 0, total = 0;
    for (const char *p = strstr(svg, "<path"); p; p = strstr(p + 1, "<path")) {
        const char *end = strchr(p, '>');
        long m = 0;
        for (const char *q = p; end && q < end; q++)
            m += *q == 'Z';
        most = m > most ? m : most;
        total += m;
    }
    CHECK(total >= N, "only %ld boid images drawn for %d boids", total, N);
    CHECK(total <= 4L * N, "%ld boid images drawn for %d boids", total, N);
    CHECK(most <= 64, "one fill holds %ld boid images", most);
    free(svg);
    mur_renderer_destroy(r);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* ---- provenance in stills ---------------------------------------------------- */

static const char prov_scene[] =
    "title: Provenance & <check>\n"
    "seed: 4242\nmodel: wrkspc\nflock: {count: 30, alignment: 0.75}\n"
    "video: {width: 200, height: 120, duration: 2s}\n"
    "look: {overlays: [clock]}\n";

/* Run `murmur still` on prov_scene to name.ext in the scratch folder;
 * returns the path. */
static const char *prov_still(const char *name)
{
    static char path[512];
    char args[1024], err[4096];
    const char *scene = scratch_path("prov.yaml");
    write_file(scene, prov_scene);
    snprintf(path, sizeof path, "%s/%s", scratch(), name);
    snprintf(args, sizeof args, "still %s --at 1s -q -o %s", scene, path);
    int st = murmur(args, err, sizeof err);
    CHECK(st == 0, "%s: status %d: %s", args, st, err);
    return path;
}

/* What every provenance must hold: version, seed, the resolved settings as
 * check prints them and the scene file's own text. */
static void check_provenance_text(const char *what, const char *t)
{
    REQUIRE(t, "%s: no provenance", what);
    CHECK(!strncmp(t, "murmur " MUR_VERSION_STRING "\n", strlen("murmur " MUR_VERSION_STRING "\n")),
          "%s: does not start with murmur's version: %.60s", what, t);
    CHECK(strstr(t, "\nseed: 4242\n") && strstr(t, "prov.yaml\n"), "%s: no seed or scene path", what);
    CHECK(strstr(t, "still: frame 30 (1s of video, tick 60)"), "%s: no request line", what);
    CHECK(strstr(t, "  alignment:              0.75 "), "%s: no resolved settings", what);
    CHECK(strstr(t, prov_scene), "%s: the scene file's text is not in it", what);
}

TEST(png_still_carries_provenance_in_text_chunks_and_the_frame_pixels)
{
    const char *png = prov_still("prov.png");
    int bad = 0;
    char order[300];
    char *sw = png_text(png, "Software", &bad, order);
    char *t = png_text(png, "murmur:provenance", &bad, NULL);
    CHECK(bad == 0, "%d chunks with a wrong CRC", bad);
    CHECK(!strncmp(order, "IHDR", 4) && strstr(order, "IEND") == order + strlen(order) - 4,
          "chunks out of order: %s", order);
    CHECK(sw && !strcmp(sw, "murmur " MUR_VERSION_STRING), "Software: %s", sw ? sw : "(none)");
    check_provenance_text("PNG", t);
    free(sw);
    free(t);
    /* only metadata was added: the decoded pixels are the session's frame */
    mur_scene *s = NULL;
    mur_session *ss = NULL;
    mur_error err;
    REQUIRE(!mur_scene_load(&s, scratch_path("prov.yaml"), &err), "%s", err.msg);
    REQUIRE(!mur_session_create(&ss, s, NULL, &err), "%s", err.msg);
    const uint8_t *px;
    int stride;
    REQUIRE(!mur_session_frame(ss, 30, &px, &stride, &err), "%s", err.msg);
    cairo_surface_t *img = cairo_image_surface_create_from_png(png);
    REQUIRE(cairo_surface_status(img) == CAIRO_STATUS_SUCCESS, "Cairo cannot read the PNG");
    cairo_surface_flush(img);
    const unsigned char *d = cairo_image_surface_get_data(img);
    int ds = cairo_image_surface_get_stride(img), differ = 0;
    for (int y = 0; y < s->height; y++)
        differ += memcmp(d + (size_t)y * ds, px + (size_t)y * stride, (size_t)s->width * 4) != 0;
    CHECK(cairo_image_surface_get_width(img) == s->width && differ == 0, "%d rows differ from the frame", differ);
    cairo_surface_destroy(img);
    mur_session_destroy(ss);
    mur_scene_destroy(s);
}

TEST(pdf_still_carries_provenance_in_its_document_information)
{
    unsetenv("SOURCE_DATE_EPOCH");
    const char *pdf = prov_still("prov.pdf");
    char cmd[700], out[16384];
    snprintf(cmd, sizeof cmd, "pdfinfo '%s' 2>&1", pdf);
    REQUIRE(run_tool_output(cmd, out, sizeof out) == 0, "pdfinfo fails: %s", out);
    CHECK(strstr(out, "Title:           Provenance & <check>\n"), "title: %s", out);
    CHECK(strstr(out, "Creator:         murmur " MUR_VERSION_STRING "\n"), "creator: %s", out);
    CHECK(strstr(out, "Keywords:        murmur " MUR_VERSION_STRING "; scene: "), "keywords: %s", out);
    char *subject = strstr(out, "Subject:         ");
    check_provenance_text("PDF subject", subject ? subject + 17 : NULL);
    CHECK(!strstr(out, "CreationDate:") && !strstr(out, "ModDate:"),
          "a date without SOURCE_DATE_EPOCH: %s", out);
}

TEST(svg_still_carries_provenance_in_a_metadata_element)
{
    const char *svg = prov_still("prov.svg");
    size_t n = 0;
    char *t = test_slurp(svg, &n);
    REQUIRE(t, "no SVG");
    char *open = strstr(t, "<svg"), *meta = strstr(t, "<metadata id=\"murmur-provenance\">");
    char *end = meta ? strstr(meta, "</metadata>") : NULL;
    REQUIRE(open && meta && end, "no <metadata> element");
    CHECK(meta == strchr(open, '>') + 2, "<metadata> is not the <svg> element's first child");
    CHECK(strstr(meta, "\nseed: 4242\n") < end && strstr(meta, "murmur " MUR_VERSION_STRING) < end,
          "no seed or version in <metadata>");
    CHECK(strstr(meta, "title: Provenance &amp; &lt;check&gt;\n") < end, "the scene text is not escaped");
    free(t);
    char cmd[1300], out[4096];
    snprintf(cmd, sizeof cmd, "xmllint --noout '%s' 2>&1 || python3 -c \"import xml.dom.minidom,sys; "
             "xml.dom.minidom.parse(sys.argv[1])\" '%s'", svg, svg);
    CHECK(run_tool_output(cmd, out, sizeof out) == 0, "the SVG is not well-formed XML: %s", out);
}

TEST(pdf_and_svg_stills_are_byte_reproducible_and_dated_by_source_date_epoch)
{
    const char *ext[2] = {"pdf", "svg"};
    for (int k = 0; k < 2; k++) {
        char a[64], b[64];
        snprintf(a, sizeof a, "rep-a.%s", ext[k]);
        snprintf(b, sizeof b, "rep-b.%s", ext[k]);
        size_t na = 0, nb = 0;
        char *x = test_slurp(prov_still(a), &na);
        char *y = test_slurp(prov_still(b), &nb);
        CHECK(x && y && na == nb && !memcmp(x, y, na), "two runs give different %s bytes", ext[k]);
        free(x);
        free(y);
    }
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1);   /* 2023-11-14 22:13:20 UTC */
    const char *pdf = prov_still("dated.pdf");
    unsetenv("SOURCE_DATE_EPOCH");
    char cmd[700], out[16384];
    snprintf(cmd, sizeof cmd, "TZ=UTC pdfinfo -isodates '%s' 2>&1", pdf);
    REQUIRE(run_tool_output(cmd, out, sizeof out) == 0, "pdfinfo fails: %s", out);
    CHECK(strstr(out, "CreationDate:    2023-11-14T22:13:20Z") && strstr(out, "ModDate:         2023-11-14T22:13:20Z"),
          "dates not from SOURCE_DATE_EPOCH: %s", out);
}

/* A golden that is missing fails its test (it is not made on the fly:
 * MURMUR_UPDATE_GOLDEN=1 makes one on purpose). */
TEST(a_missing_golden_fails_its_test)
{
    if (getenv("MURMUR_UPDATE_GOLDEN"))
        SKIP("MURMUR_UPDATE_GOLDEN makes goldens");
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 8, 8);
    int before = test_failures;
    golden("no-such-golden", img, 0, 0);
    int failed = test_failures - before;
    test_failures = before;
    cairo_surface_destroy(img);
    CHECK(failed == 1, "a missing golden gave %d failures", failed);
    CHECK(access(GOLDEN_DIR "/no-such-golden.png", F_OK) != 0, "a missing golden was written");
}

/* The harness: a case that says SKIP (its tool is missing) makes the run
 * exit 77, which ctest reports as skipped, not passed. Run on itself. */
TEST(a_case_whose_tool_is_missing_is_skipped)
{
    if (getenv("MURMUR_TEST_SKIP_SELF"))
        SKIP("asked to (MURMUR_TEST_SKIP_SELF)");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "MURMUR_TEST_SKIP_SELF=1 /proc/%d/exe a_case_whose_tool_is_missing_is_skipped "
             ">/dev/null 2>&1", (int)getpid());
    int st = system(cmd);
    CHECK(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 77, "exit %d, not 77", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}
