/* Drawing a 3D state through a camera (src/render/view3d.c, issue #29):
 * a boid at the target draws at the frame's centre, one behind the camera
 * is not drawn, the draw order is far to near and deterministic, a bad
 * camera is refused, absorption leaves an empty sky unchanged and one
 * layer darkens by its opacity, k layers by (1 - a)^k; the sky has its
 * gradient and tree line; a frame of birds has dark birds on the sky and
 * is the same drawn twice. */
#include <cairo.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include "murmur/error.h"
#include "render/view3d.h"

static mur_view3d camera(mur_view_mode mode)
{
    mur_view3d v = {.mode = mode, .pos = {0, -100, 2}, .target = {0, 0, 40}, .up = {0, 0, 1},
                    .fov = 50, .height = 80, .w = 320, .h = 180, .near = 0.1};
    return v;
}

TEST(target_draws_at_the_centre)
{
    for (int m = 0; m < 2; m++) {
        mur_view3d v = camera(m ? MUR_VIEW_ORTHOGRAPHIC : MUR_VIEW_PERSPECTIVE);
        char err[128];
        REQUIRE(mur_view3d_init(&v, err, sizeof err) == 0, "%s", err);
        double px, py, d, s;
        REQUIRE(mur_view3d_project(&v, v.target, &px, &py, &d, &s) == 1, "target drawn");
        CHECK(fabs(px - 160) < 1e-9 && fabs(py - 90) < 1e-9, "mode %d: (%g, %g)", m, px, py);
        /* a point above the target draws above the centre (smaller row) */
        double above[3] = {0, 0, 50};
        mur_view3d_project(&v, above, &px, &py, &d, &s);
        CHECK(py < 90 && fabs(px - 160) < 1e-9, "above: (%g, %g)", px, py);
    }
}

TEST(behind_the_camera_is_not_drawn)
{
    mur_view3d v = camera(MUR_VIEW_PERSPECTIVE);
    REQUIRE(mur_view3d_init(&v, NULL, 0) == 0, "init");
    double behind[3] = {0, -200, 2}, px, py, d, s;
    CHECK(mur_view3d_project(&v, behind, &px, &py, &d, &s) == 0, "a point behind is not drawn");
    double x[3] = {0, 0, 5}, y[3] = {-300, 0, 50}, z[3] = {2, 40, 30};
    uint32_t idx[3];
    size_t m = mur_view3d_order(&v, 3, x, y, z, idx);
    CHECK(m == 2, "two of three in front, got %zu", m);
    for (size_t j = 0; j < m; j++)
        CHECK(idx[j] != 0, "boid 0 (behind) not in the order");
}

TEST(draw_order_far_to_near_ties_by_index)
{
    mur_view3d v = camera(MUR_VIEW_PERSPECTIVE);
    REQUIRE(mur_view3d_init(&v, NULL, 0) == 0, "init");
    enum { N = 200 };
    double x[N], y[N], z[N];
    for (int i = 0; i < N; i++) {
        x[i] = (i * 37 % 11) - 5;
        y[i] = (i * 53 % 17) * 10.0;   /* many equal depths */
        z[i] = 30;
    }
    uint32_t a[N], b[N];
    size_t m = mur_view3d_order(&v, N, x, y, z, a);
    REQUIRE(m == N, "all in front");
    CHECK(mur_view3d_order(&v, N, x, y, z, b) == m && memcmp(a, b, sizeof a) == 0, "same order twice");
    double prev = INFINITY;
    uint32_t prev_i = 0;
    for (size_t j = 0; j < m; j++) {
        double p[3] = {x[a[j]], y[a[j]], z[a[j]]}, px, py, d, s;
        mur_view3d_project(&v, p, &px, &py, &d, &s);
        CHECK(d <= prev, "far first at %zu", j);
        if (j && d == prev)
            CHECK(a[j] > prev_i, "equal depths by index at %zu", j);
        prev = d;
        prev_i = a[j];
    }
}

TEST(bad_cameras_are_refused)
{
    char err[128];
    mur_view3d v = camera(MUR_VIEW_PERSPECTIVE);
    memcpy(v.target, v.pos, sizeof v.pos);
    CHECK(mur_view3d_init(&v, err, sizeof err) == MUR_EINPUT && strstr(err, "target"), "target = position");
    v = camera(MUR_VIEW_PERSPECTIVE);
    v.up[0] = 0, v.up[1] = 100, v.up[2] = 38;   /* along the view */
    CHECK(mur_view3d_init(&v, err, sizeof err) == MUR_EINPUT && strstr(err, "parallel"), "up parallel: %s", err);
    v = camera(MUR_VIEW_PERSPECTIVE);
    v.fov = 180;
    CHECK(mur_view3d_init(&v, err, sizeof err) == MUR_EINPUT && strstr(err, "field of view"), "fov 180");
    v.fov = 0;
    CHECK(mur_view3d_init(&v, err, sizeof err) == MUR_EINPUT, "fov 0");
}

