/* murmur: drawing a flock with Cairo.
 *
 * A mur_renderer draws frames of one look (look.h; a scene's is
 * mur_scene_look) at one size: the world scaled to fit (letterboxed), boids
 * as antialiased shapes batched into one path per colour bin, their trails,
 * and the look's overlays (captions, readouts, plots, the one-boid view,
 * the parameter line, a clock, the collective state, predator markers), one
 * panel per flock when the look asks for panels. It knows no scene. It
 * draws on any cairo_t, so the same code makes video
 * frames (image surface) and vector stills (PDF, SVG). It keeps the history
 * that trails, plots and stable cluster colours need, fed by
 * mur_renderer_observe after every tick: a frame depends only on the ticks
 * observed, so a still at T equals frame T of a whole render. */
#ifndef MURMUR_RENDER_H
#define MURMUR_RENDER_H

#include "murmur/export.h"

#include <cairo.h>
#include <signal.h>
#include <stdint.h>

#include "murmur/error.h"
#include "murmur/flock.h"
#include "murmur/look.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Boids shorter than this many pixels on the frame are drawn as density
/// when the look's shape was not chosen (mur_look.shape_auto).
#define MUR_RENDER_DENSITY_PX 2.0

/// Width of a PDF or SVG still: one column of a two-column paper (3.5 in).
#define MUR_RENDER_COLUMN_PT 252.0

typedef struct mur_renderer mur_renderer;

/// Create a renderer for look lk at width x height (pixels, or user units of
/// the cairo_t given to mur_renderer_draw, at most MUR_LOOK_MAX_PIXELS). The look
/// (and what it points to) must outlive it. MUR_EINPUT for a size or a look out
/// of range. The caller owns *out (mur_renderer_destroy).
MUR_API int mur_renderer_create(mur_renderer **out, const mur_look *lk, int width, int height,
                        mur_error *err);

/// Free a renderer; NULL is fine.
MUR_API void mur_renderer_destroy(mur_renderer *r);

/// Watch *stop (say, a signal handler's flag; NULL: never) while drawing, every
/// few thousand boids: once it is nonzero, draws and stills return MUR_EINTR
/// within milliseconds and write nothing. The flag is the caller's.
MUR_API void mur_renderer_set_stop(mur_renderer *r, volatile sig_atomic_t *stop);

/// Draw mur_renderer_draw_image's frames on `threads` threads (0: all cores,
/// 1: the caller's alone; the default): the frame is cut into bands of rows
/// whatever the count, and density drawing splits its work the same way, so
/// the pixels are the same for any. MUR_ERUN when the threads cannot be
/// started (the renderer then keeps the ones it had).
MUR_API int mur_renderer_set_threads(mur_renderer *r, int threads, mur_error *err);

/// Record the state of panel `panel` after a tick (trails, plot samples,
/// cluster colours); tick counts from the first frame. A failure (memory)
/// is kept and returned by the next draw.
MUR_API void mur_renderer_observe(mur_renderer *r, int panel, const mur_flock *f, long tick);

/// Draw `ghost` in outline over panel `panel`'s flock in every frame from
/// now on (a twin of experiment.twin: the same flock moved, or nudged),
/// each boid moved back by (dx, dy) world units first, so a twin that has
/// not diverged covers its original exactly. The flock is borrowed and must
/// outlive the draws; NULL: no ghost.
MUR_API void mur_renderer_set_ghost(mur_renderer *r, int panel, const mur_flock *ghost, double dx,
                                    double dy);

/// The same with the third axis: each bird moved back by shift (x, y, z) world units;
/// a 3D panel draws it through its camera (outlines, or rings around specks), a 2D
/// one as mur_renderer_set_ghost (shift[2] unused).
MUR_API void mur_renderer_set_ghost3(mur_renderer *r, int panel, const mur_flock *ghost, const double shift[3]);

/// Draw the frame at t seconds of video onto cr, covering (0,0)-(width,height)
/// in cr's user space: one flock per panel (n = look->panels).
MUR_API int mur_renderer_draw(mur_renderer *r, cairo_t *cr, const mur_flock *const *flocks, int n,
                      double t, mur_error *err);

