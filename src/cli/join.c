/* `murmur join`: the chunks of a render (render --chunk K/N) into the one
 * file the whole render writes; the work is the library's
 * (mur_video_join, video.h), this command reads the operands and reports. */
#include <stdio.h>
#include <string.h>

#include <libavutil/log.h>

#include "commands.h"
#include "murmur/video.h"

/* Whether join refused OUT's format in the writers' own words (which every
 * command prints as "murmur: error: ..."), not one of the parts. */
static int about_output(const char *out, const mur_error *err)
{
    mur_error why = {{0}};
    return mur_video_check_path(out, &why) != MUR_OK && !strcmp(why.msg, err->msg);
}

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
    int rc = mur_video_join(o->output, o->inputs, o->ninputs, o->stop, &res, &err);
    if (!rc && !o->quiet)
        fprintf(stderr, "murmur: wrote %s (%d chunks, %ld frames)\n", o->output, res.parts, res.frames);
    /* A refusal of the parts names the part and says what is wrong with
     * it, the way join has always put it: "murmur: 'x.mp4' is truncated: ...". */
    if (rc == MUR_EINPUT && err.msg[0] && !about_output(o->output, &err)) {
        fprintf(stderr, "murmur: %s\n", err.msg);
        return mur_cli_exit_code(rc);
    }
    return mur_cli_report(rc, &err);
}
