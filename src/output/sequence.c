/* The image-sequence sink: DIR/NAME%05d.png, one PNG per frame (libav's
 * PNG encoder, sRGB-tagged RGB24: exactly the pixels Cairo drew, no YUV),
 * and the provenance text as DIR/NAME.txt beside them.
 *
 * Every file is written under a temporary name in the same directory and
 * renamed when complete, so a file at a frame's name is always a whole PNG,
 * even after kill -9. The provenance file is written first, under its
 * temporary name, and published by close: a sequence with its text beside
 * it is one that finished (or was interrupted and finalised). A failed or
 * abandoned sequence removes the frames it wrote.
 *
 * The folder is locked while a sequence is written (murmur/file.h): two
 * renders into one folder would interleave their frames under one
 * numbering, so the second is refused. Temporaries that killed renders
 * left in the folder (a frame's or the provenance's) are removed at open. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libswscale/swscale.h>

#include "murmur/file.h"
#include "murmur/alloc.h"
#include "sink.h"

typedef struct seq_sink {
    char *pattern;            /* the path as given, for messages */
    char *prefix, *suffix;    /* around the number, '%%' already unescaped */
    int digits;               /* zero-padded width of the number (0: none) */
    char *name;               /* scratch: one frame's final name */
    mur_atomic txt;           /* provenance, open from open to close; zeroed when none */
    long first, count;        /* numbers first .. first+count-1 are on disk */
    int width, height;
    _Atomic int64_t *bytes;
    int64_t total;
    AVCodecContext *enc;
    struct SwsContext *sws;
    AVFrame *frame;
    AVPacket *pkt;
    int broken;
    char *dir;                /* the folder, "." for none */
    int lock;                 /* its lock (mur_file_lock_dir), or -1 */
} seq_sink;

/* Appends text[0..n) to out with "%%" read as "%". */
static void unescape(char *out, const char *text, size_t n)
{
    size_t j = strlen(out);
    for (size_t i = 0; i < n; i++) {
        out[j++] = text[i];
        if (text[i] == '%')
            i++;
    }
    out[j] = '\0';
}

/* Splits path into prefix, a "%d" or "%0Nd" conversion in the file name,
 * and suffix. 0, or -1 when there is not exactly one such conversion there
 * (any other '%' but "%%" counts as a wrong one). */
static int parse_pattern(seq_sink *s, const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *conv = NULL, *after = NULL;
    if (strchr(path, '%') && strchr(path, '%') < base)
        return -1;   /* a pattern in a directory name: one folder per frame is not a sequence */
    for (const char *p = base; *p; p++) {
        if (*p != '%')
            continue;
        if (p[1] == '%') {
            p++;
            continue;
        }
        const char *q = p + 1;
        int digits = 0;
        if (*q == '0') {
            q++;
            while (*q >= '0' && *q <= '9' && digits < 100)
                digits = digits * 10 + (*q++ - '0');
            if (digits < 1 || digits > 18)
                return -1;
        }
        if (*q != 'd' || conv)
            return -1;
        conv = p;
        after = q + 1;
        s->digits = digits;
        p = q;
    }
    if (!conv)
        return -1;
    size_t len = strlen(path);
    if (!(s->prefix = mur_calloc(len + 1, 1)) || !(s->suffix = mur_calloc(len + 1, 1)))
        return -2;
    unescape(s->prefix, path, (size_t)(conv - path));
    unescape(s->suffix, after, strlen(after));
    return 0;
}

static int pattern_error(const char *path, mur_error *err)
{
    return mur_error_set(err, MUR_EINPUT,
                         "image sequence '%s' needs one frame number in its file name, "
                         "like DIR/%%05d.png", path);
}

int mur_sequence_check(const char *path, mur_error *err)
{
    seq_sink s = {0};
    int ret = parse_pattern(&s, path);
    mur_free(s.prefix);
    mur_free(s.suffix);
    if (ret == -2)
        return mur_error_set(err, MUR_ERUN, "out of memory");
    return ret < 0 ? pattern_error(path, err) : MUR_OK;
}

/* "DIR/NAME.txt" where NAME is the file name's text before the number, less
 * trailing separators, or "frames" when that leaves nothing. */
static char *provenance_name(const seq_sink *s)
{
    const char *slash = strrchr(s->prefix, '/');
    const char *stem = slash ? slash + 1 : s->prefix;
    size_t dirlen = (size_t)(stem - s->prefix), n = strlen(stem);
    while (n && strchr("_-. ", stem[n - 1]))
        n--;
    char *out = mur_malloc(dirlen + (n ? n : 6) + 5);
    if (out)
        sprintf(out, "%.*s%.*s.txt", (int)dirlen, s->prefix, n ? (int)n : 6, n ? stem : "frames");
    return out;
}

static void frame_name(seq_sink *s, long number)
{
    sprintf(s->name, "%s%0*ld%s", s->prefix, s->digits, number, s->suffix);
}

