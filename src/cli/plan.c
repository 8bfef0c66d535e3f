/* `murmur plan`: the experiment (or the render) in pieces, as the text an
 * engine a cluster already runs takes: a script that submits Slurm job
 * arrays and a merge that waits for them (afterok, submitted from where
 * the script is run: a cluster may forbid sbatch on its nodes), or one GNU
 * parallel command line and the merge after it. murmur schedules nothing
 * itself. Both make the folders they write to, and both run every piece
 * each time: a complete piece sees itself complete (stats --shard, render
 * --chunk) and stops at once, so running a plan again redoes only what a
 * failure or a deleted file lost.
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
 * a piece may use, {Q} " -q" where a piece's lines would crowd the
 * terminal (a Slurm task's log keeps them: wrote, or complete). */
typedef struct {
    const char *what;      /* "shards", "chunks" */
    const char *unit;      /* what is split: "runs", "frames" */
    const char *piece;     /* the piece's file: DIR/NAME.{part}-{K}-of-{N}.EXT */
    const char *run;       /* the command of piece {K} */
    const char *join;      /* the last step */
} plan_kind;

static const plan_kind kinds[] = {
    {"shards", "runs", "{DIR}{NAME}.shard-{K}-of-{N}.mur",
     "{M} stats {SCENE} --shard {K}/{N} -o {OUT}{X} --threads {T}{Q}",
     "{M} merge {PIECES} -o {OUT} >/dev/null"},
    {"chunks", "frames", "{DIR}{NAME}.chunk-{K}-of-{N}{EXT}",
     "{M} render {SCENE} --chunk {K}/{N} -o {PIECE}{X} --threads {T}{Q}",
     "{M} join {PIECES} -o {OUT}"},
};

