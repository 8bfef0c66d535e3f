/* murmur join: the chunks of a chunked render (render --chunk) made into
 * the file the whole render writes.
 *
 * Every video is encoded in segments of 2 s, each by a fresh encoder (see
 * stream.c), and a chunk is a run of whole segments, so a chunk's packets
 * are the very packets the whole render makes for those frames: joining is
 * a stream copy with each chunk's timestamps moved by its first frame's
 * time. Nothing is decoded, nothing is encoded again, and the decoded
 * frames are the whole render's. A GIF is the exception: its one palette
 * is computed from every frame, so its chunks hold their frames losslessly
 * (QuickTime Animation) and the join decodes them into the GIF writer
 * (gif.c), exactly as a whole render feeds it.
 *
 * What a chunk is and where it goes is in its metadata: its first line is
 * MUR_VIDEO_CHUNK_LINE (chunk K of N, frames A to B), the rest the whole
 * render's metadata. So parts are ordered by K whatever order they are
 * given in; a missing or repeated chunk, a chunk of another render (its
 * metadata differs: another scene, seed, size, frame rate or version), one
 * of another codec or size, and a truncated one (fewer frames than its
 * line says) are refused before the output is kept. The output is written
 * under a temporary name and renamed when complete (mur_atomic).
 *
 * A join holds at most one part open (besides its output): each part's
 * header is read and kept (probe_part: chunk line, stream parameters,
 * chapters) and the file closed, then each is opened again only while its
 * packets are copied. So a join takes more parts than the open-file limit
 * (often 1024) allows at once. A part opened again must still be the
 * chunk its probe found. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/mathematics.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include "murmur/alloc.h"
#include "murmur/file.h"
#include "murmur/video.h"
#include "sink.h"

/* A command line holds a few thousand names; a render's segments bound
 * the useful count far lower. */
#define MAX_PARTS 100000
/* Far beyond any render's frames (a day at 240 fps is 2e7): a chunk line
 * claiming more is damaged, and frame arithmetic stays far from overflow. */
#define MAX_FRAME 1000000000000L

/* A part's chapter, in ms from the part's first frame. */
typedef struct chapter {
    int64_t start, end;
    char *title;              /* NULL: untitled */
} chapter;

/* What the probe of a part keeps once the file is closed: all the checks,
 * the output's stream and its chapters need. */
typedef struct part {
    const char *path;
    int k, n;                 /* chunk k of n */
    long first, last;         /* frames, the whole render's numbers, last inclusive */
    char *rest;               /* the metadata after the chunk line */
    AVCodecParameters *par;   /* its video stream's */
    AVRational fps;           /* its video stream's frame rate */
    char *alpha;              /* its video stream's alpha_mode tag, or NULL */
    chapter *chapters;
    int nchapters;
} part;

/* A part open for reading: the demuxer, its video stream and its chunk
 * line (rest points into in's dictionary). Held for one part at a time. */
typedef struct source {
    AVFormatContext *in;
    AVStream *st;
    int k, n;
    long first, last;
    const char *rest;
} source;

typedef struct joiner {
    const char *path;
    const mur_format *f;
    part *parts;
    int nparts;
    AVRational fps;
    volatile sig_atomic_t *stop;
    mur_atomic file;
    AVFormatContext *out;
    AVStream *ost;
    AVPacket *pkt;
    long frames;
} joiner;

static void free_parts(joiner *j)
{
    for (int i = 0; j->parts && i < j->nparts; i++) {
        part *p = &j->parts[i];
        mur_free(p->rest);
        mur_free(p->alpha);
        avcodec_parameters_free(&p->par);
        for (int c = 0; c < p->nchapters; c++)
            mur_free(p->chapters[c].title);
        mur_free(p->chapters);
    }
    mur_free(j->parts);
}

/* ---- reading the parts ----------------------------------------------------- */

#define MS ((AVRational){1, 1000})

static void close_source(source *s)
{
    avformat_close_input(&s->in);
    s->st = NULL;
}

/* Opens path and reads its chunk line into s; MUR_EINPUT naming the file
 * when it is no chunk of a murmur render (s closed). */
