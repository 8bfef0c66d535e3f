/* The lecture kit (issue 14): variants of a video from the command line
 * (--size, --fps, --quality, --draft) and text that stays legible at
 * small sizes. Frames are drawn through the library and read back as
 * pixels; videos are made by the murmur binary and read back with libav. */
#include <cairo.h>
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
#include "murmur/variant.h"

/* ---- helpers -------------------------------------------------------------- */

#define DARK_SCENE "seed: 1\nmodel: wrkspc\nworld: {width: 320, height: 180, boundary: wrap}\n" \
                   "flock: {count: 1}\nlook: {background: \"#000000\", boid: {size: 4}"

/* Frame at t of scene s, its own single boid parked at the top left, at
 * w x h pixels. NULL when anything fails (said on stderr). */
static cairo_surface_t *frame(const mur_scene *s, int w, int h, double t)
{
    mur_flock *f = NULL;
    mur_renderer *r = NULL;
    mur_error err = {{0}};
    cairo_surface_t *img = NULL;
    double x = 8, y = 8, vx = 1, vy = 0;
    if (mur_flock_create(&f, &s->params, 1, &err) || mur_flock_set_state(f, 1, &x, &y, &vx, &vy, &err) ||
        mur_renderer_create(&r, mur_scene_look(s), w, h, &err)) {
        fprintf(stderr, "  setup: %s\n", err.msg);
        goto done;
    }
    img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    cairo_t *cr = cairo_create(img);
    const mur_flock *fl[1] = {f};
    int rc = mur_renderer_draw(r, cr, fl, 1, t, &err);
    cairo_destroy(cr);
    if (rc) {
        fprintf(stderr, "  draw: %s\n", err.msg);
        cairo_surface_destroy(img);
        img = NULL;
    } else {
        cairo_surface_flush(img);
    }
done:
    mur_renderer_destroy(r);
    mur_flock_destroy(f);
    return img;
}

/* Green channel of pixel (x, y): text is light on the dark theme. */
static int green(cairo_surface_t *img, int x, int y)
{
    const unsigned char *d = cairo_image_surface_get_data(img);
    uint32_t p = *(const uint32_t *)(d + (size_t)y * cairo_image_surface_get_stride(img) + (size_t)x * 4);
    return (int)((p >> 8) & 255);
}

/* Rows from the first to the last holding a light pixel (text) in the
 * rectangle: the ink height of the text there; 0 when none. */
static int ink_rows(cairo_surface_t *img, int x0, int y0, int x1, int y1)
{
    int top = -1, bottom = -1;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            if (green(img, x, y) > 128) {
                if (top < 0)
                    top = y;
                bottom = y;
                break;
            }
    return top < 0 ? 0 : bottom - top + 1;
}

/* ---- item 4: sizes and variants -------------------------------------------- */