static void destroy(seq_sink *s, int remove_frames)
{
    if (!s)
        return;
    if (remove_frames)
        for (long i = 0; i < s->count; i++) {
            frame_name(s, s->first + i);
            remove(s->name);
        }
    mur_atomic_abort(&s->txt);
    mur_file_unlock_dir(s->dir, s->lock);
    avcodec_free_context(&s->enc);
    sws_freeContext(s->sws);
    av_frame_free(&s->frame);
    av_packet_free(&s->pkt);
    mur_free(s->pattern);
    mur_free(s->prefix);
    mur_free(s->suffix);
    mur_free(s->name);
    mur_free(s->dir);
    mur_free(s);
}

/* Writes n bytes as path's complete contents, atomically (murmur/file.h):
 * the folder is swept once, at open. 0 or MUR_ERUN. */
static int write_whole(const char *path, const void *data, size_t n, mur_error *err)
{
    mur_atomic a;
    int rc = mur_atomic_begin(&a, path, MUR_ATOMIC_SWEPT, err);
    if (rc)
        return rc;
    if (!mur_atomic_fopen(&a, "wb", err)) {
        mur_atomic_abort(&a);
        return MUR_ERUN;
    }
    if (fwrite(data, 1, n, a.fp) != n)
        a.error = errno;
    return mur_atomic_commit(&a, err);
}

/* Whether stem (of a temporary name) is one of s's frames or its
 * provenance file: the file name's prefix, digits, suffix. */
static int is_own_stem(const char *stem, void *ctx)
{
    const seq_sink *s = ctx;
    const char *slash = strrchr(s->prefix, '/'), *txt = s->txt.path;
    const char *pre = slash ? slash + 1 : s->prefix, *txt_base = txt ? strrchr(txt, '/') : NULL;
    size_t np = strlen(pre), ns = strlen(s->suffix), n = strlen(stem), digits = 0;
    if (txt && strcmp(stem, txt_base ? txt_base + 1 : txt) == 0)
        return 1;
    if (n <= np + ns || strncmp(stem, pre, np) != 0 || strcmp(stem + n - ns, s->suffix) != 0)
        return 0;
    for (const char *p = stem + np; p < stem + n - ns; p++, digits++)
        if (*p < '0' || *p > '9')
            return 0;
    return digits >= (size_t)(s->digits ? s->digits : 1);
}

/* A sequence is its folder: made when missing, with the folders above it
 * (mkdir -p). A part that cannot be made is left for access() below to
 * name (a file in the way: "Not a directory"). */
static void make_folder(char *dir)
{
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0777);
            *p = '/';
        }
    mkdir(dir, 0777);
}

/* Takes the folder's lock and removes what dead renders left in it. */
static int lock_folder(seq_sink *s, const char *path, mur_error *err)
{
    long holder = 0;
    if ((s->lock = mur_file_lock_dir(s->dir, &holder)) < 0) {
        if (errno == EWOULDBLOCK && holder > 0)
            return mur_error_set(err, MUR_ERUN, "%s is being written by another murmur (pid %ld)",
                                 s->dir, holder);
        if (errno == EWOULDBLOCK)
            return mur_error_set(err, MUR_ERUN, "%s is being written by another murmur", s->dir);
        return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", path, strerror(errno));
    }
    mur_file_sweep(s->dir, is_own_stem, s);
    return MUR_OK;
}

/* Names the provenance file (s->txt), before the folder is swept for its
 * temporaries. */
static int begin_provenance(seq_sink *s, mur_error *err)
{
    char *txt = provenance_name(s);
    if (!txt)
        return mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", s->pattern);
    int rc = mur_atomic_begin(&s->txt, txt, MUR_ATOMIC_SWEPT, err);
    mur_free(txt);
    return rc;
}

/* Writes the provenance under its temporary name, kept open until close
 * publishes it; flushed now, so a full disk fails before the first frame. */
static int write_provenance(seq_sink *s, const char *text, mur_error *err)
{
    size_t n = strlen(text);
    if (!mur_atomic_fopen(&s->txt, "wb", err))
        return MUR_ERUN;
    if (fwrite(text, 1, n, s->txt.fp) != n || fflush(s->txt.fp) != 0)
        return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", s->txt.path, strerror(errno));
    return MUR_OK;
}

