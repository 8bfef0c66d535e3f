/* Ensembles: conditions x runs of one scene, for `murmur stats` and
 * `murmur series`.
 *
 * Each (condition, run) is one job; worker threads take the next job from a
 * shared counter, so a slow condition (clusters that never settle) does not
 * leave a thread idle the way a fixed split of the jobs would. A job writes
 * only its own slots of the result array, and its numbers depend on
 * (scene, condition, run) alone, so any thread count gives the same bytes.
 * The calling thread only waits, reports progress and watches for a stop. */
#include "murmur/experiment.h"
#include "murmur/limits.h"
#include "murmur/alloc.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "murmur/rng.h"
#include "murmur/shard.h"
#include "experiment_internal.h"

/* ---- experiments --------------------------------------------------------- */


/* What the workers share. Everything but the atomics is under lock. */
typedef struct {
    mur_experiment *e;
    volatile sig_atomic_t *stop;
    pthread_mutex_t lock;
    pthread_cond_t changed;    /* a job finished or a worker left */
    long next, njobs, done;    /* jobs of this shard: job = index * shards + shard - 1 */
    int shard, shards;         /* 1-based shard of shards (1 of 1: every job) */
    int live;                  /* workers still running */
    long failed_job;           /* lowest failing job, njobs when none */
    int rc;
    mur_error err;
    atomic_int quit;           /* a failure or a stop: workers finish early */
} shared;

static int stopped(shared *sh)
{
    return atomic_load_explicit(&sh->quit, memory_order_relaxed) || (sh->stop && *sh->stop);
}

unsigned mur_experiment_metrics_kept(const mur_experiment *e)
{
    const mur_scene *s = e->scene;
    unsigned want = mur_metrics_default_mask();
    for (int i = 0; i < s->nmetrics; i++)
        want |= 1u << s->metrics[i];
    for (int i = 0; i < s->nuntil; i++)
        want |= 1u << s->until[i].metric;
    return want;
}

/* The metrics e keeps of f into *out: 0, MUR_EINTR (stopped) or MUR_ERUN. */
static int measure(const mur_experiment *e, mur_metrics_ctx *mc, const mur_flock *f, mur_metrics *out,
                   mur_error *err)
{
    int rc = mur_metrics_compute_some(mc, f, mur_experiment_metrics_kept(e), out);
    return rc == MUR_ERUN ? mur_error_set(err, MUR_ERUN, "out of memory computing metrics") : rc;
}

/* A tick of a twin run: the divergence and the twin's order. */
static void twin_record(const mur_twin *t, const mur_flock *f, mur_twin_record *out)
{
    mur_twin_measure(t, f, &out->divergence);
    out->twin_order = mur_metrics_order_of(t->flock);
}

/* A twin run's result, from its RMS divergence series. */
static int twin_result(mur_experiment *e, long job, const mur_twin_record *tw, mur_error *err)
{
    long n = e->ticks + 1;
    double *rms = mur_malloc((size_t)n * sizeof *rms);
    if (!rms)
        return mur_error_set(err, MUR_ERUN, "out of memory for a divergence series of %ld ticks", n);
    for (long t = 0; t < n; t++)
        rms[t] = tw[t].divergence.rms;
    mur_twin_result_compute(rms, n, &e->twr[job]);
    mur_free(rms);
    return MUR_OK;
}

/* Whether v meets u's comparison (NaN never does). */
static int until_met(const mur_until *u, double v)
{
    switch (u->op) {
    case MUR_UNTIL_GT: return v > u->value;
    case MUR_UNTIL_GE: return v >= u->value;
    case MUR_UNTIL_LT: return v < u->value;
    default: return v <= u->value;
    }
}

/* The caller's statistics of job `job`'s flock, added to its slots (a
 * window's samples are summed in tick order; run_job divides). */
static int observe_extra(mur_experiment *e, const mur_flock *f, long job, mur_error *err)
{
    double v[MUR_EXPERIMENT_MAX_EXTRA] = {0};
    int c = (int)(job / e->runs), r = (int)(job % e->runs);
    if (e->extra_fn(e->extra_ctx, f, c, r, v))
        return mur_error_set(err, MUR_ERUN, "the caller's statistic failed in run %d of condition %s", r,
                             mur_experiment_condition_name(e, c));
    for (int j = 0; j < e->nextra; j++)
        e->extra[job * e->nextra + j] += v[j];
    return MUR_OK;
}

