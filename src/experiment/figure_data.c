/* An experiment's figures as plain tables (murmur/figure_data.h): what
 * src/render/plot.c draws, gathered here so that the figures never read an
 * experiment or a scene. */
#include "murmur/figure_data.h"
#include "murmur/alloc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "murmur/metrics.h"
#include "murmur/twin.h"

#define CUE_LABEL 512

struct mur_figure_data {
    mur_figure f;
    char *provenance;
    mur_figure_condition *conditions;
    mur_summary *summary;
    int grouped[MUR_SCENE_MAX_SWEEP];
    double *sweep_values;
    const mur_setting *swept[MUR_FIGURE_MAX_SWEPT];
    long *sample_ticks;
    mur_figure_track *tracks;
    double *values;              /* every track's and divergence's numbers */
    mur_figure_cue *cues;
    char (*cue_labels)[CUE_LABEL];
    mur_figure_track *divergence;
    double *divergence_range, *doubling, *scratch;
    double sizes[MUR_TWIN_METRIC_COUNT];
    const char *size_names[MUR_TWIN_METRIC_COUNT];
};

/* What a timeline cue changes, as its mark is labelled ("" for a caption alone). */
static void cue_label(const mur_cue *q, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
#define ADD(...)                                                              \
    do {                                                                      \
        if (len < n)                                                          \
            len += (size_t)snprintf(buf + len, n - len, __VA_ARGS__);         \
    } while (0)
    if (q->event != MUR_EVENT_NONE)
        ADD("%s", mur_event_name(q->event));
    for (int i = 0; i < q->nset; i++) {
        const mur_setting *st = q->set[i].setting;
        if (st->type == MUR_SETTING_ENUM) {
            int v = (int)q->set[i].value;
            ADD("%s%s = %s", len ? ", " : "", st->name, v >= 0 ? st->choices[v] : "?");
        } else {
            ADD("%s%s = %g", len ? ", " : "", st->name, q->set[i].value);
        }
    }
    for (int i = 0; i < q->nramp; i++)
        ADD("%s%s \xe2\x86\x92 %g", len ? ", " : "", q->ramp[i].setting->name, q->ramp[i].value);
#undef ADD
}

static int no_memory(mur_error *err) { return mur_error_set(err, MUR_ERUN, "out of memory drawing a figure"); }

/* The conditions, their labels and colours; the stats' summaries and a sweep's grid. */
static int build_stats(mur_figure_data *d, const mur_experiment *e, mur_error *err)
{
    mur_figure *f = &d->f;
    const mur_scene *s = mur_experiment_scene(e);
    const int nc = f->nconditions, n = f->nmetrics;
    if (!(d->summary = mur_calloc((size_t)nc * (size_t)n + 1, sizeof *d->summary)))
        return no_memory(err);
    for (int c = 0; c < nc; c++)
        for (int i = 0; i < n; i++)
            mur_experiment_summary(e, c, f->ticks, f->metrics[i], &d->summary[c * n + i]);
    f->summary = d->summary;
    if (!(s->nsweep && mur_experiment_condition(e, 0) && nc == s->nconditions))
        return MUR_OK;
    if (!(d->sweep_values = mur_calloc((size_t)nc * (size_t)s->nsweep, sizeof *d->sweep_values)))
        return no_memory(err);
    for (int j = 0; j < s->nsweep; j++)
        d->grouped[j] = s->sweep_dim[j] != 0;
    for (int c = 0; c < nc; c++)
        for (int j = 0; j < s->nsweep; j++)
            d->sweep_values[c * s->nsweep + j] = mur_experiment_condition_value(e, c, s->sweep[j]);
    f->nsweep = s->nsweep;
    f->sweep = s->sweep;
    f->sweep_grouped = d->grouped;
    f->sweep_log = s->sweep_log[0];
    f->sweep_values = d->sweep_values;
    return MUR_OK;
}

