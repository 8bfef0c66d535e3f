/* The test-side reader of decode.h: demux with libavformat, decode with
 * libavcodec (one thread, so results never depend on scheduling), convert
 * with libswscale. Each public function is one callback over decode_all. */
#include "decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include <webp/decode.h>
#include <webp/demux.h>

/* Called for each decoded frame in order; returns 0 to go on, 1 to stop,
 * negative on error. The frame is only valid during the call. */
typedef int (*frame_fn)(void *ctx, const AVStream *st, const AVFrame *frame, int index);

/* Hands every ready frame to fn; 0 when the decoder wants more input. */
static int drain(AVCodecContext *dec, AVFrame *frame, const AVStream *st, frame_fn fn,
                 void *ctx, int *n)
{
    for (;;) {
        int ret = avcodec_receive_frame(dec, frame);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF)
            return 0;
        if (ret < 0)
            return ret;
        ret = fn(ctx, st, frame, *n);
        (*n)++;
        av_frame_unref(frame);
        if (ret)
            return ret;
    }
}

/* Opens path; an image sequence pattern (DIR/%05d.png) may start at any
 * number, not only 0..4 as the image2 demuxer's default search allows. */
static int open_input(AVFormatContext **fmt, const char *path)
{
    AVDictionary *opts = NULL;
    if (strchr(path, '%'))
        av_dict_set(&opts, "start_number_range", "1000000", 0);
    int ret = avformat_open_input(fmt, path, NULL, &opts);
    av_dict_free(&opts);
    return ret;
}

/* Decodes path's first video stream, calling fn per frame. Returns the
 * number of frames decoded (up to the one fn stopped at), or -1. */
static int decode_all(const char *path, frame_fn fn, void *ctx)
{
    AVFormatContext *fmt = NULL;
    AVCodecContext *dec = NULL;
    AVPacket *pkt = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    int n = 0, ret, result = -1;
    const char *what = "out of memory";

    if (!pkt || !frame)
        goto fail;
    what = "cannot open";
    if ((ret = open_input(&fmt, path)) < 0)
        goto fail;
    what = "cannot read stream info";
    if ((ret = avformat_find_stream_info(fmt, NULL)) < 0)
        goto fail;
    what = "no video stream";
    const AVCodec *codec = NULL;
    int idx = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (idx < 0 || !codec)
        goto fail;
    AVStream *st = fmt->streams[idx];
    what = "cannot open decoder";
    if (!(dec = avcodec_alloc_context3(codec)) ||
        avcodec_parameters_to_context(dec, st->codecpar) < 0)
        goto fail;
    dec->thread_count = 1;
    if (avcodec_open2(dec, codec, NULL) < 0)
        goto fail;

    what = "cannot decode";
    ret = 0;
    while (ret == 0 && (ret = av_read_frame(fmt, pkt)) >= 0) {
        if (pkt->stream_index == idx) {
            ret = avcodec_send_packet(dec, pkt);
            if (ret >= 0)
                ret = drain(dec, frame, st, fn, ctx, &n);
        }
        av_packet_unref(pkt);
    }
    if (ret == AVERROR_EOF) {   /* flush the frames the decoder still holds */
        ret = avcodec_send_packet(dec, NULL);
        if (ret >= 0)
            ret = drain(dec, frame, st, fn, ctx, &n);
    }
    if (ret < 0)
        goto fail;
    result = n;

fail:
    if (result < 0)
        fprintf(stderr, "  decode: %s: %s\n", path, what);
    av_frame_free(&frame);
    av_packet_free(&pkt);
    avcodec_free_context(&dec);
    avformat_close_input(&fmt);
    return result;
}

/* ---- probe ---------------------------------------------------------------- */

