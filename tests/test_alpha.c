/* Transparent output (docs/scenes.md "Transparent output"): a scene whose
 * background has alpha renders to .mov (ProRes 4444), .webm (VP9 with
 * alpha), .webp (animated WebP), PNG sequences and PNG stills that decode
 * with alpha, a background pixel clear and a boid opaque; .mp4 and .gif
 * are refused with exit 2 naming the line. Decoded here with libavcodec
 * directly (VP9's alpha needs the libvpx decoder: the native one drops it),
 * an animated WebP with libwebp's own decoder (decode.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include "cli_util.h"
#include "decode.h"
#include "harness.h"

/* Frame `index` of path as straight RGBA (w x h x 4, caller frees), and the
 * decoder's pixel format name in fmt; NULL when it cannot be decoded. */
static uint8_t *decode_rgba(const char *path, int index, int *w, int *h, char *fmt, size_t n)
{
    size_t len = strlen(path);
    if (len > 5 && !strcmp(path + len - 5, ".webp")) {   /* libavformat 5.1 has no animated WebP demuxer */
        uint8_t *rgba = NULL;
        snprintf(fmt, n, "rgba");
        return test_webp_frame_rgba(path, index, &rgba, w, h) == 0 ? rgba : NULL;
    }
    AVFormatContext *in = NULL;
    AVCodecContext *dec = NULL;
    AVPacket *pkt = av_packet_alloc();
    AVFrame *fr = av_frame_alloc();
    uint8_t *out = NULL;
    int seen = 0;
    av_log_set_level(AV_LOG_ERROR);   /* libvpx announces its version */
    if (!pkt || !fr || avformat_open_input(&in, path, NULL, NULL) < 0 ||
        avformat_find_stream_info(in, NULL) < 0)
        goto done;
    int si = av_find_best_stream(in, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (si < 0)
        goto done;
    AVCodecParameters *par = in->streams[si]->codecpar;
    const AVCodec *codec = par->codec_id == AV_CODEC_ID_VP9 ? avcodec_find_decoder_by_name("libvpx-vp9")
                                                             : avcodec_find_decoder(par->codec_id);
    if (!codec || !(dec = avcodec_alloc_context3(codec)) || avcodec_parameters_to_context(dec, par) < 0 ||
        avcodec_open2(dec, codec, NULL) < 0)
        goto done;
    int eof = 0;
    while (!out) {
        int got = avcodec_receive_frame(dec, fr);
        if (got == 0) {
            if (seen++ < index)
                continue;
            *w = fr->width;
            *h = fr->height;
            snprintf(fmt, n, "%s", av_get_pix_fmt_name(fr->format));
            struct SwsContext *sws = sws_getContext(fr->width, fr->height, fr->format, fr->width,
                                                    fr->height, AV_PIX_FMT_RGBA, SWS_POINT, NULL, NULL, NULL);
            const int *bt709 = sws_getCoefficients(SWS_CS_ITU709);   /* what murmur tags and converts with */
            if (sws)
                sws_setColorspaceDetails(sws, bt709, fr->color_range == AVCOL_RANGE_JPEG, bt709, 1, 0,
                                         1 << 16, 1 << 16);
            out = malloc((size_t)fr->width * fr->height * 4);
            uint8_t *dst[4] = {out, NULL, NULL, NULL};
            int ds[4] = {fr->width * 4, 0, 0, 0};
            if (sws && out)
                sws_scale(sws, (const uint8_t *const *)fr->data, fr->linesize, 0, fr->height, dst, ds);
            sws_freeContext(sws);
            break;
        }
        if (got != AVERROR(EAGAIN) || eof)
            break;
        int rd = av_read_frame(in, pkt);
        if (rd < 0) {
            eof = 1;
            avcodec_send_packet(dec, NULL);
            continue;
        }
        if (pkt->stream_index == si)
            avcodec_send_packet(dec, pkt);
        av_packet_unref(pkt);
    }
done:
    avcodec_free_context(&dec);
    avformat_close_input(&in);
    av_packet_free(&pkt);
    av_frame_free(&fr);
    return out;
}

static const char *scene_text =
    "seed: 2\n"
    "world: {width: 320, height: 180, boundary: wrap}\n"
    "flock: {count: 40}\n"
    "video: {width: 320, height: 180, fps: 30, duration: 0.5s}\n"
    "look: {background: \"#0b0d0f00\", boid: {shape: dot, size: 14, color: \"#ff8000\"}}\n";

/* A render to out decodes with an alpha plane: the corner (background) is
 * clear, and the most opaque pixel is a fully opaque orange boid. */
static void renders_with_alpha(const char *name, const char *first, const char *want_fmt)
{
    const char *scene = scratch_path("alpha.yaml"), *out = scratch_path(name);
    write_file(scene, scene_text);
    char args[600], err[2048], fmt[64] = "";
    snprintf(args, sizeof args, "render -q %s -o %s", scene, out);
    CHECK(murmur(args, err, sizeof err) == 0, "%s: %s", name, err);
    int w = 0, h = 0;
    uint8_t *px = decode_rgba(first ? scratch_path(first) : out, first ? 0 : 3, &w, &h, fmt, sizeof fmt);
    REQUIRE(px, "%s: cannot decode", name);
    CHECK(strstr(fmt, want_fmt) != NULL, "%s decodes as %s, not %s", name, fmt, want_fmt);
    CHECK(w == 320 && h == 180, "%dx%d", w, h);
    CHECK(px[3] == 0, "%s: a background pixel has alpha %d", name, px[3]);
    int best = 0;
    long clear = 0;
    for (int i = 0; i < w * h; i++) {
        clear += px[4 * i + 3] == 0;
        if (px[4 * i + 3] > px[4 * best + 3])
            best = i;
    }
    const uint8_t *b = px + 4 * best;
    CHECK(b[3] >= 250 && b[0] > 200 && b[1] > 90 && b[1] < 170 && b[2] < 60,
          "%s: the most opaque pixel is %d,%d,%d,%d (an orange boid?)", name, b[0], b[1], b[2], b[3]);
    CHECK(clear > w * h / 2, "%s: only %ld clear pixels", name, clear);
    free(px);
}

TEST(a_transparent_scene_renders_prores_4444_with_alpha)
{
    renders_with_alpha("alpha.mov", NULL, "yuva444p");
}

TEST(a_transparent_scene_renders_vp9_with_alpha)
{
    renders_with_alpha("alpha.webm", NULL, "yuva420p");
}

TEST(a_transparent_scene_renders_webp_with_alpha)
{
    renders_with_alpha("alpha.webp", NULL, "rgba");
}

/* The same scene on an opaque background: every pixel of the WebP is
 * opaque (libwebp writes no alpha for opaque frames). */
TEST(an_opaque_scene_renders_an_opaque_webp)
{
    const char *scene = scratch_path("opaque.yaml"), *out = scratch_path("opaque.webp");
    char text[1024];
    snprintf(text, sizeof text, "%s", scene_text);
    memcpy(strstr(text, "#0b0d0f00"), "#0b0d0fff", 9);
    write_file(scene, text);
    char args[600], err[2048], fmt[64];
    snprintf(args, sizeof args, "render -q %s -o %s", scene, out);
    CHECK(murmur(args, err, sizeof err) == 0, "%s", err);
    int w = 0, h = 0, least = 255;
    uint8_t *px = decode_rgba(out, 3, &w, &h, fmt, sizeof fmt);
    REQUIRE(px, "cannot decode %s", out);
    for (int i = 0; i < w * h; i++)
        least = px[4 * i + 3] < least ? px[4 * i + 3] : least;
    CHECK(least == 255, "a pixel has alpha %d", least);
    free(px);
}

/* WebP keeps alpha losslessly, through the animation encoder's frame
 * differences too: every frame's alpha is the PNG sequence's exactly. */
TEST(a_translucent_webp_has_the_png_sequences_alpha_in_every_frame)
{
    char scene[256], webp[256];
    snprintf(scene, sizeof scene, "%s", scratch_path("alpha-all.yaml"));
    snprintf(webp, sizeof webp, "%s", scratch_path("alpha-all.webp"));
    write_file(scene, scene_text);
    mkdir(scratch_path("all"), 0777);
    char args[600], err[2048], fmt[64];
    snprintf(args, sizeof args, "render -q %s -o %s", scene, webp);
    CHECK(murmur(args, err, sizeof err) == 0, "webp: %s", err);
    snprintf(args, sizeof args, "render -q %s -o %s", scene, scratch_path("all/%03d.png"));
    CHECK(murmur(args, err, sizeof err) == 0, "png: %s", err);
    int frames = 0, worst = 0;
    for (int k = 0; k < 15; k++) {   /* 0.5 s at 30 fps */
        char png[64];
        snprintf(png, sizeof png, "all/%03d.png", k);
        int w = 0, h = 0, pw = 0, ph = 0;
        uint8_t *a = decode_rgba(webp, k, &w, &h, fmt, sizeof fmt);
        uint8_t *b = decode_rgba(scratch_path(png), 0, &pw, &ph, fmt, sizeof fmt);
        REQUIRE(a && b && w == pw && h == ph, "frame %d: cannot decode both", k);
        for (int i = 0; i < w * h; i++)
            worst = abs(a[4 * i + 3] - b[4 * i + 3]) > worst ? abs(a[4 * i + 3] - b[4 * i + 3]) : worst;
        frames++;
        free(a);
        free(b);
    }
    CHECK(frames == 15 && worst == 0, "%d frames; alpha differs by up to %d", frames, worst);
}

TEST(a_transparent_scene_renders_rgba_pngs)
{
    mkdir(scratch_path("seq"), 0777);
    renders_with_alpha("seq/%03d.png", "seq/003.png", "rgba");
}

TEST(a_transparent_still_is_an_rgba_png_with_a_clear_background)
{
    const char *scene = scratch_path("alpha-still.yaml"), *out = scratch_path("alpha-still.png");
    write_file(scene, scene_text);
    char args[600], err[2048], fmt[64] = "";
    snprintf(args, sizeof args, "still %s --at 0.1s -o %s", scene, out);
    CHECK(murmur(args, err, sizeof err) == 0, "%s", err);
    int w = 0, h = 0;
    uint8_t *px = decode_rgba(out, 0, &w, &h, fmt, sizeof fmt);
    REQUIRE(px, "cannot decode the still");
    CHECK(!strcmp(fmt, "rgba") && px[3] == 0, "%s, corner alpha %d", fmt, px[3]);
    free(px);
}

/* Alpha asked of a format without it: exit 2 at the line that asked. */
TEST(alpha_for_mp4_or_gif_is_refused_naming_the_line)
{
    const char *scene = scratch_path("alpha-bad.yaml");
    write_file(scene, scene_text);
    char args[600], err[2048], want[300];
    snprintf(want, sizeof want, "%s:5:20: error: .mp4 (H.264) has no alpha channel", scene);
    snprintf(args, sizeof args, "render -q %s -o %s", scene, scratch_path("alpha-bad.mp4"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, want), "mp4: %s", err);
    snprintf(want, sizeof want, "%s:5:20: error: .gif", scene);
    snprintf(args, sizeof args, "render -q %s -o %s", scene, scratch_path("alpha-bad.gif"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, want), "gif: %s", err);
    /* the scene's own output: the line of video.output */
    char text[1024];
    snprintf(text, sizeof text, "%svideo: {output: x.mp4}\n", scene_text);
    text[strstr(text, "video: {width") - text] = '#';   /* one video key */
    write_file(scene, text);
    snprintf(want, sizeof want, "%s:6:17: error: .mp4", scene);
    snprintf(args, sizeof args, "check %s", scene);
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, want), "check: %s", err);
    CHECK(access(scratch_path("alpha-bad.mp4"), F_OK) != 0, "a refused render left a file");
}