/* Value of track i of condition c at tick t (metric k, or setting st when k < 0). */
static void track_at(const mur_experiment *e, int c, int k, const mur_setting *st, long t, int runs, double *v)
{
    if (k < 0) {
        v[0] = mur_experiment_setting_at(e, c, st, t);
    } else if (runs > 1) {
        mur_summary sm;
        mur_experiment_summary(e, c, t, k, &sm);
        v[0] = sm.median;
        v[1] = sm.p10;
        v[2] = sm.p90;
    } else {
        v[0] = mur_metrics_value(mur_experiment_metrics(e, c, 0, t), k);
    }
}

/* The series: every stride-th tick (the last included; a column at 300
 * dpi shows no more than MUR_FIGURE_MAX_POINTS), per condition the metrics,
 * the swept settings, order and milling. */
static int build_series(mur_figure_data *d, const mur_experiment *e, mur_error *err)
{
    mur_figure *f = &d->f;
    const int n = f->nmetrics, runs = f->runs;
    const long ticks = f->ticks;
    long stride = (ticks + MUR_FIGURE_MAX_POINTS - 1) / MUR_FIGURE_MAX_POINTS;
    stride = stride > 0 ? stride : 1;
    const long last = (ticks + stride - 1) / stride;
    f->nswept = mur_experiment_swept(e, d->swept, MUR_FIGURE_MAX_SWEPT);
    f->swept = d->swept;
    const int per = n + f->nswept + 2, ntracks = per * f->nconditions;
    size_t len = (size_t)last + 1;
    d->sample_ticks = mur_calloc(len, sizeof *d->sample_ticks);
    d->tracks = mur_calloc((size_t)ntracks, sizeof *d->tracks);
    d->values = mur_calloc(len * 3 * (size_t)ntracks, sizeof *d->values);
    if (!d->sample_ticks || !d->tracks || !d->values)
        return no_memory(err);
    for (long j = 0; j <= last; j++)
        d->sample_ticks[j] = j * stride < ticks ? j * stride : ticks;
    for (int c = 0; c < f->nconditions; c++)
        for (int i = 0; i < per; i++) {
            int k = i < n ? f->metrics[i] : i == n + f->nswept ? mur_metric_find("order")
                                          : i == n + f->nswept + 1 ? mur_metric_find("milling") : -1;
            double *mid = d->values + len * 3 * (size_t)(c * per + i);
            mur_figure_track *t = &d->tracks[c * per + i];
            t->mid = mid;
            if (k >= 0 && runs > 1) {
                t->lo = mid + len;
                t->hi = mid + 2 * len;
            }
            for (long j = 0; j <= last; j++) {
                double v[3] = {0, 0, 0};
                track_at(e, c, k, k < 0 ? d->swept[i - n] : NULL, d->sample_ticks[j], runs, v);
                mid[j] = v[0];
                if (t->lo) {
                    mid[len + (size_t)j] = v[1];
                    mid[2 * len + (size_t)j] = v[2];
                }
            }
        }
    f->nsamples = (long)len;
    f->sample_ticks = d->sample_ticks;
    f->tracks = d->tracks;
    return MUR_OK;
}

/* The timeline's cues, each with what it changes. */
static int build_cues(mur_figure_data *d, const mur_scene *s, mur_error *err)
{
    d->cues = mur_calloc((size_t)s->ncues + 1, sizeof *d->cues);
    d->cue_labels = mur_calloc((size_t)s->ncues + 1, sizeof *d->cue_labels);
    if (!d->cues || !d->cue_labels)
        return no_memory(err);
    for (int i = 0; i < s->ncues; i++) {
        const mur_cue *q = &s->cues[i];
        cue_label(q, d->cue_labels[i], sizeof d->cue_labels[i]);
        d->cues[i] = (mur_figure_cue){q->at, q->nramp ? q->over : 0, d->cue_labels[i]};
    }
    d->f.ncues = s->ncues;
    d->f.cues = d->cues;
    return MUR_OK;
}

/* The twins' divergence: per condition the runs' p10, median and p90 at
 * every tick, its range, its median doubling time; the rows' sizes. */
