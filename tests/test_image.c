/* Image overlays (look.overlays[].image): a PNG or SVG drawn where the
 * scene says (pixels read back from stills), refused with file:line:col
 * when the file or its keys are wrong, the same bytes every time. */
#include "harness.h"
#include "cli_util.h"
#include "murmur/alloc.h"
#include "murmur/scene.h"

#include <cairo.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A w x h PNG of one colour at path (Cairo writes it). */
static void write_png(const char *path, int w, int h, double r, double g, double b)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, r, g, b);
    cairo_paint(cr);
    cairo_destroy(cr);
    REQUIRE(cairo_surface_write_to_png(s, path) == CAIRO_STATUS_SUCCESS, "%s", path);
    cairo_surface_destroy(s);
}

/* The pixel at (x, y) of the PNG at path as 0xRRGGBB; -1 when unreadable. */
static long pixel(const char *path, int x, int y)
{
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    long v = -1;
    if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS && x < cairo_image_surface_get_width(s) &&
        y < cairo_image_surface_get_height(s)) {
        cairo_surface_flush(s);
        const unsigned char *d = cairo_image_surface_get_data(s);
        uint32_t p = *(const uint32_t *)(d + (size_t)y * cairo_image_surface_get_stride(s) + 4 * (size_t)x);
        v = p & 0xffffff;
    }
    cairo_surface_destroy(s);
    return v;
}

/* A scene with no boids to speak of (one, far off in a corner of a black
 * frame: the frame is 200 x 100) and these overlays; drawn at t into out. */
static int still_of(const char *overlays, const char *extra, double t, const char *out, char *err, size_t n)
{
    char text[2048], args[1024];
    snprintf(text, sizeof text,
             "seed: 1\nworld: {width: 200, height: 100, boundary: reflect}\n"
             "flock: {count: 1, start: {box: {x: 1, y: 1, width: 2, height: 2}}}\n"
             "video: {width: 200, height: 100, fps: 10, duration: 2s}\n"
             "look:\n  background: \"#000000\"\n  boid: {shape: dot, size: 0.5}\n  overlays: %s\n%s",
             overlays, extra ? extra : "");
    const char *scene = scratch_path("image.yaml");
    write_file(scene, text);
    snprintf(args, sizeof args, "still %s -o %s --at %g -q", scene, out, t);
    return murmur(args, err, n);
}

static int near(long px, long want, int tol)
{
    if (px < 0)
        return 0;
    for (int sh = 0; sh < 24; sh += 8)
        if (labs(((px >> sh) & 255) - ((want >> sh) & 255)) > tol)
            return 0;
    return 1;
}

/* A 40 x 20 PNG in region [0.5, 0.5, 0.25, 0.5] of a 200 x 100 frame: the
 * region is 50 x 50 at (100, 50), the picture fitted to 50 x 25, centred:
 * x 100 to 150, y 62.5 to 87.5. */
TEST(png_in_a_region_is_fitted_and_centred)
{
    write_png(scratch_path("red.png"), 40, 20, 1, 0, 0);
    char err[2048];
    const char *out = scratch_path("region.png");
    REQUIRE(still_of("[{image: {file: red.png, region: [0.5, 0.5, 0.25, 0.5]}}]", NULL, 0.5, out, err,
                     sizeof err) == 0, "%s", err);
    CHECK(near(pixel(out, 125, 75), 0xff0000, 0), "inside: %06lx", pixel(out, 125, 75));
    CHECK(near(pixel(out, 101, 64), 0xff0000, 0), "inside, near its top left: %06lx", pixel(out, 101, 64));
    CHECK(near(pixel(out, 148, 86), 0xff0000, 0), "inside, near its bottom right: %06lx", pixel(out, 148, 86));
    CHECK(pixel(out, 125, 60) == 0, "above it (in the region): %06lx", pixel(out, 125, 60));
    CHECK(pixel(out, 125, 90) == 0, "below it (in the region): %06lx", pixel(out, 125, 90));
    CHECK(pixel(out, 98, 75) == 0 && pixel(out, 152, 75) == 0, "beside it: %06lx %06lx", pixel(out, 98, 75),
          pixel(out, 152, 75));
}

