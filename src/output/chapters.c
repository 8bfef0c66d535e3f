/* Chapters and subtitles: what a lecture video carries besides its frames.
 *
 * Chapters are libavformat's own (AVFormatContext.chapters, set before the
 * header): the MP4 and MOV muxer writes them as a QuickTime chapter track
 * and a Nero `chpl` box, Matroska/WebM as its Chapters element, so players
 * and `ffprobe -show_chapters` list them. A soft subtitle track is a
 * subtitle stream of the container's own kind: 3GPP timed text (mov_text)
 * in MP4 and MOV, WebVTT in WebM. Its packets are made by libavcodec's
 * encoder for that kind from ASS events, the form every libavcodec text
 * subtitle encoder takes, so the samples and the track's description
 * (mov_text's default style box) are exactly what FFmpeg itself writes.
 * All subtitle packets go to the interleaver right after the header; it
 * holds them until the video's packets reach their times.
 *
 * Sidecar files (.srt, .vtt) need no libav: plain text, written atomically. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/mem.h>

#include "murmur/alloc.h"
#include "murmur/file.h"
#include "sink.h"

#define TEXT_TB ((AVRational){1, 1000})   /* milliseconds: the subtitle formats' own unit */

/* The smallest ASS script the text encoders accept: one default style.
 * Fonts and sizes are the player's to choose; the style only says white
 * text at the bottom centre (Alignment 2). */
static const char ass_header[] =
    "[Script Info]\r\nScriptType: v4.00+\r\nPlayResX: 384\r\nPlayResY: 288\r\n\r\n"
    "[V4+ Styles]\r\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, "
    "OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, "
    "Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\r\n"
    "Style: Default,DejaVu Sans,16,&Hffffff,&Hffffff,&H0,&H0,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,0\r\n\r\n"
    "[Events]\r\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\r\n";

struct mur_texts {
    AVStream *st;             /* the subtitle stream (NULL: none) */
    AVCodecContext *enc;
    const mur_video_opts *o;  /* borrowed for the call to mur_texts_write */
};

static int64_t ms(double seconds) { return llround(seconds * 1000); }

static int add_chapters(AVFormatContext *mux, const mur_video_opts *o, const char *path, mur_error *err)
{
    for (int i = 0; i < o->nchapters; i++) {
        const mur_video_text *c = &o->chapters[i];
        AVChapter **tab = av_realloc_array(mux->chapters, mux->nb_chapters + 1, sizeof *tab);
        if (!tab)
            return mur_error_set(err, MUR_ERUN, "out of memory adding chapters to '%s'", path);
        mux->chapters = tab;
        AVChapter *ch = av_mallocz(sizeof *ch);
        if (!ch)
            return mur_error_set(err, MUR_ERUN, "out of memory adding chapters to '%s'", path);
        tab[mux->nb_chapters++] = ch;   /* avformat_free_context frees it from here */
        ch->id = i + 1;
        ch->time_base = TEXT_TB;
        ch->start = ms(c->start);
        ch->end = ms(c->end);
        if (av_dict_set(&ch->metadata, "title", c->text, 0) < 0)
            return mur_error_set(err, MUR_ERUN, "out of memory adding chapters to '%s'", path);
    }
    return MUR_OK;
}

int mur_texts_open(mur_texts **out, AVFormatContext *mux, const mur_video_opts *o, const char *path,
                   mur_error *err)
{
    *out = NULL;
    int rc = add_chapters(mux, o, path, err), ret;
    if (rc || !o->nsubtitles)
        return rc;
    int webm = !strcmp(mux->oformat->name, "webm");
    const char *name = webm ? "webvtt" : "mov_text";
    const AVCodec *codec = avcodec_find_encoder_by_name(name);
    if (!codec)
        return mur_error_set(err, MUR_ERUN, "this libavcodec has no %s encoder for the subtitles of '%s'",
                             name, path);
    mur_texts *t = mur_calloc(1, sizeof *t);
    if (!t)
        return mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", path);
    *out = t;
    t->st = avformat_new_stream(mux, NULL);
    t->enc = avcodec_alloc_context3(codec);
    if (!t->st || !t->enc)
        return mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", path);
    t->enc->time_base = TEXT_TB;
    t->enc->subtitle_header = av_malloc(sizeof ass_header);
    if (!t->enc->subtitle_header)
        return mur_error_set(err, MUR_ERUN, "out of memory opening '%s'", path);
    memcpy(t->enc->subtitle_header, ass_header, sizeof ass_header);
    t->enc->subtitle_header_size = (int)sizeof ass_header - 1;
    if (mux->oformat->flags & AVFMT_GLOBALHEADER)
        t->enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if ((ret = avcodec_open2(t->enc, codec, NULL)) < 0 ||
        (ret = avcodec_parameters_from_context(t->st->codecpar, t->enc)) < 0)
        return mur_error_set(err, MUR_ERUN, "cannot set up the subtitles of '%s': %s", path,
                             av_err2str(ret));
    t->st->time_base = TEXT_TB;
    av_dict_set(&t->st->metadata, "language", "und", 0);
    av_dict_set(&t->st->metadata, "title", "captions", 0);
    return MUR_OK;
}

