/* `murmur plan`: the experiment (or the render) in pieces, as the text an
 * engine a cluster already runs takes: a Slurm batch script with a job
 * array and a merge that waits for it, or one GNU parallel command line
 * and the merge after it. murmur schedules nothing itself.
 *
 * What a piece and the final step are is written once, in `kinds` below
 * (stats shards joined by merge; render chunks joined by join): the
 * engines only say how K reaches the piece and how the last step waits.
 * Comments at the top give the number of runs (or frames) and an estimate
 * of the CPU time, from a short calibration run timed here. */
#define _DEFAULT_SOURCE /* realpath */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "murmur/alloc.h"
#include "murmur/limits.h"
#include "murmur/experiment.h"
#include "murmur/scene.h"
#include "murmur/session.h"
#include "murmur/shard.h"
#include "murmur/version.h"
#include "murmur/video.h"

/* A kind of plan: the command of piece {K} of {N}, and the one that joins
 * the pieces ({PIECES}: a glob of them) into {OUT}. {M} is murmur, {SCENE}
 * the scene, {X} the options passed on (--runs, --ticks), {T} the threads
 * a piece may use. */
typedef struct {
    const char *what;      /* "shards", "chunks" */
    const char *unit;      /* what is split: "runs", "frames" */
    const char *piece;     /* the piece's file: DIR/NAME.{part}-{K}-of-{N}.EXT */
    const char *run;       /* the command of piece {K} */
    const char *join;      /* the last step */
} plan_kind;

static const plan_kind kinds[] = {
    {"shards", "runs", "{DIR}{NAME}.shard-{K}-of-{N}.mur",
     "{M} stats {SCENE} --shard {K}/{N} -o {OUT}{X} --threads {T} -q",
     "{M} merge {PIECES} -o {OUT}"},
    {"chunks", "frames", "{DIR}{NAME}.chunk-{K}-of-{N}{EXT}",
     "{M} render {SCENE} --chunk {K}/{N} -o {PIECE}{X} --threads {T} -q",
     "{M} join {PIECES} -o {OUT}"},
};

/* What the templates' names stand for. */
typedef struct {
    const char *m, *scene, *out, *dir, *name, *ext, *x, *k, *n, *t;
    const plan_kind *kind;
} words;

/* A word for a POSIX shell: as it is when plain, else in single quotes. */
static void shell_word(char *buf, size_t n, const char *w)
{
    if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+%@") == strlen(w)) {
        snprintf(buf, n, "%s", w);
        return;
    }
    size_t j = 0;
    buf[j++] = '\'';
    for (; *w && j + 5 < n; w++) {
        if (*w == '\'') {
            memcpy(buf + j, "'\\''", 4);
            j += 4;
        } else {
            buf[j++] = *w;
        }
    }
    buf[j++] = '\'';
    buf[j] = 0;
}

/* Expand template t with w into buf (the names above; unknown ones stay). */
static void expand(char *buf, size_t n, const char *t, const words *w)
{
    size_t j = 0;
    buf[0] = 0;
    while (*t && j + 1 < n) {
        const char *v = NULL;
        char sub[PATH_MAX + 64];
        size_t used = 0;
        static const char *const names[] = {"{M}", "{SCENE}", "{OUT}", "{DIR}", "{NAME}", "{EXT}", "{X}",
                                            "{K}", "{N}", "{T}", "{PIECE}", "{PIECES}"};
        for (size_t i = 0; i < sizeof names / sizeof names[0] && !v; i++)
            if (!strncmp(t, names[i], strlen(names[i]))) {
                used = strlen(names[i]);
                const char *vals[] = {w->m, w->scene, w->out, w->dir, w->name, w->ext, w->x, w->k, w->n, w->t};
                if (i < 10) {
                    v = vals[i];
                } else {   /* a piece's name, with K or a glob for it */
                    words ww = *w;
                    ww.k = i == 10 ? w->k : "*";
                    expand(sub, sizeof sub, w->kind->piece, &ww);
                    v = sub;
                }
            }
        if (!v) {
            buf[j++] = *t++;
            buf[j] = 0;
            continue;
        }
        j += (size_t)snprintf(buf + j, n - j, "%s", v);
        if (j >= n)
            j = n - 1;
        t += used;
    }
    buf[j] = 0;
}

/* Seconds of CPU one piece of the experiment's work takes on this
 * machine: up to four conditions (evenly spread) timed for one run of a
 * few ticks, one thread, scaled to the runs and ticks asked. < 0 when it
 * could not be timed. */
