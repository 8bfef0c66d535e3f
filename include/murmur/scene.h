/* murmur: scenes, the user's whole interface (docs/scenes.md).
 *
 * mur_scene_load parses a YAML file with libyaml's document API, validates
 * every key and value (errors carry file:line:col and suggest the nearest
 * key), resolves the preset and overrides, and converts every time to
 * seconds of video. The timeline then answers, as a pure function of time,
 * which settings hold, which caption shows and where each predator is. */
#ifndef MURMUR_SCENE_H
#define MURMUR_SCENE_H

#include "murmur/export.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include "murmur/error.h"
#include "murmur/flock.h"
#include "murmur/look.h"
#include "murmur/metrics.h"
#include "murmur/presets.h"
#include "murmur/recording.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits checked while loading, before anything is allocated from them. */
#define MUR_SCENE_MAX_BYTES (1 << 20)      ///< scene file size
#define MUR_SCENE_MAX_DEPTH 64             ///< levels of nested lists and mappings
#define MUR_SCENE_MAX_ANCHORS 256          ///< YAML anchors (&name) in one scene
#define MUR_SCENE_MAX_NODES 1000000        ///< values in the scene, every alias expanded (a 1 MB file holds at most 500,000 itself)
#define MUR_SCENE_MAX_EXPANDED (4 << 20)   ///< bytes of text in the scene, every alias expanded
#define MUR_SCENE_MAX_CAPTION 280          ///< characters of a caption (two lines of a wide frame)
#define MUR_SCENE_MAX_TITLE 120            ///< characters of the scene's title
#define MUR_SCENE_MAX_NAME 64              ///< characters of a condition name
#define MUR_SCENE_MAX_EXPRESSION 1000      ///< characters of a predator expression
#define MUR_SCENE_MAX_PATH 4096            ///< bytes of an output path
#define MUR_SCENE_MAX_PIXELS MUR_LOOK_MAX_PIXELS ///< video width and height (8192)
#define MUR_SCENE_MAX_SECONDS 36000.0      ///< video duration (10 hours)
#define MUR_SCENE_MAX_TICKS 1.0e8          ///< ticks in one render, warm-up included
#define MUR_SCENE_MAX_ENTRIES 4096         ///< timeline entries, path keys, conditions
#define MUR_SCENE_MAX_BOID_TICKS 1.0e11    ///< boids x ticks of one render (all panels) or one experiment (~8 h of work)
#define MUR_SCENE_MAX_PIXEL_FRAMES 2.0e13  ///< width x height x frames (4K at 60 fps for 10 hours fits)
#define MUR_SCENE_MAX_TRAIL_POINTS 2.0e7   ///< boids x trail length (history the renderer keeps)
#define MUR_SCENE_MAX_GROUPS MUR_MAX_GROUPS  ///< groups of a starting flock
#define MUR_SCENE_MAX_TIMELINE_WORK 1.0e10 ///< (timeline entries + their changes) x ticks: settings are recomputed every tick
#define MUR_SCENE_MAX_SWEEP 8              ///< settings one experiment.sweep varies (coupled ones included)
#define MUR_SCENE_MAX_GRID 1024            ///< conditions one experiment.sweep makes (the product of its values)

typedef enum { MUR_EASE_STEP, MUR_EASE_LINEAR, MUR_EASE_SMOOTH } mur_ease;
typedef enum { MUR_EVENT_NONE, MUR_EVENT_SCATTER, MUR_EVENT_RESET, MUR_EVENT_FREEZE,
               MUR_EVENT_UNFREEZE, MUR_EVENT_FADE_IN, MUR_EVENT_FADE_OUT, MUR_EVENT_TITLE } mur_event;

/// One setting changed by a `set` or `ramp`, or by an experiment condition.
typedef struct mur_change {
    const mur_setting *setting;  ///< which model setting (from the settings table)
    double value;                ///< target value (enums: the choice index)
} mur_change;