static int build_divergence(mur_figure_data *d, const mur_experiment *e, mur_error *err)
{
    mur_figure *f = &d->f;
    const int nc = f->nconditions, runs = f->runs;
    const size_t len = (size_t)f->ticks + 1;
    if (!mur_experiment_twin(e, 0, 0, 0))
        return mur_error_set(err, MUR_EINPUT, "a divergence figure needs an experiment with a twin");
    d->divergence = mur_calloc((size_t)nc, sizeof *d->divergence);
    d->divergence_range = mur_calloc(2 * (size_t)nc, sizeof *d->divergence_range);
    d->doubling = mur_calloc((size_t)nc, sizeof *d->doubling);
    d->scratch = mur_calloc((size_t)runs + 1, sizeof *d->scratch);
    double *v = mur_calloc(len * 3 * (size_t)nc, sizeof *v);
    if (!d->divergence || !d->divergence_range || !d->doubling || !d->scratch || !v) {
        mur_free(v);
        return no_memory(err);
    }
    mur_free(d->values);   /* a divergence figure has no series */
    d->values = v;
    for (int c = 0; c < nc; c++) {
        double *lo = v + len * 3 * (size_t)c, *mid = lo + len, *hi = mid + len, small = 1e300, large = 0;
        d->divergence[c] = (mur_figure_track){mid, lo, hi};
        for (long t = 0; t < (long)len; t++) {
            for (int r = 0; r < runs; r++) {
                double x = d->scratch[r] = mur_experiment_twin(e, c, r, t)->divergence.rms;
                small = x > 0 && x < small ? x : small;
                large = x > large ? x : large;
            }
            mur_summary m;
            mur_summary_compute(&m, d->scratch, runs);
            lo[t] = m.p10;
            mid[t] = m.median;
            hi[t] = m.p90;
        }
        d->divergence_range[2 * c] = small < 1e300 ? small : 0;
        d->divergence_range[2 * c + 1] = large;
        mur_summary m;
        int censored;
        mur_experiment_twin_summary(e, c, 0, &m, &censored);
        d->doubling[c] = m.median;
    }
    for (int k = 1; k < MUR_TWIN_METRIC_COUNT; k++) {
        d->sizes[k - 1] = mur_twin_size(k);
        d->size_names[k - 1] = mur_twin_metric_name(k) + strlen("ticks_to_");
    }
    f->divergence = d->divergence;
    f->divergence_range = d->divergence_range;
    f->doubling = d->doubling;
    f->nsizes = MUR_TWIN_METRIC_COUNT - 1;
    f->sizes = d->sizes;
    f->size_names = d->size_names;
    return MUR_OK;
}

/* What every figure reads: the file's title and provenance, the conditions, the counts. */
static int build_common(mur_figure_data *d, const mur_experiment *e, const int *metrics, int n, mur_error *err)
{
    const mur_scene *s = mur_experiment_scene(e);
    mur_figure *f = &d->f;
    int rc = mur_experiment_provenance(e, 0, &d->provenance, err);
    if (rc)
        return rc;
    *f = (mur_figure){.version = MUR_FIGURE_VERSION, .title = s->title, .provenance = d->provenance,
                      .nconditions = mur_experiment_conditions(e), .runs = mur_experiment_runs(e),
                      .ticks = mur_experiment_ticks(e), .tps = s->tps, .seed = s->seed, .theme = s->theme,
                      .metrics = metrics,
                      .nmetrics = n, .baseline = s->baseline, .effect_level = MUR_EFFECT_LEVEL};
    if (!(d->conditions = mur_calloc((size_t)f->nconditions + 1, sizeof *d->conditions)))
        return no_memory(err);
    for (int c = 0; c < f->nconditions; c++) {
        const mur_condition *q = mur_experiment_condition(e, c);
        mur_figure_condition *out = &d->conditions[c];
        out->name = mur_experiment_condition_name(e, c);
        out->label = q && q->label ? q->label : NULL;
        out->has_colour = q && q->has_colour;
        if (out->has_colour) {
            out->colour[0] = q->colour.r;
            out->colour[1] = q->colour.g;
            out->colour[2] = q->colour.b;
        }
    }
    f->conditions = d->conditions;
    return MUR_OK;
}

