/* A two-parameter sweep's `stats --plot`: a heatmap per metric, the way
 * phase diagrams are printed (the first swept axis across, the second up),
 * the median across runs at each grid point and, beside it, the width of
 * its 10-90% interval (where the runs disagree: near a transition). The
 * adapter from an experiment's results to murmur/chart.h's plain arrays;
 * the drawing knows nothing of experiments. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "murmur/alloc.h"
#include "murmur/chart.h"
#include "murmur/experiment.h"
#include "murmur/figure_data.h"

/* The grid of a sweep of exactly two dimensions, each of 3 values or more:
 * axis d's first setting, its size, and the conditions in order
 * (dimension 0 slowest: condition i0 * n[1] + i1). 0 when e is not such
 * a sweep. */
typedef struct {
    const mur_setting *axis[2];
    int n[2];
} grid2;

static int grid_of(const mur_experiment *e, grid2 *g)
{
    const mur_scene *s = mur_experiment_scene(e);
    int nc = mur_experiment_conditions(e), dims = 0;
    if (!s->nsweep || !mur_experiment_condition(e, 0) || nc != s->nconditions)
        return 0;
    g->axis[0] = g->axis[1] = NULL;
    for (int j = 0; j < s->nsweep; j++) {
        int d = s->sweep_dim[j];
        dims = d + 1 > dims ? d + 1 : dims;
        if (d < 2 && !g->axis[d])
            g->axis[d] = s->sweep[j];
    }
    if (dims != 2 || !g->axis[0] || !g->axis[1])
        return 0;
    double first = mur_experiment_condition_value(e, 0, g->axis[0]);
    g->n[1] = 1;
    while (g->n[1] < nc && mur_experiment_condition_value(e, g->n[1], g->axis[0]) == first)
        g->n[1]++;
    g->n[0] = nc / g->n[1];
    /* a grid of at least 3 x 3: with two values on an axis the lines of
     * mur_plot_stats show it better */
    if (g->n[0] * g->n[1] != nc || g->n[0] < 3 || g->n[1] < 3 || g->n[0] > 256 || g->n[1] > 256)
        return 0;
    for (int c = 0; c < nc; c++)   /* the product's order, checked */
        if (mur_experiment_condition_value(e, c, g->axis[0]) !=
                mur_experiment_condition_value(e, c / g->n[1] * g->n[1], g->axis[0]) ||
            mur_experiment_condition_value(e, c, g->axis[1]) !=
                mur_experiment_condition_value(e, c % g->n[1], g->axis[1]))
            return 0;
    return 1;
}

int mur_experiment_heatmap_fits(const mur_experiment *e)
{
    grid2 g;
    return grid_of(e, &g);
}

/* An axis's name: the setting's, and its unit as its help line gives it. */
static void axis_label(const mur_setting *st, char *buf, size_t n)
{
    const char *unit = strstr(st->help, "units/tick") ? "world units per tick"
                     : strstr(st->help, "world units") ? "world units"
                     : strstr(st->help, "degrees") ? "degrees" : NULL;
    snprintf(buf, n, unit ? "%s (%s)" : "%s", st->name, unit);
}

static void metric_heading(int k, char *buf, size_t n)
{
    const mur_metric_info *m = mur_metric_info_at(k);
    if (m->unit[0] && !strstr(m->title, m->unit))
        snprintf(buf, n, "%s (%s)", m->title, m->unit);
    else
        snprintf(buf, n, "%s", m->title);
}

int mur_experiment_plot_heatmap(const char *path, const mur_experiment *e, const int *metrics, int n, mur_error *err)
{
    grid2 g;
    if (!grid_of(e, &g) || n < 1)
        return mur_error_set(err, MUR_EINPUT, "a heatmap needs a sweep of two settings and a metric");
    int nx = g.n[0], ny = g.n[1], cells = nx * ny, runs = mur_experiment_runs(e);
    long ticks = mur_experiment_ticks(e);
    double *buf = mur_malloc(((size_t)nx + ny + 2 * (size_t)cells * n) * sizeof *buf);
    mur_heatmap *maps = mur_calloc((size_t)n, sizeof *maps);
    char (*heads)[128] = mur_malloc((size_t)n * sizeof *heads), xl[96], yl[96], *meta = NULL;
    int rc = buf && maps && heads ? mur_experiment_provenance(e, 0, &meta, err)
                                  : mur_error_set(err, MUR_ERUN, "out of memory drawing a heatmap");
    if (rc)
        goto done;
    double *x = buf, *y = buf + nx;
    for (int i = 0; i < nx; i++)
        x[i] = mur_experiment_condition_value(e, i * ny, g.axis[0]);
    for (int i = 0; i < ny; i++)
        y[i] = mur_experiment_condition_value(e, i, g.axis[1]);
    axis_label(g.axis[0], xl, sizeof xl);
    axis_label(g.axis[1], yl, sizeof yl);
    for (int i = 0; i < n; i++) {
        double *med = buf + nx + ny + 2 * (size_t)cells * i, *wid = med + cells;
        for (int ix = 0; ix < nx; ix++)
            for (int iy = 0; iy < ny; iy++) {
                mur_summary sm;
                mur_experiment_summary(e, ix * ny + iy, ticks, metrics[i], &sm);
                med[iy * nx + ix] = sm.median;
                wid[iy * nx + ix] = sm.p90 - sm.p10;
            }
        metric_heading(metrics[i], heads[i], sizeof heads[i]);
        maps[i] = (mur_heatmap){heads[i], xl, yl, nx, ny, x, y, med, "median", runs > 1 ? wid : NULL,
                                "10\xe2\x80\x93" "90% interval's width", mur_metric_info_at(metrics[i])->unit_interval};
    }
    mur_chart_doc doc = {mur_experiment_scene(e)->title, meta};
    rc = mur_chart_heatmaps(path, maps, n, &doc, err);
done:
    mur_free(meta);
    mur_free(heads);
    mur_free(maps);
    mur_free(buf);
    return rc;
}
