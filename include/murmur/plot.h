/* murmur: figures of experiments, drawn with Cairo (no Python needed).
 *
 * A figure is drawn from plain tables (mur_figure: the conditions' names
 * and colours, summaries, series, cues, effects, divergences), never from
 * an experiment: the experiment's side builds them
 * (mur_figure_data_build, murmur/figure_data.h).
 *
 * Figures are laid out in points for a paper's column: 3.5 inches (252 pt)
 * wide, 7 pt text, one small panel per metric stacked over a shared x axis.
 * The format follows the file's extension: .pdf and .svg are vector at that
 * size, .png is rendered at 300 dpi. A figure appears at its final name only
 * when complete. */
#ifndef MURMUR_PLOT_H
#define MURMUR_PLOT_H

#include "murmur/export.h"

#include <stdint.h>

#include "murmur/chart.h"   /* MUR_PLOT_WIDTH, MUR_PLOT_DPI */
#include "murmur/error.h"
#include "murmur/presets.h"
#include "murmur/stats.h"

#ifdef __cplusplus
extern "C" {
#endif


/// Whether path ends in an extension the plots can write (.png, .pdf, .svg).
MUR_API int mur_plot_format_ok(const char *path);

/// The version of mur_figure this header describes.
#define MUR_FIGURE_VERSION 1
/// Setting panels a series figure draws (more would crowd the metrics).
#define MUR_FIGURE_MAX_SWEPT 4
/// Points a series figure's line needs at most: a column at 300 dpi is
/// 1050 pixels, so a longer series is best sampled every stride-th tick
/// (stride = ceil(ticks / MUR_FIGURE_MAX_POINTS), the last tick always in).
#define MUR_FIGURE_MAX_POINTS 4000

/// One condition as figures show it.
typedef struct mur_figure_condition {
    const char *name;            ///< its name (a divergence figure's legend)
    const char *label;           ///< its `label:`, else its name (every other figure)
    int has_colour;              ///< colour set: its `colour:`; else the palette's, in condition order
    double colour[3];            ///< red, green, blue in [0, 1]
} mur_figure_condition;

/// One line of values over samples (or ticks): mid, and a band lo..hi
/// (both NULL: a line alone).
typedef struct mur_figure_track {
    const double *mid, *lo, *hi;
} mur_figure_track;

/// A labelled mark on a series figure's time axis (a timeline cue).
typedef struct mur_figure_cue {
    double at;                   ///< seconds
    double over;                 ///< a ramp's length in seconds (shaded), else 0
    const char *label;           ///< what it changes, "cohesion = 0"
} mur_figure_cue;

/// The plain data of a figure. Which fields a figure reads is said at each
/// mur_plot_* function; the rest may stay zero. Arrays are borrowed.
typedef struct mur_figure {
    unsigned version;            ///< MUR_FIGURE_VERSION
    const char *title;           ///< the file's metadata title (NULL: none)
    const char *provenance;      ///< the file's metadata text: what made it (NULL: none)
    int nconditions;
    const mur_figure_condition *conditions;
    int runs;                    ///< runs per condition
    long ticks;                  ///< the last tick measured
    double tps;                  ///< ticks per second (a series' time axis)
    uint64_t seed;               ///< the one run's seed (a series of one run says it)
    const int *metrics;          ///< the metrics drawn, a panel each (mur_metric_info_at)
    int nmetrics;
    /* stats */
    const mur_summary *summary;  ///< [c * nmetrics + i]: condition c, metric i at the last tick
    int nsweep;                  ///< > 0: the conditions are a whole sweep's grid, drawn against sweep[0]
    const mur_setting *const *sweep; ///< the sweep's settings
    const int *sweep_grouped;    ///< [j]: non-zero when setting j's values split the lines (groups)
    int sweep_log;               ///< sweep[0] is a logspace: a log x axis
    const double *sweep_values;  ///< [c * nsweep + j]: setting j's value in condition c
    /* series */
    long nsamples;               ///< samples of the series' tracks
    const long *sample_ticks;    ///< [k]: the tick of sample k (ascending, the last = ticks)
    int nswept;                  ///< settings the timeline changes, a panel each (<= MUR_FIGURE_MAX_SWEPT)
    const mur_setting *const *swept;
    const mur_figure_track *tracks; ///< [c * (nmetrics + nswept + 2) + i]: the metrics (median and
                                 ///< 10-90% band, or one run's line), the settings, then order and
                                 ///< milling (the state strip's inputs); nsamples values each
    int ncues;
    const mur_figure_cue *cues;  ///< in time order
    /* effects */
    int baseline;                ///< the condition the others are compared with
    const mur_effect *effects;   ///< [c * nmetrics + i]: condition c's effect on metric i
    double effect_level;         ///< the intervals' level, percent
    /* divergence */
    const mur_figure_track *divergence; ///< [c]: p10 (lo), median (mid), p90 (hi) across runs of the
                                 ///< twins' RMS divergence at every tick 0..ticks; NULL: no twin
    const double *divergence_range; ///< [2c], [2c + 1]: condition c's smallest positive and largest
                                 ///< divergence of any run at any tick (0, 0: none positive)
    const double *doubling;      ///< [c]: the median of the runs' doubling times (NaN: none)
    int nsizes;                  ///< the sizes the ticks_to_ rows report, each a dotted line
    const double *sizes;
    const char *const *size_names; ///< how the rows name them: "1e-9", "1e-5", "1"
    int theme;                   ///< 0 light (ink on white), 1 dark (light ink on a near-black slide)
} mur_figure;

/// A series figure of d (samples, tracks, swept, cues, conditions, runs,
/// ticks, tps, seed, metrics): one panel per metric against time in
/// seconds, the median across runs with its 10-90% band (one run: that
/// run's line), a strip of the state label (mur_state_classify of the
/// medians of order and milling), a panel per setting the timeline changes,
/// and the cues marked (a line and a label at each, a shade over each
/// ramp). When the timeline changes exactly one numeric setting and it
/// glides both up and down, a last panel draws the first metric against
/// that setting, coloured by the direction of change (a sweep's
/// hysteresis loop). 0, MUR_EINPUT (bad extension, no samples or no
/// metric) or MUR_ERUN (I/O).
MUR_API int mur_plot_series(const char *path, const mur_figure *d, mur_error *err);

/// A stats figure of d (summary, conditions, runs, ticks, metrics): one
/// panel per metric, each condition's median (dot) with its 10-90% range
/// across runs (bar) and its mean (open diamond), at the last tick. A whole
/// sweep (nsweep > 0) draws each metric against the sweep's first setting
/// instead: the median through the grid with its 10-90% band, one line per
/// value of the other settings (a log axis for a `logspace` setting).
/// 0, MUR_EINPUT (bad extension, no metric) or MUR_ERUN (I/O).
MUR_API int mur_plot_stats(const char *path, const mur_figure *d, mur_error *err);

/// A figure of paired effects (effects, baseline, effect_level,
/// conditions, runs, metrics): one panel per metric, each condition but
/// the baseline as its effect's median (dot) with its interval (bar with
/// caps), beside a line at zero. 0, MUR_EINPUT (bad extension, one
/// condition only) or MUR_ERUN (I/O).
MUR_API int mur_plot_effects(const char *path, const mur_figure *d, mur_error *err);

/// A twin experiment's figure (divergence, divergence_range, doubling,
/// sizes, conditions, runs, ticks): the RMS divergence between the twins
/// against ticks on a log axis, each condition's median across runs with
/// its 10-90% band, its fitted slope (the runs' median doubling time, drawn
/// dashed over the fitted range) and dotted lines at the sizes. Up to 7
/// conditions are drawn. 0, MUR_EINPUT (bad extension, or no twin) or
/// MUR_ERUN (I/O).
MUR_API int mur_plot_divergence(const char *path, const mur_figure *d, mur_error *err);

#ifdef __cplusplus
}
#endif

#endif