TEST(sizes_parse_as_wxh_or_by_name)
{
    int w = 0, h = 0;
    CHECK(mur_size_parse("720p", &w, &h) == 0 && w == 1280 && h == 720, "720p: %dx%d", w, h);
    CHECK(mur_size_parse("360p", &w, &h) == 0 && w == 640 && h == 360, "360p: %dx%d", w, h);
    CHECK(mur_size_parse("1080p", &w, &h) == 0 && w == 1920 && h == 1080, "1080p: %dx%d", w, h);
    CHECK(mur_size_parse("4k", &w, &h) == 0 && w == 3840 && h == 2160, "4k: %dx%d", w, h);
    CHECK(mur_size_parse("1440p", &w, &h) == 0 && w == 2560 && h == 1440, "1440p: %dx%d", w, h);
    CHECK(mur_size_parse("480p", &w, &h) == 0 && w == 854 && h == 480, "480p: %dx%d", w, h);
    CHECK(mur_size_parse("1000x500", &w, &h) == 0 && w == 1000 && h == 500, "1000x500: %dx%d", w, h);
    const char *bad[] = {"", "720", "x720", "1280x", "1280x720x", "8x8", "9000x100", "-640x360",
                         "720P2", "1280 x 720", "1e3x500"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(mur_size_parse(bad[i], &w, &h) != 0, "'%s' parsed as %dx%d", bad[i], w, h);
}

TEST(variant_changes_the_video_only)
{
    mur_scene *s = scene_of("seed: 1\nmodel: wrkspc\nvideo: {width: 1000, height: 600, fps: 30, "
                            "duration: 2s, quality: 20}\n");
    REQUIRE(s, "scene");
    double tps = s->tps;
    mur_error err = {{0}};
    mur_variant v = MUR_VARIANT_INIT;
    v.fps = 12;
    v.quality = 30;
    v.draft = 1;
    REQUIRE(mur_scene_vary(s, &v, &err) == 0, "vary: %s", err.msg);
    CHECK(s->width == 500 && s->height == 300, "draft of 1000x600: %dx%d", s->width, s->height);
    CHECK(s->fps == 12 && mur_scene_frames(s) == 24, "fps %g, %ld frames", s->fps, mur_scene_frames(s));
    CHECK(s->quality == 30 && s->tps == tps, "quality %d, tps %g", s->quality, s->tps);
    /* the frame at 1 s shows the tick the scene's own frame at 1 s shows */
    CHECK(mur_scene_frame_tick(s, 12) == (long)tps, "frame 12 at tick %ld", mur_scene_frame_tick(s, 12));
    mur_variant big = MUR_VARIANT_INIT;
    big.width = 8192;
    big.height = 8192;
    big.fps = 240;
    s->duration = 36000;
    CHECK(mur_scene_vary(s, &big, &err) == MUR_EINPUT && s->width == 500,
          "an 8K 240 fps 10 h video was accepted (%dx%d)", s->width, s->height);
    mur_scene_destroy(s);
}

TEST(render_size_fps_quality_draft_from_the_command_line)
{
    /* own copies: scratch_path's buffers are reused by murmur() */
    char scene[256], out[256], png[256];
    snprintf(scene, sizeof scene, "%s", scratch_path("variant.yaml"));
    snprintf(out, sizeof out, "%s", scratch_path("variant.mp4"));
    snprintf(png, sizeof png, "%s", scratch_path("variant.png"));
    write_file(scene, "seed: 2\nmodel: wrkspc\nflock: {count: 40}\n"
                      "video: {width: 320, height: 200, fps: 24, duration: 0.5s}\n");
    char args[1024], err[4096];
    test_video_info info;
    snprintf(args, sizeof args, "render %s -o %s -q --size 720p", scene, out);
    REQUIRE(murmur(args, err, sizeof err) == 0, "--size 720p: %s", err);
    REQUIRE(test_video_probe(out, &info) == 0, "probe");
    CHECK(info.width == 1280 && info.height == 720, "--size 720p gave %dx%d", info.width, info.height);
    CHECK(info.frames == 12, "%d frames, want 12", info.frames);

    snprintf(args, sizeof args, "render %s -o %s -q --size 400x300 --fps 10 --quality 30", scene, out);
    REQUIRE(murmur(args, err, sizeof err) == 0, "--size 400x300 --fps 10: %s", err);
    REQUIRE(test_video_probe(out, &info) == 0, "probe");
    CHECK(info.width == 400 && info.height == 300, "%dx%d", info.width, info.height);
    CHECK(info.frames == 5 && fabs(info.fps - 10) < 1e-6, "%d frames at %g fps, want 5 at 10",
          info.frames, info.fps);

    snprintf(args, sizeof args, "render %s -o %s -q --draft", scene, out);
    REQUIRE(murmur(args, err, sizeof err) == 0, "--draft: %s", err);
    REQUIRE(test_video_probe(out, &info) == 0, "probe");
    CHECK(info.width == 160 && info.height == 100, "--draft of 320x200 gave %dx%d", info.width, info.height);
    char comment[8192];
    CHECK(test_video_tag(out, "comment", comment, sizeof comment) == 0 &&
              strstr(comment, "output: 160x100, 24 fps, quality 20, preset ultrafast"),
          "--draft's provenance does not say the fastest preset: %.300s", comment);

    snprintf(args, sizeof args, "still %s --at 0.2s -o %s -q --size 360p", scene, png);
    REQUIRE(murmur(args, err, sizeof err) == 0, "still --size 360p: %s", err);
    cairo_surface_t *img = cairo_image_surface_create_from_png(png);
    CHECK(cairo_image_surface_get_width(img) == 640 && cairo_image_surface_get_height(img) == 360,
          "still --size 360p is %dx%d", cairo_image_surface_get_width(img),
          cairo_image_surface_get_height(img));
    cairo_surface_destroy(img);

    const char *bad[] = {"--size 720", "--size 0x0", "--fps 0", "--fps 300", "--quality 52",
                         "--quality x", "--fps 1.5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "render %s -o %s -q %s", scene, out, bad[i]);
        int st = murmur(args, err, sizeof err);
        CHECK(st == 2 && strstr(err, "murmur: --"), "%s: exit %d, %s", bad[i], st, err);
    }
    snprintf(args, sizeof args, "still %s --at 0s -o %s --fps 10", scene, png);
    CHECK(murmur(args, err, sizeof err) == 2, "still took --fps: %s", err);
}

TEST(overlay_text_is_at_least_11_pixels_at_360p)
{
    mur_scene *s = scene_of(DARK_SCENE ", overlays: [clock]}\n");
    REQUIRE(s, "scene");
    /* the clock, bottom right: "t = 0.0 s"; its digits are about 0.73 of
     * the font size high, so 11 px text has ink 8 or more rows high */
    cairo_surface_t *small = frame(s, 640, 360, 0), *big = frame(s, 3840, 2160, 0);
    REQUIRE(small && big, "frames");
    int hs = ink_rows(small, 480, 300, 640, 360), hb = ink_rows(big, 2880, 1800, 3840, 2160);
    CHECK(hs >= 8, "clock text at 360p is %d px high, want >= 8 (11 px font)", hs);
    CHECK(hb >= 34, "clock text at 4k is %d px high, want it scaled up (>= 34)", hb);
    cairo_surface_destroy(small);
    cairo_surface_destroy(big);
    mur_scene_destroy(s);
}

/* ---- item 2: the look on the timeline ------------------------------------ */

/* Bands of rows holding text (light pixels) in columns x0 .. x1: separate
 * lines or boxes of text count one each. */
static int text_bands(cairo_surface_t *img, int x0, int x1, int y0, int y1)
{
    int bands = 0, in = 0;
    for (int y = y0; y < y1; y++) {
        int lit = 0;
        for (int x = x0; x < x1 && !lit; x++)
            lit = green(img, x, y) > 160;
        bands += lit && !in;
        in = lit;
    }
    return bands;
}

/* Light pixels in the rectangle. */
static long lit_pixels(cairo_surface_t *img, int x0, int y0, int x1, int y1, int level)
{
    long n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            n += green(img, x, y) > level;
    return n;
}

TEST(overlays_appear_and_vanish_at_their_times)
{
    mur_scene *s = scene_of(DARK_SCENE ", overlays: [readout, clock]}\n"
                            "video: {duration: 10s}\n"
                            "timeline:\n"
                            "  - {at: 1s, show: readout}\n"
                            "  - {at: 3s, hide: [readout, clock], over: 2s}\n"
                            "  - {at: 6s, show: clock}\n");
    REQUIRE(s, "scene");
    mur_moment m;
    double want[][3] = {{0.5, 0, 1}, {2, 1, 1}, {4, 0.5, 0.5}, {5.5, 0, 0}, {7, 0, 1}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        mur_scene_moment_at(s, want[i][0], &m);
        CHECK(fabs(m.overlay[MUR_OVERLAY_READOUT] - want[i][1]) < 1e-9 &&
                  fabs(m.overlay[MUR_OVERLAY_CLOCK] - want[i][2]) < 1e-9,
              "at %gs readout %g clock %g, want %g and %g", want[i][0], m.overlay[MUR_OVERLAY_READOUT],
              m.overlay[MUR_OVERLAY_CLOCK], want[i][1], want[i][2]);
    }
    CHECK(m.overlay[MUR_OVERLAY_PLOT] == 1 && m.fade == 0 && !m.title && !m.ncaptions,
          "what the timeline never names is shown, unfaded, untitled");
    /* and on the frame: the readout top left, the clock bottom right */
    double t[] = {0.5, 2, 4, 5.5};
    long readout[4], clock[4];
    for (int i = 0; i < 4; i++) {
        cairo_surface_t *img = frame(s, 640, 360, t[i]);
        REQUIRE(img, "frame at %gs", t[i]);
        readout[i] = lit_pixels(img, 0, 30, 200, 120, 128);
        clock[i] = 0;   /* the brightest pixel of the clock's text */
        for (int y = 300; y < 360; y++)
            for (int x = 480; x < 640; x++)
                clock[i] = green(img, x, y) > clock[i] ? green(img, x, y) : clock[i];
        cairo_surface_destroy(img);
    }
    CHECK(readout[0] == 0 && readout[1] > 100 && readout[3] == 0, "readout pixels %ld, %ld, %ld",
          readout[0], readout[1], readout[3]);
    CHECK(clock[0] > 200 && clock[2] > 60 && clock[2] < 180 && clock[3] < 20,
          "clock's brightest pixel %ld, fading %ld, gone %ld", clock[0], clock[2], clock[3]);
    mur_scene_destroy(s);
}

TEST(captions_shown_together_do_not_overlap)
{
    const char *one = DARK_SCENE "}\ntimeline: [{at: 0s, caption: {text: \"First one\", for: 5s}}]\n";
    const char *both = DARK_SCENE "}\ntimeline: [{at: 0s, caption: {text: \"First one\", for: 5s}},\n"
                                  "  {at: 1s, caption: {text: \"Second\", for: 3s}}]\n";
    mur_scene *s1 = scene_of(one), *s2 = scene_of(both);
    REQUIRE(s1 && s2, "scenes");
    CHECK(!mur_scene_look(s1)->moment_at, "one caption at a time draws as it always did");
    cairo_surface_t *a = frame(s1, 640, 360, 2), *b = frame(s2, 640, 360, 2);
    REQUIRE(a && b, "frames");
    int na = text_bands(a, 100, 540, 0, 360), nb = text_bands(b, 100, 540, 0, 360);
    CHECK(na == 1 && nb == 2, "text bands: %d alone, %d for two captions (want 1 and 2)", na, nb);
    cairo_surface_destroy(a);
    cairo_surface_destroy(b);
    mur_scene_destroy(s1);
    mur_scene_destroy(s2);

    /* placed: at the top, and at a point given in fractions of the frame */
    mur_scene *s = scene_of(DARK_SCENE "}\ntimeline:\n"
                            "  - {at: 0s, caption: {text: \"Top\", position: top, size: 1.5}}\n"
                            "  - {at: 0s, caption: {text: \"Here\", position: [0.75, 0.5], align: left}}\n");
    REQUIRE(s, "scene");
    cairo_surface_t *img = frame(s, 640, 360, 1);
    REQUIRE(img, "frame");
    CHECK(lit_pixels(img, 220, 0, 420, 70, 160) > 100, "no caption at the top");
    CHECK(lit_pixels(img, 480, 150, 640, 210, 160) > 50, "no caption at (0.75, 0.5)");
    CHECK(lit_pixels(img, 0, 250, 640, 360, 160) == 0, "a caption at the bottom");
    cairo_surface_destroy(img);
    mur_scene_destroy(s);
}

TEST(title_card_and_fades_follow_the_timeline)
{
    mur_scene *s = scene_of(DARK_SCENE "}\nvideo: {duration: 10s}\n"
                            "timeline:\n"
                            "  - {at: 0s, title: {text: \"Boids\", subtitle: \"three rules\", for: 2s}}\n"
                            "  - {at: 0s, event: fade-in, over: 2s}\n"
                            "  - {at: 5s, event: fade-out}\n");
    REQUIRE(s, "scene");
    mur_moment m;
    mur_scene_moment_at(s, 0, &m);
    CHECK(m.fade == 1 && m.title && !strcmp(m.title, "Boids") && m.title_alpha == 1,
          "at 0s: fade %g, title %s at %g", m.fade, m.title ? m.title : "(none)", m.title_alpha);
    mur_scene_moment_at(s, 1, &m);
    CHECK(fabs(m.fade - 0.5) < 1e-9, "half-way through the fade-in: %g", m.fade);
    mur_scene_moment_at(s, 3, &m);
    CHECK(m.fade == 0 && !m.title, "at 3s: fade %g, title %s", m.fade, m.title ? m.title : "(none)");
    mur_scene_moment_at(s, 5.5, &m);
    CHECK(fabs(m.fade - 0.5) < 1e-9, "fade-out takes 1s unless told: %g at 5.5s", m.fade);
    mur_scene_moment_at(s, 9, &m);
    CHECK(m.fade == 1, "after a fade-out the background stays: %g", m.fade);
    mur_scene *st = scene_of("title: Flocks\ntimeline: [{at: 2s, event: title}]\n");
    REQUIRE(st, "scene");
    mur_scene_moment_at(st, 3, &m);
    CHECK(m.title && !strcmp(m.title, "Flocks") && !m.subtitle && m.title_alpha == 1,
          "event: title shows %s", m.title ? m.title : "(none)");
    mur_scene_moment_at(st, 5.5, &m);
    CHECK(!m.title, "event: title still showing after its 3s");
    mur_scene_destroy(st);
    /* drawn: the title at the centre, and a faded-out frame is background only */
    cairo_surface_t *t0 = frame(s, 640, 360, 0.5), *end = frame(s, 640, 360, 9);
    REQUIRE(t0 && end, "frames");
    CHECK(lit_pixels(t0, 220, 120, 420, 240, 200) > 200, "no title at the centre");
    CHECK(lit_pixels(end, 0, 0, 640, 360, 2) == 0, "the faded-out frame shows something");
    cairo_surface_destroy(t0);
    cairo_surface_destroy(end);
    mur_scene_destroy(s);
}

TEST(bad_look_entries_name_their_line)
{
    static const struct {
        const char *yaml, *want;
    } bad[] = {
        {"look: {overlays: [clock]}\ntimeline:\n  - {at: 1s, show: wach}\n", "test.yaml:3:"},
        {"look: {overlays: [clock]}\ntimeline:\n  - {at: 1s, show: [plot]}\n", "test.yaml:3:5: error: 'show' names the plot"},
        {"timeline:\n  - {at: 1s, caption: {text: a, position: [1.5, 0.5]}}\n", "test.yaml:2:"},
        {"timeline:\n  - {at: 1s, caption: {text: a, position: middle}}\n", "test.yaml:2:"},
        {"timeline:\n  - {at: 1s, event: title}\n", "test.yaml:2:5: error: 'event: title'"},
        {"timeline:\n  - {at: 1s, caption: a, over: 2s}\n", "test.yaml:2:"},
        {"timeline:\n  - {at: 1s, title: {subtitle: a}}\n", "test.yaml:2:"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mur_scene *s = NULL;
        mur_error err = {{0}};
        int rc = mur_scene_parse(&s, "test.yaml", bad[i].yaml, strlen(bad[i].yaml), &err);
        CHECK(rc == MUR_EINPUT && strstr(err.msg, bad[i].want), "%s: rc %d, %s", bad[i].yaml, rc, err.msg);
        mur_scene_destroy(s);
    }
}

/* ---- item 3: chapters and subtitles ------------------------------------ */

#include <libavformat/avformat.h>

static const char chapters_scene[] =
    "title: Chapters\nseed: 1\nmodel: wrkspc\nflock: {count: 30}\n"
    "video: {width: 160, height: 90, fps: 10, duration: 4s%s}\n"
    "timeline:\n"
    "  - at: 0s\n    chapter: \"Three rules\"\n    caption: {text: \"All three rules\", for: 1.5s}\n"
    "  - at: 2s\n    chapter: \"No alignment\"\n    set: {alignment: 0}\n"
    "    caption: \"No alignment: headings never agree\"\n"
    "  - at: 2.5s\n    caption: {text: \"a second line\", for: 1s, position: top}\n";

/* What libavformat reads back of a file: its chapters (ms) and the
 * packets of its first subtitle stream (start, duration in ms). */
typedef struct {
    int nchapters;
    long long ch_start[8], ch_end[8];
    char ch_title[8][64];
    int sub_codec;      /* AV_CODEC_ID_NONE: no subtitle stream */
    int npackets;
    long long pk_start[8], pk_len[8];
} texts_read;

static int read_texts(const char *path, texts_read *out)
{
    memset(out, 0, sizeof *out);
    AVFormatContext *fc = NULL;
    if (avformat_open_input(&fc, path, NULL, NULL) < 0)
        return -1;
    if (avformat_find_stream_info(fc, NULL) < 0) {
        avformat_close_input(&fc);
        return -1;
    }
    for (unsigned i = 0; i < fc->nb_chapters && i < 8; i++) {
        AVChapter *c = fc->chapters[i];
        out->ch_start[i] = av_rescale_q(c->start, c->time_base, (AVRational){1, 1000});
        out->ch_end[i] = av_rescale_q(c->end, c->time_base, (AVRational){1, 1000});
        AVDictionaryEntry *t = av_dict_get(c->metadata, "title", NULL, 0);
        snprintf(out->ch_title[i], sizeof out->ch_title[i], "%s", t ? t->value : "");
        out->nchapters++;
    }
    int sub = av_find_best_stream(fc, AVMEDIA_TYPE_SUBTITLE, -1, -1, NULL, 0);
    if (sub >= 0) {
        AVStream *st = fc->streams[sub];
        out->sub_codec = st->codecpar->codec_id;
        AVPacket *pkt = av_packet_alloc();
        while (pkt && av_read_frame(fc, pkt) >= 0) {
            /* an empty timed-text sample (2 bytes: length 0) is the muxer's gap */
            if (pkt->stream_index == sub && pkt->size > 2 && out->npackets < 8) {
                out->pk_start[out->npackets] = av_rescale_q(pkt->pts, st->time_base, (AVRational){1, 1000});
                out->pk_len[out->npackets++] = av_rescale_q(pkt->duration, st->time_base, (AVRational){1, 1000});
            }
            av_packet_unref(pkt);
        }
        av_packet_free(&pkt);
    }
    avformat_close_input(&fc);
    return 0;
}

TEST(chapters_and_subtitle_tracks_read_back_with_libavformat)
{
    char scene[256], text[2048], args[1024], err[4096];
    snprintf(scene, sizeof scene, "%s", scratch_path("chapters.yaml"));
    snprintf(text, sizeof text, chapters_scene, "");
    write_file(scene, text);
    static const struct {
        const char *ext;
        int codec;
    } formats[] = {{"mp4", AV_CODEC_ID_MOV_TEXT}, {"mov", AV_CODEC_ID_MOV_TEXT}, {"webm", AV_CODEC_ID_WEBVTT}};
    for (size_t f = 0; f < 3; f++) {
        char out[256];
        snprintf(out, sizeof out, "%s/chapters.%s", scratch(), formats[f].ext);
        snprintf(args, sizeof args, "render %s -o %s -q --preset ultrafast --subtitles=embed", scene, out);
        REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
        texts_read r;
        REQUIRE(read_texts(out, &r) == 0, "cannot read %s", out);
        CHECK(r.nchapters == 2, "%s: %d chapters", out, r.nchapters);
        CHECK(!strcmp(r.ch_title[0], "Three rules") && !strcmp(r.ch_title[1], "No alignment"),
              "%s: chapters '%s', '%s'", out, r.ch_title[0], r.ch_title[1]);
        CHECK(r.ch_start[0] == 0 && r.ch_end[0] == 2000 && r.ch_start[1] == 2000 && r.ch_end[1] == 4000,
              "%s: chapters %lld-%lld, %lld-%lld ms", out, r.ch_start[0], r.ch_end[0], r.ch_start[1],
              r.ch_end[1]);
        CHECK(r.sub_codec == formats[f].codec, "%s: subtitle codec %d, want %d", out, r.sub_codec,
              formats[f].codec);
        /* WebVTT cues overlap as the captions do; timed text shows one
         * sample at a time, so the overlap is a sample of its own */
        static const long long vtt[][2] = {{0, 1500}, {2000, 2000}, {2500, 1000}};
        static const long long tx3g[][2] = {{0, 1500}, {2000, 500}, {2500, 1000}, {3500, 500}};
        int webm = formats[f].codec == AV_CODEC_ID_WEBVTT, want = webm ? 3 : 4;
        CHECK(r.npackets == want, "%s: %d subtitle packets, want %d", out, r.npackets, want);
        for (int k = 0; k < want && k < r.npackets; k++) {
            const long long *w = webm ? vtt[k] : tx3g[k];
            CHECK(r.pk_start[k] == w[0] && r.pk_len[k] == w[1], "%s: packet %d at %lld+%lld ms, want %lld+%lld",
                  out, k, r.pk_start[k], r.pk_len[k], w[0], w[1]);
        }
    }
    /* a part starts its chapters and subtitles at its own first frame */
    char part[256];
    snprintf(part, sizeof part, "%s/part.mp4", scratch());
    snprintf(args, sizeof args, "render %s -o %s -q --preset ultrafast --from 1s --subtitles=embed", scene, part);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    texts_read r;
    REQUIRE(read_texts(part, &r) == 0, "cannot read %s", part);
    CHECK(r.nchapters == 2 && r.ch_start[0] == 0 && r.ch_end[0] == 1000 && r.ch_start[1] == 1000,
          "part: %d chapters, %lld-%lld, %lld", r.nchapters, r.ch_start[0], r.ch_end[0], r.ch_start[1]);
    CHECK(r.npackets == 4 && r.pk_start[0] == 0 && r.pk_len[0] == 500, "part: %d packets, first %lld+%lld",
          r.npackets, r.pk_start[0], r.pk_len[0]);
    /* and a scene without chapters or subtitles has none */
    snprintf(args, sizeof args, "render %s -o %s -q --preset ultrafast",
             scratch_path("variant.yaml"), part);
    write_file(scratch_path("variant.yaml"), "seed: 2\nmodel: wrkspc\nvideo: {width: 64, height: 64, duration: 0.2s}\n");
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    REQUIRE(read_texts(part, &r) == 0, "cannot read %s", part);
    CHECK(r.nchapters == 0 && r.sub_codec == AV_CODEC_ID_NONE, "plain: %d chapters, codec %d", r.nchapters,
          r.sub_codec);
    /* a GIF has no subtitle track: refused */
    snprintf(args, sizeof args, "render %s -o %s/x.gif -q --subtitles=embed", scene, scratch());
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "subtitle track"), "gif: %s", err);
}

