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

struct mur_setting;   /* presets.h */

#ifdef __cplusplus
extern "C" {
#endif

/// The version of mur_look this header describes: a look's `version`
/// field, which mur_renderer_create checks (MUR_VERSION_OK). Version 2
/// added the image and figure overlays, which moved MUR_LOOK_PREDATORS and
/// grew mur_overlay: a version-1 look cannot be read as one. Version 3
/// added a 3D world's sky and birds at the end (a version-2 look is
/// shorter than the renderer reads). Version 4 added predator_looks at the
/// end (a version-3 look is read without them: every predator drawn as before).
#define MUR_LOOK_VERSION 4
/// The oldest version this header's renderer reads.
#define MUR_LOOK_OLDEST 3

/// Largest frame width and height a renderer draws (and a scene may ask for).
#define MUR_LOOK_MAX_PIXELS 8192

/// MUR_SHAPE_DENSITY: every boid a splat of ink in a density image (crowds;
/// docs/scenes.md `look.boid.shape`).
typedef enum { MUR_SHAPE_ARROW, MUR_SHAPE_TRIANGLE, MUR_SHAPE_DOT, MUR_SHAPE_DENSITY } mur_shape;
typedef enum {
    MUR_COLOR_FIXED, MUR_COLOR_HEADING, MUR_COLOR_SPEED, MUR_COLOR_NEIGHBOURS, MUR_COLOR_CLUSTER,
    MUR_COLOR_GROUP
} mur_color_mode;
typedef enum { MUR_OVERLAY_READOUT, MUR_OVERLAY_PLOT, MUR_OVERLAY_WATCH, MUR_OVERLAY_PARAMS,
               MUR_OVERLAY_CLOCK, MUR_OVERLAY_STATE, MUR_OVERLAY_IMAGE,
               MUR_OVERLAY_FIGURE } mur_overlay_kind;
typedef enum { MUR_CORNER_TOP_LEFT, MUR_CORNER_TOP_RIGHT, MUR_CORNER_BOTTOM_LEFT,
               MUR_CORNER_BOTTOM_RIGHT } mur_corner;

/// Index of the predator markers among the overlay opacities of a mur_moment
/// (after the overlay kinds); and how many opacities a moment holds.
#define MUR_LOOK_PREDATORS (MUR_OVERLAY_FIGURE + 1)
#define MUR_LOOK_SHOWABLE (MUR_LOOK_PREDATORS + 1)

/// The names a scene gives these, each table written once (src/scene/
/// look_names.c) and used by the loader, `murmur check` and the timeline;
/// NULL-terminated, in enum order. mur_color_mode_names[MUR_COLOR_FIXED] is
/// "fixed" (a scene writes a fixed colour as "#rrggbb"); the predator
/// markers, which `show` and `hide` name beside the overlays, are
/// MUR_LOOK_PREDATORS_NAME.
MUR_API extern const char *const mur_shape_names[];
MUR_API extern const char *const mur_color_mode_names[];
MUR_API extern const char *const mur_overlay_names[];
#define MUR_LOOK_PREDATORS_NAME "predators"
/// Most captions a frame shows at once (the latest ones).
#define MUR_LOOK_MAX_CAPTIONS 4

/// Where a caption stands: at the bottom (the default), the top, the centre,
/// or at a point given in fractions of the frame.
typedef enum { MUR_PLACE_BOTTOM, MUR_PLACE_TOP, MUR_PLACE_CENTRE, MUR_PLACE_AT } mur_place;
typedef enum { MUR_ALIGN_CENTRE, MUR_ALIGN_LEFT, MUR_ALIGN_RIGHT } mur_align;

/// How a caption is placed and sized.
typedef struct mur_caption_style {
    mur_place place;
    double x, y;                 ///< MUR_PLACE_AT: the box's anchor in [0, 1] of the frame
                                 ///< (x: its left, centre or right edge as aligned; y: its middle)
    double size;                 ///< text size relative to the default caption (1)
    mur_align align;             ///< lines and box: centred, flush left or flush right
} mur_caption_style;

/// A caption showing in a frame.
typedef struct mur_caption_shown {
    const char *text;
    double alpha;                ///< opacity in [0, 1] (fading in or out)
    mur_caption_style style;
} mur_caption_shown;

/// What the timeline does to the look at one time (mur_look.moment_at).
typedef struct mur_moment {
    double overlay[MUR_LOOK_SHOWABLE]; ///< opacity of each overlay kind, and of the
                                 ///< predator markers (MUR_LOOK_PREDATORS): 0 hidden, 1 shown
    mur_caption_shown captions[MUR_LOOK_MAX_CAPTIONS]; ///< oldest first; none overlap on the frame
    int ncaptions;
    const char *title, *subtitle;///< a title card (NULL: none; subtitle may be NULL)
    double title_alpha;
    double fade;                 ///< 0: the picture; 1: the background colour alone
} mur_moment;

/// What a camera follows (docs/scenes.md `camera.follow`).
typedef enum { MUR_FOLLOW_NONE, MUR_FOLLOW_BOID, MUR_FOLLOW_FLOCK, MUR_FOLLOW_PREDATOR } mur_follow;

/// A view a 3D world's frame may show (docs/scenes.md `camera.views`): through the
/// camera, or an orthographic projection of the box from above (x-y), the front
/// (x-z) or the side (y-z), labelled and scaled in world units as in a paper.
typedef enum { MUR_VIEWS_PERSPECTIVE, MUR_VIEWS_TOP, MUR_VIEWS_FRONT, MUR_VIEWS_SIDE } mur_view_kind;
/// How many views a frame shows at most.
#define MUR_VIEWS_MAX 4

/// The camera at one time: where it looks and how close.
typedef struct mur_camera {
    double x, y;                 ///< centre of the view, world units (when not following)
    double zoom;                 ///< > 0; 1: the whole world fits the frame, 2: half of it across
    int has_target;              ///< following a predator: 1 when it is active at t
    double tx, ty;               ///< that predator's position, world units
    int follows;                 ///< 1: follow, follow_index and smooth below say what it follows
                                 ///< at t (a timeline may change it); 0: the look's own do
    mur_follow follow;
    int follow_index;
    double smooth;
    /* a 3D world's camera (docs/scenes.md `camera.position`); view3d 0: the
     * renderer's default 3D camera (from the ground, looking up at the box) */
    int view3d;                  ///< 1: the fields below are the camera's
    int orthographic;            ///< 0: perspective (fov), 1: orthographic (height)
    double position[3];          ///< world units, z up
    double target[3];            ///< what it looks at (drawn at the frame's centre)
    double up[3];                ///< the picture's up (default 0, 0, 1)
    double fov;                  ///< vertical field of view, degrees, in (0, 180)
    double height;               ///< orthographic: world units the frame's height shows
    /* a 3D world's lens, seam and figure (docs/scenes.md "Depth of field", `camera.wrap`,
     * `camera.views`); all 0: everything sharp, no images, the perspective view alone */
    double aperture;             ///< depth of field: the lens's diameter, world units (0: all sharp)
    double focus;                ///< depth in focus along the view, world units (0: the target's)
    int focus_flock;             ///< 1: the flock's centre is in focus (focus unused)
    int wrap_nearest;            ///< 1: a wrapping world's birds each drawn at their image nearest the target
    int nviews;                  ///< views a frame shows side by side (0: the camera's alone)
    int views[MUR_VIEWS_MAX];    ///< which, in order (mur_view_kind)
    double tz;                   ///< a 3D world's: the followed predator's height (with tx, ty)
} mur_camera;

/// How a 3D world's birds are drawn (docs/scenes.md `look.birds`).
typedef enum { MUR_BIRDS_SILHOUETTE, MUR_BIRDS_POINTS } mur_birds;

/// A colour, straight (not premultiplied) components in [0, 1].
typedef struct mur_rgba {
    double r, g, b, a;
} mur_rgba;

/// The longest predator trail, seconds (docs/scenes.md `predators[].trail`).
#define MUR_PREDATOR_TRAIL_MAX 60

/// How one predator is drawn (docs/scenes.md `predators[].size`, `color`,
/// `trail`), the same in 2D and 3D. All zero: as before these keys were.
typedef struct mur_predator_look {
    double size;                 ///< world units: a 2D marker's diameter, a 3D falcon's length (0: the default)
    mur_rgba color;              ///< its colour (when has_color; else flee red / attract teal in
                                 ///< 2D, the birds' ink in 3D)
    int has_color;
    double trail;                ///< seconds of its past path drawn behind it, fading (0: none)
} mur_predator_look;

/// Largest image an `image` overlay shows (pixels of a PNG, or the size an SVG
/// declares, each way) and its file's largest size in bytes.
#define MUR_IMAGE_MAX_PIXELS 8192
#define MUR_IMAGE_MAX_BYTES (64LL << 20)

/// What an image overlay holds: decoded pixels, or an SVG document the
/// renderer draws (as vectors in vector stills). Plain bytes: no Cairo, no librsvg.
typedef enum { MUR_IMAGE_PIXELS, MUR_IMAGE_SVG } mur_image_format;

/// An `image` overlay (docs/scenes.md `look.overlays[].image`): the picture and where it goes.
typedef struct mur_image {
    mur_image_format format;
    int width, height;           ///< pixels; an SVG's own size in CSS pixels (96 per inch), each >= 1
    int stride;                  ///< MUR_IMAGE_PIXELS: bytes from one row to the next
    const unsigned char *data;   ///< MUR_IMAGE_PIXELS: height rows of width native-endian 32-bit
                                 ///< words, premultiplied ARGB (Cairo's CAIRO_FORMAT_ARGB32);
                                 ///< MUR_IMAGE_SVG: the document's bytes (checked by the loader)
    size_t size;                 ///< bytes at data
    /* where: in a corner (stacked with the other boxes there), or fitted in a region */
    int has_region;              ///< 1: fitted in region, centred, its aspect kept; 0: at corner
    double region[4];            ///< x, y, w, h, fractions of the frame (x, y: its top left)
    mur_corner corner;
    double frame_width, frame_height; ///< at a corner: fractions of the frame's width and height
                                 ///< it may take (0: from the other by its aspect; both 0: width 0.2)
    double opacity;              ///< in [0, 1]
    const char *path;            ///< the file it was read from (the provenance's inputs; NULL: none)
    char sha256[65];             ///< that file's SHA-256, lowercase hex
} mur_image;

/// An overlay of `look.overlays`.
typedef struct mur_overlay {
    mur_overlay_kind kind;
    int metrics[8];              ///< readout: metric indices (mur_metric_name)
    int nmetrics;
    int metric;                  ///< plot: metric index
    double window;               ///< plot: seconds shown
    mur_corner corner;           ///< plot/readout placement
    int boid;                    ///< watch: boid index
    const mur_image *image;      ///< image: the picture and its place (NULL for other kinds)
    /* figure: `metric` (y) against a setting the timeline changes (x) */
    const struct mur_setting *setting; ///< figure: the setting on the x axis
    double x_range[2], y_range[2];///< figure: the axes (y_range[1] <= y_range[0]: 0 to a nice ceiling
                                 ///< of the values drawn)
    const double *ref_x, *ref_y; ///< figure: a reference curve drawn behind (NaN x: a break)
    int nref;                    ///< its points (0: none)
    const char *ref_path;        ///< figure: the reference's file (the provenance's inputs; NULL: none)
    char ref_sha256[65];         ///< that file's SHA-256, lowercase hex
} mur_overlay;

/// How frames look (docs/scenes.md `look`), and the timeline's captions and
/// predators. Borrowed by a renderer: it and everything it points to must
/// outlive the renderer and stay unchanged while it lives.
typedef struct mur_look {
    unsigned version;            ///< MUR_LOOK_VERSION (a zeroed look is refused: set it)
    const char *name;            ///< where the look comes from, for messages (NULL: "scene")
    const char *title;           ///< title of vector stills (NULL: "murmur")
    mur_rgba background;         ///< opaque unless `transparent` (then its alpha is kept)
    int transparent;             ///< 1: frames keep the background's alpha (translucent frames)
    mur_shape shape;
    double boid_size;            ///< world units (length of an arrow)
    mur_color_mode color_mode;
    mur_rgba boid_color;         ///< fixed colour; its alpha is the boids' and trails' opacity
    int trail_length;            ///< ticks of history (0 = none)
    int trail_fade;              ///< trails fade with age (1) or show at one opacity (0)
    int trail_warm;              ///< the warm-up's ticks when its last ticks are observed for the
                                 ///< trails, so the first frame has them whole (0: they grow in from
                                 ///< it); trails count ticks from the warm-up's start, as a run
                                 ///< reaching the first frame without a warm-up does
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
    /// The look at t: overlays shown or hidden, captions (placed; these replace
    /// caption_at's), a title card, a fade. NULL: every overlay shown, caption_at's
    /// caption at the bottom, no title, no fade.
    void (*moment_at)(const void *ctx, double t, mur_moment *out);
    const struct mur_setting *const *shown; ///< settings the `params` readout shows besides sep, ali
    int nshown;                             ///< and coh: those the timeline changes (at most 8)
    /* colour by group (MUR_COLOR_GROUP): the starting flock's groups */
    const mur_rgba *group_colors;  ///< group k's colour; boids in no group take boid_color
    int ngroups;                   ///< at most MUR_MAX_GROUPS
    /* the camera (render/camera.c); all zero: the whole world, as without one */
    mur_follow follow;           ///< what the camera keeps in the middle of the view
    int follow_index;            ///< the boid (MUR_FOLLOW_BOID) or predator (MUR_FOLLOW_PREDATOR)
    double follow_smooth;        ///< seconds the camera takes to settle on its target (0: locked)
    int camera_fixed_boids;      ///< 1: boids and trails keep their zoom-1 size on screen (0: they zoom)
    /// The camera at t into out (zeroed by the caller: fields left alone stay 0, so a
    /// camera that leaves `follows` 0 keeps follow, follow_index and follow_smooth above).
    /// NULL: no camera, the whole world fits the frame.
    void (*camera_at)(const void *ctx, double t, mur_camera *out);
    int columns;                 ///< panels per row (0: up to three side by side, else a grid as square as possible)
    int shape_auto;              ///< 1: the shape was not chosen; boids under 2 pixels on the frame are
                                 ///< drawn as density (0: always `shape`)
    double metric_radius;        ///< radius readouts, plots and cluster colours measure with (0: the cohesion radius)
    double correlation_bin, correlation_range; ///< C(r)'s bins and cut-off for correlation_length (0: the defaults)
    /* a 3D world (docs/scenes.md "Three dimensions"): the sky behind the
     * birds and how they are drawn; unused in 2D. All zero: black sky,
     * silhouettes of boid_size and boid_color, no haze, wings still */
    mur_rgba sky_zenith, sky_horizon; ///< the sky's colour at the frame's top and at the horizon
    mur_rgba sky_ground, sky_trees;   ///< below the horizon, and the tree line's
    double tree_height;          ///< the tree line's height, a fraction of the frame's height (0: none)
    mur_birds birds;             ///< silhouettes with wingbeats, or points
    double wingbeat;             ///< wingbeats per second (0: wings held still)
    double visibility;           ///< world units: birds fade toward the horizon's colour as
                                 ///< 1 - exp(-distance / visibility) (0: no haze)
    /* version 4: the predators' own looks, by tag (mur_predator.tag): predator tag k is
     * drawn as predator_looks[k - 1]; untagged ones and those past the list as before */
    const mur_predator_look *predator_looks;
    int npredator_looks;
} mur_look;

#ifdef __cplusplus
}
#endif

#endif