/* The check applies to the output actually written: a scene whose own
 * video.output is .mp4 renders translucent with -o x.mov or -o x.webm (it
 * was refused at video.output's line, which -o does not write), and still
 * refuses -o x.mp4. */
TEST(alpha_is_checked_on_the_output_written_not_the_scenes)
{
    char scene[256];   /* scratch_path's buffers rotate: keep our own */
    snprintf(scene, sizeof scene, "%s", scratch_path("alpha-mp4.yaml"));
    char text[1024];
    snprintf(text, sizeof text, "%svideo: {width: 320, height: 180, fps: 30, duration: 0.2s, output: x.mp4}\n",
             scene_text);
    text[strstr(text, "video: {width") - text] = '#';   /* one video key */
    write_file(scene, text);
    const char *outs[3] = {"over.mov", "over.webm", "over.webp"};
    char args[600], err[2048];
    for (int i = 0; i < 3; i++) {
        snprintf(args, sizeof args, "render -q %s -o %s", scene, scratch_path(outs[i]));
        CHECK(murmur(args, err, sizeof err) == 0, "-o %s: %s", outs[i], err);
        struct stat st;
        CHECK(stat(scratch_path(outs[i]), &st) == 0 && st.st_size > 0, "%s not written", outs[i]);
    }
    snprintf(args, sizeof args, "render -q %s -o %s", scene, scratch_path("over.mp4"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, ".mp4 (H.264) has no alpha channel"), "mp4: %s",
          err);
}

