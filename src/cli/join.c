/* `murmur join`: the chunks of a render (render --chunk K/N) into the one
 * file the whole render writes; the work is the library's
 * (mur_video_join, video.h), this command reads the operands and reports. */
#include <stdio.h>

#include <libavutil/log.h>

#include "commands.h"
#include "murmur/video.h"

int mur_cmd_join(const mur_cli_opts *o)
{
    mur_error err = {{0}};
    if (!o->ninputs)
        return mur_cli_usage_error("'%s' needs the chunk files (PART...)", "join");
    if (!o->output)
        return mur_cli_usage_error("'%s' needs -o OUT, the whole video", "join");
    /* A damaged chunk makes the demuxer and parser complain on their own
     * (and again while probing); the one line below says what is wrong. */
    av_log_set_level(AV_LOG_QUIET);
    mur_join_result res;
    int rc = mur_cli_output_ready(o->output, &err);
    if (rc)
        return mur_cli_report(rc, &err);
    rc = mur_video_join(o->output, o->inputs, o->ninputs, o->stop, &res, &err);
    if (!rc && !o->quiet)
        fprintf(stderr, "murmur: wrote %s (%d chunks, %ld frames)\n", o->output, res.parts, res.frames);
    /* a refused part is named by the library's line ("'x.mp4' is
     * truncated: ..."), said as every command says an error */
    return mur_cli_report(rc, &err);
}