/// Camera values the timeline sets and ramps (`camera.zoom`, `camera.x`, `camera.y`), and
/// what it follows (`camera.follow`: set only).
/// A 3D world's camera adds its position, target (each three values), field of view
/// and orthographic height (`camera.position`, `camera.target`, `camera.fov`, `camera.height`).
typedef enum { MUR_CAMERA_ZOOM, MUR_CAMERA_X, MUR_CAMERA_Y, MUR_CAMERA_FOLLOW, MUR_CAMERA_PX, MUR_CAMERA_PY,
               MUR_CAMERA_PZ, MUR_CAMERA_TX, MUR_CAMERA_TY, MUR_CAMERA_TZ, MUR_CAMERA_FOV,
               MUR_CAMERA_HEIGHT } mur_camera_key;
/// How many mur_camera_key values there are.
#define MUR_CAMERA_KEYS (MUR_CAMERA_HEIGHT + 1)

/// One `camera.*` change of a `set` or `ramp` (camera.center is two: x and y).
typedef struct mur_camera_change {
    mur_camera_key key;
    int ramp;                    ///< 0 set, 1 ramp (over the cue's `over` with its `ease`)
    double value;                ///< MUR_CAMERA_FOLLOW: the boid or predator followed
    mur_follow follow;           ///< MUR_CAMERA_FOLLOW: what it follows from then on
} mur_camera_change;

/// The scene's `camera` (docs/scenes.md); `given` 0: none, the whole world.
typedef struct mur_scene_camera {
    int given;                   ///< the scene has `camera:` or a timeline `camera.*` change
    mur_follow follow;           ///< what it follows
    int target;                  ///< the boid or predator followed
    double x, y;                 ///< centre at time 0, world units (default: the world's centre)
    double zoom;                 ///< at time 0 (default 1)
    double smooth;               ///< seconds to settle on a moved target (default MUR_CAMERA_SMOOTH)
    int fixed_boids;             ///< `boid_size: fixed`: boids and trails keep their zoom-1 size
    int smooth_given;            ///< `smooth` was given (else each kind of target has its default)
    /* a 3D world's (docs/scenes.md `camera.position`): filled with the defaults when absent */
    int view3d;                  ///< 1: a 3D world's camera (the fields below hold)
    int orthographic;            ///< `mode: orthographic`
    double position[3], look_at[3], up[3]; ///< `position`, `target`, `up` at time 0
    double fov, height;          ///< `fov` (degrees), `height` (orthographic, world units)
    double aperture;             ///< `aperture`: depth of field's lens diameter, world units (0: off)
    double focus;                ///< `focus` in world units (NAN: the target's distance)
    int focus_flock;             ///< `focus: flock`
    int wrap_nearest;            ///< `wrap: nearest`
    int nviews;                  ///< `views`: how many (0: the camera's view alone)
    int views[MUR_VIEWS_MAX];    ///< mur_view_kind, in the order given
} mur_scene_camera;

/// Default seconds a following camera takes to settle (docs/scenes.md `camera.smooth`):
/// a boid's or a predator's path is continuous, so a tick's jostle is all there is to
/// smooth; the largest cluster's centre jumps as boids join and leave it.
#define MUR_CAMERA_SMOOTH 0.02
#define MUR_CAMERA_SMOOTH_FLOCK 1.0

/// One timeline entry (docs/scenes.md `timeline`); several may share a time.
typedef struct mur_cue {
    double at;                   ///< seconds of video
    int line;                    ///< line in the scene file (for `check`)
    mur_change *set;             ///< instant changes
    int nset;
    mur_change *ramp;            ///< glides, from the value at `at` to the target
    int nramp;
    double over;                 ///< ramp duration, seconds (> 0 when nramp > 0)
    mur_ease ease;
    char *caption;               ///< caption text or NULL
    double caption_for;          ///< seconds the caption shows
    mur_event event;
    int col;                     ///< column of the entry in the scene file (for messages)
    /* the look on the timeline (mur_scene_moment_at) */
    unsigned show, hide;         ///< overlays shown / hidden from `at`: bit k for overlay kind k,
                                 ///< bit MUR_LOOK_PREDATORS for the predator markers
    double fade_over;            ///< seconds a show, hide, fade-in or fade-out takes (0: at once)
    mur_caption_style caption_style;
    char *title, *subtitle;      ///< a title card (`title:`; `event: title` shows the scene's)
    double title_for;            ///< seconds the title card shows
    char *chapter;               ///< a chapter starts here (NULL: none)
    mur_camera_change *camera;   ///< `camera.*` keys of its set and ramp, in file order
    int ncamera;
} mur_cue;