static int probe_frame(void *ctx, const AVStream *st, const AVFrame *f, int index)
{
    test_video_info *info = ctx;
    if (index > 0)
        return 0;
    const char *pix = av_get_pix_fmt_name(f->format);
    snprintf(info->codec, sizeof info->codec, "%s", avcodec_get_name(st->codecpar->codec_id));
    snprintf(info->pix_fmt, sizeof info->pix_fmt, "%s", pix ? pix : "none");
    info->width = f->width;
    info->height = f->height;
    info->primaries = f->color_primaries;
    info->trc = f->color_trc;
    info->colorspace = f->colorspace;
    info->range = f->color_range;
    info->fps = st->avg_frame_rate.den ? av_q2d(st->avg_frame_rate) : 0;
    return 0;
}

int test_video_probe(const char *path, test_video_info *out)
{
    memset(out, 0, sizeof *out);
    int n = decode_all(path, probe_frame, out);
    if (n < 0)
        return -1;
    out->frames = n;
    return 0;
}

/* ---- one frame as RGB ------------------------------------------------------ */

typedef struct {
    int index;
    uint8_t *rgb;
    int w, h;
    int failed;
} rgb_job;

/* Players' view of a frame: BT.709 matrix, limited-range YUV expanded to
 * full-range RGB (RGB and palette frames are only unpacked). Converted
 * into an aligned buffer first (swscale's SIMD may write whole blocks past
 * a row's end), then copied out tightly. */
static int rgb_frame(void *ctx, const AVStream *st, const AVFrame *f, int index)
{
    (void)st;
    rgb_job *job = ctx;
    if (index != job->index)
        return 0;
    uint8_t *data[4] = {NULL};
    int linesize[4];
    struct SwsContext *sws = sws_getContext(
        f->width, f->height, f->format, f->width, f->height, AV_PIX_FMT_RGB24,
        SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT | SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
    const int *bt709 = sws_getCoefficients(SWS_CS_ITU709);
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    int yuv = d && !(d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL));
    job->failed = 1;
    if (!sws || (yuv && sws_setColorspaceDetails(sws, bt709, 0, bt709, 1, 0, 1 << 16, 1 << 16) < 0))
        goto done;
    if (av_image_alloc(data, linesize, f->width, f->height, AV_PIX_FMT_RGB24, 64) < 0)
        goto done;
    if (sws_scale(sws, (const uint8_t *const *)f->data, f->linesize, 0, f->height, data,
                  linesize) != f->height)
        goto done;
    size_t row = (size_t)f->width * 3;
    if (!(job->rgb = malloc(row * (size_t)f->height)))
        goto done;
    for (int y = 0; y < f->height; y++)
        memcpy(job->rgb + row * (size_t)y, data[0] + (size_t)linesize[0] * (size_t)y, row);
    job->w = f->width;
    job->h = f->height;
    job->failed = 0;
done:
    av_freep(&data[0]);
    sws_freeContext(sws);
    return job->failed ? -1 : 1;
}

int test_video_frame_rgb(const char *path, int index, uint8_t **rgb, int *w, int *h)
{
    rgb_job job = {.index = index, .failed = 1};
    *rgb = NULL;
    if (decode_all(path, rgb_frame, &job) < 0 || job.failed || !job.rgb) {
        free(job.rgb);
        return -1;
    }
    *rgb = job.rgb;
    *w = job.w;
    *h = job.h;
    return 0;
}

/* ---- planes ------------------------------------------------------------------ */

/* Plane p of f: its visible bytes a row (never the padding) and its rows.
 * 0, or -1 when f has no such plane. */
static int plane_size(const AVFrame *f, int p, int *bytes, int *rows)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    if (!d || p < 0 || p >= av_pix_fmt_count_planes(f->format))
        return -1;
    int chroma = (p == 1 || p == 2) && !(d->flags & AV_PIX_FMT_FLAG_RGB);
    *bytes = av_image_get_linesize(f->format, f->width, p);
    *rows = chroma ? AV_CEIL_RSHIFT(f->height, d->log2_chroma_h) : f->height;
    return *bytes < 0 ? -1 : 0;
}

