/* `murmur still`: one frame of a scene as a PNG, or as a PDF or SVG sized
 * for a paper column (vectors, fonts embedded). The session steps every
 * panel's flock from tick 0, so the still is exactly that frame of a render,
 * trails and plots included. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "murmur/session.h"

int mur_cmd_still(const mur_cli_opts *o)
{
    mur_error err = {{0}};
    if (!o->at)
        return mur_cli_usage_error("%s needs --at T", "still");
    if (!o->output)
        return mur_cli_usage_error("%s needs -o OUT.png, OUT.pdf or OUT.svg", "still");
    const char *ext = strrchr(o->output, '.');
    if (!ext || (strcmp(ext, ".png") && strcmp(ext, ".pdf") && strcmp(ext, ".svg")))
        return mur_cli_usage_error("still output must end in .png, .pdf or .svg, not '%s'", o->output);
    mur_scene *s = NULL;
    mur_session *ss = NULL;
    long k;
    int rc = mur_cli_session(o, &s, &ss, &err);
    if (!rc && !o->quiet)
        mur_cli_warn_at(s, "--at", o->at);
    if (rc || (rc = mur_cli_frame_at(s, o->at, "--at", &k, &err)) || (rc = mur_cli_output_ready(o->output, &err)) ||
        (rc = mur_session_still(ss, k, o->output, &err)))
        goto done;
    if (!o->quiet)
        fprintf(stderr, "murmur: wrote %s\n", o->output);
done:
    mur_session_destroy(ss);
    mur_scene_destroy(s);
    return mur_cli_report(rc, &err);
}
