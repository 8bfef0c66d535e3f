/* murmur: drawing a flock with Cairo.
 *
 * A mur_renderer draws frames of one scene at one pixel size: the world
 * scaled to fit (letterboxed), boids as antialiased shapes batched into one
 * path per colour bin, and the scene's overlays. It draws on any cairo_t, so
 * the same code makes video frames (image surface) and vector stills (PDF,
 * SVG). It keeps the history that trails and plots need, fed by
 * mur_renderer_observe after every tick. */
#ifndef MURMUR_RENDER_H
#define MURMUR_RENDER_H

#include <cairo.h>
#include <stdint.h>

#include "murmur/error.h"
#include "murmur/flock.h"
#include "murmur/scene.h"

typedef struct mur_renderer mur_renderer;

/// Create a renderer for scene s at width x height pixels. The scene must
/// outlive it. The caller owns *out (mur_renderer_destroy).
int mur_renderer_create(mur_renderer **out, const mur_scene *s, int width, int height,
                        mur_error *err);

/// Free a renderer; NULL is fine.
void mur_renderer_destroy(mur_renderer *r);

/// Number of panels the scene draws: one per experiment condition when its
/// layout asks for panels, else 1.
int mur_render_panels(const mur_scene *s);

/// Record the state of panel `panel` after a tick (trails, metric plots).
/// tick counts from the first frame.
void mur_renderer_observe(mur_renderer *r, int panel, const mur_flock *f, long tick);

/// Draw the frame at t seconds of video onto cr, covering (0,0)-(width,height)
/// in cr's user space: one flock per panel (n = mur_render_panels(scene)).
int mur_renderer_draw(mur_renderer *r, cairo_t *cr, const mur_flock *const *flocks, int n,
                      double t, mur_error *err);

/// Draw into the renderer's own ARGB32 image surface (premultiplied,
/// native-endian, opaque). *pixels stays valid until the next draw or destroy.
int mur_renderer_draw_image(mur_renderer *r, const mur_flock *const *flocks, int n, double t,
                            const uint8_t **pixels, int *stride, mur_error *err);

/// Write the last image drawn by mur_renderer_draw_image as a PNG file.
int mur_renderer_write_png(mur_renderer *r, const char *path, mur_error *err);

#endif
