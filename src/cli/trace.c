/* `murmur trace`: every boid's position and velocity per tick, as CSV or
 * H5MD, for a reader's own analysis. A thin caller of mur_trace_write
 * (trace.h): it turns the options into ticks, runs and a condition, and
 * leaves the provenance to the library, as every writer does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "murmur/experiment.h"
#include "murmur/scene.h"
#include "murmur/limits.h"
#include "murmur/trace.h"
#include "murmur/alloc.h"
#include "murmur/file.h"
#include "murmur/shard.h"
#include "progress.h"

/* The first tick at or after the time text (a scene's time: 12s, 900t). */
static int tick_at(const mur_scene *s, const char *text, const char *opt, long *out)
{
    double secs;
    if (mur_time_parse(text, s->tps, &secs) || !(secs >= 0) || secs > MUR_SCENE_MAX_SECONDS) {
        char fmt[96];
        snprintf(fmt, sizeof fmt, "%s must be a time like 12s or 900t, not '%%s'", opt);
        return mur_cli_usage_error(fmt, text);
    }
    *out = (long)ceil(secs * s->tps - 1e-9);
    return 0;
}

/* --from, --to, --ticks, --every into t's ticks [first, last] and step. */
static int range_options(const mur_cli_opts *o, const mur_scene *s, mur_trace_opts *t)
{
    if (o->at && (o->from || o->to || o->ticks_text))
        return mur_cli_usage_error("give --at or a range (--from, --to, --ticks), not both (%s)",
                                   o->at);
    if (o->at) {   /* one tick: a saved state */
        if (tick_at(s, o->at, "--at", &t->first))
            return 2;
        t->last = t->first;
        return 0;
    }
    if (o->to && o->ticks_text)
        return mur_cli_usage_error("give --to or --ticks, not both (%s)", "--ticks counts from --from");
    if (o->from && tick_at(s, o->from, "--from", &t->first))
        return 2;
    if (o->to) {
        if (tick_at(s, o->to, "--to", &t->last))
            return 2;
        if (--t->last < t->first)
            return mur_cli_usage_error("--to must come after --from, not '%s'", o->to);
    }
    if (o->ticks_text) {
        char *end;
        long v = strtol(o->ticks_text, &end, 10);
        double secs;
        if (end != o->ticks_text && !*end && v >= 1 && v <= MUR_MAX_RUN_TICKS)
            t->last = t->first + v;
        else if (!mur_time_parse(o->ticks_text, s->tps, &secs) && secs > 0 && secs * s->tps <= 1e7)
            t->last = t->first + (lround(secs * s->tps) > 0 ? lround(secs * s->tps) : 1);
        else
            return mur_cli_usage_error("--ticks must be a tick count or a time like 15s, not '%s'",
                                       o->ticks_text);
    }
    if (o->every) {
        double secs;
        if (mur_time_parse(o->every, s->tps, &secs) || !(secs > 0) || lround(secs * s->tps) < 1 ||
            secs * s->tps > 1e7)
            return mur_cli_usage_error(
                "--every must be ticks like 5t or a time like 0.5s (at least one tick), not '%s'",
                o->every);
        t->every = lround(secs * s->tps);
    }
    return 0;
}

/* --run K and --runs R (and --condition, checked by the library). */
static int run_options(const mur_cli_opts *o, const mur_scene *s, mur_trace_opts *t)
{
    if (o->run_text && o->runs_text)
        return mur_cli_usage_error("give --run K or --runs R, not both (%s)", o->run_text);
    char *end;
    if (o->run_text) {
        long v = strtol(o->run_text, &end, 10);
        if (end == o->run_text || *end || v < 0 || v >= s->runs) {
            fprintf(stderr,
                    "murmur: --run must be a run from 0 to %d (the scene's experiment.runs - 1), "
                    "not '%s'\n",
                    s->runs - 1, o->run_text);
            return 2;
        }
        t->run = (int)v;
    }
    if (o->runs_text) {
        long v = strtol(o->runs_text, &end, 10);
        if (end == o->runs_text || *end || v < 1 || v > MUR_MAX_RUNS)
            return mur_cli_usage_error("--runs must be a number from 1 to " MUR_STR(MUR_MAX_RUNS) ", not '%s'", o->runs_text);
        t->run = 0;
        t->runs = (int)v;
    }
    return 0;
}

static void on_progress(void *ctx, long done, long total)
{
    (void)total;
    mur_progress_update(ctx, done, NULL);
}

