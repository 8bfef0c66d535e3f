/* murmur: an experiment's figures, the experiment's side of them.
 *
 * The figures (murmur/plot.h) are drawn from plain tables, never from an
 * experiment; these build the tables from one (the conditions' labels and
 * colours, the summaries, the series sampled for drawing, the timeline's
 * cues, the effects, the twins' divergence) and draw the figure. */
#ifndef MURMUR_FIGURE_DATA_H
#define MURMUR_FIGURE_DATA_H

#include "murmur/error.h"
#include "murmur/experiment.h"
#include "murmur/export.h"
#include "murmur/plot.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The figures a mur_figure_data holds the tables of (flags).
enum {
    MUR_FIGURE_STATS = 1,        ///< summaries at the last tick, and a sweep's grid
    MUR_FIGURE_SERIES = 2,       ///< tracks over sampled ticks, settings, cues (needs every tick)
    MUR_FIGURE_EFFECTS = 4,      ///< paired effects against the baseline
    MUR_FIGURE_DIVERGENCE = 8,   ///< the twins' divergence (needs a twin)
};

/// The tables of an experiment's figures and the mur_figure that points at
/// them (figure); freed by mur_figure_data_free.
typedef struct mur_figure_data mur_figure_data;

/// Build the tables `kinds` asks for from e, for metrics[0..n) (effects:
/// eff[c * n + i], condition c's effect on metric i, as
/// mur_experiment_effect gives it; else NULL). 0, MUR_EINPUT (a series of
/// an experiment that kept only the last tick, a divergence without a
/// twin) or MUR_ERUN (memory, the provenance).
MUR_API int mur_figure_data_build(mur_figure_data **out, const mur_experiment *e, unsigned kinds,
                                  const int *metrics, int n, const mur_effect *eff, mur_error *err);

/// The figure the tables make (valid until mur_figure_data_free).
MUR_API const mur_figure *mur_figure_data_figure(const mur_figure_data *d);

MUR_API void mur_figure_data_free(mur_figure_data *d);

/// An experiment's figures in one call each: build the tables, draw
/// (mur_plot_series, _stats, _effects, _divergence), free. 0, MUR_EINPUT
/// (a bad extension first, then as the builder and the figure), MUR_ERUN.
MUR_API int mur_experiment_plot_series(const char *path, const mur_experiment *e, const int *metrics, int n,
                                       mur_error *err);
MUR_API int mur_experiment_plot_stats(const char *path, const mur_experiment *e, const int *metrics, int n,
                                      mur_error *err);
MUR_API int mur_experiment_plot_effects(const char *path, const mur_experiment *e, const int *metrics, int n,
                                        const mur_effect *eff, mur_error *err);
MUR_API int mur_experiment_plot_divergence(const char *path, const mur_experiment *e, mur_error *err);

/// A two-parameter sweep's figure (`stats --plot` of a sweep of two
/// dimensions, each of 3 values or more): a heatmap per metric, the median
/// across runs and the 10-90% interval's width beside it
/// (mur_chart_heatmaps), and whether e is such a sweep.
MUR_API int mur_experiment_heatmap_fits(const mur_experiment *e);
MUR_API int mur_experiment_plot_heatmap(const char *path, const mur_experiment *e, const int *metrics, int n,
                                        mur_error *err);

#ifdef __cplusplus
}
#endif

#endif
