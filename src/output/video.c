/* The video writer: options checked, a format picked by extension, and the
 * frames handed to that format's sink (sink.h), either in the caller's
 * thread or through a bounded queue to an encoding thread.
 *
 * The queue is what lets a render use the machine: the caller steps and
 * draws frame k+1 while frame k encodes. It holds at most opts.queue frames
 * (the renderer draws the next frame into the same image): for the stream
 * formats, frames converted to the encoder's pixel format in the caller's
 * thread, straight from its pixels (a 4:2:0 frame is 3/8 of the ARGB32
 * one); for the others, copies of the caller's pixels. Memory
 * stays flat however long the video. Frames leave the queue in the order they entered and the
 * sink sees exactly the calls a synchronous writer would make, so the
 * output is the same bytes with or without it. */
#include "murmur/video.h"
#include "murmur/limits.h"
#include "murmur/alloc.h"

#include <assert.h>
#include <stddef.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "murmur/file.h"
#include "sink.h"

/* Limits of mur_video_opts, as the header documents them. H.264 levels stop
 * near 16880 pixels a side and far lower in area (level 6.2 is about
 * 8192x4320), so sizes near the top encode but many players refuse them;
 * checking that is the caller's business. */
#define MIN_SIDE 2
#define MAX_SIDE 16384
#define MAX_FPS MUR_MAX_FPS
#define MAX_QUALITY MUR_MAX_QUALITY
#define MAX_QUEUE 64
#define MAX_WEBP_SIDE 16383   /* WebP stores each side minus one in 14 bits */

/* +faststart moves the index (moov) in front of the media data, so a
 * browser can start playing before the whole file has arrived. The mov
 * muxer does it in av_write_trailer by re-opening the output by name for
 * reading: the output must be a seekable regular file, and the context's url
 * must be the name actually written (the temporary one).
 *
 * GIF stores delays in hundredths of a second and browsers stretch delays
 * under 2/100 s to 1/10 s, so a GIF faster than 50 fps plays slower than
 * one at 50: refused rather than written wrong.
 *
 * An animated WebP (libwebp's WebPAnimEncoder through libavcodec) stores
 * each frame's time in whole milliseconds and browsers show frames of 10 ms
 * or less for 100 ms: up to 60 fps (16 or 17 ms a frame) it plays at its
 * rate. It is fed Cairo's ARGB32 as it is (AV_PIX_FMT_RGB32): libwebp
 * makes its own YUV, with the BT.601 matrix every WebP decoder assumes.
 * The muxer's loop=0 (loop forever) is also the encoder's own default. */
static const mur_format formats[] = {
    {".mp4", "H.264", "libx264", AV_CODEC_ID_H264, "mp4", "movflags=+faststart", AV_PIX_FMT_YUV420P, 1, MAX_FPS,
     mur_out_configure_x264, &mur_stream_sink, 0},
    {".webm", "VP9", "libvpx-vp9", AV_CODEC_ID_VP9, "webm", "", AV_PIX_FMT_YUV420P, 1, MAX_FPS,
     mur_out_configure_vp9, &mur_stream_sink, 0},
    {".mov", "ProRes 422", "prores_ks", AV_CODEC_ID_PRORES, "mov", "", AV_PIX_FMT_YUV422P10LE, 1, MAX_FPS,
     mur_out_configure_prores, &mur_stream_sink, 0},
    {".gif", "GIF", "gif", AV_CODEC_ID_GIF, "gif", "", AV_PIX_FMT_PAL8, 0, 50, NULL, &mur_gif_sink, 0},
    {".webp", "animated WebP", "libwebp_anim", AV_CODEC_ID_WEBP, "webp", "loop=0", AV_PIX_FMT_RGB32, 0, 60,
     mur_out_configure_webp, &mur_stream_sink, 1},
    {".png", "PNG", "png", AV_CODEC_ID_PNG, NULL, "", AV_PIX_FMT_RGB24, 0, MAX_FPS, NULL, &mur_sequence_sink, 0},
};
#define NFORMATS (sizeof formats / sizeof formats[0])

