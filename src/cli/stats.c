/* `murmur stats` and `murmur series`: a scene's experiment as the table and
 * the figure a methods section quotes.
 *
 * stats: every condition x runs at the last tick, summarised per metric
 * (median, 10th and 90th percentile, mean), printed as a table and written
 * as CSV or JSON. series: every tick of the scene's own settings following
 * its timeline, one row per tick, with a band across runs when there are
 * several. Numbers in files are the shortest text that reads back to the
 * same double (mur_format_double), the same bytes for any thread count
 * because the values are. --runs-out writes the values under the summary,
 * one per condition, run and metric (docs/data.md). */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "murmur/alloc.h"
#include "murmur/limits.h"
#include "murmur/file.h"
#include "murmur/experiment.h"
#include "murmur/numfmt.h"
#include "murmur/plot.h"
#include "murmur/figure_data.h"
#include "murmur/rng.h"
#include "murmur/shard.h"
#include "progress.h"

#define MAX_SWEPT 16

/* ---- options ------------------------------------------------------------- */

static int parse_runs(const char *text, int *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < 1 || v > MUR_MAX_RUNS)
        return mur_cli_usage_error("--runs must be a number from 1 to " MUR_STR(MUR_MAX_RUNS) ", not '%s'", text);
    *out = (int)v;
    return 0;
}

/* --ticks takes a count of ticks, or a time as a scene writes it (15s, 900t). */
static int parse_ticks(const char *text, const mur_scene *s, long *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end != text && !*end) {
        if (v < 1 || v > MUR_MAX_RUN_TICKS)
            return mur_cli_usage_error("--ticks must be from 1 to " MUR_STR(MUR_MAX_RUN_TICKS) ", not '%s'", text);
        *out = v;
        return 0;
    }
    double secs;
    if (mur_time_parse(text, s->tps, &secs) || !(secs > 0) || secs * s->tps > MUR_MAX_RUN_TICKS)
        return mur_cli_usage_error("--ticks must be a tick count or a time like 15s or 900t, not '%s'", text);
    *out = lround(secs * s->tps);
    if (*out < 1)
        *out = 1;
    return 0;
}

static const char *extension(const char *path)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot : "";
}

static void on_progress(void *ctx, long done, long total)
{
    (void)total;
    mur_progress_update(ctx, done, NULL);
}

/* After an experiment: close the bar, and word its error for the terminal
 * (the library's messages carry no "murmur:" prefix; an interrupted run is
 * not an error but says what became of the output). */
static int finish_run(int rc, mur_progress *bar, long total, mur_error *err)
{
    mur_progress_end(bar, rc ? 0 : total);
    if (rc == MUR_EINTR) {
        fprintf(stderr, "murmur: interrupted (%s): nothing written\n", err->msg);
        err->msg[0] = 0;
    } else if (rc == MUR_EINPUT && !strstr(err->msg, "error:")) {
        mur_error e2 = *err;
        mur_error_set(err, rc, "murmur: error: %s", e2.msg);
    }
    return rc;
}

/* ---- writing ------------------------------------------------------------- */

/* A file written beside its final name and renamed when complete, so a
 * failed or interrupted run never leaves a truncated table behind. "-" is
 * standard output; a device or a pipe is written in place (renaming over
 * it would replace it). */
typedef struct {
    mur_atomic file;          /* the file (murmur/file.h); unused for "-" */
    FILE *fp;                 /* file.fp, or stdout for "-" */
} out_file;

/* out/ is the default output folder (not committed): made on demand, as
 * `render` does; any other missing folder is the user's to make. */
static void ensure_out_dir(const char *path)
{
    if (strncmp(path, "out/", 4) == 0)
        mkdir("out", 0777);
}

static int out_open(out_file *o, const char *path, mur_error *err)
{
    if (!strcmp(path, "-")) {
        o->fp = stdout;
        return MUR_OK;
    }
    ensure_out_dir(path);
    int rc = mur_atomic_begin(&o->file, path, 0, err);
    if (rc || !(o->fp = mur_atomic_fopen(&o->file, "w", err))) {
        mur_atomic_abort(&o->file);
        return rc ? rc : MUR_ERUN;
    }
    return MUR_OK;
}

static int out_close(out_file *o, mur_error *err)
{
    if (!o->fp)
        return MUR_OK;
    if (o->fp == stdout) {
        int e = fflush(stdout) != 0 ? errno : ferror(stdout) ? EIO : 0;
        o->fp = NULL;
        return e ? mur_error_set(err, MUR_ERUN, "cannot write to standard output: %s", strerror(e))
                 : MUR_OK;
    }
    o->fp = NULL;
    return mur_atomic_commit(&o->file, err);
}

static void out_abort(out_file *o)
{
    mur_atomic_abort(&o->file);   /* closes file.fp; stdout stays open */
    o->fp = NULL;
}

/* A number for CSV (json_number gives the JSON the same text), as short as
 * reads back to the same double (mur_format_double); NaN and infinities
 * are empty (null in JSON). */
static void put_number(FILE *fp, double v)
{
    char b[MUR_FORMAT_SIZE];
    if (isfinite(v) && mur_format_double(b, sizeof b, v) > 0)
        fputs(b, fp);
}

/* A CSV field, quoted when it holds a separator, a quote or a line break. */
static void put_csv_text(FILE *fp, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, fp);
        return;
    }
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

/* ---- stats --------------------------------------------------------------- */

/* Value v of setting st: a choice by its name, a number as put_number
 * writes it. */
