/* What the render module's files share: the renderer's insides, the per-panel
 * history (trails, plot samples, cluster colours), text with Pango, and the
 * placement of overlay boxes. Private to src/render. */
#ifndef MURMUR_RENDER_INTERNAL_H
#define MURMUR_RENDER_INTERNAL_H

#include <pango/pangocairo.h>
#include <stdint.h>

#include "murmur/metrics.h"
#include "murmur/render.h"

#define MUR_FONT "DejaVu Sans"

/* Most colour bins of any colour mode (colour by heading). */
#define MUR_MAX_BINS 48

/* Rows of a band when a frame is drawn in bands (frame.c). */
#define MUR_BAND_ROWS 64

/* A trail layer is wiped and laid over the frame only where it was drawn
 * on, in square tiles of this many pixels: a flock rarely covers the frame
 * (at 2,000 boids in 1080p each layer drew on about 60% of 64-pixel tiles,
 * and laying the layers took about a tenth less with 32-pixel ones; smaller
 * tiles were not tried, and each run of them is one more clip box). */
#define MUR_TRAIL_TILE 32

/* The drawn-on pixels of a mostly empty image as runs of nonzero pixels,
 * row by row (ink.c). */
typedef struct mur_ink_run {
    int x, n;                /* first pixel and length */
    uint32_t at;             /* its pixels: px[at .. at + n) */
} mur_ink_run;

typedef struct mur_ink {
    int w, h;                /* the image read; 0 x 0: none */
    uint32_t *row;           /* h + 1: row y's runs are run[row[y] .. row[y + 1]) */
    mur_ink_run *run;
    uint32_t *px;            /* premultiplied ARGB32, as the image held them */
    size_t nrun, npx;
    size_t row_cap, run_cap, px_cap;
    /* or an image itself (mur_ink_whole): its marked tiles, every pixel */
    const uint32_t *img;
    size_t img_stride;       /* in pixels */
    const unsigned char *tiles;
    int tw, tile;
} mur_ink;

/* Reads the nonzero pixels of a w x h ARGB32 image inside the tiles marked
 * in `tiles` (tw across, tile pixels square) into k, replacing what it held;
 * 0, 1 when they come to more than `most` pixels (read no further), or -1
 * when memory is short (k then holds no image). */
int mur_ink_read(mur_ink *k, const unsigned char *data, int stride, int w, int h,
                 const unsigned char *tiles, int tw, int tile, size_t most);
/* The next run of marked tiles in trow (a row of tw tiles, tile pixels
 * square, over an image w wide) from tile *tx: 1 with its pixels
 * [*x0, *x1) and *tx past it, or 0 when the row has no more. */
int mur_tile_run(const unsigned char *trow, int tw, int tile, int w, int *tx, int *x0, int *x1);
/* Makes k the w x h ARGB32 image at data itself, inside the tiles marked in
 * `tiles` (tw across, tile pixels square), laid as it is when laid (the
 * image and tiles must stay as they are until then); k holds nothing of
 * its own. */
void mur_ink_whole(mur_ink *k, const unsigned char *data, int stride, int w, int h,
                   const unsigned char *tiles, int tw, int tile);
/* The mask byte Cairo lays a surface with under cairo_paint_with_alpha
 * (alpha), or -1 when Cairo fails. */
int mur_ink_mask(double alpha);
/* Lays the n inks k[i], in turn, OVER the ARGB32 image dst with the mask
 * bytes m[i], each ink's pixel (0, 0) at dst's (dx, dy), inside dst's
 * pixels [x0, x1) x [y0, y1): the bytes cairo_paint_with_alpha gives
 * painting each ink's image in turn. */
void mur_ink_lay(const mur_ink *const *k, const int *m, int n, unsigned char *dst, int stride, int dx,
                 int dy, int x0, int y0, int x1, int y1);
void mur_ink_free(mur_ink *k);

/* One band of fading trails drawn into a layer kept between frames
 * (trails.c). */
typedef struct mur_trail_layer {
    cairo_surface_t *img;
    long band;               /* the band it holds; -1: none */
    long upto;               /* the newest tick drawn into it */
    unsigned char *tiles;    /* tiles drawn on (1), of the trails' tw x th grid */
    int any;                 /* some tile is */
    mur_ink ink;             /* the band's pixels, once all its ticks are drawn */
    int inked;               /* ink holds them */
    mur_ink whole;           /* img itself as an ink, laid while ink is not */
    int mask;                /* the mask byte of opacity mask_alpha; -1: not asked */
    double mask_alpha;
} mur_trail_layer;

