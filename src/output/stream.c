/* Stream sinks: a libavcodec encoder into a libavformat container, for
 * .mp4 (H.264), .webm (VP9), .mov (ProRes) and .webp (animated WebP).
 *
 * The sequence is FFmpeg's doc/examples mux.c / encode_video.c: a stream and
 * an encoder with matching time bases, the global-header flag when the
 * container wants it, open, copy the parameters to the stream, write the
 * header, then per frame make-writable / convert / send / drain packets /
 * rescale / interleave, and at the end a NULL frame, drain, trailer, close.
 *
 * Segments. Every 2 s of video (mur_video_segment_frames, one keyframe
 * interval) the encoder is flushed into the file, freed and opened anew
 * with the same settings, and each segment's encoder counts its frames from
 * 0; its packets are moved to the segment's place when they are muxed. An
 * encoder that runs through the whole video carries state from frame to
 * frame (x264's rate control, its lookahead, libvpx's alt-ref frames), so
 * no piece of such a stream can be reproduced alone; with segments, a run
 * of whole segments encodes to the same packets wherever it is encoded, and
 * `murmur join` of chunks rendered apart (render --chunk) is a stream copy
 * that equals the whole render. The fresh encoders' headers (H.264's SPS
 * and PPS, stored once in the MP4 sample description) are checked equal to
 * the first one's. A segment starts with an IDR frame and x264's B-frames
 * give its first packets a dts before their pts by the reorder delay (two
 * frames): moved by the segment's first frame, they follow the last packet
 * of the segment before without a gap or an overlap, the timestamps of one
 * continuous encoding (and what ffmpeg's concat demuxer gives joined files).
 * The cost, measured on a 2-core machine (bench/chunk_bench.sh, 20 s of
 * 1080p, medians of 3, two runs): CPU time within 1% of one encoder for the
 * whole video (0.994 and 1.008), wall time within the noise of a shared
 * machine (1.034 and 0.942), files 0.25% smaller. A flush drains x264's
 * frame threads, but a 2 s segment is long beside its few frames of delay;
 * on many cores the drain would show, and overlapping the old segment's
 * flush with the new one's first frames would hide it.
 *
 * Two things the examples leave out, both needed for files that look right
 * everywhere:
 * - Colour. Players pick a YUV->RGB matrix from the stream's tags, so the
 *   tags (BT.709 primaries, transfer and matrix, limited range) and the
 *   coefficients swscale converts with must say the same thing; otherwise
 *   browsers and VLC shift the colours (mismatched matrices are the classic
 *   "slightly too green/too dark" video).
 * - Atomicity. Everything is written to ".<name>.part.<pid>" beside the final
 *   name and renamed in close (mur_atomic, murmur/file.h), so a file at the
 *   final name is always complete; any failure removes the temporary file.
 *   A device or a pipe is written in place.
 *
 * An animated WebP is muxed into memory instead (it is one packet anyway:
 * the file libwebp's encoder assembles at the end), so that its provenance
 * can go in before anything is written: webp.c adds it as an XMP chunk,
 * and the bytes go to the temporary file, opened at open, in one write. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include "murmur/file.h"
#include "murmur/alloc.h"
#include "sink.h"

typedef struct stream_sink {
    const mur_format *f;
    mur_atomic file;          /* file.path, written as file.tmp (murmur/file.h) */
    int broken;               /* a write failed: the file is not worth finishing */
    int width, height;        /* encoded size */
    int fps;
    int64_t next_pts;         /* in encoder time base = frame number in the file */
    int64_t seg_first;        /* frame number of the current segment's first frame */
    int seg_len;              /* frames per segment (mur_video_segment_frames) */
    const AVCodec *codec;     /* opened anew for every segment */
    mur_video_opts cfg;       /* what configure reads: quality, preset (static), encoder */
    _Atomic int64_t *bytes;
    AVFormatContext *mux;
    AVStream *st;
    AVCodecContext *enc;
    struct SwsContext *sws;
    AVFrame *frame;           /* reused for every frame */
    AVPacket *pkt;            /* reused for every packet */
    mur_texts *texts;         /* the subtitle track (chapters.c); NULL: none */
    int in_memory;            /* an animation: mux->pb is a dynamic buffer, file.fp the file */
    char *xmp;                /* an animation's provenance as an XMP packet (webp.c), or NULL */
} stream_sink;