/* Job `job` at tick t: keeps the metrics a series keeps (every tick) or a
 * summary does (the last tick's), adds a sample of the measure window to
 * the job's means, and records the first tick each `until` holds. Metrics
 * are computed only at the ticks that need them. */
static int observe(mur_experiment *e, mur_metrics_ctx *mc, const mur_flock *f, long job, long t, mur_error *err)
{
    const mur_scene *s = e->scene;
    const long T = e->ticks, window = s->measure.window;
    int sample = window && t > T - window && (T - t) % s->measure.every == 0;
    double *until = e->until ? e->until + job * s->nuntil : NULL;
    int pending = 0;
    for (int i = 0; until && i < s->nuntil; i++)
        pending |= isinf(until[i]);
    if (!e->every_tick && t < T && !sample && !pending)
        return MUR_OK;
    mur_metrics *m = e->m + job * e->stride + (e->every_tick ? t : 0);
    int rc = measure(e, mc, f, m, err);
    if (rc)
        return rc;
    for (int k = 0; sample && k < MUR_METRIC_COUNT; k++)   /* summed in tick order; run_job divides */
        e->window[job * MUR_METRIC_COUNT + k] += mur_metrics_value(m, k);
    if (e->nextra && (window ? sample : t == T) && (rc = observe_extra(e, f, job, err)))
        return rc;
    for (int i = 0; until && i < s->nuntil; i++)
        if (isinf(until[i]) && until_met(&s->until[i], mur_metrics_value(m, s->until[i].metric)))
            until[i] = (double)t;
    return MUR_OK;
}

/* One run: condition c, run r, from tick 0 to e->ticks through the
 * timeline. Leaves the recorded metrics in their slots. */
static int run_job(shared *sh, long job, mur_metrics_ctx *mc, mur_error *err)
{
    mur_experiment *e = sh->e;
    const mur_scene *s = e->scene;
    int c = (int)(job / e->runs), r = (int)(job % e->runs);
    mur_params base = s->params;
    if (!e->scene_only)
        mur_scene_apply(s->conditions[e->first + c].set, s->conditions[e->first + c].nset, &base);
    mur_flock *f = NULL;
    mur_driver *d = NULL;
    mur_twin twin = {0};
    mur_twin_record *tw = e->tw ? e->tw + job * (e->ticks + 1) : NULL;
    uint64_t seed = mur_rng_derive(s->seed, (uint64_t)r);
    int rc = mur_flock_create(&f, &base, seed, err);
    if (rc || (rc = mur_driver_create(&d, err)))
        goto fail;
    mur_flock_set_stop(f, sh->stop);
    mur_driver_set_stop(d, sh->stop);   /* the warm-up and each tick answer a stop too */
    mur_driver_set_replay(d, mur_scene_replay_of(s, e->scene_only ? -1 : e->first + c));
    if ((rc = mur_driver_start(d, s, f, &base, err)))
        goto fail;
    if (tw && (rc = mur_twin_start(&twin, s, &base, seed, 1, sh->stop, err)))
        goto fail;
    for (long t = 0; t <= e->ticks; t++) {
        if (t > 0 && stopped(sh)) {
            rc = MUR_EINTR;
            goto fail;
        }
        if (t > 0 && ((rc = mur_driver_run_to(d, t, err)) || (tw && (rc = mur_twin_run_to(&twin, t, err)))))
            goto fail;
        if ((rc = observe(e, mc, f, job, t, err)))
            goto fail;
        if (tw)
            twin_record(&twin, f, &tw[t]);
    }
    for (int k = 0; e->window && k < MUR_METRIC_COUNT; k++)
        e->window[job * MUR_METRIC_COUNT + k] /= (double)e->samples;
    for (int j = 0; e->window && j < e->nextra; j++)
        e->extra[job * e->nextra + j] /= (double)e->samples;
    if (!rc && tw)
        rc = twin_result(e, job, tw, err);
fail:
    mur_twin_free(&twin);
    mur_driver_destroy(d);
    mur_flock_destroy(f);
    return rc;
}