static void put_setting(FILE *fp, const mur_setting *st, double v)
{
    if (st->type == MUR_SETTING_ENUM)
        fputs(st->choices[(int)v], fp);
    else
        put_number(fp, v);
}

/* A sweep's columns (docs/data.md): the name of each swept setting, after
 * the condition's, in the header ... */
static void sweep_header(FILE *fp, const mur_scene *s)
{
    for (int j = 0; j < s->nsweep; j++)
        fprintf(fp, ",%s", s->sweep[j]->name);
}

/* ... and condition c's value of each, in a row. */
static void sweep_values(FILE *fp, const mur_experiment *e, int c)
{
    const mur_scene *s = mur_experiment_scene(e);
    for (int j = 0; j < s->nsweep && mur_experiment_condition(e, c); j++) {
        fputc(',', fp);
        put_setting(fp, s->sweep[j], mur_experiment_condition_value(e, c, s->sweep[j]));
    }
}

/* Paired effects (docs/data.md#paired-effects): every condition's, per
 * metric, against the baseline, [c * nmetrics + i]. */
static int effects_of(const mur_experiment *e, const mur_scene *s, mur_effect **out, mur_error *err)
{
    int nc = mur_experiment_conditions(e), rc = MUR_OK;
    *out = mur_calloc((size_t)nc * (size_t)s->nmetrics, sizeof **out);
    if (!*out)
        return mur_error_set(err, MUR_ERUN, "out of memory for paired effects");
    for (int c = 0; c < nc && !rc; c++)
        for (int i = 0; i < s->nmetrics && !rc; i++)
            rc = mur_experiment_effect(e, c, s->baseline, s->metrics[i], &(*out)[c * s->nmetrics + i], err);
    return rc;
}

/* A row's effect columns: baseline,effect_median,ci_low,ci_high. f NULL:
 * a row without an effect (a twin's or an `until`'s), its values empty. */
static void put_effect(FILE *fp, const mur_experiment *e, const mur_effect *f)
{
    const double v[3] = {f ? f->median : NAN, f ? f->ci_low : NAN, f ? f->ci_high : NAN};
    fputc(',', fp);
    put_csv_text(fp, mur_experiment_condition_name(e, mur_experiment_scene(e)->baseline));
    for (int k = 0; k < 3; k++) {
        fputc(',', fp);
        put_number(fp, v[k]);
    }
}

/* Rows a twin experiment adds after each condition's metrics: the
 * doubling time and the ticks to each size (docs/data.md), with a count
 * of censored runs; none for other scenes, whose tables keep their
 * columns. */
static int twin_rows(const mur_experiment *e)
{
    return mur_experiment_scene(e)->twin.kind != MUR_TWIN_NONE ? MUR_TWIN_METRIC_COUNT : 0;
}

static int extra_rows(const mur_experiment *e)
{
    return twin_rows(e) + mur_experiment_scene(e)->nuntil;
}

/* Extra row k of condition c: its metric's name, summary and censored
 * runs; the twin's, then each `until` as time_to_<metric> (ticks). */
static const char *extra_row(const mur_experiment *e, int c, int k, mur_summary *m, int *censored)
{
    static char name[48];   /* the CLI is one thread; each row is printed before the next is asked for */
    if (k < twin_rows(e)) {
        mur_experiment_twin_summary(e, c, k, m, censored);
        return mur_twin_metric_name(k);
    }
    k -= twin_rows(e);
    mur_experiment_until_summary(e, c, k, m, censored);
    snprintf(name, sizeof name, "time_to_%s", mur_metric_name(mur_experiment_scene(e)->until[k].metric));
    return name;
}

static void stats_csv(FILE *fp, const mur_experiment *e, const mur_scene *s, const mur_effect *eff)
{
    long ticks = mur_experiment_ticks(e);
    int extra = extra_rows(e);
    fputs("condition", fp);
    sweep_header(fp, s);
    fputs(",metric,median,p10,p90,mean,runs,ticks", fp);
    fputs(extra ? ",censored" : "", fp);
    fputs(eff ? ",baseline,effect_median,ci_low,ci_high\n" : "\n", fp);
    for (int c = 0; c < mur_experiment_conditions(e); c++)
        for (int i = 0; i < s->nmetrics + extra; i++) {
            mur_summary m;
            int censored = 0;
            const char *name = i < s->nmetrics ? mur_metric_name(s->metrics[i])
                                               : extra_row(e, c, i - s->nmetrics, &m, &censored);
            if (i < s->nmetrics)
                mur_experiment_summary(e, c, ticks, s->metrics[i], &m);
            put_csv_text(fp, mur_experiment_condition_name(e, c));
            sweep_values(fp, e, c);
            fprintf(fp, ",%s,", name);
            double v[4] = {m.median, m.p10, m.p90, m.mean};
            for (int k = 0; k < 4; k++) {
                put_number(fp, v[k]);
                fputc(',', fp);
            }
            fprintf(fp, "%d,%ld", m.n, ticks);
            if (extra)
                fprintf(fp, ",%d", censored);
            if (eff)
                put_effect(fp, e, i < s->nmetrics ? &eff[c * s->nmetrics + i] : NULL);
            fputc('\n', fp);
        }
}

/* --runs-out: every run's value of every metric at the measured tick, one
 * row each, with the run's seed (mur_rng_derive(scene seed, run), the same
 * for every condition: runs are paired). Each double reads back exactly,
 * so a reader recomputes the summary's numbers bit for bit. */
