/* The video writer against DESIGN.md's output contract, checked through an
 * independent libav reader (decode.h): H.264/yuv420p tagged BT.709 limited,
 * colours that survive the round trip, a file at its final name only when
 * complete, clear errors, and identical frames from identical input. */
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libavutil/log.h>
#include <libavutil/pixfmt.h>

#include "decode.h"
#include "harness.h"
#include "murmur/video.h"

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
    mur_video_opts o = {0};
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

/* Every frame's centre pixel decodes to the colour drawn, within +-4 per
 * channel (limited-range YUV quantisation plus x264 at CRF 18). */
static void check_colours(const char *path, int frames, int w, int h)
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
            CHECK(abs(px[i] - want[i]) <= 4,
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
    CHECK(strcmp(err.msg, "unsupported output format '.xyz' (use .mp4)") == 0, "message '%s'",
          err.msg);
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
