/* Traces (murmur/trace.h): the session's loop. One flock per run is
 * stepped through the scene's timeline by mur_driver, exactly as a
 * render's panel or an experiment's run, and every recorded tick is handed
 * as a frame of state to a trace writer (murmur/trace_writer.h: CSV or
 * H5MD), which knows no scene. Nothing is kept between ticks but the flock,
 * so memory does not grow with the number of ticks. Shards of a trace and
 * their merge are here too: they run the trace, then keep its bytes. */
#include "murmur/trace.h"
#include "murmur/limits.h"
#include "murmur/alloc.h"

#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "murmur/file.h"
#include "murmur/metrics.h"
#include "murmur/version.h"
#include "murmur/rng.h"
#include "murmur/shard.h"

/* One run of a trace: its condition, index (-1: the scene's seed) and seed. */
typedef struct {
    const char *condition;
    int run;
    uint64_t seed;
    int index;               /* the condition's index, -1: the scene's own settings */
} trace_run;

/* The condition's index, -1 for the scene's own settings; MUR_EINPUT
 * naming the conditions there are when o->condition is not one. */
static int find_condition(const mur_scene *s, const char *name, int *out, mur_error *err)
{
    *out = -1;
    if (!name)
        return MUR_OK;
    for (int c = 0; c < s->nconditions; c++)
        if (!strcmp(s->conditions[c].name, name)) {
            *out = c;
            return MUR_OK;
        }
    char list[512] = "";
    for (int c = 0; c < s->nconditions; c++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", c ? ", " : "",
                 s->conditions[c].name);
    return mur_error_set(err, MUR_EINPUT, "no condition '%s' in %s (it has: %s)", name, s->path,
                         list);
}

static int check_opts(const mur_scene *s, const mur_trace_opts *o, long last, int cond, mur_error *err)
{
    if (!MUR_VERSION_OK(o->version, 1, MUR_TRACE_OPTS_VERSION))
        return mur_error_set(err, MUR_EINPUT, "trace options of version %u (this murmur takes %d)",
                             o->version, MUR_TRACE_OPTS_VERSION);
    if (!o->path || mur_trace_format_of(o->path) < 0)
        return mur_error_set(err, MUR_EINPUT, "a trace is written as .csv or .h5, not '%s'",
                             o->path ? o->path : "");
    if (o->runs < 1 || o->runs > MUR_MAX_RUNS || o->run < -1 || (o->runs > 1 && o->run < 0))
        return mur_error_set(err, MUR_EINPUT, "runs %d from run %d: out of range", o->runs, o->run);
    if (o->run >= 0 && (long)o->run + o->runs > (long)s->runs && o->runs == 1)
        return mur_error_set(err, MUR_EINPUT, "run %d is out of range: %s has runs 0 to %d",
                             o->run, s->path, s->runs - 1);
    if (o->every < 1)
        return mur_error_set(err, MUR_EINPUT, "every %ld ticks: must be at least 1", o->every);
    if (o->version >= 2 && (o->shard || o->shards) &&
        (o->shards < 1 || o->shards > MUR_SHARD_MAX || o->shard < 1 || o->shard > o->shards))
        return mur_error_set(err, MUR_EINPUT, "shard %d of %d: a shard is 1 to N", o->shard, o->shards);
    if (o->first < 0 || last < o->first)
        return mur_error_set(err, MUR_EINPUT, "the ticks %ld to %ld are an empty range", o->first,
                             last);
    const mur_recording *rec = mur_scene_replay_of(s, cond);
    if (rec && mur_trace_format_of(o->path) != MUR_TRACE_CSV) {
        /* an .h5 has a row per id: ids as large as a tracker's would make
         * it mostly NaN (or too large to hold) */
        mur_recording_info in;
        mur_recording_describe(rec, &in);
        if (in.max_id >= 4 * (in.max_boids > 1024 ? in.max_boids : 1024))
            return mur_error_set(err, MUR_EINPUT,
                                 "%s: the replay's ids go up to %d for at most %d boids: an .h5 trace "
                                 "has a row per id; trace it to .csv, which keeps the ids as they are",
                                 s->path, in.max_id, in.max_boids);
    }
    return MUR_OK;
}

/* ---- the loop ------------------------------------------------------------ */