/* Trails: the last `slots` recorded ticks of every boid's position and
 * colour bin, slot-major (boid i's slot s at [s * cap + i]) so that drawing
 * one tick's segments reads runs of memory. Floats: a trail is drawn, never
 * simulated, and half the bytes matter at 100,000 boids. */
typedef struct mur_trails {
    float *x, *y;
    float *z;                /* a 3D flock's heights (trails3d.c); NULL in 2D */
    int three;               /* the flock recorded has z: set at its first record */
    unsigned char *bin;      /* colour bin */
    int *count;              /* boids recorded in each slot (the count may change) */
    float *reach;            /* per slot: the longest honest step then; longer = a jump */
    long *tick;              /* per slot: the tick it recorded */
    int slots;               /* trail length + a band + 2 */
    int head;                /* newest slot */
    int filled;              /* slots holding data */
    size_t cap;              /* boids the arrays hold */
    int *ids;                /* a recorded flock's ids at the head slot (NULL: boid i is id i) */
    int nids;
    size_t ids_cap;
    uint32_t *pairs;         /* scratch: (slot, boid) pairs as slot * cap + boid, by bin
                              * (strokes), or the hairlines' bucket starts */
    size_t npairs_cap;
    struct mur_hair *hair;   /* scratch: a tick's hairlines, then them sorted (hair_cap each) */
    size_t hair_cap;
    /* band layers (image surfaces only), for one device rectangle and world
     * transform: drawn under another, they are made again */
    mur_trail_layer *layers;
    int nlayers;
    int lx, ly, lw, lh;
    int tw, th;              /* tiles across and down */
    cairo_matrix_t lm;
    double lworld[3];        /* world width, height, boundary */
} mur_trails;

/* Samples of one plotted metric: a ring of (seconds, value). */
typedef struct mur_series {
    double *t, *v;
    int cap, head, filled;
    int stride;        /* sample every stride-th tick: about 240 per window */
} mur_series;

/* A following camera's centre (camera.c): a critically damped spring
 * pulled to its target, advanced once per observed tick. */
typedef struct mur_cam_state {
    int init;                /* a tick has been observed */
    long tick;               /* the last one */
    double p[3];             /* centre, world units (a plane's under wrap: kept inside the world; z: 3D only) */
    double v[3];             /* its velocity, units per tick */
    double hunter[3];        /* a followed hunter's place at hunter_tick (its step gives its velocity) */
    long hunter_tick;
    int hunter_seen;
    int *count;              /* scratch: boids per cluster label (following the flock) */
    size_t cap;
} mur_cam_state;

/* One predator's past positions (predators.c): a ring of (tick, x, y, z). */
typedef struct mur_pred_trail {
    double (*at)[4];
    int cap, n, head;        /* cap 0: this predator has no trail */
} mur_pred_trail;

typedef struct mur_panel_state {
    mur_cam_state cam;
    mur_pred_trail ptrail[MUR_MAX_PREDATORS]; /* by tag - 1 (look.predator_looks' trails) */
    mur_trails trails;
    mur_series *series;      /* one per overlay (used by plots only) */
    int *cid;                /* colour id of each boid's cluster (-1 = alone) */
    int ncid;                /* boids cid covers */
    size_t cid_cap;
    mur_metrics_ctx *mx;     /* scratch for observe and draw */
    const mur_flock *ghost;  /* a twin drawn in outline over the flock (borrowed; NULL: none) */
    double ghost_shift[3];   /* moved back by this before it is drawn (z: a 3D world's) */
    cairo_surface_t *sky;    /* a 3D world's sky and birds, kept from frame to frame (frame3d.c) */
    float *tau;              /* its absorbing birds' optical depth a pixel, all 0 between frames */
} mur_panel_state;

/* Text through Pango with a font map of its own, hinting off so that a
 * layout has the same shape at any scale (PNG and PDF agree). One for a
 * renderer's frames, one per figure (plot.c). */
typedef struct mur_text {
    PangoFontMap *map;
    PangoContext *ctx;
    PangoLayout *layout;
    PangoFontDescription *desc;
} mur_text;