TEST(perspective_size_falls_with_distance)
{
    mur_view3d v = camera(MUR_VIEW_PERSPECTIVE);
    REQUIRE(mur_view3d_init(&v, NULL, 0) == 0, "init");
    double n[3] = {0, 0, 40}, f[3] = {0, 100, 40}, px, py, d1, s1, d2, s2;
    mur_view3d_project(&v, n, &px, &py, &d1, &s1);
    mur_view3d_project(&v, f, &px, &py, &d2, &s2);
    CHECK(fabs(s1 / s2 - d2 / d1) < 1e-12, "scale goes as 1 / depth");
    CHECK(mur_view3d_haze(0, 300) == 0 && mur_view3d_haze(d2, 300) > mur_view3d_haze(d1, 300), "haze grows");
}

TEST(absorption_empty_sky_unchanged_one_layer_darkens_by_opacity)
{
    enum { W = 40, H = 30 };
    static uint32_t img[W * H], ref[W * H];
    static float tau[W * H];
    for (int i = 0; i < W * H; i++)
        img[i] = ref[i] = 0xff000000u | (uint32_t)(200 + i % 50) << 16 | (uint32_t)(120 + i % 7) << 8 | 90u;
    memset(tau, 0, sizeof tau);
    mur_absorb_apply(tau, W, H, (unsigned char *)img, W * 4, 0x101010);
    CHECK(memcmp(img, ref, sizeof img) == 0, "an empty sky is unchanged");
    /* one layer of opacity 0.4, a disc of radius 1 around pixel (10, 10)'s
     * centre (it and its four edge neighbours), ink black */
    mur_absorb_add(tau, W, H, 10.5, 10.5, 1, 0.4);
    mur_absorb_apply(tau, W, H, (unsigned char *)img, W * 4, 0x000000);
    for (int k = 0; k < 3; k++) {
        double was = (ref[10 * W + 10] >> (16 - 8 * k)) & 0xff, now = (img[10 * W + 10] >> (16 - 8 * k)) & 0xff;
        CHECK(fabs(now - lrint(was * 0.6)) <= 0, "channel %d: %g -> %g, want %ld", k, was, now, lrint(was * 0.6));
    }
    CHECK(img[10 * W + 11] != ref[10 * W + 11] && img[11 * W + 11] == ref[11 * W + 11] &&
              img[10 * W + 12] == ref[10 * W + 12], "the disc's edge neighbours darken, the corners and beyond not");
    /* three layers: (1 - a)^3 */
    memcpy(img, ref, sizeof img);
    memset(tau, 0, sizeof tau);
    for (int j = 0; j < 3; j++)
        mur_absorb_add(tau, W, H, 20.5, 5.5, 1.5, 0.4);
    mur_absorb_apply(tau, W, H, (unsigned char *)img, W * 4, 0x000000);
    double was = (ref[5 * W + 20] >> 16) & 0xff, now = (img[5 * W + 20] >> 16) & 0xff;
    CHECK(fabs(now - was * 0.216) <= 0.5, "three layers pass 0.6^3: %g -> %g", was, now);
}

/* A bird under a pixel across lays its area's optical depth, -ln(1 - a)
 * pi r^2, wherever it is within the pixel, over the four pixels around
 * it, and its weight's centre is where it is: it neither vanishes nor
 * grows to a whole pixel, and moves smoothly. */
TEST(absorption_of_a_bird_under_a_pixel_keeps_its_area)
{
    enum { W = 16, H = 12 };
    static float tau[W * H];
    const double r = 0.3, a = 0.5, want = -log1p(-a) * M_PI * r * r;
    const double at[][2] = {{5.5, 5.5}, {5.25, 5.75}, {6.0, 6.0}, {5.9, 5.1}};
    for (size_t k = 0; k < sizeof at / sizeof *at; k++) {
        memset(tau, 0, sizeof tau);
        mur_absorb_add(tau, W, H, at[k][0], at[k][1], r, a);
        double sum = 0, sx = 0, sy = 0;
        int lit = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                if (tau[y * W + x] > 0) {
                    lit++;
                    sum += tau[y * W + x];
                    sx += tau[y * W + x] * (x + 0.5);
                    sy += tau[y * W + x] * (y + 0.5);
                }
        CHECK(fabs(sum - want) < 1e-6 && lit >= 1 && lit <= 4, "at (%g, %g): optical depth %g over %d pixels, want %g",
              at[k][0], at[k][1], sum, lit, want);
        CHECK(fabs(sx / sum - at[k][0]) < 1e-5 && fabs(sy / sum - at[k][1]) < 1e-5,
              "at (%g, %g): its weight centred at (%g, %g)", at[k][0], at[k][1], sx / sum, sy / sum);
    }
}

/* A bird's shadow as its body frame shows it to the camera: seen along its
 * up (from below, wings spread) it lays five times the optical depth it
 * lays seen edge-on (its up across the line of sight: 0.2 of it), and a
 * bird without a body frame the whole of it. */