typedef struct {
    const mur_scene *s;
    const mur_trace_opts *o;
    long last, done, total;
    int format;                /* MUR_TRACE_CSV or MUR_TRACE_H5 */
    mur_trace_writer *w;       /* the file being written */
    int metrics[MUR_METRIC_COUNT]; /* .h5: the metric of each observable */
    const char *names[MUR_METRIC_COUNT];
    int nmetrics;
} tracer;

/* The observables of an .h5: the readout's metrics (every readout
 * overlay's, each once), else the default set. */
static void choose_metrics(tracer *t)
{
    const mur_look *look = mur_scene_look(t->s);
    int seen[MUR_METRIC_COUNT] = {0};
    for (int i = 0; i < look->noverlays; i++) {
        const mur_overlay *ov = &look->overlays[i];
        for (int j = 0; ov->kind == MUR_OVERLAY_READOUT && j < ov->nmetrics; j++)
            if (ov->metrics[j] >= 0 && ov->metrics[j] < MUR_METRIC_COUNT && !seen[ov->metrics[j]]++)
                t->metrics[t->nmetrics++] = ov->metrics[j];
    }
    unsigned all = t->nmetrics ? 0 : mur_metrics_default_mask();
    for (int k = 0; k < MUR_METRIC_COUNT; k++)
        if (all >> k & 1)
            t->metrics[t->nmetrics++] = k;
    for (int k = 0; k < t->nmetrics; k++)
        t->names[k] = mur_metric_name(t->metrics[k]);
}

/* The observables' values of flock f into v (only those metrics: at a
 * million boids the rest cost seconds). */
static int observe(const tracer *t, mur_metrics_ctx *mc, const mur_flock *f, long tick, double *v, mur_error *err)
{
    mur_metrics m;
    unsigned want = 0;
    for (int k = 0; k < t->nmetrics; k++)
        want |= 1u << t->metrics[k];
    int rc = mur_metrics_compute_some(mc, f, want, &m);
    if (rc)
        return rc == MUR_EINTR ? mur_error_set(err, MUR_EINTR, "stopped at tick %ld", tick)
                               : mur_error_set(err, MUR_ERUN, "out of memory computing metrics");
    for (int k = 0; k < t->nmetrics; k++)
        v[k] = mur_metrics_value(&m, t->metrics[k]);
    return MUR_OK;
}

/* Flock f at tick as a frame of state (values: its observables). */
static mur_trace_frame frame_of(const mur_flock *f, long tick, double time, const double *values)
{
    mur_trace_frame fr = {tick, time, mur_flock_count(f), mur_flock_x(f), mur_flock_y(f),
                          mur_flock_vx(f), mur_flock_vy(f), mur_flock_ids(f), values, mur_flock_tick(f), {0},
                          mur_flock_z(f), mur_flock_vz(f)};
    mur_flock_stream(f, fr.stream);
    return fr;
}

/* Step run r from tick 0 and record its ticks first, first + every, ... */
static int trace_one(tracer *t, const mur_params *base, const trace_run *r, mur_error *err)
{
    const mur_trace_opts *o = t->o;
    mur_flock *f = NULL;
    mur_metrics_ctx *mc = NULL;
    mur_driver *d = NULL;
    int rc = mur_flock_create(&f, base, r->seed, err);
    if (rc || (rc = mur_flock_set_threads(f, o->threads, err)) || (rc = mur_driver_create(&d, err)))
        goto fail;
    mur_driver_set_stop(d, o->stop);
    mur_driver_set_replay(d, mur_scene_replay_of(t->s, r->index));
    mur_flock_set_stop(f, o->stop);
    if (t->nmetrics && !(mc = mur_metrics_ctx_create())) {
        rc = mur_error_set(err, MUR_ERUN, "out of memory");
        goto fail;
    }
    if (mc) {   /* the observables measure as the scene's experiment does */
        mur_metrics_ctx_set_radius(mc, t->s->measure.radius);
        mur_metrics_ctx_set_correlation(mc, t->s->measure.correlation_bin, t->s->measure.correlation_range);
        mur_metrics_ctx_set_stop(mc, o->stop);
    }
    if ((rc = mur_driver_start(d, t->s, f, base, err)))
        goto fail;
    for (long tick = o->first; tick <= t->last; tick += o->every) {
        double values[MUR_METRIC_COUNT];
        if (o->stop && *o->stop) {
            rc = mur_error_set(err, MUR_EINTR, "stopped at tick %ld", tick);
            goto fail;
        }
        if ((rc = mur_driver_run_to(d, tick, err)) || (mc && (rc = observe(t, mc, f, tick, values, err))))
            goto fail;
        mur_trace_frame fr = frame_of(f, tick, tick / t->s->tps, mc ? values : NULL);
        if ((rc = mur_trace_writer_frame(t->w, &fr, err)))
            goto fail;
        t->done++;
        if (o->progress)
            o->progress(o->progress_ctx, t->done, t->total);
    }
fail:
    mur_metrics_ctx_destroy(mc);
    mur_driver_destroy(d);
    mur_flock_destroy(f);
    return rc;
}

