/* The video writer against DESIGN.md's output contract, checked through an
 * independent libav reader (decode.h): every format (.mp4 H.264, .webm VP9,
 * .mov ProRes, .gif, PNG sequences) round-trips its frame count, size,
 * pixel format, tags and colours; files appear at their final names only
 * when complete; errors are clear and leave nothing behind; identical input
 * gives identical frames, with or without the encoding thread. */
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <libavutil/pixfmt.h>

#include <webp/demux.h>

#include "decode.h"
#include "harness.h"
#include "murmur/video.h"
#include "output/sink.h"   /* MUR_OUT_THREADS */

/* x264 reports its CPU flags and statistics at info level on every encode;
 * the library leaves logging to its caller, and here that is the test. */
__attribute__((constructor)) static void quiet_libav(void)
{
    av_log_set_level(AV_LOG_WARNING);
}

/* Frame k is painted colours[k % 6], as Cairo would store it: 0xAARRGGBB
 * in a native-endian uint32. */
static const uint32_t colours[] = {0xFFFF0000, 0xFF00FF00, 0xFF0000FF,
                                   0xFFFFFFFF, 0xFF808080, 0xFF0B0D0F};
#define NCOLOURS (int)(sizeof colours / sizeof colours[0])

/* ---- scratch directories ---------------------------------------------------- */

static char *make_dir(void)
{
    char *dir = strdup("/tmp/murmur-test-XXXXXX");
    if (!dir || !mkdtemp(dir)) {
        perror("mkdtemp");
        abort();
    }
    return dir;
}

/* Entries of dir other than . and ..; the first one's name goes to first. */
static int count_entries(const char *dir, char *first, size_t n)
{
    DIR *d = opendir(dir);
    int count = 0;
    if (!d)
        return -1;
    if (first && n)
        first[0] = '\0';
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (count++ == 0 && first)
            snprintf(first, n, "%s", e->d_name);
    }
    closedir(d);
    return count;
}

/* Removes dir and what the tests left in it (files, or one level of dirs). */
static void remove_dir(char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        for (struct dirent *e; (e = readdir(d));) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            remove(p);   /* files and empty directories alike */
        }
        closedir(d);
    }
    rmdir(dir);
    free(dir);
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* ---- writing ----------------------------------------------------------------- */

static void paint(uint8_t *pixels, int w, int h, int stride, uint32_t argb)
{
    for (int y = 0; y < h; y++) {
        uint32_t *row = (uint32_t *)(pixels + (size_t)stride * (size_t)y);
        for (int x = 0; x < w; x++)
            row[x] = argb;
    }
}

static mur_video_opts opts_for(const char *path, int w, int h)
{
    mur_video_opts o = MUR_VIDEO_OPTS_INIT;
    o.path = path;
    o.width = w;
    o.height = h;
    o.fps = 24;
    o.quality = 18;
    return o;
}

/* Writes `frames` frames of the colour cycle at w x h and closes; returns
 * the first failing call's code. */
static int write_colours(const mur_video_opts *o, int frames, mur_error *err)
{
    mur_video *v = NULL;
    int stride = o->width * 4;
    uint8_t *pixels = malloc((size_t)stride * (size_t)o->height);
    int code = pixels ? mur_video_open(&v, o, err) : MUR_ERUN;
    for (int k = 0; code == 0 && k < frames; k++) {
        paint(pixels, o->width, o->height, stride, colours[k % NCOLOURS]);
        code = mur_video_write(v, pixels, stride, err);
    }
    if (v && code == 0)
        code = mur_video_close(v, err);
    else
        mur_video_abort(v);
    free(pixels);
    return code;
}

static char *path_in(const char *dir, const char *name)
{
    static char buf[4][4096];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", dir, name);
    return p;
}

/* Every frame's centre pixel decodes to the colour drawn, within tol per
 * channel; +-4 covers limited-range YUV quantisation plus a codec at CRF 18. */
static void check_colours_within(const char *path, int frames, int w, int h, int tol);

static void check_colours(const char *path, int frames, int w, int h)
{
    check_colours_within(path, frames, w, h, 4);
}

static void check_colours_within(const char *path, int frames, int w, int h, int tol)
{
    for (int k = 0; k < frames; k++) {
        uint8_t *rgb = NULL;
        int dw, dh;
        int ok = test_video_frame_rgb(path, k, &rgb, &dw, &dh) == 0;
        CHECK(ok, "frame %d of %s not decoded", k, path);
        if (!ok)
            continue;
        CHECK(dw == w && dh == h, "frame %d is %dx%d, want %dx%d", k, dw, dh, w, h);
        const uint8_t *px = rgb + ((size_t)(dh / 2) * (size_t)dw + (size_t)(dw / 2)) * 3;
        uint32_t c = colours[k % NCOLOURS];
        int want[3] = {(int)(c >> 16 & 0xff), (int)(c >> 8 & 0xff), (int)(c & 0xff)};
        for (int i = 0; i < 3; i++)
            CHECK(abs(px[i] - want[i]) <= tol,
                  "frame %d centre = #%02x%02x%02x, drew #%02x%02x%02x", k, px[0], px[1],
                  px[2], want[0], want[1], want[2]);
        free(rgb);
    }
}

/* ---- the output contract -------------------------------------------------------- */

TEST(mp4_is_h264_yuv420p_tagged_bt709_limited)
{
    char *dir = make_dir();
    const char *path = path_in(dir, "x.mp4");
    mur_video_opts o = opts_for(path, 64, 48);
    mur_error err = {{0}};
    int code = write_colours(&o, 24, &err);
    CHECK(code == 0, "write: %s", err.msg);

    test_video_info info;
    CHECK(test_video_probe(path, &info) == 0, "probe %s", path);
    CHECK(strcmp(info.codec, "h264") == 0, "codec %s", info.codec);
    CHECK(strcmp(info.pix_fmt, "yuv420p") == 0, "pix_fmt %s", info.pix_fmt);
    CHECK(info.width == 64 && info.height == 48, "size %dx%d", info.width, info.height);
    CHECK(info.frames == 24, "%d frames", info.frames);
    CHECK(info.primaries == AVCOL_PRI_BT709, "primaries %d", info.primaries);
    CHECK(info.trc == AVCOL_TRC_BT709, "trc %d", info.trc);
    CHECK(info.colorspace == AVCOL_SPC_BT709, "colorspace %d", info.colorspace);
    CHECK(info.range == AVCOL_RANGE_MPEG, "range %d", info.range);
    CHECK(info.fps > 23.99 && info.fps < 24.01, "fps %g", info.fps);
    check_colours(path, 24, 64, 48);
    CHECK(count_entries(dir, NULL, 0) == 1, "only x.mp4 is left");
    remove_dir(dir);
}

