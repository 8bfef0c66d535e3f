/* `murmur render`: a scene to a video file, through the library's session
 * (session.h), which runs the frame loop; this command reads the options,
 * writes the provenance and shows progress. --threads 1 turns the encoding
 * queue off too: the reference single-threaded render, which the threaded
 * one must equal frame for frame.
 *
 * Every output carries its provenance: murmur's version, the seed, the
 * frames rendered, the resolved settings as `murmur check` prints them, and
 * the scene file itself, so a figure can be reproduced from the file alone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/log.h>

#include "commands.h"
#include "murmur/alloc.h"
#include "murmur/session.h"
#include "murmur/video.h"
#include "progress.h"

/* Frames the writer may hold while this thread draws ahead: enough to ride
 * out an encoder's uneven frame times, few enough that memory stays small
 * (four 4K frames are 130 MB). */
#define QUEUE_FRAMES 4

/* --chunk K/N: whole numbers, 1 <= K <= N. */
static int chunk_option(const char *text, int *k, int *n, mur_error *err)
{
    if (mur_cli_parse_k_of_n(text, 100000, k, n))
        return mur_error_set(err, MUR_EINPUT,
                             "murmur: --chunk must be K/N with 1 <= K <= N (chunks count from 1), "
                             "not '%s'", text);
    return MUR_OK;
}

/* The default name of chunk k of n: the scene's video.output with
 * ".chunk-K-of-N" before its extension (out/flock.mp4 ->
 * out/flock.chunk-2-of-4.mp4), the names `murmur plan` writes and `murmur
 * join out/flock.chunk-*-of-4.mp4` reads. NULL when out of memory. */
static char *chunk_name(const char *output, int k, int n)
{
    const char *slash = strrchr(output, '/'), *dot = strrchr(output, '.');
    size_t stem = dot && dot > (slash ? slash + 1 : output) ? (size_t)(dot - output) : strlen(output);
    size_t size = strlen(output) + 48;
    char *name = mur_malloc(size);
    if (name)
        snprintf(name, size, "%.*s.chunk-%d-of-%d%s", (int)stem, output, k, n, output + stem);
    return name;
}

/* A chunk already complete (a plan run again after a failure) is kept: the
 * same render's chunk, every frame in it. Said unless -q. */
static int chunk_done(const mur_cli_opts *o, const char *path, int k, int n, const char *meta)
{
    int level = av_log_get_level();
    av_log_set_level(AV_LOG_QUIET);   /* a truncated file's demuxer complaints: it is re-rendered */
    int done = mur_video_chunk_done(path, k, n, meta);
    av_log_set_level(level);
    if (done && !o->quiet)
        fprintf(stderr, "murmur: %s is complete (chunk %d of %d): nothing to do\n", path, k, n);
    return done;
}

/* The provenance stored in the output (mur_session_provenance: the seed and
 * condition of a chosen run included), with what this render asks for.
 * NULL when out of memory; free with mur_free. */
static char *provenance(const mur_session *ss, const mur_cli_opts *o, const mur_render_opts *ro)
{
    const mur_scene *s = mur_session_scene(ss);
    long first = ro->first, last = ro->last, frames = mur_scene_frames(s);
    const char *preset = ro->preset ? ro->preset : "medium";
    char request[512], range[160] = "";
    if (o->from || o->to)
        snprintf(range, sizeof range, " (--from %.60s --to %.60s)", o->from ? o->from : "0",
                 o->to ? o->to : "end");
    /* Written before rendering: an interrupted render holds a prefix of
     * this range, which its own frame count tells. */
    snprintf(request, sizeof request,
             "frames requested: %ld to %ld of %ld%s\noutput: %dx%d, %d fps, quality %d, preset %.40s\n",
             first, last - 1, frames, range, s->width, s->height, (int)lround(s->fps), s->quality,
             preset);
    if (ro->loop) {   /* the file is shorter: its last frames are blended into its first */
        size_t n = strlen(request);
        snprintf(request + n, sizeof request - n, "loop: the last %ld frames crossfade into the first\n", ro->loop);
    }
    char *text = NULL;
    mur_error err;
    mur_session_provenance(ss, request, &text, &err);
    return text;
}