/* At a corner, width 0.2 of a 200 x 100 frame: 40 x 20, inside the frame's
 * margin (2 UI units of a hundredth of the short side: 2 pixels). */
TEST(png_at_each_corner_is_drawn_there)
{
    write_png(scratch_path("green.png"), 40, 20, 0, 1, 0);
    static const char *const corners[4] = {"top-left", "top-right", "bottom-left", "bottom-right"};
    for (int k = 0; k < 4; k++) {
        char ov[256], err[2048];
        snprintf(ov, sizeof ov, "[{image: {file: green.png, corner: %s, width: 0.2}}]", corners[k]);
        const char *out = scratch_path("corner.png");
        REQUIRE(still_of(ov, NULL, 0.5, out, err, sizeof err) == 0, "%s", err);
        int left = k % 2 == 0, top = k < 2;
        int x0 = left ? 2 : 158, y0 = top ? 2 : 78;   /* its top left */
        CHECK(near(pixel(out, x0 + 1, y0 + 1), 0x00ff00, 0) && near(pixel(out, x0 + 38, y0 + 18), 0x00ff00, 0),
              "%s: %06lx %06lx", corners[k], pixel(out, x0 + 1, y0 + 1), pixel(out, x0 + 38, y0 + 18));
        CHECK(pixel(out, left ? x0 + 42 : x0 - 3, y0 + 10) == 0 && pixel(out, x0 + 20, top ? y0 + 23 : y0 - 3) == 0,
              "%s: beside and past it", corners[k]);
        CHECK(pixel(out, 100, 50) == 0, "%s: the middle is empty", corners[k]);
    }
}

/* An SVG (a 100 x 50 document of one green rectangle) at height 0.3 and
 * opacity 0.5: 60 x 30 at the bottom left, half green over black. */
TEST(svg_is_drawn_at_its_size_and_opacity)
{
    write_file(scratch_path("box.svg"),
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"50\">"
               "<rect width=\"100\" height=\"50\" fill=\"#00ff00\"/></svg>\n");
    char err[2048];
    const char *out = scratch_path("svg.png");
    REQUIRE(still_of("[{image: {file: box.svg, corner: bottom-left, height: 0.3, opacity: 0.5}}]", NULL, 0.5, out,
                     err, sizeof err) == 0, "%s", err);
    /* x 2 to 62, y 68 to 98 */
    CHECK(near(pixel(out, 30, 80), 0x008000, 1), "inside: %06lx", pixel(out, 30, 80));
    CHECK(near(pixel(out, 3, 97), 0x008000, 1) && near(pixel(out, 60, 69), 0x008000, 1), "its corners: %06lx %06lx",
          pixel(out, 3, 97), pixel(out, 60, 69));
    CHECK(pixel(out, 64, 80) == 0 && pixel(out, 30, 66) == 0, "beside and above it: %06lx %06lx",
          pixel(out, 64, 80), pixel(out, 30, 66));
    /* the same drawing in a vector still (librsvg's vectors): pdftocairo gives it back */
    const char *pdf = scratch_path("svg.pdf");
    REQUIRE(still_of("[{image: {file: box.svg, corner: bottom-left, height: 0.3}}]", NULL, 0.5, pdf, err,
                     sizeof err) == 0, "%s", err);
    char cmd[600], text[256];
    snprintf(cmd, sizeof cmd, "pdftocairo -png -singlefile -scale-to-x 200 -scale-to-y 100 %s %s 2>&1", pdf,
             scratch_path("svgpdf"));
    if (run_tool_output(cmd, text, sizeof text) != 0)
        SKIP("pdftocairo: %s", text);
    const char *back = scratch_path("svgpdf.png");
    CHECK(near(pixel(back, 30, 80), 0x00ff00, 2), "vector still, inside: %06lx", pixel(back, 30, 80));
    CHECK(pixel(back, 66, 80) == 0, "vector still, beside: %06lx", pixel(back, 66, 80));
}

/* Corner images stack with the other boxes there: the clock goes above a
 * bottom-right image, and an image hidden by the timeline is gone. */