TEST(odd_size_is_rounded_down_to_even)
{
    char *dir = make_dir();
    const char *path = path_in(dir, "odd.mp4");
    mur_video_opts o = opts_for(path, 65, 49);
    mur_error err = {{0}};
    mur_video *v = NULL;
    int code = mur_video_open(&v, &o, &err);
    CHECK(code == 0, "open: %s", err.msg);
    if (v) {
        int w = 0, h = 0;
        mur_video_size(v, &w, &h);
        CHECK(w == 64 && h == 48, "encoded size %dx%d", w, h);
        mur_video_abort(v);
    }
    code = write_colours(&o, 24, &err);   /* reads 65x49 buffers, encodes 64x48 */
    CHECK(code == 0, "write: %s", err.msg);

    test_video_info info;
    CHECK(test_video_probe(path, &info) == 0, "probe %s", path);
    CHECK(info.width == 64 && info.height == 48, "size %dx%d", info.width, info.height);
    CHECK(info.frames == 24, "%d frames", info.frames);
    check_colours(path, 24, 64, 48);
    remove_dir(dir);
}

TEST(metadata_is_stored_as_the_comment)
{
    char *dir = make_dir();
    const char *path = path_in(dir, "m.mp4");
    mur_video_opts o = opts_for(path, 64, 48);
    o.metadata = "murmur 0.1.0 scene=demo.yaml seed=42";
    mur_error err = {{0}};
    CHECK(write_colours(&o, 2, &err) == 0, "write: %s", err.msg);
    char comment[256] = "";
    CHECK(test_video_tag(path, "comment", comment, sizeof comment) == 0, "no comment tag");
    CHECK(strcmp(comment, o.metadata) == 0, "comment '%s'", comment);
    remove_dir(dir);
}

TEST(identical_encodes_decode_to_identical_frames)
{
    char *dir = make_dir();
    const char *a = path_in(dir, "a.mp4"), *b = path_in(dir, "b.mp4");
    mur_video_opts oa = opts_for(a, 64, 48), ob = opts_for(b, 64, 48);
    mur_error err = {{0}};
    CHECK(write_colours(&oa, 24, &err) == 0, "write a: %s", err.msg);
    CHECK(write_colours(&ob, 24, &err) == 0, "write b: %s", err.msg);
    uint64_t ha = test_video_hash(a), hb = test_video_hash(b);
    CHECK(ha != 0 && ha == hb, "hashes %016llx %016llx", (unsigned long long)ha,
          (unsigned long long)hb);
    remove_dir(dir);
}

/* ---- a file appears at its final name only when complete -------------------- */

TEST(final_name_appears_only_at_close)
{
    char *dir = make_dir();
    const char *path = path_in(dir, "x.mp4");
    mur_video_opts o = opts_for(path, 64, 48);
    mur_error err = {{0}};
    mur_video *v = NULL;
    uint32_t pixels[64 * 48];
    paint((uint8_t *)pixels, 64, 48, 64 * 4, colours[0]);
    REQUIRE(mur_video_open(&v, &o, &err) == 0, "open: %s", err.msg);
    CHECK(mur_video_write(v, (uint8_t *)pixels, 64 * 4, &err) == 0, "write: %s", err.msg);

    char name[256], want[256];
    snprintf(want, sizeof want, ".x.mp4.part.%ld", (long)getpid());
    CHECK(!exists(path), "%s exists before close", path);
    CHECK(count_entries(dir, name, sizeof name) == 1 && strcmp(name, want) == 0,
          "want only %s before close, have '%s'", want, name);

    CHECK(mur_video_close(v, &err) == 0, "close: %s", err.msg);
    CHECK(exists(path), "%s missing after close", path);
    CHECK(count_entries(dir, name, sizeof name) == 1 && strcmp(name, "x.mp4") == 0,
          "want only x.mp4 after close, have '%s'", name);
    remove_dir(dir);
}

TEST(abort_leaves_neither_final_nor_temp_file)
{
    char *dir = make_dir();
    const char *path = path_in(dir, "x.mp4");
    mur_video_opts o = opts_for(path, 64, 48);
    mur_error err = {{0}};
    mur_video *v = NULL;
    uint32_t pixels[64 * 48];
    paint((uint8_t *)pixels, 64, 48, 64 * 4, colours[1]);
    REQUIRE(mur_video_open(&v, &o, &err) == 0, "open: %s", err.msg);
    for (int k = 0; k < 5; k++)
        CHECK(mur_video_write(v, (uint8_t *)pixels, 64 * 4, &err) == 0, "write: %s", err.msg);
    mur_video_abort(v);
    mur_video_abort(NULL);
    CHECK(!exists(path), "%s exists after abort", path);
    CHECK(count_entries(dir, NULL, 0) == 0, "files left after abort");
    remove_dir(dir);
}

TEST(failed_rename_removes_temp_and_names_path)
{
    char *dir = make_dir();
    const char *path = path_in(dir, "x.mp4");
    REQUIRE(mkdir(path, 0700) == 0, "mkdir %s", path);   /* a file cannot replace a directory */
    mur_video_opts o = opts_for(path, 64, 48);
    mur_error err = {{0}};
    int code = write_colours(&o, 3, &err);
    CHECK(code == MUR_ERUN, "code %d: %s", code, err.msg);
    CHECK(strstr(err.msg, path) != NULL, "message '%s' does not name %s", err.msg, path);
    char name[256];
    CHECK(count_entries(dir, name, sizeof name) == 1 && strcmp(name, "x.mp4") == 0,
          "temp file left: '%s'", name);
    remove_dir(dir);
}

/* +faststart re-reads the temporary file by name in the trailer: if it has
 * gone, close must fail cleanly rather than publish a broken file. */
TEST(failed_trailer_reports_erun_and_leaves_nothing)
{
    char *dir = make_dir();
    const char *path = path_in(dir, "x.mp4");
    mur_video_opts o = opts_for(path, 64, 48);
    mur_error err = {{0}};
    mur_video *v = NULL;
    uint32_t pixels[64 * 48];
    paint((uint8_t *)pixels, 64, 48, 64 * 4, colours[2]);
    REQUIRE(mur_video_open(&v, &o, &err) == 0, "open: %s", err.msg);
    for (int k = 0; k < 3; k++)
        CHECK(mur_video_write(v, (uint8_t *)pixels, 64 * 4, &err) == 0, "write: %s", err.msg);
    char name[256];
    REQUIRE(count_entries(dir, name, sizeof name) == 1, "no temp file");
    REQUIRE(remove(path_in(dir, name)) == 0, "cannot remove %s", name);
    int code = mur_video_close(v, &err);
    CHECK(code == MUR_ERUN, "code %d: %s", code, err.msg);
    CHECK(strstr(err.msg, path) != NULL, "message '%s' does not name %s", err.msg, path);
    CHECK(count_entries(dir, NULL, 0) == 0, "files left");
    remove_dir(dir);
}

