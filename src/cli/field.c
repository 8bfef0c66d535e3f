/* `murmur stats --correlation`, `--distribution` and `--anisotropy`: what
 * the field's measures rest on, over an ensemble, in place of the summary
 * table. --anisotropy: gamma(n) (docs/model.md#anisotropy) of every run at
 * the measured tick(s), n = 1 .. MUR_ANISOTROPY_N, as --correlation's bins
 * (one a rank), each run's own number its n_c.
 *
 * --correlation: C(r) of the velocity fluctuations (docs/model.md
 * #correlation_length) of every run at the measured tick (the last, or
 * each sample of measure.window, averaged), in the bins the scene's
 * experiment.measure gives (or --bin); per condition and bin, the median
 * and 10-90% band across runs. --distribution Q: a per-boid quantity
 * (mur_boid_quantity) of every boid of every run at the measured tick(s),
 * binned: the pooled histogram as a density, and each run's density's
 * median and band. Both ride the experiment's caller statistic (def.extra):
 * each job fills only its own slot, so the numbers do not depend on the
 * threads. -o writes the bins as CSV (docs/data.md), --plot the figure
 * (murmur/chart.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "murmur/alloc.h"
#include "murmur/chart.h"
#include "murmur/experiment.h"
#include "murmur/file.h"
#include "murmur/limits.h"
#include "murmur/plot.h"
#include "murmur/version.h"

/* ---- options -------------------------------------------------------------- */

static const char *extension(const char *path)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot : "";
}

/* --bin's width, or 0 when not given; -1 when bad (said). */
static double bin_option(const mur_cli_opts *o)
{
    if (!o->bin_text)
        return 0;
    char *end;
    double v = strtod(o->bin_text, &end);
    if (end == o->bin_text || *end || !isfinite(v) || v <= 0) {
        mur_cli_usage_error("--bin must be a width above 0 (a bin of zero width holds nothing), not '%s'",
                            o->bin_text);
        return -1;
    }
    return v;
}

int mur_cli_field_options(const mur_cli_opts *o)
{
    if (!o->correlation && !o->distribution && !o->anisotropy)
        return o->bin_text ? mur_cli_usage_error("--bin is for --correlation or --distribution, not '%s' alone",
                                                 o->bin_text)
                           : 0;
    if (o->correlation + !!o->distribution + o->anisotropy > 1)
        return mur_cli_usage_error("--correlation, --distribution and --anisotropy are each a run of their own: "
                                   "give one, not %s", o->anisotropy ? "--anisotropy with another" : "both");
    if (o->anisotropy && o->bin_text)
        return mur_cli_usage_error("--anisotropy's bins are the neighbours' ranks 1 to " MUR_STR(MUR_ANISOTROPY_N)
                                   ": no --bin '%s'", o->bin_text);
    if (o->distribution && mur_boid_quantity_find(o->distribution) < 0) {
        char names[256] = "";
        for (int k = 0; k < MUR_BOID_QUANTITY_COUNT; k++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "",
                     mur_boid_quantity_at(k)->name);
        fprintf(stderr, "murmur: error: --distribution takes a per-boid quantity: %s; not '%s'\n", names,
                o->distribution);
        return 2;
    }
    const char *with = o->shard_text ? "--shard" : o->json ? "--json" : o->runs_out ? "--runs-out"
                     : o->plot_effects ? "--plot-effects" : NULL;
    if (with)
        return mur_cli_usage_error("%s is for the summary table, not with --correlation, --distribution or "
                                   "--anisotropy", with);
    if (o->output && strcmp(o->output, "-") && strcmp(extension(o->output), ".csv"))
        return mur_cli_usage_error("--correlation, --distribution and --anisotropy write .csv, not '%s'", o->output);
    if (o->plot && !mur_plot_format_ok(o->plot))
        return mur_cli_usage_error("--plot must end in .png, .pdf or .svg, not '%s'", o->plot);
    return bin_option(o) < 0 ? 2 : 0;
}

void mur_cli_figure_footer(const mur_cli_opts *o, const mur_scene *s)
{
    char text[1024];
    if (o->plot_provenance)
        snprintf(text, sizeof text, "murmur %s \xc2\xb7 seed %llu \xc2\xb7 %s", mur_version(),
                 (unsigned long long)s->seed, s->path);
    mur_chart_set_footer(o->plot_provenance ? text : NULL);
}

