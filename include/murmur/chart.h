/* murmur: figures of plain data (arrays of numbers, labels), drawn with
 * Cairo, for what the experiment figures of plot.h do not draw: heatmaps of
 * a two-parameter sweep (the way phase diagrams are printed), curves with a
 * band (C(r) and its ensemble), histograms. They know nothing of scenes or
 * experiments: a caller (the CLI) turns its results into these arrays.
 *
 * Figures follow plot.h's conventions: a paper's column (MUR_PLOT_WIDTH pt)
 * wide, 7 pt text, .png at 300 dpi, .pdf and .svg vector, the caller's
 * provenance text stored in the file, written beside the final name and
 * renamed when complete. */
#ifndef MURMUR_CHART_H
#define MURMUR_CHART_H

#include "murmur/export.h"

#include "murmur/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Width of every figure in points (a paper column, 3.5 in), this module's and plot.h's.
#define MUR_PLOT_WIDTH 252.0
/// Resolution of PNG figures, dots per inch.
#define MUR_PLOT_DPI 300.0

/// A footer line for every figure drawn after this call, by this module and
/// by plot.h's alike (`--plot-provenance`: the version, the seed and the
/// scene); NULL or "" draws none. The text is copied. Process-wide: set it
/// before drawing, not while another thread draws.
MUR_API void mur_chart_set_footer(const char *text);

/// The footer set, or NULL.
MUR_API const char *mur_chart_footer(void);

/// What a figure file carries besides its drawing.
typedef struct mur_chart_doc {
    const char *title;   ///< the document's title (PDF info, PNG Title), or NULL
    const char *meta;    ///< provenance text stored in the file, or NULL
} mur_chart_doc;

/// One heatmap row of a figure: a value on an nx x ny grid, drawn as cells
/// of colour (viridis) with a colour bar, and beside it, when `spread` is
/// given, a second panel of the same grid (the width of the value's
/// interval, say).
typedef struct mur_heatmap {
    const char *heading;        ///< the row's title ("order (polarization)")
    const char *x_label, *y_label; ///< the axes' names
    int nx, ny;                 ///< grid size, each 1 to 256
    const double *x, *y;        ///< the axes' values, nx and ny of them (cells equally wide, labelled with them)
    const double *value;        ///< [iy * nx + ix]; NaN: no value (a grey cell)
    const char *value_label;    ///< the first panel's title ("median")
    const double *spread;       ///< the second panel's values, or NULL: no second panel
    const char *spread_label;   ///< its title ("p90 - p10")
    int unit_interval;          ///< 1: the value's colours span [0, 1]; 0: its own range
} mur_heatmap;

/// A figure of n heatmap rows, stacked. 0, MUR_EINPUT (bad extension, a
/// grid out of range) or MUR_ERUN (I/O, memory).
MUR_API int mur_chart_heatmaps(const char *path, const mur_heatmap *maps, int n, const mur_chart_doc *doc,
                               mur_error *err);

/// One curve: n points (x, mid) and, when lo and hi are given, a band
/// between them. NaN points are gaps.
typedef struct mur_curve {
    const char *label;          ///< its name in the legend (NULL: none)
    int has_colour;             ///< 1: colour below; 0: the palette's, in curve order
    double colour[3];           ///< r, g, b in [0, 1]
    int n;
    const double *x, *mid, *lo, *hi;
} mur_curve;

/// A panel of curves over a shared x axis (from 0 when every x is above it).
typedef struct mur_curves {
    const char *heading;        ///< the panel's title
    const char *x_label, *y_label;
    const mur_curve *curves;
    int ncurves;                ///< 1 to 16
    double bin;                 ///< > 0: a histogram, x the bins' centres, each bin this wide, drawn as steps
    int zero_line;              ///< 1: a line at y = 0 (C(r) crosses it)
    double mark;                ///< a value on the y axis to mark with a dotted line (NaN: none)
    double x_max;               ///< the x axis ends here (NaN: where the data ends); points beyond are cut
} mur_curves;

/// A figure of one panel of curves. 0, MUR_EINPUT or MUR_ERUN.
MUR_API int mur_chart_curves(const char *path, const mur_curves *c, const mur_chart_doc *doc, mur_error *err);

/// The viridis colour of v in [0, 1] (clamped) into rgb.
MUR_API void mur_chart_viridis(double v, double rgb[3]);

#ifdef __cplusplus
}
#endif

#endif