/* A CSV trace's provenance beside it, PATH.provenance.txt, as every CSV
 * murmur writes has: the CSV stays a table any reader loads unchanged. */
static int csv_provenance(const mur_scene *s, const mur_trace_opts *o, long last, mur_error *err)
{
    char request[200], *text = NULL, *path = mur_malloc(strlen(o->path) + sizeof ".provenance.txt");
    snprintf(request, sizeof request, "trace: ticks %ld to %ld, every %ld; condition %s; runs %d from %d",
             o->first, last, o->every, o->condition ? o->condition : "scene", o->runs, o->run);
    int rc = path ? mur_scene_provenance(s, s->seed, request, &text, err)
                  : mur_error_set(err, MUR_ERUN, "out of memory");
    if (!rc)
        rc = mur_file_write_text(strcat(strcpy(path, o->path), ".provenance.txt"), text, err);
    mur_free(text);
    mur_free(path);
    return rc;
}

/* What a trace file of run r says about itself (.h5: every field;
 * provenance is set by the caller). */
static mur_trace_meta meta_of(const tracer *t, const mur_params *base, const trace_run *r)
{
    const mur_scene *s = t->s;
    int three = base->dimensions == 3;
    mur_trace_meta m = {MUR_TRACE_META_VERSION, t->format, r->condition, r->run, r->seed, three ? 3 : 2,
                        {base->width, base->height, three ? base->depth : 0}, base->boundary == MUR_BOUNDARY_WRAP,
                        (int)mur_scene_max_count(s, base), t->o->float32, t->names, t->nmetrics,
                        s->path, s->seed, s->tps, t->o->first, t->last, t->o->every, NULL};
    const mur_recording *rec = mur_scene_replay_of(s, r->index);
    if (rec) {   /* a row per id */
        mur_recording_info in;
        mur_recording_describe(rec, &in);
        m.rows = in.max_id + 1;
    }
    return m;
}

/* An HDF5 run: a file of its own, its provenance inside, written atomically. */
static int trace_h5_run(tracer *t, const mur_params *base, const trace_run *r, int k, mur_error *err)
{
    const mur_trace_opts *o = t->o;
    char *path = mur_trace_path(o->path, o->runs, k), request[160], *text = NULL;
    mur_trace_meta m = meta_of(t, base, r);
    snprintf(request, sizeof request, "trace: ticks %ld to %ld, every %ld; condition %s, run %d",
             o->first, t->last, o->every, r->condition, r->run);
    mur_atomic a;
    memset(&a, 0, sizeof a);
    int rc = path ? mur_scene_provenance(t->s, r->seed, request, &text, err)
                  : mur_error_set(err, MUR_ERUN, "out of memory");
    m.provenance = text;
    if (!rc && !(rc = mur_atomic_begin(&a, path, 0, err)) &&
        !(rc = mur_trace_writer_open(&t->w, a.tmp, path, &m, err))) {
        rc = trace_one(t, base, r, err);
        int rc2 = mur_trace_writer_close(t->w, rc ? NULL : err);
        t->w = NULL;
        rc = rc ? rc : rc2;
    }
    if (!rc)
        rc = mur_atomic_commit(&a, err);
    else
        mur_atomic_abort(&a);
    mur_free(text);
    mur_free(path);
    return rc;
}

/* Run k of the trace to its file: a CSV run goes on in t->w; an HDF5
 * run is a file of its own. */
static int trace_run_k(tracer *t, const mur_params *base, const trace_run *r, int k, mur_error *err)
{
    if (t->format == MUR_TRACE_H5)
        return trace_h5_run(t, base, r, k, err);
    mur_trace_meta m = meta_of(t, base, r);
    int rc = mur_trace_writer_run(t->w, &m, err);
    return rc ? rc : trace_one(t, base, r, err);
}

void mur_trace_opts_init(mur_trace_opts *out) { *out = (mur_trace_opts)MUR_TRACE_OPTS_INIT; }