/* Colours of overlays against the look's background. */
typedef struct mur_theme {
    int dark;                /* background luminance below one half */
    double fg[3];            /* text */
    double box[4];           /* translucent box behind text (straight alpha) */
    double line[4];          /* rings, neighbour lines, separators */
} mur_theme;

/* Boxes of overlays stack from the corners of a rectangle inwards. */
typedef struct mur_stacks {
    double x, y, w, h;       /* the rectangle */
    double margin;
    double used[4];          /* height taken at each corner (mur_corner order) */
    double width[4];         /* widest box at each corner */
} mur_stacks;

/* Boids (or trail segments) drawn between two looks at the stop flag: a
 * few milliseconds of work, so a signal is answered well within a second
 * even at MUR_MAX_BOIDS. */
#define MUR_POLL_BOIDS 4096

struct mur_renderer {
    const mur_look *look;    /* borrowed (mur_renderer_create) */
    volatile sig_atomic_t *stop;  /* polled while drawing; NULL: never */
    int width, height;
    cairo_surface_t *image;  /* for draw_image */
    struct mur_pool *pool;   /* threads drawing bands (mur_renderer_set_threads); NULL: the caller alone */
    int banding;             /* drawing r->image: worlds are drawn band by band (frame.c) */
    long band_min;           /* boids in a frame from which it is banded (band_min in frame.c) */
    /* the boids of each band (frame.c, bucket_boids), while their bands draw */
    int bk_ready;            /* the buckets below are the current panel's */
    int *bk_start;           /* band b's entries: bk_items[bk_start[b] .. bk_start[b + 1]] */
    int *bk_items;           /* positions in r->order, ascending within a band */
    int *bk_batch;           /* each position's part of its colour bin (FILL_MAX) */
    int *bk_lo, *bk_hi;      /* each position's first and last band */
    size_t bk_cap, bk_items_cap;
    int bk_bands;
    int npanels;
    mur_panel_state *panels;
    int failed;              /* observe could not record: the code draw returns */
    mur_error fail;
    mur_text text;
    mur_theme theme;
    double ui_floor;         /* least UI unit, user units (vector stills: legible in print) */
    const char *provenance;  /* stored in stills (borrowed; NULL: none) */
    int tiling;              /* drawing a wrapping world's periodic images (camera.c): no seam copies */
    int tile_i0, tile_i1, tile_j0, tile_j1;  /* those images (trails draw them all in one path) */
    double tile_dx, tile_dy; /* the image being drawn: its offset, world units */
    double size_scale;       /* boids' and trails' size over the look's (camera.c: 1 / zoom for
                              * `boid_size: fixed`; 0 is taken as 1) */
    double cull[4];          /* the view, world units (x0, y0, x1, y1): images of boids and trails
                              * beyond it are not drawn */
    /* per-frame scratch, grown on demand, never shrunk */
    size_t cap;
    int *bin;                /* colour bin of each boid */
    int *order;              /* boids sorted by bin */
    int *ids;                /* cluster colour ids of the frame */
    int *m_size, *m_start, *m_members, *m_count; /* cluster matching */
    long long *m_list;
    unsigned char *m_claimed, *m_seen;
    mur_moment moment;       /* the look at the frame being drawn (titles.c) */
    struct mur_density *density;  /* density drawing's scratch, on pool (density.c); NULL: not yet */
    struct mur_image_cache *images;  /* per overlay: image overlays' drawings (overlay_image.c); NULL: none */
};

/* One panel being drawn: where it is, its world transform and what the
 * overlays need to know. */
typedef struct mur_panel_ctx {
    mur_renderer *r;
    cairo_t *cr;
    int index;
    const mur_flock *f;
    double t;                /* seconds of video */
    double ox, oy, scale;    /* world -> user space */
    double ww, wh;           /* world size */
    double view[4];          /* the rectangle the world is drawn in (x, y, w, h; camera.c): 0 x 0:
                              * the world's own, (ox, oy) and ww x wh times scale */
    double u;                /* UI unit of this panel (user units) */
    int have_metrics;
    mur_metrics metrics;
    mur_stacks *stacks;
} mur_panel_ctx;

/* Whether the caller asked the drawing to stop (mur_renderer_set_stop). */
static inline int mur_render_stopped(const mur_renderer *r) { return r->stop && *r->stop; }