/* "12.3 MB" into buf. */
static const char *human_size(char *buf, size_t n, int64_t bytes)
{
    if (bytes < 1000000)
        snprintf(buf, n, "%.0f kB", bytes / 1e3);
    else if (bytes < 1000000000)
        snprintf(buf, n, "%.1f MB", bytes / 1e6);
    else
        snprintf(buf, n, "%.2f GB", bytes / 1e9);
    return buf;
}

/* The progress hook: the bar on a terminal, with the file's size. */
static void on_frame(void *ctx, long done, long total, int64_t bytes)
{
    (void)total;
    char size[32];
    mur_progress_update(ctx, done, human_size(size, sizeof size, bytes));
}

/* --from and --to: leaves [*first, *last) the frames to render, within the
 * scene's; an empty range refused. */
static int frame_range(const mur_cli_opts *o, const mur_scene *s, long *first, long *last, mur_error *err)
{
    long frames = mur_scene_frames(s);
    int rc;
    *first = 0;
    *last = frames;
    if ((o->from && (rc = mur_cli_frame_at(s, o->from, "--from", first, err))) ||
        (o->to && (rc = mur_cli_frame_at(s, o->to, "--to", last, err))))
        return rc;
    if (*last > frames)
        *last = frames;
    if (*first >= *last)
        return mur_error_set(err, MUR_EINPUT,
                             "murmur: nothing to render: --from is not before --to (video has %ld frames)",
                             frames);
    return MUR_OK;
}

/* --chunk K/N of the range ro->first .. ro->last: leaves the chunk in ro
 * (its default name, when no -o, in *name for the caller to free) and its
 * frame count in *todo. */
static int chunk_render(const mur_cli_opts *o, const mur_scene *s, int chunk, int nchunks, mur_render_opts *ro,
                        long *todo, char **name, mur_error *err)
{
    long a;
    mur_error why;
    int fps = (int)lround(s->fps);
    if (mur_video_chunk_frames(ro->last - ro->first, fps > 0 ? fps : 1, chunk, nchunks, &a, todo, &why))
        return mur_error_set(err, MUR_EINPUT, "murmur: --chunk %s: %s", o->chunk, why.msg);
    if (!o->output && !(ro->path = *name = chunk_name(s->output, chunk, nchunks)))
        return mur_error_set(err, MUR_ERUN, "out of memory");
    ro->chunk = chunk;
    ro->nchunks = nchunks;
    return MUR_OK;
}

/* --loop T: frames of the video's rate, refused past half the clip (and in
 * a chunk); leaves them in ro->loop and takes them off *todo. */
static int loop_render(const mur_cli_opts *o, const mur_scene *s, int chunk, mur_render_opts *ro, long *todo,
                       mur_error *err)
{
    double t;
    if (mur_time_parse(o->loop, s->tps, &t) || !(t > 0) || t > MUR_SCENE_MAX_SECONDS)
        return mur_error_set(err, MUR_EINPUT, "murmur: --loop must be a time above 0 like 1s or 0.5s, not '%s'",
                             o->loop);
    ro->loop = lround(t * s->fps);
    if (ro->loop < 1)
        ro->loop = 1;
    if (2 * ro->loop > ro->last - ro->first || chunk)
        return mur_error_set(err, MUR_EINPUT,
                             chunk ? "murmur: --loop takes no --chunk: render the loop whole"
                                   : "murmur: --loop %s (%ld frames) is longer than half the clip (%ld frames)",
                             o->loop, ro->loop, ro->last - ro->first);
    *todo -= ro->loop;
    return MUR_OK;
}

