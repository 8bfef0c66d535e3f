/* murmur: a look, everything the renderer needs to know besides the flock.
 *
 * A mur_look says how frames look (background, boids, trails, overlays,
 * panels) and where the things that change with time come from: captions
 * and predator markers are asked of two functions of time, so the renderer
 * needs no scene. The scene loader fills one from a scene's `look` section
 * (mur_scene_look); a program that embeds the renderer may fill its own.
 * Plain data: no Cairo, no YAML. */
#ifndef MURMUR_LOOK_H
#define MURMUR_LOOK_H

#include "murmur/export.h"

#include "murmur/flock.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Largest frame width and height a renderer draws (and a scene may ask for).
#define MUR_LOOK_MAX_PIXELS 8192

typedef enum { MUR_SHAPE_ARROW, MUR_SHAPE_TRIANGLE, MUR_SHAPE_DOT } mur_shape;
typedef enum {
    MUR_COLOR_FIXED, MUR_COLOR_HEADING, MUR_COLOR_SPEED, MUR_COLOR_NEIGHBOURS, MUR_COLOR_CLUSTER,
    MUR_COLOR_GROUP
} mur_color_mode;
typedef enum { MUR_OVERLAY_READOUT, MUR_OVERLAY_PLOT, MUR_OVERLAY_WATCH, MUR_OVERLAY_PARAMS,
               MUR_OVERLAY_CLOCK, MUR_OVERLAY_STATE } mur_overlay_kind;
typedef enum { MUR_CORNER_TOP_LEFT, MUR_CORNER_TOP_RIGHT, MUR_CORNER_BOTTOM_LEFT,
               MUR_CORNER_BOTTOM_RIGHT } mur_corner;

/// A colour, straight (not premultiplied) components in [0, 1].
typedef struct mur_rgba {
    double r, g, b, a;
} mur_rgba;

/// An overlay of `look.overlays`.
typedef struct mur_overlay {
    mur_overlay_kind kind;
    int metrics[8];              ///< readout: metric indices (mur_metric_names)
    int nmetrics;
    int metric;                  ///< plot: metric index
    double window;               ///< plot: seconds shown
    mur_corner corner;           ///< plot/readout placement
    int boid;                    ///< watch: boid index
} mur_overlay;

/// How frames look (docs/scenes.md `look`), and the timeline's captions and
/// predators. Borrowed by a renderer: it and everything it points to must
/// outlive the renderer and stay unchanged while it lives.
typedef struct mur_look {
    const char *name;            ///< where the look comes from, for messages (NULL: "scene")
    const char *title;           ///< title of vector stills (NULL: "murmur")
    mur_rgba background;         ///< opaque (alpha is ignored)
    mur_shape shape;
    double boid_size;            ///< world units (length of an arrow)
    mur_color_mode color_mode;
    mur_rgba boid_color;         ///< fixed colour; its alpha is the boids' and trails' opacity
    int trail_length;            ///< ticks of history (0 = none)
    int trail_fade;              ///< trails fade with age (1) or show at one opacity (0)
    const mur_overlay *overlays; ///< drawn in this order
    int noverlays;
    double tps;                  ///< simulation ticks per second of video (plots sample by it)
    int panels;                  ///< flocks drawn side by side, one per panel (1: one flock, no labels)
    const char *const *labels;   ///< name over each panel when panels > 1 (NULL: none)
    /* what changes with time, asked at each frame's t (seconds of video) */
    const void *ctx;             ///< passed to the two functions below
    /// Caption showing at t and its opacity in [0, 1], or NULL. NULL: the look has no captions
    /// (no fonts are loaded for them).
    const char *(*caption_at)(const void *ctx, double t, double *alpha);
    /// Predators active at t, up to max into out; returns the count. NULL: none are drawn.
    int (*predators_at)(const void *ctx, double t, mur_predator *out, int max);
    /* colour by group (MUR_COLOR_GROUP): the starting flock's groups */
    const mur_rgba *group_colors;  ///< group k's colour; boids in no group take boid_color
    int ngroups;                   ///< at most MUR_MAX_GROUPS
} mur_look;

#ifdef __cplusplus
}
#endif

#endif