/* The CSV's one file, begun atomically (its rows follow, run by run). */
static int csv_begin(tracer *t, const mur_params *base, mur_atomic *a, mur_error *err)
{
    trace_run r0 = {"scene", t->o->run, t->s->seed, -1};
    mur_trace_meta m = meta_of(t, base, &r0);
    int rc = mur_atomic_begin(a, t->o->path, 0, err);
    if (!rc && (rc = mur_trace_writer_open(&t->w, a->tmp, t->o->path, &m, err)))
        mur_atomic_abort(a);
    return rc;
}

int mur_trace_write(const mur_scene *s, const mur_trace_opts *o, mur_error *err)
{
    long last = o->last >= 0 ? o->last : mur_scene_frame_tick(s, mur_scene_frames(s) - 1);
    int c, rc = find_condition(s, o->condition, &c, err);
    if (rc || (rc = check_opts(s, o, last, c, err)))
        return rc;
    mur_params base = s->params;
    if (c >= 0)
        mur_scene_apply(s->conditions[c].set, s->conditions[c].nset, &base);
    tracer t = {s, o, last, 0, ((last - o->first) / o->every + 1) * o->runs, mur_trace_format_of(o->path), NULL,
                {0}, {NULL}, 0};
    mur_atomic a;
    memset(&a, 0, sizeof a);
    if (t.format == MUR_TRACE_H5)
        choose_metrics(&t);
    else if ((rc = csv_begin(&t, &base, &a, err)))
        return rc;
    int sharded = o->version >= 2 && o->shards > 0;
    for (int k = 0; !rc && k < o->runs; k++) {
        if (sharded && k % o->shards != o->shard - 1)
            continue;
        int run = o->run < 0 ? -1 : o->run + k;
        trace_run r = {c >= 0 ? s->conditions[c].name : "scene", run,
                       run < 0 ? s->seed : mur_rng_derive(s->seed, (uint64_t)run), c};
        rc = trace_run_k(&t, &base, &r, k, err);
    }
    if (t.format == MUR_TRACE_CSV) {
        int rc2 = mur_trace_writer_close(t.w, rc ? NULL : err);
        rc = rc ? rc : rc2;
        if (rc)
            mur_atomic_abort(&a);
        else if (!(rc = mur_atomic_commit(&a, err)) && !sharded)
            rc = csv_provenance(s, o, last, err);
    }
    return rc;
}

/* ---- shards (murmur/shard.h) ------------------------------------------------ */

/* What shapes a trace, as a shard's header keeps it. */
static void trace_shape(char *buf, size_t n, const mur_scene *s, const mur_trace_opts *o)
{
    long last = o->last >= 0 ? o->last : mur_scene_frame_tick(s, mur_scene_frames(s) - 1);
    snprintf(buf, n, "%s ticks %ld to %ld every %ld from run %d float32 %d",
             mur_trace_format_of(o->path) == MUR_TRACE_CSV ? "csv" : "h5", o->first, last, o->every, o->run, o->float32);
}

/* A trace shard's header: scene, seed, shape, shard. */
static int trace_info(mur_shard_info *in, const mur_scene *s, const mur_trace_opts *o, long jobs, mur_error *err)
{
    memset(in, 0, sizeof *in);
    snprintf(in->command, sizeof in->command, "trace");
    snprintf(in->version, sizeof in->version, "%s", MUR_VERSION_STRING);
    int rc = mur_shard_hash_file(s->path, &in->scene_hash, err);
    if (rc)
        return rc;
    in->scene = (char *)s->path;   /* borrowed: not freed here */
    in->condition = (char *)o->condition;
    in->seed = s->seed;
    in->shard = o->shard;
    in->shards = o->shards;
    in->runs = o->runs;
    in->jobs = jobs;
    trace_shape(in->trace, sizeof in->trace, s, o);
    return MUR_OK;
}

int mur_trace_shard_done(const mur_scene *s, const mur_trace_opts *o, const char *shard_path)
{
    mur_shard_info want, have;
    mur_error err = {{0}};
    if (trace_info(&want, s, o, 0, &err) || mur_shard_read_info(shard_path, &have, &err))
        return 0;
    int done = mur_shard_same(&want, &have);
    mur_shard_info_free(&have);
    return done;
}