int mur_figure_data_build(mur_figure_data **out, const mur_experiment *e, unsigned kinds, const int *metrics,
                          int n, const mur_effect *eff, mur_error *err)
{
    *out = NULL;
    if ((kinds & MUR_FIGURE_SERIES) && !mur_experiment_every_tick(e))
        return mur_error_set(err, MUR_EINPUT, "a series figure needs every tick of the experiment");
    mur_figure_data *d = mur_calloc(1, sizeof *d);
    if (!d)
        return no_memory(err);
    int rc = build_common(d, e, metrics, n, err);
    if (!rc && (kinds & MUR_FIGURE_STATS))
        rc = build_stats(d, e, err);
    if (!rc && (kinds & MUR_FIGURE_SERIES) && !(rc = build_series(d, e, err)))
        rc = build_cues(d, mur_experiment_scene(e), err);
    if (!rc && (kinds & MUR_FIGURE_EFFECTS))
        d->f.effects = eff;
    if (!rc && (kinds & MUR_FIGURE_DIVERGENCE))
        rc = build_divergence(d, e, err);
    if (rc) {
        mur_figure_data_free(d);
        return rc;
    }
    *out = d;
    return MUR_OK;
}

const mur_figure *mur_figure_data_figure(const mur_figure_data *d) { return &d->f; }

void mur_figure_data_free(mur_figure_data *d)
{
    if (!d)
        return;
    mur_free(d->provenance);
    mur_free(d->conditions);
    mur_free(d->summary);
    mur_free(d->sweep_values);
    mur_free(d->sample_ticks);
    mur_free(d->tracks);
    mur_free(d->values);
    mur_free(d->cues);
    mur_free(d->cue_labels);
    mur_free(d->divergence);
    mur_free(d->divergence_range);
    mur_free(d->doubling);
    mur_free(d->scratch);
    mur_free(d);
}

/* ---- one call each ---------------------------------------------------------- */

typedef int (*plot_fn)(const char *path, const mur_figure *d, mur_error *err);

static int plot(const char *path, const mur_experiment *e, unsigned kind, const int *metrics, int n,
                const mur_effect *eff, plot_fn draw, mur_error *err)
{
    if (!mur_plot_format_ok(path))
        return mur_error_set(err, MUR_EINPUT, "a figure must end in .png, .pdf or .svg, not '%s'", path);
    mur_figure_data *d = NULL;
    int rc = mur_figure_data_build(&d, e, kind, metrics, n, eff, err);
    if (!rc)
        rc = draw(path, &d->f, err);
    mur_figure_data_free(d);
    return rc;
}

int mur_experiment_plot_series(const char *path, const mur_experiment *e, const int *metrics, int n,
                               mur_error *err)
{
    if (mur_plot_format_ok(path) && mur_experiment_every_tick(e) && n < 1)
        return mur_error_set(err, MUR_EINPUT, "a series figure needs at least one metric");
    return plot(path, e, MUR_FIGURE_SERIES, metrics, n, NULL, mur_plot_series, err);
}

int mur_experiment_plot_stats(const char *path, const mur_experiment *e, const int *metrics, int n,
                              mur_error *err)
{
    if (mur_plot_format_ok(path) && n < 1)
        return mur_error_set(err, MUR_EINPUT, "a stats figure needs at least one metric");
    return plot(path, e, MUR_FIGURE_STATS, metrics, n, NULL, mur_plot_stats, err);
}

int mur_experiment_plot_effects(const char *path, const mur_experiment *e, const int *metrics, int n,
                                const mur_effect *eff, mur_error *err)
{
    if (mur_plot_format_ok(path) && (n < 1 || mur_experiment_conditions(e) < 2))
        return mur_error_set(err, MUR_EINPUT, "an effects figure needs two conditions or more and a metric");
    return plot(path, e, MUR_FIGURE_EFFECTS, metrics, n, eff, mur_plot_effects, err);
}

int mur_experiment_plot_divergence(const char *path, const mur_experiment *e, mur_error *err)
{
    return plot(path, e, MUR_FIGURE_DIVERGENCE, NULL, 0, NULL, mur_plot_divergence, err);
}
