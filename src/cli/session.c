/* What `render` and `still` share before drawing: the scene loaded and
 * checked, a library session made from the command's options, and times
 * on the command line turned into frames with the option's name in the
 * message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "murmur/session.h"
#include "murmur/limits.h"
#include "murmur/variant.h"

/* --condition NAME as the index of the scene's condition; one line naming
 * the choices when it is none of them. */
static int condition_option(const mur_scene *s, const char *name, int *out, mur_error *err)
{
    for (int c = 0; c < s->nconditions; c++)
        if (!strcmp(s->conditions[c].name, name)) {
            *out = c;
            return MUR_OK;
        }
    char list[1024] = "";
    size_t n = 0;
    for (int c = 0; c < s->nconditions && n < sizeof list; c++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s'%s'", c ? ", " : "", s->conditions[c].name);
    return mur_error_set(err, MUR_EINPUT, "murmur: --condition '%s' is not a condition of %s: %s",
                         name, s->path, list);
}

/* --run K: a run of the scene's experiment, 0 .. runs - 1. */
static int run_option(const mur_scene *s, const char *text, int *out, mur_error *err)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < 0 || v >= s->runs)
        return mur_error_set(err, MUR_EINPUT,
                             "murmur: --run must be a run of %s's experiment, 0 to %d (runs: %d), not '%s'",
                             s->path, s->runs - 1, s->runs, text);
    *out = (int)v;
    return MUR_OK;
}

/* A whole number from lo to hi given as option opt, or a usage error. */
static int whole(const char *text, const char *opt, int lo, int hi, int *out, mur_error *err)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < lo || v > hi)
        return mur_error_set(err, MUR_EINPUT, "murmur: %s must be a whole number from %d to %d, not '%s'",
                             opt, lo, hi, text);
    *out = (int)v;
    return MUR_OK;
}

/* --size, --fps, --quality and --draft applied to the loaded scene. */
static int variant_options(const mur_cli_opts *o, mur_scene *s, mur_error *err)
{
    mur_variant v = MUR_VARIANT_INIT;
    int rc = MUR_OK;
    if (o->size && mur_size_parse(o->size, &v.width, &v.height))
        return mur_error_set(err, MUR_EINPUT,
                             "murmur: --size must be WxH (16 to %d each) or 360p, 480p, 720p, 1080p, "
                             "1440p, 4k, not '%s'",
                             MUR_SCENE_MAX_PIXELS, o->size);
    if ((o->fps_text && (rc = whole(o->fps_text, "--fps", 1, MUR_MAX_FPS, &v.fps, err))) ||
        (o->quality_text && (rc = whole(o->quality_text, "--quality", 0, MUR_MAX_QUALITY, &v.quality, err))))
        return rc;
    v.draft = o->draft;
    return mur_scene_vary(s, &v, err);
}

int mur_cli_session(const mur_cli_opts *o, mur_scene **s, mur_session **ss, mur_error *err)
{
    *ss = NULL;
    int rc = mur_cli_load_scene(o->scene, o->output, s, err);
    if (rc || (rc = variant_options(o, *s, err)))
        return rc;
    mur_session_opts so = MUR_SESSION_OPTS_INIT;
    so.threads = o->threads;
    so.stop = o->stop;
    if ((o->condition && (rc = condition_option(*s, o->condition, &so.condition, err))) ||
        (o->run_text && (rc = run_option(*s, o->run_text, &so.run, err))))
        return rc;
    return mur_session_create(ss, *s, &so, err);
}

int mur_cli_not_sequence(const mur_scene *s, mur_error *err)
{
    if (!s->sequence)
        return MUR_OK;
    return mur_error_set(err, MUR_EINPUT,
                         "%s:1:1: error: this is a sequence file: render or check it; stats, series and "
                         "trace take one of its scenes", s->path);
}

int mur_cli_frame_at(const mur_scene *s, const char *text, const char *opt, long *out,
                     mur_error *err)
{
    if (mur_session_frame_at(s, text, out))
        return mur_error_set(err, MUR_EINPUT,
                             "murmur: %s must be a time like 12s, 1.5s or 900t, not '%s'", opt, text);
    return MUR_OK;
}