static void *worker(void *arg)
{
    shared *sh = arg;
    mur_metrics_ctx *mc = mur_metrics_ctx_create();
    mur_error err = {{0}};
    if (mc) {
        mur_metrics_ctx_set_stop(mc, sh->stop);
        mur_metrics_ctx_set_radius(mc, sh->e->scene->measure.radius);
        mur_metrics_ctx_set_correlation(mc, sh->e->scene->measure.correlation_bin,
                                        sh->e->scene->measure.correlation_range);
    }
    pthread_mutex_lock(&sh->lock);
    if (!mc) {
        sh->failed_job = -1;
        sh->rc = mur_error_set(&sh->err, MUR_ERUN, "out of memory for metrics scratch");
        atomic_store(&sh->quit, 1);
    }
    while (mc && sh->next < sh->njobs && !stopped(sh)) {
        long index = sh->next++, job = index * sh->shards + sh->shard - 1;
        pthread_mutex_unlock(&sh->lock);
        int rc = run_job(sh, job, mc, &err);
        pthread_mutex_lock(&sh->lock);
        if (rc == MUR_OK) {
            sh->done++;
        } else if (rc != MUR_EINTR && index < sh->failed_job) {
            /* The lowest failing job reports, so the message does not
             * depend on which thread got there first. */
            sh->failed_job = index;
            sh->rc = rc;
            sh->err = err;
            atomic_store(&sh->quit, 1);
        }
        pthread_cond_signal(&sh->changed);
    }
    sh->live--;
    pthread_cond_signal(&sh->changed);
    pthread_mutex_unlock(&sh->lock);
    mur_metrics_ctx_destroy(mc);
    return NULL;
}

static int cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (n > 256 ? 256 : (int)n);
}

/* Start the workers and wait for them, reporting progress as jobs finish
 * and polling for a stop (a signal handler cannot signal a condition
 * variable, hence the timed wait). */
static int run_all(mur_experiment *e, const mur_experiment_def *def, int shard, int shards, mur_error *err)
{
    shared sh;
    memset(&sh, 0, sizeof sh);
    sh.e = e;
    sh.stop = def->stop;
    sh.shard = shard;
    sh.shards = shards;
    sh.njobs = mur_shard_jobs((long)e->nconditions * e->runs, shard, shards);
    if (sh.njobs == 0)   /* a shard with no job (more shards than jobs): nothing to run */
        return MUR_OK;
    sh.failed_job = sh.njobs;
    atomic_init(&sh.quit, 0);
    pthread_mutex_init(&sh.lock, NULL);
    pthread_cond_init(&sh.changed, NULL);
    int threads = def->threads > 0 ? def->threads : cpu_count();
    if (threads > sh.njobs)
        threads = (int)sh.njobs;
    pthread_t tid[256];
    int started = 0, rc = MUR_OK;
    pthread_mutex_lock(&sh.lock);
    for (; started < threads; started++) {
        if (pthread_create(&tid[started], NULL, worker, &sh) != 0)
            break;
        sh.live++;
    }
    if (started == 0) {
        atomic_store(&sh.quit, 1);
        rc = mur_error_set(err, MUR_ERUN, "cannot start a worker thread");
    }
    long reported = -1;
    while (sh.live > 0) {
        if (def->progress && sh.done != reported) {
            reported = sh.done;
            long done = sh.done;
            pthread_mutex_unlock(&sh.lock);
            def->progress(def->progress_ctx, done, sh.njobs);
            pthread_mutex_lock(&sh.lock);
            continue;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&sh.changed, &sh.lock, &until);
    }
    pthread_mutex_unlock(&sh.lock);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    if (!rc && def->progress && sh.done != reported)
        def->progress(def->progress_ctx, sh.done, sh.njobs);
    if (!rc && sh.failed_job < sh.njobs) {  /* -1: a worker could not start its scratch */
        rc = sh.rc;
        if (err)
            *err = sh.err;
    } else if (!rc && sh.done < sh.njobs) {
        rc = mur_error_set(err, MUR_EINTR, "stopped after %ld of %ld runs", sh.done, sh.njobs);
    }
    pthread_cond_destroy(&sh.changed);
    pthread_mutex_destroy(&sh.lock);
    return rc;
}