static int open_source(source *s, const char *path, mur_error *err)
{
    int ret, rc = MUR_OK;
    memset(s, 0, sizeof *s);
    char why[160];
    if (mur_file_check_input(path, 0, why, sizeof why))   /* a pipe would block the demuxer for good */
        return mur_error_set(err, MUR_EINPUT, "cannot read chunk '%s': it %s", path, why);
    if ((ret = avformat_open_input(&s->in, path, NULL, NULL)) < 0)
        return mur_error_set(err, MUR_EINPUT, "cannot read chunk '%s': %s", path, av_err2str(ret));
    if ((ret = avformat_find_stream_info(s->in, NULL)) < 0) {
        rc = mur_error_set(err, MUR_EINPUT, "'%s' is not a readable video: %s", path, av_err2str(ret));
        goto fail;
    }
    for (unsigned i = 0; i < s->in->nb_streams && !s->st; i++) {
        AVStream *st = s->in->streams[i];
        if (st->codecpar->codec_type == AVMEDIA_TYPE_VIDEO &&
            !(st->disposition & AV_DISPOSITION_ATTACHED_PIC))
            s->st = st;
    }
    const AVDictionaryEntry *c = av_dict_get(s->in->metadata, "comment", NULL, 0);
    const char *nl = c ? strchr(c->value, '\n') : NULL;
    if (!s->st || !c || !nl ||
        sscanf(c->value, MUR_VIDEO_CHUNK_LINE, &s->k, &s->n, &s->first, &s->last) != 4 ||
        s->n < 1 || s->k < 1 || s->k > s->n || s->first < 0 || s->last < s->first ||
        s->last > MAX_FRAME) {
        rc = mur_error_set(err, MUR_EINPUT,
                           "'%s' is not a chunk of a murmur render (render --chunk K/N)", path);
        goto fail;
    }
    s->rest = nl + 1;
    return MUR_OK;
fail:
    close_source(s);
    return rc;
}

/* Copies s's chapters into p, in ms from p's first frame. */
static int keep_chapters(part *p, const source *s)
{
    if (!s->in->nb_chapters)
        return 0;
    if (!(p->chapters = mur_calloc(s->in->nb_chapters, sizeof *p->chapters)))
        return -1;
    for (unsigned i = 0; i < s->in->nb_chapters; i++) {
        const AVChapter *c = s->in->chapters[i];
        const AVDictionaryEntry *t = av_dict_get(c->metadata, "title", NULL, 0);
        chapter *ch = &p->chapters[p->nchapters++];
        ch->start = av_rescale_q(c->start, c->time_base, MS);
        ch->end = av_rescale_q(c->end, c->time_base, MS);
        if (t && !(ch->title = mur_strdup(t->value)))
            return -1;
    }
    return 0;
}

/* Reads part p's header and keeps what the join needs of it (its chunk
 * line, stream parameters, frame rate, chapters), then closes the file:
 * a join holds one part open at a time, however many it is given (the
 * open-file limit is often 1024). */
static int probe_part(part *p, mur_error *err)
{
    source s;
    int rc = open_source(&s, p->path, err);
    if (rc)
        return rc;
    const AVDictionaryEntry *alpha = av_dict_get(s.st->metadata, "alpha_mode", NULL, 0);
    p->k = s.k;
    p->n = s.n;
    p->first = s.first;
    p->last = s.last;
    p->fps = s.st->r_frame_rate;
    if (!(p->rest = mur_strdup(s.rest)) || (alpha && !(p->alpha = mur_strdup(alpha->value))) ||
        !(p->par = avcodec_parameters_alloc()) || avcodec_parameters_copy(p->par, s.st->codecpar) < 0 ||
        keep_chapters(p, &s) < 0)
        rc = mur_error_set(err, MUR_ERUN, "out of memory reading '%s'", p->path);
    close_source(&s);
    return rc;
}

/* Opens part p again to read its packets; MUR_EINPUT when it is no longer
 * the chunk its probe found (replaced since). */
