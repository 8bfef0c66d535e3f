/* Drawing a 3D state through a camera (issue #29): the projection, the
 * far-to-near order, the depth cues, the evening sky, birds as silhouettes
 * with wingbeats, and density by absorption. Private to src/render.
 *
 * A state carries z when the world has three dimensions: the flock's
 * accessors for it (mur_flock_z, mur_flock_vz) are NULL in 2D, and only a
 * non-NULL z sends a frame here, so a 2D frame never comes near this file
 * and keeps its bytes. Nothing here knows which model made the state.
 *
 * Axes: the world's z is up (the ground is z = 0); the camera looks from
 * `pos` at `target`, `up` giving the picture's up. Pixel (0, 0) is the top
 * left corner; the target draws at (w / 2, h / 2). */
#ifndef MURMUR_RENDER_VIEW3D_H
#define MURMUR_RENDER_VIEW3D_H

#include <cairo.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { MUR_VIEW_PERSPECTIVE = 0, MUR_VIEW_ORTHOGRAPHIC = 1 } mur_view_mode;

typedef struct mur_view3d {
    mur_view_mode mode;
    double pos[3], target[3], up[3];
    double fov;              /* degrees, vertical, in (0, 180): perspective */
    double height;           /* world units the frame's height shows: orthographic */
    int w, h;                /* pixels */
    double near;             /* a point nearer than this (along the view) is not drawn */
    /* derived by mur_view3d_init */
    double fwd[3], right[3], upv[3];
    double focal;            /* pixels per unit of x / depth (perspective) or per unit (orthographic) */
    /* optional, all 0 by default (a frame then keeps its bytes) */
    double aperture;         /* depth of field: the lens's diameter, world units (0: every bird sharp) */
    double focus;            /* the depth in focus, world units (with aperture) */
    double period[3];        /* a wrapping world's box: each point is taken at its image nearest the
                              * target (mur_view3d_image); 0 along an axis: as it is */
} mur_view3d;

/* Point p moved to its periodic image nearest v->target along each axis
 * whose v->period is above 0 (camera.wrap: nearest). */
void mur_view3d_image(const mur_view3d *v, double p[3]);

/* The radius, pixels, of the circle of confusion of a point at depth d
 * (thin lens): focal x aperture x |1/d - 1/focus| / 2; 0 without depth of
 * field, or for an orthographic view. */
double mur_view3d_blur(const mur_view3d *v, double d);

/* Checks v's camera and derives its axes: 0, or MUR_EINPUT with a message
 * in err (size n) when the target equals the position, up is parallel to
 * the view, the field of view is outside (0, 180) degrees, an orthographic
 * height is not above 0, or the frame is empty. */
int mur_view3d_init(mur_view3d *v, char *err, size_t n);

/* Projects world point p: 1 with its pixel (*px, *py), its depth along the
 * view and its scale (pixels per world unit there), or 0 when it is behind
 * the camera or nearer than v->near (not drawn). */
int mur_view3d_project(const mur_view3d *v, const double p[3], double *px, double *py, double *depth,
                       double *scale);

/* The drawing order of n points (x, y, z), each at its image
 * (mur_view3d_image): writes into idx the indices of
 * those in front of the camera, farthest first, equal depths by lower
 * index (deterministic), and returns how many (SIZE_MAX: memory short). */
size_t mur_view3d_order(const mur_view3d *v, size_t n, const double *x, const double *y, const double *z,
                        uint32_t *idx);

/* Aerial perspective: the share of the sky's colour in a bird at depth d,
 * 1 - exp(-d / visibility) (0 at the camera; visibility <= 0: none). */
double mur_view3d_haze(double d, double visibility);

/* The look's sky (look.sky): a vertical gradient from `zenith` at the top
 * to `horizon` at the horizon's row (the ground plane's image far away;
 * clamped into the frame), and under it `ground`; a tree line of height
 * tree_px pixels (0: none) as a dark ragged band along the horizon, its
 * profile from a hash of the column and seed. Colours are 0xRRGGBB. */
typedef struct mur_sky {
    uint32_t zenith, horizon, ground, trees;
    double tree_px;
    uint64_t seed;
} mur_sky;
void mur_view3d_sky(const mur_view3d *v, const mur_sky *s, unsigned char *data, int stride);

/* The row of the horizon: where a point far along the ground plane in the
 * view's direction draws (may lie outside the frame). */
double mur_view3d_horizon_row(const mur_view3d *v);

/* A bird's wing angle at time t (seconds): amplitude (radians) x
 * sin(2 pi (freq t + phase)), phase from a hash of the bird's id, so each
 * bird beats on its own and the same on every run and thread count. */
double mur_wing_angle(double t, double freq, double amplitude, uint32_t id);

/* Draws one bird as a dark silhouette at pixel (px, py): a body of length
 * len pixels along the projected heading (hx, hy) (unit; (0, 0): level,
 * to the right) and two wings whose seen span goes as cos(wing angle) and
 * whose tips lift with its sine, in colour rgb (0..1). */
void mur_view3d_bird(cairo_t *cr, double px, double py, double hx, double hy, double len, double wing,
                     const double rgb[3]);