TEST(close_without_frames_fails_and_leaves_nothing)
{
    char *dir = make_dir();
    const char *path = path_in(dir, "x.mp4");
    mur_video_opts o = opts_for(path, 64, 48);
    mur_error err = {{0}};
    int code = write_colours(&o, 0, &err);
    CHECK(code == MUR_ERUN, "code %d: %s", code, err.msg);
    CHECK(count_entries(dir, NULL, 0) == 0, "files left");
    remove_dir(dir);
}

/* ---- errors --------------------------------------------------------------------- */

TEST(missing_directory_fails_at_open_with_erun_and_leaves_nothing)
{
    mur_video_opts o = opts_for("/nonexistent/dir/x.mp4", 64, 48);
    mur_error err = {{0}};
    mur_video *v = (mur_video *)&o;   /* must be reset to NULL */
    int code = mur_video_open(&v, &o, &err);
    CHECK(code == MUR_ERUN, "code %d", code);
    CHECK(v == NULL, "out not cleared");
    CHECK(strcmp(err.msg, "cannot write '/nonexistent/dir/x.mp4': No such file or directory") == 0,
          "message '%s'", err.msg);
    CHECK(!exists("/nonexistent"), "/nonexistent was created");

    /* an animated WebP, muxed in memory, makes its file at open too */
    o.path = "/nonexistent/dir/x.webp";
    CHECK(mur_video_open(&v, &o, &err) == MUR_ERUN && v == NULL, "WebP opened");
    CHECK(strcmp(err.msg, "cannot write '/nonexistent/dir/x.webp': No such file or directory") == 0,
          "WebP message '%s'", err.msg);

    char *dir = make_dir();
    o.path = path_in(dir, "missing/x.mp4");
    CHECK(mur_video_open(&v, &o, &err) == MUR_ERUN, "missing subdirectory opened");
    CHECK(count_entries(dir, NULL, 0) == 0, "files left");
    remove_dir(dir);
}

TEST(unknown_extension_fails_with_einput)
{
    char *dir = make_dir();
    mur_video_opts o = opts_for(path_in(dir, "x.xyz"), 64, 48);
    mur_error err = {{0}};
    mur_video *v = NULL;
    CHECK(mur_video_open(&v, &o, &err) == MUR_EINPUT, "x.xyz accepted");
    CHECK(strcmp(err.msg, "unsupported output format '.xyz' (use .mp4, .webm, .mov, .gif, "
                          ".webp, DIR/%05d.png)") == 0,
          "message '%s'", err.msg);
    o.path = path_in(dir, "noext");
    CHECK(mur_video_open(&v, &o, &err) == MUR_EINPUT, "noext accepted");
    CHECK(strstr(err.msg, "noext") != NULL, "message '%s'", err.msg);
    CHECK(v == NULL && count_entries(dir, NULL, 0) == 0, "files left");
    remove_dir(dir);
}

TEST(out_of_range_options_fail_with_einput)
{
    char *dir = make_dir();
    const char *path = path_in(dir, "x.mp4");
    struct {
        mur_video_opts o;
        const char *word;   /* the message names the offending option */
    } bad[] = {
        {opts_for(NULL, 64, 48), "path"},
        {opts_for("", 64, 48), "path"},
        {opts_for(path, 1, 48), "size"},
        {opts_for(path, 64, 1), "size"},
        {opts_for(path, 16385, 48), "size"},
        {opts_for(path, 64, 48), "fps"},
        {opts_for(path, 64, 48), "fps"},
        {opts_for(path, 64, 48), "quality"},
        {opts_for(path, 64, 48), "quality"},
    };
    bad[5].o.fps = 0;
    bad[6].o.fps = 241;
    bad[7].o.quality = -1;
    bad[8].o.quality = 52;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mur_error err = {{0}};
        mur_video *v = NULL;
        int code = mur_video_open(&v, &bad[i].o, &err);
        CHECK(code == MUR_EINPUT && v == NULL, "case %zu: code %d", i, code);
        CHECK(strstr(err.msg, bad[i].word) != NULL, "case %zu: message '%s'", i, err.msg);
    }
    CHECK(count_entries(dir, NULL, 0) == 0, "files left");
    remove_dir(dir);
}

/* ---- every format ------------------------------------------------------------ */

typedef struct {
    const char *name;       /* file name, or pattern */
    const char *codec;      /* libavcodec's name for what the reader finds */
    const char *pix_fmt;    /* what its decoder gives */
    int tagged;             /* BT.709 limited-range tags expected */
    int tol;                /* colour error allowed per channel */
} kind;

/* GIF and PNG are RGB: no YUV rounding, and six colours fit any palette
 * exactly, so they get no tolerance at all. */
static const kind kinds[] = {
    {"x.mp4", "h264", "yuv420p", 1, 4},
    {"x.webm", "vp9", "yuv420p", 1, 4},
    {"x.mov", "prores", "yuv422p10le", 1, 4},
    {"x.gif", "gif", "bgra", 0, 0},
    {"%05d.png", "png", "rgb24", 0, 0},
};
#define NKINDS (int)(sizeof kinds / sizeof kinds[0])

TEST(every_format_round_trips_count_size_pixel_format_tags_and_colours)
{
    for (int i = 0; i < NKINDS; i++) {
        const kind *k = &kinds[i];
        char *dir = make_dir();
        const char *path = path_in(dir, k->name);
        mur_video_opts o = opts_for(path, 64, 48);
        mur_error err = {{0}};
        int code = write_colours(&o, 12, &err);
        CHECK(code == 0, "%s: write: %s", k->name, err.msg);
        test_video_info info;
        if (test_video_probe(path, &info) != 0) {
            CHECK(0, "%s: cannot probe", k->name);
            remove_dir(dir);
            continue;
        }
        CHECK(strcmp(info.codec, k->codec) == 0, "%s: codec %s", k->name, info.codec);
        CHECK(strcmp(info.pix_fmt, k->pix_fmt) == 0, "%s: pix_fmt %s", k->name, info.pix_fmt);
        CHECK(info.width == 64 && info.height == 48, "%s: size %dx%d", k->name, info.width,
              info.height);
        CHECK(info.frames == 12, "%s: %d frames", k->name, info.frames);
        if (k->tagged)
            CHECK(info.primaries == AVCOL_PRI_BT709 && info.trc == AVCOL_TRC_BT709 &&
                      info.colorspace == AVCOL_SPC_BT709 && info.range == AVCOL_RANGE_MPEG,
                  "%s: tags %d/%d/%d/%d, want BT.709 limited", k->name, info.primaries, info.trc,
                  info.colorspace, info.range);
        check_colours_within(path, 12, 64, 48, k->tol);
        remove_dir(dir);
    }
}

/* A frame no 256-colour palette holds exactly: a hue sweep across, a
 * brightness ramp down, so thousands of distinct colours. */