/* The loader bounds the scene's own experiment; --runs and --ticks can
 * ask for more, so the work is bounded again here (boids counted at
 * each condition's start; a timeline that grows the flock is the
 * loader's to bound). */
static int work_too_much(const mur_scene *s, int first, int nconditions, int scene_only, int runs, long ticks,
                         mur_error *err)
{
    double boids = 0;
    for (int c = first; c < first + nconditions; c++) {
        mur_params p = s->params;
        if (!scene_only)
            mur_scene_apply(s->conditions[c].set, s->conditions[c].nset, &p);
        boids += p.count;
    }
    double work = boids * runs * ((double)ticks + s->warmup);
    if (s->twin.kind != MUR_TWIN_NONE)
        work *= 2;   /* each run and its twin */
    if (work > MUR_SCENE_MAX_BOID_TICKS)
        return mur_error_set(err, MUR_EINPUT,
                             "%d runs x %.0f ticks (warm-up included) x %.0f boids (all conditions) = %.3g "
                             "boid-ticks is more than %.3g: fewer runs or ticks",
                             runs, (double)ticks + s->warmup, boids, work, MUR_SCENE_MAX_BOID_TICKS);
    return MUR_OK;
}

int mur_experiment_new(mur_experiment **out, const mur_scene *s, const mur_experiment_def *def, mur_error *err)
{
    *out = NULL;
    if (!MUR_VERSION_OK(def->version, 1, MUR_EXPERIMENT_DEF_VERSION))
        return mur_error_set(err, MUR_EINPUT, "experiment of version %u (this murmur takes %d)",
                             def->version, MUR_EXPERIMENT_DEF_VERSION);
    int runs = def->runs ? def->runs : s->runs;
    long ticks = def->ticks ? def->ticks : s->ticks;
    if (runs < 1 || runs > MUR_MAX_RUNS)
        return mur_error_set(err, MUR_EINPUT, "runs = %d is out of range [1, %d]", runs, MUR_MAX_RUNS);
    if (ticks < 1 || ticks > MUR_MAX_RUN_TICKS)
        return mur_error_set(err, MUR_EINPUT, "ticks = %ld is out of range [1, %d]", ticks, MUR_MAX_RUN_TICKS);
    if (def->threads < 0 || def->threads > 256)
        return mur_error_set(err, MUR_EINPUT, "threads = %d is out of range [0, 256]", def->threads);
    if (s->measure.window > ticks + 1)   /* --ticks shorter than the scene's window: said at its line */
        return mur_error_set(err, MUR_EINPUT,
                             "%s:%d:%d: error: the measure window (%ld ticks) is longer than the run's %ld ticks",
                             s->path, s->measure.window_line, s->measure.window_col, s->measure.window, ticks);
    int nextra = def->version >= 4 ? def->nextra : 0;
    if (nextra < 0 || nextra > MUR_EXPERIMENT_MAX_EXTRA || (nextra && !def->extra))
        return mur_error_set(err, MUR_EINPUT, "nextra = %d: 0 to %d statistics, with a function to compute them",
                             nextra, MUR_EXPERIMENT_MAX_EXTRA);
    const char *only = def->version >= 2 ? def->condition : NULL;
    int first = 0;
    if (only && (first = mur_scene_find_condition(s, only, err)) < 0)
        return MUR_EINPUT;
    int nconditions = def->scene_only || only ? 1 : s->nconditions;
    int scene_only = def->scene_only && !only;
    long stride = def->every_tick ? ticks + 1 : 1;
    /* In doubles, and checked in floating point so the product cannot
     * overflow before it is compared. */
    double values = (double)nconditions * runs * stride * (double)(sizeof(mur_metrics) / sizeof(double));
    if (s->twin.kind != MUR_TWIN_NONE)   /* a twin's record of every tick */
        values += (double)nconditions * runs * ((double)ticks + 1) * (double)(sizeof(mur_twin_record) / sizeof(double));
    if (values > (double)MUR_EXPERIMENT_MAX_VALUES)
        return mur_error_set(err, MUR_EINPUT,
                             "%d conditions x %d runs x %ld ticks is too much to keep (%.0f MiB, at most %ld): "
                             "use fewer runs or ticks",
                             nconditions, runs, stride, values * 8 / 1048576.0,
                             MUR_EXPERIMENT_MAX_VALUES * 8 / 1048576);
    if (work_too_much(s, first, nconditions, scene_only, runs, ticks, err))
        return MUR_EINPUT;
    mur_experiment *e = mur_calloc(1, sizeof *e);
    if (!e)
        return mur_error_set(err, MUR_ERUN, "out of memory");
    e->scene = s;
    e->nconditions = nconditions;
    e->scene_only = scene_only;
    e->first = first;
    e->runs = runs;
    e->ticks = ticks;
    e->every_tick = def->every_tick;
    e->stride = stride;
    size_t nm = (size_t)nconditions * (size_t)runs * (size_t)stride;
    e->m = mur_calloc(nm, sizeof *e->m);
    e->scratch = mur_calloc((size_t)runs, sizeof *e->scratch);
    int rc;
    if (s->twin.kind != MUR_TWIN_NONE) {
        e->tw = mur_calloc((size_t)nconditions * (size_t)runs * (size_t)(ticks + 1), sizeof *e->tw);
        e->twr = mur_calloc((size_t)nconditions * (size_t)runs, sizeof *e->twr);
    }
    size_t njobs = (size_t)nconditions * (size_t)runs;
    if (s->measure.window) {
        e->samples = (s->measure.window - 1) / s->measure.every + 1;
        e->window = mur_calloc(njobs * MUR_METRIC_COUNT, sizeof *e->window);
    }
    if (nextra) {
        e->nextra = nextra;
        e->extra_fn = def->extra;
        e->extra_ctx = def->extra_ctx;
        e->extra = mur_calloc(njobs * (size_t)nextra, sizeof *e->extra);
    }
    if (s->nuntil && (e->until = mur_calloc(njobs * (size_t)s->nuntil, sizeof *e->until)))
        for (size_t i = 0; i < njobs * (size_t)s->nuntil; i++)
            e->until[i] = INFINITY;
    if (!e->m || !e->scratch || (s->twin.kind != MUR_TWIN_NONE && (!e->tw || !e->twr)) ||
        (s->measure.window && !e->window) || (s->nuntil && !e->until) || (nextra && !e->extra)) {
        rc = mur_error_set(err, MUR_ERUN, "out of memory for %zu metric records", nm);
        goto fail;
    }
    *out = e;
    return MUR_OK;
fail:
    mur_experiment_destroy(e);
    return rc;
}

