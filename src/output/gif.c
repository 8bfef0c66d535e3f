/* The GIF sink: one 256-colour palette for the whole video, computed from
 * every frame, as libavfilter's palettegen and paletteuse do it.
 *
 * A palette made from all frames can only be applied once all frames have
 * been seen, so this is two passes, and memory must not grow with the
 * video's length:
 * - while frames arrive, each goes into palettegen (which keeps a colour
 *   histogram, not the frame) and, losslessly compressed with QuickTime
 *   Animation (qtrle: run lengths of the lines that changed, which on a
 *   painted background is about as small as FFV1 at a fraction of its time
 *   and memory), into an intermediate file beside the output, unlinked as
 *   soon as it is created so that nothing of it outlives the process, even
 *   after kill -9;
 * - at close, palettegen yields the palette, the intermediate is decoded
 *   frame by frame through paletteuse into the GIF encoder and muxer, under
 *   a temporary name renamed when complete (mur_atomic, murmur/file.h).
 * paletteuse maps each colour to its nearest palette entry without
 * dithering. Flat boids, lines and text on a painted background need none
 * (256 colours chosen from the whole video cover them), dither patterns
 * would crawl from frame to frame and compress worse, and paletteuse caches
 * every distinct colour it has mapped: dithering perturbs each pixel's
 * colour, so that cache grew by about a frame's worth of memory per frame.
 * The provenance text goes into a GIF comment extension after the header,
 * where libavformat's GIF reader (and exiftool) find it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libswscale/swscale.h>

#include "murmur/file.h"
#include "murmur/alloc.h"
#include "sink.h"

typedef struct gif_sink {
    const mur_format *f;
    mur_atomic file;          /* the GIF: file.path, written as file.tmp (murmur/file.h) */
    char *comment;            /* provenance, or NULL */
    int width, height, fps;
    char gen_opts[128], use_opts[128];   /* palettegen's and paletteuse's: colours, dither */
    long count;               /* frames received */
    int broken;
    _Atomic int64_t *bytes;
    const AVCodec *gif_codec; /* found at open, so a missing encoder fails early */
    /* pass 1 */
    FILE *frames;             /* the unlinked intermediate: [int64 size][qtrle packet]... */
    AVCodecContext *rle;      /* qtrle, RGB24 */
    struct SwsContext *sws;   /* Cairo's BGRA to RGB24: a byte shuffle, exact */
    AVFrame *rgb;             /* what the intermediate encoder is fed */
    AVFilterGraph *gen_graph;
    AVFilterContext *gen_src, *gen_sink;
    AVFrame *frame;           /* the caller's pixels, as a refcounted frame */
    AVPacket *pkt;
} gif_sink;

/* Options of the two filters. reserve_transparent=0: frames are opaque, so
 * all 256 entries go to colours. diff_mode=rectangle re-maps only the part
 * of a frame that changed, which also keeps still regions bit-identical. */
#define PALETTEGEN_OPTS "max_colors=%d:reserve_transparent=0:stats_mode=full"
#define PALETTEUSE_OPTS "dither=%s:diff_mode=rectangle"
/* paletteuse's names of MUR_GIF_DITHER_* (bayer at its default scale) */
static const char *const dither_names[] = {"none", "bayer", "floyd_steinberg", "sierra2_4a"};

static void destroy(gif_sink *s)
{
    if (!s)
        return;
    mur_atomic_abort(&s->file);
    if (s->frames)
        fclose(s->frames);
    avcodec_free_context(&s->rle);
    sws_freeContext(s->sws);
    av_frame_free(&s->rgb);
    avfilter_graph_free(&s->gen_graph);
    av_frame_free(&s->frame);
    av_packet_free(&s->pkt);
    mur_free(s->comment);
    mur_free(s);
}

/* A filter by name, or NULL with err saying the libav build lacks it. */
static AVFilterContext *add_filter(AVFilterGraph *g, const char *name, const char *args,
                                   const char *path, mur_error *err)
{
    AVFilterContext *ctx = NULL;
    const AVFilter *filter = avfilter_get_by_name(name);
    if (!filter) {
        mur_error_set(err, MUR_ERUN,
                      "cannot write '%s': the '%s' filter is not in this machine's libav build",
                      path, name);
        return NULL;
    }
    int ret = avfilter_graph_create_filter(&ctx, filter, name, args, NULL, g);
    if (ret < 0) {
        mur_error_set(err, MUR_ERUN, "cannot set up the '%s' filter for '%s': %s", name, path,
                      av_err2str(ret));
        return NULL;
    }
    return ctx;
}

