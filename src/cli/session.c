/* Render sessions: the flock always starts at tick 0 and is stepped to each
 * frame's tick, so any frame (a still, or --from/--to) is exactly the frame
 * of a whole render. */
#include "session.h"

#include <math.h>
#include <string.h>

static void observe(void *ctx, const mur_flock *f, long tick)
{
    mur_session_observer *o = ctx;
    mur_renderer_observe(o->session->renderer, o->panel, f, tick);
}

int mur_session_start(mur_session *ss, const mur_cli_opts *o, mur_error *err)
{
    memset(ss, 0, sizeof *ss);
    int rc = mur_cli_load_scene(o->scene, &ss->scene, err);
    if (rc)
        return rc;
    const mur_scene *s = ss->scene;
    ss->npanels = mur_render_panels(s);
    if (ss->npanels > MUR_MAX_PANELS)
        return mur_error_set(err, MUR_EINPUT, "%s: error: at most %d panels", s->path, MUR_MAX_PANELS);
    if ((rc = mur_renderer_create(&ss->renderer, s, s->width, s->height, err)))
        return rc;
    mur_renderer_set_stop(ss->renderer, o->stop);
    for (int i = 0; i < ss->npanels; i++) {
        mur_params base = s->params;
        if (s->panels)
            mur_scene_apply(s->conditions[i].set, s->conditions[i].nset, &base);
        if ((rc = mur_flock_create(&ss->flocks[i], &base, s->seed, err)) ||
            (rc = mur_flock_set_threads(ss->flocks[i], o->threads, err)))
            return rc;
        /* the warm-up, a seek to --from or --at and each tick answer a signal */
        mur_flock_set_stop(ss->flocks[i], o->stop);
        ss->observers[i] = (mur_session_observer){ss, i};
        ss->drivers[i].on_tick = observe;
        ss->drivers[i].on_tick_ctx = &ss->observers[i];
        ss->drivers[i].stop = o->stop;
        if ((rc = mur_driver_start(&ss->drivers[i], s, ss->flocks[i], &base, err)))
            return rc;
    }
    return MUR_OK;
}

int mur_session_run_to(mur_session *ss, long tick, mur_error *err)
{
    for (int i = 0; i < ss->npanels; i++) {
        int rc = mur_driver_run_to(&ss->drivers[i], tick, err);
        if (rc)
            return rc;
    }
    return MUR_OK;
}

int mur_session_frame(mur_session *ss, long k, const uint8_t **pixels, int *stride, mur_error *err)
{
    const mur_scene *s = ss->scene;
    int rc = mur_session_run_to(ss, mur_scene_frame_tick(s, k), err);
    if (rc)
        return rc;
    return mur_renderer_draw_image(ss->renderer, (const mur_flock *const *)ss->flocks, ss->npanels,
                                   mur_scene_frame_time(s, k), pixels, stride, err);
}

void mur_session_end(mur_session *ss)
{
    mur_renderer_destroy(ss->renderer);
    for (int i = 0; i < ss->npanels; i++)
        mur_flock_destroy(ss->flocks[i]);
    mur_scene_destroy(ss->scene);
    memset(ss, 0, sizeof *ss);
}

int mur_session_frame_of(const mur_scene *s, const char *text, const char *opt, long *out,
                         mur_error *err)
{
    double t;
    if (mur_time_parse(text, s->tps, &t) || t < 0 || t > MUR_SCENE_MAX_SECONDS)
        return mur_error_set(err, MUR_EINPUT,
                             "murmur: %s must be a time like 12s, 1.5s or 900t, not '%s'", opt, text);
    *out = (long)ceil(t * s->fps - 1e-9);
    return MUR_OK;
}