/// A scripted predator or attractor (docs/scenes.md `predators`).
typedef struct mur_script_predator {
    int attract;                 ///< 0 flee, 1 attract
    double radius, strength;
    double from, until;          ///< active window, seconds (-inf / +inf when absent)
    double (*path)[4];           ///< keyframes [t (s), x, y, z], sorted by t; NULL when expressions
                                 ///< (z: 3D worlds only; half the depth when a keyframe leaves it out)
    int npath;
    int smooth;                  ///< path interpolation: 0 linear, 1 Catmull-Rom through every key
    char *x_expr, *y_expr;       ///< expressions of t, W, H, D (libavutil eval), or NULL
    void *x_eval, *y_eval;       ///< parsed AVExpr (owned by the scene)
    char *z_expr;                ///< 3D: the height's expression (NULL: half the depth)
    void *z_eval;
    mur_pursue pursue;           ///< `pursue`: it hunts from where x, y put it at `from` (NONE: scripted)
    double speed;                ///< a hunter's speed, units/tick (0: 1.25 x the flock's max_speed)
    double turn;                 ///< a hunter's turning limit, degrees per tick
    double burst;                ///< flee burst: boids within its radius up to this x max_speed (1: none)
    mur_predator_look look;      ///< `size`, `color`, `trail`: how it is drawn (all 0: the default)
} mur_script_predator;

/// An experiment condition: a name and its overrides.
typedef struct mur_condition {
    char *name;
    mur_change *set;
    int nset;
    mur_recording *replay;       ///< the condition's own recorded flock (`replay:`), or NULL
    char *label;                 ///< `label:` its name in figures and panels (NULL: the name)
    mur_rgba colour;             ///< `colour:` its colour in figures (when has_colour)
    int has_colour;
} mur_condition;

/// How an experiment's twin starts (docs/scenes.md `experiment.twin`).
typedef enum { MUR_TWIN_NONE, MUR_TWIN_SHIFT, MUR_TWIN_PERTURB } mur_twin_kind;

/// `experiment.twin`: each run paired with a twin started from the same
/// flock moved by a shift (a change a wrapping world cannot notice) or
/// nudged by a tiny displacement.
typedef struct mur_twin_spec {
    mur_twin_kind kind;          ///< none (no twins), shift or perturb
    int half_box;                ///< shift: half the world's width and height (else shift[])
    double shift[2];             ///< shift: world units
    double perturb;              ///< perturb: each boid moved this far, world units, in a random direction
} mur_twin_spec;

/// `experiment.measure`: what value of a run a summary takes.
typedef struct mur_measure {
    long window;                 ///< 0: the value at the last tick; else the mean over the last `window` ticks
    long every;                  ///< within the window, a sample every this many ticks, ending at the last (>= 1)
    double radius;               ///< `radius`: neighbours, clusters, largest and milling measured within it (0: the cohesion radius)
    double correlation_bin;      ///< `correlation_bin`: C(r)'s bin width, world units (0: radius / 4)
    double correlation_range;    ///< `correlation_range`: C(r)'s cut-off, world units (0: 10 x radius)
    int window_line, window_col; ///< where `window` stands in the file (1-based; 0: not given), for a run it outlasts
} mur_measure;

/// Comparisons of `experiment.until`.
typedef enum { MUR_UNTIL_GT, MUR_UNTIL_GE, MUR_UNTIL_LT, MUR_UNTIL_LE } mur_until_op;

/// One entry of `experiment.until`: a time-to-event metric, the first tick
/// at which `metric op value` holds.
typedef struct mur_until {
    int metric;                  ///< mur_metric_name index
    mur_until_op op;
    double value;
} mur_until;

/// How one entry of a sequence turns into the next (docs/scenes.md, "Sequences").
typedef enum { MUR_TRANSITION_CUT, MUR_TRANSITION_FADE, MUR_TRANSITION_CROSSFADE } mur_transition;

/// Most entries of one sequence file.
#define MUR_SEQUENCE_MAX_ENTRIES 256