static void paint_gradient(uint8_t *pixels, int w, int h, int stride)
{
    for (int y = 0; y < h; y++) {
        uint32_t *row = (uint32_t *)(pixels + (size_t)stride * (size_t)y);
        for (int x = 0; x < w; x++) {
            uint32_t r = (uint32_t)(255 * x / (w - 1)), g = (uint32_t)(255 * y / (h - 1));
            uint32_t b = (uint32_t)(255 - (r + g) / 2);
            row[x] = 0xFF000000u | r << 16 | g << 8 | b;
        }
    }
}

/* 256 colours chosen from the video keep a gradient of thousands close:
 * over 4x4 blocks the GIF's colour must match what was drawn within 6. */
TEST(gif_palette_keeps_many_colours_close_on_average)
{
    char *dir = make_dir();
    const char *path = path_in(dir, "g.gif");
    const int w = 128, h = 96;
    mur_video_opts o = opts_for(path, w, h);
    mur_error err = {{0}};
    mur_video *v = NULL;
    uint8_t *px = malloc((size_t)w * h * 4);
    REQUIRE(px && mur_video_open(&v, &o, &err) == 0, "open: %s", err.msg);
    paint_gradient(px, w, h, w * 4);
    for (int k = 0; k < 3; k++)
        CHECK(mur_video_write(v, px, w * 4, &err) == 0, "write: %s", err.msg);
    CHECK(mur_video_close(v, &err) == 0, "close: %s", err.msg);
    uint8_t *rgb = NULL;
    int dw, dh;
    REQUIRE(test_video_frame_rgb(path, 2, &rgb, &dw, &dh) == 0 && dw == w && dh == h,
            "cannot decode frame 2");
    double worst = 0;
    for (int by = 0; by < h; by += 4)
        for (int bx = 0; bx < w; bx += 4)
            for (int c = 0; c < 3; c++) {
                double got = 0, want = 0;
                for (int y = by; y < by + 4; y++)
                    for (int x = bx; x < bx + 4; x++) {
                        uint32_t argb = ((uint32_t *)px)[y * w + x];
                        got += rgb[(y * w + x) * 3 + c];
                        want += (argb >> (16 - 8 * c)) & 0xff;
                    }
                double e = fabs(got - want) / 16;
                if (e > worst)
                    worst = e;
            }
    CHECK(worst <= 6, "a 4x4 block is off by %.1f per channel on average", worst);
    free(rgb);
    free(px);
    remove_dir(dir);
}

TEST(gif_faster_than_50_fps_is_refused)
{
    char *dir = make_dir();
    mur_video_opts o = opts_for(path_in(dir, "fast.gif"), 64, 48);
    o.fps = 60;
    mur_error err = {{0}};
    mur_video *v = NULL;
    CHECK(mur_video_open(&v, &o, &err) == MUR_EINPUT, "60 fps GIF accepted");
    CHECK(strstr(err.msg, "1..50") != NULL, "message '%s'", err.msg);
    o.fps = 50;
    CHECK(write_colours(&o, 2, &err) == 0, "50 fps GIF: %s", err.msg);
    remove_dir(dir);
}

/* The provenance text reaches every container a reader can see it in. */
TEST(metadata_reaches_every_container)
{
    const char *names[] = {"m.mp4", "m.webm", "m.mov", "m.gif"};
    const char *text = "murmur 0.1.0\nseed: 42\nflock:\n  count: 160\n";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *dir = make_dir();
        const char *path = path_in(dir, names[i]);
        mur_video_opts o = opts_for(path, 64, 48);
        o.metadata = text;
        mur_error err = {{0}};
        CHECK(write_colours(&o, 3, &err) == 0, "%s: write: %s", names[i], err.msg);
        char got[256] = "";
        CHECK(test_video_tag(path, "comment", got, sizeof got) == 0, "%s: no comment tag",
              names[i]);
        CHECK(strcmp(got, text) == 0, "%s: comment '%s'", names[i], got);
        test_video_info info;
        CHECK(test_video_probe(path, &info) == 0 && info.frames == 3, "%s: not 3 frames",
              names[i]);
        remove_dir(dir);
    }
}

/* A comment longer than one GIF sub-block (255 bytes) is split and joined. */
TEST(gif_comment_longer_than_a_block_survives)
{
    char *dir = make_dir();
    const char *path = path_in(dir, "long.gif");
    char text[1200];
    for (size_t i = 0; i < sizeof text - 1; i++)
        text[i] = (char)('a' + i % 26);
    text[sizeof text - 1] = '\0';
    mur_video_opts o = opts_for(path, 64, 48);
    o.metadata = text;
    mur_error err = {{0}};
    CHECK(write_colours(&o, 2, &err) == 0, "write: %s", err.msg);
    char got[2048] = "";
    CHECK(test_video_tag(path, "comment", got, sizeof got) == 0, "no comment tag");
    CHECK(strcmp(got, text) == 0, "comment of %zu bytes, want %zu", strlen(got), strlen(text));
    remove_dir(dir);
}

/* ---- animated WebP ------------------------------------------------------------ */

typedef struct {
    int width, height, frames, loop;
    int end_ms;              /* the last frame's end (its timestamp) */
    uint64_t hash;           /* FNV-1a over every decoded RGBA canvas */
    int worst;               /* largest channel error against colours[k % 6] */
} webp_info;

/* Reads path with libwebp's own animation decoder (libavformat 5.1 does
 * not demux an animated WebP): what a browser gets. 0, or -1. */
static int read_webp(const char *path, webp_info *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *bytes = malloc((size_t)n);
    size_t got = bytes ? fread(bytes, 1, (size_t)n, f) : 0;
    fclose(f);
    WebPAnimDecoderOptions opt;
    WebPAnimDecoderOptionsInit(&opt);
    opt.color_mode = MODE_RGBA;
    WebPData data = {bytes, got};
    WebPAnimDecoder *dec = got == (size_t)n ? WebPAnimDecoderNew(&data, &opt) : NULL;
    WebPAnimInfo info;
    if (!dec || !WebPAnimDecoderGetInfo(dec, &info)) {
        WebPAnimDecoderDelete(dec);
        free(bytes);
        return -1;
    }
    out->width = (int)info.canvas_width;
    out->height = (int)info.canvas_height;
    out->loop = (int)info.loop_count;
    out->hash = 1469598103934665603ull;
    uint8_t *px;
    int ts;
    while (WebPAnimDecoderHasMoreFrames(dec) && WebPAnimDecoderGetNext(dec, &px, &ts)) {
        uint32_t want = colours[out->frames % NCOLOURS];
        for (int i = 0; i < out->width * out->height * 4; i++) {
            out->hash = (out->hash ^ px[i]) * 1099511628211ull;
            int c = i % 4 == 3 ? 255 : (int)(want >> (16 - 8 * (i % 4)) & 255);
            int e = abs(px[i] - c);
            if (e > out->worst)
                out->worst = e;
        }
        out->frames++;
        out->end_ms = ts;
    }
    WebPAnimDecoderDelete(dec);
    free(bytes);
    return 0;
}