static int reopen_part(source *s, const part *p, mur_error *err)
{
    int rc = open_source(s, p->path, err);
    if (rc)
        return rc;
    const AVCodecParameters *par = s->st->codecpar;
    if (s->k != p->k || s->n != p->n || s->first != p->first || s->last != p->last ||
        strcmp(s->rest, p->rest) != 0 || par->codec_id != p->par->codec_id ||
        par->width != p->par->width || par->height != p->par->height ||
        par->format != p->par->format || av_cmp_q(s->st->r_frame_rate, p->fps) != 0) {
        close_source(s);
        return mur_error_set(err, MUR_EINPUT, "'%s' changed while it was being joined", p->path);
    }
    return MUR_OK;
}

static const char *codec_name(enum AVCodecID id)
{
    const AVCodecDescriptor *d = avcodec_descriptor_get(id);
    return d ? d->long_name ? d->long_name : d->name : "unknown";
}

static const char *pix_name(int fmt)
{
    const char *name = av_get_pix_fmt_name((enum AVPixelFormat)fmt);
    return name ? name : "?";
}

/* Every part a chunk of one render, in the output's format: sorted by
 * chunk index, checked against the first. */
static int by_chunk(const void *a, const void *b)
{
    const part *x = a, *y = b;
    return (x->k > y->k) - (x->k < y->k);
}

static int check_parts(joiner *j, mur_error *err)
{
    part *ps = j->parts;
    qsort(ps, (size_t)j->nparts, sizeof *ps, by_chunk);
    const part *a = &ps[0];
    const AVCodecParameters *pa = a->par;
    /* by codec, not encoder: a node that joins may have no encoder at all */
    enum AVCodecID want = j->f->ops == &mur_gif_sink ? mur_out_gif_chunk_format()->codec : j->f->codec;
    if (pa->codec_id != want)
        return mur_error_set(err, MUR_EINPUT,
                             "'%s' holds %s video, not what a %s holds: join chunks into "
                             "their own format",
                             a->path, codec_name(pa->codec_id), j->f->ext);
    j->fps = a->fps;
    if (j->fps.num <= 0 || j->fps.den <= 0)
        return mur_error_set(err, MUR_EINPUT, "'%s' has no frame rate", a->path);
    for (int i = 0; i < j->nparts; i++) {
        const part *p = &ps[i];
        const AVCodecParameters *pp = p->par;
        if (p->n != a->n)
            return mur_error_set(err, MUR_EINPUT, "'%s' is a chunk of %d, '%s' of %d", p->path,
                                 p->n, a->path, a->n);
        if (i && p->k == ps[i - 1].k)
            return mur_error_set(err, MUR_EINPUT, "'%s' and '%s' are both chunk %d of %d",
                                 ps[i - 1].path, p->path, p->k, p->n);
        if (pp->codec_id != pa->codec_id)
            return mur_error_set(err, MUR_EINPUT, "'%s' holds %s video, '%s' %s", p->path,
                                 codec_name(pp->codec_id), a->path, codec_name(pa->codec_id));
        if (pp->width != pa->width || pp->height != pa->height || pp->format != pa->format)
            return mur_error_set(err, MUR_EINPUT, "'%s' is %dx%d %s, '%s' %dx%d %s", p->path,
                                 pp->width, pp->height, pix_name(pp->format), a->path, pa->width,
                                 pa->height, pix_name(pa->format));
        if (av_cmp_q(p->fps, j->fps) != 0)
            return mur_error_set(err, MUR_EINPUT, "'%s' runs at %d/%d fps, '%s' at %d/%d",
                                 p->path, p->fps.num, p->fps.den, a->path,
                                 j->fps.num, j->fps.den);
        if (strcmp(p->rest, a->rest) != 0)
            return mur_error_set(err, MUR_EINPUT,
                                 "'%s' is a chunk of another render than '%s' (their "
                                 "provenance differs: scene, seed, settings or murmur version)",
                                 p->path, a->path);
    }
    if (j->nparts != a->n) {   /* sorted and without repeats: the first gap is missing */
        int k = 1;
        while (k <= j->nparts && ps[k - 1].k == k)
            k++;
        return mur_error_set(err, MUR_EINPUT, "chunk %d of %d is missing (%d given)", k, a->n,
                             j->nparts);
    }
    for (int i = 1; i < j->nparts; i++)
        if (ps[i].first != ps[i - 1].last + 1)
            return mur_error_set(err, MUR_EINPUT,
                                 "'%s' starts at frame %ld, but '%s' ends at frame %ld",
                                 ps[i].path, ps[i].first, ps[i - 1].path, ps[i - 1].last);
    return MUR_OK;
}