/* Half-transparent red is written straight (255, 0, 0, 128), not as
 * Cairo's premultiplied (128, 0, 0, 128): in a PNG exactly, through
 * ProRes's and lossy WebP's YUV within a few levels (WebP's alpha is
 * lossless: exactly 128). */
TEST(translucent_colours_are_written_unpremultiplied)
{
    char scene[256];   /* scratch_path's buffers rotate: keep our own */
    snprintf(scene, sizeof scene, "%s", scratch_path("half.yaml"));
    write_file(scene, "world: {width: 160, height: 90}\n"
                      "flock: {count: 0}\n"
                      "video: {width: 160, height: 90, fps: 30, duration: 0.2s}\n"
                      "look: {background: \"#ff000080\"}\n");
    mkdir(scratch_path("half"), 0777);
    const char *outs[3] = {"half/%03d.png", "half.mov", "half.webp"};
    const char *firsts[3] = {"half/000.png", "half.mov", "half.webp"};
    for (int k = 0; k < 3; k++) {
        char args[600], err[2048], fmt[64];
        snprintf(args, sizeof args, "render -q %s -o %s", scene, scratch_path(outs[k]));
        CHECK(murmur(args, err, sizeof err) == 0, "%s: %s", outs[k], err);
        int w = 0, h = 0, tol = k ? 6 : 0;
        uint8_t *px = decode_rgba(scratch_path(firsts[k]), 0, &w, &h, fmt, sizeof fmt);
        REQUIRE(px, "%s: cannot decode", outs[k]);
        const uint8_t *p = px + 4 * (45 * w + 80);
        CHECK(abs(p[0] - 255) <= tol && p[1] <= tol && p[2] <= tol && abs(p[3] - 128) <= 1,
              "%s: %d,%d,%d,%d (want 255,0,0,128)", outs[k], p[0], p[1], p[2], p[3]);
        free(px);
    }
}