/* The formats that keep alpha, for translucent frames (opts.alpha): for
 * laying a flock over a slide or another video. VP9 carries alpha as a
 * second stream Chromium and ffmpeg's libvpx decoder read. An animated
 * WebP takes the same straight ARGB as its opaque row (libwebp_anim hands
 * RGB32 to libwebp as its ARGB, alpha and all): libwebp keeps the alpha
 * in each frame's ALPH chunk, losslessly, and makes the YUV itself with
 * the BT.601 matrix WebP decoders assume; its other input, yuva420p, would
 * be swscale's BT.709 here, which they would decode wrong. */
static const mur_format alpha_formats[] = {
    {".webm", "VP9 with alpha", "libvpx-vp9", AV_CODEC_ID_VP9, "webm", "", AV_PIX_FMT_YUVA420P, 1, MAX_FPS,
     mur_out_configure_vp9, &mur_stream_sink, 0},
    {".mov", "ProRes 4444 with alpha", "prores_ks", AV_CODEC_ID_PRORES, "mov", "", AV_PIX_FMT_YUVA444P10LE, 1, MAX_FPS,
     mur_out_configure_prores4444, &mur_stream_sink, 0},
    {".webp", "animated WebP with alpha", "libwebp_anim", AV_CODEC_ID_WEBP, "webp", "loop=0", AV_PIX_FMT_RGB32, 0, 60,
     mur_out_configure_webp, &mur_stream_sink, 1},
    {".png", "PNG with alpha", "png", AV_CODEC_ID_PNG, NULL, "", AV_PIX_FMT_RGBA, 0, MAX_FPS, NULL, &mur_sequence_sink, 0},
};

/* A chunk of a GIF render: its frames kept exactly, for murmur join to
 * give the whole video one palette. QuickTime Animation (qtrle) in a
 * QuickTime file, what gif.c keeps its own intermediate in: exact RGB, run
 * lengths of changed lines, small on a painted background. */
static const mur_format gif_chunk_format = {".gif", "GIF chunk (QuickTime Animation)", "qtrle", AV_CODEC_ID_QTRLE, "mov",
                                            "", AV_PIX_FMT_RGB24, 0, 50, mur_out_configure_qtrle,
                                            &mur_stream_sink, 0};

const mur_format *mur_out_gif_chunk_format(void) { return &gif_chunk_format; }

long mur_video_segment_frames(int fps) { return 2L * fps; }

int mur_video_chunk_frames(long frames, int fps, int k, int n, long *first, long *count,
                           mur_error *err)
{
    assert(frames > 0 && fps > 0);
    long len = mur_video_segment_frames(fps), segs = (frames + len - 1) / len;
    if (n < 1 || k < 1 || k > n)
        return mur_error_set(err, MUR_EINPUT, "chunk %d of %d does not exist (chunks count 1 to N)",
                             k, n);
    if (n > segs)
        return mur_error_set(err, MUR_EINPUT,
                             "%d chunks of a video of %ld segments: chunks are cut every 2 s of "
                             "video (%ld frames), so at most %ld",
                             n, segs, len, segs);
    long a = (long)((int64_t)(k - 1) * segs / n), b = (long)((int64_t)k * segs / n);
    *first = a * len;
    *count = (b * len < frames ? b * len : frames) - *first;
    return MUR_OK;
}

const char *const mur_x264_presets[] = {"ultrafast", "superfast", "veryfast", "faster",
                                        "fast",      "medium",    "slow",     "slower",
                                        "veryslow",  "placebo",   NULL};

struct mur_video {
    const mur_format *f;
    void *sink;                /* the format's own state */
    int width, height;         /* encoded size */
    _Atomic int64_t bytes;     /* published by the sink */

    /* The queue: a ring of `depth` slots; the caller fills slot (head +
     * count) % depth, the thread drains slot head. A slot is touched by one
     * side only: the caller's before count grows over it, the thread's
     * until head moves past it. A slot is the sink's own (frames converted
     * as its encoder takes them, sink.h) or else a copy of the caller's
     * pixels, slot_stride bytes a row. depth 0 = no thread. */
    int depth;
    size_t slot_stride;
    void **slots;
    int head, count;
    int closing;               /* no more frames: drain, then stop */
    int quit;                  /* abort: stop now */
    int failed;                /* a sink write failed; err below says why */
    mur_error thread_err;
    int thread_code;
    int started;
    uint8_t *straight;         /* alpha: the frame unpremultiplied, width x height x 4 */
    char *metadata;            /* a chunk's: the chunk line, then the caller's */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;    /* any of count, closing, quit, failed changed */
};