/* "00:01:02,345" -> milliseconds; -1 when it is not one. */
static long long srt_time(const char *s)
{
    int h, m, sec, ms, n = 0;
    if (sscanf(s, "%2d:%2d:%2d,%3d%n", &h, &m, &sec, &ms, &n) != 4 || n != 12)
        return -1;
    return ((h * 60LL + m) * 60 + sec) * 1000 + ms;
}

TEST(srt_and_vtt_beside_the_video_hold_the_captions_at_their_times)
{
    char scene[256], text[2048], args[1024], err[4096], out[256];
    snprintf(scene, sizeof scene, "%s", scratch_path("subs.yaml"));
    snprintf(text, sizeof text, chapters_scene, ", chapters: captions");
    write_file(scene, text);
    snprintf(out, sizeof out, "%s/subs.mp4", scratch());
    snprintf(args, sizeof args, "render %s -o %s -q --preset ultrafast --subtitles", scene, out);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    mur_scene *s = NULL;
    mur_error e;
    REQUIRE(mur_scene_load(&s, scene, &e) == 0, "%s", e.msg);
    char path[256];
    snprintf(path, sizeof path, "%s/subs.srt", scratch());
    char *srt = test_slurp(path, NULL);
    REQUIRE(srt, "no %s", path);
    /* parse: blocks of index, "start --> end", text lines, a blank line */
    int cue = 0;
    char *save = NULL;
    for (char *block = strtok_r(srt, "\n", &save); block; block = strtok_r(NULL, "\n", &save)) {
        int index = atoi(block);
        char *times = strtok_r(NULL, "\n", &save), *line = strtok_r(NULL, "\n", &save);
        REQUIRE(times && line, "cue %d is cut short", index);
        while (cue < s->ncues && !s->cues[cue].caption)
            cue++;
        REQUIRE(cue < s->ncues, "more cues in the .srt than captions in the scene");
        const mur_cue *q = &s->cues[cue++];
        long long a = srt_time(times), b = strstr(times, " --> ") ? srt_time(strstr(times, " --> ") + 5) : -1;
        double end = fmin(q->at + q->caption_for, s->duration);   /* clipped at the video's end */
        CHECK(a == llround(q->at * 1000) && b == llround(end * 1000), "cue %d: %s, want %g s to %g s",
              index, times, q->at, end);
        CHECK(!strcmp(line, q->caption), "cue %d: '%s', want '%s'", index, line, q->caption);
    }
    CHECK(cue == 3, "the .srt holds %d captions, want 3", cue);
    free(srt);
    snprintf(path, sizeof path, "%s/subs.vtt", scratch());
    char *vtt = test_slurp(path, NULL);
    CHECK(vtt && !strncmp(vtt, "WEBVTT\n\n", 8) && strstr(vtt, "00:00:02.500 --> 00:00:03.500\na second line\n"),
          "the .vtt: %.200s", vtt ? vtt : "(none)");
    free(vtt);
    /* video.chapters: captions adds a chapter at 2.5 s (those at 0 s and 2 s
     * are the entries' own) */
    texts_read r;
    REQUIRE(read_texts(out, &r) == 0, "cannot read %s", out);
    CHECK(r.nchapters == 3 && r.ch_start[2] == 2500 && !strcmp(r.ch_title[2], "a second line"),
          "%d chapters, the third at %lld: '%s'", r.nchapters, r.ch_start[2], r.ch_title[2]);
    mur_scene_destroy(s);
}

