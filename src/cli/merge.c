/* `--shard K/N` and `murmur merge`: an experiment run in pieces on a
 * cluster, and the pieces put back together.
 *
 * A shard runs the jobs shard.h assigns it and writes one shard file; merge
 * reads all N, rebuilds the experiment (mur_experiment_merge) and hands it
 * to the very functions a whole run's stats or series writes its outputs
 * with, so the table, JSON, per-run file and figure are the whole run's to
 * the byte. Every check happens before anything is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "murmur/alloc.h"
#include "murmur/experiment.h"
#include "murmur/file.h"
#include "murmur/scene.h"
#include "murmur/shard.h"
#include "murmur/trace.h"

int mur_cli_parse_shard(const char *text, int *k, int *n)
{
    if (mur_cli_parse_k_of_n(text, MUR_SHARD_MAX, k, n)) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "--shard must be K/N with N from 1 to %d and K from 1 to N (1-based; from a 0-based "
                 "index I write $((I+1))/N), not '%%s'",
                 MUR_SHARD_MAX);
        return mur_cli_usage_error(msg, text);
    }
    return 0;
}

/* The last part of path without its extension: "scenes/a.yaml" -> "a". */
static void stem(const char *path, const char **start, int *len)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    *start = base;
    *len = dot && dot > base ? (int)(dot - base) : (int)strlen(base);
}

char *mur_cli_shard_path(const char *output, const char *scene, int k, int n)
{
    const char *dir = "out/", *name;
    int dirlen = 4, namelen;
    struct stat st;
    stem(scene, &name, &namelen);
    if (output && *output) {
        size_t len = strlen(output);
        if (output[len - 1] == '/' || (stat(output, &st) == 0 && S_ISDIR(st.st_mode))) {
            dir = output;
            dirlen = (int)len;
        } else {
            const char *slash = strrchr(output, '/');
            dir = output;
            dirlen = slash ? (int)(slash - output + 1) : 0;
            stem(output, &name, &namelen);
        }
    }
    size_t size = (size_t)dirlen + (size_t)namelen + 64;
    char *out = mur_malloc(size);
    if (out)
        snprintf(out, size, "%.*s%s%.*s.shard-%d-of-%d.mur", dirlen, dir,
                 dirlen && dir[dirlen - 1] != '/' ? "/" : "", namelen, name, k, n);
    return out;
}

int mur_cli_shard_file(const mur_cli_opts *o, const mur_scene *s, int k, int n, char **path,
                       mur_error *err)
{
    struct stat st;
    *path = NULL;
    if (stat(s->path, &st) != 0 || !S_ISREG(st.st_mode))   /* a pipe cannot be read again by the merge */
        return mur_error_set(err, MUR_EINPUT,
                             "murmur: --shard needs the scene as a file (the merge reads it again), not '%s'",
                             s->path);
    if (!(*path = mur_cli_shard_path(o->output, s->path, k, n)))
        return mur_error_set(err, MUR_ERUN, "out of memory");
    int rc = mur_cli_output_ready(*path, err);   /* before the shard's runs */
    if (rc) {   /* the caller owns *path only when it can be written */
        mur_free(*path);
        *path = NULL;
    }
    return rc;
}

void mur_cli_shard_complete(const mur_cli_opts *o, const char *path, int k, int n)
{
    if (!o->quiet)
        fprintf(stderr, "murmur: %s is complete (shard %d of %d): nothing to do\n", path, k, n);
}

/* The options a merge of `command`'s shards does not take. */
static int merge_refuses(const mur_cli_opts *o, const char *command)
{
    if (!strcmp(command, "stats"))
        return 0;
    const char *opt = o->runs_out ? "--runs-out" : o->plot_effects ? "--plot-effects" : o->json ? "--json"
                    : o->plot && !strcmp(command, "trace") ? "--plot" : NULL;
    if (!opt)
        return 0;
    char msg[160];
    snprintf(msg, sizeof msg, "%%s is for a merge of stats shards; these are %s shards", command);
    return mur_cli_usage_error(msg, opt);
}

int mur_cmd_merge(const mur_cli_opts *o)
{
    mur_error err = {{0}};
    mur_shard_info in;
    mur_scene *s = NULL;
    mur_experiment *e = NULL;
    memset(&in, 0, sizeof in);
    if (o->ninputs < 1)
        return mur_cli_usage_error("merge needs the shard files: murmur merge %s", "out/NAME.shard-*-of-N.mur -o OUT");
    if (!o->output)
        return mur_cli_usage_error("merge needs -o OUT, the whole run's output (%s)", "out/NAME.csv");
    /* the output first: a directory there would fail the rename at the end */
    int rc = mur_cli_output_ready(o->output, &err);
    if (rc || (rc = mur_shard_read_info(o->inputs[0], &in, &err)))
        goto done;
    int json, trace = !strcmp(in.command, "trace");
    if (merge_refuses(o, in.command) ||
        (trace ? 0 : !strcmp(in.command, "stats") ? mur_cli_stats_options(o, &json) : mur_cli_series_options(o))) {
        mur_shard_info_free(&in);
        return 2;
    }
    char why[160];
    if (mur_file_check_input(in.scene, 0, why, sizeof why)) {   /* a pipe there would block the load */
        rc = mur_error_set(&err, MUR_EINPUT, "%s: a shard of the scene '%s', which %s", o->inputs[0], in.scene, why);
        goto done;
    }
    const char *outs[] = {o->output, o->runs_out, o->plot, o->plot_effects};
    if ((rc = mur_cli_outputs_ready(outs, 4, &err)) || (rc = mur_cli_load_scene(in.scene, NULL, &s, &err)))
        goto done;
    if (trace) {   /* every run's rows or file, as the whole trace has them */
        if (!(rc = mur_trace_merge(s, o->inputs, o->ninputs, o->output, &err)) && !o->quiet)
            fprintf(stderr, "murmur: wrote %s (%d run%s)\n", o->output, in.runs, in.runs == 1 ? "" : "s");
        goto done;
    }
    if ((rc = mur_experiment_merge(&e, s, o->inputs, o->ninputs, &err)))
        goto done;
    if (!strcmp(in.command, "stats"))
        rc = mur_cli_stats_outputs(o, e, &err);
    else
        rc = mur_cli_series_outputs(o, e, &err);
done:
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
    mur_shard_info_free(&in);
    return mur_cli_report(rc, &err);
}