/* text.c */
/* Where glyphs go: frames at fractional positions, figures rounded to the
 * device grid (Pango's default, which the figures were made with). */
typedef enum { MUR_TEXT_FRAME, MUR_TEXT_FIGURE } mur_text_kind;
/* 0, or -1 when Pango cannot be set up (t may then be passed to the other
 * functions: it measures 0 and draws nothing; free it all the same). */
int mur_text_init(mur_text *t, mur_text_kind kind);
void mur_text_free(mur_text *t);
/* Lay out for cr's current transformation: once per frame, or before each
 * text that is turned or moved to another scale (figures: each text). */
void mur_text_begin(mur_text *t, cairo_t *cr);
/* Lay out s at `size` user units; wrap > 0 wraps to that width, centred
 * or (left) flush left. */
void mur_text_set(mur_text *t, const char *s, double size, int bold, double wrap);
void mur_text_set_left(mur_text *t, const char *s, double size, int bold, double wrap);
/* As mur_text_set, lines aligned as `align` (mur_align) within wrap. */
void mur_text_set_aligned(mur_text *t, const char *s, double size, int bold, double wrap, int align);
/* Left-aligned Pango markup (<sub>, <i>, escaped &amp; &lt;), one line. */
void mur_text_set_markup_left(mur_text *t, const char *markup, double size);
/* The same, its lines wrapped at words (within a word too long for one) to
 * at most wrap wide (0: one line). */
void mur_text_set_markup_wrap(mur_text *t, const char *markup, double size, double wrap);
void mur_text_size(mur_text *t, double *w, double *h);
/* Draw the current layout with its top-left corner at (x, y). */
void mur_text_draw(mur_text *t, cairo_t *cr, double x, double y, const double rgb[3], double alpha);
void mur_box(cairo_t *cr, double x, double y, double w, double h, double radius, const double rgba[4],
             double alpha);
void mur_theme_for(const mur_rgba *bg, mur_theme *out);
/* Reserve a w x h box at a corner: returns its top-left corner. */
void mur_stack_place(mur_stacks *s, mur_corner c, double w, double h, double *x, double *y);

/* overlay_image.c: image overlays. init: 0, or -1 out of memory (or an SVG
 * librsvg no longer parses); images: each drawn on the frame's stacks. */
int mur_overlay_images_init(mur_renderer *r);
void mur_overlay_images_free(mur_renderer *r);
void mur_overlays_images(mur_renderer *r, cairo_t *cr, mur_stacks *st);
/* Where image im goes on a W x H frame (a corner's place is taken from st). */
void mur_overlay_image_rect(const mur_image *im, mur_stacks *st, double W, double H, double *x, double *y,
                            double *w, double *h);

/* trails.c */
void mur_trails_free(mur_trails *t);
/* Record tick `tick` of f, with each boid's colour bin: 0, -1 when memory
 * is short, -2 when the trails would pass their size limit. */
int mur_trails_record(mur_trails *t, int length, const mur_flock *f, long tick, const int *bins);
/* Boid i's trail newest first, continuous across a wrap (nearest image),
 * ending at the first jump: up to max points into px, py; returns how many. */
int mur_trails_polyline(const mur_trails *t, int i, const mur_params *p, float *px, float *py,
                        int max);
/* One step back along bird i's trail from slot s: the slot of the tick
 * before, its nearest-image step there (z 0 in a plane) into d; or -1
 * where the trail breaks (the bird came later, a tick is missing, a jump:
 * longer than the speed limit allows, or NaN). */
int mur_trail_back(const mur_trails *t, const mur_params *p, int s, int i, double d[3]);
/* The oldest tick a trail reaches back to at tick now: that of the oldest
 * band still visible when it fades, `length` ticks back when it does not;
 * the ticks of a band (all of them without fade) into *e. */
long mur_trail_first(const mur_look *lk, long now, int *e);
/* Draw the trails on cr, which holds the world transform and is clipped
 * to the panel's device rectangle (dx, dy, dw, dh) in whole pixels. 0, -1
 * when memory is short, or MUR_EINTR when the stop flag was seen. */
int mur_trails_draw(mur_renderer *r, cairo_t *cr, mur_trails *t, const mur_params *p, int dx,
                    int dy, int dw, int dh);