/* The table's extensions as ".a, .b" for messages. */
static const char *format_list(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < NFORMATS && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "",
                                 formats[i].ops == &mur_sequence_sink ? "DIR/%05d.png"
                                                                      : formats[i].ext);
    return buf;
}

static int preset_known(const char *name)
{
    for (int i = 0; mur_x264_presets[i]; i++)
        if (strcmp(name, mur_x264_presets[i]) == 0)
            return 1;
    return 0;
}

/* The format path's extension names, or NULL and err filled (MUR_EINPUT). */
static const mur_format *format_of(const char *path, mur_error *err)
{
    char list[96];
    if (!path || !path[0]) {
        mur_error_set(err, MUR_EINPUT, "no output path given");
        return NULL;
    }
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base) {   /* "x" or ".mp4" alone: no extension */
        mur_error_set(err, MUR_EINPUT, "output path '%s' has no extension (use %s)", path,
                      format_list(list, sizeof list));
        return NULL;
    }
    for (size_t i = 0; i < NFORMATS; i++)
        if (strcasecmp(dot, formats[i].ext) == 0)
            return &formats[i];
    mur_error_set(err, MUR_EINPUT, "unsupported output format '%s' (use %s)", dot,
                  format_list(list, sizeof list));
    return NULL;
}

const mur_format *mur_out_format_of(const char *path, mur_error *err)
{
    return format_of(path, err);
}

int mur_video_check_path(const char *path, mur_error *err)
{
    const mur_format *f = format_of(path, err);
    if (!f)
        return MUR_EINPUT;
    return f->ops == &mur_sequence_sink ? mur_sequence_check(path, err) : MUR_OK;
}

void mur_video_encoded_size(const char *path, int width, int height, int *out_w, int *out_h)
{
    const mur_format *f = format_of(path, NULL);
    int even = f && f->even;
    *out_w = even ? width & ~1 : width;
    *out_h = even ? height & ~1 : height;
}

/* The alpha-keeping row for format f, or NULL. */
static const mur_format *alpha_format(const mur_format *f)
{
    for (size_t i = 0; i < sizeof alpha_formats / sizeof alpha_formats[0]; i++)
        if (!strcmp(alpha_formats[i].ext, f->ext))
            return &alpha_formats[i];
    return NULL;
}

int mur_video_check_alpha(const char *path, mur_error *err)
{
    const mur_format *f = format_of(path, err);
    if (!f)
        return MUR_EINPUT;
    if (!alpha_format(f))
        return mur_error_set(err, MUR_EINPUT,
                             "%s (%s) has no alpha channel: a translucent background needs .mov "
                             "(ProRes 4444), .webm (VP9 with alpha), .webp (animated WebP) or "
                             "DIR/%%05d.png", f->ext, f->label);
    return MUR_OK;
}

/* Enters with any opts; leaves with the format for opts->path, or NULL and
 * err filled (MUR_EINPUT) when an option is out of range. */
static const mur_format *check_opts(const mur_video_opts *opts, mur_error *err)
{
    const mur_format *f = format_of(opts->path, err);
    if (!f)
        return NULL;
    if (opts->alpha && mur_video_check_alpha(opts->path, err))
        return NULL;
    if (opts->alpha)
        f = alpha_format(f);
    if (opts->width < MIN_SIDE || opts->width > MAX_SIDE || opts->height < MIN_SIDE ||
        opts->height > MAX_SIDE) {
        mur_error_set(err, MUR_EINPUT, "video size %dx%d is out of range (each side %d..%d)",
                      opts->width, opts->height, MIN_SIDE, MAX_SIDE);
        return NULL;
    }
    if (f->animation && (opts->width > MAX_WEBP_SIDE || opts->height > MAX_WEBP_SIDE)) {
        mur_error_set(err, MUR_EINPUT, "video size %dx%d is too large for %s (each side at most %d)",
                      opts->width, opts->height, f->ext, MAX_WEBP_SIDE);
        return NULL;
    }
    if (opts->fps < 1 || opts->fps > f->max_fps) {
        mur_error_set(err, MUR_EINPUT, "video fps %d is out of range for %s (1..%d)%s", opts->fps,
                      f->ext, f->max_fps,
                      f->max_fps == MAX_FPS ? ""
                      : f->animation        ? ": browsers slow faster animated WebPs down"
                                            : ": browsers slow faster GIFs down");
        return NULL;
    }
    if (opts->quality < 0 || opts->quality > MAX_QUALITY) {
        mur_error_set(err, MUR_EINPUT, "video quality %d is out of range (0..%d, lower is better)",
                      opts->quality, MAX_QUALITY);
        return NULL;
    }
    if (opts->preset && !preset_known(opts->preset)) {
        mur_error_set(err, MUR_EINPUT,
                      "unknown preset '%s' (use ultrafast, superfast, veryfast, faster, fast, "
                      "medium, slow, slower, veryslow or placebo)",
                      opts->preset);
        return NULL;
    }
    if (opts->first_number < 0) {
        mur_error_set(err, MUR_EINPUT, "first frame number %ld is negative", opts->first_number);
        return NULL;
    }
    if (opts->queue < 0 || opts->queue > MAX_QUEUE) {
        mur_error_set(err, MUR_EINPUT, "queue of %d frames is out of range (0..%d)", opts->queue,
                      MAX_QUEUE);
        return NULL;
    }
    return f;
}