/* Every frame, at its size and time, looping forever, in colours close to
 * what was drawn (lossy: libwebp's 4:2:0 YUV), and the same bytes twice. */
TEST(webp_round_trips_frames_size_loop_and_colours)
{
    char *dir = make_dir();
    const char *path = path_in(dir, "x.webp");
    mur_video_opts o = opts_for(path, 63, 47);   /* odd sides: WebP keeps them */
    mur_error err = {{0}};
    REQUIRE(write_colours(&o, 12, &err) == 0, "write: %s", err.msg);
    webp_info a, b;
    REQUIRE(read_webp(path, &a) == 0, "cannot decode %s", path);
    CHECK(a.frames == 12 && a.width == 63 && a.height == 47, "%d frames of %dx%d", a.frames, a.width,
          a.height);
    CHECK(a.loop == 0, "loop count %d, want 0 (forever)", a.loop);
    CHECK(a.end_ms >= 490 && a.end_ms <= 510, "12 frames at 24 fps end at %d ms", a.end_ms);
    CHECK(a.worst <= 8, "a channel is off by %d", a.worst);
    o.queue = 3;   /* through the encoding thread: the same file */
    REQUIRE(write_colours(&o, 12, &err) == 0, "write: %s", err.msg);
    REQUIRE(read_webp(path, &b) == 0, "cannot decode %s", path);
    CHECK(a.hash == b.hash, "frames differ between two writes");
    remove_dir(dir);
}

/* The bytes of RIFF file d (n bytes) without its chunks of type fourcc,
 * the RIFF size made right: into out (n bytes at least); its length. */
static size_t riff_without(const uint8_t *d, size_t n, const char *fourcc, uint8_t *out)
{
    size_t at = 12, len = 12;
    memcpy(out, d, 12);
    while (at + 8 <= n) {
        size_t size = (size_t)d[at + 4] | (size_t)d[at + 5] << 8 | (size_t)d[at + 6] << 16 | (size_t)d[at + 7] << 24;
        size_t whole = 8 + size + (size & 1);
        if (at + whole > n)
            whole = n - at;
        if (memcmp(d + at, fourcc, 4) != 0) {
            memcpy(out + len, d + at, whole);
            len += whole;
        }
        at += whole;
    }
    uint32_t riff = (uint32_t)(len - 8);
    for (int i = 0; i < 4; i++)
        out[4 + i] = (uint8_t)(riff >> (8 * i));
    return len;
}

/* The provenance rides in an XMP chunk (murmur:provenance, XML-escaped:
 * & < > and a carriage return come back as they were, UTF-8 too, a
 * control character or a byte that is not UTF-8 as U+FFFD), added to the file libwebp made and nothing
 * else changed: the file without metadata is the same bytes but for that
 * chunk, VP8X's XMP flag and the RIFF size, and both decode to the same
 * frames at the same times, looping forever. */
TEST(webp_keeps_the_provenance_in_an_xmp_chunk_and_the_animation_intact)
{
    char *dir = make_dir();
    const char *bare = path_in(dir, "bare.webp"), *with = path_in(dir, "with.webp");
    const char *text = "murmur 0.1.0\nseed: 42\ntitle: \"a < b && c > d\"\r\n# \x01 caf\xc3\xa9 \xff \xf0\x9f\x90\xa6\n";
    const char *want = "murmur 0.1.0\nseed: 42\ntitle: \"a < b && c > d\"\r\n"
                       "# \xef\xbf\xbd caf\xc3\xa9 \xef\xbf\xbd \xf0\x9f\x90\xa6\n";
    mur_video_opts o = opts_for(bare, 63, 47);
    mur_error err = {{0}};
    REQUIRE(write_colours(&o, 12, &err) == 0, "write: %s", err.msg);
    o.path = with;
    o.metadata = text;
    REQUIRE(write_colours(&o, 12, &err) == 0, "write: %s", err.msg);
    char got[512];
    CHECK(test_webp_provenance(bare, got, sizeof got) == -1, "a WebP without metadata has provenance");
    REQUIRE(test_webp_provenance(with, got, sizeof got) == 0, "no provenance read from %s", with);
    CHECK(strcmp(got, want) == 0, "provenance '%s'", got);
    webp_info a, b;
    REQUIRE(read_webp(bare, &a) == 0 && read_webp(with, &b) == 0, "cannot decode the WebPs");
    CHECK(a.hash == b.hash && b.frames == 12 && b.loop == 0 && b.end_ms == a.end_ms,
          "with provenance: %d frames ending at %d ms (%d), loop %d, same frames %d", b.frames, b.end_ms,
          a.end_ms, b.loop, a.hash == b.hash);
    size_t na = 0, nb = 0;
    uint8_t *da = test_read_file(bare, &na), *db = test_read_file(with, &nb);
    REQUIRE(da && db && na > 30 && nb > na, "%zu and %zu bytes", na, nb);
    uint8_t *stripped = malloc(nb);
    REQUIRE(stripped, "out of memory");
    size_t ns = riff_without(db, nb, "XMP ", stripped);
    CHECK((stripped[20] & 0x04) && !(da[20] & 0x04), "VP8X flags %#x and %#x: XMP flag", stripped[20], da[20]);
    stripped[20] &= (uint8_t)~0x04;
    CHECK(ns == na && memcmp(stripped, da, na) == 0,
          "without its XMP chunk the file is not the file without metadata (%zu and %zu bytes)", ns, na);
    free(stripped);
    free(da);
    free(db);
    remove_dir(dir);
}

/* What an animated WebP cannot be: a chunk, faster than 60 fps, a
 * subtitle track's home, wider than 16383; refused, nothing written. */
TEST(webp_bad_combinations_are_refused)
{
    char *dir = make_dir();
    mur_video_opts o = opts_for(path_in(dir, "x.webp"), 64, 48);
    mur_error err = {{0}};
    mur_video *v = NULL;
    o.fps = 61;
    CHECK(mur_video_open(&v, &o, &err) == MUR_EINPUT && strstr(err.msg, "1..60"), "61 fps: '%s'",
          err.msg);
    o.fps = 24;
    o.width = 16384;
    CHECK(mur_video_open(&v, &o, &err) == MUR_EINPUT && strstr(err.msg, "16383"), "16384: '%s'",
          err.msg);
    o.width = 64;
    o.chunk = 1;
    o.nchunks = 2;
    o.chunk_frames = 48;
    CHECK(mur_video_open(&v, &o, &err) == MUR_EINPUT && strstr(err.msg, "WebP"), "chunk: '%s'",
          err.msg);
    CHECK(count_entries(dir, NULL, 0) == 0, "files left");
    remove_dir(dir);
}

/* ---- image sequences ----------------------------------------------------------- */