/* ---- item 6: small things ------------------------------------------------- */

TEST(png_sequence_creates_its_folder)
{
    char scene[256], args[1024], err[4096], first[256];
    snprintf(scene, sizeof scene, "%s", scratch_path("seq.yaml"));
    write_file(scene, "seed: 2\nmodel: wrkspc\nflock: {count: 10}\nvideo: {width: 64, height: 48, fps: 10, duration: 0.3s}\n");
    snprintf(args, sizeof args, "render %s -o %s/new/deeper/f%%03d.png -q", scene, scratch());
    int st = murmur(args, err, sizeof err);
    CHECK(st == 0, "exit %d: %s", st, err);
    snprintf(first, sizeof first, "%s/new/deeper/f002.png", scratch());
    FILE *fp = fopen(first, "rb");
    CHECK(fp != NULL, "no %s", first);
    if (fp)
        fclose(fp);
    /* a file in the way is still an error */
    write_file(scratch_path("blocker"), "x");
    snprintf(args, sizeof args, "render %s -o %s/blocker/f%%03d.png -q", scene, scratch());
    st = murmur(args, err, sizeof err);
    CHECK(st == 1 && strstr(err, "cannot write"), "exit %d: %s", st, err);
}

TEST(check_warns_of_entries_past_the_end_overlapping_captions_and_rounding)
{
    char scene[256], args[1024], err[4096];
    snprintf(scene, sizeof scene, "%s", scratch_path("warn.yaml"));
    write_file(scene, "seed: 1\nmodel: wrkspc\n"
                      "video: {width: 321, height: 200, duration: 5s, output: out/w.mp4}\n"
                      "timeline:\n"
                      "  - {at: 1s, caption: {text: a, for: 3s}}\n"
                      "  - {at: 2s, caption: b}\n"
                      "  - {at: 2s, caption: {text: c, position: top}}\n"
                      "  - {at: 6s, set: {alignment: 0}}\n");
    snprintf(args, sizeof args, "check %s --at 9s", scene);
    int st = murmur(args, err, sizeof err);
    CHECK(st == 0, "check exit %d: %s", st, err);
    CHECK(strstr(err, "warn.yaml:8:5: warning: this entry at 6s is past the end"), "no past-the-end warning: %s", err);
    CHECK(strstr(err, "warn.yaml:6:5: warning: this caption (at 2s) overlaps the one on line 5"),
          "no overlap warning: %s", err);
    CHECK(!strstr(err, "warn.yaml:7:5"), "a caption at the top warned of overlapping the bottom's: %s", err);
    CHECK(strstr(err, "warn.yaml:3:") && strstr(err, "321x200 frames will be rounded down to 320x200"),
          "no rounding warning: %s", err);
    CHECK(strstr(err, "murmur: warning: --at 9s is past the end of the video (5s)"), "no --at warning: %s", err);
    /* a scene with none of these: no warning */
    write_file(scene, "seed: 1\nmodel: wrkspc\nvideo: {width: 320, height: 200, duration: 5s}\n"
                      "timeline: [{at: 1s, caption: a}]\n");
    snprintf(args, sizeof args, "check %s --at 4s", scene);
    st = murmur(args, err, sizeof err);
    CHECK(st == 0 && !strstr(err, "warning"), "exit %d: %s", st, err);
}