int mur_experiment_run(mur_experiment **out, const mur_scene *s, const mur_experiment_def *def,
                       mur_error *err)
{
    int shard = def->version >= 3 ? def->shard : 0, shards = def->version >= 3 ? def->shards : 0;
    if (shards == 0 && shard == 0)
        shard = shards = 1;
    if (shards < 1 || shard < 1 || shard > shards || shards > MUR_SHARD_MAX)
        return mur_error_set(err, MUR_EINPUT, "shard %d of %d: a shard is 1 to N, N from 1 to %d", shard,
                             shards, MUR_SHARD_MAX);
    int rc = mur_experiment_new(out, s, def, err);
    if (!rc && (rc = run_all(*out, def, shard, shards, err))) {
        mur_experiment_destroy(*out);
        *out = NULL;
    }
    return rc;
}

/* ---- a job's numbers as bytes (shard files) ------------------------------- */

size_t mur_experiment_job_bytes(const mur_experiment *e)
{
    size_t n = (size_t)e->stride * sizeof *e->m;
    if (e->tw)
        n += (size_t)(e->ticks + 1) * sizeof *e->tw + sizeof *e->twr;
    if (e->window)
        n += MUR_METRIC_COUNT * sizeof *e->window;
    if (e->until)
        n += (size_t)e->scene->nuntil * sizeof *e->until;
    n += (size_t)e->nextra * sizeof *e->extra;
    return n;
}

