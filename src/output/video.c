/* The video writer: Cairo frames in, a finished .mp4 out.
 *
 * The sequence is FFmpeg's doc/examples mux.c / encode_video.c: a stream and
 * an encoder with matching time bases, the global-header flag when the
 * container wants it, open, copy the parameters to the stream, write the
 * header, then per frame make-writable / convert / send / drain packets /
 * rescale / interleave, and at the end a NULL frame, drain, trailer, close.
 *
 * Two things the examples leave out, both needed for files that look right
 * everywhere:
 * - Colour. Players pick a YUV->RGB matrix from the stream's tags, so the
 *   tags (BT.709 primaries, transfer and matrix, limited range) and the
 *   coefficients swscale converts with must say the same thing; otherwise
 *   browsers and VLC shift the colours (mismatched matrices are the classic
 *   "slightly too green/too dark" video).
 * - Atomicity. Everything is written to ".<name>.part.<pid>" beside the final
 *   name and renamed in mur_video_close, so a file at the final name is
 *   always complete; any failure removes the temporary file.
 *
 * Formats are rows of a table keyed by extension; only .mp4 (H.264) exists
 * today. */
#include "murmur/video.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

/* Limits of mur_video_opts, as the header documents them. H.264 levels stop
 * near 16880 pixels a side and far lower in area (level 6.2 is about
 * 8192x4320), so sizes near the top encode but many players refuse them;
 * checking that is the caller's business. */
#define MIN_SIDE 2
#define MAX_SIDE 16384
#define MAX_FPS 240
#define MAX_QUALITY 51

/* One output format. Adding .webm/.gif/.mov or an image sequence is a row
 * here plus, if its encoder has private options, a configure function. */
typedef struct format {
    const char *ext;         /* lower-case, with the dot; compared ignoring case */
    const char *muxer;       /* libavformat short name */
    const char *muxer_opts;  /* "k=v:k=v" options for avformat_write_header */
    const char *label;       /* what the user knows the codec as, for messages */
    const char *encoder;     /* libavcodec encoder name */
    enum AVPixelFormat pix_fmt;
    int (*configure)(AVCodecContext *enc, const mur_video_opts *opts);
} format;

static int configure_x264(AVCodecContext *enc, const mur_video_opts *opts);

static const format formats[] = {
    /* +faststart moves the index (moov) in front of the media data, so a
     * browser can start playing before the whole file has arrived. The mov
     * muxer does it in av_write_trailer by re-opening the output by name
     * for reading: the output must be a seekable regular file, and the
     * context's url must be the name actually written (the temporary one). */
    {".mp4", "mp4", "movflags=+faststart", "H.264", "libx264", AV_PIX_FMT_YUV420P,
     configure_x264},
};

struct mur_video {
    char *path;               /* final name */
    char *tmp;                /* temporary name beside it; rename(2) within a directory is atomic */
    int created;              /* tmp exists on disk and is ours to remove */
    int broken;               /* a write failed: the file is not worth finishing */
    int width, height;        /* encoded size (even) */
    int64_t next_pts;         /* in encoder time base = frame number */
    AVFormatContext *mux;
    AVStream *st;
    AVCodecContext *enc;
    struct SwsContext *sws;
    AVFrame *frame;           /* reused for every frame */
    AVPacket *pkt;            /* reused for every packet */
};

/* x264's private options. crf 0 is lossless, which x264 can only encode in
 * the High 4:4:4 Predictive profile that browsers do not play; the range is
 * kept 0..51 as documented, the caller chooses. */
static int configure_x264(AVCodecContext *enc, const mur_video_opts *opts)
{
    int ret = av_opt_set_int(enc->priv_data, "crf", opts->quality, 0);
    if (ret >= 0)
        ret = av_opt_set(enc->priv_data, "preset", "medium", 0);
    return ret;
}

/* The table's extensions as ".a, .b" for messages. */
static const char *format_list(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof formats / sizeof formats[0] && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", formats[i].ext);
    return buf;
}

/* Enters with any opts; leaves with the format for opts->path, or NULL and
 * err filled (MUR_EINPUT) when an option is out of range. */