/* ---- one plane as stored ---------------------------------------------------- */

typedef struct {
    int index, plane;
    uint8_t *bytes;
    int w, h;
} plane_job;

static int plane_frame(void *ctx, const AVStream *st, const AVFrame *f, int index)
{
    (void)st;
    plane_job *job = ctx;
    if (index != job->index)
        return 0;
    int bytes, rows;
    if (plane_size(f, job->plane, &bytes, &rows) || !(job->bytes = malloc((size_t)bytes * (size_t)rows)))
        return -1;
    for (int y = 0; y < rows; y++)
        memcpy(job->bytes + (size_t)bytes * (size_t)y, f->data[job->plane] + (ptrdiff_t)f->linesize[job->plane] * y,
               (size_t)bytes);
    job->w = bytes;
    job->h = rows;
    return 1;
}

int test_video_frame_plane(const char *path, int index, int p, uint8_t **bytes, int *w, int *h)
{
    plane_job job = {.index = index, .plane = p};
    *bytes = NULL;
    if (decode_all(path, plane_frame, &job) < 0 || !job.bytes) {
        free(job.bytes);
        return -1;
    }
    *bytes = job.bytes;
    *w = job.w;
    *h = job.h;
    return 0;
}

/* ---- hash ----------------------------------------------------------------- */

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

typedef struct {
    uint64_t h;
    int first, count;   /* frames hashed: first .. first+count-1 (count < 0: all) */
    int hashed;
} hash_job;

static void fnv(uint64_t *h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        *h ^= p[i];
        *h *= FNV_PRIME;
    }
}

/* Every plane's visible bytes, row by row (never the padding), and a
 * palette format's palette, into *h: any pixel format, planar or packed.
 * 0, or -1. */
static int frame_fnv(uint64_t *h, const AVFrame *f)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);
    int planes = av_pix_fmt_count_planes(f->format);
    if (!d || planes < 1)
        return -1;
    for (int p = 0; p < planes; p++) {
        int bytes, rows;
        if (plane_size(f, p, &bytes, &rows))
            return -1;
        for (int y = 0; y < rows; y++)
            fnv(h, f->data[p] + (ptrdiff_t)f->linesize[p] * y, (size_t)bytes);
    }
    if (d->flags & AV_PIX_FMT_FLAG_PAL)
        fnv(h, f->data[1], 256 * 4);
    return 0;
}

uint64_t test_frame_hash(const AVFrame *f)
{
    uint64_t h = FNV_OFFSET;
    return frame_fnv(&h, f) ? 0 : h;
}

static int hash_frame(void *ctx, const AVStream *st, const AVFrame *f, int index)
{
    (void)st;
    hash_job *job = ctx;
    if (index < job->first)
        return 0;
    if (job->count >= 0 && index >= job->first + job->count)
        return 1;
    if (frame_fnv(&job->h, f))
        return -1;
    job->hashed++;
    return 0;
}

uint64_t test_video_hash(const char *path)
{
    return test_video_hash_range(path, 0, -1);
}

uint64_t test_video_hash_range(const char *path, int first, int count)
{
    hash_job job = {.h = FNV_OFFSET, .first = first, .count = count};
    if (decode_all(path, hash_frame, &job) < 0 || (count >= 0 && job.hashed != count))
        return 0;
    return job.h;
}

/* ---- container tags --------------------------------------------------------- */

int test_video_tag(const char *path, const char *key, char *buf, size_t n)
{
    AVFormatContext *fmt = NULL;
    int result = -1;
    if (open_input(&fmt, path) < 0)
        return -1;
    /* Some containers keep tags after the header (a GIF comment follows
     * the first image's palette): reading the stream info reaches them. */
    avformat_find_stream_info(fmt, NULL);
    const AVDictionaryEntry *e = av_dict_get(fmt->metadata, key, NULL, 0);
    if (e) {
        snprintf(buf, n, "%s", e->value);
        result = 0;
    }
    avformat_close_input(&fmt);
    return result;
}

