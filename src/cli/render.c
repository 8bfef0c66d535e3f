/* `murmur render`: the frame loop from scene to video file.
 *
 * This thread steps the flocks and draws each frame (the flocks step on
 * their own worker pool); the video writer converts and encodes on a thread
 * of its own behind a queue of a few frames, and the encoder has its own
 * threads, so on a small machine all cores stay busy and the render takes
 * about as long as its slowest stage. --threads 1 turns the queue off too:
 * the reference single-threaded render, which the threaded one must equal
 * frame for frame.
 *
 * Every output carries its provenance: murmur's version, the seed, the
 * frames rendered, the resolved settings as `murmur check` prints them, and
 * the scene file itself, so a figure can be reproduced from the file alone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "murmur/video.h"
#include "progress.h"
#include "session.h"

/* Frames the writer may hold while this thread draws ahead: enough to ride
 * out an encoder's uneven frame times, few enough that memory stays small
 * (four 4K frames are 130 MB). */
#define QUEUE_FRAMES 4

/* A missing out/ (the default folder) is created; any other missing folder
 * is the user's to make, and the writer reports it. */
static void ensure_default_dir(const char *path)
{
    if (strncmp(path, "out/", 4) == 0)
        mkdir("out", 0777);
}

/* The provenance text stored in (or beside) the output. NULL when out of
 * memory; the caller frees it. */
static char *provenance(const mur_scene *s, const mur_cli_opts *o, const mur_video_opts *vo,
                        long first, long last, long frames)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        return NULL;
    fprintf(fp, "murmur %s\nscene: %s\nseed: %llu\n", MURMUR_VERSION, s->path,
            (unsigned long long)s->seed);
    /* Written before rendering: an interrupted render holds a prefix of
     * this range, which its own frame count tells. */
    fprintf(fp, "frames requested: %ld to %ld of %ld", first, last - 1, frames);
    if (o->from || o->to)
        fprintf(fp, " (--from %s --to %s)", o->from ? o->from : "0", o->to ? o->to : "end");
    fprintf(fp, "\noutput: %dx%d, %d fps, quality %d, preset %s\n", vo->width, vo->height, vo->fps,
            vo->quality, vo->preset ? vo->preset : "medium");
    fprintf(fp, "# resolved settings (as murmur check prints them)\n");
    mur_cli_print_resolved(fp, s);
    fprintf(fp, "# scene file\n");
    FILE *in = fopen(s->path, "rb");
    if (in) {
        char buf[4096];
        size_t n, total = 0;
        while ((n = fread(buf, 1, sizeof buf, in)) > 0 && total < MUR_SCENE_MAX_BYTES) {
            fwrite(buf, 1, n, fp);
            total += n;
        }
        fclose(in);
    }
    if (fclose(fp) != 0) {
        free(text);
        return NULL;
    }
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

int mur_cmd_render(const mur_cli_opts *o)
{
    mur_error err = {{0}};
    mur_session ss;
    mur_video *video = NULL;
    char *meta = NULL;
    int rc = mur_session_start(&ss, o, &err);
    if (rc)
        goto done;
    const mur_scene *s = ss.scene;
    long frames = mur_scene_frames(s), first = 0, last = frames;
    if (o->from && (rc = mur_session_frame_of(s, o->from, "--from", &first, &err)))
        goto done;
    if (o->to && (rc = mur_session_frame_of(s, o->to, "--to", &last, &err)))
        goto done;
    if (last > frames)
        last = frames;
    if (first >= last) {
        rc = mur_error_set(&err, MUR_EINPUT,
                           "murmur: nothing to render: --from is not before --to (video has %ld frames)",
                           frames);
        goto done;
    }
    const char *out = o->output ? o->output : s->output;
    if (!o->output)
        ensure_default_dir(out);
    mur_video_opts vo = {.path = out, .width = s->width, .height = s->height,
                         .fps = (int)lround(s->fps), .quality = s->quality, .preset = o->preset,
                         .first_number = first, .queue = o->threads == 1 ? 0 : QUEUE_FRAMES};
    if (fabs(s->fps - vo.fps) > 1e-9) {
        rc = mur_error_set(&err, MUR_EINPUT, "%s: error: video.fps must be a whole number for video output",
                           s->path);
        goto done;
    }
    if (!(meta = provenance(s, o, &vo, first, last, frames))) {
        rc = mur_error_set(&err, MUR_ERUN, "out of memory");
        goto done;
    }
    vo.metadata = meta;
    if ((rc = mur_video_open(&video, &vo, &err)))
        goto done;
    int w, h;
    mur_video_size(video, &w, &h);
    if (w != s->width || h != s->height)
        fprintf(stderr, "murmur: warning: %dx%d rounded down to %dx%d (the format needs even sizes)\n",
                s->width, s->height, w, h);
    mur_progress bar;
    mur_progress_start(&bar, "frames", last - first, o->quiet);
    long k;
    int stopped = 0;
    for (k = first; k < last && !(stopped = *o->stop); k++) {
        const uint8_t *px;
        int stride;
        char size[32];
        /* A signal inside a frame (a seek to --from, a huge flock) ends it
         * undrawn; the frames before it are kept. */
        if ((rc = mur_session_frame(&ss, k, &px, &stride, &err)) == MUR_EINTR) {
            stopped = 1;
            break;
        }
        if (rc || (rc = mur_video_write(video, px, stride, &err)))
            goto done;
        mur_progress_update(&bar, k - first + 1, human_size(size, sizeof size, mur_video_bytes(video)));
    }
    mur_progress_end(&bar, k - first);
    if (stopped && k == first) {
        fprintf(stderr, "murmur: interrupted before the first frame: nothing written\n");
        err.msg[0] = 0;
        rc = MUR_EINTR;
        goto done;
    }
    rc = mur_video_close(video, &err);
    video = NULL;
    if (!rc && stopped) {
        fprintf(stderr, "murmur: interrupted: %s holds the %ld frames rendered\n", out, k - first);
        err.msg[0] = 0;   /* said: the frame that was stopped is not news */
        rc = MUR_EINTR;
    } else if (!rc && !o->quiet) {
        fprintf(stderr, "murmur: wrote %s (%ld frames)\n", out, last - first);
    }
done:
    mur_video_abort(video);
    free(meta);
    mur_session_end(&ss);
    return mur_cli_report(rc, &err);
}