/* A buffer source of w x h frames of pix_fmt. */
static AVFilterContext *add_source(AVFilterGraph *g, int w, int h, enum AVPixelFormat pix_fmt,
                                   int fps, const char *path, mur_error *err)
{
    char args[128];
    snprintf(args, sizeof args, "video_size=%dx%d:pix_fmt=%d:time_base=1/%d:pixel_aspect=1/1", w,
             h, (int)pix_fmt, fps);
    return add_filter(g, "buffer", args, path, err);
}

/* Sends frame (NULL: end) into palettegen and runs the graph at once
 * (FLAG_PUSH), so the frame is counted and released now rather than queued
 * inside the graph until someone asks for output: memory stays flat. The
 * frame keeps its own reference. */
static int push(AVFilterContext *src, AVFrame *frame)
{
    return av_buffersrc_add_frame_flags(src, frame,
                                        AV_BUFFERSRC_FLAG_KEEP_REF | AV_BUFFERSRC_FLAG_PUSH);
}

/* Creates the intermediate (s->frames) beside the output, where it is on
 * the same disk and a missing or read-only folder fails now rather than
 * after the last frame, and unlinks it at once. */
static int open_frames(gif_sink *s, const char *path, mur_error *err)
{
    char *name = mur_out_temp_name(path, ".frames");
    if (!name)
        return mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", path);
    mur_file_sweep_temps(path, ".frames");   /* left by a killed render of the same file */
    if (!(s->frames = fopen(name, "w+b")))
        mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", path, strerror(errno));
    else
        unlink(name);
    mur_free(name);
    return s->frames ? MUR_OK : MUR_ERUN;
}

/* palettegen's graph (s->gen_graph allocated): the frames' source, the
 * filter, the sink. */