TEST(image_stacks_with_the_clock_and_hides_on_the_timeline)
{
    write_png(scratch_path("blue.png"), 40, 20, 0, 0, 1);
    char err[2048];
    const char *out = scratch_path("stack.png");
    REQUIRE(still_of("[{image: {file: blue.png}}, clock]", NULL, 0.5, out, err, sizeof err) == 0, "%s", err);
    CHECK(near(pixel(out, 178, 88), 0x0000ff, 0), "the image at the bottom right: %06lx", pixel(out, 178, 88));
    const char *hidden = scratch_path("hidden.png");
    REQUIRE(still_of("[{image: {file: blue.png}}]", "timeline:\n  - at: 0.5s\n    hide: [image]\n", 1, hidden, err,
                     sizeof err) == 0, "%s", err);
    CHECK(pixel(hidden, 178, 88) == 0, "hidden: %06lx", pixel(hidden, 178, 88));
}

TEST(the_same_scene_gives_the_same_bytes)
{
    char err[2048], args[1024];
    const char *a = scratch_path("det_a.png"), *b = scratch_path("det_b.png");
    snprintf(args, sizeof args, "still scenes/image.yaml -o %s --at 1.5 --threads 1 -q", a);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    snprintf(args, sizeof args, "still scenes/image.yaml -o %s --at 1.5 --threads 2 -q", b);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    size_t na = 0, nb = 0;
    char *da = test_slurp(a, &na), *db = test_slurp(b, &nb);
    CHECK(da && db && na == nb && !memcmp(da, db, na), "1 thread vs 2: %zu vs %zu bytes", na, nb);
    free(da);
    free(db);
}

/* Each bad input: exit 2, the scene's file:line:col, what is wrong. */
TEST(bad_images_are_refused_with_file_line_col)
{
    write_png(scratch_path("ok.png"), 8, 4, 1, 1, 1);
    write_file(scratch_path("text.png"), "not a picture\n");
    write_file(scratch_path("bad.svg"), "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\"\n");
    write_file(scratch_path("nosize.svg"), "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"5\"/></svg>\n");
    write_file(scratch_path("huge.svg"),
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"9000\" height=\"10\"></svg>\n");
    /* a PNG cut short after its header; one whose header says 9000 x 10 */
    static const unsigned char head[33] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D',
                                           'R', 0, 0, 0, 16, 0, 0, 0, 16, 8, 6, 0, 0, 0, 0x1f, 0xf3, 0xff, 0x61};
    FILE *fp = fopen(scratch_path("cut.png"), "wb");
    REQUIRE(fp && fwrite(head, 1, sizeof head, fp) == sizeof head, "cut.png");
    fputs("IDAT", fp);
    fclose(fp);
    unsigned char wide[33];
    memcpy(wide, head, sizeof wide);
    wide[18] = 0x23, wide[19] = 0x28;   /* 9000 */
    wide[23] = 10;
    fp = fopen(scratch_path("wide.png"), "wb");
    REQUIRE(fp && fwrite(wide, 1, sizeof wide, fp) == sizeof wide, "wide.png");
    fclose(fp);
    /* 65 MB, sparse */
    fp = fopen(scratch_path("big.png"), "wb");
    REQUIRE(fp && fwrite(head, 1, 8, fp) == 8, "big.png");
    fclose(fp);
    REQUIRE(truncate(scratch_path("big.png"), 65LL << 20) == 0, "truncate");
    unlink(scratch_path("fifo.png"));
    REQUIRE(mkfifo(scratch_path("fifo.png"), 0600) == 0, "mkfifo");
    mkdir(scratch_path("dir.png"), 0700);
    static const struct {
        const char *value, *where, *says;
    } cases[] = {
        {"{file: missing.png}", ":2:34:", "cannot be read: No such file"},
        {"{file: dir.png}", ":2:34:", "is a directory, not a regular file"},
        {"{file: fifo.png}", ":2:34:", "is a pipe, not a regular file"},
        {"{file: /dev/zero}", ":2:34:", "is a device, not a regular file"},
        {"{file: big.png}", ":2:34:", "more than such a file may have (67108864)"},
        {"{file: text.png}", ":2:34:", "is not a PNG or SVG image"},
        {"{file: cut.png}", ":2:34:", "is not a readable PNG image"},
        {"{file: wide.png}", ":2:34:", "is 9000x10 pixels; an image has 1 to 8192 each way"},
        {"{file: bad.svg}", ":2:34:", "is not a readable SVG image"},
        {"{file: nosize.svg}", ":2:34:", "is an SVG image of no size"},
        {"{file: huge.svg}", ":2:34:", "at most 8192 each way"},
        {"{corner: top-left}", ":2:27:", "needs its 'file'"},
        {"{file: ok.png, corner: middle}", ":2:50:", "corner"},
        {"{file: ok.png, width: 1.5}", ":2:49:", "width"},
        {"{file: ok.png, height: 0}", ":2:50:", "height"},
        {"{file: ok.png, opacity: -0.1}", ":2:51:", "opacity"},
        {"{file: ok.png, region: [0, 0, 1]}", ":2:50:", "'region' is [x, y, width, height]"},
        {"{file: ok.png, region: [0.5, 0, 0.6, 1]}", ":2:50:", "reaches past the frame"},
        {"{file: ok.png, region: [0, 0, 0, 1]}", ":2:57:", "region width"},
        {"{file: ok.png, region: [0, 0, 1, 1], corner: top-left}", ":2:72:", "is fitted to it"},
        {"{file: ok.png, size: 2}", ":2:42:", "unknown key 'size'"},
        {"[ok.png]", ":2:27:", "'image' must be a mapping"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char text[512], err[2048];
        snprintf(text, sizeof text, "flock: {count: 10}\nlook: {overlays: [{image: %s}]}\n", cases[k].value);
        CHECK(check_refuses("bad_image.yaml", text, cases[k].where, cases[k].says, err, sizeof err), "%s\n  %s",
              text, err);
    }
    char err[2048];
    CHECK(check_refuses("bare_image.yaml", "flock: {count: 10}\nlook: {overlays: [image]}\n", ":2:19:",
                        "needs its file", err, sizeof err), "%s", err);
    unlink(scratch_path("fifo.png"));
}