char *mur_out_temp_name(const char *path, const char *suffix)
{
    return mur_file_temp_name(path, suffix);
}

const AVCodec *mur_out_find_encoder(const mur_format *f, const mur_video_opts *o, mur_error *err)
{
    const char *name = o->encoder ? o->encoder : f->encoder;
    const AVCodec *codec = avcodec_find_encoder_by_name(name);
    if (!codec)
        mur_error_set(err, MUR_ERUN,
                      "cannot write '%s': the %s encoder '%s' is not in this machine's libav build",
                      o->path, f->label, name);
    return codec;
}

/* A chunk's options: its place in the render, and a format join can make
 * the whole of (not a PNG sequence, whose frames keep the whole render's
 * numbers anyway: --from and --to cut it). */
static int check_chunk(const mur_video_opts *o, const mur_format *f, mur_error *err)
{
    if (f->ops == &mur_sequence_sink)
        return mur_error_set(err, MUR_EINPUT,
                             "'%s': a chunk is a .mp4, .webm, .mov or .gif, not a PNG sequence (cut "
                             "one with --from and --to: it needs no join)", o->path);
    if (f->animation)
        return mur_error_set(err, MUR_EINPUT,
                             "'%s': a chunk is a .mp4, .webm, .mov or .gif, not an animated WebP (its "
                             "one encoder takes the whole clip: render it whole)", o->path);
    if (o->nchunks < 1 || o->chunk < 1 || o->chunk > o->nchunks || o->chunk_frames < 1)
        return mur_error_set(err, MUR_EINPUT, "chunk %d of %d (%ld frames) is not a chunk",
                             o->chunk, o->nchunks, o->chunk_frames);
    if (o->nsubtitles)
        return mur_error_set(err, MUR_EINPUT,
                             "'%s': a chunk carries no subtitle track (murmur join could not make "
                             "the whole render's captions of it)", o->path);
    return MUR_OK;
}

/* ---- the encoding thread ------------------------------------------------- */

/* Drains the queue into the sink until closing with nothing left, quit, or
 * a failed write; signals are for the main thread (it polls a flag), so
 * they are blocked here. */
static void *encode_main(void *arg)
{
    mur_video *v = arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    pthread_mutex_lock(&v->lock);
    for (;;) {
        while (!v->count && !v->closing && !v->quit)
            pthread_cond_wait(&v->changed, &v->lock);
        if (v->quit || !v->count)
            break;
        void *slot = v->slots[v->head];
        pthread_mutex_unlock(&v->lock);
        mur_error err = {{0}};
        const mur_sink_ops *ops = v->f->ops;
        int code = ops->write_slot ? ops->write_slot(v->sink, slot, &err)
                                   : ops->write(v->sink, slot, (int)v->slot_stride, &err);
        pthread_mutex_lock(&v->lock);
        if (code < 0) {
            v->failed = 1;
            v->thread_code = code;
            v->thread_err = err;
            pthread_cond_broadcast(&v->changed);
            break;
        }
        v->head = (v->head + 1) % v->depth;
        v->count--;
        pthread_cond_broadcast(&v->changed);
    }
    pthread_mutex_unlock(&v->lock);
    return NULL;
}