/* A caption's line break is shown as \n in check's timeline table: printed
 * raw it split the row and broke the columns (issue 31). */
TEST(check_shows_a_captions_line_break_as_backslash_n)
{
    char scene[256], args[1024], err[4096];
    snprintf(scene, sizeof scene, "%s", scratch_path("newline.yaml"));
    write_file(scene, "seed: 1\nmodel: wrkspc\nvideo: {width: 320, height: 200, duration: 5s}\n"
                      "timeline:\n"
                      "  - {at: 1s, caption: \"two\\nlines\", title: \"a\\tb\"}\n"
                      "  - {at: 2s, chapter: \"say \\\"hi\\\"\"}\n");
    snprintf(args, sizeof args, "check %s", scene);
    int st = murmur(args, err, sizeof err);
    CHECK(st == 0, "check exit %d: %s", st, err);
    size_t n = 0;
    char *out = test_slurp(scratch_path("stderr.txt.out"), &n);
    REQUIRE(out, "no stdout captured");
    CHECK(strstr(out, "caption \"two\\nlines\""), "the caption is not shown as two\\nlines: %s", out);
    CHECK(strstr(out, "title \"a\\tb\""), "the title's tab is not shown as \\t: %s", out);
    CHECK(strstr(out, "chapter \"say \\\"hi\\\"\""), "the chapter's quotes are not escaped: %s", out);
    CHECK(!strstr(out, "two\nlines"), "a raw line break is in the table: %s", out);
    free(out);
}