static const format *check_opts(const mur_video_opts *opts, mur_error *err)
{
    char list[64];
    if (!opts->path || !opts->path[0]) {
        mur_error_set(err, MUR_EINPUT, "no output path given");
        return NULL;
    }
    const char *slash = strrchr(opts->path, '/');
    const char *base = slash ? slash + 1 : opts->path;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base) {   /* "x" or ".mp4" alone: no extension */
        mur_error_set(err, MUR_EINPUT, "output path '%s' has no extension (use %s)", opts->path,
                      format_list(list, sizeof list));
        return NULL;
    }
    const format *f = NULL;
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (strcasecmp(dot, formats[i].ext) == 0)
            f = &formats[i];
    if (!f) {
        mur_error_set(err, MUR_EINPUT, "unsupported output format '%s' (use %s)", dot,
                      format_list(list, sizeof list));
        return NULL;
    }
    if (opts->width < MIN_SIDE || opts->width > MAX_SIDE || opts->height < MIN_SIDE ||
        opts->height > MAX_SIDE) {
        mur_error_set(err, MUR_EINPUT, "video size %dx%d is out of range (each side %d..%d)",
                      opts->width, opts->height, MIN_SIDE, MAX_SIDE);
        return NULL;
    }
    if (opts->fps < 1 || opts->fps > MAX_FPS) {
        mur_error_set(err, MUR_EINPUT, "video fps %d is out of range (1..%d)", opts->fps, MAX_FPS);
        return NULL;
    }
    if (opts->quality < 0 || opts->quality > MAX_QUALITY) {
        mur_error_set(err, MUR_EINPUT, "video quality %d is out of range (0..%d, lower is better)",
                      opts->quality, MAX_QUALITY);
        return NULL;
    }
    return f;
}

/* "<dir>/.<base>.part.<pid>": hidden, in the same directory as path (so the
 * final rename cannot cross filesystems), and distinct per process. */
static char *temp_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    int dirlen = (int)(base - path);
    long pid = (long)getpid();
    int n = snprintf(NULL, 0, "%.*s.%s.part.%ld", dirlen, path, base, pid);
    char *tmp = n < 0 ? NULL : malloc((size_t)n + 1);
    if (tmp)
        snprintf(tmp, (size_t)n + 1, "%.*s.%s.part.%ld", dirlen, path, base, pid);
    return tmp;
}

/* Frees everything v holds and removes the temporary file if it is still
 * there. Safe on a half-built v. */
static void destroy(mur_video *v)
{
    if (!v)
        return;
    if (v->mux) {
        if (!(v->mux->oformat->flags & AVFMT_NOFILE))
            avio_closep(&v->mux->pb);
        avformat_free_context(v->mux);
    }
    if (v->created)
        remove(v->tmp);
    avcodec_free_context(&v->enc);
    sws_freeContext(v->sws);
    av_frame_free(&v->frame);
    av_packet_free(&v->pkt);
    free(v->path);
    free(v->tmp);
    free(v);
}

/* Sets up the RGB32 -> YUV conversion at the encoded size.
 *
 * AV_PIX_FMT_RGB32 is libav's name for "ARGB in a native-endian uint32",
 * which is exactly Cairo's ARGB32 (BGRA bytes on little-endian machines).
 * Cairo's pixels are premultiplied, which only matters for alpha < 255;
 * frames are opaque (the background is painted) and alpha is dropped.
 *
 * The coefficients must match the BT.709 tags on the stream. srcRange is
 * passed as full for clarity, though swscale always treats RGB as full
 * range; dstRange 0 = limited (16..235), matching AVCOL_RANGE_MPEG.
 * SWS_ACCURATE_RND|SWS_BITEXACT keep the conversion the same on every CPU,
 * so the same frames give the same bytes (DESIGN.md: frame hashes). */
