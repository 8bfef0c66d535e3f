/* What `render` and `still` share before drawing: the scene loaded and
 * checked, a library session made from the command's options, and times
 * on the command line turned into frames with the option's name in the
 * message. */
#include <stdlib.h>

#include "commands.h"
#include "murmur/session.h"

int mur_cli_session(const mur_cli_opts *o, mur_scene **s, mur_session **ss, mur_error *err)
{
    *ss = NULL;
    int rc = mur_cli_load_scene(o->scene, s, err);
    if (rc)
        return rc;
    mur_session_opts so = MUR_SESSION_OPTS_INIT;
    so.threads = o->threads;
    so.stop = o->stop;
    return mur_session_create(ss, *s, &so, err);
}

int mur_cli_frame_at(const mur_scene *s, const char *text, const char *opt, long *out,
                     mur_error *err)
{
    if (mur_session_frame_at(s, text, out))
        return mur_error_set(err, MUR_EINPUT,
                             "murmur: %s must be a time like 12s, 1.5s or 900t, not '%s'", opt, text);
    return MUR_OK;
}