static void runs_csv(FILE *fp, const mur_experiment *e, const mur_scene *s)
{
    fputs("condition", fp);
    sweep_header(fp, s);
    fputs(",run,seed,metric,value\n", fp);
    for (int c = 0; c < mur_experiment_conditions(e); c++)
        for (int r = 0; r < mur_experiment_condition_runs(e, c); r++) {
            for (int i = 0; i < s->nmetrics; i++) {
                put_csv_text(fp, mur_experiment_condition_name(e, c));
                sweep_values(fp, e, c);
                fprintf(fp, ",%d,%llu,%s,", r, (unsigned long long)mur_rng_derive(s->seed, (uint64_t)r),
                        mur_metric_name(s->metrics[i]));
                put_number(fp, mur_experiment_value(e, c, r, s->metrics[i]));
                fputc('\n', fp);
            }
            /* a twin's numbers and the times to each `until`; a censored
             * run's is "inf": it never got there */
            const mur_twin_result *tr = mur_experiment_twin_result(e, c, r);
            int ntwin = tr ? MUR_TWIN_METRIC_COUNT : 0;
            for (int k = 0; k < ntwin + s->nuntil; k++) {
                char name[48];
                double v = k < ntwin ? tr->value[k] : mur_experiment_until(e, c, r, k - ntwin);
                snprintf(name, sizeof name, "%s%s", k < ntwin ? "" : "time_to_",
                         k < ntwin ? mur_twin_metric_name(k) : mur_metric_name(s->until[k - ntwin].metric));
                put_csv_text(fp, mur_experiment_condition_name(e, c));
                sweep_values(fp, e, c);
                fprintf(fp, ",%d,%llu,%s,", r, (unsigned long long)mur_rng_derive(s->seed, (uint64_t)r), name);
                if (isinf(v))
                    fputs("inf", fp);
                else
                    put_number(fp, v);
                fputc('\n', fp);
            }
        }
}

/* A CSV file written as a whole (atomically) by fn, and said. */
static int write_csv(const mur_cli_opts *o, const char *path,
                     void (*fn)(FILE *, const mur_experiment *, const mur_scene *),
                     const mur_experiment *e, const mur_scene *s, mur_error *err)
{
    out_file of = {0};
    int rc = out_open(&of, path, err);
    if (rc)
        return rc;
    fn(of.fp, e, s);
    if ((rc = out_close(&of, err))) {
        out_abort(&of);
        return rc;
    }
    if (!o->quiet && strcmp(path, "-"))
        fprintf(stderr, "murmur: wrote %s\n", path);
    return MUR_OK;
}

/* ---- JSON (json-c) ------------------------------------------------------- */

/* json-c's NULL is out of memory; add() then fails and frees v (json-c
 * would add a NULL as null). null_ok: NULL is the value null. */
static int add(json_object *o, const char *key, json_object *v, int null_ok)
{
    if (!v && !null_ok)
        return 0;
    if (json_object_object_add(o, key, v)) {
        json_object_put(v);
        return 0;
    }
    return 1;
}

/* A number as the CSV writes it (the same text, kept by json-c), or NULL
 * (null) when it is not a number; *ok 0 when out of memory. */
static json_object *json_number(double v, int *ok)
{
    char b[MUR_FORMAT_SIZE];
    if (!isfinite(v) || mur_format_double(b, sizeof b, v) <= 0)
        return NULL;
    json_object *o = json_object_new_double_s(v, b);
    *ok = *ok && o;
    return o;
}

/* One row: condition, its swept settings, metric, summary, runs, ticks, and
 * the effect columns when eff_cols (f NULL: a row without an effect, null). */