/// One entry of a sequence: a part of a scene, or a title card.
typedef struct mur_sequence_entry {
    struct mur_scene *scene;     ///< what it shows: its scene (a title card: one made for it), owned
    char *file;                  ///< the scene's file as the sequence names it (NULL: a title card)
    char *title;                 ///< a title card's text, else NULL
    double from, to;             ///< seconds of the scene's video shown, [from, to); to < 0: its end
    mur_transition transition;   ///< how the entry before turns into this one (the first's: a cut)
    double over;                 ///< seconds the transition takes (a cut: 0)
    int line, col;               ///< where the entry stands in the sequence file (1-based)
    int transition_line, transition_col; ///< where its transition is given (its own or the sequence's)
    long first, frames;          ///< the scene's frames shown: [first, first + frames)
    long start;                  ///< the sequence's frame it starts at (a crossfade starts it early)
    long over_frames;            ///< frames of the transition into it
} mur_sequence_entry;

/// A sequence file's entries, in order (mur_scene.sequence).
typedef struct mur_sequence {
    mur_sequence_entry *entries;
    int n;
    char *text;                  ///< the sequence file's text, for the provenance
} mur_sequence;

/// A loaded, validated scene. Strings and arrays are owned by the scene.
typedef struct mur_scene {
    char *path;                  ///< file it came from
    char *title;                 ///< NULL when absent
    uint64_t seed;
    const mur_preset *preset;    ///< the `model`
    mur_params params;           ///< flock settings at time 0 (preset + world + flock)
    /* video */
    int width, height;           ///< output pixels
    double fps;                  ///< frames per second
    double tps;                  ///< simulation ticks per second of video
    double duration;             ///< seconds of video
    double warmup;               ///< ticks simulated before the first frame
    char *output;                ///< output path (relative to the working directory)
    int output_line, output_col; ///< where `video.output` stands in the file (1-based; 0 = not given)
    int quality;                 ///< CRF-like, 0..51
    int chapter_captions;        ///< video.chapters: 0 `entries` (chapter: entries), 1 `captions` (captions too)
    int theme;                   ///< `theme`: figures and plots on white (0, `light`) or for a dark slide (1, `dark`)
    int gif_colours;             ///< video.gif_colours: a GIF's palette, 2..256 (0: 256)
    int gif_dither;              ///< video.gif_dither: MUR_GIF_DITHER_* (video.h)
    /* look: the `look` section, and what the renderer borrows from the rest (mur_scene_look) */
    mur_look look;
    /* timeline, predators */
    mur_cue *cues;               ///< sorted by `at`, file order kept within a time
    int ncues;
    mur_script_predator *predators;
    int npredators;
    /* experiment */
    int runs, ticks;             ///< ensemble size and length (`murmur stats`)
    mur_condition *conditions;   ///< at least one ("all" = no overrides) after loading
    int nconditions;
    int metrics[MUR_METRIC_COUNT]; ///< experiment metrics (mur_metric_name indices)
    int nmetrics;
    int panels;                  ///< layout: one panel per condition
    mur_twin_spec twin;          ///< experiment.twin (kind MUR_TWIN_NONE when absent)
    mur_measure measure;         ///< experiment.measure (window 0: at the last tick)
    mur_until until[MUR_METRIC_COUNT]; ///< experiment.until, in file order
    int nuntil;
    /* recorded flocks (docs/data.md), owned by the scene */
    mur_recording *replay;       ///< flock.replay: frames shown instead of the model's, or NULL
    mur_recording *start;        ///< flock.start: the saved state every flock starts from, or NULL
    mur_start_group *groups;     ///< flock.start: the starting flock's shape, its groups in order (NULL: uniform)
    mur_rgba *group_colors;      ///< each group's colour (look.boid.color: group)
    int ngroups;
    mur_scene_camera camera;     ///< `camera` (render/camera.c draws through it)
    int background_line, background_col; ///< where `look.background` stands (0: not given)
    /* experiment.sweep, expanded into `conditions` when loading (docs/scenes.md) */
    const mur_setting *sweep[MUR_SCENE_MAX_SWEEP]; ///< the settings it varies, in the order written: one output column each
    int sweep_dim[MUR_SCENE_MAX_SWEEP];  ///< the grid dimension of each (settings under `coupled` share one); dimension 0 varies slowest
    int sweep_log[MUR_SCENE_MAX_SWEEP];  ///< 1: its values came from `logspace` (a figure's log axis)
    int nsweep;                  ///< 0: no sweep
    int baseline;                ///< experiment.baseline: the condition paired effects compare with (default 0, the first)
    int baseline_named;          ///< 1: the scene names its baseline (0: the first condition, by default)
    int effects;                 ///< 1: stats tables carry paired effects (two conditions or more, unless `baseline: none`)
    int columns;                 ///< layout.columns: panels per row (0: automatic)
    char sha256[65];             ///< SHA-256 of the scene's text as parsed, lowercase hex (the provenance's inputs)
    mur_sequence *sequence;      ///< a sequence file (docs/scenes.md, "Sequences"): its entries, which the
                                 ///< scene's video plays one after another; NULL for a scene
    int boid_color_given;        ///< look.boid.color was written as a colour (a 3D world's birds default to dark ink)
} mur_scene;