/// Draw into the renderer's own ARGB32 image surface (premultiplied,
/// native-endian, opaque unless the look is `transparent`). *pixels stays valid until the
/// next draw or destroy.
MUR_API int mur_renderer_draw_image(mur_renderer *r, const mur_flock *const *flocks, int n, double t,
                            const uint8_t **pixels, int *stride, mur_error *err);

/// Write the last image drawn by mur_renderer_draw_image as a PNG file.
MUR_API int mur_renderer_write_png(mur_renderer *r, const char *path, mur_error *err);

/// Draw the frame at t and write it to path, the format named by its
/// extension: .png at the renderer's size in pixels; .pdf or .svg as vectors
/// with fonts embedded, at the frame's aspect and MUR_RENDER_COLUMN_PT wide
/// (one paper column; small multiples: two columns, a full-width figure).
/// The drawing is the frame's, scaled, except that overlay text is kept at
/// 5 pt or more. The file appears at path only when complete.
/// MUR_EINPUT for another extension, MUR_ERUN when writing fails.
MUR_API int mur_renderer_write_still(mur_renderer *r, const mur_flock *const *flocks, int n, double t,
                             const char *path, mur_error *err);

/// Store text (murmur's provenance, mur_scene_provenance) in every still
/// written from now on: a PNG's iTXt chunk "murmur:provenance", a PDF's
/// subject (and its first lines as keywords), an SVG's <metadata>. The text
/// is borrowed and must outlive the renderer or the next call; NULL: none.
MUR_API void mur_renderer_set_provenance(mur_renderer *r, const char *text);

/// Boid i's trail in panel `panel` as recorded so far, newest point first:
/// up to max points (world units, continuous across a wrap seam, so a
/// point may lie outside the world; the drawing repeats it inside). Ends at
/// a jump (a reset). Returns the number of points written.
MUR_API int mur_renderer_trail(const mur_renderer *r, int panel, int i, const mur_params *p, double *x,
                       double *y, int max);

/// What a panel shows through the look's camera (look.h `camera_at`).
typedef struct mur_view {
    double x, y;                  ///< world point drawn at the middle of the panel
    double zoom;                  ///< 1: the whole world fits the panel
} mur_view;

/// The view of panel `panel` at t seconds, flock f being drawn there: the
/// camera's centre (a following camera's, smoothed over the ticks observed)
/// and zoom. Without a camera, the world's centre and zoom 1. Under wrap x
/// and y lie inside the world; the world point (x, y) is drawn at the
/// panel's middle, at zoom times the scale that fits the world.
MUR_API void mur_renderer_view(mur_renderer *r, int panel, const mur_flock *f, double t,
                               mur_view *out);

/// What the one-boid view (`watch` overlay) draws for a boid.
typedef struct mur_watch_view {
    double x, y;                  ///< the boid's position, world units
    double vx, vy;                ///< its velocity, units per tick
    double sep_radius;            ///< R_sep: the inner ring
    double ali_radius, coh_radius;///< R_ali, R_coh: the perception ring(s)
    double steer[3][2];           ///< separation, alignment, cohesion contributions to the
                                  ///< acceleration (mur_rules sep_a, ali_a, coh_a), units/tick^2
    double scale;                 ///< arrow length in world units per unit of acceleration
    int n_sep, n_ali, n_coh;      ///< neighbours of each rule (as mur_rules counts them)
} mur_watch_view;

/// The one-boid view of the boid with id `id` of f (its index, but for a
/// replay's recorded ids: mur_flock_row), from the engine's own rule vectors
/// (mur_flock_rules): the arrows drawn run from (x, y) to (x, y) + steer[k] *
/// scale. MUR_EINPUT when f has no such boid now.
MUR_API int mur_render_watch_view(const mur_flock *f, int id, mur_watch_view *out, mur_error *err);

#ifdef __cplusplus
}
#endif

#endif