TEST(absorption_follows_the_birds_up)
{
    mur_view3d v = camera(MUR_VIEW_PERSPECTIVE);
    REQUIRE(mur_view3d_init(&v, NULL, 0) == 0, "init");
    static float tau[320 * 180];
    double x = 0, y = 0, z = 40, vx = 1, vy = 0, vz = 0;
    double l[3] = {0, 100, 38}, ll = sqrt(l[1] * l[1] + l[2] * l[2]);
    double face[3] = {0, l[1] / ll, l[2] / ll}, edge[3] = {0, -l[2] / ll, l[1] / ll};
    const double *ups[3] = {face, edge, NULL};
    double sums[3];
    for (int k = 0; k < 3; k++) {
        mur_view3d_style st = {.len_world = 4, .min_px = 1.5, .opacity = 0.5, .up = ups[k]};
        memset(tau, 0, sizeof tau);
        REQUIRE(mur_view3d_birds(NULL, &v, &st, 1, &x, &y, &z, &vx, &vy, &vz, NULL, 0, tau) == 0, "drawn");
        sums[k] = 0;
        for (size_t i = 0; i < sizeof tau / sizeof *tau; i++)
            sums[k] += tau[i];
    }
    CHECK(sums[0] > 0 && fabs(sums[1] / sums[0] - 0.2) < 1e-3, "edge-on / face-on: %g (%g, %g)", sums[1] / sums[0],
          sums[1], sums[0]);
    CHECK(fabs(sums[2] - sums[0]) < 1e-3 * sums[0], "no body frame: as face-on (%g, %g)", sums[2], sums[0]);
}

TEST(sky_gradient_and_tree_line)
{
    mur_view3d v = camera(MUR_VIEW_PERSPECTIVE);
    REQUIRE(mur_view3d_init(&v, NULL, 0) == 0, "init");
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, v.w, v.h);
    mur_sky sky = {.zenith = 0x1b2a4a, .horizon = 0xe8a070, .ground = 0x101008, .trees = 0x0a0a0a, .tree_px = 12, .seed = 3};
    mur_view3d_sky(&v, &sky, cairo_image_surface_get_data(s), cairo_image_surface_get_stride(s));
    const uint32_t *px = (const uint32_t *)cairo_image_surface_get_data(s);
    int st = cairo_image_surface_get_stride(s) / 4;
    double hr = mur_view3d_horizon_row(&v);
    CHECK(hr > 90 && hr < v.h, "looking up, the horizon is below the centre: %g", hr);
    CHECK((px[0] & 0xffffff) == 0x1b2a4a, "zenith colour at the top: %06x", px[0] & 0xffffff);
    uint32_t low = px[(int)(hr - 20) * st + 5] & 0xffffff;
    CHECK(((low >> 16) & 0xff) > 0x1b + 60, "redder toward the horizon: %06x", low);
    CHECK((px[(int)hr * st + 5] & 0xffffff) == 0x0a0a0a, "tree line at the horizon");
    cairo_surface_destroy(s);
}

static uint32_t frame_hash(const mur_view3d *v, double t, int look)
{
    enum { N = 500 };
    static double x[N], y[N], z[N], vx[N], vy[N], vz[N];
    for (int i = 0; i < N; i++) {
        x[i] = 30 * sin(i * 1.7);
        y[i] = 20 * cos(i * 0.9);
        z[i] = 40 + 8 * sin(i * 2.3);
        vx[i] = 1, vy[i] = 0.3 * sin(i), vz[i] = 0.1;
    }
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, v->w, v->h);
    cairo_t *cr = cairo_create(s);
    mur_view3d_style st = {.sky = {.zenith = 0x24304f, .horizon = 0xe9a877, .ground = 0x141410, .trees = 0x0c0c0a, .tree_px = 10, .seed = 1},
                           .bird = 0x121212, .len_world = 0.4, .min_px = 1.5, .visibility = 400, .wing_freq = 12};
    mur_view3d_draw(cr, v, &st, N, x, y, z, vx, vy, vz, NULL, t);
    cairo_surface_flush(s);
    if (look)
        cairo_surface_write_to_png(s, "/tmp/murmur-view3d.png");
    const unsigned char *d = cairo_image_surface_get_data(s);
    uint32_t h = 2166136261u;
    int dark = 0;
    for (int yy = 0; yy < v->h; yy++)
        for (int xx = 0; xx < v->w; xx++) {
            uint32_t p = ((const uint32_t *)(d + (size_t)yy * cairo_image_surface_get_stride(s)))[xx];
            h = (h ^ p) * 16777619u;
            dark += yy < 60 && ((p >> 16) & 0xff) < 0x30;
        }
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    return dark ? h : 0;
}

TEST(frame_of_birds_is_dark_on_sky_and_repeatable)
{
    mur_view3d v = camera(MUR_VIEW_PERSPECTIVE);
    REQUIRE(mur_view3d_init(&v, NULL, 0) == 0, "init");
    uint32_t a = frame_hash(&v, 0.5, 1), b = frame_hash(&v, 0.5, 0), c = frame_hash(&v, 0.53, 0);
    CHECK(a != 0, "dark birds drawn in the upper sky");
    CHECK(a == b, "the same frame twice");
    CHECK(a != c, "the wings beat: a later time differs");
}