/* Stops the thread: after the queue drains (drain) or at once. Returns the
 * code of a failed write, or MUR_OK. */
static int stop_thread(mur_video *v, int drain, mur_error *err)
{
    if (!v->started)
        return MUR_OK;
    pthread_mutex_lock(&v->lock);
    v->closing = 1;
    if (!drain)
        v->quit = 1;
    pthread_cond_broadcast(&v->changed);
    pthread_mutex_unlock(&v->lock);
    pthread_join(v->thread, NULL);
    v->started = 0;
    if (v->failed) {
        if (err)
            *err = v->thread_err;
        return v->thread_code;
    }
    return MUR_OK;
}

static void destroy(mur_video *v)
{
    if (!v)
        return;
    if (v->slots) {
        for (int i = 0; i < v->depth; i++) {
            if (v->f->ops->slot_free && v->slots[i])
                v->f->ops->slot_free(v->slots[i]);
            else
                mur_free(v->slots[i]);
        }
        mur_free(v->slots);
    }
    if (v->depth) {
        pthread_mutex_destroy(&v->lock);
        pthread_cond_destroy(&v->changed);
    }
    mur_free(v->straight);
    mur_free(v->metadata);
    mur_free(v);
}

static int start_queue(mur_video *v, int depth, mur_error *err)
{
    v->slot_stride = (size_t)v->width * 4;
    if (!(v->slots = mur_calloc((size_t)depth, sizeof *v->slots)))
        goto oom;
    v->depth = depth;
    pthread_mutex_init(&v->lock, NULL);
    pthread_cond_init(&v->changed, NULL);
    for (int i = 0; i < depth; i++)
        if (!(v->slots[i] = v->f->ops->slot_new ? v->f->ops->slot_new(v->sink)
                                                : mur_malloc(v->slot_stride * (size_t)v->height)))
            goto oom;
    if (pthread_create(&v->thread, NULL, encode_main, v) != 0)
        return mur_error_set(err, MUR_ERUN, "cannot start the encoding thread");
    v->started = 1;
    return MUR_OK;
oom:
    return mur_error_set(err, MUR_ERUN, "out of memory for a queue of %d %dx%d frames", depth,
                         v->width, v->height);
}

/* ---- the public API --------------------------------------------------------- */

void mur_video_opts_init(mur_video_opts *out) { *out = (mur_video_opts)MUR_VIDEO_OPTS_INIT; }