/* An ASS event of text: line breaks as \N, and braces (override blocks to
 * ASS) as parentheses, so a caption shows as written. */
static char *ass_event(const char *text)
{
    size_t n = strlen(text);
    char *ev = mur_malloc(2 * n + 32);
    if (!ev)
        return NULL;
    size_t k = (size_t)sprintf(ev, "0,0,Default,,0,0,0,,");
    for (const char *p = text; *p; p++) {
        if (*p == '\n') {
            ev[k++] = '\\';
            ev[k++] = 'N';
        } else {
            ev[k++] = *p == '{' ? '(' : *p == '}' ? ')' : *p;
        }
    }
    ev[k] = 0;
    return ev;
}

/* One subtitle as a packet of the track, to the interleaver. */
static int write_cue(mur_texts *t, AVFormatContext *mux, const mur_video_text *c, AVPacket *pkt,
                     const char *path, mur_error *err)
{
    enum { MAX_PACKET = 4096 };   /* a caption is at most 280 characters */
    char *ev = ass_event(c->text);
    uint8_t *buf = av_malloc(MAX_PACKET);
    int rc = MUR_OK, ret = 0;
    if (!ev || !buf) {
        rc = mur_error_set(err, MUR_ERUN, "out of memory writing the subtitles of '%s'", path);
        goto done;
    }
    AVSubtitleRect rect = {.type = SUBTITLE_ASS, .ass = ev}, *rects[1] = {&rect};
    AVSubtitle sub = {.format = 1, .end_display_time = (uint32_t)(ms(c->end) - ms(c->start)),
                      .num_rects = 1, .rects = rects, .pts = av_rescale_q(ms(c->start), TEXT_TB,
                                                                           AV_TIME_BASE_Q)};
    int size = avcodec_encode_subtitle(t->enc, buf, MAX_PACKET, &sub);
    if (size < 0) {
        rc = mur_error_set(err, MUR_ERUN, "cannot encode the subtitles of '%s': %s", path, av_err2str(size));
        goto done;
    }
    if ((ret = av_packet_from_data(pkt, buf, size)) < 0)
        goto fail;
    buf = NULL;   /* the packet's now */
    pkt->pts = pkt->dts = ms(c->start);
    pkt->duration = ms(c->end) - ms(c->start);
    pkt->stream_index = t->st->index;
    av_packet_rescale_ts(pkt, TEXT_TB, t->st->time_base);
    if ((ret = av_interleaved_write_frame(mux, pkt)) < 0)
        goto fail;
    goto done;
fail:
    rc = mur_error_set(err, MUR_ERUN, "cannot write the subtitles of '%s': %s", path, av_err2str(ret));
done:
    av_packet_unref(pkt);
    av_free(buf);
    mur_free(ev);
    return rc;
}