/* ---- what each run gives ------------------------------------------------- */

typedef struct {
    double *sum, *samples, *pairs;   /* --correlation (--anisotropy): per bin (rank), summed over the samples */
    double *v;                       /* --distribution: every boid's value at every sample */
    size_t n, cap;
} slot;

typedef struct {
    const mur_scene *s;
    int quantity;          /* --distribution's, else -1 */
    int aniso;             /* --anisotropy: the bins are ranks n = 1 .. nbins (bin 1) */
    double bin;            /* --correlation's */
    int nbins;
    int runs;
    slot *slots;           /* [condition * runs + run] */
    double *scratch;       /* unused: each call has its own */
} field;

/* A run's metrics scratch, measuring as the scene's experiment does. */
static mur_metrics_ctx *scratch_of(const field *fx)
{
    mur_metrics_ctx *mc = mur_metrics_ctx_create();
    if (mc)
        mur_metrics_ctx_set_radius(mc, fx->s->measure.radius);
    return mc;
}

/* A slot's per-bin sums, samples and pairs (nb each), made at its first sample. */
static int slot_bins(slot *sl, size_t nb)
{
    if (!sl->sum && (!(sl->sum = mur_calloc(3 * nb, sizeof *sl->sum))))
        return -1;
    sl->samples = sl->sum + nb;
    sl->pairs = sl->sum + 2 * nb;
    return 0;
}

static int correlation_sample(field *fx, slot *sl, const mur_flock *f, double *out)
{
    size_t nb = (size_t)fx->nbins;
    if (slot_bins(sl, nb))
        return -1;
    double *c = mur_malloc(2 * nb * sizeof *c);
    mur_metrics_ctx *mc = scratch_of(fx);
    int rc = !c || !mc || mur_metrics_correlation(mc, f, fx->bin, fx->nbins, c, c + nb);
    for (size_t k = 0; !rc && k < nb; k++) {
        if (!isnan(c[k])) {
            sl->sum[k] += c[k];
            sl->samples[k] += 1;
        }
        sl->pairs[k] += c[nb + k];
    }
    if (!rc)
        out[0] = mur_correlation_zero(c, fx->nbins, fx->bin);
    mur_free(c);
    mur_metrics_ctx_destroy(mc);
    return rc ? -1 : 0;
}

/* --anisotropy: gamma(n) of the sample into the rank's sum (NaN skipped);
 * the run's own number is the n_c of its curve. */
static int anisotropy_sample(field *fx, slot *sl, const mur_flock *f, double *out)
{
    size_t nb = (size_t)fx->nbins;
    if (slot_bins(sl, nb))
        return -1;
    double g[MUR_ANISOTROPY_N];
    mur_metrics_ctx *mc = scratch_of(fx);
    int rc = !mc || mur_metrics_anisotropy(mc, f, g);
    for (size_t k = 0; !rc && k < nb; k++)
        if (!isnan(g[k])) {
            sl->sum[k] += g[k];
            sl->samples[k] += 1;
        }
    if (!rc)
        out[0] = mur_anisotropy_range(g, MUR_ANISOTROPY_N, mur_flock_dimensions(f));
    mur_metrics_ctx_destroy(mc);
    return rc ? -1 : 0;
}

static int distribution_sample(field *fx, slot *sl, const mur_flock *f, double *out)
{
    size_t n = (size_t)mur_flock_count(f);
    if (sl->n + n > sl->cap) {
        size_t cap = (sl->n + n) * 2;
        double *v = mur_realloc(sl->v, cap * sizeof *v);
        if (!v)
            return -1;
        sl->v = v;
        sl->cap = cap;
    }
    mur_metrics_ctx *mc = scratch_of(fx);
    int rc = !mc || mur_metrics_per_boid(mc, f, fx->quantity, sl->v + sl->n);
    double mean = 0;
    for (size_t i = 0; !rc && i < n; i++)
        mean += sl->v[sl->n + i] / (double)n;
    if (!rc)
        sl->n += n;
    out[0] = n ? mean : NAN;
    mur_metrics_ctx_destroy(mc);
    return rc ? -1 : 0;
}