/* Bring the band layers up to date for drawing under cr (as mur_trails_draw
 * would, first thing): 1 when the trails are laid from layers, after which
 * mur_trails_draw only reads them and may run on several threads at once,
 * each with a cairo_t of its own over the same transform; 0 when they are
 * stroked afresh (no layers); -1 when memory is short, MUR_EINTR when
 * stopped. */
int mur_trails_prepare(mur_renderer *r, cairo_t *cr, mur_trails *t, const mur_params *p, int dx,
                       int dy, int dw, int dh);

/* The ticks of one band of a fading trail of `length` ticks, band b's
 * opacity at tick now, and a trail's opacity without fade (trails.c). */
int mur_trail_band_ticks(int length);
double mur_trail_band_alpha(const mur_look *lk, long b, int e, long now);
double mur_trail_alpha(const mur_look *lk);

/* trails3d.c: a 3D flock's trails (recorded with z by mur_trails_record)
 * through camera v onto cr, whose device pixel (ox, oy) is the view's
 * (0, 0), far to near, hazed as the birds of style st are: drawn before
 * the birds. 0, or -1 when memory is short. */
struct mur_view3d;
struct mur_view3d_style;
int mur_trails3d_draw(const mur_renderer *r, cairo_t *cr, const mur_trails *t, const mur_params *p,
                      const struct mur_view3d *v, const struct mur_view3d_style *st, int ox, int oy);

/* frame.c: colours shared with overlays and trails */
void mur_bin_colour(const mur_look *lk, int bin, double rgb[3]);
/* The same, 8 bits a channel (the density's splats, the hairlines). */
void mur_bin_rgb8(const mur_look *lk, int bin, uint8_t rgb[3]);
/* The colour-by-heading bin of velocity (vx, vy): the one of its atan2
 * angle, computed mostly without atan2. */
int mur_heading_bin(double vx, double vy);
/* The same for n velocities into bin, several at a time where the CPU can. */
void mur_heading_bins(const double *vx, const double *vy, int n, int *bin);
/* Add one boid's shape to cr's path, world units: centre (x, y), unit heading (ux, uy). */
void mur_boid_path(cairo_t *cr, mur_shape shape, double size, double x, double y, double ux, double uy);
/* Colour bins of the look's colour mode (1 for a fixed colour). */
int mur_bin_count(const mur_look *lk);
/* Rows [*y0, *y1) of the frame (device pixels) that cr's target holds: 1
 * for an image surface (a band of the frame under a device offset, or the
 * whole frame), 0 for a vector surface. What cannot reach them need not be
 * drawn. */
int mur_target_rows(cairo_t *cr, double *y0, double *y1);

/* legible.c: the least UI unit (user units: frame pixels) at which the
 * smallest text the look draws is MUR_TEXT_MIN_PX in a frame whose short
 * side is `side` (a frame under MUR_TEXT_MIN_SIDE: that much less); 0 when
 * it draws none. */
#define MUR_TEXT_MIN_PX 11.0
#define MUR_TEXT_MIN_SIDE 360.0
double mur_legible_unit(const mur_look *lk, double side);
/* A text size held at MUR_TEXT_MIN_PX (scaled as above) for a frame of short side `side`. */
double mur_legible_size(double size, double side);

/* titles.c: the look on the timeline */
/* Ask the look for the moment at t into r->moment (every overlay shown,
 * nothing else, when it has no moment_at). */
void mur_titles_moment(mur_renderer *r, double t);
/* Around drawing overlay kind k (or MUR_LOOK_PREDATORS): 0 when it is
 * hidden (draw nothing, take no room); else draw, then call _end, which
 * lays what was drawn at the overlay's opacity. */
int mur_titles_overlay_begin(mur_renderer *r, cairo_t *cr, int k);
void mur_titles_overlay_end(mur_renderer *r, cairo_t *cr, int k);
/* Captions of the moment (placed without overlap), the fade, the title
 * card, over the whole frame; st: the frame's corner stacks. */
void mur_titles_draw(mur_renderer *r, cairo_t *cr, mur_stacks *st, double u);

/* frame.c: a panel's world (trails, watch, boids, predators) on cr, which
 * holds the world transform and the clip; d: the clip in device pixels for
 * the trails' layers (all 0: no layers); layer: one of them alone, or
 * MUR_LAYER_ALL. 0, MUR_EINTR, or -1 when memory for the trails is short. */