/// Index of the scene's experiment condition called name (`--condition`),
/// or MUR_EINPUT with err set ("'NAME' is not a condition of PATH: 'a',
/// 'b', ...").
MUR_API int mur_scene_find_condition(const mur_scene *s, const char *name, mur_error *err);

/// experiment.twin.shift as written, world units: [dx, dy] (z 0) or a 3D world's
/// [dx, dy, dz]; 0, 0, 0 for half-box, perturb or no twin. s->twin.shift holds dx and
/// dy alone (its 0.2 layout has no dz), so 3D callers ask here. s: from load or parse.
MUR_API void mur_scene_twin_shift(const mur_scene *s, double out[3]);

/// Load and validate a scene file. On failure returns MUR_EINPUT (bad file,
/// message "file:line:col: error: ...") or MUR_ERUN, and *out is NULL.
/// The caller owns *out and frees it with mur_scene_destroy.
MUR_API int mur_scene_load(mur_scene **out, const char *path, mur_error *err);

/// Parse a scene from memory (name is used in messages). Same contract as load.
MUR_API int mur_scene_parse(mur_scene **out, const char *name, const char *text, size_t len,
                    mur_error *err);

/// Free a scene; NULL is fine.
MUR_API void mur_scene_destroy(mur_scene *s);

/// The scene's look, for mur_renderer_create: the `look` section, the title, ticks per
/// second, one panel per condition (named) when the layout asks for panels, and the
/// timeline's captions and predators. It lives as long as the scene.
MUR_API const mur_look *mur_scene_look(const mur_scene *s);

/// The most boids a flock built on base has during the scene: base's count,
/// or any count the timeline sets or ramps to (arrays sized for a flock's
/// whole life, work bounds).
MUR_API double mur_scene_max_count(const mur_scene *s, const mur_params *base);

/// Number of frames of the whole video.
MUR_API long mur_scene_frames(const mur_scene *s);

/// Output frame size in pixels (for bindings that do not read mur_scene).
MUR_API void mur_scene_size(const mur_scene *s, int *width, int *height);

/// Frames per second of video and simulation ticks per second of video.
MUR_API double mur_scene_fps(const mur_scene *s);
MUR_API double mur_scene_tps(const mur_scene *s);

/// Number of experiment conditions, and the name of condition c (owned by s).
MUR_API int mur_scene_conditions(const mur_scene *s);
MUR_API const char *mur_scene_condition_name(const mur_scene *s, int c);

/// Settings in force at t seconds of video: the timeline's sets and ramps
/// applied on top of base (usually &s->params, or a condition's variant).
MUR_API void mur_scene_params_at(const mur_scene *s, const mur_params *base, double t, mur_params *out);

/// Apply an experiment condition's overrides to p.
MUR_API void mur_scene_apply(const mur_change *set, int n, mur_params *p);

/// Predators active at t seconds; writes up to max, returns the count.
MUR_API int mur_scene_predators_at(const mur_scene *s, double t, mur_predator *out, int max);