/* After the render (rc): its size rounded, an interruption, or what it
 * wrote, said on stderr; an interruption's error is said, so cleared. */
static void said(const mur_cli_opts *o, const mur_scene *s, const mur_render_opts *ro, const mur_render_result *res,
                 int rc, mur_error *err)
{
    if (res->width && (res->width != s->width || res->height != s->height))
        fprintf(stderr, "murmur: warning: %dx%d rounded down to %dx%d (the format needs even sizes)\n",
                s->width, s->height, res->width, res->height);
    if (rc == MUR_EINTR) {
        if (res->frames)
            fprintf(stderr, "murmur: interrupted: %s holds the %ld frames rendered\n", ro->path, res->frames);
        else
            fprintf(stderr, "murmur: interrupted before the first frame: nothing written\n");
        err->msg[0] = 0;   /* said: the frame that was stopped is not news */
    } else if (!rc && !o->quiet) {
        fprintf(stderr, "murmur: wrote %s (%ld frames)\n", ro->path, res->frames);
    }
}

int mur_cmd_render(const mur_cli_opts *o)
{
    mur_error err = {{0}};
    mur_scene *s = NULL;
    mur_session *ss = NULL;
    char *meta = NULL, *name = NULL;
    int chunk = 0, nchunks = 0;
    int rc = o->chunk ? chunk_option(o->chunk, &chunk, &nchunks, &err) : MUR_OK;
    if (rc)
        goto done;
    if (chunk && (o->subtitles || o->subtitles_embed)) {
        rc = mur_error_set(&err, MUR_EINPUT,
                           "murmur: --chunk takes no --subtitles: a chunk's captions would be cut "
                           "at its ends (render the captions with a whole render, or use chapters)");
        goto done;
    }
    rc = mur_cli_session(o, &s, &ss, &err);
    if (rc)
        goto done;
    mur_render_opts ro = MUR_RENDER_OPTS_INIT;
    if ((rc = frame_range(o, s, &ro.first, &ro.last, &err)))
        goto done;
    ro.path = o->output ? o->output : s->output;
    long todo = ro.last - ro.first;
    if ((chunk && (rc = chunk_render(o, s, chunk, nchunks, &ro, &todo, &name, &err))) ||
        (o->loop && (rc = loop_render(o, s, chunk, &ro, &todo, &err))))
        goto done;
    /* --draft: the fastest preset unless one is asked for */
    ro.preset = o->preset ? o->preset : o->draft ? "ultrafast" : NULL;
    ro.subtitles = (o->subtitles ? MUR_SUBTITLES_FILES : 0) | (o->subtitles_embed ? MUR_SUBTITLES_EMBED : 0);
    /* --threads 1 is the reference render: no encoding thread either */
    ro.queue = o->threads == 1 ? 0 : QUEUE_FRAMES;
    /* Checked before a frame is drawn (out/ made when missing); a PNG
     * sequence's writer makes its own folder and checks it as it opens. */
    const char *seq = strrchr(ro.path, '/');
    if (!strchr(seq ? seq : ro.path, '%') && (rc = mur_cli_output_ready(ro.path, &err)))
        goto done;
    if (!(meta = provenance(ss, o, &ro))) {
        rc = mur_error_set(&err, MUR_ERUN, "out of memory");
        goto done;
    }
    ro.metadata = meta;
    if (chunk && chunk_done(o, ro.path, chunk, nchunks, meta))
        goto done;
    mur_progress bar;
    mur_progress_start(&bar, "frames", todo, o->quiet);
    ro.progress = on_frame;
    ro.progress_ctx = &bar;
    mur_render_result res;
    rc = mur_session_render(ss, &ro, &res, &err);
    mur_progress_end(&bar, res.frames);
    said(o, s, &ro, &res, rc, &err);
done:
    mur_free(meta);
    mur_free(name);
    mur_session_destroy(ss);
    mur_scene_destroy(s);
    return mur_cli_report(rc, &err);
}