/* Copies n bytes between a slot and a record, one way or the other. */
static void move(unsigned char **rec, void *slot, size_t n, int unpack)
{
    if (unpack)
        memcpy(slot, *rec, n);
    else
        memcpy(*rec, slot, n);
    *rec += n;
}

/* Every slot of job `job`, in the order mur_experiment_job_bytes counts them:
 * its metrics, its twin's records and result, its window's means, its
 * times to each `until`. */
static void job_bytes(mur_experiment *e, long job, unsigned char *rec, int unpack)
{
    move(&rec, e->m + job * e->stride, (size_t)e->stride * sizeof *e->m, unpack);
    if (e->tw) {
        move(&rec, e->tw + job * (e->ticks + 1), (size_t)(e->ticks + 1) * sizeof *e->tw, unpack);
        move(&rec, e->twr + job, sizeof *e->twr, unpack);
    }
    if (e->window)
        move(&rec, e->window + job * MUR_METRIC_COUNT, MUR_METRIC_COUNT * sizeof *e->window, unpack);
    if (e->until)
        move(&rec, e->until + job * e->scene->nuntil, (size_t)e->scene->nuntil * sizeof *e->until, unpack);
    if (e->extra)
        move(&rec, e->extra + job * e->nextra, (size_t)e->nextra * sizeof *e->extra, unpack);
}

void mur_experiment_job_pack(const mur_experiment *e, long job, unsigned char *out)
{
    job_bytes((mur_experiment *)e, job, out, 0);   /* reads e only */
}

void mur_experiment_job_unpack(mur_experiment *e, long job, const unsigned char *in)
{
    job_bytes(e, job, (unsigned char *)in, 1);     /* reads in only */
}

void mur_experiment_destroy(mur_experiment *e)
{
    if (!e)
        return;
    mur_free(e->m);
    mur_free(e->scratch);
    mur_free(e->tw);
    mur_free(e->twr);
    mur_free(e->window);
    mur_free(e->until);
    mur_free(e->extra);
    mur_free(e);
}

void mur_experiment_def_init(mur_experiment_def *out) { *out = (mur_experiment_def)MUR_EXPERIMENT_DEF_INIT; }
int mur_experiment_conditions(const mur_experiment *e) { return e->nconditions; }
int mur_experiment_nextra(const mur_experiment *e) { return e->nextra; }

double mur_experiment_extra(const mur_experiment *e, int c, int r, int j)
{
    return e->extra[((long)c * e->runs + r) * e->nextra + j];
}
int mur_experiment_runs(const mur_experiment *e) { return e->runs; }

int mur_experiment_condition_runs(const mur_experiment *e, int c)
{
    return mur_scene_replay_of(e->scene, e->scene_only ? -1 : e->first + c) ? 1 : e->runs;
}
long mur_experiment_ticks(const mur_experiment *e) { return e->ticks; }
int mur_experiment_every_tick(const mur_experiment *e) { return e->every_tick; }
const mur_scene *mur_experiment_scene(const mur_experiment *e) { return e->scene; }

const char *mur_experiment_condition_name(const mur_experiment *e, int c)
{
    return e->scene_only ? "scene" : e->scene->conditions[e->first + c].name;
}

const mur_condition *mur_experiment_condition(const mur_experiment *e, int c)
{
    return e->scene_only ? NULL : &e->scene->conditions[e->first + c];
}

const mur_metrics *mur_experiment_metrics(const mur_experiment *e, int c, int r, long tick)
{
    long slot = e->every_tick ? tick : 0;
    return &e->m[((long)c * e->runs + r) * e->stride + slot];
}

const mur_twin_record *mur_experiment_twin(const mur_experiment *e, int c, int r, long tick)
{
    return e->tw ? &e->tw[((long)c * e->runs + r) * (e->ticks + 1) + tick] : NULL;
}