/// Caption showing at t and its opacity in [0, 1] (fades in and out), or NULL.
MUR_API const char *mur_scene_caption_at(const mur_scene *s, double t, double *alpha);

/// The look at t (look.h's mur_moment): overlays shown or hidden by `show`
/// and `hide`, the captions showing (placed, at most MUR_LOOK_MAX_CAPTIONS,
/// the latest), the title card, the fade to or from the background.
MUR_API void mur_scene_moment_at(const mur_scene *s, double t, mur_moment *out);

/// The camera at t seconds of video: the scene's `camera` with the
/// timeline's `camera.*` sets and ramps applied (zoom ramps geometrically,
/// so a zoom from 1 to 4 looks as fast at its start as at its end).
MUR_API void mur_scene_camera_at(const mur_scene *s, double t, mur_camera *out);

/// Whether the flock is frozen at t (freeze/unfreeze events before or at t).
MUR_API int mur_scene_frozen_at(const mur_scene *s, double t);

/// Seconds of video at the start of frame k, and the tick that frame shows
/// (ticks counted from the first frame, after warm-up).
MUR_API double mur_scene_frame_time(const mur_scene *s, long k);
MUR_API long mur_scene_frame_tick(const mur_scene *s, long k);

/// Steps a flock through a scene's timeline: settings, events, predators,
/// freezes. Tick k (counted from the first frame; warm-up ticks are negative)
/// runs with the timeline at t = k / tps; warm-up ticks run with the
/// settings of time 0 and no predators. An event at T fires as soon as the
/// ticks run reach T (before that state is observed), in file order.
/// Opaque: mur_driver_create, the setters before mur_driver_start, then
/// mur_driver_run_to; mur_driver_destroy.
typedef struct mur_driver mur_driver;

/// Create an unstarted driver (no hook, no stop flag, no replay, no shift).
/// The caller owns *out and frees it with mur_driver_destroy. 0 or MUR_ERUN (out of memory).
MUR_API int mur_driver_create(mur_driver **out, mur_error *err);

/// Free a driver (not its scene or flock); NULL is fine.
MUR_API void mur_driver_destroy(mur_driver *d);

/// Call on_tick(ctx, flock, tick) after every tick run, tick counted from the first frame
/// (on_tick NULL: none). Kept by mur_driver_start.
MUR_API void mur_driver_set_on_tick(mur_driver *d, void (*on_tick)(void *ctx, const mur_flock *f, long tick),
                                    void *ctx);

/// Poll *stop before every tick, warm-up included: nonzero ends start/run_to with MUR_EINTR
/// (NULL: never). Kept by mur_driver_start.
MUR_API void mur_driver_set_stop(mur_driver *d, volatile sig_atomic_t *stop);

/// Show recording r instead of stepping the model (a condition's, mur_scene_replay_of); NULL:
/// the scene's flock.replay, if any. Kept by mur_driver_start; r must outlive the driver.
MUR_API void mur_driver_set_replay(mur_driver *d, const mur_recording *r);

/// Add (dx, dy) world units to every predator's position (a shifted twin's predators move
/// with it). Kept by mur_driver_start.
MUR_API void mur_driver_set_predator_shift(mur_driver *d, double dx, double dy);

/// The same in 3D: add shift (x, y, z) to every predator's position.
MUR_API void mur_driver_set_predator_shift3(mur_driver *d, const double shift[3]);

/// The shift added to every predator's position (x, y, z), world units, as last set
/// (0, 0, 0 when none was); a 2D driver's z is 0.
MUR_API void mur_driver_predator_shift3(const mur_driver *d, double out[3]);

/// on = 1: also call on_tick for the warm-up's last look.trail_length ticks and its end
/// (ticks <= 0) when the scene's look asks (trail_warm): a renderer's, for the first frame's
/// trails. Kept by mur_driver_start.
MUR_API void mur_driver_set_observe_warm(mur_driver *d, int on);

/// The next tick the driver runs (0 right after start: the first frame's state).
MUR_API long mur_driver_tick(const mur_driver *d);

/// The settings before the timeline (scene and condition) a started driver applies the
/// timeline to; lives as long as d.
MUR_API const mur_params *mur_driver_base(const mur_driver *d);

