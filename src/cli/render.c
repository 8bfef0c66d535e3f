/* `murmur render` and `murmur still`: the frame loop.
 *
 * The flock always starts at tick 0 and is stepped to each frame's tick, so
 * a partial render (--from/--to) shows exactly the frames of a whole one. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "murmur/render.h"
#include "murmur/scene.h"
#include "murmur/video.h"
#include "progress.h"

static void observe(void *ctx, const mur_flock *f, long tick)
{
    mur_renderer_observe(ctx, f, tick);
}

/* A missing out/ (the default folder) is created; any other missing folder
 * is the user's to make, and the writer reports it. */
static void ensure_default_dir(const char *path)
{
    if (strncmp(path, "out/", 4) == 0)
        mkdir("out", 0777);
}

static int frame_of(const mur_scene *s, const char *text, const char *opt, long *out, mur_error *err)
{
    double t;
    if (mur_time_parse(text, s->tps, &t) || t < 0)
        return mur_error_set(err, MUR_EINPUT, "murmur: %s must be a time like 12s, 1.5s or 900t, not '%s'",
                             opt, text);
    *out = (long)ceil(t * s->fps - 1e-9);
    return MUR_OK;
}

typedef struct {
    mur_scene *scene;
    mur_flock *flock;
    mur_renderer *renderer;
    mur_driver driver;
} session;

static void session_end(session *ss)
{
    mur_renderer_destroy(ss->renderer);
    mur_flock_destroy(ss->flock);
    mur_scene_destroy(ss->scene);
}

static int session_start(session *ss, const mur_cli_opts *o, int width, int height, mur_error *err)
{
    memset(ss, 0, sizeof *ss);
    int rc = mur_scene_load(&ss->scene, o->scene, err);
    if (rc)
        return rc;
    const mur_scene *s = ss->scene;
    if ((rc = mur_flock_create(&ss->flock, &s->params, s->seed, err)) ||
        (rc = mur_flock_set_threads(ss->flock, o->threads, err)) ||
        (rc = mur_renderer_create(&ss->renderer, s, width ? width : s->width,
                                  height ? height : s->height, err)))
        return rc;
    ss->driver.on_tick = observe;
    ss->driver.on_tick_ctx = ss->renderer;
    return mur_driver_start(&ss->driver, s, ss->flock, &s->params, err);
}

int mur_cmd_render(const mur_cli_opts *o)
{
    mur_error err = {{0}};
    session ss;
    mur_video *video = NULL;
    int rc = session_start(&ss, o, 0, 0, &err);
    if (rc)
        goto done;
    const mur_scene *s = ss.scene;
    long frames = mur_scene_frames(s), first = 0, last = frames;
    if (o->from && (rc = frame_of(s, o->from, "--from", &first, &err)))
        goto done;
    if (o->to && (rc = frame_of(s, o->to, "--to", &last, &err)))
        goto done;
    if (last > frames)
        last = frames;
    if (first >= last) {
        rc = mur_error_set(&err, MUR_EINPUT, "murmur: nothing to render: --from is not before --to (video has %ld frames)",
                           frames);
        goto done;
    }
    const char *out = o->output ? o->output : s->output;
    if (!o->output)
        ensure_default_dir(out);
    mur_video_opts vo = {.path = out, .width = s->width, .height = s->height,
                         .fps = (int)lround(s->fps), .quality = s->quality};
    if (fabs(s->fps - vo.fps) > 1e-9) {
        rc = mur_error_set(&err, MUR_EINPUT, "%s: error: video.fps must be a whole number for video output", s->path);
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
        if ((rc = mur_driver_run_to(&ss.driver, mur_scene_frame_tick(s, k), &err)) ||
            (rc = mur_renderer_draw_image(ss.renderer, ss.flock, mur_scene_frame_time(s, k), &px,
                                          &stride, &err)) ||
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
    session_end(&ss);
    return mur_cli_report(rc, &err);
}

int mur_cmd_still(const mur_cli_opts *o)
{
    mur_error err = {{0}};
    if (!o->at)
        return mur_cli_usage_error("%s needs --at T", "still");
    if (!o->output)
        return mur_cli_usage_error("%s needs -o OUT.png", "still");
    const char *ext = strrchr(o->output, '.');
    if (!ext || strcmp(ext, ".png") != 0)
        return mur_cli_usage_error("still output must end in .png, not '%s'", o->output);
    session ss;
    int rc = session_start(&ss, o, 0, 0, &err);
    if (rc)
        goto done;
    long k;
    if ((rc = frame_of(ss.scene, o->at, "--at", &k, &err)))
        goto done;
    const uint8_t *px;
    int stride;
    if ((rc = mur_driver_run_to(&ss.driver, mur_scene_frame_tick(ss.scene, k), &err)) ||
        (rc = mur_renderer_draw_image(ss.renderer, ss.flock, mur_scene_frame_time(ss.scene, k), &px,
                                      &stride, &err)) ||
        (rc = mur_renderer_write_png(ss.renderer, o->output, &err)))
        goto done;
    if (!o->quiet)
        fprintf(stderr, "murmur: wrote %s\n", o->output);
done:
    session_end(&ss);
    return mur_cli_report(rc, &err);
}