TEST(a_mistyped_command_gets_a_did_you_mean)
{
    char err[4096];
    int st = murmur("rendr x.yaml", err, sizeof err);
    CHECK(st == 2 && strstr(err, "unknown command 'rendr' (did you mean 'render'?)"), "exit %d: %s", st, err);
    st = murmur("help chekc", err, sizeof err);
    CHECK(st == 2 && strstr(err, "(did you mean 'check'?)"), "exit %d: %s", st, err);
    st = murmur("frobnicate", err, sizeof err);
    CHECK(st == 2 && strstr(err, "unknown command 'frobnicate'") && !strstr(err, "did you mean"),
          "exit %d: %s", st, err);
}

/* Largest alpha of any pixel (premultiplied ARGB32: the top byte). */
static int max_alpha(cairo_surface_t *img)
{
    const unsigned char *d = cairo_image_surface_get_data(img);
    int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img), m = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int a = (int)(*(const uint32_t *)(d + (size_t)y * cairo_image_surface_get_stride(img) + 4 * (size_t)x) >> 24);
            m = a > m ? a : m;
        }
    return m;
}

TEST(a_transparent_look_fades_out_to_clear)
{
    mur_scene *s = scene_of("seed: 1\nmodel: wrkspc\nflock: {count: 30}\nvideo: {duration: 5s}\n"
                            "look: {background: \"#ffffff00\", boid: {size: 12, color: \"#1f4e79\"}}\n"
                            "timeline: [{at: 1s, event: fade-out, over: 1s}]\n");
    REQUIRE(s, "scene");
    REQUIRE(mur_scene_look(s)->transparent, "the look is not transparent");
    cairo_surface_t *before = frame(s, 320, 180, 0.5), *half = frame(s, 320, 180, 1.5),
                    *after = frame(s, 320, 180, 3);
    REQUIRE(before && half && after, "frames");
    int a0 = max_alpha(before), a1 = max_alpha(half), a2 = max_alpha(after);
    CHECK(a0 == 255 && a1 > 100 && a1 < 160 && a2 == 0,
          "boids' alpha %d before, %d half-way, %d after the fade (want 255, about 128, 0)", a0, a1, a2);
    cairo_surface_destroy(before);
    cairo_surface_destroy(half);
    cairo_surface_destroy(after);
    mur_scene_destroy(s);
}