static int seq_open(void **out, const mur_format *f, const mur_video_opts *o, int w, int h,
                    _Atomic int64_t *bytes, mur_error *err)
{
    int code = MUR_ERUN, ret;
    seq_sink *s = mur_calloc(1, sizeof *s);
    *out = NULL;
    if (!s)
        goto oom;
    s->lock = -1;
    if (!(s->pattern = mur_strdup(o->path)))
        goto oom;
    if ((ret = parse_pattern(s, o->path)) == -2)
        goto oom;
    if (ret < 0) {
        code = pattern_error(o->path, err);
        goto fail;
    }
    /* The longest name: prefix, 19 digits of a long, suffix. */
    if (!(s->name = mur_malloc(strlen(s->prefix) + strlen(s->suffix) + 24)))
        goto oom;
    s->first = o->first_number;
    s->width = w;
    s->height = h;
    s->bytes = bytes;

    /* The folder must exist and take files now, not after the first frame
     * has been drawn. */
    const char *slash = strrchr(s->prefix, '/');
    if (!(s->dir = slash ? mur_strndup(s->prefix, slash > s->prefix ? (size_t)(slash - s->prefix) : 1)
                         : mur_strdup(".")))
        goto oom;
    make_folder(s->dir);
    int denied = access(s->dir, W_OK | X_OK) != 0 ? errno : 0;
    if (denied) {
        code = mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", o->path, strerror(denied));
        goto fail;
    }
    if (o->metadata && (code = begin_provenance(s, err)) < 0)
        goto fail;
    if ((code = lock_folder(s, o->path, err)) < 0 ||
        (o->metadata && (code = write_provenance(s, o->metadata, err)) < 0))
        goto fail;
    code = MUR_ERUN;

    const AVCodec *codec = mur_out_find_encoder(f, o, err);
    if (!codec)
        goto fail;
    if (!(s->enc = avcodec_alloc_context3(codec)) || !(s->frame = av_frame_alloc()) ||
        !(s->pkt = av_packet_alloc()))
        goto oom;
    s->enc->width = w;
    s->enc->height = h;
    s->enc->pix_fmt = f->pix_fmt;
    s->enc->time_base = (AVRational){1, o->fps};
    if ((ret = avcodec_open2(s->enc, codec, NULL)) < 0) {
        code = mur_error_set(err, MUR_ERUN, "cannot open the %s encoder for '%s': %s",
                             codec->name, o->path, av_err2str(ret));
        goto fail;
    }
    s->frame->format = f->pix_fmt;
    s->frame->width = w;
    s->frame->height = h;
    /* Cairo's colours are sRGB: the tag makes the PNG say so. */
    s->frame->color_trc = AVCOL_TRC_IEC61966_2_1;
    s->frame->color_primaries = AVCOL_PRI_BT709;
    if ((ret = av_frame_get_buffer(s->frame, 0)) < 0)
        goto oom;
    /* Same size, RGB to RGB: a byte shuffle, exact. */
    s->sws = sws_getContext(w, h, AV_PIX_FMT_RGB32, w, h, f->pix_fmt,
                            SWS_POINT | SWS_ACCURATE_RND | SWS_BITEXACT, NULL, NULL, NULL);
    if (!s->sws)
        goto oom;
    *out = s;
    return MUR_OK;
oom:
    code = mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", o->path);
fail:
    destroy(s, 0);
    return code;
}

static int seq_write(void *sink, const uint8_t *pixels, int stride, mur_error *err)
{
    seq_sink *s = sink;
    int ret;
    long number = s->first + s->count;
    if (s->broken)
        return mur_error_set(err, MUR_ERUN, "cannot write '%s': an earlier frame failed",
                             s->pattern);
    frame_name(s, number);
    if ((ret = av_frame_make_writable(s->frame)) < 0)
        goto av_fail;
    const uint8_t *src[4] = {pixels, NULL, NULL, NULL};
    int src_stride[4] = {stride, 0, 0, 0};
    if (sws_scale(s->sws, src, src_stride, 0, s->height, s->frame->data, s->frame->linesize) !=
        s->height) {
        ret = AVERROR(EINVAL);
        goto av_fail;
    }
    s->frame->pts = s->count;
    /* Intra-only and without delay: one frame in, one packet out. */
    if ((ret = avcodec_send_frame(s->enc, s->frame)) < 0 ||
        (ret = avcodec_receive_packet(s->enc, s->pkt)) < 0)
        goto av_fail;
    int rc = write_whole(s->name, s->pkt->data, (size_t)s->pkt->size, err);
    s->total += s->pkt->size;
    av_packet_unref(s->pkt);
    if (rc) {
        s->broken = 1;
        return rc;
    }
    s->count++;
    atomic_store(s->bytes, s->total);
    return MUR_OK;
av_fail:
    s->broken = 1;
    return mur_error_set(err, MUR_ERUN, "cannot encode '%s': %s", s->name, av_err2str(ret));
}

static int seq_close(void *sink, mur_error *err)
{
    seq_sink *s = sink;
    int code = MUR_ERUN;
    if (s->broken) {
        mur_error_set(err, MUR_ERUN, "not finishing '%s': an earlier frame failed", s->pattern);
        goto fail;
    }
    if (s->count == 0) {
        mur_error_set(err, MUR_ERUN, "not writing '%s': no frames", s->pattern);
        goto fail;
    }
    if (s->txt.path && (code = mur_atomic_commit(&s->txt, err)) < 0)
        goto fail;
    destroy(s, 0);
    return MUR_OK;
fail:
    destroy(s, 1);
    return code;
}

static void seq_abort(void *sink)
{
    destroy(sink, 1);
}

const mur_sink_ops mur_sequence_sink = {.open = seq_open, .write = seq_write, .close = seq_close, .abort = seq_abort};