/* A file mapped read-only (len 0: an empty file, *out NULL). */
static int map_whole(const char *path, const unsigned char **out, size_t *len, mur_error *err)
{
    FILE *fp = fopen(path, "rb");
    struct stat st;
    *out = NULL;
    *len = 0;
    if (!fp || fstat(fileno(fp), &st) != 0) {
        if (fp)
            fclose(fp);
        return mur_error_set(err, MUR_ERUN, "cannot read '%s': %s", path, strerror(errno));
    }
    void *p = st.st_size ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fileno(fp), 0) : NULL;
    fclose(fp);
    if (p == MAP_FAILED)
        return mur_error_set(err, MUR_ERUN, "cannot read '%s': %s", path, strerror(errno));
    *out = p;
    *len = (size_t)st.st_size;
    return MUR_OK;
}

/* The folder of path ("." when none) into buf. */
static void folder_of(char *buf, size_t n, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(buf, n, "%.*s", (int)(slash - path), path);
    else
        snprintf(buf, n, ".");
    if (!buf[0])
        snprintf(buf, n, "/");
}

int mur_trace_shard_write(const mur_scene *s, const mur_trace_opts *o, const char *shard_path, mur_error *err)
{
    if (o->version < 2 || o->shards < 1)
        return mur_error_set(err, MUR_EINPUT, "a trace shard needs a shard of a count (version 2 options)");
    int csv = mur_trace_format_of(o->path) == MUR_TRACE_CSV;
    long jobs = mur_shard_jobs(o->runs, o->shard, o->shards);
    char dir[4096], tmpl[4200], tpath[4300];
    folder_of(dir, sizeof dir, shard_path);
    snprintf(tmpl, sizeof tmpl, "%s/.murmur-trace-shard.XXXXXX", dir);
    if (!mkdtemp(tmpl))
        return mur_error_set(err, MUR_ERUN, "cannot write in '%s': %s", dir, strerror(errno));
    snprintf(tpath, sizeof tpath, "%s/trace%s", tmpl, csv ? ".csv" : ".h5");
    mur_trace_opts t = *o;
    t.path = tpath;
    mur_shard_info in;
    char *prov = NULL, request[200];
    const unsigned char **maps = mur_calloc((size_t)jobs + 1, sizeof *maps);
    size_t *maplen = mur_calloc((size_t)jobs + 1, sizeof *maplen), *len = mur_calloc((size_t)jobs + 1, sizeof *len);
    const void **data = mur_calloc((size_t)jobs + 1, sizeof *data);
    uint64_t *index = mur_calloc((size_t)jobs + 1, sizeof *index);
    int rc = maps && maplen && len && data && index ? MUR_OK : mur_error_set(err, MUR_ERUN, "out of memory");
    if (!rc && jobs > 0)
        rc = mur_trace_write(s, &t, err);
    if (!rc)
        rc = trace_info(&in, s, o, jobs, err);
    for (long j = 0; !rc && j < jobs; j++) {   /* each run of the shard: a record */
        int k = (int)(j * o->shards + o->shard - 1);
        index[j] = (uint64_t)k;
        if (!csv) {
            char *p = mur_trace_path(tpath, o->runs, k);
            rc = p ? map_whole(p, &maps[j], &maplen[j], err) : mur_error_set(err, MUR_ERUN, "out of memory");
            data[j] = maps[j];
            len[j] = maplen[j];
            if (p)
                unlink(p);
            mur_free(p);
        }
    }
    if (!rc && csv && jobs > 0 && !(rc = map_whole(tpath, &maps[0], &maplen[0], err))) {
        /* the shard's CSV holds its runs in order: cut it at each run's rows */
        const char *p = memchr(maps[0], '\n', maplen[0]), *end = (const char *)maps[0] + maplen[0];
        p = p ? p + 1 : end;
        for (long j = 0; j < jobs; j++) {
            int k = (int)index[j], run = o->run < 0 ? -1 : o->run + k;
            char prefix[24];
            size_t pl = (size_t)snprintf(prefix, sizeof prefix, "%d,", run);
            const char *q = p;
            while (q < end && (size_t)(end - q) >= pl && !memcmp(q, prefix, pl)) {
                const char *nl = memchr(q, '\n', (size_t)(end - q));
                q = nl ? nl + 1 : end;
            }
            data[j] = p;
            len[j] = (size_t)(q - p);
            p = q;
        }
        if (p != end)
            rc = mur_error_set(err, MUR_ERUN, "a trace shard's rows are not in run order");
    }
    for (long j = 0; j < jobs; j++) {   /* what a failed or stopped trace left in the folder */
        char *p = mur_trace_path(tpath, o->runs, (int)(j * o->shards + o->shard - 1));
        if (p)
            unlink(p);
        mur_free(p);
    }
    unlink(tpath);
    if (!rc) {
        long last = o->last >= 0 ? o->last : mur_scene_frame_tick(s, mur_scene_frames(s) - 1);
        snprintf(request, sizeof request, "trace: ticks %ld to %ld, every %ld; condition %s; runs %d from %d; shard %d of %d",
                 o->first, last, o->every, o->condition ? o->condition : "scene", o->runs, o->run, o->shard, o->shards);
        if (!(rc = mur_scene_provenance(s, s->seed, request, &prov, err)))
            rc = mur_shard_write(shard_path, &in, prov, index, data, len, err);
    }
    for (long j = 0; maps && maplen && j <= jobs; j++)
        if (maps[j])
            munmap((void *)maps[j], maplen[j]);
    rmdir(tmpl);
    mur_free(prov);
    mur_free(maps);
    mur_free(maplen);
    mur_free(len);
    mur_free(data);
    mur_free(index);
    return rc;
}

