/* `murmur still`: one frame of a scene as an image. */
#include <stdio.h>
#include <string.h>

#include "session.h"

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
    mur_session ss;
    long k;
    const uint8_t *px;
    int stride;
    int rc = mur_session_start(&ss, o, &err);
    if (rc || (rc = mur_session_frame_of(ss.scene, o->at, "--at", &k, &err)) ||
        (rc = mur_session_frame(&ss, k, &px, &stride, &err)) ||
        (rc = mur_renderer_write_png(ss.renderer, o->output, &err)))
        goto done;
    if (!o->quiet)
        fprintf(stderr, "murmur: wrote %s\n", o->output);
done:
    mur_session_end(&ss);
    return mur_cli_report(rc, &err);
}