enum { MUR_LAYER_ALL = -1, MUR_LAYER_TRAILS, MUR_LAYER_UNDER, MUR_LAYER_BOIDS, MUR_LAYER_OVER,
       MUR_LAYERS };
/* The predators a frame at t of flock f shows (overlays.c): the look's
 * scripted ones, then the flock's hunters; into pr (MUR_MAX_PREDATORS). */
int mur_render_predators(const mur_look *lk, const mur_flock *f, double t, mur_predator *pr);

int mur_draw_world(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, const int *start, int nb,
                   const int d[4], int layer);

/* camera.c */
void mur_camera_observe(mur_renderer *r, int panel, const mur_flock *f, long tick);
/* A 3D world's camera at t for panel `panel` (view3d.h; the frame's size
 * and near are the caller's): the look's camera, or the default one (from
 * the ground before the box, looking up at its centre), its target the
 * smoothed centre of the flock when it follows it. */
struct mur_view3d;
void mur_camera_view3d(mur_renderer *r, int panel, const mur_flock *f, double t, struct mur_view3d *out);
/* frame3d.c: a 3D world's panel (the sky, its birds far to near, the
 * panel overlays) in the rectangle (x, y, w, h): 0, MUR_EINTR or -1. */
int mur_frame3d_draw(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, double x, double y, double w, double h);
/* frame3d.c: a colour as 0xRRGGBB, each channel clamped to [0, 1]. */
uint32_t mur_rgb24(mur_rgba c);
/* views3d.c: the same, or with `camera.views` the views it lists side by
 * side (the perspective one through mur_frame3d_draw, the orthographic
 * projections with their axes): 0, MUR_EINTR or -1. */
int mur_views3d_draw(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, double x, double y, double w, double h);
/* watch.c: the watch overlays of a 3D panel through view v (cr's user
 * space the view's pixels), after its birds: 0, or -1 when memory is
 * short; a plane's, under its boids (over 0: rings and lines to the
 * neighbours) or over them (1: halos and rule arrows); and the watch's
 * legend box, in either world. */
int mur_watch3d_draw(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, const struct mur_view3d *v);
void mur_watch_plane(mur_panel_ctx *pc, int over);
void mur_watch_legend(mur_panel_ctx *pc, const mur_overlay *o);
/* overlays.c: the offsets of the copies of a disc of radius rad at (x, y)
 * that show inside a wrapping world, the first 0: how many (1 to 4). */
int mur_ghost_offsets(const mur_panel_ctx *pc, const mur_params *p, double x, double y, double rad,
                      double ox[4], double oy[4]);
/* 1 when lk's camera shows views (and so draws their titles and numbers). */
int mur_views3d_wanted(const mur_look *lk);
void mur_camera_free(mur_cam_state *c);

/* predators.c: a predator's look (NULL: none given, or a look before
 * version 4), and its trail: rings made with the renderer (0, or -1
 * without memory), filled each observed tick, and walked segment by
 * segment, oldest first, for the trail seconds before t (age 0 at t, 1 at
 * the trail's end); returns the segments handed to fn. */
const mur_predator_look *mur_predator_look_of(const mur_look *lk, const mur_predator *p);
int mur_pred_trails_init(mur_panel_state *ps, const mur_look *lk);
void mur_pred_trails_free(mur_panel_state *ps);
void mur_pred_trails_observe(mur_panel_state *ps, const mur_flock *f, long tick);
/* A trail stroked as runs of joined segments, one stroke a run of the same
 * age bin: a joint is drawn once (segments stroked one by one bead where
 * their ends overlap), and a trail of hundreds of ticks is a few strokes.
 * source(arg, fade) sets the colour at a run's start (fade 1 new, toward
 * 0 old); end strokes the open run. */
#define MUR_TRAIL_BINS 64
typedef struct mur_trail_strip {
    cairo_t *cr;
    int bin, open;
    double x, y;             /* where the open run ends */
} mur_trail_strip;
void mur_trail_strip_add(mur_trail_strip *s, double x0, double y0, double x1, double y1, double age,
                         void (*source)(void *arg, double fade), void *arg);
void mur_trail_strip_end(mur_trail_strip *s);
int mur_pred_trail_each(const mur_panel_state *ps, const mur_look *lk, const mur_predator *p, double t,
                        void (*fn)(void *arg, const double a[3], const double b[3], double age), void *arg);
