/* `murmur render`: the frame loop from scene to video file. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "murmur/video.h"
#include "progress.h"
#include "session.h"

/* A missing out/ (the default folder) is created; any other missing folder
 * is the user's to make, and the writer reports it. */
static void ensure_default_dir(const char *path)
{
    if (strncmp(path, "out/", 4) == 0)
        mkdir("out", 0777);
}

int mur_cmd_render(const mur_cli_opts *o)
{
    mur_error err = {{0}};
    mur_session ss;
    mur_video *video = NULL;
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
                         .fps = (int)lround(s->fps), .quality = s->quality};
    if (fabs(s->fps - vo.fps) > 1e-9) {
        rc = mur_error_set(&err, MUR_EINPUT, "%s: error: video.fps must be a whole number for video output",
                           s->path);
        goto done;
    }
    if ((s->width | s->height) & 1)
        fprintf(stderr, "murmur: warning: %dx%d rounded down to an even size for yuv420p\n",
                s->width, s->height);
    if ((rc = mur_video_open(&video, &vo, &err)))
        goto done;
    mur_progress bar;
    mur_progress_start(&bar, "frames", last - first, o->quiet);
    long k;
    for (k = first; k < last && !mur_cli_interrupted; k++) {
        const uint8_t *px;
        int stride;
        if ((rc = mur_session_frame(&ss, k, &px, &stride, &err)) ||
            (rc = mur_video_write(video, px, stride, &err)))
            goto done;
        mur_progress_update(&bar, k - first + 1, NULL);
    }
    mur_progress_end(&bar, k - first);
    rc = mur_video_close(video, &err);
    video = NULL;
    if (!rc && mur_cli_interrupted) {
        fprintf(stderr, "murmur: interrupted: %s holds the %ld frames rendered\n", out, k - first);
        rc = MUR_EINTR;
    } else if (!rc && !o->quiet) {
        fprintf(stderr, "murmur: wrote %s (%ld frames)\n", out, last - first);
    }
done:
    mur_video_abort(video);
    mur_session_end(&ss);
    return mur_cli_report(rc, &err);
}