static json_object *json_row(const mur_experiment *e, int c, const char *name, const mur_summary *m, long ticks,
                             int extra, int censored, int eff_cols, const mur_effect *f)
{
    static const char *const keys[4] = {"median", "p10", "p90", "mean"};
    static const char *const ekeys[3] = {"effect_median", "ci_low", "ci_high"};
    const mur_scene *s = mur_experiment_scene(e);
    json_object *o = json_object_new_object();
    int ok = o && add(o, "condition", json_object_new_string(mur_experiment_condition_name(e, c)), 0);
    for (int j = 0; ok && j < s->nsweep && mur_experiment_condition(e, c); j++) {
        const mur_setting *st = s->sweep[j];
        double v = mur_experiment_condition_value(e, c, st);
        ok = add(o, st->name,
                 st->type == MUR_SETTING_ENUM ? json_object_new_string(st->choices[(int)v]) : json_number(v, &ok),
                 st->type != MUR_SETTING_ENUM) && ok;
    }
    ok = ok && add(o, "metric", json_object_new_string(name), 0);
    const double v[4] = {m->median, m->p10, m->p90, m->mean};
    for (int k = 0; ok && k < 4; k++)
        ok = add(o, keys[k], json_number(v[k], &ok), 1) && ok;
    ok = ok && add(o, "runs", json_object_new_int(m->n), 0) && add(o, "ticks", json_object_new_int64(ticks), 0);
    if (ok && extra)
        ok = add(o, "censored", json_object_new_int(censored), 0);
    if (ok && eff_cols) {   /* every row has the CSV's columns: null where it is empty */
        const double ev[3] = {f ? f->median : NAN, f ? f->ci_low : NAN, f ? f->ci_high : NAN};
        ok = add(o, "baseline", json_object_new_string(mur_experiment_condition_name(e, s->baseline)), 0);
        for (int k = 0; ok && k < 3; k++)
            ok = add(o, ekeys[k], json_number(ev[k], &ok), 1) && ok;
    }
    if (!ok) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

/* {"provenance": {...}, "rows": [one object per condition and metric]}:
 * built with json-c, the provenance parsed from its text (json-c keeps a
 * number's text). NULL when out of memory. */
static json_object *stats_document(const mur_experiment *e, const mur_scene *s, const char *prov,
                                   const mur_effect *eff)
{
    long ticks = mur_experiment_ticks(e);
    int extra = extra_rows(e);
    json_object *top = json_object_new_object(), *rows = json_object_new_array();
    int ok = top && rows && add(top, "provenance", json_tokener_parse(prov), 0);
    for (int c = 0; ok && c < mur_experiment_conditions(e); c++)
        for (int i = 0; ok && i < s->nmetrics + extra; i++) {
            mur_summary m;
            int censored = 0;
            const char *name = i < s->nmetrics ? mur_metric_name(s->metrics[i])
                                               : extra_row(e, c, i - s->nmetrics, &m, &censored);
            if (i < s->nmetrics)
                mur_experiment_summary(e, c, ticks, s->metrics[i], &m);
            json_object *row = json_row(e, c, name, &m, ticks, extra, censored, eff != NULL,
                                        eff && i < s->nmetrics ? &eff[c * s->nmetrics + i] : NULL);
            ok = row && !json_object_array_add(rows, row);
            if (!ok)
                json_object_put(row);
        }
    if (ok)
        ok = add(top, "rows", rows, 0);
    else
        json_object_put(rows);
    if (!ok) {
        json_object_put(top);
        return NULL;
    }
    return top;
}

static int stats_json(FILE *fp, const mur_experiment *e, const mur_scene *s, const char *prov,
                      const mur_effect *eff, mur_error *err)
{
    json_object *doc = stats_document(e, s, prov, eff);
    const char *text = doc ? json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                                     JSON_C_TO_STRING_NOSLASHESCAPE)
                           : NULL;
    if (text) {
        fputs(text, fp);
        fputc('\n', fp);
    }
    json_object_put(doc);
    return text ? MUR_OK : mur_error_set(err, MUR_ERUN, "out of memory writing the JSON table");
}

/* The table's first line: the runs, which conditions are recordings (one
 * run each, paired with every run of a model condition), and what the
 * effects are against. */
static void header(FILE *fp, const mur_experiment *e, const mur_scene *s, const mur_effect *eff,
                   const char *when)
{
    int nc = mur_experiment_conditions(e), recorded = 0, runs = 1;
    for (int c = 0; c < nc; c++) {
        int n = mur_experiment_condition_runs(e, c);
        runs = n > runs ? n : runs;
        recorded += n == 1 && mur_experiment_runs(e) > 1;
    }
    fprintf(fp, "%s: %d condition%s x %d run%s, %s", s->title ? s->title : s->path, nc, nc == 1 ? "" : "s",
            runs, runs == 1 ? "" : "s", when);
    for (int c = 0, k = 0; c < nc && recorded < nc; c++)
        if (mur_experiment_condition_runs(e, c) == 1 && mur_experiment_runs(e) > 1)
            fprintf(fp, "%s%s", k++ ? ", " : "; a recording, one run paired with every run of the others: ",
                    mur_experiment_condition_name(e, c));
    if (recorded == nc)
        fputs(nc == 1 ? "; a recording" : "; recordings", fp);
    if (eff)
        fprintf(fp, "; effects against %s%s", mur_experiment_condition_name(e, s->baseline),
                s->baseline_named ? "" : " (the first condition)");
    fputc('\n', fp);
}

static void stats_table(FILE *fp, const mur_experiment *e, const mur_scene *s, const mur_effect *eff)
{
    long ticks = mur_experiment_ticks(e);
    int w = 9;
    for (int c = 0; c < mur_experiment_conditions(e); c++) {
        int l = (int)strlen(mur_experiment_condition_name(e, c));
        w = l > w ? l : w;
    }
    char when[96];
    if (s->measure.window)
        snprintf(when, sizeof when, "means of the last %ld ticks (every %ld) of %ld", s->measure.window,
                 s->measure.every, ticks);
    else
        snprintf(when, sizeof when, "values after %ld ticks", ticks);
    header(fp, e, s, eff, when);
    int mw = twin_rows(e) ? 13 : 10;   /* ticks_to_1e-9 */
    for (int k = 0; k < s->nuntil; k++) {
        int l = 8 + (int)strlen(mur_metric_name(s->until[k].metric));   /* time_to_<metric> */
        mw = l > mw ? l : mw;
    }
    fprintf(fp, "%-*s  %-*s %10s %10s %10s %10s", w, "condition", mw, "metric", "median", "p10",
            "p90", "mean");
    if (eff)
        fprintf(fp, "  %10s %21s", "effect", "95% CI");
    fputc('\n', fp);
    for (int c = 0; c < mur_experiment_conditions(e); c++) {
        for (int i = 0; i < s->nmetrics + extra_rows(e); i++) {
            mur_summary m;
            int censored = 0;
            const char *name = i < s->nmetrics ? mur_metric_name(s->metrics[i])
                                               : extra_row(e, c, i - s->nmetrics, &m, &censored);
            if (i < s->nmetrics)
                mur_experiment_summary(e, c, ticks, s->metrics[i], &m);
            fprintf(fp, "%-*s  %-*s", w, i == 0 ? mur_experiment_condition_name(e, c) : "", mw, name);
            double v[4] = {m.median, m.p10, m.p90, m.mean};
            for (int k = 0; k < 4; k++) {
                char beyond[24];   /* a time needing censored runs: later than the runs lasted */
                snprintf(beyond, sizeof beyond, ">%ld", ticks);
                if (censored && isnan(v[k]))
                    fprintf(fp, " %10s", beyond);
                else
                    fprintf(fp, " %10.4g", v[k]);
            }
            if (censored)
                fprintf(fp, "  (%d of %d runs censored)", censored, m.n);
            if (eff && i < s->nmetrics) {
                const mur_effect *f = &eff[c * s->nmetrics + i];
                fprintf(fp, "  %10.4g [%9.4g, %9.4g]", f->median, f->ci_low, f->ci_high);
            }
            fputc('\n', fp);
        }
    }
}