/// Replace those settings from the next tick on (a session's `set`); p must be valid
/// (mur_params_validate).
MUR_API void mur_driver_set_base(mur_driver *d, const mur_params *p);

/// The recording condition c's flock shows (its own `replay`, else the
/// scene's flock.replay), or NULL when it steps the model; c < 0: the scene's.
MUR_API const mur_recording *mur_scene_replay_of(const mur_scene *s, int c);

/// Prepare a driver and run the scene's warm-up (on_tick is not called for it). The flock must have been
/// created from base; what the setters gave is kept, the rest is set. 0, MUR_EINPUT
/// "file:line:col: error: at Ts the timeline gives ..." when overlapping ramps make the settings
/// invalid at some time, or MUR_EINTR when *stop was seen (or the flock's own stop flag stopped a
/// tick); after MUR_EINTR the driver and its flock are fit only for destroying.
MUR_API int mur_driver_start(mur_driver *d, const mur_scene *s, mur_flock *f, const mur_params *base,
                             mur_error *err);

/// Run ticks until mur_driver_tick(d) == target (no-op if already there). 0, MUR_EINPUT or
/// MUR_EINTR as above.
MUR_API int mur_driver_run_to(mur_driver *d, long target, mur_error *err);

/// Write v in the shortest %g form that strtod reads back to exactly v
/// (`murmur check` prints every number so); buf of 40 bytes suffices.
MUR_API void mur_number_format(char *buf, size_t n, double v);

/// Write setting st of p as `murmur check` prints it: a choice's name, or
/// the number as mur_number_format writes it.
MUR_API void mur_setting_format(char *buf, size_t n, const mur_setting *st, const mur_params *p);

/// Write flock settings p of model `model` as YAML a user can paste into a
/// scene, one line per setting with its help: what `murmur check` and
/// `murmur presets NAME` print.
MUR_API void mur_params_write(FILE *fp, const char *model, const mur_params *p);

/// The provenance text of a file made from s with flocks started from seed
/// (s->seed, or an experiment run's): "murmur VERSION", "scene: PATH",
/// "seed: N", the request (lines saying what was made, such as
/// "frames requested: 0 to 299 of 300"; may be NULL), the resolved
/// settings as `murmur check` prints them and the scene file's text, each
/// part after a "# ..." line. Every output stores this text (a video's
/// comment, a PNG text chunk, a PDF's subject, an SVG's metadata, a CSV's
/// sidecar); it holds nothing that changes from run to run. The caller
/// frees *out with mur_free. 0, or MUR_ERUN when out of memory.
MUR_API int mur_scene_provenance(const mur_scene *s, uint64_t seed, const char *request, char **out,
                                 mur_error *err);

/// The same provenance as one JSON object: {"murmur", "scene", "seed",
/// "request", "settings": {"model", each setting}, "scene_text"}. The
/// caller frees *out with mur_free.
MUR_API int mur_scene_provenance_json(const mur_scene *s, uint64_t seed, const char *request,
                                      char **out, mur_error *err);

/// Parse a time as a scene writes it (`12s`, `1.5s`, `900t`, bare seconds)
/// into seconds, with tps ticks per second. 0, or MUR_EINPUT when it is not a time.
MUR_API int mur_time_parse(const char *text, double tps, double *seconds);

/// Key i of every key a scene may use, as a path ("video.width",
/// "look.boid.shape", "timeline[].caption.text"; "[]" marks a list's
/// items), written to buf (64 bytes always suffice). 0, or 1 (not an error
/// code: no key of that number) when i is past the last key or negative. Read from the lists the loader validates with.
MUR_API int mur_scene_key_at(int i, char *buf, size_t size);

/// Key i (from 0) of a sequence file (docs/scenes.md, "Sequences"), as the
/// docs name it ("sequence[].from", "video.fps") into buf: 0, or 1 past the last.
MUR_API int mur_sequence_key_at(int i, char *buf, size_t size);

/// Text of an easing name, an event name, etc. for `check`.
MUR_API const char *mur_event_name(mur_event e);
MUR_API const char *mur_ease_name(mur_ease e);

#ifdef __cplusplus
}
#endif

#endif
