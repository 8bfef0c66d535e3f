/* murmur: the command line.
 *
 * The CLI is the only place that prints and exits. Status: 0 done; 1 failed
 * while running (I/O, encoder); 2 bad usage or bad scene; 130 interrupted
 * (the output so far is finalised first). The commands and options, and
 * the help, manual page and completion printed from them, are usage.c's. */
#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libavutil/log.h>

#include "commands.h"
#include "murmur/version.h"
#include "murmur/scene.h"
#include "murmur/video.h"
#include "progress.h"
#include "usage.h"

/* The one flag SIGINT and SIGTERM raise; every long loop is handed it
 * (mur_cli_opts.stop) rather than reading it here. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

int mur_cli_usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "murmur: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(see murmur --help)\n");
    return 2;
}

int mur_cli_exit_code(int rc)
{
    switch (rc) {
    case MUR_OK: return 0;
    case MUR_EINPUT: return 2;
    case MUR_EINTR: return 130;
    default: return 1;
    }
}

int mur_cli_parse_k_of_n(const char *text, int max, int *k, int *n)
{
    char *end;
    long a = strtol(text, &end, 10), b = -1;
    if (end != text && *end == '/' && end[1] >= '0' && end[1] <= '9') {
        b = strtol(end + 1, &end, 10);
        if (*end)
            b = -1;
    }
    if (b < 1 || b > max || a < 1 || a > b)
        return -1;
    *k = (int)a;
    *n = (int)b;
    return 0;
}

/* A message that names its place (file:line:col: error: ...) or was
 * written as a usage line (murmur: ...) prints as it is; any other gets the
 * "murmur: error: " that says who speaks. */
int mur_cli_report(int rc, const mur_error *err)
{
    if (rc == MUR_EINTR && err->msg[0]) {
        fprintf(stderr, "murmur: interrupted (%s): nothing written\n", err->msg);
    } else if (rc && err->msg[0]) {
        int placed = strstr(err->msg, "error:") || strncmp(err->msg, "murmur: ", 8) == 0;
        fprintf(stderr, "%s%s\n", placed ? "" : "murmur: error: ", err->msg);
    }
    return mur_cli_exit_code(rc);
}

/* written: the file the command writes in place of video.output (-o), or
 * NULL. The format checks apply to the output actually written: with -o the
 * writer checks that path (mur_video_open, the session's alpha check), and
 * video.output, not written, is not refused for a format it would not have. */
int mur_cli_load_scene(const char *path, const char *written, mur_scene **out, mur_error *err)
{
    int rc = mur_scene_load(out, path, err);
    if (rc || !(*out)->output_line || written)
        return rc;
    mur_error why;
    if (mur_video_check_path((*out)->output, &why) ||
        ((*out)->look.transparent && mur_video_check_alpha((*out)->output, &why))) {
        rc = mur_error_set(err, MUR_EINPUT, "%s:%d:%d: error: %s", path, (*out)->output_line,
                           (*out)->output_col, why.msg);
        mur_scene_destroy(*out);
        *out = NULL;
    }
    return rc;
}

static int not_for(const char *opt, const char *cmd)
{
    fprintf(stderr, "murmur: option %s does not apply to '%s'\n(see murmur %s --help)\n", opt, cmd,
            cmd);
    return 2;
}

/* operands: room for the files of a command of several (join's PART...,
 * merge's SHARD...), at most every argument. */
static int parse_options(int argc, char **argv, mur_cli_opts *o, const char **operands)
{
    const char *cmd = argv[1];
    memset(o, 0, sizeof *o);
    o->threads = 0;
    int many = !strcmp(cmd, "merge") || !strcmp(cmd, "join");   /* a command of several operands */
    if (many)
        o->inputs = operands;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        /* An option given to a command that would ignore it is an error,
         * not a silent no-op. */
        const mur_usage_option *opt = mur_usage_option_find(a, cmd);
        if (opt && (!mur_usage_applies(opt, cmd) || opt->offset == MUR_USAGE_NO_FIELD))
            return not_for(opt->name, cmd);
        if (opt && !opt->arg) {
            *(int *)(void *)((char *)o + opt->offset) = 1;
        } else if (opt) {
            const char **want = (const char **)(void *)((char *)o + opt->offset);
            if (*want)
                return mur_cli_usage_error("option %s is given twice", opt->name);
            if (i + 1 >= argc)
                return mur_cli_usage_error("option %s needs a value", a);
            *want = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            return mur_cli_usage_error("unknown option '%s'", a);
        } else if (many) {   /* every operand is a file: a chunk, a shard */
            operands[o->ninputs++] = a;
        } else if (!o->scene) {
            o->scene = a;
        } else {
            return mur_cli_usage_error("unexpected argument '%s'", a);
        }
    }
    if (o->threads_text) {
        char *end;
        long t = strtol(o->threads_text, &end, 10);
        if (*end || t < 1 || t > 256)
            return mur_cli_usage_error("--threads must be a number from 1 to 256, not '%s'", o->threads_text);
        o->threads = (int)t;
    }
    return 0;
}