/* A CSV's provenance (mur_experiment_provenance) in a sidecar,
 * CSV_PATH.provenance.txt, so the CSV itself stays a plain table that any
 * reader loads unchanged. None for standard output. */
static int write_sidecar(const char *csv_path, const mur_experiment *e, mur_error *err)
{
    if (!strcmp(csv_path, "-"))
        return MUR_OK;
    char *text = NULL, *path = NULL;
    int rc = mur_experiment_provenance(e, 0, &text, err);
    if (!rc && !(path = mur_malloc(strlen(csv_path) + sizeof ".provenance.txt")))
        rc = mur_error_set(err, MUR_ERUN, "out of memory");
    if (!rc)
        rc = mur_file_write_text(strcat(strcpy(path, csv_path), ".provenance.txt"), text, err);
    mur_free(path);
    mur_free(text);
    return rc;
}

typedef int (*plot_fn)(const char *path, const mur_experiment *e, const int *metrics, int n,
                       mur_error *err);

/* The --plot figure of either command, when asked for. */
static int write_plot(const mur_cli_opts *o, plot_fn draw, const mur_experiment *e,
                      const mur_scene *s, mur_error *err)
{
    if (!o->plot)
        return MUR_OK;
    ensure_out_dir(o->plot);
    mur_cli_figure_footer(o, s);   /* --plot-provenance */
    int rc = draw(o->plot, e, s->metrics, s->nmetrics, err);
    if (!rc && !o->quiet)
        fprintf(stderr, "murmur: wrote %s\n", o->plot);
    return rc;
}

/* A twin experiment's --plot: the divergence against ticks (plot.h). */
static int twin_plot(const char *path, const mur_experiment *e, const int *metrics, int n, mur_error *err)
{
    (void)metrics;
    (void)n;
    return mur_experiment_plot_divergence(path, e, err);
}

/* What stats and series share before they run: the --plot name, --runs,
 * the scene. Usage errors are printed here (err stays empty) and give
 * MUR_EINPUT; a scene error is left in err for the caller to report. */
static int load(const mur_cli_opts *o, mur_experiment_def *def, mur_scene **s, mur_error *err)
{
    if (o->plot && !mur_plot_format_ok(o->plot)) {
        mur_cli_usage_error("--plot must end in .png, .pdf or .svg, not '%s'", o->plot);
        return MUR_EINPUT;
    }
    if (o->runs_text && parse_runs(o->runs_text, &def->runs))
        return MUR_EINPUT;
    int rc = mur_cli_load_scene(o->scene, NULL, s, err);
    return rc ? rc : mur_cli_not_sequence(*s, err);
}

/* --ticks over the scene's own length; on a usage error frees the scene
 * and returns nonzero. */
static int ticks_option(const mur_cli_opts *o, mur_scene *s, mur_experiment_def *def)
{
    if (o->ticks_text && parse_ticks(o->ticks_text, s, &def->ticks)) {
        mur_scene_destroy(s);
        return 1;
    }
    return 0;
}

/* ---- shards --------------------------------------------------------------- */

/* The options that make figures and files of the whole experiment belong to
 * the merge (murmur merge), not to one shard of it. */
static int shard_refuses(const mur_cli_opts *o)
{
    const char *opt = o->plot ? "--plot" : o->plot_effects ? "--plot-effects" : o->runs_out ? "--runs-out"
                    : o->json ? "--json" : NULL;
    if (!opt)
        return 0;
    return mur_cli_usage_error("%s is for the merge of the shards (murmur merge ... --plot ...), not for one shard",
                               opt);
}

/* Runs shard K of N of the experiment def describes (the parsed --shard)
 * into its file, unless that file is already complete. */
static int run_shard(const mur_cli_opts *o, const char *command, mur_scene *s, mur_experiment_def *def,
                     mur_error *err)
{
    char *path;
    int rc = mur_cli_shard_file(o, s, def->shard, def->shards, &path, err);
    if (rc)
        return rc;
    mur_experiment *e = NULL;
    long jobs = (long)(def->scene_only || def->condition ? 1 : s->nconditions) * (def->runs ? def->runs : s->runs);
    long mine = mur_shard_jobs(jobs, def->shard, def->shards);
    if (mur_shard_done(path, s, def, command)) {
        mur_cli_shard_complete(o, path, def->shard, def->shards);
        goto done;
    }
    ensure_out_dir(path);
    mur_progress bar;
    mur_progress_start(&bar, "runs", mine, o->quiet);
    def->progress = on_progress;
    def->progress_ctx = &bar;
    if ((rc = finish_run(mur_experiment_run(&e, s, def, err), &bar, mine, err)) ||
        (rc = mur_experiment_shard_write(e, def, command, path, err)))
        goto done;
    if (!o->quiet)
        fprintf(stderr, "murmur: wrote %s (shard %d of %d: %ld of %ld runs)\n", path, def->shard, def->shards, mine,
                jobs);
done:
    mur_experiment_destroy(e);
    mur_free(path);
    return rc;
}