static int setup_palettegen(gif_sink *s, const char *path, mur_error *err)
{
    int ret;
    /* The filters run in the calling thread: these two have no slice
     * threading to gain from, and the auto-inserted converter gains little
     * at GIF sizes. */
    s->gen_graph->nb_threads = 1;
    AVFilterContext *gen;
    if (!(s->gen_src = add_source(s->gen_graph, s->width, s->height, AV_PIX_FMT_RGB32, s->fps,
                                  path, err)) ||
        !(gen = add_filter(s->gen_graph, "palettegen", s->gen_opts, path, err)) ||
        !(s->gen_sink = add_filter(s->gen_graph, "buffersink", NULL, path, err)))
        return MUR_ERUN;
    if ((ret = avfilter_link(s->gen_src, 0, gen, 0)) < 0 ||
        (ret = avfilter_link(gen, 0, s->gen_sink, 0)) < 0 ||
        (ret = avfilter_graph_config(s->gen_graph, NULL)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot set up the palette of '%s': %s", path,
                             av_err2str(ret));
    return MUR_OK;
}

static int gif_open(void **out, const mur_format *f, const mur_video_opts *o, int w, int h,
                    _Atomic int64_t *bytes, mur_error *err)
{
    int code = MUR_ERUN, ret;
    gif_sink *s = mur_calloc(1, sizeof *s);
    *out = NULL;
    if (!s || (o->metadata && !(s->comment = mur_strdup(o->metadata))))
        goto oom;
    if (mur_atomic_begin(&s->file, o->path, 0, err))   /* sweeps a killed render's temporaries */
        goto fail;
    s->f = f;
    s->width = w;
    s->height = h;
    s->fps = o->fps;
    int colours = o->version >= 4 && o->gif_colours ? o->gif_colours : 256;
    int dither = o->version >= 4 ? o->gif_dither : MUR_GIF_DITHER_NONE;
    if (colours < 2 || colours > 256 || dither < 0 || dither > MUR_GIF_DITHER_SIERRA2_4A) {
        code = mur_error_set(err, MUR_EINPUT, "a GIF palette has 2 to 256 colours and a dither of %d kinds, "
                                              "not %d colours, dither %d", 4, colours, dither);
        goto fail;
    }
    snprintf(s->gen_opts, sizeof s->gen_opts, PALETTEGEN_OPTS, colours);
    snprintf(s->use_opts, sizeof s->use_opts, PALETTEUSE_OPTS, dither_names[dither]);
    s->bytes = bytes;
    if (!(s->gif_codec = mur_out_find_encoder(f, o, err)))
        goto fail;
    const AVCodec *rle = avcodec_find_encoder(AV_CODEC_ID_QTRLE);
    if (!rle || !avcodec_find_decoder(AV_CODEC_ID_QTRLE)) {
        mur_error_set(err, MUR_ERUN,
                      "cannot write '%s': the qtrle codec is not in this machine's libav build",
                      o->path);
        goto fail;
    }
    if (open_frames(s, o->path, err) < 0)
        goto fail;

    if (!(s->rle = avcodec_alloc_context3(rle)) || !(s->frame = av_frame_alloc()) ||
        !(s->rgb = av_frame_alloc()) || !(s->pkt = av_packet_alloc()) ||
        !(s->gen_graph = avfilter_graph_alloc()))
        goto oom;
    s->rle->width = w;
    s->rle->height = h;
    s->rle->pix_fmt = AV_PIX_FMT_RGB24;
    s->rle->time_base = (AVRational){1, o->fps};
    s->rle->thread_count = 1;
    if ((ret = avcodec_open2(s->rle, rle, NULL)) < 0) {
        mur_error_set(err, MUR_ERUN, "cannot open the qtrle encoder for '%s': %s", o->path,
                      av_err2str(ret));
        goto fail;
    }
    s->frame->format = AV_PIX_FMT_RGB32;
    s->frame->width = w;
    s->frame->height = h;
    s->rgb->format = AV_PIX_FMT_RGB24;
    s->rgb->width = w;
    s->rgb->height = h;
    if (av_frame_get_buffer(s->frame, 0) < 0 || av_frame_get_buffer(s->rgb, 0) < 0)
        goto oom;
    s->sws = sws_getContext(w, h, AV_PIX_FMT_RGB32, w, h, AV_PIX_FMT_RGB24,
                            SWS_POINT | SWS_ACCURATE_RND | SWS_BITEXACT, NULL, NULL, NULL);
    if (!s->sws)
        goto oom;

    if (setup_palettegen(s, o->path, err) < 0)
        goto fail;
    *out = s;
    return MUR_OK;
oom:
    mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", o->path);
fail:
    destroy(s);
    return code;
}

/* ---- pass 1 ------------------------------------------------------------------ */

static int gif_write(void *sink, const uint8_t *pixels, int stride, mur_error *err)
{
    gif_sink *s = sink;
    int ret;
    if (s->broken)
        return mur_error_set(err, MUR_ERUN, "cannot write '%s': an earlier frame failed",
                             s->file.path);
    /* The graph or the encoder may still hold the previous frame. */
    if ((ret = av_frame_make_writable(s->frame)) < 0)
        goto av_fail;
    for (int y = 0; y < s->height; y++)
        memcpy(s->frame->data[0] + (size_t)s->frame->linesize[0] * (size_t)y,
               pixels + (size_t)stride * (size_t)y, (size_t)s->width * 4);
    s->frame->pts = s->count;
    if ((ret = push(s->gen_src, s->frame)) < 0)
        goto av_fail;
    /* qtrle compares with the frame before: it must get a fresh one. */
    if ((ret = av_frame_make_writable(s->rgb)) < 0)
        goto av_fail;
    const uint8_t *src[4] = {pixels, NULL, NULL, NULL};
    int src_stride[4] = {stride, 0, 0, 0};
    if (sws_scale(s->sws, src, src_stride, 0, s->height, s->rgb->data, s->rgb->linesize) !=
        s->height) {
        ret = AVERROR(EINVAL);
        goto av_fail;
    }
    s->rgb->pts = s->count;
    if ((ret = avcodec_send_frame(s->rle, s->rgb)) < 0)
        goto av_fail;
    while ((ret = avcodec_receive_packet(s->rle, s->pkt)) >= 0) {
        int64_t size = s->pkt->size;
        int ok = fwrite(&size, sizeof size, 1, s->frames) == 1 &&
                 fwrite(s->pkt->data, 1, (size_t)size, s->frames) == (size_t)size;
        av_packet_unref(s->pkt);
        if (!ok) {
            s->broken = 1;
            return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", s->file.path,
                                 strerror(errno));
        }
    }
    if (ret != AVERROR(EAGAIN))
        goto av_fail;
    s->count++;
    atomic_store(s->bytes, ftell(s->frames));
    return MUR_OK;
av_fail:
    s->broken = 1;
    return mur_error_set(err, MUR_ERUN, "cannot encode '%s': %s", s->file.path, av_err2str(ret));
}