/* def.extra: on a worker thread, into job (c, run)'s own slot. */
static int field_extra(void *ctx, const mur_flock *f, int c, int run, double *out)
{
    field *fx = ctx;
    slot *sl = &fx->slots[(size_t)c * (size_t)fx->runs + (size_t)run];
    return fx->aniso ? anisotropy_sample(fx, sl, f, out)
         : fx->quantity < 0 ? correlation_sample(fx, sl, f, out) : distribution_sample(fx, sl, f, out);
}

static void field_free(field *fx, int njobs)
{
    for (int j = 0; fx->slots && j < njobs; j++) {
        mur_free(fx->slots[j].sum);
        mur_free(fx->slots[j].v);
    }
    mur_free(fx->slots);
}

/* ---- the bins ------------------------------------------------------------- */

/* 1, 2 or 5 times a power of ten near range / want. */
static double nice_width(double range, int want)
{
    if (!(range > 0) || !isfinite(range))
        return 1;
    double raw = range / want, mag = pow(10, floor(log10(raw))), norm = raw / mag;
    return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

/* --correlation's bins: --bin or measure.correlation_bin, up to
 * measure.correlation_range, by default of the scene's measuring radius
 * (measure.radius, else its flock's cohesion radius). -1 when too many. */
static int correlation_bins(const mur_cli_opts *o, const mur_scene *s, field *fx)
{
    double R = s->measure.radius > 0 ? s->measure.radius : s->params.cohesion_radius;
    double w = bin_option(o) > 0 ? bin_option(o) : s->measure.correlation_bin > 0 ? s->measure.correlation_bin : R / 4;
    double range = s->measure.correlation_range > 0 ? s->measure.correlation_range : 10 * R;
    double k = ceil(range / w - 1e-9);
    if (!(w > 0) || k > MUR_CORRELATION_BINS) {
        char what[96];
        snprintf(what, sizeof what, "%g", w);
        mur_cli_usage_error("--bin %s makes more than " MUR_STR(MUR_CORRELATION_BINS) " bins of C(r): widen it", what);
        return -1;
    }
    fx->bin = w;
    fx->nbins = k < 1 ? 1 : (int)k;
    return 0;
}

/* A histogram's bins over every value the runs gave: from 0 (a whole
 * number's centred on 0, 1, ...) past the largest, --bin wide or about 30
 * of them up to the 99th percentile (1 for whole numbers). */
typedef struct {
    double lo, w;
    int nbins;
    double p99;   /* the values' 99th percentile: where the figure's axis ends */
} hist_bins;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The 99th percentile of every finite value of the runs (0 when none). */
static double top_percentile(const field *fx, int njobs)
{
    size_t n = 0, k = 0;
    for (int j = 0; j < njobs; j++)
        n += fx->slots[j].n;
    double *all = n ? mur_malloc(n * sizeof *all) : NULL, p = 0;
    for (int j = 0; all && j < njobs; j++)
        for (size_t i = 0; i < fx->slots[j].n; i++)
            if (isfinite(fx->slots[j].v[i]))
                all[k++] = fx->slots[j].v[i];
    if (all && k) {
        qsort(all, k, sizeof *all, cmp_double);
        p = all[(size_t)floor(0.99 * (double)(k - 1))];
    }
    mur_free(all);
    return p;
}

static int histogram_bins(const mur_cli_opts *o, const field *fx, int njobs, hist_bins *hb)
{
    const mur_boid_quantity *q = mur_boid_quantity_at(fx->quantity);
    double top = 0;
    for (int j = 0; j < njobs; j++)
        for (size_t i = 0; i < fx->slots[j].n; i++)
            if (isfinite(fx->slots[j].v[i]))
                top = fmax(top, fx->slots[j].v[i]);
    hb->p99 = top_percentile(fx, njobs);   /* a far outlier sets neither the bins nor the axis */
    hb->w = bin_option(o) > 0 ? bin_option(o) : q->whole ? 1 : nice_width(hb->p99 > 0 ? hb->p99 : top, 30);
    hb->lo = q->whole ? -hb->w / 2 : 0;
    double k = floor((top - hb->lo) / hb->w) + 1;
    if (k > MUR_CORRELATION_BINS) {
        fprintf(stderr, "murmur: error: --bin %g makes %.0f bins up to %g (at most %d): widen it\n", hb->w, k, top,
                MUR_CORRELATION_BINS);
        return -1;
    }
    hb->nbins = (int)k;
    return 0;
}

/* ---- results -------------------------------------------------------------- */

/* Per condition and bin: the median and band across runs (their values
 * v[r], NaN skipped), and a pooled number. */
typedef struct {
    double x, lo_edge, hi_edge;   /* the bin's centre and edges */
    double median, p10, p90, pooled;
    int runs;
} bin_row;

static void summarise(double *v, int n, bin_row *b)
{
    int m = 0;
    for (int r = 0; r < n; r++)
        if (isfinite(v[r]))
            v[m++] = v[r];
    mur_summary sm;
    mur_summary_compute(&sm, v, m);
    b->median = sm.median;
    b->p10 = sm.p10;
    b->p90 = sm.p90;
    b->runs = m;
}

/* rows[c * nbins + k] for --correlation: pooled = the pairs the bin held. */
static void correlation_rows(const field *fx, const mur_experiment *e, bin_row *rows, double *v)
{
    int nc = mur_experiment_conditions(e), nb = fx->nbins;
    for (int c = 0; c < nc; c++)
        for (int k = 0; k < nb; k++) {
            bin_row *b = &rows[c * nb + k];
            int runs = mur_experiment_condition_runs(e, c);
            b->pooled = 0;
            for (int r = 0; r < runs; r++) {
                const slot *sl = &fx->slots[c * fx->runs + r];
                v[r] = sl->sum && sl->samples[k] > 0 ? sl->sum[k] / sl->samples[k] : NAN;
                b->pooled += sl->sum ? sl->pairs[k] : 0;
            }
            summarise(v, runs, b);
            b->x = fx->aniso ? k + 1 : (k + 0.5) * fx->bin;
            b->lo_edge = fx->aniso ? k + 1 : k * fx->bin;
            b->hi_edge = fx->aniso ? k + 1 : (k + 1) * fx->bin;
        }
}

/* rows for --distribution: pooled = the pooled count; the band is of each
 * run's density (its count / (its values x w)). dens: runs x nbins scratch. */
static void distribution_rows(const field *fx, const mur_experiment *e, const hist_bins *hb, bin_row *rows,
                              double *v, double *dens)
{
    int nc = mur_experiment_conditions(e), nb = hb->nbins;
    for (int c = 0; c < nc; c++) {
        int runs = mur_experiment_condition_runs(e, c);
        for (int k = 0; k < nb; k++)
            rows[c * nb + k].pooled = 0;
        for (int r = 0; r < runs; r++) {
            const slot *sl = &fx->slots[c * fx->runs + r];
            double *d = dens + (size_t)r * nb;
            for (int k = 0; k < nb; k++)
                d[k] = 0;
            for (size_t i = 0; i < sl->n; i++) {
                double t = floor((sl->v[i] - hb->lo) / hb->w);
                if (t >= 0 && t < nb)
                    d[(int)t] += 1;
            }
            for (int k = 0; k < nb; k++) {
                rows[c * nb + k].pooled += d[k];
                d[k] = sl->n ? d[k] / ((double)sl->n * hb->w) : NAN;
            }
        }
        for (int k = 0; k < nb; k++) {
            for (int r = 0; r < runs; r++)
                v[r] = dens[(size_t)r * nb + k];
            bin_row *b = &rows[c * nb + k];
            summarise(v, runs, b);
            b->lo_edge = hb->lo + k * hb->w;
            b->hi_edge = b->lo_edge + hb->w;
            b->x = b->lo_edge + hb->w / 2;
        }
    }
}

/* ---- writing -------------------------------------------------------------- */

typedef struct {
    const field *fx;
    const mur_experiment *e;
    const bin_row *rows;
    int nbins;
    double total_w;   /* --distribution: w, for the pooled density */
    double x_max;     /* --distribution: the figure's axis ends here (NaN: at the data's end) */
} table;

static void write_csv(FILE *fp, const table *t)
{
    const mur_scene *s = mur_experiment_scene(t->e);
    int dist = t->fx->quantity >= 0;
    fputs("condition", fp);
    mur_cli_sweep_header(fp, s);
    fputs(dist ? ",quantity,low,high,count,density,median,p10,p90,runs\n"
               : t->fx->aniso ? ",n,median,p10,p90,runs\n" : ",r,median,p10,p90,runs,pairs\n", fp);
    for (int c = 0; c < mur_experiment_conditions(t->e); c++) {
        double total = 0;
        for (int k = 0; dist && k < t->nbins; k++)
            total += t->rows[c * t->nbins + k].pooled;
        for (int k = 0; k < t->nbins; k++) {
            const bin_row *b = &t->rows[c * t->nbins + k];
            mur_cli_put_csv_text(fp, mur_experiment_condition_name(t->e, c));
            mur_cli_sweep_values(fp, t->e, c);
            double dv[] = {b->lo_edge, b->hi_edge, b->pooled, total > 0 ? b->pooled / (total * t->total_w) : NAN};
            if (dist) {
                fprintf(fp, ",%s", mur_boid_quantity_at(t->fx->quantity)->name);
                for (int q = 0; q < 4; q++) {
                    fputc(',', fp);
                    mur_cli_put_number(fp, dv[q]);
                }
            } else {
                fputc(',', fp);
                mur_cli_put_number(fp, b->x);
            }
            double v[3] = {b->median, b->p10, b->p90};
            for (int q = 0; q < 3; q++) {
                fputc(',', fp);
                mur_cli_put_number(fp, v[q]);
            }
            fprintf(fp, ",%d", b->runs);
            if (!dist && !t->fx->aniso) {
                fputc(',', fp);
                mur_cli_put_number(fp, b->pooled);
            }
            fputc('\n', fp);
        }
    }
}

static int write_file(const mur_cli_opts *o, const table *t, mur_error *err)
{
    if (!strcmp(o->output, "-")) {
        write_csv(stdout, t);
        return fflush(stdout) ? mur_error_set(err, MUR_ERUN, "cannot write to standard output") : MUR_OK;
    }
    mur_atomic a;
    int rc = mur_atomic_begin(&a, o->output, 0, err);
    if (rc || !mur_atomic_fopen(&a, "w", err)) {
        mur_atomic_abort(&a);
        return rc ? rc : MUR_ERUN;
    }
    write_csv(a.fp, t);
    if ((rc = mur_atomic_commit(&a, err)) || (rc = mur_cli_write_sidecar(o->output, t->e, err)))
        return rc;
    if (!o->quiet)
        fprintf(stderr, "murmur: wrote %s\n", o->output);
    return MUR_OK;
}

/* --anisotropy: n_c of a run's curve, gamma(n) averaged over its samples. */
static double curve_range(const field *fx, const slot *sl, int dimensions)
{
    double g[MUR_ANISOTROPY_N];
    for (int k = 0; k < fx->nbins && k < MUR_ANISOTROPY_N; k++)
        g[k] = sl->sum && sl->samples[k] > 0 ? sl->sum[k] / sl->samples[k] : NAN;
    return mur_anisotropy_range(g, fx->nbins < MUR_ANISOTROPY_N ? fx->nbins : MUR_ANISOTROPY_N, dimensions);
}

/* The table on stdout: per condition, the runs' own number (def.extra's:
 * the zero of each run's C(r), or each run's mean of the quantity; the n_c
 * of each run's mean gamma(n)). */
static void print_table(const table *t)
{
    const mur_experiment *e = t->e;
    const mur_scene *s = mur_experiment_scene(e);
    int dist = t->fx->quantity >= 0;
    int aniso = t->fx->aniso;
    const char *what = dist ? mur_boid_quantity_at(t->fx->quantity)->name
                     : aniso ? "anisotropy_n" : "correlation_length";
    printf("%s: %s of %d condition%s x %d runs, values after %ld ticks", s->title ? s->title : s->path,
           dist ? "distribution" : aniso ? "gamma(n)" : "C(r)", mur_experiment_conditions(e),
           mur_experiment_conditions(e) == 1 ? "" : "s", mur_experiment_runs(e), mur_experiment_ticks(e));
    if (aniso)
        printf("; n = 1 to %d", t->nbins);
    else if (!dist)
        printf("; bins of %g up to %g world units", t->fx->bin, t->fx->bin * t->fx->nbins);
    printf("\n%-24s %-20s %10s %10s %10s\n", "condition", dist ? "mean of a run" : "metric", "median", "p10", "p90");
    double *v = mur_malloc((size_t)mur_experiment_runs(e) * sizeof *v);
    for (int c = 0; v && c < mur_experiment_conditions(e); c++) {
        int runs = mur_experiment_condition_runs(e, c);
        for (int r = 0; r < runs; r++)
            v[r] = aniso ? curve_range(t->fx, &t->fx->slots[c * t->fx->runs + r], s->params.dimensions)
                         : mur_experiment_extra(e, c, r, 0);
        bin_row b;
        summarise(v, runs, &b);
        printf("%-24s %-20s %10.4g %10.4g %10.4g", mur_experiment_condition_name(e, c), what, b.median, b.p10, b.p90);
        if (b.runs < runs)
            printf(aniso ? "  (%d of %d runs: gamma(n) stays off 1/D up to n = 20)"
                         : "  (%d of %d runs: C(r) stays above 0 within the range)", runs - b.runs, runs);
        putchar('\n');
    }
    for (int c = 0; aniso && c < mur_experiment_conditions(e); c++) {   /* the curve itself */
        printf("%-24s %-6s %10s %10s %10s\n", mur_experiment_condition_name(e, c), "n", "gamma", "p10", "p90");
        for (int k = 0; k < t->nbins; k++) {
            const bin_row *b = &t->rows[c * t->nbins + k];
            printf("%-24s %-6d %10.4g %10.4g %10.4g\n", "", k + 1, b->median, b->p10, b->p90);
        }
    }
    mur_free(v);
}

/* The figure: each condition's median with its band (at most 16). */
static int draw_figure(const mur_cli_opts *o, const table *t, mur_error *err)
{
    const mur_experiment *e = t->e;
    int nc = mur_experiment_conditions(e), n = nc < 16 ? nc : 16, nb = t->nbins, dist = t->fx->quantity >= 0;
    if (nc > n)
        fprintf(stderr, "murmur: warning: the figure draws the first 16 of %d conditions\n", nc);
    mur_curve cv[16];
    double *x = mur_malloc((size_t)nb * 4 * (size_t)n * sizeof *x);
    char *meta = NULL;
    int rc = x ? mur_experiment_provenance(e, 0, &meta, err) : mur_error_set(err, MUR_ERUN, "out of memory");
    for (int c = 0; !rc && c < n; c++) {
        double *cx = x + (size_t)c * 4 * nb, total = 0;
        for (int k = 0; k < nb; k++)
            total += t->rows[c * nb + k].pooled;
        for (int k = 0; k < nb; k++) {
            const bin_row *b = &t->rows[c * nb + k];
            cx[k] = b->x;
            cx[nb + k] = dist ? (total > 0 ? b->pooled / (total * t->total_w) : NAN) : b->median;
            cx[2 * nb + k] = b->p10;
            cx[3 * nb + k] = b->p90;
        }
        const mur_condition *q = mur_experiment_condition(e, c);
        cv[c] = (mur_curve){q && q->label ? q->label : mur_experiment_condition_name(e, c), q && q->has_colour,
                            {q ? q->colour.r : 0, q ? q->colour.g : 0, q ? q->colour.b : 0}, nb, cx, cx + nb,
                            cx + 2 * nb, cx + 3 * nb};
        if (nc == 1)
            cv[c].label = NULL;
    }
    char heading[160], xl[96], yl[96];
    const mur_boid_quantity *bq = dist ? mur_boid_quantity_at(t->fx->quantity) : NULL;
    int aniso = t->fx->aniso;
    snprintf(heading, sizeof heading, dist ? "%d runs pooled; band: 10\xe2\x80\x93" "90%% of the runs'"
                                    : aniso ? "\xce\xb3(n): median and 10\xe2\x80\x93" "90%% of %d runs"
                                            : "C(r): median and 10\xe2\x80\x93" "90%% of %d runs",
             mur_experiment_runs(e));
    snprintf(xl, sizeof xl, dist ? "%s (%s)" : aniso ? "n (neighbour's rank)%s%s" : "r (world units)%s%s",
             dist ? bq->title : "", dist ? bq->unit : "");
    if (dist && bq->whole)
        snprintf(yl, sizeof yl, "share of boids");
    else
        snprintf(yl, sizeof yl, dist ? "density (per %s)" : aniso ? "\xce\xb3(n)%s" : "C(r)%s", dist ? bq->unit : "");
    mur_curves cs = {heading, xl, yl, cv, n, dist ? t->total_w : 0, !dist, NAN, t->x_max};
    mur_chart_doc doc = {mur_experiment_scene(e)->title, meta};
    if (!rc)
        rc = mur_chart_curves(o->plot, &cs, &doc, err);
    if (!rc && !o->quiet)
        fprintf(stderr, "murmur: wrote %s\n", o->plot);
    mur_free(meta);
    mur_free(x);
    return rc;
}

/* ---- the run -------------------------------------------------------------- */

/* After the runs: the bins, their rows, and what they go to. */
static int field_outputs(const mur_cli_opts *o, field *fx, const mur_experiment *e, mur_error *err)
{
    int njobs = mur_experiment_conditions(e) * fx->runs, nb = fx->nbins;
    hist_bins hb = {0, 1, 0, 0};
    if (fx->quantity >= 0) {
        if (histogram_bins(o, fx, njobs, &hb))
            return MUR_EINPUT;
        nb = hb.nbins;
    }
    size_t nrows = (size_t)mur_experiment_conditions(e) * (size_t)nb;
    bin_row *rows = mur_calloc(nrows, sizeof *rows);
    double *v = mur_malloc((size_t)fx->runs * sizeof *v);
    double *dens = fx->quantity >= 0 ? mur_malloc((size_t)fx->runs * (size_t)nb * sizeof *dens) : NULL;
    int rc = MUR_OK;
    if (!rows || !v || (fx->quantity >= 0 && !dens)) {
        rc = mur_error_set(err, MUR_ERUN, "out of memory for %zu bins", nrows);
        goto done;
    }
    if (fx->quantity >= 0)
        distribution_rows(fx, e, &hb, rows, v, dens);
    else
        correlation_rows(fx, e, rows, v);
    table t = {fx, e, rows, nb, hb.w, fx->quantity >= 0 ? hb.p99 + 2 * hb.w : NAN};
    if (!o->quiet || !o->output)
        print_table(&t);
    if (o->output && (rc = write_file(o, &t, err)))
        goto done;
    if (o->plot)
        rc = draw_figure(o, &t, err);
done:
    mur_free(rows);
    mur_free(v);
    mur_free(dens);
    return rc;
}

int mur_cli_field(const mur_cli_opts *o, mur_scene *s, mur_experiment_def *def, mur_error *err)
{
    field fx = {s, o->distribution ? mur_boid_quantity_find(o->distribution) : -1, o->anisotropy, 0, 0, 0, NULL,
                NULL};
    if (fx.aniso) {
        fx.bin = 1;
        fx.nbins = MUR_ANISOTROPY_N;
    } else if (fx.quantity < 0 && correlation_bins(o, s, &fx)) {
        return MUR_EINPUT;   /* said */
    }
    const char *outs[] = {o->output, o->plot};
    int rc = mur_cli_outputs_ready(outs, 2, err);
    if (rc)
        return rc;
    fx.runs = def->runs ? def->runs : s->runs;
    int njobs = s->nconditions * fx.runs;
    if (!(fx.slots = mur_calloc((size_t)njobs, sizeof *fx.slots)))
        return mur_error_set(err, MUR_ERUN, "out of memory for %d runs", njobs);
    def->nextra = 1;
    def->extra = field_extra;
    def->extra_ctx = &fx;
    mur_cli_figure_footer(o, s);
    mur_experiment *e = NULL;
    rc = mur_cli_run_experiment(o, &e, s, def, err);
    if (!rc)
        rc = field_outputs(o, &fx, e, err);
    mur_experiment_destroy(e);
    field_free(&fx, njobs);
    mur_chart_set_footer(NULL);
    return rc;
}