/* ---- stats, whole or merged ---------------------------------------------- */

/* stats's output options: -o's format (*json), --runs-out, --plot-effects. */
int mur_cli_stats_options(const mur_cli_opts *o, int *json)
{
    *json = 0;
    if (o->output) {
        const char *ext = extension(o->output);
        if (!strcmp(ext, ".json"))
            *json = 1;
        else if (strcmp(ext, ".csv") != 0)
            return mur_cli_usage_error("stats output must end in .csv or .json, not '%s'", o->output);
    }
    if (o->runs_out && strcmp(extension(o->runs_out), ".csv"))
        return mur_cli_usage_error("--runs-out must end in .csv, not '%s'", o->runs_out);
    if (o->plot_effects && !mur_plot_format_ok(o->plot_effects))
        return mur_cli_usage_error("--plot-effects must end in .png, .pdf or .svg, not '%s'", o->plot_effects);
    if (o->plot && !mur_plot_format_ok(o->plot))
        return mur_cli_usage_error("--plot must end in .png, .pdf or .svg, not '%s'", o->plot);
    return 0;
}

int mur_cli_stats_outputs(const mur_cli_opts *o, const mur_experiment *e, mur_error *err)
{
    const mur_scene *s = mur_experiment_scene(e);
    out_file of = {0};
    char *prov = NULL;
    mur_effect *eff = NULL;
    const mur_effect *cols = NULL;   /* eff when the tables carry it */
    int json = 0, rc = MUR_OK;
    if (mur_cli_stats_options(o, &json))
        return MUR_EINPUT;   /* checked before running; said */
    if ((o->json || json) && (rc = mur_experiment_provenance(e, 1, &prov, err)))
        goto done;
    /* Paired effects against the baseline (the first condition unless
     * named) when there are two conditions or more and the scene does not
     * say `baseline: none`, and for their figure. */
    if (o->plot_effects && !s->effects && s->nconditions > 1)
        goto no_baseline;
    if ((s->effects || o->plot_effects) && (rc = effects_of(e, s, &eff, err)))
        goto done;
    cols = s->effects ? eff : NULL;
    if (o->json) {
        if ((rc = stats_json(stdout, e, s, prov, cols, err)))
            goto done;
    } else if (!o->quiet || !o->output) {   /* -q with -o: nothing but errors */
        stats_table(stdout, e, s, cols);
    }
    if (o->output) {
        if ((rc = out_open(&of, o->output, err)))
            goto done;
        if (json && (rc = stats_json(of.fp, e, s, prov, cols, err)))
            goto done;
        if (!json)
            stats_csv(of.fp, e, s, cols);
        if ((rc = out_close(&of, err)) || (!json && (rc = write_sidecar(o->output, e, err))))
            goto done;
        if (!o->quiet && strcmp(o->output, "-"))
            fprintf(stderr, "murmur: wrote %s\n", o->output);
    }
    if (o->runs_out && ((rc = write_csv(o, o->runs_out, runs_csv, e, s, err)) ||
                        (rc = write_sidecar(o->runs_out, e, err))))
        goto done;
    /* a two-parameter sweep: a heatmap per metric, as phase diagrams are printed */
    if ((rc = write_plot(o, twin_rows(e) ? twin_plot : mur_experiment_heatmap_fits(e) ? mur_experiment_plot_heatmap
                                                                                   : mur_experiment_plot_stats,
                         e, s, err)))
        goto done;
    if (o->plot_effects) {
        ensure_out_dir(o->plot_effects);
        mur_cli_figure_footer(o, s);
        if ((rc = mur_experiment_plot_effects(o->plot_effects, e, s->metrics, s->nmetrics, eff, err)))
            goto done;
        if (!o->quiet)
            fprintf(stderr, "murmur: wrote %s\n", o->plot_effects);
    }
done:
    mur_free(eff);
    mur_free(prov);
    out_abort(&of);
    return rc;
no_baseline:
    rc = mur_error_set(err, MUR_EINPUT, "murmur: --plot-effects needs a baseline, and %s says 'baseline: none'",
                       s->path);
    goto done;
}

int mur_cmd_stats(const mur_cli_opts *o)
{
    mur_error err = {{0}};
    mur_scene *s = NULL;
    mur_experiment *e = NULL;
    int json = 0;
    mur_experiment_def def = MUR_EXPERIMENT_DEF_INIT;
    int field = o->correlation || o->distribution || o->anisotropy;   /* field.c's runs, in place of the table */
    if (mur_cli_field_options(o))
        return 2;
    if (!field && o->shard_text && (shard_refuses(o) || mur_cli_parse_shard(o->shard_text, &def.shard, &def.shards)))
        return 2;
    if (!field && !o->shard_text && mur_cli_stats_options(o, &json))
        return 2;
    int rc = load(o, &def, &s, &err);
    if (rc)
        goto done;
    if (ticks_option(o, s, &def))
        return 2;
    def.threads = o->threads;
    def.stop = o->stop;
    if (field) {
        rc = mur_cli_field(o, s, &def, &err);
        goto done;
    }
    if (o->shard_text) {
        rc = run_shard(o, "stats", s, &def, &err);
        goto done;
    }
    const char *outs[] = {o->output, o->runs_out, o->plot, o->plot_effects};
    if ((rc = mur_cli_outputs_ready(outs, 4, &err)))   /* before the first run */
        goto done;
    mur_progress bar;
    long total = (long)s->nconditions * (def.runs ? def.runs : s->runs);
    mur_progress_start(&bar, "runs", total, o->quiet);
    def.progress = on_progress;
    def.progress_ctx = &bar;
    rc = finish_run(mur_experiment_run(&e, s, &def, &err), &bar, total, &err);
    if (!rc)
        rc = mur_cli_stats_outputs(o, e, &err);
done:
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
    return mur_cli_report(rc, &err);
}