/* Writes path atomically: head (NULL: none), then the records of runs
 * 0..runs-1 in order (k_only >= 0: run k_only alone), run k being record
 * k / shards of shard k mod shards + 1. */
static int write_bytes(const char *path, const char *head, const mur_shard_file *const *set, int shards, int runs,
                       int k_only, mur_error *err)
{
    mur_atomic a;
    memset(&a, 0, sizeof a);
    FILE *fp = NULL;
    int rc = mur_atomic_begin(&a, path, 0, err);
    if (!rc && !(fp = mur_atomic_fopen(&a, "wb", err)))
        rc = MUR_ERUN;
    if (!rc && head)
        fputs(head, fp);
    for (int k = k_only >= 0 ? k_only : 0; !rc && k < (k_only >= 0 ? k_only + 1 : runs); k++) {
        uint64_t job;
        size_t len;
        const void *p = mur_shard_file_record(set[k % shards + 1], k / shards, &job, &len);
        if (len && fwrite(p, 1, len, fp) != len)
            a.error = errno;
    }
    if (!rc)
        rc = mur_atomic_commit(&a, err);
    else
        mur_atomic_abort(&a);
    return rc;
}

int mur_trace_merge(const mur_scene *s, const char *const *paths, int n, const char *path, mur_error *err)
{
    mur_shard_info in;
    mur_shard_file **set = NULL;
    int rc = n < 1 ? mur_error_set(err, MUR_EINPUT, "no shard to merge") : mur_shard_read_info(paths[0], &in, err);
    if (rc)
        return rc;
    mur_trace_opts o = MUR_TRACE_OPTS_INIT;
    char fmt[8] = "";
    long last = 0;
    o.path = path;
    o.runs = in.runs;
    o.condition = in.condition;
    if (strcmp(in.command, "trace") ||
        sscanf(in.trace, "%7s ticks %ld to %ld every %ld from run %d float32 %d", fmt, &o.first, &last, &o.every, &o.run,
               &o.float32) != 6)
        rc = mur_error_set(err, MUR_EINPUT, "%s: a shard of %s, not of a trace", paths[0], in.command);
    else if (mur_trace_format_of(path) != (strcmp(fmt, "csv") ? MUR_TRACE_H5 : MUR_TRACE_CSV))
        rc = mur_error_set(err, MUR_EINPUT, "%s: shards of a .%s trace: -o must be a .%s, not '%s'", paths[0], fmt, fmt,
                           path);
    if (!rc)
        rc = mur_shard_set_open(&set, s, paths, n, in.runs, err);
    if (!rc && mur_trace_format_of(path) == MUR_TRACE_CSV) {
        if (!(rc = write_bytes(path, s->params.dimensions == 3 ? MUR_TRACE_CSV_HEADER3 : MUR_TRACE_CSV_HEADER,
                               (const mur_shard_file *const *)set,
                               in.shards, in.runs, -1, err)))
            rc = csv_provenance(s, &o, last, err);
    }
    for (int k = 0; !rc && mur_trace_format_of(path) == MUR_TRACE_H5 && k < in.runs; k++) {
        char *p = mur_trace_path(path, in.runs, k);
        rc = p ? write_bytes(p, NULL, (const mur_shard_file *const *)set, in.shards, in.runs, k, err)
               : mur_error_set(err, MUR_ERUN, "out of memory");
        mur_free(p);
    }
    mur_shard_set_close(set, in.shards);
    mur_shard_info_free(&in);
    return rc;
}