/* ---- animated WebP ---------------------------------------------------------- */

uint8_t *test_read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *bytes = NULL;
    long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (len >= 0 && fseek(f, 0, SEEK_SET) == 0 && (bytes = malloc((size_t)len + 1)) &&
        fread(bytes, 1, (size_t)len, f) != (size_t)len) {
        free(bytes);
        bytes = NULL;
    }
    fclose(f);
    if (bytes)
        *n = (size_t)len;
    return bytes;
}

int test_webp_frame_rgba(const char *path, int index, uint8_t **rgba, int *w, int *h)
{
    size_t n = 0;
    uint8_t *bytes = test_read_file(path, &n);
    *rgba = NULL;
    if (!bytes)
        return -1;
    WebPAnimDecoderOptions opt;
    WebPAnimDecoderOptionsInit(&opt);
    opt.color_mode = MODE_RGBA;   /* straight alpha; MODE_rgbA would premultiply */
    WebPData data = {bytes, n};
    WebPAnimDecoder *dec = WebPAnimDecoderNew(&data, &opt);
    WebPAnimInfo info;
    if (dec && WebPAnimDecoderGetInfo(dec, &info)) {
        uint8_t *px;
        int ts;
        for (int k = 0; WebPAnimDecoderHasMoreFrames(dec) && WebPAnimDecoderGetNext(dec, &px, &ts); k++) {
            if (k < index)
                continue;
            size_t size = (size_t)info.canvas_width * info.canvas_height * 4;
            if ((*rgba = malloc(size))) {
                memcpy(*rgba, px, size);
                *w = (int)info.canvas_width;
                *h = (int)info.canvas_height;
            }
            break;
        }
    }
    WebPAnimDecoderDelete(dec);
    free(bytes);
    return *rgba ? 0 : -1;
}

int test_webp_provenance(const char *path, char *buf, size_t n)
{
    size_t len = 0;
    uint8_t *bytes = test_read_file(path, &len);
    if (!bytes || n == 0) {
        free(bytes);
        return -1;
    }
    WebPData data = {bytes, len};
    WebPDemuxer *demux = WebPDemux(&data);
    WebPChunkIterator it;
    char *xmp = NULL;
    if (demux && (WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS) & XMP_FLAG) &&
        WebPDemuxGetChunk(demux, "XMP ", 1, &it)) {
        if ((xmp = malloc(it.chunk.size + 1))) {
            memcpy(xmp, it.chunk.bytes, it.chunk.size);
            xmp[it.chunk.size] = 0;
        }
        WebPDemuxReleaseChunkIterator(&it);
    }
    WebPDemuxDelete(demux);
    free(bytes);
    static const char open[] = "<murmur:provenance>", close[] = "</murmur:provenance>";
    const char *a = xmp ? strstr(xmp, open) : NULL, *b = a ? strstr(a, close) : NULL;
    int result = a && b && !strstr(b + 1, open) && strstr(b, "<?xpacket end=") ? 0 : -1;
    size_t at = 0;
    for (const char *p = a ? a + strlen(open) : NULL; result == 0 && p < b; at++) {
        static const char *const ent[] = {"&amp;", "&lt;", "&gt;", "&#13;"};
        static const char chr[] = {'&', '<', '>', '\r'};
        char c = *p;
        if (c == '<' || at + 1 >= n) {
            result = -1;
            break;
        }
        if (c == '&') {
            int k = 0;
            while (k < 4 && strncmp(p, ent[k], strlen(ent[k])) != 0)
                k++;
            if (k == 4) {
                result = -1;
                break;
            }
            c = chr[k];
            p += strlen(ent[k]);
        } else {
            p++;
        }
        buf[at] = c;
    }
    buf[result == 0 ? at : 0] = 0;
    free(xmp);
    return result;
}