/* The same with an opacity (a bird out of focus: larger and fainter). */
void mur_view3d_bird_alpha(cairo_t *cr, double px, double py, double hx, double hy, double len, double wing,
                           const double rgb[3], double alpha);

/* Density by absorption (Beer-Lambert). tau holds an optical depth per
 * pixel (w x h floats, zeroed by the caller); each bird adds a disc of
 * -ln(1 - opacity) (radius r pixels, at least its centre pixel) to it, so
 * k layers along a line of sight pass (1 - opacity)^k of the sky. Under a
 * pixel across (r < 1) it adds the disc's area's worth, -ln(1 - opacity)
 * pi r^2, shared bilinearly among the four pixels around (px, py). */
void mur_absorb_add(float *tau, int w, int h, double px, double py, double r, double opacity);
/* Lays the absorption on an ARGB32 image (premultiplied, opaque): each
 * channel c becomes ink + (c - ink) exp(-tau), rounded; an empty sky
 * (tau = 0) is left exactly as it was. */
void mur_absorb_apply(const float *tau, int w, int h, unsigned char *data, int stride, uint32_t ink);

/* A whole 3D frame of n birds onto cr (an image w x h of v): the sky, then
 * the birds far to near, each sized by distance (len_world units long),
 * hazed toward the horizon colour by `visibility`, wings beating at freq
 * Hz (amplitude 0.9 rad) at time t; vx, vy, vz their velocities (the
 * heading drawn), ids for the wing phases (NULL: index). 0, or -1 when
 * memory is short. */
typedef struct mur_view3d_style {
    mur_sky sky;
    uint32_t bird;           /* 0xRRGGBB */
    double len_world;        /* a bird's length, world units */
    double min_px;           /* no bird smaller than this many pixels */
    double visibility;       /* world units; <= 0: no haze */
    double wing_freq;        /* Hz */
    int points;              /* 1: a dot a quarter of the bird's length across, no wings */
    double opacity;          /* absorption (mur_view3d_birds with tau): each bird's, in (0, 1) */
    const double *up;        /* each bird's body up (3 a bird; mur_flock_up), or NULL: level birds
                              * (wings across the picture, tips raised up it) */
    const int *bin;          /* each bird's colour bin (look.boid.color's mode), or NULL: `bird` for all */
    const double (*palette)[3];   /* with bin: each bin's red, green and blue, 0 to 1 */
} mur_view3d_style;
/* A bird as mur_view3d_bird draws it, banked: its wings along (sx, sy),
 * the picture of its body's side (length 1 across the view, shorter as it
 * turns edge-on), the tips raised along (ux, uy), the picture of its up; alpha as mur_view3d_bird_alpha's. */
void mur_view3d_bird_banked(cairo_t *cr, double px, double py, double hx, double hy, double sx, double sy,
                            double ux, double uy, double len, double wing, const double rgb[3], double alpha);
/* The path of that bird alone, added to cr's (a ghost strokes it). */
void mur_view3d_bird_path(cairo_t *cr, double px, double py, double hx, double hy, double sx, double sy,
                          double ux, double uy, double len, double wing);

/* Birds shorter than this many pixels are outlined by a ring around them
 * (mur_view3d_outlines): a silhouette's outline under it is a blot. */
#define MUR_VIEW3D_OUTLINE_PX 8.0

/* The outlines of n birds (a twin's ghost, ghost.c) added to cr's path for
 * one stroke: each bird moved back by back (x, y, z) world units, folded
 * into the world along each axis whose box[] is above 0 (a wrapping world;
 * 0: as it is), then at its image (mur_view3d_image) as mur_view3d_birds
 * places it: its silhouette's outline with the same heading, bank and wing
 * beat, or a ring around it when it is under MUR_VIEW3D_OUTLINE_PX pixels
 * long or drawn as a point. In index order: strokes in one colour need no
 * depth order. */
void mur_view3d_outlines(cairo_t *cr, const mur_view3d *v, const mur_view3d_style *st, size_t n, const double *x,
                         const double *y, const double *z, const double *vx, const double *vy, const double *vz,
                         const int *ids, double t, const double back[3], const double box[3]);

int mur_view3d_draw(cairo_t *cr, const mur_view3d *v, const mur_view3d_style *st, size_t n, const double *x,
                    const double *y, const double *z, const double *vx, const double *vy, const double *vz,
                    const uint32_t *ids, double t);

/* The birds of mur_view3d_draw alone, onto cr whatever its surface (a
 * vector still's too), its user space the frame's pixels: far to near,
 * silhouettes or points (st->points), hazed; ids from mur_flock_ids (NULL:
 * index). With tau (w x h floats, zeroed) they are not drawn but absorb
 * there instead (mur_absorb_add, a disc of half the bird's length; with a
 * body frame st->up, 0.2 + 0.8 |up . l| of the optical depth, l the line of
 * sight; hazed, exp(-d / visibility) of it), in index order. 0, or
 * -1 when memory is short. */
int mur_view3d_birds(cairo_t *cr, const mur_view3d *v, const mur_view3d_style *st, size_t n, const double *x,
                     const double *y, const double *z, const double *vx, const double *vy, const double *vz,
                     const int *ids, double t, float *tau);

#endif