TEST(png_sequence_numbers_frames_from_first_number_and_writes_provenance)
{
    char *dir = make_dir();
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/shot", dir);
    REQUIRE(mkdir(sub, 0700) == 0, "mkdir %s", sub);
    const char *path = path_in(dir, "shot/f_%04d.png");
    mur_video_opts o = opts_for(path, 64, 48);
    o.first_number = 7;
    o.metadata = "murmur 0.1.0\nseed: 1\n";
    mur_error err = {{0}};
    CHECK(write_colours(&o, 3, &err) == 0, "write: %s", err.msg);
    const char *want[] = {"f_0007.png", "f_0008.png", "f_0009.png", "f.txt"};
    for (int i = 0; i < 4; i++) {
        char p[4400];
        snprintf(p, sizeof p, "%s/%s", sub, want[i]);
        CHECK(exists(p), "%s missing", p);
    }
    CHECK(count_entries(sub, NULL, 0) == 4, "want exactly 3 frames and f.txt in %s", sub);
    char p[4400], text[256] = "";
    snprintf(p, sizeof p, "%s/f.txt", sub);
    FILE *fp = fopen(p, "r");
    if (fp) {
        text[fread(text, 1, sizeof text - 1, fp)] = '\0';
        fclose(fp);
    }
    CHECK(strcmp(text, o.metadata) == 0, "f.txt holds '%s'", text);
    /* the reader finds them from the pattern, starting at 7 */
    test_video_info info;
    CHECK(test_video_probe(path, &info) == 0 && info.frames == 3, "pattern does not read back");
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/%s", sub, want[i]);
        remove(p);
    }
    rmdir(sub);
    remove_dir(dir);
}

TEST(png_sequence_abort_removes_its_frames)
{
    char *dir = make_dir();
    mur_video_opts o = opts_for(path_in(dir, "%05d.png"), 64, 48);
    o.metadata = "provenance";
    mur_error err = {{0}};
    mur_video *v = NULL;
    uint32_t pixels[64 * 48];
    paint((uint8_t *)pixels, 64, 48, 64 * 4, colours[0]);
    REQUIRE(mur_video_open(&v, &o, &err) == 0, "open: %s", err.msg);
    for (int k = 0; k < 3; k++)
        CHECK(mur_video_write(v, (uint8_t *)pixels, 64 * 4, &err) == 0, "write: %s", err.msg);
    CHECK(exists(path_in(dir, "00002.png")), "frames are published as they are written");
    CHECK(!exists(path_in(dir, "frames.txt")), "provenance published before close");
    mur_video_abort(v);
    CHECK(count_entries(dir, NULL, 0) == 0, "files left after abort");
    remove_dir(dir);
}

TEST(png_path_without_one_frame_number_is_refused)
{
    char *dir = make_dir();
    const char *bad[] = {"x.png", "%d%d.png", "%s.png", "%5d.png", "a%%.png"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mur_video_opts o = opts_for(path_in(dir, bad[i]), 64, 48);
        mur_error err = {{0}};
        mur_video *v = NULL;
        CHECK(mur_video_open(&v, &o, &err) == MUR_EINPUT, "'%s' accepted", bad[i]);
        CHECK(strstr(err.msg, "frame number") != NULL, "'%s': message '%s'", bad[i], err.msg);
    }
    /* "%%" is a literal percent sign beside a real pattern */
    mur_video_opts o = opts_for(path_in(dir, "p%%_%03d.png"), 64, 48);
    mur_error err = {{0}};
    CHECK(write_colours(&o, 1, &err) == 0, "p%%%%_%%03d.png: %s", err.msg);
    CHECK(exists(path_in(dir, "p%_000.png")), "p%%_000.png missing");
    CHECK(count_entries(dir, NULL, 0) == 1, "files left");
    remove_dir(dir);
}

/* ---- the encoding thread --------------------------------------------------------- */

/* The queue changes when frames are encoded, never what: every format gives
 * the same decoded frames, and the .mp4 the same bytes. */
TEST(queue_gives_the_same_output_as_no_queue)
{
    for (int i = 0; i < NKINDS; i++) {
        char *dir = make_dir();
        char a[4200], b[4200];
        snprintf(a, sizeof a, "%s/a%s", dir, kinds[i].name);
        snprintf(b, sizeof b, "%s/b%s", dir, kinds[i].name);
        mur_video_opts oa = opts_for(a, 64, 48), ob = opts_for(b, 64, 48);
        ob.queue = 3;
        mur_error err = {{0}};
        CHECK(write_colours(&oa, 20, &err) == 0, "%s without queue: %s", kinds[i].name, err.msg);
        CHECK(write_colours(&ob, 20, &err) == 0, "%s with queue: %s", kinds[i].name, err.msg);
        uint64_t ha = test_video_hash(a), hb = test_video_hash(b);
        CHECK(ha != 0 && ha == hb, "%s: hashes %016llx %016llx", kinds[i].name,
              (unsigned long long)ha, (unsigned long long)hb);
        if (i == 0) {
            char cmd[9000];
            snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", a, b);
            CHECK(system(cmd) == 0, "the two .mp4 files differ");
        }
        DIR *d = opendir(dir);   /* sequences leave many files: empty the folder */
        for (struct dirent *e; d && (e = readdir(d));)
            if (e->d_name[0] != '.') {
                char p[4400];
                snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
                remove(p);
            }
        if (d)
            closedir(d);
        remove_dir(dir);
    }
}

/* The bitstream records x264's settings: its thread count is the constant,
 * whatever the machine, and --preset reaches it. */
TEST(x264_threads_are_fixed_and_the_preset_applies)
{
    char *dir = make_dir();
    const char *fast = path_in(dir, "fast.mp4"), *medium = path_in(dir, "medium.mp4");
    mur_video_opts of = opts_for(fast, 64, 48), om = opts_for(medium, 64, 48);
    of.preset = "ultrafast";
    mur_error err = {{0}};
    CHECK(write_colours(&of, 4, &err) == 0, "ultrafast: %s", err.msg);
    CHECK(write_colours(&om, 4, &err) == 0, "medium: %s", err.msg);
    const char *files[] = {fast, medium};
    const char *subme[] = {"subme=0 ", "subme=7 "};
    for (int i = 0; i < 2; i++) {
        char cmd[4400];
        snprintf(cmd, sizeof cmd, "grep -qa 'threads=%d ' '%s'", MUR_OUT_THREADS, files[i]);
        CHECK(system(cmd) == 0, "%s: x264 did not run with threads=%d", files[i],
              MUR_OUT_THREADS);
        snprintf(cmd, sizeof cmd, "grep -qa '%s' '%s'", subme[i], files[i]);
        CHECK(system(cmd) == 0, "%s: no '%s' in x264's settings", files[i], subme[i]);
    }
    mur_video *v = NULL;
    om.preset = "quick";
    CHECK(mur_video_open(&v, &om, &err) == MUR_EINPUT && strstr(err.msg, "quick"),
          "unknown preset: %s", err.msg);
    remove_dir(dir);
}

/* x264's macroblock tree is off in every preset (stream.c says why: its
 * AVX-512 code reads memory x264 never wrote), and the rest of the preset
 * still applies. Also tested by decoding in test_determinism. */