static double calibrate(const mur_scene *s, int runs, long ticks, char *how, size_t hown)
{
    int nc = s->nconditions, sample = nc < 4 ? nc : 4;
    long cal = ticks < 60 ? ticks : 60;
    double secs = 0;
    for (;;) {   /* longer until it takes a tenth of a second, so the clock's noise is small */
        secs = 0;
        for (int i = 0; i < sample; i++) {
            mur_experiment_def def = MUR_EXPERIMENT_DEF_INIT;
            def.runs = 1;
            def.ticks = cal;
            def.threads = 1;
            def.condition = s->conditions[(long)i * nc / sample].name;
            mur_experiment *e = NULL;
            mur_error err = {{0}};
            struct timespec a, b;
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
            int rc = mur_experiment_run(&e, s, &def, &err);
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
            mur_experiment_destroy(e);
            if (rc)
                return -1;
            secs += (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
        }
        if (secs >= 0.1 || cal >= ticks)
            break;
        cal = cal * 4 < ticks ? cal * 4 : ticks;
    }
    snprintf(how, hown, "%d run%s of %ld ticks (and the warm-up) took %.2g s", sample, sample == 1 ? "" : "s", cal,
             secs);
    return secs / sample * nc * runs * ((double)ticks + s->warmup) / ((double)cal + s->warmup);
}

/* CPU seconds of a real render of frames [0, last) of s into path, one
 * drawing thread (the encoder's threads included); < 0 on failure. */
static double time_render(const mur_scene *s, const char *path, long last)
{
    mur_session_opts so = MUR_SESSION_OPTS_INIT;
    so.threads = 1;
    mur_session *ss = NULL;
    mur_error err = {{0}};
    mur_render_opts ro = MUR_RENDER_OPTS_INIT;
    ro.path = path;
    ro.first = 0;
    ro.last = last;
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    int rc = mur_session_create(&ss, s, &so, &err) || mur_session_render(ss, &ro, NULL, &err);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    mur_session_destroy(ss);
    remove(path);
    return rc ? -1 : (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
}

/* Seconds of CPU the whole render takes on this machine: the first F and
 * the first 4F frames rendered for real into a scratch file of the
 * output's format, so that the difference prices a frame without the
 * start's fixed costs (opening the encoder, its first keyframe), scaled to
 * all the frames. A chunk also steps the flock from tick 0 to its first
 * frame, which this leaves out. < 0 when it could not be timed. */
static double calibrate_render(const mur_scene *s, const char *ext, char *how, size_t hown)
{
    long frames = mur_scene_frames(s), f1 = frames < 15 ? frames : 15;
    long f4 = frames < 4 * f1 ? frames : 4 * f1;
    char dir[] = "/tmp/murmur-plan-XXXXXX", path[sizeof dir + 40];
    if (frames < 1 || !mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/calibration%.16s", dir, ext);
    double t1 = time_render(s, path, f1), t4 = t1 >= 0 && f4 > f1 ? time_render(s, path, f4) : t1;
    remove(dir);
    if (t1 < 0 || t4 < 0)
        return -1;
    double per = f4 > f1 && t4 > t1 ? (t4 - t1) / (double)(f4 - f1) : t1 / (double)f1;
    snprintf(how, hown, "the first %ld frames took %.2g s, the first %ld %.2g s", f1, t1, f4, t4);
    return t1 + per * (double)(frames - f1);
}

static void put_duration(char *buf, size_t n, double secs)
{
    if (secs < 120)
        snprintf(buf, n, "%.2g s", secs);
    else if (secs < 7200)
        snprintf(buf, n, "%.2g min", secs / 60);
    else
        snprintf(buf, n, "%.3g h", secs / 3600);
}

static int positive(const char *text, const char *opt, int *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < 1 || v > MUR_SHARD_MAX) {
        char fmt[96];
        snprintf(fmt, sizeof fmt, "%s must be a number from 1 to %d, not '%%s'", opt, MUR_SHARD_MAX);
        return mur_cli_usage_error(fmt, text);
    }
    *out = (int)v;
    return 0;
}

/* The engine's text around the two commands. */
static void put_slurm(FILE *fp, const words *w, const char *jobname, const char *run, const char *join)
{
    char wrap[4 * PATH_MAX + 64];
    shell_word(wrap, sizeof wrap, join);   /* the glob expands where the last step runs */
    fprintf(fp,
            "#SBATCH --job-name=%s\n"
            "#SBATCH --array=1-%s\n"
            "#SBATCH --cpus-per-task=1\n"
            "#SBATCH --output=slurm-%%A_%%a.out\n"
            "set -eu\n"
            "if [ -z \"${SLURM_ARRAY_TASK_ID:-}\" ]; then\n"
            "    echo \"submit this script with: sbatch $0\" >&2\n"
            "    exit 2\n"
            "fi\n"
            "# The first task submits the last step, to run once every task has succeeded.\n"
            "if [ \"$SLURM_ARRAY_TASK_ID\" = \"${SLURM_ARRAY_TASK_MIN:-1}\" ]; then\n"
            "    sbatch --job-name=%s-%s --dependency=afterok:\"$SLURM_ARRAY_JOB_ID\" --output=slurm-%%j.out \\\n"
            "        --wrap=%s\n"
            "fi\n"
            "%s\n",
            jobname, w->n, jobname, !strcmp(w->kind->what, "shards") ? "merge" : "join", wrap, run);
}

static void put_parallel(FILE *fp, const words *w, const char *run, const char *join)
{
    fprintf(fp,
            "# Run it again after a failure: --resume-failed runs only what failed or never ran.\n"
            "set -eu\n"
            "mkdir -p %s\n"
            "parallel --joblog %s%s.%s.joblog --resume-failed %s ::: $(seq 1 %s)\n"
            "%s\n",
            *w->dir ? w->dir : ".", w->dir, w->name, w->kind->what, run, w->n, join);
}

int mur_cmd_plan(const mur_cli_opts *o)
{
    mur_error err = {{0}};
    mur_scene *s = NULL;
    int n = 0, chunks = o->chunks_text != NULL;
    if (!o->shards_text == !o->chunks_text)
        return mur_cli_usage_error("plan needs --shards N (stats) or --chunks N (render)%s", "");
    if (o->slurm == o->parallel)
        return mur_cli_usage_error("plan needs --slurm or --parallel (one of them)%s", "");
    if (positive(chunks ? o->chunks_text : o->shards_text, chunks ? "--chunks" : "--shards", &n))
        return 2;
    if (chunks && (o->runs_text || o->ticks_text))
        return mur_cli_usage_error("%s is for --shards (stats), not --chunks", o->runs_text ? "--runs" : "--ticks");
    const plan_kind *kind = &kinds[chunks];
    int rc = mur_cli_load_scene(o->scene, NULL, &s, &err);
    if (rc)
        return mur_cli_report(rc, &err);
    /* -o: the final file (its folder and name name the pieces) */
    const char *out = o->output;
    char dflt[PATH_MAX], dir[PATH_MAX], name[256], ext[32] = "";
    const char *base = strrchr(o->scene, '/');
    base = base ? base + 1 : o->scene;
    const char *dot = strrchr(base, '.');
    snprintf(name, sizeof name, "%.*s", dot && dot > base ? (int)(dot - base) : (int)strlen(base), base);
    if (chunks) {
        const char *vo = s->output ? s->output : "out/x.mp4", *e = strrchr(vo, '.');
        snprintf(ext, sizeof ext, "%s", e && !strchr(e, '/') ? e : ".mp4");
    }
    if (!out) {
        snprintf(dflt, sizeof dflt, "out/%s%s", name, chunks ? ext : ".csv");
        out = dflt;
    }
    const char *slash = strrchr(out, '/'), *odot = strrchr(out, '.');
    if (!odot || (slash && odot < slash)) {
        mur_scene_destroy(s);
        return mur_cli_usage_error("plan -o must be a file with an extension (out/NAME.csv), not '%s'", out);
    }
    if (!chunks && strcmp(odot, ".csv") && strcmp(odot, ".json")) {
        mur_scene_destroy(s);
        return mur_cli_usage_error("a plan of stats shards writes .csv or .json, not '%s'", out);
    }
    if (chunks)
        snprintf(ext, sizeof ext, "%s", odot);
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - out + 1) : 0, out);
    snprintf(name, sizeof name, "%.*s", (int)(odot - (slash ? slash + 1 : out)), slash ? slash + 1 : out);

    /* murmur itself: the program that made the plan, so the pieces and the
     * merge are of one version */
    char self[PATH_MAX] = "murmur", m[PATH_MAX + 8], sc[PATH_MAX + 8], oq[PATH_MAX + 8], x[128] = "", nn[16];
    if (o->argv0 && strchr(o->argv0, '/') && !realpath(o->argv0, self))
        snprintf(self, sizeof self, "%s", o->argv0);
    shell_word(m, sizeof m, self);
    shell_word(sc, sizeof sc, o->scene);
    shell_word(oq, sizeof oq, out);
    if (o->runs_text)
        snprintf(x + strlen(x), sizeof x - strlen(x), " --runs %s", o->runs_text);
    if (o->ticks_text)
        snprintf(x + strlen(x), sizeof x - strlen(x), " --ticks %s", o->ticks_text);
    snprintf(nn, sizeof nn, "%d", n);
    words w = {m, sc, oq, dir, name, ext, x, o->slurm ? "$SLURM_ARRAY_TASK_ID" : "{}", nn,
               o->slurm ? "\"${SLURM_CPUS_PER_TASK:-1}\"" : "1", kind};

    /* what is split, and what it costs */
    char count[256], cost[256] = "", how[160] = "";
    if (chunks) {
        long frames = mur_scene_frames(s), first, most = 0, len;
        mur_error why = {{0}};
        /* cut as the chunks will be (on 2 s segments), refused as they would be */
        for (int k = 1; k <= n; k++) {
            if (mur_video_chunk_frames(frames, (int)lround(s->fps), k, n, &first, &len, &why)) {
                mur_scene_destroy(s);
                return mur_cli_usage_error("%s", why.msg);
            }
            most = len > most ? len : most;
        }
        snprintf(count, sizeof count, "%ld frames, %ld per chunk at most", frames, most);
        double secs = calibrate_render(s, ext, how, sizeof how);
        if (secs >= 0) {
            char all[32], one[32];
            put_duration(all, sizeof all, secs);
            put_duration(one, sizeof one, secs / n);
            snprintf(cost, sizeof cost,
                     "CPU time: about %s in all, %s per chunk (and each chunk's stepping of the flock "
                     "to its first frame)", all, one);
        } else {
            snprintf(cost, sizeof cost, "CPU time: not estimated (the calibration render failed)");
        }
    } else {
        mur_experiment_def def = MUR_EXPERIMENT_DEF_INIT;
        char *end;
        def.runs = o->runs_text ? (int)strtol(o->runs_text, &end, 10) : s->runs;
        def.ticks = o->ticks_text ? strtol(o->ticks_text, &end, 10) : s->ticks;
        if (def.runs < 1 || def.runs > MUR_MAX_RUNS || def.ticks < 1 || def.ticks > MUR_MAX_RUN_TICKS) {
            mur_scene_destroy(s);
            return mur_cli_usage_error("plan takes --runs and --ticks as counts (1 to " MUR_STR(MUR_MAX_RUNS) " runs, 1 to " MUR_STR(MUR_MAX_RUN_TICKS) " ticks)%s", "");
        }
        long jobs = (long)s->nconditions * def.runs;
        snprintf(count, sizeof count, "%ld runs (%d condition%s x %d runs of %ld ticks), %ld per shard at most", jobs,
                 s->nconditions, s->nconditions == 1 ? "" : "s", def.runs, def.ticks, mur_shard_jobs(jobs, 1, n));
        if (jobs < n)
            fprintf(stderr, "murmur: warning: %d shards for %ld runs: %ld shards will have nothing to do\n", n, jobs,
                    n - jobs);
        double secs = calibrate(s, def.runs, def.ticks, how, sizeof how);
        if (secs >= 0) {
            char all[32], one[32];
            put_duration(all, sizeof all, secs);
            put_duration(one, sizeof one, secs / (jobs < n ? (double)jobs : (double)n));
            snprintf(cost, sizeof cost, "CPU time: about %s in all, %s per shard", all, one);
        } else {
            snprintf(cost, sizeof cost, "CPU time: not estimated (the calibration run failed)");
        }
    }
    char run[4 * PATH_MAX], join[4 * PATH_MAX];
    expand(run, sizeof run, kind->run, &w);
    expand(join, sizeof join, kind->join, &w);
    char jobname[300];
    snprintf(jobname, sizeof jobname, "murmur-%s", name);
    for (char *p = jobname; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.", *p))
            *p = '_';
    printf("#!/bin/bash\n# murmur plan: %s in %d %s %s (murmur %s)\n# %s\n# %s%s%s%s\n", o->scene, n, kind->what,
           o->slurm ? "on Slurm" : "with GNU parallel", MUR_VERSION_STRING, count, cost, *how ? " (timed here: " : "",
           how, *how ? ")" : "");
    printf("# Run from the folder the paths are relative to%s; it ends with %s.\n",
           o->slurm ? ": sbatch THIS-FILE" : ": bash THIS-FILE", out);
    if (!o->quiet)
        fprintf(stderr, "murmur: %s; %s\n", count, cost);
    if (o->slurm)
        put_slurm(stdout, &w, jobname, run, join);
    else
        put_parallel(stdout, &w, run, join);
    mur_scene_destroy(s);
    return fflush(stdout) == 0 ? 0 : 1;
}