/* The one line for a part that ends early: it was cut short (a killed
 * copy, a full disk) or interrupted while rendering. */
static int truncated(const part *p, long got, mur_error *err)
{
    return mur_error_set(err, MUR_EINPUT,
                         "'%s' is truncated: it holds %ld of the %ld frames of chunk %d of %d",
                         p->path, got, p->last - p->first + 1, p->k, p->n);
}

/* ---- chapters ------------------------------------------------------------- */

/* Adds part p's chapters, moved by offset ms, to the output; a chapter
 * the cut split (the last one so far ends at the cut and this part's first
 * starts there with the same title) becomes one again, as the whole render
 * writes it. */
static int add_chapters(joiner *j, const part *p, int64_t offset, mur_error *err)
{
    AVFormatContext *out = j->out;
    for (int i = 0; i < p->nchapters; i++) {
        const chapter *c = &p->chapters[i];
        const char *t = c->title;
        int64_t start = c->start + offset;
        int64_t end = c->end + offset;
        if (out->nb_chapters) {
            AVChapter *last = out->chapters[out->nb_chapters - 1];
            const AVDictionaryEntry *lt = av_dict_get(last->metadata, "title", NULL, 0);
            if (i == 0 && llabs(last->end - offset) <= 1 && llabs(start - offset) <= 1 &&
                ((!lt && !t) || (lt && t && !strcmp(lt->value, t)))) {
                last->end = end;
                continue;
            }
        }
        AVChapter **tab = av_realloc_array(out->chapters, out->nb_chapters + 1, sizeof *tab);
        if (!tab)
            return mur_error_set(err, MUR_ERUN, "out of memory joining '%s'", j->path);
        out->chapters = tab;
        AVChapter *ch = av_mallocz(sizeof *ch);
        if (!ch)
            return mur_error_set(err, MUR_ERUN, "out of memory joining '%s'", j->path);
        tab[out->nb_chapters++] = ch;   /* avformat_free_context frees it from here */
        ch->id = out->nb_chapters;
        ch->time_base = MS;
        ch->start = start;
        ch->end = end;
        if (t && av_dict_set(&ch->metadata, "title", t, 0) < 0)
            return mur_error_set(err, MUR_ERUN, "out of memory joining '%s'", j->path);
    }
    return MUR_OK;
}

/* ---- stream copy ---------------------------------------------------------- */

/* The output muxer with one video stream like the first part's, the
 * chapters of every part and the whole render's metadata; header written. */