/* The conversion to YUV computes chroma at every pixel and filters it down
 * to the chroma plane's width with the bicubic filter (stream.c,
 * SWS_FULL_CHR_H_INP), not from each pair of pixels averaged: a
 * one-pixel red column on grey reaches the chroma samples on either side
 * of its own, which pairs averaged would leave grey. Lossless H.264
 * (quality 0) keeps the converted samples as they were. */
TEST(chroma_is_filtered_from_every_pixel)
{
    char *dir = make_dir();
    const char *path = path_in(dir, "x.mp4");
    mur_video_opts o = opts_for(path, 32, 16);
    o.quality = 0;
    int stride = o.width * 4, col = 16;   /* pixels 16 and 17 make chroma sample 8 */
    uint8_t *pixels = malloc((size_t)stride * (size_t)o.height);
    CHECK(pixels != NULL, "out of memory");
    paint(pixels, o.width, o.height, stride, 0xFF808080);
    for (int y = 0; y < o.height; y++)
        ((uint32_t *)(void *)(pixels + (size_t)stride * (size_t)y))[col] = 0xFFFF0000;
    mur_video *v = NULL;
    mur_error err = {{0}};
    int code = mur_video_open(&v, &o, &err);
    if (code == 0)
        code = mur_video_write(v, pixels, stride, &err);
    if (code == 0)
        code = mur_video_close(v, &err);
    else
        mur_video_abort(v);
    CHECK(code == 0, "write: %s", err.msg);
    uint8_t *cr = NULL;
    int w = 0, h = 0;
    CHECK(code == 0 && test_video_frame_plane(path, 0, 2, &cr, &w, &h) == 0, "no V plane decoded");
    if (cr) {
        CHECK(w == 16 && h == 8, "V plane %dx%d, want 16x8", w, h);
        const uint8_t *row = cr + (size_t)w * (size_t)(h / 2);
        CHECK(row[0] == 128 && row[w - 1] == 128, "grey's V is %d and %d, want 128", row[0], row[w - 1]);
        CHECK(row[col / 2] > 160, "the red column's own V is %d", row[col / 2]);
        CHECK(row[col / 2 - 1] != 128 || row[col / 2 + 1] != 128,
              "V beside the red column is %d and %d: grey, as from pairs of pixels averaged",
              row[col / 2 - 1], row[col / 2 + 1]);
    }
    free(cr);
    free(pixels);
    remove_dir(dir);
}

/* The conversion gives the same bytes on any number of swscale's slice
 * threads (stream.c takes as many as the machine has cores, so another
 * machine slices differently): a 1080p frame of noise, to the pixel
 * formats of the .mp4 and the .mov, on 1, 2, 3 and 8 threads. */
TEST(conversion_is_the_same_on_any_number_of_slice_threads)
{
    const int w = 1920, h = 1080;
    static const enum AVPixelFormat dsts[] = {AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV422P10LE};
    static const int threads[] = {1, 2, 3, 8};
    AVFrame *src = av_frame_alloc();
    REQUIRE(src != NULL, "out of memory");
    src->format = AV_PIX_FMT_RGB32;
    src->width = w;
    src->height = h;
    REQUIRE(av_frame_get_buffer(src, 0) == 0, "no source frame");
    uint32_t seed = 12345;
    for (int y = 0; y < h; y++) {
        uint32_t *row = (uint32_t *)(void *)(src->data[0] + (size_t)src->linesize[0] * (size_t)y);
        for (int x = 0; x < w; x++) {
            seed = seed * 1664525u + 1013904223u;
            row[x] = 0xFF000000u | seed >> 8;
        }
    }
    for (size_t d = 0; d < sizeof dsts / sizeof *dsts; d++) {
        uint64_t ref = 0;
        for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
            struct SwsContext *c = mur_out_converter(w, h, dsts[d], threads[t]);
            AVFrame *out = av_frame_alloc();
            CHECK(c != NULL && out != NULL, "%s on %d threads: no converter", av_get_pix_fmt_name(dsts[d]),
                  threads[t]);
            if (c && out) {
                out->format = dsts[d];
                out->width = w;
                out->height = h;
                int ok = av_frame_get_buffer(out, 0) == 0 && sws_scale_frame(c, out, src) >= 0;
                CHECK(ok, "%s on %d threads: not converted", av_get_pix_fmt_name(dsts[d]), threads[t]);
                uint64_t hash = ok ? test_frame_hash(out) : 0;
                CHECK(hash != 0, "%s on %d threads: no planes hashed", av_get_pix_fmt_name(dsts[d]), threads[t]);
                if (t == 0)
                    ref = hash;
                else
                    CHECK(hash == ref, "%s on %d threads differs from one thread", av_get_pix_fmt_name(dsts[d]),
                          threads[t]);
            }
            av_frame_free(&out);
            sws_freeContext(c);
        }
    }
    av_frame_free(&src);
}

TEST(x264_runs_without_the_macroblock_tree)
{
    char *dir = make_dir();
    const char *out = path_in(dir, "slow.mp4");
    mur_video_opts o = opts_for(out, 64, 48);
    o.preset = "slow";   /* mbtree on in x264's own preset */
    mur_error err = {{0}};
    CHECK(write_colours(&o, 4, &err) == 0, "slow: %s", err.msg);
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "grep -qa ' mbtree=0 ' '%s'", out);
    CHECK(system(cmd) == 0, "%s: x264 ran with its macroblock tree", out);
    snprintf(cmd, sizeof cmd, "grep -qa ' subme=8 ' '%s'", out);
    CHECK(system(cmd) == 0, "%s: the slow preset (subme=8) did not apply", out);
    remove_dir(dir);
}

/* ---- failures ---------------------------------------------------------------------- */

TEST(missing_encoder_is_named_and_leaves_nothing)
{
    const char *names[] = {"x.mp4", "x.gif", "%05d.png"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *dir = make_dir();
        mur_video_opts o = opts_for(path_in(dir, names[i]), 64, 48);
        o.encoder = "no-such-encoder";
        o.metadata = "x";
        mur_error err = {{0}};
        mur_video *v = NULL;
        CHECK(mur_video_open(&v, &o, &err) == MUR_ERUN && v == NULL, "%s opened", names[i]);
        CHECK(strstr(err.msg, "'no-such-encoder' is not in this machine's libav build"),
              "%s: message '%s'", names[i], err.msg);
        CHECK(count_entries(dir, NULL, 0) == 0, "%s: files left", names[i]);
        remove_dir(dir);
    }
}

/* A disk that fills up mid-video, simulated with a file size limit (no
 * mount needed): writes fail with EFBIG instead of ENOSPC, through the same
 * path. The child reports the code and message through a pipe. */