/* ---- series -------------------------------------------------------------- */

/* Whether the timeline changes st (it then has its own column, per tick). */
static int series_timed(const mur_setting *st, const mur_setting *const *swept, int nswept)
{
    for (int j = 0; j < nswept; j++)
        if (swept[j] == st)
            return 1;
    return 0;
}

/* A twin experiment's series columns (docs/data.md), after the others:
 * run 0's divergence (RMS and largest, world units) and the twin's order
 * (of the condition of the row),
 * then with several runs each one's median and 10-90% band. */
static const char *const twin_cols[3] = {"divergence_rms", "divergence_max", "twin_order"};

static double twin_value(const mur_twin_record *w, int k)
{
    return k == 0 ? w->divergence.rms : k == 1 ? w->divergence.max : w->twin_order;
}

static void twin_header(FILE *fp, int runs)
{
    for (int k = 0; k < 3; k++)
        fprintf(fp, ",%s", twin_cols[k]);
    for (int k = 0; k < 3 && runs > 1; k++)
        fprintf(fp, ",%s_median,%s_p10,%s_p90", twin_cols[k], twin_cols[k], twin_cols[k]);
}

static void twin_columns(FILE *fp, const mur_experiment *e, int c, long t)
{
    int runs = mur_experiment_runs(e);
    for (int k = 0; k < 3; k++) {
        fputc(',', fp);
        put_number(fp, twin_value(mur_experiment_twin(e, c, 0, t), k));
    }
    double *v = runs > 1 ? mur_malloc((size_t)runs * sizeof *v) : NULL;
    for (int k = 0; k < 3 && v; k++) {
        for (int r = 0; r < runs; r++)
            v[r] = twin_value(mur_experiment_twin(e, c, r, t), k);
        mur_summary sm;
        mur_summary_compute(&sm, v, runs);
        double q[3] = {sm.median, sm.p10, sm.p90};
        for (int j = 0; j < 3; j++) {
            fputc(',', fp);
            put_number(fp, q[j]);
        }
    }
    mur_free(v);
}

static void series_csv(FILE *fp, const mur_experiment *e)
{
    const mur_setting *swept[MAX_SWEPT];
    int nswept = mur_experiment_swept(e, swept, MAX_SWEPT);
    int runs = mur_experiment_runs(e), nc = mur_experiment_conditions(e);
    /* One condition keeps the table it always had; several stack their
     * rows, condition by condition, under a leading `condition` column. */
    if (nc > 1)
        fputs("condition,", fp);
    const mur_scene *s = mur_experiment_scene(e);
    int sweep_cols = s->nsweep && mur_experiment_condition(e, 0);
    if (sweep_cols) {   /* a sweep's values, where the timeline's own columns do not give them */
        for (int j = 0; j < s->nsweep; j++)
            if (!series_timed(s->sweep[j], swept, nswept))
                fprintf(fp, "%s,", s->sweep[j]->name);
    }
    fputs("tick", fp);
    unsigned kept = mur_experiment_metrics_kept(e);   /* the field's measures when the scene names them */
    for (int k = 0; k < MUR_METRIC_COUNT; k++)
        if (kept >> k & 1)
            fprintf(fp, ",%s", mur_metric_name(k));
    fputs(",state", fp);
    if (runs > 1)
        for (int k = 0; k < MUR_METRIC_COUNT; k++)
            if (kept >> k & 1)
                fprintf(fp, ",%s_median,%s_p10,%s_p90", mur_metric_name(k), mur_metric_name(k),
                    mur_metric_name(k));
    for (int j = 0; j < nswept; j++)
        fprintf(fp, ",%s", swept[j]->name);
    int twin = mur_experiment_twin(e, 0, 0, 0) != NULL;
    if (twin)
        twin_header(fp, runs);
    fputc('\n', fp);
    for (int c = 0; c < nc; c++)
    for (long t = 0; t <= mur_experiment_ticks(e); t++) {
        const mur_metrics *m = mur_experiment_metrics(e, c, 0, t);
        if (nc > 1) {
            put_csv_text(fp, mur_experiment_condition_name(e, c));
            fputc(',', fp);
        }
        for (int j = 0; sweep_cols && j < s->nsweep; j++)
            if (!series_timed(s->sweep[j], swept, nswept)) {
                put_setting(fp, s->sweep[j], mur_experiment_condition_value(e, c, s->sweep[j]));
                fputc(',', fp);
            }
        fprintf(fp, "%ld", t);
        for (int k = 0; k < MUR_METRIC_COUNT; k++) {
            if (!(kept >> k & 1))
                continue;
            fputc(',', fp);
            put_number(fp, mur_metrics_value(m, k));
        }
        fprintf(fp, ",%s", mur_state_name(mur_state_classify(m->order, m->milling)));
        for (int k = 0; k < MUR_METRIC_COUNT && runs > 1; k++) {
            if (!(kept >> k & 1))
                continue;
            mur_summary sm;
            mur_experiment_summary(e, c, t, k, &sm);
            double v[3] = {sm.median, sm.p10, sm.p90};
            for (int q = 0; q < 3; q++) {
                fputc(',', fp);
                put_number(fp, v[q]);
            }
        }
        mur_params p;
        if (nswept)
            mur_experiment_params_at(e, c, t, &p);
        for (int j = 0; j < nswept; j++) {
            fputc(',', fp);
            if (swept[j]->type == MUR_SETTING_ENUM)
                fputs(mur_setting_choice(swept[j], &p), fp);
            else
                put_number(fp, mur_setting_get(swept[j], &p));
        }
        if (twin)
            twin_columns(fp, e, c, t);
        fputc('\n', fp);
    }
}