/* ---- codec settings ------------------------------------------------------- */

static int preset_index(const mur_video_opts *o)
{
    const char *name = o->preset ? o->preset : "medium";
    for (int i = 0; mur_x264_presets[i]; i++)
        if (strcmp(name, mur_x264_presets[i]) == 0)
            return i;
    return 5;   /* medium; video.c has already rejected unknown names */
}

/* x264: crf is the quality, the preset trades speed for size. crf 0 is
 * lossless, which x264 can only encode in the High 4:4:4 Predictive profile
 * that browsers do not play; the range is kept 0..51 as documented, the
 * caller chooses. x264 is deterministic for a given thread count (its
 * default; --non-deterministic is off), hence the constant.
 *
 * The macroblock tree (mbtree, on in every preset from veryfast up) is
 * off: with it, x264 0.164 on a CPU with AVX-512 reads memory it never
 * wrote (the frames follow glibc's MALLOC_PERTURB_ fill; with AVX-512
 * masked off they do not), so the bitstream follows whatever the heap held.
 * With --threads 1 x264 allocates its frames in the main thread's heap,
 * full of what loading and drawing freed; behind the queue, in the encoding
 * thread's fresh arena: the decoded frames differed from run to run and
 * between the two. Without mbtree, x264 gives the same frames with or
 * without AVX-512 and whatever the heap holds. The cost (flock.yaml and
 * trails.yaml, 4 s at 1280x854, medium): at the same crf, files 18-71%
 * larger and 0.9-5.3 dB higher in PSNR; at the same size, -0.5 to +0.3 dB. */
int mur_out_configure_x264(AVCodecContext *enc, const mur_video_opts *o)
{
    enc->thread_count = MUR_OUT_THREADS;
    int ret = av_opt_set_int(enc->priv_data, "crf", o->quality, 0);
    if (ret >= 0)
        ret = av_opt_set(enc->priv_data, "preset", mur_x264_presets[preset_index(o)], 0);
    if (ret >= 0)
        ret = av_opt_set_int(enc->priv_data, "mbtree", 0, 0);
    return ret;
}

/* VP9 in constant-quality mode needs crf and a zero bit rate (otherwise the
 * rate is a cap). Its crf runs 0..63 against x264's 0..51 with a similar
 * feel at the same fraction of the range, so quality is scaled. cpu-used
 * plays the preset's part (0 slowest .. 5 fastest in "good" mode); row-mt
 * lets the fixed thread count share rows of one frame. */
int mur_out_configure_vp9(AVCodecContext *enc, const mur_video_opts *o)
{
    static const int cpu_used[] = {5, 5, 5, 5, 4, 4, 3, 2, 1, 0};
    enc->thread_count = MUR_OUT_THREADS;
    enc->bit_rate = 0;
    int ret = av_opt_set_int(enc->priv_data, "crf", lround(o->quality * 63.0 / 51.0), 0);
    if (ret >= 0)
        ret = av_opt_set(enc->priv_data, "deadline", "good", 0);
    if (ret >= 0)
        ret = av_opt_set_int(enc->priv_data, "cpu-used", cpu_used[preset_index(o)], 0);
    if (ret >= 0)
        ret = av_opt_set_int(enc->priv_data, "row-mt", 1, 0);
    return ret;
}

/* ProRes has no quality knob but a profile; quality picks it the way an
 * editor would: visually lossless settings (<= 20) get 422 HQ. The "apl0"
 * vendor tag is what Final Cut and Resolve expect from Apple's encoder. */
int mur_out_configure_prores(AVCodecContext *enc, const mur_video_opts *o)
{
    int profile = o->quality <= 20 ? 3 : o->quality <= 28 ? 2 : o->quality <= 36 ? 1 : 0;
    enc->thread_count = MUR_OUT_THREADS;
    int ret = av_opt_set_int(enc->priv_data, "profile", profile, 0);
    if (ret >= 0)
        ret = av_opt_set(enc->priv_data, "vendor", "apl0", 0);
    return ret;
}