/* "unknown command 'rendr' (did you mean 'render'?)" */
static int unknown_command(const char *name)
{
    const char *near = mur_usage_command_nearest(name);
    char what[160];
    snprintf(what, sizeof what, "unknown command '%.80s'%s%s%s", name, near ? " (did you mean '" : "",
             near ? near : "", near ? "'?)" : "");
    return mur_cli_usage_error("%s", what);
}

static int is_help(const char *a)
{
    return !strcmp(a, "-h") || !strcmp(a, "--help");
}

/* What is answered without running a command: help, the version, and the
 * manual page and bash completion a build installs (for packagers, so not
 * in --help). Returns the exit status, or -1 when argv[1] is a command to
 * run. */
static int answer(int argc, char **argv)
{
    const char *first = argv[1];
    if (is_help(first)) {
        mur_usage_overview(stdout);
        return 0;
    }
    if (!strcmp(first, "--version") || !strcmp(first, "version")) {
        printf("murmur %s\n", MUR_VERSION_STRING);
        return 0;
    }
    if (!strcmp(first, "--man")) {
        if (argc > 2)
            return mur_cli_usage_error("unexpected argument '%s'", argv[2]);
        mur_usage_man(stdout);
        return 0;
    }
    if (!strcmp(first, "--completion")) {
        if (argc != 3 || strcmp(argv[2], "bash"))
            return mur_cli_usage_error("--completion takes one shell name: bash%s", "");
        mur_usage_bash_completion(stdout);
        return 0;
    }
    const mur_usage_command *c = mur_usage_command_find(first);
    if (!c && first[0] != '-')
        return unknown_command(first);
    if (!c)
        return mur_cli_usage_error("unknown option '%s'", first);
    for (int i = 2; i < argc; i++)
        if (is_help(argv[i])) {
            mur_usage_command_help(stdout, c);
            return 0;
        }
    if (strcmp(c->name, "help"))
        return -1;
    if (argc == 2) {
        mur_usage_overview(stdout);
        return 0;
    }
    if (argc > 3)
        return mur_cli_usage_error("unexpected argument '%s'", argv[3]);
    if (!(c = mur_usage_command_find(argv[2])))
        return unknown_command(argv[2]);
    mur_usage_command_help(stdout, c);
    return 0;
}

static int run(const char *cmd, mur_cli_opts *o);

int main(int argc, char **argv)
{
    if (argc < 2) {
        mur_usage_overview(stderr);
        return 2;
    }
    int rc = answer(argc, argv);
    if (rc >= 0)
        return rc;
    mur_cli_opts o;
    /* libav's per-run chatter (x264's statistics) is not for users; its
     * errors still reach stderr. */
    av_log_set_level(AV_LOG_ERROR);
    /* join's chunks and merge's shards: at most every argument */
    const char **operands = calloc((size_t)argc, sizeof *operands);
    if (!operands) {
        fprintf(stderr, "murmur: error: out of memory\n");
        return 1;
    }
    rc = parse_options(argc, argv, &o, operands);
    if (!rc) {
        o.argv0 = argv[0];
        rc = run(argv[1], &o);
    }
    free(operands);
    return rc;
}

/* Runs the command cmd with its options parsed. */
static int run(const char *cmd, mur_cli_opts *o)
{
    o->stop = &interrupted;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* A signal ignored when murmur started (nohup, a shell's background
     * job) stays ignored, as careful tools leave it. */
    static const int sigs[] = {SIGINT, SIGTERM};
    for (int i = 0; i < 2; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }

    if (!strcmp(cmd, "presets"))
        return mur_cmd_presets(o);
    if (!strcmp(cmd, "join"))
        return mur_cmd_join(o);
    if (!strcmp(cmd, "merge"))
        return mur_cmd_merge(o);
    if (!o->scene)
        return mur_cli_usage_error("'%s' needs a SCENE file", cmd);
    if (!strcmp(cmd, "render"))
        return mur_cmd_render(o);
    if (!strcmp(cmd, "still"))
        return mur_cmd_still(o);
    if (!strcmp(cmd, "check"))
        return mur_cmd_check(o);
    if (!strcmp(cmd, "stats"))
        return mur_cmd_stats(o);
    if (!strcmp(cmd, "series"))
        return mur_cmd_series(o);
    if (!strcmp(cmd, "trace"))
        return mur_cmd_trace(o);
    if (!strcmp(cmd, "plan"))
        return mur_cmd_plan(o);
    return mur_cli_usage_error("unknown command '%s'", cmd);
}