/* series's output options (-o, checked before running). */
int mur_cli_series_options(const mur_cli_opts *o)
{
    if (!o->output)
        return mur_cli_usage_error("%s needs -o OUT.csv (or -o - for standard output)", "series");
    if (strcmp(o->output, "-") && strcmp(extension(o->output), ".csv"))
        return mur_cli_usage_error("series output must end in .csv, not '%s'", o->output);
    if (o->plot && !mur_plot_format_ok(o->plot))
        return mur_cli_usage_error("--plot must end in .png, .pdf or .svg, not '%s'", o->plot);
    return 0;
}

int mur_cli_series_outputs(const mur_cli_opts *o, const mur_experiment *e, mur_error *err)
{
    out_file of = {0};
    int rc;
    if (mur_cli_series_options(o))
        return MUR_EINPUT;
    if ((rc = out_open(&of, o->output, err)))
        return rc;
    series_csv(of.fp, e);
    if ((rc = out_close(&of, err)) || (rc = write_sidecar(o->output, e, err))) {
        out_abort(&of);
        return rc;
    }
    int runs = mur_experiment_runs(e);
    if (!o->quiet && strcmp(o->output, "-"))
        fprintf(stderr, "murmur: wrote %s (%ld ticks, %d run%s%s)\n", o->output, mur_experiment_ticks(e), runs,
                runs == 1 ? "" : "s", mur_experiment_conditions(e) > 1 ? " per condition" : "");
    return write_plot(o, mur_experiment_plot_series, e, mur_experiment_scene(e), err);
}

int mur_cmd_series(const mur_cli_opts *o)
{
    mur_error err = {{0}};
    mur_scene *s = NULL;
    mur_experiment *e = NULL;
    mur_experiment_def def = {.version = MUR_EXPERIMENT_DEF_VERSION, .runs = 1, .scene_only = 1, .every_tick = 1};
    if (o->shard_text && (shard_refuses(o) || mur_cli_parse_shard(o->shard_text, &def.shard, &def.shards)))
        return 2;
    if (!o->shard_text && mur_cli_series_options(o))
        return 2;
    int rc = load(o, &def, &s, &err);
    if (rc)
        goto done;
    /* The whole video by default: a series follows the timeline, which is
     * written against the video's clock. */
    def.ticks = (long)floor(s->duration * s->tps + 1e-9);
    if (def.ticks < 1)
        def.ticks = 1;
    if (ticks_option(o, s, &def))
        return 2;
    def.threads = o->threads;
    def.stop = o->stop;
    /* Every condition of the experiment (or the one --condition names); a
     * scene whose only condition changes nothing runs as it always did,
     * as "scene". */
    def.condition = o->condition;
    def.scene_only = !o->condition && s->nconditions == 1 && s->conditions[0].nset == 0;
    if (o->shard_text) {
        if (o->condition && mur_scene_find_condition(s, o->condition, &err) < 0)
            rc = MUR_EINPUT;
        else
            rc = run_shard(o, "series", s, &def, &err);
        goto done;
    }
    const char *outs[] = {o->output, o->plot};
    if ((rc = mur_cli_outputs_ready(outs, 2, &err)))   /* before the first run */
        goto done;
    long total = (long)def.runs * (def.scene_only || o->condition ? 1 : s->nconditions);
    mur_progress bar;
    mur_progress_start(&bar, "runs", total, o->quiet);
    def.progress = on_progress;
    def.progress_ctx = &bar;
    rc = finish_run(mur_experiment_run(&e, s, &def, &err), &bar, total, &err);
    if (!rc)
        rc = mur_cli_series_outputs(o, e, &err);
done:
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
    return mur_cli_report(rc, &err);
}

/* ---- for field.c (stats --correlation, --distribution) -------------------- */

void mur_cli_put_number(FILE *fp, double v) { put_number(fp, v); }

void mur_cli_put_csv_text(FILE *fp, const char *s) { put_csv_text(fp, s); }

void mur_cli_sweep_header(FILE *fp, const mur_scene *s) { sweep_header(fp, s); }

void mur_cli_sweep_values(FILE *fp, const mur_experiment *e, int c) { sweep_values(fp, e, c); }

int mur_cli_write_sidecar(const char *csv_path, const mur_experiment *e, mur_error *err)
{
    return write_sidecar(csv_path, e, err);
}

int mur_cli_run_experiment(const mur_cli_opts *o, mur_experiment **e, const mur_scene *s, mur_experiment_def *def,
                           mur_error *err)
{
    mur_progress bar;
    long total = (long)s->nconditions * (def->runs ? def->runs : s->runs);
    mur_progress_start(&bar, "runs", total, o->quiet);
    def->progress = on_progress;
    def->progress_ctx = &bar;
    return finish_run(mur_experiment_run(e, s, def, err), &bar, total, err);
}