const mur_twin_result *mur_experiment_twin_result(const mur_experiment *e, int c, int r)
{
    return e->twr ? &e->twr[(long)c * e->runs + r] : NULL;
}

void mur_experiment_summary(const mur_experiment *e, int c, long tick, int k, mur_summary *out)
{
    int measured = !e->every_tick && tick == e->ticks;   /* a summary's own tick: measure.window applies */
    int runs = mur_experiment_condition_runs(e, c);
    for (int r = 0; r < runs; r++)
        e->scratch[r] = measured ? mur_experiment_value(e, c, r, k)
                                 : mur_metrics_value(mur_experiment_metrics(e, c, r, tick), k);
    mur_summary_compute(out, e->scratch, runs);
}

double mur_experiment_value(const mur_experiment *e, int c, int r, int k)
{
    if (e->window)
        return e->window[((long)c * e->runs + r) * MUR_METRIC_COUNT + k];
    return mur_metrics_value(mur_experiment_metrics(e, c, r, e->ticks), k);
}

double mur_experiment_until(const mur_experiment *e, int c, int r, int i)
{
    return e->until[((long)c * e->runs + r) * e->scene->nuntil + i];
}

void mur_experiment_until_summary(const mur_experiment *e, int c, int i, mur_summary *out, int *censored)
{
    int runs = mur_experiment_condition_runs(e, c);
    for (int r = 0; r < runs; r++)
        e->scratch[r] = mur_experiment_until(e, c, r, i);
    mur_summary_censored(out, e->scratch, runs, censored);
}

void mur_experiment_twin_summary(const mur_experiment *e, int c, int k, mur_summary *out, int *censored)
{
    for (int r = 0; r < e->runs; r++)
        e->scratch[r] = mur_experiment_twin_result(e, c, r)->value[k];
    mur_summary_censored(out, e->scratch, e->runs, censored);
}

int mur_experiment_swept(const mur_experiment *e, const mur_setting **out, int max)
{
    const mur_scene *s = e->scene;
    int n = 0;
    for (int i = 0; i < s->ncues; i++) {
        const mur_cue *q = &s->cues[i];
        for (int k = 0; k < q->nset + q->nramp; k++) {
            const mur_setting *st = k < q->nset ? q->set[k].setting : q->ramp[k - q->nset].setting;
            int seen = 0;
            for (int j = 0; j < n && !seen; j++)
                seen = out[j] == st;
            if (!seen && n < max)
                out[n++] = st;
        }
    }
    return n;
}

void mur_experiment_params_at(const mur_experiment *e, int c, long tick, mur_params *out)
{
    const mur_scene *s = e->scene;
    mur_params base = s->params;
    if (!e->scene_only)
        mur_scene_apply(s->conditions[e->first + c].set, s->conditions[e->first + c].nset, &base);
    mur_scene_params_at(s, &base, (double)tick / s->tps, out);
}

double mur_experiment_setting_at(const mur_experiment *e, int c, const mur_setting *st, long tick)
{
    mur_params p;
    mur_experiment_params_at(e, c, tick, &p);
    return mur_setting_get(st, &p);
}

int mur_experiment_provenance(const mur_experiment *e, int json, char **out, mur_error *err)
{
    char request[1024];
    int n = snprintf(request, sizeof request, "experiment: %d condition%s x %d run%s x %ld ticks%s\nconditions:",
                     e->nconditions, e->nconditions == 1 ? "" : "s", e->runs, e->runs == 1 ? "" : "s",
                     e->ticks, e->every_tick ? ", every tick" : "");
    /* names up to the buffer's end; a cut list ends in "..." */
    for (int c = 0; c < e->nconditions && n > 0 && (size_t)n < sizeof request; c++) {
        const char *name = mur_experiment_condition_name(e, c);
        if ((size_t)n + strlen(name) + 6 >= sizeof request) {
            snprintf(request + n, sizeof request - (size_t)n, " ...");
            break;
        }
        n += snprintf(request + n, sizeof request - (size_t)n, " %s", name);
    }
    return json ? mur_scene_provenance_json(e->scene, e->scene->seed, request, out, err)
                : mur_scene_provenance(e->scene, e->scene->seed, request, out, err);
}