/* --shard K/N: the runs of shard K into DIR/NAME.shard-K-of-N.mur (-o
 * gives DIR, NAME and the format), unless that file is complete. */
static int trace_shard(const mur_cli_opts *o, const mur_scene *s, mur_trace_opts *t, mur_error *err)
{
    if (mur_cli_parse_shard(o->shard_text, &t->shard, &t->shards))
        return MUR_EINPUT;
    char *path;
    int rc = mur_cli_shard_file(o, s, t->shard, t->shards, &path, err);
    if (rc)
        return rc;
    long mine = mur_shard_jobs(t->runs, t->shard, t->shards);
    if (mur_trace_shard_done(s, t, path)) {
        mur_cli_shard_complete(o, path, t->shard, t->shards);
    } else if (!(rc = mur_trace_shard_write(s, t, path, err)) && !o->quiet) {
        fprintf(stderr, "murmur: wrote %s (shard %d of %d: %ld of %d runs)\n", path, t->shard, t->shards, mine,
                t->runs);
    }
    mur_free(path);
    return rc;
}

/* "wrote FILE (T ticks of N boids, R runs)": the boids of the condition
 * traced (its own count, not the scene's), and the files as written (an
 * .h5 per run: NAME-run0.h5 ... NAME-runR-1.h5). */
static int say_written(const mur_scene *s, const mur_trace_opts *t, long ticks, mur_error *err)
{
    mur_params p = s->params;
    int c = t->condition ? mur_scene_find_condition(s, t->condition, err) : -1;
    if (c >= 0)
        mur_scene_apply(s->conditions[c].set, s->conditions[c].nset, &p);
    char *first = mur_trace_path(t->path, t->runs, 0), *last = mur_trace_path(t->path, t->runs, t->runs - 1);
    if (!first || !last) {
        mur_free(first);
        mur_free(last);
        return mur_error_set(err, MUR_ERUN, "out of memory");
    }
    fprintf(stderr, "murmur: wrote %s%s%s (%ld ticks of %d boids, %d run%s)\n", first,
            strcmp(first, last) ? " ... " : "", strcmp(first, last) ? last : "", ticks, p.count, t->runs,
            t->runs == 1 ? "" : "s");
    mur_free(first);
    mur_free(last);
    return MUR_OK;
}

int mur_cmd_trace(const mur_cli_opts *o)
{
    mur_error err = {{0}};
    mur_scene *s = NULL;
    /* A trace has no default file (the scene names only its video): as
     * series, it is asked for, with or without --shard. */
    if (!o->output)
        return mur_cli_usage_error("trace needs -o OUT.csv or -o OUT.h5 (%s)",
                                   "with --shard, -o names the shard files' folder, name and format");
    const char *ext = strrchr(o->output, '.');
    if (!ext || strchr(ext, '/') ||
        (strcmp(ext, ".csv") && strcmp(ext, ".h5") && strcmp(ext, ".hdf5") && strcmp(ext, ".h5md")))
        return mur_cli_usage_error("trace output must end in .csv or .h5, not '%s'", o->output);
    int rc = o->shard_text ? MUR_OK : mur_cli_output_ready(o->output, &err);   /* before the first tick */
    if (rc || (rc = mur_cli_load_scene(o->scene, NULL, &s, &err)) || (rc = mur_cli_not_sequence(s, &err)))
        goto done;
    mur_trace_opts t = MUR_TRACE_OPTS_INIT;
    t.path = o->output;
    t.condition = o->condition;
    t.float32 = o->float32;
    t.threads = o->threads;
    t.stop = o->stop;
    if (range_options(o, s, &t) || run_options(o, s, &t)) {
        mur_scene_destroy(s);
        return 2;
    }
    if (o->shard_text) {
        rc = trace_shard(o, s, &t, &err);
        goto done;
    }
    long last = t.last >= 0 ? t.last : mur_scene_frame_tick(s, mur_scene_frames(s) - 1);
    long total = last >= t.first ? ((last - t.first) / t.every + 1) * t.runs : 0;
    mur_progress bar;
    mur_progress_start(&bar, "ticks", total, o->quiet);
    t.progress = on_progress;
    t.progress_ctx = &bar;
    rc = mur_trace_write(s, &t, &err);
    mur_progress_end(&bar, rc ? 0 : total);
    if (!rc && !o->quiet)
        rc = say_written(s, &t, total / t.runs, &err);
done:
    mur_scene_destroy(s);
    return mur_cli_report(rc, &err);
}
