/* murmur: the command line.
 *
 * The CLI is the only place that prints and exits. Status: 0 done; 1 failed
 * while running (I/O, encoder); 2 bad usage or bad scene; 130 interrupted
 * (the output so far is finalised first). */
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
#include "murmur/scene.h"
#include "murmur/video.h"
#include "progress.h"

static const char usage[] =
    "murmur " MURMUR_VERSION ": render flocking simulations (Reynolds boids) to video and figures\n"
    "\n"
    "usage:\n"
    "  murmur render SCENE [-o OUT] [--from T] [--to T] [--threads N] [--preset NAME] [-q]\n"
    "                                  render the scene's video (default: its video.output)\n"
    "  murmur still  SCENE --at T -o OUT.{png,pdf,svg}\n"
    "                                  one frame as an image\n"
    "  murmur stats  SCENE [--runs R] [--ticks T] [-o OUT.{csv,json}] [--plot FIG] [--threads N] [-q]\n"
    "                                  the experiment's conditions x runs: median, p10, p90, mean\n"
    "                                  of each metric at the last tick (--json: JSON on stdout)\n"
    "  murmur series SCENE -o OUT.csv [--ticks T] [--runs R] [--plot FIG]\n"
    "                                  one row per tick along the timeline, with a 10-90% band\n"
    "                                  across runs when R > 1; FIG is .png, .pdf or .svg\n"
    "  murmur check  SCENE             validate; print the resolved settings and timeline\n"
    "  murmur presets [NAME]           list the model presets, or print one as YAML\n"
    "\n"
    "options:\n"
    "  -o, --output PATH   output: .mp4 (H.264), .webm (VP9), .mov (ProRes), .gif, DIR/%05d.png\n"
    "  --preset NAME       render: x264 speed/size trade-off, ultrafast .. veryslow (default medium)\n"
    "  --from T, --to T    render only part of the video; T is 12s, 1.5s, 900t or seconds\n"
    "  --at T              time of a still\n"
    "  --runs R            runs per condition (stats; series: runs for the band)\n"
    "  --ticks T           ticks per run (stats, series): a count, or a time like 15s\n"
    "  --plot FIG          also draw a figure: .png (300 dpi), .pdf or .svg\n"
    "  --threads N         simulation threads (default: all cores; 1 also encodes in the\n"
    "                      drawing thread, the reference render); output is identical for any N\n"
    "  -q, --quiet         no progress bar\n"
    "  -h, --help          this text\n"
    "  --version           print the version\n"
    "\n"
    "exit status: 0 done, 1 failed while running, 2 bad usage or scene, 130 interrupted\n"
    "scene format: see README.md and the examples in scenes/\n";

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

int mur_cli_load_scene(const char *path, mur_scene **out, mur_error *err)
{
    int rc = mur_scene_load(out, path, err);
    if (rc || !(*out)->output_line)
        return rc;
    mur_error why;
    if (mur_video_check_path((*out)->output, &why)) {
        rc = mur_error_set(err, MUR_EINPUT, "%s:%d:%d: error: %s", path, (*out)->output_line,
                           (*out)->output_col, why.msg);
        mur_scene_destroy(*out);
        *out = NULL;
    }
    return rc;
}

/* Options with a value, and the commands they apply to: an option given to
 * a command that would ignore it is an error, not a silent no-op. */
typedef struct {
    const char *name, *alias;
    size_t offset;          /* const char * field in mur_cli_opts */
    const char *commands;   /* space-separated */
} option;

static const option options[] = {
    {"--output", "-o", offsetof(mur_cli_opts, output), "render still stats series"},
    {"--from", NULL, offsetof(mur_cli_opts, from), "render"},
    {"--to", NULL, offsetof(mur_cli_opts, to), "render"},
    {"--at", NULL, offsetof(mur_cli_opts, at), "still"},
    {"--threads", NULL, offsetof(mur_cli_opts, threads_text), "render still stats series"},
    {"--runs", NULL, offsetof(mur_cli_opts, runs_text), "stats series"},
    {"--ticks", NULL, offsetof(mur_cli_opts, ticks_text), "stats series"},
    {"--plot", NULL, offsetof(mur_cli_opts, plot), "stats series"},
    {"--preset", NULL, offsetof(mur_cli_opts, preset), "render"},
};

static int applies(const char *cmd, const char *commands)
{
    size_t n = strlen(cmd);
    for (const char *p = commands; (p = strstr(p, cmd)); p += n)
        if ((p == commands || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return 1;
    return 0;
}

static int not_for(const char *opt, const char *cmd)
{
    fprintf(stderr, "murmur: option %s does not apply to '%s'\n(see murmur --help)\n", opt, cmd);
    return 2;
}

static int parse_options(int argc, char **argv, mur_cli_opts *o)
{
    const char *cmd = argv[1];
    memset(o, 0, sizeof *o);
    o->threads = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const option *opt = NULL;
        for (size_t k = 0; k < sizeof options / sizeof options[0] && !opt; k++)
            if (!strcmp(a, options[k].name) || (options[k].alias && !strcmp(a, options[k].alias)))
                opt = &options[k];
        if (opt) {
            const char **want = (const char **)(void *)((char *)o + opt->offset);
            if (!applies(cmd, opt->commands))
                return not_for(opt->name, cmd);
            if (*want)
                return mur_cli_usage_error("option %s is given twice", opt->name);
            if (i + 1 >= argc)
                return mur_cli_usage_error("option %s needs a value", a);
            *want = argv[++i];
            continue;
        }
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = 1;
        } else if (!strcmp(a, "--json")) {
            if (!applies(cmd, "stats"))
                return not_for(a, cmd);
            o->json = 1;
        } else if (a[0] == '-' && a[1]) {
            return mur_cli_usage_error("unknown option '%s'", a);
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

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        fputs(usage, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("murmur %s\n", MURMUR_VERSION);
        return 0;
    }
    mur_cli_opts o;
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
    /* libav's per-run chatter (x264's statistics) is not for users; its
     * errors still reach stderr. */
    av_log_set_level(AV_LOG_ERROR);
    int rc = parse_options(argc, argv, &o);
    if (rc)
        return rc;
    o.stop = &interrupted;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    if (!strcmp(cmd, "presets"))
        return mur_cmd_presets(&o);
    if (!o.scene)
        return mur_cli_usage_error("'%s' needs a SCENE file", cmd);
    if (!strcmp(cmd, "render"))
        return mur_cmd_render(&o);
    if (!strcmp(cmd, "still"))
        return mur_cmd_still(&o);
    if (!strcmp(cmd, "check"))
        return mur_cmd_check(&o);
    if (!strcmp(cmd, "stats"))
        return mur_cmd_stats(&o);
    if (!strcmp(cmd, "series"))
        return mur_cmd_series(&o);
    return mur_cli_usage_error("unknown command '%s'", cmd);
}