static int write_with_size_limit(const char *path, int queue, long limit, char *msg, size_t n)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -100;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {(rlim_t)limit, (rlim_t)limit};
        setrlimit(RLIMIT_FSIZE, &rl);
        mur_video_opts o = opts_for(path, 160, 120);
        o.queue = queue;
        o.preset = "ultrafast";
        mur_error err = {{0}};
        mur_video *v = NULL;
        int stride = 160 * 4;
        uint8_t *px = malloc((size_t)stride * 120);
        int code = px ? mur_video_open(&v, &o, &err) : -99;
        /* noise: incompressible, so the file grows past the limit fast */
        uint32_t seed = 12345;
        for (int k = 0; code == 0 && k < 40; k++) {
            for (int i = 0; i < 160 * 120; i++) {
                seed = seed * 1664525u + 1013904223u;
                ((uint32_t *)px)[i] = 0xFF000000u | (seed >> 8);
            }
            code = mur_video_write(v, px, stride, &err);
        }
        if (v)
            code = code == 0 ? mur_video_close(v, &err) : (mur_video_abort(v), code);
        dprintf(fds[1], "%d %s", code, err.msg);
        _exit(0);
    }
    close(fds[1]);
    char buf[1200] = "";
    size_t got = 0;
    for (ssize_t r; (r = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0;)
        got += (size_t)r;
    close(fds[0]);
    waitpid(pid, NULL, 0);
    buf[got] = '\0';
    int code = -100;
    int off = 0;
    if (sscanf(buf, "%d %n", &code, &off) >= 1)
        snprintf(msg, n, "%s", buf + off);
    return code;
}

TEST(full_disk_fails_with_the_cause_and_leaves_nothing)
{
    const char *names[] = {"full.mp4", "full.webm", "full.gif", "full.webp", "%05d.png"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        for (int queue = 0; queue <= 2; queue += 2) {
            char *dir = make_dir();
            char msg[1100] = "";
            int code = write_with_size_limit(path_in(dir, names[i]), queue, 16 * 1024, msg,
                                             sizeof msg);
            CHECK(code == MUR_ERUN, "%s queue %d: code %d (%s)", names[i], queue, code, msg);
            CHECK(strstr(msg, "File too large") != NULL, "%s queue %d: message '%s'", names[i],
                  queue, msg);
            CHECK(count_entries(dir, NULL, 0) == 0, "%s queue %d: files left", names[i], queue);
            remove_dir(dir);
        }
}

/* ---- temporaries of killed writers, and folders two renders share ---------- */

/* The pid of a process that has exited and been reaped: no one has it now. */
static long dead_pid(void)
{
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    waitpid(child, NULL, 0);
    return (long)child;
}

/* Creates dir/name, name being a printf pattern of one %ld (pid); its path
 * goes to out. */
static void touch_in(char *out, size_t n, const char *dir, const char *name, long pid)
{
    char file[256];
    snprintf(file, sizeof file, name, pid);
    snprintf(out, n, "%s/%s", dir, file);
    FILE *fp = fopen(out, "w");
    if (fp)
        fclose(fp);
}

TEST(stale_temporaries_of_dead_writers_are_removed_and_no_others)
{
    char *dir = make_dir();
    long dead = dead_pid();
    static const char *const gone[] = {
        ".x.mp4.part.%ld", ".x.gif.part.%ld", ".x.gif.frames.part.%ld",
        ".f00007.png.part.%ld", ".f123456.png.part.%ld", ".f.txt.part.%ld",
    };
    static const char *const keep[] = {
        ".x.mp4.part.0%ld",       /* not a pid as written */
        ".x.mp4.part.%ldx",
        ".y.mp4.part.%ld",        /* another target */
        ".x.mp4.%ld",
        ".g00001.png.part.%ld",
        ".f0001.png.part.%ld",    /* fewer digits than %05d */
        "x.mp4.part.%ld",         /* not hidden */
    };
    enum { NGONE = sizeof gone / sizeof gone[0], NKEEP = sizeof keep / sizeof keep[0] };
    char gone_path[NGONE][4096], keep_path[NKEEP + 1][4096];
    for (int i = 0; i < NGONE; i++)
        touch_in(gone_path[i], sizeof gone_path[i], dir, gone[i], dead);
    for (int i = 0; i < NKEEP; i++)
        touch_in(keep_path[i], sizeof keep_path[i], dir, keep[i], dead);
    touch_in(keep_path[NKEEP], sizeof keep_path[0], dir, ".x.mp4.part.%ld", 1);   /* pid 1 lives */

    mur_error err = {{0}};
    const char *outs[] = {"x.mp4", "x.gif", "f%05d.png"};
    for (int i = 0; i < 3; i++) {
        mur_video_opts o = opts_for(path_in(dir, outs[i]), 64, 48);
        o.metadata = "provenance";
        CHECK(write_colours(&o, 1, &err) == 0, "%s: %s", outs[i], err.msg);
    }
    for (int i = 0; i < NGONE; i++)
        CHECK(!exists(gone_path[i]), "%s is left", gone_path[i]);
    for (int i = 0; i <= NKEEP; i++)
        CHECK(exists(keep_path[i]), "%s was removed", keep_path[i]);
    remove_dir(dir);
}

TEST(png_sequence_folder_is_locked_while_written)
{
    char *dir = make_dir();
    mur_error err = {{0}};
    mur_video *a = NULL, *b = NULL;
    mur_video_opts oa = opts_for(path_in(dir, "a%05d.png"), 64, 48);
    mur_video_opts ob = opts_for(path_in(dir, "b%05d.png"), 64, 48);
    REQUIRE(mur_video_open(&a, &oa, &err) == 0, "open a: %s", err.msg);
    int code = mur_video_open(&b, &ob, &err);
    char want[4200];
    snprintf(want, sizeof want, "%s is being written by another murmur (pid %ld)", dir,
             (long)getpid());
    CHECK(code == MUR_ERUN && strcmp(err.msg, want) == 0, "second writer: %d '%s'", code, err.msg);
    if (!code)
        mur_video_abort(b);
    uint32_t pixels[64 * 48];
    paint((uint8_t *)pixels, 64, 48, 64 * 4, colours[0]);
    CHECK(mur_video_write(a, (uint8_t *)pixels, 64 * 4, &err) == 0, "write: %s", err.msg);
    CHECK(mur_video_close(a, &err) == 0, "close a: %s", err.msg);
    CHECK(!exists(path_in(dir, ".murmur.lock")), "the lock file is left after close");
    /* Free again once the first is done; a lock file a killed render left
     * (its pid inside, no lock held) does not block. */
    FILE *fp = fopen(path_in(dir, ".murmur.lock"), "w");
    if (fp) {
        fprintf(fp, "%ld\n", dead_pid());
        fclose(fp);
    }
    CHECK(write_colours(&ob, 2, &err) == 0, "b after a: %s", err.msg);
    CHECK(exists(path_in(dir, "a00000.png")) && exists(path_in(dir, "b00001.png")), "frames missing");
    remove_dir(dir);
}