/* ---- pass 2 ------------------------------------------------------------------ */

/* The state of the second pass, all of it freed by finish_pass. */
typedef struct pass2 {
    AVCodecContext *dec, *enc;
    AVFilterGraph *graph;
    AVFilterContext *src, *pal_src, *sink;
    AVFormatContext *mux;
    AVStream *st;
    AVFrame *in, *out;
    AVPacket *pkt;
    uint8_t *buf;
    int64_t written;          /* packets given to the muxer */
} pass2;

/* Writes the comment as a GIF comment extension (0x21 0xFE, sub-blocks of
 * at most 255 bytes, a zero terminator) into the first packet, just after
 * the header and global palette the encoder put there; the muxer copies
 * extensions it does not know through. A packet without a GIF header is
 * left alone. */
static int add_comment(AVPacket *pkt, const char *text)
{
    if (pkt->size < 13 || memcmp(pkt->data, "GIF8", 4) != 0)
        return 0;
    int at = 13;
    if (pkt->data[10] & 0x80)
        at += 3 * (1 << ((pkt->data[10] & 7) + 1));
    if (pkt->size < at)
        return 0;
    size_t n = strlen(text), blocks = (n + 254) / 255;
    size_t extra = 2 + n + blocks + 1;
    if (extra > (size_t)INT32_MAX - (size_t)pkt->size - AV_INPUT_BUFFER_PADDING_SIZE)
        return AVERROR(EINVAL);
    int old = pkt->size, ret = av_grow_packet(pkt, (int)extra);
    if (ret < 0)
        return ret;
    uint8_t *p = pkt->data + at;
    memmove(p + extra, p, (size_t)(old - at));
    *p++ = 0x21;
    *p++ = 0xFE;
    for (size_t i = 0; i < n; i += 255) {
        size_t len = n - i < 255 ? n - i : 255;
        *p++ = (uint8_t)len;
        memcpy(p, text + i, len);
        p += len;
    }
    *p = 0;
    return 0;
}

/* Encodes frame (NULL: flush) to GIF and muxes every packet ready. */
static int encode_gif(gif_sink *s, pass2 *p, const AVFrame *frame, mur_error *err)
{
    int ret = avcodec_send_frame(p->enc, frame);
    while (ret >= 0) {
        ret = avcodec_receive_packet(p->enc, p->pkt);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
            return MUR_OK;
        if (ret < 0)
            break;
        if (p->written == 0 && s->comment && (ret = add_comment(p->pkt, s->comment)) < 0)
            break;
        if (p->pkt->duration == 0)
            p->pkt->duration = 1;   /* so the last frame keeps its delay */
        av_packet_rescale_ts(p->pkt, p->enc->time_base, p->st->time_base);
        p->pkt->stream_index = 0;
        /* Not interleaved: one stream, and the muxer holds a packet back
         * itself to learn each frame's delay. */
        if ((ret = av_write_frame(p->mux, p->pkt)) < 0) {
            av_packet_unref(p->pkt);
            return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", s->file.path,
                                 av_err2str(ret));
        }
        av_packet_unref(p->pkt);
        p->written++;
        atomic_store(s->bytes, avio_tell(p->mux->pb));
    }
    return mur_error_set(err, MUR_ERUN, "cannot encode '%s': %s", s->file.path, av_err2str(ret));
}

/* Pulls every frame paletteuse has ready into the GIF encoder. */
static int drain_palette(gif_sink *s, pass2 *p, mur_error *err)
{
    for (;;) {
        int ret = av_buffersink_get_frame(p->sink, p->out);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
            return MUR_OK;
        if (ret < 0)
            return mur_error_set(err, MUR_ERUN, "cannot quantise a frame of '%s': %s", s->file.path,
                                 av_err2str(ret));
        p->out->pict_type = AV_PICTURE_TYPE_NONE;
        ret = encode_gif(s, p, p->out, err);
        av_frame_unref(p->out);
        if (ret < 0)
            return ret;
    }
}