/* A refused image: exit 2 and no output at all. */
TEST(a_refused_image_writes_nothing)
{
    char text[256], args[1024], err[2048];
    snprintf(text, sizeof text, "flock: {count: 10}\nvideo: {duration: 1s}\nlook: {overlays: [{image: {file: "
                                "nothere.svg}}]}\n");
    const char *scene = scratch_path("nothing.yaml"), *out = scratch_path("nothing.mp4"),
               *png = scratch_path("nothing.png");
    write_file(scene, text);
    unlink(out);
    unlink(png);
    snprintf(args, sizeof args, "render %s -o %s -q", scene, out);
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "nothing.yaml:3:34: error:"), "%s", err);
    snprintf(args, sizeof args, "still %s -o %s --at 0 -q", scene, png);
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "nothing.yaml:3:34: error:"), "%s", err);
    struct stat st;
    CHECK(stat(out, &st) != 0 && stat(png, &st) != 0, "an output was written");
}

/* The images are inputs of the provenance, as sha256sum prints them (so
 * `sha256sum -c` checks them): each file once, its bytes' hash. */
TEST(the_provenance_lists_each_image_by_its_sha256)
{
    mur_scene *s = NULL;
    mur_error err = {{0}};
    REQUIRE(mur_scene_load(&s, "scenes/image.yaml", &err) == 0, "%s", err.msg);
    char *text = NULL;
    REQUIRE(mur_scene_provenance(s, s->seed, NULL, &text, &err) == 0, "%s", err.msg);
    static const char *const files[2] = {"scenes/data/logo.png", "scenes/data/rules.svg"};
    for (int k = 0; k < 2; k++) {
        char cmd[256], want[256];
        snprintf(cmd, sizeof cmd, "sha256sum %s", files[k]);
        REQUIRE(run_tool_output(cmd, want, sizeof want) == 0, "%s", cmd);
        *strchr(want, '\n') = 0;
        const char *at = strstr(text, want);
        CHECK(at && !strstr(at + 1, want), "%s once in:\n%s", want, text);
    }
    mur_free(text);
    mur_scene_destroy(s);
}