static int setup_sws(mur_video *v, mur_error *err)
{
    v->sws = sws_getContext(v->width, v->height, AV_PIX_FMT_RGB32, v->width, v->height,
                            v->enc->pix_fmt, SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT,
                            NULL, NULL, NULL);
    if (!v->sws)
        return mur_error_set(err, MUR_ERUN, "cannot convert RGB to %s at %dx%d for '%s'",
                             av_get_pix_fmt_name(v->enc->pix_fmt), v->width, v->height, v->path);
    const int *bt709 = sws_getCoefficients(SWS_CS_ITU709);
    if (sws_setColorspaceDetails(v->sws, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot set BT.709 conversion for '%s'", v->path);
    return MUR_OK;
}

/* Enters with the encoder's format fixed; leaves with the encoder open,
 * the stream's parameters copied from it, and v->frame allocated. */
static int setup_encoder(mur_video *v, const format *f, const mur_video_opts *opts,
                         mur_error *err)
{
    int ret;
    const AVCodec *codec = avcodec_find_encoder_by_name(f->encoder);
    if (!codec)
        return mur_error_set(err, MUR_ERUN, "%s encoder %s is not available in this libav build",
                             f->label, f->encoder);
    v->st = avformat_new_stream(v->mux, NULL);
    v->enc = avcodec_alloc_context3(codec);
    if (!v->st || !v->enc)
        return mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", v->path);

    AVCodecContext *enc = v->enc;
    enc->width = v->width;
    enc->height = v->height;
    enc->pix_fmt = f->pix_fmt;
    enc->time_base = (AVRational){1, opts->fps};
    enc->framerate = (AVRational){opts->fps, 1};
    enc->gop_size = 2 * opts->fps;   /* a keyframe every 2 s: cheap seeking, small files */
    /* Tags only: they change no pixel, they tell players which matrix,
     * primaries and range setup_sws converted with. libx264 writes them into
     * the H.264 VUI, avcodec_parameters_from_context into the container. */
    enc->color_primaries = AVCOL_PRI_BT709;
    enc->color_trc = AVCOL_TRC_BT709;
    enc->colorspace = AVCOL_SPC_BT709;
    enc->color_range = AVCOL_RANGE_MPEG;
    /* MP4 keeps SPS/PPS once in the sample description (avcC), not in
     * every keyframe; without the flag the file plays in fewer places. */
    if (v->mux->oformat->flags & AVFMT_GLOBALHEADER)
        enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (f->configure && (ret = f->configure(enc, opts)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot set %s options for '%s': %s", f->encoder,
                             v->path, av_err2str(ret));

    if ((ret = avcodec_open2(enc, codec, NULL)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot open the %s encoder for '%s': %s",
                             f->encoder, v->path, av_err2str(ret));
    if ((ret = avcodec_parameters_from_context(v->st->codecpar, enc)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot set up the stream of '%s': %s", v->path,
                             av_err2str(ret));
    /* A hint only: the muxer picks its own time base in write_header. */
    v->st->time_base = enc->time_base;

    v->frame = av_frame_alloc();
    v->pkt = av_packet_alloc();
    if (!v->frame || !v->pkt)
        return mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", v->path);
    v->frame->format = enc->pix_fmt;
    v->frame->width = enc->width;
    v->frame->height = enc->height;
    if ((ret = av_frame_get_buffer(v->frame, 0)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot allocate a %dx%d frame for '%s': %s",
                             v->width, v->height, v->path, av_err2str(ret));
    return MUR_OK;
}

int mur_video_open(mur_video **out, const mur_video_opts *opts, mur_error *err)
{
    assert(out && opts);
    int code = MUR_ERUN, ret;
    AVDictionary *mux_opts = NULL;
    mur_video *v = NULL;
    *out = NULL;

    const format *f = check_opts(opts, err);
    if (!f) {
        code = MUR_EINPUT;
        goto fail;
    }
    v = calloc(1, sizeof *v);
    if (!v || !(v->path = strdup(opts->path)) || !(v->tmp = temp_name(opts->path))) {
        mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", opts->path);
        goto fail;
    }
    /* yuv420p stores one chroma sample per 2x2 block: round down to even. */
    v->width = opts->width & ~1;
    v->height = opts->height & ~1;

    /* The muxer is named, not guessed: the temporary name ends in .part.<pid>. */
    ret = avformat_alloc_output_context2(&v->mux, NULL, f->muxer, v->tmp);
    if (ret < 0 || !v->mux) {
        mur_error_set(err, MUR_ERUN, "cannot set up the %s muxer for '%s': %s", f->muxer,
                      v->path, av_err2str(ret < 0 ? ret : AVERROR(ENOMEM)));
        goto fail;
    }
    if ((code = setup_encoder(v, f, opts, err)) < 0 || (code = setup_sws(v, err)) < 0)
        goto fail;
    code = MUR_ERUN;
    if (opts->metadata && (ret = av_dict_set(&v->mux->metadata, "comment", opts->metadata, 0)) < 0) {
        mur_error_set(err, MUR_ERUN, "cannot store metadata for '%s': %s", v->path,
                      av_err2str(ret));
        goto fail;
    }

    if (!(v->mux->oformat->flags & AVFMT_NOFILE)) {
        if ((ret = avio_open(&v->mux->pb, v->tmp, AVIO_FLAG_WRITE)) < 0) {
            mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", v->path, av_err2str(ret));
            goto fail;
        }
        v->created = 1;
    }
    if ((ret = av_dict_parse_string(&mux_opts, f->muxer_opts, "=", ":", 0)) < 0 ||
        (ret = avformat_write_header(v->mux, &mux_opts)) < 0) {
        mur_error_set(err, MUR_ERUN, "cannot write the %s header of '%s': %s", f->muxer, v->path,
                      av_err2str(ret));
        goto fail;
    }
    *out = v;
    v = NULL;
    code = MUR_OK;

fail:
    av_dict_free(&mux_opts);
    destroy(v);
    return code;
}

void mur_video_size(const mur_video *v, int *width, int *height)
{
    assert(v);
    if (width)
        *width = v->width;
    if (height)
        *height = v->height;
}

/* Sends one frame (NULL: end of stream) and writes every packet the encoder
 * has ready; after NULL, that is all of them. */
static int encode(mur_video *v, const AVFrame *frame, mur_error *err)
{
    int ret = avcodec_send_frame(v->enc, frame);
    if (ret < 0)
        return mur_error_set(err, MUR_ERUN, "cannot encode '%s': %s", v->path, av_err2str(ret));
    for (;;) {
        ret = avcodec_receive_packet(v->enc, v->pkt);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
            return MUR_OK;
        if (ret < 0)
            return mur_error_set(err, MUR_ERUN, "cannot encode '%s': %s", v->path,
                                 av_err2str(ret));
        /* libx264 leaves durations 0 in libav 5.1, and the muxer then
         * gives the last frame no time at all: the file is a frame short
         * (23/24 s for 24 frames) and its frame rate reads 25.04. Every
         * frame lasts exactly one tick of 1/fps. */
        if (v->pkt->duration == 0)
            v->pkt->duration = 1;
        /* The stream's time base is the muxer's choice (made in
         * write_header), not the 1/fps we hinted. */
        av_packet_rescale_ts(v->pkt, v->enc->time_base, v->st->time_base);
        v->pkt->stream_index = v->st->index;
        /* Takes the packet's reference and leaves pkt blank, even on error. */
        if ((ret = av_interleaved_write_frame(v->mux, v->pkt)) < 0)
            return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", v->path,
                                 av_err2str(ret));
    }
}

int mur_video_write(mur_video *v, const uint8_t *pixels, int stride, mur_error *err)
{
    assert(v && pixels && stride >= 4 * v->width);
    int code = MUR_ERUN, ret;
    if (v->broken) {
        mur_error_set(err, MUR_ERUN, "cannot write '%s': an earlier frame failed", v->path);
        goto fail;
    }
    /* The encoder may still hold a reference to the previous frame's
     * buffers; this copies only in that case. */
    if ((ret = av_frame_make_writable(v->frame)) < 0) {
        mur_error_set(err, MUR_ERUN, "cannot encode '%s': %s", v->path, av_err2str(ret));
        goto fail;
    }
    /* swscale copies four plane pointers and strides whatever the format:
     * a one-element array would be read past its end. */
    const uint8_t *src[4] = {pixels, NULL, NULL, NULL};
    int src_stride[4] = {stride, 0, 0, 0};
    ret = sws_scale(v->sws, src, src_stride, 0, v->height, v->frame->data, v->frame->linesize);
    if (ret != v->height) {
        mur_error_set(err, MUR_ERUN, "cannot convert a frame for '%s': %s", v->path,
                      ret < 0 ? av_err2str(ret) : "short conversion");
        goto fail;
    }
    v->frame->pts = v->next_pts++;
    code = encode(v, v->frame, err);

fail:
    if (code < 0)
        v->broken = 1;
    return code;
}

int mur_video_close(mur_video *v, mur_error *err)
{
    assert(v);
    int code = MUR_ERUN, ret;
    if (v->broken) {
        mur_error_set(err, MUR_ERUN, "not finishing '%s': an earlier frame failed", v->path);
        goto fail;
    }
    if (v->next_pts == 0) {
        mur_error_set(err, MUR_ERUN, "not writing '%s': no frames", v->path);
        goto fail;
    }
    if ((code = encode(v, NULL, err)) < 0)
        goto fail;
    code = MUR_ERUN;
    /* With +faststart this rewrites the whole file (see formats[]). */
    if ((ret = av_write_trailer(v->mux)) < 0) {
        mur_error_set(err, MUR_ERUN, "cannot finish '%s': %s", v->path, av_err2str(ret));
        goto fail;
    }
    /* Closing flushes the last buffer: a full disk shows up here. */
    if (!(v->mux->oformat->flags & AVFMT_NOFILE) && (ret = avio_closep(&v->mux->pb)) < 0) {
        mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", v->path, av_err2str(ret));
        goto fail;
    }
    if (rename(v->tmp, v->path) != 0) {
        mur_error_set(err, MUR_ERUN, "cannot rename '%s' to '%s': %s", v->tmp, v->path,
                      av_err2str(AVERROR(errno)));
        goto fail;
    }
    v->created = 0;
    code = MUR_OK;

fail:
    destroy(v);
    return code;
}

void mur_video_abort(mur_video *v)
{
    destroy(v);
}