/* ProRes 4444 (profile 4), the ProRes that carries alpha, with all 16 bits
 * of it: for translucent frames, whatever the quality. */
int mur_out_configure_prores4444(AVCodecContext *enc, const mur_video_opts *o)
{
    (void)o;
    enc->thread_count = MUR_OUT_THREADS;
    int ret = av_opt_set_int(enc->priv_data, "profile", 4, 0);
    if (ret >= 0)
        ret = av_opt_set_int(enc->priv_data, "alpha_bits", 16, 0);
    if (ret >= 0)
        ret = av_opt_set(enc->priv_data, "vendor", "apl0", 0);
    return ret;
}

/* QuickTime Animation for a GIF's chunk: lossless, one thread (it has no
 * threading to gain from). */
int mur_out_configure_qtrle(AVCodecContext *enc, const mur_video_opts *o)
{
    (void)o;
    enc->thread_count = 1;
    return 0;
}

/* Animated WebP (libwebp through libavcodec's libwebp_anim): quality maps
 * onto libwebp's 0..100 (higher is better) as 100 - 1.25 * quality, so the
 * default 20 is libwebp's and cwebp's own default 75 and 51 is 36; 0 is
 * lossless, as x264's crf 0. The preset picks libwebp's method (0 fastest
 * .. 6 smallest; medium is its default 4). libwebp's encoder runs on the
 * calling thread alone (its thread_level stays 0): the same bytes on any
 * machine. */
int mur_out_configure_webp(AVCodecContext *enc, const mur_video_opts *o)
{
    static const int method[] = {0, 1, 2, 3, 4, 4, 5, 6, 6, 6};
    enc->thread_count = 1;
    enc->compression_level = method[preset_index(o)];
    int ret = av_opt_set_int(enc->priv_data, "lossless", o->quality == 0, 0);
    if (ret >= 0)
        ret = av_opt_set_double(enc->priv_data, "quality", 100.0 - 1.25 * o->quality, 0);
    return ret;
}

/* ---- setup ---------------------------------------------------------------- */

/* Frees everything s holds and removes the temporary file if it is still
 * there. Safe on a half-built s. */
static void destroy(stream_sink *s)
{
    if (!s)
        return;
    if (s->mux) {
        if (s->in_memory && s->mux->pb) {
            uint8_t *bytes = NULL;
            avio_close_dyn_buf(s->mux->pb, &bytes);
            av_free(bytes);
            s->mux->pb = NULL;
        } else if (!(s->mux->oformat->flags & AVFMT_NOFILE)) {
            avio_closep(&s->mux->pb);
        }
        avformat_free_context(s->mux);
    }
    mur_free(s->xmp);
    mur_atomic_abort(&s->file);
    avcodec_free_context(&s->enc);
    sws_freeContext(s->sws);
    av_frame_free(&s->frame);
    av_packet_free(&s->pkt);
    mur_texts_free(s->texts);
    mur_free(s);
}

/* Formats whose pixels are RGB (a GIF chunk's lossless frames) carry no
 * YUV matrix: no colour tags, no BT.709 conversion. */
static int is_rgb(enum AVPixelFormat fmt)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    return d && (d->flags & AV_PIX_FMT_FLAG_RGB);
}

