/* `murmur still`: one frame of a scene as a PNG, or as a PDF or SVG sized
 * for a paper column (vectors, fonts embedded). The session steps every
 * panel's flock from tick 0, so the still is exactly that frame of a render,
 * trails and plots included. */
#include <stdio.h>
#include <string.h>

#include "session.h"

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
    mur_session ss;
    long k;
    int rc = mur_session_start(&ss, o, &err);
    if (rc || (rc = mur_session_frame_of(ss.scene, o->at, "--at", &k, &err)) ||
        (rc = mur_session_run_to(&ss, mur_scene_frame_tick(ss.scene, k), &err)) ||
        (rc = mur_renderer_write_still(ss.renderer, (const mur_flock *const *)ss.flocks, ss.npanels,
                                       mur_scene_frame_time(ss.scene, k), o->output, &err)))
        goto done;
    if (!o->quiet)
        fprintf(stderr, "murmur: wrote %s\n", o->output);
done:
    mur_session_end(&ss);
    return mur_cli_report(rc, &err);
}