int mur_video_open(mur_video **out, const mur_video_opts *opts, mur_error *err)
{
    assert(out && opts);
    int code;
    mur_video *v = NULL;
    *out = NULL;

    if (!MUR_VERSION_OK(opts->version, 1, MUR_VIDEO_OPTS_VERSION))
        return mur_error_set(err, MUR_EINPUT, "video options of version %u (this murmur takes 1 to %d)",
                             opts->version, MUR_VIDEO_OPTS_VERSION);
    /* older versions end before the chapters (1) or the chunk (2): read
     * only that much of them */
    mur_video_opts v3 = {0};
    memcpy(&v3, opts, opts->version == 1   ? offsetof(mur_video_opts, chapters)
                      : opts->version == 2 ? offsetof(mur_video_opts, chunk)
                                           : sizeof v3);
    opts = &v3;
    const mur_format *f = check_opts(opts, err);
    if (!f)
        return MUR_EINPUT;
    if (opts->nsubtitles && (f->ops != &mur_stream_sink || f->animation))
        return mur_error_set(err, MUR_EINPUT,
                             "'%s': a subtitle track goes in .mp4, .mov or .webm, not %s (write "
                             "subtitles beside it instead)", opts->path, f->ext);
    if (opts->chunk && (code = check_chunk(opts, f, err)) < 0)
        return code;
    if (opts->chunk && f->ops == &mur_gif_sink)
        f = &gif_chunk_format;
    if (!(v = mur_calloc(1, sizeof *v)))
        return mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", opts->path);
    v->f = f;
    if (opts->chunk) {   /* the chunk line first: murmur join reads it back */
        const char *meta = opts->metadata ? opts->metadata : "";
        size_t n = strlen(meta) + 128;
        if (!(v->metadata = mur_malloc(n))) {
            destroy(v);
            return mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", opts->path);
        }
        snprintf(v->metadata, n, MUR_VIDEO_CHUNK_LINE "%s", opts->chunk, opts->nchunks,
                 opts->first_number, opts->first_number + opts->chunk_frames - 1, meta);
        v3.metadata = v->metadata;
    }
    /* yuv420p and yuv422p store one chroma sample per 2 pixels across
     * (420: and down): round down to even. */
    v->width = f->even ? opts->width & ~1 : opts->width;
    v->height = f->even ? opts->height & ~1 : opts->height;
    atomic_init(&v->bytes, 0);
    code = MUR_ERUN;
    if (opts->alpha && !(v->straight = mur_malloc((size_t)v->width * (size_t)v->height * 4))) {
        mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", opts->path);
        goto fail;
    }
    if ((code = f->ops->open(&v->sink, f, opts, v->width, v->height, &v->bytes, err)) < 0)
        goto fail;
    if (opts->queue && (code = start_queue(v, opts->queue, err)) < 0)
        goto fail;
    *out = v;
    return MUR_OK;
fail:
    if (v->sink)
        f->ops->abort(v->sink);
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

int64_t mur_video_bytes(const mur_video *v)
{
    assert(v);
    return atomic_load(&v->bytes);
}

/* Cairo's premultiplied ARGB32 to straight alpha, the same layout (what
 * swscale and the PNG encoder take): each colour times 255 / alpha,
 * rounded; a clear pixel is all zeros. */
static void unpremultiply(const mur_video *v, const uint8_t *pixels, int stride)
{
    for (int y = 0; y < v->height; y++) {
        const uint32_t *in = (const uint32_t *)(const void *)(pixels + (size_t)stride * (size_t)y);
        uint32_t *out = (uint32_t *)(void *)(v->straight + (size_t)v->width * 4 * (size_t)y);
        for (int x = 0; x < v->width; x++) {
            uint32_t p = in[x], a = p >> 24;
            if (a == 255 || a == 0) {
                out[x] = a ? p : 0;
                continue;
            }
            uint32_t r = ((p >> 16 & 255) * 255 + a / 2) / a, g = ((p >> 8 & 255) * 255 + a / 2) / a,
                     b = ((p & 255) * 255 + a / 2) / a;
            out[x] = a << 24 | (r > 255 ? 255 : r) << 16 | (g > 255 ? 255 : g) << 8 | (b > 255 ? 255 : b);
        }
    }
}

int mur_video_write(mur_video *v, const uint8_t *pixels, int stride, mur_error *err)
{
    assert(v && pixels && stride >= 4 * v->width);
    if (v->straight) {
        unpremultiply(v, pixels, stride);
        pixels = v->straight;
        stride = 4 * v->width;
    }
    if (!v->depth)
        return v->f->ops->write(v->sink, pixels, stride, err);

    pthread_mutex_lock(&v->lock);
    while (v->count == v->depth && !v->failed)
        pthread_cond_wait(&v->changed, &v->lock);
    int failed = v->failed, slot = (v->head + v->count) % v->depth;
    pthread_mutex_unlock(&v->lock);
    if (failed) {
        if (err)
            *err = v->thread_err;
        return v->thread_code;
    }
    /* Outside the lock: the thread does not look at this slot until count
     * covers it. */
    if (v->f->ops->convert) {
        int code = v->f->ops->convert(v->sink, v->slots[slot], pixels, stride, err);
        if (code < 0)
            return code;
    } else {
        uint8_t *copy = v->slots[slot];
        for (int y = 0; y < v->height; y++)
            memcpy(copy + v->slot_stride * (size_t)y, pixels + (size_t)stride * (size_t)y, v->slot_stride);
    }
    pthread_mutex_lock(&v->lock);
    v->count++;
    pthread_cond_broadcast(&v->changed);
    pthread_mutex_unlock(&v->lock);
    return MUR_OK;
}

int mur_video_close(mur_video *v, mur_error *err)
{
    assert(v);
    int code = stop_thread(v, 1, err);
    if (code < 0)
        v->f->ops->abort(v->sink);
    else
        code = v->f->ops->close(v->sink, err);
    destroy(v);
    return code;
}

void mur_video_abort(mur_video *v)
{
    if (!v)
        return;
    stop_thread(v, 0, NULL);
    v->f->ops->abort(v->sink);
    destroy(v);
}