/* The RGB32 -> dst conversion of a w x h frame, on `threads` slice threads
 * (sink.h); NULL when swscale refuses it.
 *
 * AV_PIX_FMT_RGB32 is libav's name for "ARGB in a native-endian uint32",
 * which is exactly Cairo's ARGB32 (BGRA bytes on little-endian machines).
 * Cairo's pixels are premultiplied, which only matters for alpha < 255:
 * opaque frames (a painted background) drop their alpha; translucent ones
 * come unpremultiplied (video.c) and keep it in formats with an alpha plane.
 *
 * The coefficients must match the BT.709 tags on the stream. srcRange is
 * passed as full for clarity, though swscale always treats RGB as full
 * range; dstRange 0 = limited (16..235), matching AVCOL_RANGE_MPEG.
 * SWS_ACCURATE_RND|SWS_BITEXACT keep the conversion the same on every CPU,
 * so the same frames give the same bytes (DESIGN.md: frame hashes).
 *
 * SWS_FULL_CHR_H_INP: chroma is computed at every pixel and filtered down
 * to the chroma plane's width by the bicubic filter, as the rows are.
 * Without it, swscale averages each pair of pixels first, in a C loop of
 * its own (FFmpeg 5.1 has no SIMD for that step): at 1080p that took 2.3
 * of the 4.8 ms a frame's conversion took, on one core (the whole frame
 * went from 4.8 to 2.5 ms). The chroma differs by a step here and there:
 * a 1080p frame of 2,000 boids converted both ways and back to RGB is
 * 37.04 and 36.99 dB from the drawn frame. */
struct SwsContext *mur_out_converter(int width, int height, enum AVPixelFormat dst, int threads)
{
    struct SwsContext *c = sws_alloc_context();
    if (!c || av_opt_set_int(c, "srcw", width, 0) < 0 || av_opt_set_int(c, "srch", height, 0) < 0 ||
        av_opt_set_int(c, "dstw", width, 0) < 0 || av_opt_set_int(c, "dsth", height, 0) < 0 ||
        av_opt_set_int(c, "src_format", AV_PIX_FMT_RGB32, 0) < 0 || av_opt_set_int(c, "dst_format", dst, 0) < 0 ||
        av_opt_set_int(c, "sws_flags", SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT | SWS_FULL_CHR_H_INP, 0) < 0 ||
        av_opt_set_int(c, "threads", threads, 0) < 0 || sws_init_context(c, NULL, NULL) < 0) {
        sws_freeContext(c);
        return NULL;
    }
    if (is_rgb(dst))   /* a byte shuffle: no matrix */
        return c;
    const int *bt709 = sws_getCoefficients(SWS_CS_ITU709);
    if (sws_setColorspaceDetails(c, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16) < 0) {
        sws_freeContext(c);
        return NULL;
    }
    return c;
}

static int setup_sws(stream_sink *s, mur_error *err)
{
    /* Slices of the frame on threads of swscale's own (FFmpeg 5's slice
     * threading, sws_scale_frame), as many as the machine has cores: each
     * slice reads the source rows its filters need, so the output is the
     * one-thread output, bit for bit, on any machine (tests/test_video.c
     * compares them). */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cpus < 1 ? 1 : cpus > 8 ? 8 : (int)cpus;
    if (!(s->sws = mur_out_converter(s->width, s->height, s->enc->pix_fmt, threads)))
        return mur_error_set(err, MUR_ERUN, "cannot convert RGB to %s (BT.709) at %dx%d for '%s'",
                             av_get_pix_fmt_name(s->enc->pix_fmt), s->width, s->height, s->file.path);
    return MUR_OK;
}

/* Leaves *out a freshly opened encoder with the sink's settings: called
 * once at open and again at every segment boundary, always the same way,
 * so that every segment is encoded by an encoder in the same state. */