/* What the templates' names stand for. */
typedef struct {
    const char *m, *scene, *out, *dir, *name, *ext, *x, *k, *n, *t, *q;
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
                                            "{K}", "{N}", "{T}", "{Q}", "{PIECE}", "{PIECES}"};
        for (size_t i = 0; i < sizeof names / sizeof names[0] && !v; i++)
            if (!strncmp(t, names[i], strlen(names[i]))) {
                used = strlen(names[i]);
                const char *vals[] = {w->m, w->scene, w->out, w->dir, w->name, w->ext, w->x, w->k, w->n, w->t, w->q};
                if (i < 11) {
                    v = vals[i];
                } else {   /* a piece's name, with K or a glob for it */
                    words ww = *w;
                    ww.k = i == 11 ? w->k : "*";
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
    long cal = ticks < 60 ? ticks : 60, window = s->measure.window;
    int windowed = cal < window;   /* a run shorter than its measurement window measures nothing */
    if (windowed)
        cal = window < ticks ? window : ticks;
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
    snprintf(how, hown, "%d run%s of %ld ticks (and the warm-up%s) took %.2g s", sample, sample == 1 ? "" : "s", cal,
             windowed ? ", at least the measurement window" : "", secs);
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

/* Slurm's default MaxArraySize is 1001 (task indices 0 to 1000): arrays of
 * at most 1000 tasks, numbered from 1, fit every cluster that keeps it. A
 * plan of more pieces submits several, each task told its array's first
 * piece. */
#define ARRAY_MAX 1000

/* Everything a plan prints, worked out before any of it is printed. */
typedef struct {
    const mur_cli_opts *o;
    const plan_kind *kind;
    int n, chunks;
    const char *out;
    char dflt[PATH_MAX], dir[PATH_MAX], name[256], ext[32];
    char self[PATH_MAX], m[PATH_MAX + 8], sc[PATH_MAX + 8], oq[PATH_MAX + 8], x[128], nn[16];
    char count[256], cost[256], how[200];
    double piece_secs;   /* one piece's CPU estimate; < 0: not estimated */
    char run[4 * PATH_MAX], join[4 * PATH_MAX], jobname[300];
    words w;
} plan;

/* Whether text is made only of chars (and is not empty). */
static int only(const char *text, const char *chars)
{
    return *text && strspn(text, chars) == strlen(text);
}

/* The Slurm options: for --slurm only, each a value sbatch takes. */
static int slurm_options_refused(const mur_cli_opts *o)
{
    static const char digits[] = "0123456789", name[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,-";
    const char *given = o->slurm_time ? "--time" : o->slurm_mem ? "--mem" : o->partition ? "--partition"
                      : o->account ? "--account" : o->sbatch ? "--sbatch" : NULL;
    if (given && !o->slurm)
        return mur_cli_usage_error("%s is for a Slurm plan (--slurm)", given);
    size_t md = o->slurm_mem ? strspn(o->slurm_mem, digits) : 0;
    if (o->slurm_time && !only(o->slurm_time, "0123456789:-"))
        return mur_cli_usage_error("--time takes Slurm's time: MINUTES, H:MM:SS or D-HH:MM:SS, not '%s'", o->slurm_time);
    if (o->slurm_mem && (!md || strlen(o->slurm_mem) > md + 1 || !strchr("KMGT", o->slurm_mem[md])))
        return mur_cli_usage_error("--mem takes Slurm's memory per node: a size like 2G or 500M, not '%s'", o->slurm_mem);
    if ((o->partition && !only(o->partition, name)) || (o->account && !only(o->account, name)))
        return mur_cli_usage_error("--partition and --account take a Slurm name, not '%s'",
                                   o->partition && !only(o->partition, name) ? o->partition : o->account);
    if (o->sbatch && strpbrk(o->sbatch, "\n;&|<>`$()'\"\\"))
        return mur_cli_usage_error("--sbatch takes sbatch's options as plain words (\"--qos=long --gres=gpu:0\"), "
                                   "not shell: '%s'", o->sbatch);
    return 0;
}

/* The command's choices before the scene is read: which plan, how many
 * pieces, which options. Usage errors print and return 2. */
static int plan_refused(const mur_cli_opts *o, int *n)
{
    int chunks = o->chunks_text != NULL;
    if (!o->shards_text == !o->chunks_text)
        return mur_cli_usage_error("plan needs --shards N (stats) or --chunks N (render)%s", "");
    if (o->slurm == o->parallel)
        return mur_cli_usage_error("plan needs --slurm or --parallel (one of them)%s", "");
    if (positive(chunks ? o->chunks_text : o->shards_text, chunks ? "--chunks" : "--shards", n))
        return 2;
    if (chunks && (o->runs_text || o->ticks_text))
        return mur_cli_usage_error("%s is for --shards (stats), not --chunks", o->runs_text ? "--runs" : "--ticks");
    if (o->murmur && !*o->murmur)
        return mur_cli_usage_error("--murmur needs the program's path (or a name on the nodes' PATH)%s", "");
    return slurm_options_refused(o);
}

/* -o (the final file: its folder and name name the pieces), or out/NAME
 * with the scene's name and the render's extension. */
static int plan_paths(plan *p, const mur_scene *s)
{
    const char *scene = p->o->scene, *base = strrchr(scene, '/');
    base = base ? base + 1 : scene;
    const char *dot = strrchr(base, '.');
    snprintf(p->name, sizeof p->name, "%.*s", dot && dot > base ? (int)(dot - base) : (int)strlen(base), base);
    if (p->chunks) {
        const char *vo = s->output ? s->output : "out/x.mp4", *e = strrchr(vo, '.');
        snprintf(p->ext, sizeof p->ext, "%s", e && !strchr(e, '/') ? e : ".mp4");
    }
    if (!(p->out = p->o->output)) {
        snprintf(p->dflt, sizeof p->dflt, "out/%s%s", p->name, p->chunks ? p->ext : ".csv");
        p->out = p->dflt;
    }
    const char *out = p->out, *slash = strrchr(out, '/'), *odot = strrchr(out, '.');
    if (!odot || (slash && odot < slash))
        return mur_cli_usage_error("plan -o must be a file with an extension (out/NAME.csv), not '%s'", out);
    if (!p->chunks && strcmp(odot, ".csv") && strcmp(odot, ".json"))
        return mur_cli_usage_error("a plan of stats shards writes .csv or .json, not '%s'", out);
    if (p->chunks)
        snprintf(p->ext, sizeof p->ext, "%s", odot);
    snprintf(p->dir, sizeof p->dir, "%.*s", slash ? (int)(slash - out + 1) : 0, out);
    snprintf(p->name, sizeof p->name, "%.*s", (int)(odot - (slash ? slash + 1 : out)), slash ? slash + 1 : out);
    return 0;
}

/* The words of the commands, and the commands. murmur is --murmur, else
 * the program that made the plan, so the pieces and the merge are of one
 * version. */
static void plan_words(plan *p)
{
    const mur_cli_opts *o = p->o;
    snprintf(p->self, sizeof p->self, "%s", o->murmur ? o->murmur : "murmur");
    /* found on PATH, it is where the kernel says it is */
    const char *me = o->argv0 && strchr(o->argv0, '/') ? o->argv0 : "/proc/self/exe";
    if (!o->murmur && !realpath(me, p->self))
        snprintf(p->self, sizeof p->self, "%s", me == o->argv0 ? me : "murmur");
    shell_word(p->m, sizeof p->m, p->self);
    shell_word(p->sc, sizeof p->sc, o->scene);
    shell_word(p->oq, sizeof p->oq, p->out);
    if (o->runs_text)
        snprintf(p->x + strlen(p->x), sizeof p->x - strlen(p->x), " --runs %s", o->runs_text);
    if (o->ticks_text)
        snprintf(p->x + strlen(p->x), sizeof p->x - strlen(p->x), " --ticks %s", o->ticks_text);
    snprintf(p->nn, sizeof p->nn, "%d", p->n);
    words w = {p->m, p->sc, p->oq, p->dir, p->name, p->ext, p->x, o->slurm ? "$K" : "{}", p->nn,
               o->slurm ? "\"${SLURM_CPUS_PER_TASK:-1}\"" : "1", o->slurm ? "" : " -q", p->kind};
    p->w = w;
    expand(p->run, sizeof p->run, p->kind->run, &p->w);
    expand(p->join, sizeof p->join, p->kind->join, &p->w);
    snprintf(p->jobname, sizeof p->jobname, "murmur-%s", p->name);
    for (char *c = p->jobname; *c; c++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.", *c))
            *c = '_';
}

/* A render's frames and chunks, refused as `render --chunk` would refuse
 * them (cut on 2 s segments), and what they cost. */
static int cost_chunks(plan *p, const mur_scene *s)
{
    long frames = mur_scene_frames(s), first, most = 0, len;
    mur_error why = {{0}};
    for (int k = 1; k <= p->n; k++) {
        if (mur_video_chunk_frames(frames, (int)lround(s->fps), k, p->n, &first, &len, &why))
            return mur_cli_usage_error("%s", why.msg);
        most = len > most ? len : most;
    }
    snprintf(p->count, sizeof p->count, "%ld frames, %ld per chunk at most", frames, most);
    double secs = calibrate_render(s, p->ext, p->how, sizeof p->how);
    p->piece_secs = secs >= 0 ? secs / p->n : -1;
    char all[32], one[32];
    put_duration(all, sizeof all, secs);
    put_duration(one, sizeof one, p->piece_secs);
    if (secs >= 0)
        snprintf(p->cost, sizeof p->cost,
                 "CPU time: about %s in all, %s per chunk (and each chunk's stepping of the flock to its first frame)",
                 all, one);
    else
        snprintf(p->cost, sizeof p->cost, "CPU time: not estimated (the calibration render failed)");
    return 0;
}

/* An experiment's runs and shards, and what they cost. */
static int cost_shards(plan *p, const mur_scene *s)
{
    const mur_cli_opts *o = p->o;
    char *end;
    int runs = o->runs_text ? (int)strtol(o->runs_text, &end, 10) : s->runs;
    long ticks = o->ticks_text ? strtol(o->ticks_text, &end, 10) : s->ticks;
    if (runs < 1 || runs > MUR_MAX_RUNS || ticks < 1 || ticks > MUR_MAX_RUN_TICKS)
        return mur_cli_usage_error("plan takes --runs and --ticks as counts (1 to " MUR_STR(MUR_MAX_RUNS) " runs, 1 to " MUR_STR(MUR_MAX_RUN_TICKS) " ticks)%s", "");
    long jobs = (long)s->nconditions * runs, busy = jobs < p->n ? jobs : p->n;
    snprintf(p->count, sizeof p->count, "%ld runs (%d condition%s x %d runs of %ld ticks), %ld per shard at most", jobs,
             s->nconditions, s->nconditions == 1 ? "" : "s", runs, ticks, mur_shard_jobs(jobs, 1, p->n));
    if (jobs < p->n)
        fprintf(stderr, "murmur: warning: %d shards for %ld runs: %ld shards will have nothing to do\n", p->n, jobs,
                p->n - jobs);
    double secs = calibrate(s, runs, ticks, p->how, sizeof p->how);
    p->piece_secs = secs >= 0 ? secs / (double)busy : -1;
    char all[32], one[32];
    put_duration(all, sizeof all, secs);
    put_duration(one, sizeof one, p->piece_secs);
    if (secs >= 0)
        snprintf(p->cost, sizeof p->cost, "CPU time: about %s in all, %s per shard", all, one);
    else
        snprintf(p->cost, sizeof p->cost, "CPU time: not estimated (the calibration run failed)");
    return 0;
}

/* --time for every task and the merge: the option, else twice a piece's
 * estimate and 10 minutes (a node slower than this one, a chunk's stepping
 * to its first frame), in whole minutes; "" when neither is known. */
static void slurm_time(const plan *p, char *buf, size_t n)
{
    if (p->o->slurm_time || p->piece_secs < 0) {
        snprintf(buf, n, "%s", p->o->slurm_time ? p->o->slurm_time : "");
        return;
    }
    long min = (long)ceil((2 * p->piece_secs + 600) / 60);
    if (min >= 1440)
        snprintf(buf, n, "%ld-%02ld:%02ld:00", min / 1440, min / 60 % 24, min % 60);
    else
        snprintf(buf, n, "%ld:%02ld:00", min / 60, min % 60);
}

/* The comments at the top: what is split, what it costs, what runs it. */
static void put_header(FILE *fp, const plan *p)
{
    const mur_cli_opts *o = p->o;
    fprintf(fp, "#!/bin/bash\n# murmur plan: %s in %d %s %s (murmur %s)\n# %s\n# %s%s%s%s\n", o->scene, p->n,
            p->kind->what, o->slurm ? "on Slurm" : "with GNU parallel", MUR_VERSION_STRING, p->count, p->cost,
            *p->how ? " (timed here: " : "", p->how, *p->how ? ")" : "");
    fprintf(fp, "# Every task runs %s (--murmur PATH names another)%s\n", p->self,
            !o->slurm ? "." : strchr(p->self, '/') ? ": the nodes must see it at this path."
                            : ",\n# found on the nodes' PATH: load its module before submitting (the tasks inherit the environment).");
    if (o->slurm)
        fprintf(fp, "# The nodes must share this folder with the host that submits (the scene, the pieces, the logs).\n");
    fprintf(fp, "# A failed or killed task loses its own %s only: run this file again and the complete %s are kept,\n"
                "# a missing or truncated one runs again.\n", p->chunks ? "chunk" : "shard", p->kind->what);
}

/* What a task of the array does: its piece, K = its array's first piece +
 * its index - 1. Submitted by sbatch alone (without the merge), it says so. */
static void put_slurm_task(FILE *fp, const plan *p)
{
    const char *piece = p->chunks ? "chunk" : "shard";
    fprintf(fp,
            "#SBATCH --job-name=%s\n"
            "#SBATCH --cpus-per-task=1\n"
            "#SBATCH --output=%s%s.%s-%%A_%%a.log\n"
            "set -eu\n"
            "if [ -n \"${SLURM_ARRAY_TASK_ID:-}\" ]; then   # a task of the array: one %s\n"
            "    if [ -z \"${MURMUR_PLAN_FIRST:-}\" ]; then\n"
            "        echo \"murmur plan: run this file with bash, not sbatch: it submits the array and the %s\" >&2\n"
            "        exit 2\n"
            "    fi\n"
            "    K=$((MURMUR_PLAN_FIRST + SLURM_ARRAY_TASK_ID - 1))\n"
            "    echo \"murmur plan: %s $K of %d on $(hostname)\"\n"
            "    %s\n"
            "    exit\n"
            "fi\n",
            p->jobname, p->dir, p->name, p->kind->what, piece, p->chunks ? "join" : "merge", piece, p->n, p->run);
}

/* The sbatch options of every task and of the merge. */
static void put_slurm_opts(FILE *fp, const plan *p)
{
    const mur_cli_opts *o = p->o;
    char t[64], q[PATH_MAX];
    slurm_time(p, t, sizeof t);
    fprintf(fp, "opts=(");
    const char *names[] = {"--time", "--mem", "--partition", "--account"};
    const char *vals[] = {t, o->slurm_mem, o->partition, o->account};
    int first = 1;
    for (int i = 0; i < 4; i++)
        if (vals[i] && *vals[i]) {
            char kv[PATH_MAX];
            snprintf(kv, sizeof kv, "%s=%s", names[i], vals[i]);
            shell_word(q, sizeof q, kv);
            fprintf(fp, "%s%s", first ? "" : " ", q);
            first = 0;
        }
    fprintf(fp, "%s%s)\n", o->sbatch && !first ? " " : "", o->sbatch ? o->sbatch : "");
}

/* What runs where the file is run: the folders made, then the arrays and
 * the merge submitted from here, the merge held until every task has
 * succeeded (afterok), cancelled rather than left waiting when one fails. */
static void put_slurm_submit(FILE *fp, const plan *p)
{
    const char *last = p->chunks ? "join" : "merge";
    char wrap[4 * PATH_MAX + 64], murmur[PATH_MAX + 8];
    shell_word(wrap, sizeof wrap, p->join);   /* the glob expands where the last step runs */
    shell_word(murmur, sizeof murmur, p->self);
    fprintf(fp,
            "command -v sbatch >/dev/null || { echo \"murmur plan: no sbatch here: run this file where Slurm jobs are submitted\" >&2; exit 1; }\n"
            "command -v %s >/dev/null || { echo \"murmur plan: no %s here (--murmur PATH names the program)\" >&2; exit 1; }\n"
            "mkdir -p %s\n",
            murmur, p->self, *p->dir ? p->dir : ".");
    put_slurm_opts(fp, p);
    fprintf(fp,
            "jobs=\n"
            "submit() {   # the array of %s $1 to $1 + $2 - 1\n"
            "    local id\n"
            "    id=$(sbatch --parsable \"${opts[@]}\" --array=1-\"$2\" --export=ALL,MURMUR_PLAN_FIRST=\"$1\" \"$0\")\n"
            "    jobs=$jobs:${id%%%%;*}\n"
            "    echo \"murmur plan: job array ${id%%%%;*}: %s $1 to $(($1 + $2 - 1)) of %d\"\n"
            "}\n",
            p->kind->what, p->kind->what, p->n);
    for (int first = 1; first <= p->n; first += ARRAY_MAX)
        fprintf(fp, "submit %d %d\n", first, p->n - first + 1 < ARRAY_MAX ? p->n - first + 1 : ARRAY_MAX);
    fprintf(fp,
            "id=$(sbatch --parsable \"${opts[@]}\" --job-name=%s-%s --dependency=afterok$jobs --kill-on-invalid-dep=yes \\\n"
            "    --output=%s%s.%s-%%j.log --wrap=%s)\n"
            "echo \"murmur plan: job ${id%%%%;*}: the %s into %s, once every task has succeeded\"\n",
            p->jobname, last, p->dir, p->name, last, wrap, last, p->out);
}

static void put_slurm(FILE *fp, const plan *p)
{
    int arrays = (p->n + ARRAY_MAX - 1) / ARRAY_MAX;
    char t[64];
    slurm_time(p, t, sizeof t);
    fprintf(fp, "# Slurm: %d task%s, one CPU each, in %d job array%s of at most %d (the default MaxArraySize is 1001)",
            p->n, p->n == 1 ? "" : "s", arrays, arrays == 1 ? "" : "s", ARRAY_MAX);
    if (p->o->slurm_time)
        fprintf(fp, ";\n#   --time=%s for each task and the %s.\n", t, p->chunks ? "join" : "merge");
    else if (*t)
        fprintf(fp, ";\n#   --time=%s for each task and the %s, estimated: twice a %s's CPU time and 10 minutes\n"
                    "#   (--time sets it).\n", t, p->chunks ? "join" : "merge", p->chunks ? "chunk" : "shard");
    else
        fprintf(fp, ";\n#   no --time: the partition's default limit (not estimated).\n");
    fprintf(fp, "# Submit from the folder the paths are relative to, on a host that submits jobs: bash THIS-FILE\n"
                "# It makes the outputs' folders, submits the array%s and the %s after it (afterok), and ends with %s.\n"
                "# Each task logs to %s%s.%s-JOB_TASK.log.\n",
            arrays == 1 ? "" : "s", p->chunks ? "join" : "merge", p->out, p->dir, p->name, p->kind->what);
    put_slurm_task(fp, p);
    put_slurm_submit(fp, p);
}

/* One GNU parallel line and the last step. Every piece runs each time: a
 * complete one sees itself complete and stops at once, so a missing or
 * truncated piece is made again whatever the joblog says. */
static void put_parallel(FILE *fp, const plan *p)
{
    fprintf(fp,
            "# Run from the folder the paths are relative to: bash THIS-FILE; it ends with %s.\n"
            "set -eu\n"
            "mkdir -p %s\n"
            "parallel --joblog %s%s.%s.joblog %s ::: $(seq 1 %d)\n"
            "%s\n",
            p->out, *p->dir ? p->dir : ".", p->dir, p->name, p->kind->what, p->run, p->n, p->join);
}

int mur_cmd_plan(const mur_cli_opts *o)
{
    int n = 0;
    if (plan_refused(o, &n))
        return 2;
    mur_error err = {{0}};
    mur_scene *s = NULL;
    plan *p = mur_calloc(1, sizeof *p);
    int rc = p ? mur_cli_load_scene(o->scene, NULL, &s, &err) : mur_error_set(&err, MUR_ERUN, "out of memory");
    if (rc) {
        rc = mur_cli_report(rc, &err);
        goto done;
    }
    p->o = o;
    p->n = n;
    p->chunks = o->chunks_text != NULL;
    p->kind = &kinds[p->chunks];
    if (plan_paths(p, s) || (p->chunks ? cost_chunks(p, s) : cost_shards(p, s))) {
        rc = 2;
        goto done;
    }
    plan_words(p);
    put_header(stdout, p);
    if (o->slurm)
        put_slurm(stdout, p);
    else
        put_parallel(stdout, p);
    if (!o->quiet)
        fprintf(stderr, "murmur: %s; %s\n", p->count, p->cost);
    rc = fflush(stdout) == 0 ? 0 : 1;
done:
    mur_scene_destroy(s);
    mur_free(p);
    return rc;
}