/* Sets up decoder, paletteuse fed with the palette, encoder and muxer. */
static int start_pass(gif_sink *s, pass2 *p, AVFrame *palette, mur_error *err)
{
    int ret;
    const AVCodec *rle = avcodec_find_decoder(AV_CODEC_ID_QTRLE);
    if (!(p->dec = avcodec_alloc_context3(rle)) || !(p->enc = avcodec_alloc_context3(s->gif_codec)) ||
        !(p->graph = avfilter_graph_alloc()) || !(p->in = av_frame_alloc()) ||
        !(p->out = av_frame_alloc()) || !(p->pkt = av_packet_alloc()))
        return mur_error_set(err, MUR_ERUN, "out of memory finishing '%s'", s->file.path);
    p->dec->width = s->width;
    p->dec->height = s->height;
    p->dec->thread_count = 1;
    p->dec->bits_per_coded_sample = 24;   /* what the container would say: RGB24 */
    if ((ret = avcodec_open2(p->dec, rle, NULL)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot open the qtrle decoder for '%s': %s",
                             s->file.path, av_err2str(ret));

    AVFilterContext *use;
    /* RGB24 in; the graph converts to paletteuse's BGRA (exactly). */
    p->graph->nb_threads = 1;   /* see gif_open */
    if (!(p->src = add_source(p->graph, s->width, s->height, AV_PIX_FMT_RGB24, s->fps, s->file.path,
                              err)) ||
        !(p->pal_src = add_source(p->graph, palette->width, palette->height, palette->format,
                                  s->fps, s->file.path, err)) ||
        !(use = add_filter(p->graph, "paletteuse", s->use_opts, s->file.path, err)) ||
        !(p->sink = add_filter(p->graph, "buffersink", NULL, s->file.path, err)))
        return MUR_ERUN;
    if ((ret = avfilter_link(p->src, 0, use, 0)) < 0 ||
        (ret = avfilter_link(p->pal_src, 0, use, 1)) < 0 ||
        (ret = avfilter_link(use, 0, p->sink, 0)) < 0 ||
        (ret = avfilter_graph_config(p->graph, NULL)) < 0 ||
        /* The palette holds for every frame (paletteuse repeats the last
         * one it was given), so its input ends at once. */
        (ret = av_buffersrc_add_frame_flags(p->pal_src, palette, 0)) < 0 ||
        (ret = av_buffersrc_add_frame_flags(p->pal_src, NULL, 0)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot set up the palette of '%s': %s", s->file.path,
                             av_err2str(ret));

    p->enc->width = s->width;
    p->enc->height = s->height;
    p->enc->pix_fmt = AV_PIX_FMT_PAL8;
    p->enc->time_base = (AVRational){1, s->fps};
    if ((ret = avcodec_open2(p->enc, s->gif_codec, NULL)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot open the %s encoder for '%s': %s",
                             s->gif_codec->name, s->file.path, av_err2str(ret));

    ret = avformat_alloc_output_context2(&p->mux, NULL, s->f->muxer, s->file.tmp);
    if (ret < 0 || !p->mux)
        return mur_error_set(err, MUR_ERUN, "cannot set up the %s muxer for '%s': %s",
                             s->f->muxer, s->file.path,
                             av_err2str(ret < 0 ? ret : AVERROR(ENOMEM)));
    if (!(p->st = avformat_new_stream(p->mux, NULL)))
        return mur_error_set(err, MUR_ERUN, "out of memory finishing '%s'", s->file.path);
    if ((ret = avcodec_parameters_from_context(p->st->codecpar, p->enc)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot set up the stream of '%s': %s", s->file.path,
                             av_err2str(ret));
    p->st->time_base = p->enc->time_base;
    if ((ret = avio_open(&p->mux->pb, s->file.tmp, AVIO_FLAG_WRITE)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", s->file.path, av_err2str(ret));
    if ((ret = avformat_write_header(p->mux, NULL)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot write the gif header of '%s': %s", s->file.path,
                             av_err2str(ret));
    return MUR_OK;
}

/* Decodes the intermediate frame by frame through paletteuse into the GIF. */
static int run_pass(gif_sink *s, pass2 *p, mur_error *err)
{
    int ret;
    if (fflush(s->frames) != 0 || fseek(s->frames, 0, SEEK_SET) != 0)
        return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", s->file.path, strerror(errno));
    for (long k = 0; k < s->count; k++) {
        int64_t size;
        if (fread(&size, sizeof size, 1, s->frames) != 1 || size <= 0 || size > INT32_MAX / 2 ||
            (ret = av_new_packet(p->pkt, (int)size)) < 0 ||
            fread(p->pkt->data, 1, (size_t)size, s->frames) != (size_t)size) {
            av_packet_unref(p->pkt);
            return mur_error_set(err, MUR_ERUN, "cannot read back frame %ld of '%s'", k,
                                 s->file.path);
        }
        p->pkt->pts = k;
        ret = avcodec_send_packet(p->dec, p->pkt);
        av_packet_unref(p->pkt);
        /* qtrle has no delay: each packet gives its frame. */
        if (ret < 0 || (ret = avcodec_receive_frame(p->dec, p->in)) < 0)
            return mur_error_set(err, MUR_ERUN, "cannot decode frame %ld of '%s': %s", k,
                                 s->file.path, av_err2str(ret));
        p->in->pts = k;
        ret = av_buffersrc_add_frame_flags(p->src, p->in, 0);
        av_frame_unref(p->in);
        if (ret < 0)
            return mur_error_set(err, MUR_ERUN, "cannot quantise frame %ld of '%s': %s", k,
                                 s->file.path, av_err2str(ret));
        if ((ret = drain_palette(s, p, err)) < 0)
            return ret;
    }
    if ((ret = av_buffersrc_add_frame_flags(p->src, NULL, 0)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot quantise '%s': %s", s->file.path,
                             av_err2str(ret));
    if ((ret = drain_palette(s, p, err)) < 0 || (ret = encode_gif(s, p, NULL, err)) < 0)
        return ret;
    if ((ret = av_write_trailer(p->mux)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot finish '%s': %s", s->file.path,
                             av_err2str(ret));
    avio_flush(p->mux->pb);
    atomic_store(s->bytes, avio_tell(p->mux->pb));
    if ((ret = p->mux->pb->error) < 0 || (ret = avio_closep(&p->mux->pb)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", s->file.path, av_err2str(ret));
    return MUR_OK;
}

static void finish_pass(pass2 *p)
{
    if (p->mux) {
        avio_closep(&p->mux->pb);
        avformat_free_context(p->mux);
    }
    avcodec_free_context(&p->dec);
    avcodec_free_context(&p->enc);
    avfilter_graph_free(&p->graph);
    av_frame_free(&p->in);
    av_frame_free(&p->out);
    av_packet_free(&p->pkt);
}

static int gif_close(void *sink, mur_error *err)
{
    gif_sink *s = sink;
    pass2 p = {0};
    AVFrame *palette = NULL;
    int code = MUR_ERUN, ret;
    if (s->broken) {
        mur_error_set(err, MUR_ERUN, "not finishing '%s': an earlier frame failed", s->file.path);
        goto fail;
    }
    if (s->count == 0) {
        mur_error_set(err, MUR_ERUN, "not writing '%s': no frames", s->file.path);
        goto fail;
    }
    if (!(palette = av_frame_alloc())) {
        mur_error_set(err, MUR_ERUN, "out of memory finishing '%s'", s->file.path);
        goto fail;
    }
    if ((ret = push(s->gen_src, NULL)) < 0 ||
        (ret = av_buffersink_get_frame(s->gen_sink, palette)) < 0) {
        mur_error_set(err, MUR_ERUN, "cannot compute the palette of '%s': %s", s->file.path,
                      av_err2str(ret));
        goto fail;
    }
    if ((code = start_pass(s, &p, palette, err)) < 0 || (code = run_pass(s, &p, err)) < 0)
        goto fail;
    code = MUR_ERUN;
    code = mur_atomic_commit(&s->file, err);
fail:
    finish_pass(&p);
    av_frame_free(&palette);
    destroy(s);
    return code;
}

static void gif_abort(void *sink)
{
    destroy(sink);
}

const mur_sink_ops mur_gif_sink = {.open = gif_open, .write = gif_write, .close = gif_close, .abort = gif_abort};