static int open_output(joiner *j, mur_error *err)
{
    int ret;
    AVDictionary *opts = NULL;
    const part *a = &j->parts[0];
    ret = avformat_alloc_output_context2(&j->out, NULL, j->f->muxer, j->file.tmp);
    if (ret < 0 || !j->out)
        return mur_error_set(err, MUR_ERUN, "cannot set up the %s muxer for '%s': %s", j->f->muxer,
                             j->path, av_err2str(ret < 0 ? ret : AVERROR(ENOMEM)));
    if (!(j->ost = avformat_new_stream(j->out, NULL)))
        return mur_error_set(err, MUR_ERUN, "out of memory joining '%s'", j->path);
    if ((ret = avcodec_parameters_copy(j->ost->codecpar, a->par)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot set up the stream of '%s': %s", j->path,
                             av_err2str(ret));
    /* The part's codec tag stays: the container is the part's own (the
     * codec was checked against the output's format), and the MOV muxer
     * would otherwise pick ProRes 4444's tag from a pixel format the
     * demuxer reports differently (12 bits where the encoder said 10). */
    /* the demuxer's measure of the part, which an encoder in constant
     * quality leaves 0: the MP4 muxer would write it as the maximum rate */
    j->ost->codecpar->bit_rate = 0;
    j->ost->time_base = (AVRational){j->fps.den, j->fps.num};   /* a hint, as the render gives */
    /* a stream tag the muxer acts on (WebM's alpha) goes along */
    if (a->alpha && av_dict_set(&j->ost->metadata, "alpha_mode", a->alpha, 0) < 0)
        return mur_error_set(err, MUR_ERUN, "out of memory joining '%s'", j->path);
    for (int i = 0; i < j->nparts; i++) {
        int64_t offset = av_rescale_q(j->parts[i].first - a->first, av_inv_q(j->fps), MS);
        if ((ret = add_chapters(j, &j->parts[i], offset, err)) < 0)
            return ret;
    }
    if ((ret = av_dict_set(&j->out->metadata, "comment", a->rest, 0)) < 0)
        return mur_error_set(err, MUR_ERUN, "out of memory joining '%s'", j->path);
    if ((ret = avio_open(&j->out->pb, j->file.tmp, AVIO_FLAG_WRITE)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", j->path, av_err2str(ret));
    if ((ret = av_dict_parse_string(&opts, j->f->muxer_opts, "=", ":", 0)) < 0 ||
        (ret = avformat_write_header(j->out, &opts)) < 0) {
        av_dict_free(&opts);
        return mur_error_set(err, MUR_ERUN, "cannot write the %s header of '%s': %s", j->f->muxer,
                             j->path, av_err2str(ret));
    }
    av_dict_free(&opts);
    return MUR_OK;
}

/* Copies part p's video packets, moved to start at its first frame's time;
 * p is open only while it is copied. */
static int copy_part(joiner *j, const part *p, mur_error *err)
{
    int64_t offset = av_rescale_q(p->first - j->parts[0].first, av_inv_q(j->fps), j->ost->time_base);
    long got = 0, want = p->last - p->first + 1;
    source s;
    int rc = reopen_part(&s, p, err);
    while (!rc) {
        if (j->stop && *j->stop) {
            rc = mur_error_set(err, MUR_EINTR, "joining '%s'", j->path);
            break;
        }
        int ret = av_read_frame(s.in, j->pkt);
        if (ret == AVERROR_EOF)
            break;
        if (ret < 0) {
            rc = got < want ? truncated(p, got, err)
                            : mur_error_set(err, MUR_EINPUT, "cannot read '%s': %s", p->path,
                                            av_err2str(ret));
            break;
        }
        if (j->pkt->stream_index != s.st->index) {
            av_packet_unref(j->pkt);
            continue;
        }
        if ((j->pkt->flags & AV_PKT_FLAG_CORRUPT) || ++got > want) {
            av_packet_unref(j->pkt);
            rc = got > want ? mur_error_set(err, MUR_EINPUT,
                                            "'%s' holds more frames than chunk %d of %d (%ld)",
                                            p->path, p->k, p->n, want)
                            : truncated(p, got - 1, err);
            break;
        }
        av_packet_rescale_ts(j->pkt, s.st->time_base, j->ost->time_base);
        j->pkt->pts += offset;
        j->pkt->dts += offset;
        j->pkt->stream_index = j->ost->index;
        j->pkt->pos = -1;
        if ((ret = av_interleaved_write_frame(j->out, j->pkt)) < 0)
            rc = mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", j->path, av_err2str(ret));
    }
    if (!rc && got < want)
        rc = truncated(p, got, err);
    if (!rc)
        j->frames += got;
    close_source(&s);
    return rc;
}

static int copy_all(joiner *j, mur_error *err)
{
    int rc = open_output(j, err), ret;
    for (int i = 0; !rc && i < j->nparts; i++)
        rc = copy_part(j, &j->parts[i], err);
    if (rc)
        return rc;
    if ((ret = av_write_trailer(j->out)) < 0)   /* +faststart rewrites the file here */
        return mur_error_set(err, MUR_ERUN, "cannot finish '%s': %s", j->path, av_err2str(ret));
    avio_flush(j->out->pb);
    if ((ret = j->out->pb->error) < 0 || (ret = avio_closep(&j->out->pb)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", j->path, av_err2str(ret));
    return MUR_OK;
}

/* ---- GIF: decode the lossless chunks into one GIF ------------------------- */

/* Decodes part p's frames into the GIF writer g as Cairo's ARGB32 (opaque),
 * the pixels a whole render hands it; p is open only while it is decoded. */
static int decode_part(joiner *j, const part *p, mur_video *g, AVFrame *frame, uint8_t *argb,
                       mur_error *err)
{
    source s;
    int rc = reopen_part(&s, p, err), ret;
    if (rc)
        return rc;
    const AVCodecParameters *par = s.st->codecpar;
    const AVCodec *codec = avcodec_find_decoder(par->codec_id);
    AVCodecContext *dec = codec ? avcodec_alloc_context3(codec) : NULL;
    struct SwsContext *sws = NULL;
    long got = 0, want = p->last - p->first + 1;
    int stride = par->width * 4;
    if (!dec) {
        rc = mur_error_set(err, MUR_ERUN, "cannot decode '%s': no %s decoder", p->path,
                           codec_name(par->codec_id));
        goto done;
    }
    dec->thread_count = 1;
    if ((ret = avcodec_parameters_to_context(dec, par)) < 0 || (ret = avcodec_open2(dec, codec, NULL)) < 0) {
        rc = mur_error_set(err, MUR_ERUN, "cannot decode '%s': %s", p->path, av_err2str(ret));
        goto done;
    }
    for (int eof = 0; !eof;) {
        if (j->stop && *j->stop) {
            rc = mur_error_set(err, MUR_EINTR, "joining '%s'", j->path);
            goto done;
        }
        ret = av_read_frame(s.in, j->pkt);
        if (ret == AVERROR_EOF) {
            eof = 1;
        } else if (ret < 0) {
            rc = truncated(p, got, err);
            goto done;
        } else if (j->pkt->stream_index != s.st->index) {
            av_packet_unref(j->pkt);
            continue;
        } else if (j->pkt->flags & AV_PKT_FLAG_CORRUPT) {
            av_packet_unref(j->pkt);
            rc = truncated(p, got, err);
            goto done;
        }
        ret = avcodec_send_packet(dec, eof ? NULL : j->pkt);
        av_packet_unref(j->pkt);
        if (ret < 0) {
            rc = mur_error_set(err, MUR_EINPUT, "cannot decode '%s': %s", p->path,
                               av_err2str(ret));
            goto done;
        }
        while ((ret = avcodec_receive_frame(dec, frame)) >= 0) {
            if (++got > want) {
                av_frame_unref(frame);
                rc = mur_error_set(err, MUR_EINPUT,
                                   "'%s' holds more frames than chunk %d of %d (%ld)",
                                   p->path, p->k, p->n, want);
                goto done;
            }
            sws = sws_getCachedContext(sws, frame->width, frame->height, frame->format, par->width,
                                       par->height, AV_PIX_FMT_RGB32,
                                       SWS_POINT | SWS_ACCURATE_RND | SWS_BITEXACT, NULL, NULL, NULL);
            uint8_t *dst[4] = {argb, NULL, NULL, NULL};
            int dst_stride[4] = {stride, 0, 0, 0};
            if (!sws || sws_scale(sws, (const uint8_t *const *)frame->data, frame->linesize, 0,
                                  frame->height, dst, dst_stride) != par->height) {
                av_frame_unref(frame);
                rc = mur_error_set(err, MUR_ERUN, "cannot convert a frame of '%s'", p->path);
                goto done;
            }
            av_frame_unref(frame);
            if ((rc = mur_video_write(g, argb, stride, err)) < 0)
                goto done;
        }
        if (ret != AVERROR(EAGAIN) && ret != AVERROR_EOF) {
            rc = mur_error_set(err, MUR_EINPUT, "cannot decode '%s': %s", p->path,
                               av_err2str(ret));
            goto done;
        }
    }
    if (got < want)
        rc = truncated(p, got, err);
    else
        j->frames += got;
done:
    sws_freeContext(sws);
    avcodec_free_context(&dec);
    close_source(&s);
    return rc;
}

static int join_gif(joiner *j, mur_error *err)
{
    const AVCodecParameters *par = j->parts[0].par;
    if (j->fps.den != 1)
        return mur_error_set(err, MUR_EINPUT, "'%s' runs at %d/%d fps, not a whole number",
                             j->parts[0].path, j->fps.num, j->fps.den);
    mur_video_opts vo = MUR_VIDEO_OPTS_INIT;
    vo.path = j->path;
    vo.width = par->width;
    vo.height = par->height;
    vo.fps = j->fps.num;
    vo.metadata = j->parts[0].rest;
    mur_video *g = NULL;
    AVFrame *frame = NULL;
    uint8_t *argb = NULL;
    /* the writer checks the size first: a damaged part may claim any */
    int rc = mur_video_open(&g, &vo, err);
    if (!rc && (!(frame = av_frame_alloc()) ||
                !(argb = mur_malloc((size_t)par->width * (size_t)par->height * 4))))
        rc = mur_error_set(err, MUR_ERUN, "out of memory joining '%s'", j->path);
    for (int i = 0; !rc && i < j->nparts; i++)
        rc = decode_part(j, &j->parts[i], g, frame, argb, err);
    if (!rc) {
        rc = mur_video_close(g, err);
        g = NULL;
    }
    mur_video_abort(g);
    av_frame_free(&frame);
    mur_free(argb);
    return rc;
}

/* ---- the public call -------------------------------------------------------- */

int mur_video_chunk_done(const char *path, int k, int n, const char *metadata)
{
    source s;
    mur_error err;
    if (mur_file_is_special(path) || open_source(&s, path, &err))
        return 0;
    long got = 0, want = s.last - s.first + 1;
    int same = s.k == k && s.n == n && metadata && !strcmp(s.rest, metadata);
    AVPacket *pkt = same ? av_packet_alloc() : NULL;
    /* every frame's packet there, undamaged: a file cut short ends early */
    while (pkt && got <= want && av_read_frame(s.in, pkt) >= 0) {
        if (pkt->stream_index == s.st->index)
            got += (pkt->flags & AV_PKT_FLAG_CORRUPT) ? want + 1 : 1;
        av_packet_unref(pkt);
    }
    av_packet_free(&pkt);
    close_source(&s);
    return same && got == want;
}

int mur_video_join(const char *path, const char *const *paths, int nparts,
                   volatile sig_atomic_t *stop, mur_join_result *res, mur_error *err)
{
    mur_join_result none;
    if (!res)
        res = &none;
    memset(res, 0, sizeof *res);
    if (nparts < 1 || nparts > MAX_PARTS)
        return mur_error_set(err, MUR_EINPUT, "join takes 1 to %d chunks, not %d", MAX_PARTS,
                             nparts);
    joiner j = {.path = path, .stop = stop};
    int rc;
    if (!(j.f = mur_out_format_of(path, err)))
        return MUR_EINPUT;
    if (j.f->ops == &mur_sequence_sink || j.f->animation)
        return mur_error_set(err, MUR_EINPUT,
                             "join writes a .mp4, .webm, .mov or .gif, not '%s'", path);
    if ((rc = mur_file_check_output(path, err)))   /* before the work the rename would lose */
        return rc;
    if (!(j.parts = mur_calloc((size_t)nparts, sizeof *j.parts)))
        return mur_error_set(err, MUR_ERUN, "out of memory");
    j.nparts = nparts;
    for (int i = 0; i < nparts; i++)
        j.parts[i].path = paths[i];
    rc = MUR_OK;
    for (int i = 0; !rc && i < nparts; i++)
        rc = probe_part(&j.parts[i], err);
    if (!rc)
        rc = check_parts(&j, err);
    if (!rc && !(j.pkt = av_packet_alloc()))
        rc = mur_error_set(err, MUR_ERUN, "out of memory joining '%s'", path);
    if (!rc && j.f->ops == &mur_gif_sink) {
        rc = join_gif(&j, err);
    } else if (!rc) {
        if (!(rc = mur_atomic_begin(&j.file, path, 0, err)) && !(rc = copy_all(&j, err)))
            rc = mur_atomic_commit(&j.file, err);
        if (j.out) {
            avio_closep(&j.out->pb);
            avformat_free_context(j.out);
        }
        mur_atomic_abort(&j.file);
    }
    av_packet_free(&j.pkt);
    if (!rc) {
        res->parts = nparts;
        res->frames = j.frames;
    }
    free_parts(&j);
    return rc;
}