static int open_encoder(stream_sink *s, AVCodecContext **out, mur_error *err)
{
    int ret;
    const mur_format *f = s->f;
    AVCodecContext *enc = *out = avcodec_alloc_context3(s->codec);
    if (!enc)
        return mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", s->file.path);
    enc->width = s->width;
    enc->height = s->height;
    enc->pix_fmt = f->pix_fmt;
    enc->time_base = (AVRational){1, s->fps};
    enc->framerate = (AVRational){s->fps, 1};
    /* a keyframe every 2 s: cheap seeking, small files; each segment is one
     * such interval and starts with its keyframe */
    enc->gop_size = s->seg_len;
    /* Tags only: they change no pixel, they tell players which matrix,
     * primaries and range setup_sws converted with. The encoders write them
     * into the bitstream where it has room (H.264 VUI, VP9's colour space),
     * avcodec_parameters_from_context into the container. */
    if (!is_rgb(f->pix_fmt)) {
        enc->color_primaries = AVCOL_PRI_BT709;
        enc->color_trc = AVCOL_TRC_BT709;
        enc->colorspace = AVCOL_SPC_BT709;
        enc->color_range = AVCOL_RANGE_MPEG;
    }
    /* MP4 keeps SPS/PPS once in the sample description (avcC), not in
     * every keyframe; without the flag the file plays in fewer places. */
    if (s->mux->oformat->flags & AVFMT_GLOBALHEADER)
        enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (s->cfg.encoder)   /* another encoder's private options are its own business */
        enc->thread_count = MUR_OUT_THREADS;
    else if (f->configure && (ret = f->configure(enc, &s->cfg)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot set %s options for '%s': %s", f->encoder,
                             s->file.path, av_err2str(ret));
    if ((ret = avcodec_open2(enc, s->codec, NULL)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot open the %s encoder for '%s': %s",
                             s->codec->name, s->file.path, av_err2str(ret));
    return MUR_OK;
}

/* Leaves *out a frame as the encoder takes it, with its pixels. */
static int new_frame(const stream_sink *s, AVFrame **out, mur_error *err)
{
    const AVCodecContext *enc = s->enc;
    AVFrame *frame = *out = av_frame_alloc();
    if (!frame)
        return mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", s->file.path);
    frame->format = enc->pix_fmt;
    frame->width = enc->width;
    frame->height = enc->height;
    /* Some encoders (prores_ks) take the tags from each frame, not the
     * context; left unset, they write "unspecified" into every frame. */
    frame->color_primaries = enc->color_primaries;
    frame->color_trc = enc->color_trc;
    frame->colorspace = enc->colorspace;
    frame->color_range = enc->color_range;
    int ret = av_frame_get_buffer(frame, 0);
    if (ret < 0)
        return mur_error_set(err, MUR_ERUN, "cannot allocate a %dx%d frame for '%s': %s",
                             s->width, s->height, s->file.path, av_err2str(ret));
    return MUR_OK;
}

/* Enters with the muxer allocated; leaves with the encoder open, the
 * stream's parameters copied from it, and s->frame allocated. */
static int setup_encoder(stream_sink *s, const mur_video_opts *o, mur_error *err)
{
    int ret;
    if (!(s->codec = mur_out_find_encoder(s->f, o, err)))
        return MUR_ERUN;
    if (!(s->st = avformat_new_stream(s->mux, NULL)))
        return mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", s->file.path);
    if ((ret = open_encoder(s, &s->enc, err)) < 0)
        return ret;
    AVCodecContext *enc = s->enc;
    if ((ret = avcodec_parameters_from_context(s->st->codecpar, enc)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot set up the stream of '%s': %s", s->file.path,
                             av_err2str(ret));
    /* A hint only: the muxer picks its own time base in write_header. */
    s->st->time_base = enc->time_base;

    if (!(s->pkt = av_packet_alloc()))
        return mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", s->file.path);
    return new_frame(s, &s->frame, err);
}

static int stream_open(void **out, const mur_format *f, const mur_video_opts *o, int w, int h,
                       _Atomic int64_t *bytes, mur_error *err)
{
    int code = MUR_ERUN, ret;
    AVDictionary *mux_opts = NULL;
    stream_sink *s = mur_calloc(1, sizeof *s);
    *out = NULL;
    if (!s) {
        mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", o->path);
        goto fail;
    }
    if (mur_atomic_begin(&s->file, o->path, 0, err))   /* sweeps a killed render's temporaries */
        goto fail;
    s->f = f;
    s->width = w;
    s->height = h;
    s->fps = o->fps;
    /* an animation's one encoder takes the whole clip: no segments */
    s->seg_len = f->animation ? INT_MAX : (int)mur_video_segment_frames(o->fps);
    s->bytes = bytes;
    /* What open_encoder reads again at every segment: the caller's strings
     * are not ours to keep, so the preset is the table's own name. */
    s->cfg.quality = o->quality;
    s->cfg.preset = mur_x264_presets[preset_index(o)];
    s->cfg.encoder = o->encoder ? "" : NULL;   /* set: another encoder, found once */

    /* The muxer is named, not guessed: the temporary name ends in .part.<pid>. */
    ret = avformat_alloc_output_context2(&s->mux, NULL, f->muxer, s->file.tmp);
    if (ret < 0 || !s->mux) {
        mur_error_set(err, MUR_ERUN, "cannot set up the %s muxer for '%s': %s", f->muxer,
                      s->file.path, av_err2str(ret < 0 ? ret : AVERROR(ENOMEM)));
        goto fail;
    }
    if ((code = setup_encoder(s, o, err)) < 0 || (code = setup_sws(s, err)) < 0 ||
        (code = mur_texts_open(&s->texts, s->mux, o, s->file.path, err)) < 0)
        goto fail;
    code = MUR_ERUN;
    if (o->metadata && !f->animation &&
        (ret = av_dict_set(&s->mux->metadata, "comment", o->metadata, 0)) < 0) {
        mur_error_set(err, MUR_ERUN, "cannot store metadata for '%s': %s", s->file.path,
                      av_err2str(ret));
        goto fail;
    }
    if (o->metadata && f->animation && !(s->xmp = mur_out_xmp_packet(o->metadata))) {
        mur_error_set(err, MUR_ERUN, "out of memory storing metadata for '%s'", s->file.path);
        goto fail;
    }

    if (f->animation) {   /* into memory; the file is made now, so a bad folder fails here */
        if (!mur_atomic_fopen(&s->file, "wb", err))
            goto fail;
        if ((ret = avio_open_dyn_buf(&s->mux->pb)) < 0) {
            mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", s->file.path);
            goto fail;
        }
        s->in_memory = 1;
    } else if (!(s->mux->oformat->flags & AVFMT_NOFILE)) {
        if ((ret = avio_open(&s->mux->pb, s->file.tmp, AVIO_FLAG_WRITE)) < 0) {
            mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", s->file.path, av_err2str(ret));
            goto fail;
        }
    }
    if ((ret = av_dict_parse_string(&mux_opts, f->muxer_opts, "=", ":", 0)) < 0 ||
        (ret = avformat_write_header(s->mux, &mux_opts)) < 0) {
        mur_error_set(err, MUR_ERUN, "cannot write the %s header of '%s': %s", f->muxer,
                      s->file.path, av_err2str(ret));
        goto fail;
    }
    if ((code = mur_texts_write(s->texts, s->mux, o, s->file.path, err)) < 0)
        goto fail;
    code = MUR_ERUN;
    *out = s;
    s = NULL;
    code = MUR_OK;

fail:
    av_dict_free(&mux_opts);
    destroy(s);
    return code;
}

/* ---- frames ---------------------------------------------------------------- */

/* Sends one frame (NULL: end of stream) and writes every packet the encoder
 * has ready; after NULL, that is all of them. */
static int encode(stream_sink *s, const AVFrame *frame, mur_error *err)
{
    int ret = avcodec_send_frame(s->enc, frame);
    if (ret < 0)
        return mur_error_set(err, MUR_ERUN, "cannot encode '%s': %s", s->file.path,
                             av_err2str(ret));
    for (;;) {
        ret = avcodec_receive_packet(s->enc, s->pkt);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
            return MUR_OK;
        if (ret < 0)
            return mur_error_set(err, MUR_ERUN, "cannot encode '%s': %s", s->file.path,
                                 av_err2str(ret));
        /* libx264 leaves durations 0 in libav 5.1, and the muxer then
         * gives the last frame no time at all: the file is a frame short
         * (23/24 s for 24 frames) and its frame rate reads 25.04. Every
         * frame lasts exactly one tick of 1/fps. */
        if (s->pkt->duration == 0)
            s->pkt->duration = 1;
        /* Each segment's encoder counts frames from 0: its packets move to
         * the segment's place in the file. */
        s->pkt->pts += s->seg_first;
        s->pkt->dts += s->seg_first;
        /* The stream's time base is the muxer's choice (made in
         * write_header), not the 1/fps we hinted. */
        av_packet_rescale_ts(s->pkt, s->enc->time_base, s->st->time_base);
        s->pkt->stream_index = s->st->index;
        /* Takes the packet's reference and leaves pkt blank, even on error. */
        if ((ret = av_interleaved_write_frame(s->mux, s->pkt)) < 0)
            return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", s->file.path,
                                 av_err2str(ret));
        atomic_store(s->bytes, avio_tell(s->mux->pb));
    }
}

/* Ends the current segment (its encoder flushed into the file and freed)
 * and starts the next with a fresh encoder whose headers must equal the
 * first one's: the container stores them once for the whole stream. */
static int next_segment(stream_sink *s, mur_error *err)
{
    int code = encode(s, NULL, err);
    if (code < 0)
        return code;
    avcodec_free_context(&s->enc);
    if ((code = open_encoder(s, &s->enc, err)) < 0)
        return code;
    const AVCodecParameters *par = s->st->codecpar;
    if (s->enc->extradata_size != par->extradata_size ||
        (par->extradata_size &&
         memcmp(s->enc->extradata, par->extradata, (size_t)par->extradata_size) != 0))
        return mur_error_set(err, MUR_ERUN,
                             "cannot write '%s': the %s encoder's headers differ between segments",
                             s->file.path, s->codec->name);
    s->seg_first = s->next_pts;
    return MUR_OK;
}

static void keep_pixels(void *opaque, uint8_t *data)
{
    (void)opaque;
    (void)data;
}

/* The caller's pixels converted into frame, the encoder's format. Touches
 * only the conversion and frame: with a queue it runs in the caller's
 * thread while the encoding thread encodes another frame. */
static int convert(stream_sink *s, AVFrame *frame, const uint8_t *pixels, int stride, mur_error *err)
{
    /* The encoder may still hold a reference to this frame's buffers;
     * this copies only in that case. */
    int ret = av_frame_make_writable(frame);
    if (ret < 0)
        return mur_error_set(err, MUR_ERUN, "cannot encode '%s': %s", s->file.path, av_err2str(ret));
    /* The caller's pixels as a frame swscale can take a reference to
     * without copying them: a buffer that frees nothing, dropped before
     * this returns. */
    AVFrame *src = av_frame_alloc();
    AVBufferRef *buf = src ? av_buffer_create((uint8_t *)pixels, (size_t)stride * (size_t)s->height,
                                              keep_pixels, NULL, AV_BUFFER_FLAG_READONLY)
                           : NULL;
    if (!buf) {
        av_frame_free(&src);
        return mur_error_set(err, MUR_ERUN, "out of memory converting a frame for '%s'", s->file.path);
    }
    src->buf[0] = buf;
    src->data[0] = (uint8_t *)pixels;
    src->linesize[0] = stride;
    src->width = s->width;
    src->height = s->height;
    src->format = AV_PIX_FMT_RGB32;
    ret = sws_scale_frame(s->sws, frame, src);
    av_frame_free(&src);
    if (ret < 0)
        return mur_error_set(err, MUR_ERUN, "cannot convert a frame for '%s': %s", s->file.path,
                             av_err2str(ret));
    return MUR_OK;
}

/* A converted frame into the encoder (and a fresh encoder first at a
 * segment's end). */
static int stream_write_slot(void *sink, void *slot, mur_error *err)
{
    stream_sink *s = sink;
    AVFrame *frame = slot;
    int code = MUR_ERUN;
    if (s->broken) {
        mur_error_set(err, MUR_ERUN, "cannot write '%s': an earlier frame failed", s->file.path);
        goto fail;
    }
    if (s->next_pts > s->seg_first && s->next_pts - s->seg_first == s->seg_len &&
        (code = next_segment(s, err)) < 0)
        goto fail;
    frame->pts = s->next_pts++ - s->seg_first;
    code = encode(s, frame, err);

fail:
    if (code < 0)
        s->broken = 1;
    return code;
}

static int stream_write(void *sink, const uint8_t *pixels, int stride, mur_error *err)
{
    stream_sink *s = sink;
    if (!s->broken) {
        int code = convert(s, s->frame, pixels, stride, err);
        if (code < 0) {
            s->broken = 1;
            return code;
        }
    }
    return stream_write_slot(s, s->frame, err);
}

/* The queue's slots (sink.h): frames in the encoder's format (3/8 of the
 * caller's ARGB32 in 4:2:0), converted in the caller's thread straight
 * from its pixels, instead of a full copy of them converted in the
 * encoding thread. */
static void *stream_slot_new(void *sink)
{
    AVFrame *frame = NULL;
    mur_error err;
    if (new_frame(sink, &frame, &err) < 0)
        av_frame_free(&frame);
    return frame;
}

static int stream_convert(void *sink, void *slot, const uint8_t *pixels, int stride, mur_error *err)
{
    return convert(sink, slot, pixels, stride, err);
}

static void stream_slot_free(void *slot)
{
    AVFrame *frame = slot;
    av_frame_free(&frame);
}

/* An animation's file: the muxer's bytes from memory, with the provenance
 * (webp.c) when there is one, written to the temporary file in one go;
 * mur_atomic_commit then reports a failed write or close. */
static int write_animation(stream_sink *s, mur_error *err)
{
    uint8_t *bytes = NULL, *with_xmp = NULL;
    size_t n_xmp = 0;
    int failed = s->mux->pb->error;   /* a write into memory that failed: ENOMEM */
    int n = avio_close_dyn_buf(s->mux->pb, &bytes);
    s->mux->pb = NULL;
    int code = failed < 0 ? mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", s->file.path, av_err2str(failed))
               : n > 0    ? MUR_OK
                          : mur_error_set(err, MUR_ERUN, "cannot write '%s': the muxer wrote nothing", s->file.path);
    if (!code && s->xmp)
        code = mur_out_webp_add_xmp(bytes, (size_t)n, s->xmp, &with_xmp, &n_xmp, s->file.path, err);
    const uint8_t *out = with_xmp ? with_xmp : bytes;
    size_t len = with_xmp ? n_xmp : (size_t)(n > 0 ? n : 0);
    if (!code && fwrite(out, 1, len, s->file.fp) != len && !s->file.error)
        s->file.error = errno ? errno : EIO;
    if (!code)
        atomic_store(s->bytes, (int64_t)len);
    mur_out_webp_free(with_xmp);
    av_free(bytes);
    return code;
}

static int stream_close(void *sink, mur_error *err)
{
    stream_sink *s = sink;
    int code = MUR_ERUN, ret;
    if (s->broken) {
        mur_error_set(err, MUR_ERUN, "not finishing '%s': an earlier frame failed", s->file.path);
        goto fail;
    }
    if (s->next_pts == 0) {
        mur_error_set(err, MUR_ERUN, "not writing '%s': no frames", s->file.path);
        goto fail;
    }
    if ((code = encode(s, NULL, err)) < 0)
        goto fail;
    code = MUR_ERUN;
    /* With +faststart this rewrites the whole file (see video.c's formats). */
    if ((ret = av_write_trailer(s->mux)) < 0) {
        mur_error_set(err, MUR_ERUN, "cannot finish '%s': %s", s->file.path, av_err2str(ret));
        goto fail;
    }
    if (s->in_memory) {
        if ((code = write_animation(s, err)) < 0)
            goto fail;
        code = MUR_ERUN;
    } else if (!(s->mux->oformat->flags & AVFMT_NOFILE)) {
        /* The last buffer goes out here, so a full disk may show only now;
         * avio_closep reports the close, not a failed flush, hence pb->error. */
        avio_flush(s->mux->pb);
        atomic_store(s->bytes, avio_tell(s->mux->pb));
        if ((ret = s->mux->pb->error) < 0 || (ret = avio_closep(&s->mux->pb)) < 0) {
            mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", s->file.path, av_err2str(ret));
            goto fail;
        }
    }
    code = mur_atomic_commit(&s->file, err);

fail:
    destroy(s);
    return code;
}

static void stream_abort(void *sink)
{
    destroy(sink);
}

const mur_sink_ops mur_stream_sink = {.open = stream_open,
                                       .write = stream_write,
                                       .close = stream_close,
                                       .abort = stream_abort,
                                       .slot_new = stream_slot_new,
                                       .convert = stream_convert,
                                       .write_slot = stream_write_slot,
                                       .slot_free = stream_slot_free};