static int by_time(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A timed-text track (mov_text) shows one sample at a time, so captions
 * that overlap become one sample per stretch between their starts and
 * ends, holding the lines of every caption showing then, oldest first.
 * WebVTT cues may overlap and go as they are. */
static int write_flat(mur_texts *t, AVFormatContext *mux, const mur_video_opts *o, AVPacket *pkt,
                      const char *path, mur_error *err)
{
    int n = o->nsubtitles, rc = MUR_OK;
    double *edge = mur_malloc(2 * (size_t)n * sizeof *edge);
    size_t cap = 16;
    for (int i = 0; i < n; i++)
        cap += strlen(o->subtitles[i].text) + 1;
    char *text = mur_malloc(cap);
    if (!edge || !text) {
        rc = mur_error_set(err, MUR_ERUN, "out of memory writing the subtitles of '%s'", path);
        goto done;
    }
    for (int i = 0; i < n; i++) {
        edge[2 * i] = o->subtitles[i].start;
        edge[2 * i + 1] = o->subtitles[i].end;
    }
    qsort(edge, 2 * (size_t)n, sizeof *edge, by_time);
    for (int e = 0; e + 1 < 2 * n && !rc; e++) {
        double a = edge[e], b = edge[e + 1];
        if (ms(b) <= ms(a))
            continue;
        size_t k = 0;
        for (int i = 0; i < n; i++)
            if (o->subtitles[i].start <= a && o->subtitles[i].end >= b)
                k += (size_t)snprintf(text + k, cap - k, "%s%s", k ? "\n" : "", o->subtitles[i].text);
        if (k)
            rc = write_cue(t, mux, &(mur_video_text){a, b, text}, pkt, path, err);
    }
done:
    mur_free(edge);
    mur_free(text);
    return rc;
}

int mur_texts_write(mur_texts *t, AVFormatContext *mux, const mur_video_opts *o, const char *path,
                    mur_error *err)
{
    if (!t)
        return MUR_OK;
    AVPacket *pkt = av_packet_alloc();
    if (!pkt)
        return mur_error_set(err, MUR_ERUN, "out of memory writing the subtitles of '%s'", path);
    int rc = MUR_OK;
    if (t->enc->codec_id == AV_CODEC_ID_MOV_TEXT)
        rc = write_flat(t, mux, o, pkt, path, err);
    for (int i = 0; i < o->nsubtitles && !rc && t->enc->codec_id != AV_CODEC_ID_MOV_TEXT; i++)
        rc = write_cue(t, mux, &o->subtitles[i], pkt, path, err);
    av_packet_free(&pkt);
    return rc;
}

void mur_texts_free(mur_texts *t)
{
    if (!t)
        return;
    avcodec_free_context(&t->enc);
    mur_free(t);
}

/* ---- sidecar files ---------------------------------------------------------- */

/* "00:01:02,345" (SubRip) or "00:01:02.345" (WebVTT). */
static void stamp(char *buf, size_t n, double seconds, char sep)
{
    int64_t t = ms(seconds);
    snprintf(buf, n, "%02lld:%02lld:%02lld%c%03lld", (long long)(t / 3600000), (long long)(t / 60000 % 60),
             (long long)(t / 1000 % 60), sep, (long long)(t % 1000));
}

/* A caption's lines into text at k, each ended by a newline; returns the
 * new k. A blank line (or one of spaces only, which many players take for
 * blank) ends a cue in both formats, so none is written: a caption can
 * never make a cue of its own. The loader refuses control characters (a
 * CR among them), so a line break is a newline. In WebVTT, "-->" in a
 * line would end the cue's text: written "--&gt;", as the format says. */
static size_t cue_lines(char *text, size_t k, const char *caption, int vtt)
{
    for (const char *line = caption; *line;) {
        size_t len = strcspn(line, "\n");
        if (strspn(line, " \t") < len) {
            for (size_t i = 0; i < len; i++) {
                if (vtt && !strncmp(line + i, "-->", 3)) {
                    memcpy(text + k, "--&gt;", 6);
                    k += 6;
                    i += 2;
                } else {
                    text[k++] = line[i];
                }
            }
            text[k++] = '\n';
        }
        line += len + (line[len] == '\n');
    }
    return k;
}

int mur_subtitles_write(const char *path, const mur_video_text *cues, int n, mur_error *err)
{
    const char *ext = strrchr(path, '.');
    int vtt = ext && !strcmp(ext, ".vtt");
    if (!ext || (!vtt && strcmp(ext, ".srt")))
        return mur_error_set(err, MUR_EINPUT, "subtitles go to a .srt or .vtt file, not '%s'", path);
    size_t cap = 16;
    for (int i = 0; i < n; i++)
        cap += 2 * strlen(cues[i].text) + 64;   /* "-->" may become "--&gt;" */
    char *text = mur_malloc(cap);
    if (!text)
        return mur_error_set(err, MUR_ERUN, "out of memory writing '%s'", path);
    size_t k = vtt ? (size_t)snprintf(text, cap, "WEBVTT\n\n") : 0;
    for (int i = 0; i < n; i++) {
        char a[32], b[32];
        stamp(a, sizeof a, cues[i].start, vtt ? '.' : ',');
        stamp(b, sizeof b, cues[i].end, vtt ? '.' : ',');
        k += (size_t)snprintf(text + k, cap - k, vtt ? "%d\n%s --> %s\n" : "%d\n%s --> %s\n", i + 1, a, b);
        k = cue_lines(text, k, cues[i].text, vtt);
        text[k++] = '\n';
    }
    text[k] = 0;
    int rc = mur_file_write_text(path, text, err);
    mur_free(text);
    return rc;
}
