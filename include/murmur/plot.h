/* murmur: figures of experiments, drawn with Cairo (no Python needed).
 *
 * Figures are laid out in points for a paper's column: 3.5 inches (252 pt)
 * wide, 7 pt text, one small panel per metric stacked over a shared x axis.
 * The format follows the file's extension: .pdf and .svg are vector at that
 * size, .png is rendered at 300 dpi. A figure appears at its final name only
 * when complete. */
#ifndef MURMUR_PLOT_H
#define MURMUR_PLOT_H

#include "murmur/export.h"

#include "murmur/chart.h"   /* MUR_PLOT_WIDTH, MUR_PLOT_DPI */
#include "murmur/error.h"
#include "murmur/experiment.h"

#ifdef __cplusplus
extern "C" {
#endif


/// Whether path ends in an extension the plots can write (.png, .pdf, .svg).
MUR_API int mur_plot_format_ok(const char *path);

/// A series figure of experiment e (kept every tick): one panel per metric of
/// metrics[0..n) against time in seconds, the median across runs with its
/// 10-90% band (one run: that run's line), a strip of the state label
/// (mur_state_classify of the medians of order and milling), a panel per
/// setting the timeline changes, and the timeline's cues marked (a line and
/// a label at each set and event, a shade over each ramp). When the timeline
/// changes exactly one setting, a last panel draws the first metric against
/// that setting, coloured by the direction of change (a sweep's hysteresis
/// loop). Condition 0 of e is drawn.
/// 0, MUR_EINPUT (bad extension, or e keeps only the last tick) or MUR_ERUN (I/O).
MUR_API int mur_plot_series(const char *path, const mur_experiment *e, const int *metrics, int n,
                    mur_error *err);

/// A stats figure of experiment e: one panel per metric of metrics[0..n),
/// each condition's median (dot) with its 10-90% range across runs (bar) and
/// its mean (open diamond), at the last tick. An experiment of a whole
/// `sweep` draws each metric against the sweep's first setting instead:
/// the median through the grid with its 10-90% band, one line per value
/// of the other settings (a log axis for a `logspace` setting).
/// 0, MUR_EINPUT (bad extension) or MUR_ERUN (I/O).
MUR_API int mur_plot_stats(const char *path, const mur_experiment *e, const int *metrics, int n,
                   mur_error *err);

/// A figure of paired effects: one panel per metric of metrics[0..n), each
/// condition but the baseline (mur_experiment_scene(e)->baseline) as its
/// effect's median (dot) with its 95% interval (bar with caps), beside a
/// line at zero; eff[c * n + i] is condition c's effect on metric i
/// (mur_experiment_effect). 0, MUR_EINPUT (bad extension, one condition
/// only) or MUR_ERUN (I/O).
MUR_API int mur_plot_effects(const char *path, const mur_experiment *e, const int *metrics, int n,
                             const mur_effect *eff, mur_error *err);
/// A twin experiment's figure (scene experiment.twin): the RMS divergence
/// between the twins against ticks on a log axis, each condition's median
/// across runs with its 10-90% band, its fitted slope (the runs' median
/// doubling time, drawn dashed over the fitted range) and dotted lines at
/// the sizes of the ticks_to_ rows. Up to 7 conditions are drawn.
/// 0, MUR_EINPUT (bad extension, or no twin) or MUR_ERUN (I/O).
MUR_API int mur_plot_divergence(const char *path, const mur_experiment *e, mur_error *err);

#ifdef __cplusplus
}
#endif

#endif