/* The view of panel pc->index at pc->t: 1 when it is not the whole world
 * (then draw through mur_camera_draw), 0 for the identity camera. */
int mur_camera_view(mur_renderer *r, int panel, const mur_flock *f, double t, mur_view *out);
/* Draw pc's world through view v into the panel rectangle (x, y, w, h):
 * what mur_draw_world returns. */
int mur_camera_draw(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, const mur_view *v, double x,
                    double y, double w, double h, const int *start, int nb);
/* ghost.c: panel `panel`'s ghost, if any, in outline on cr (world
 * transform set); 0 or MUR_EINTR. */
int mur_ghost_draw(mur_renderer *r, cairo_t *cr, int panel);
/* The same in 3D panel pc at pc->t through view v with the birds' style
 * st (cr's user space the view's pixels), over its birds; 0 or MUR_EINTR. */
int mur_ghost_draw3(mur_renderer *r, cairo_t *cr, const mur_panel_ctx *pc, const struct mur_view3d *v,
                    const struct mur_view3d_style *st);

/* overlays.c */
void mur_series_free(mur_series *s);
int mur_series_init(mur_series *s, const mur_overlay *o, double tps);
/* An empty store of cap samples, one every stride ticks; 0 or -1 (out of memory). */
int mur_series_alloc(mur_series *s, int stride, int cap);
void mur_series_push(mur_series *s, double t, double v);
/* The `params` overlay's line into buf (size at least 160): the count, the
 * interaction's own values (its row's readout, family.c), then the
 * settings the timeline changes that are not among them (lk->shown). */
void mur_params_text_(char *buf, size_t size, const mur_look *lk, const mur_params *p, int count);
double mur_nice_ceiling(double v);   /* a plot's axis top: 1, 2 or 5 times a power of ten */
/* overlay_figure.c: a figure's points (t: the setting, v: the metric), every
 * stride-th tick; full, every other one goes and the stride doubles. */
int mur_figure_init(mur_series *s);
void mur_figure_push(mur_series *s, long tick, double x, double y);
void mur_overlay_figure(mur_panel_ctx *pc, int k, const mur_overlay *o);
void mur_overlays_world_over(mur_panel_ctx *pc);    /* watch arrows, predators */
void mur_overlays_panel(mur_panel_ctx *pc);         /* boxes: readout, plot, legend... */
void mur_overlays_label(mur_renderer *r, cairo_t *cr, const char *name, double x, double y, double w,
                        double h, double u);
void mur_overlays_clock(mur_renderer *r, cairo_t *cr, mur_stacks *st, double t, double u);
void mur_overlays_caption(mur_renderer *r, cairo_t *cr, mur_stacks *st, double t, double u);
/* The metrics the overlays show of a frame (bit k: metric k), measured
 * beside order: 0 when they need no neighbour search. */
unsigned mur_overlays_metrics_wanted(const mur_look *lk);
/* The metrics a frame of look lk draws with: its overlays', and its
 * colour mode's (neighbour counts, clusters). */
unsigned mur_look_metrics_wanted(const mur_look *lk);
/* A boid's size in world units as r draws it now: the look's, or under a
 * camera that keeps boids at their zoom-1 size, that divided by the zoom
 * (frame.c). */
double mur_boid_size(const mur_renderer *r);

/* Provenance in a still or a figure (meta.c): a Cairo write function
 * that passes the bytes on to `write`, adding the text as PNG chunks after
 * IHDR or an SVG <metadata> after the <svg> tag. Zero it, then set the
 * fields; text NULL passes everything through. */
enum { MUR_META_NONE, MUR_META_PNG, MUR_META_SVG };
typedef struct mur_meta_writer {
    cairo_write_func_t write;  /* where the bytes go */
    void *closure;
    int format;                /* MUR_META_* */
    const char *title, *text;  /* borrowed; title may be NULL */
    unsigned long long seen;   /* bytes passed on before the insertion */
    int match, done;           /* SVG: characters of "<svg" matched; inserted */
} mur_meta_writer;
cairo_status_t mur_meta_write(void *closure, const unsigned char *data, unsigned int length);

/* The PDF's document information: title, creator (murmur's version),
 * subject (text), keywords (text's first three lines), and dates from
 * SOURCE_DATE_EPOCH (none without it). */
void mur_meta_pdf(cairo_surface_t *pdf, const char *title, const char *text);

#endif
