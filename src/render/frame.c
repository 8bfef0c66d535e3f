/* Drawing one frame: background, world fit, boids.
 *
 * Boids are drawn in world coordinates under one transform, so sizes given
 * in world units scale with the output resolution (a 4K render is a sharp
 * 1080p one, not a field of specks). Boids of one colour bin go into one
 * path and one fill: Cairo's cost is per fill, not per vertex, so 100,000
 * boids are a few dozen fills rather than 100,000. */
#include "murmur/render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
#define COLOUR_BINS 48   /* hue steps for colour-by-heading: finer is not visible */

struct mur_renderer {
    const mur_scene *scene;
    int width, height;
    cairo_surface_t *image;    /* for draw_image */
    double scale, ox, oy;      /* world -> pixels */
    int *bin;                  /* colour bin of each boid */
    int *order;                /* boids sorted by bin */
    size_t cap;
};

int mur_renderer_create(mur_renderer **out, const mur_scene *s, int width, int height,
                        mur_error *err)
{
    *out = NULL;
    if (width < 1 || height < 1 || width > MUR_SCENE_MAX_PIXELS || height > MUR_SCENE_MAX_PIXELS)
        return mur_error_set(err, MUR_EINPUT, "frame size %dx%d is out of range", width, height);
    mur_renderer *r = calloc(1, sizeof *r);
    if (!r)
        return mur_error_set(err, MUR_ERUN, "out of memory");
    r->scene = s;
    r->width = width;
    r->height = height;
    *out = r;
    return MUR_OK;
}

void mur_renderer_destroy(mur_renderer *r)
{
    if (!r)
        return;
    if (r->image)
        cairo_surface_destroy(r->image);
    free(r->bin);
    free(r->order);
    free(r);
}

int mur_render_panels(const mur_scene *s) { return s->panels ? s->nconditions : 1; }

void mur_renderer_observe(mur_renderer *r, int panel, const mur_flock *f, long tick)
{
    (void)r;
    (void)panel;
    (void)f;
    (void)tick;
}

static int reserve(mur_renderer *r, int n)
{
    if ((size_t)n <= r->cap)
        return 0;
    size_t cap = (size_t)n + (size_t)n / 2 + 16;
    int *b = realloc(r->bin, cap * sizeof *b);
    if (!b)
        return -1;
    r->bin = b;
    int *o = realloc(r->order, cap * sizeof *o);
    if (!o)
        return -1;
    r->order = o;
    r->cap = cap;
    return 0;
}

/* HSV with full value to RGB, h in [0, 1). */
static void hue_rgb(double h, double sat, double *rgb)
{
    double h6 = h * 6;
    int i = (int)h6 % 6;
    double f = h6 - floor(h6);
    double p = 1 - sat, q = 1 - sat * f, t = 1 - sat * (1 - f);
    const double tab[6][3] = {{1, t, p}, {q, 1, p}, {p, 1, t}, {p, q, 1}, {t, p, 1}, {1, p, q}};
    memcpy(rgb, tab[i], sizeof tab[i]);
}

static void bin_colour(const mur_scene *s, int bin, double *rgb)
{
    switch (s->color_mode) {
    case MUR_COLOR_HEADING:
        hue_rgb((bin + 0.5) / COLOUR_BINS, 0.55, rgb);
        break;
    default:
        rgb[0] = s->boid_color.r;
        rgb[1] = s->boid_color.g;
        rgb[2] = s->boid_color.b;
        break;
    }
}

static int colour_bins(const mur_scene *s)
{
    return s->color_mode == MUR_COLOR_HEADING ? COLOUR_BINS : 1;
}

static int boid_bin(const mur_scene *s, double vx, double vy)
{
    if (s->color_mode != MUR_COLOR_HEADING)
        return 0;
    double a = atan2(vy, vx) / (2 * PI);
    if (a < 0)
        a += 1;
    int b = (int)(a * COLOUR_BINS);
    return b < 0 ? 0 : (b >= COLOUR_BINS ? COLOUR_BINS - 1 : b);
}

/* Add boid i's outline to the current path, in world coordinates. */
static void boid_path(cairo_t *cr, mur_shape shape, double size, double x, double y, double vx,
                      double vy)
{
    double l = sqrt(vx * vx + vy * vy);
    double ux = l > 0 ? vx / l : 1, uy = l > 0 ? vy / l : 0;  /* heading */
    double px = -uy, py = ux;                                  /* its left */
    double h = size / 2;
    if (shape == MUR_SHAPE_DOT) {
        cairo_new_sub_path(cr);
        cairo_arc(cr, x, y, size / 4, 0, 2 * PI);
        return;
    }
    cairo_move_to(cr, x + ux * h, y + uy * h);
    cairo_line_to(cr, x - ux * h + px * h * 0.6, y - uy * h + py * h * 0.6);
    if (shape == MUR_SHAPE_ARROW)
        cairo_line_to(cr, x - ux * h * 0.45, y - uy * h * 0.45);  /* the notch */
    cairo_line_to(cr, x - ux * h - px * h * 0.6, y - uy * h - py * h * 0.6);
    cairo_close_path(cr);
}

static void draw_boids(mur_renderer *r, cairo_t *cr, const mur_flock *f)
{
    const mur_scene *s = r->scene;
    int n = mur_flock_count(f), nb = colour_bins(s);
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    const double *vx = mur_flock_vx(f), *vy = mur_flock_vy(f);
    /* Counting sort by bin so each bin's boids are one contiguous run. */
    int count[COLOUR_BINS + 1] = {0};
    for (int i = 0; i < n; i++) {
        r->bin[i] = boid_bin(s, vx[i], vy[i]);
        count[r->bin[i] + 1]++;
    }
    for (int b = 0; b < nb; b++)
        count[b + 1] += count[b];
    int start[COLOUR_BINS + 1];
    memcpy(start, count, sizeof start);
    for (int i = 0; i < n; i++)
        r->order[count[r->bin[i]]++] = i;
    for (int b = 0; b < nb; b++) {
        if (start[b] == start[b + 1])
            continue;
        cairo_new_path(cr);
        for (int k = start[b]; k < start[b + 1]; k++) {
            int i = r->order[k];
            boid_path(cr, s->shape, s->boid_size, x[i], y[i], vx[i], vy[i]);
        }
        double rgb[3];
        bin_colour(s, b, rgb);
        cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], s->boid_color.a);
        cairo_fill(cr);
    }
}

/* One flock in the rectangle (x, y, w, h) of the frame, world scaled to fit. */
static int draw_panel(mur_renderer *r, cairo_t *cr, const mur_flock *f, double x, double y,
                      double w, double h, mur_error *err)
{
    const mur_params *p = mur_flock_params(f);
    if (reserve(r, mur_flock_count(f)))
        return mur_error_set(err, MUR_ERUN, "out of memory drawing %d boids", mur_flock_count(f));
    cairo_save(cr);
    r->scale = fmin(w / p->width, h / p->height);
    r->ox = x + (w - p->width * r->scale) / 2;
    r->oy = y + (h - p->height * r->scale) / 2;
    cairo_translate(cr, r->ox, r->oy);
    cairo_scale(cr, r->scale, r->scale);
    cairo_rectangle(cr, 0, 0, p->width, p->height);
    cairo_clip(cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_GOOD);
    draw_boids(r, cr, f);
    cairo_restore(cr);
    return MUR_OK;
}

int mur_renderer_draw(mur_renderer *r, cairo_t *cr, const mur_flock *const *flocks, int n,
                      double t, mur_error *err)
{
    (void)t;
    const mur_scene *s = r->scene;
    int rc = MUR_OK;
    cairo_save(cr);
    /* Opaque background: the encoder reads ARGB32 as straight RGB, which is
     * only right when alpha is 1 everywhere (premultiplied = straight). */
    cairo_set_source_rgb(cr, s->background.r, s->background.g, s->background.b);
    cairo_rectangle(cr, 0, 0, r->width, r->height);
    cairo_fill(cr);
    /* Panels: side by side up to three, else a grid as square as possible. */
    int cols = n <= 3 ? n : (int)ceil(sqrt((double)n));
    int rows = (n + cols - 1) / cols;
    double pw = (double)r->width / cols, ph = (double)r->height / rows;
    for (int i = 0; i < n && !rc; i++)
        rc = draw_panel(r, cr, flocks[i], (i % cols) * pw, (i / cols) * ph, pw, ph, err);
    cairo_restore(cr);
    if (rc)
        return rc;
    cairo_status_t st = cairo_status(cr);
    if (st != CAIRO_STATUS_SUCCESS)
        return mur_error_set(err, MUR_ERUN, "drawing failed: %s", cairo_status_to_string(st));
    return MUR_OK;
}

int mur_renderer_draw_image(mur_renderer *r, const mur_flock *const *flocks, int n, double t,
                            const uint8_t **pixels, int *stride, mur_error *err)
{
    if (!r->image) {
        r->image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, r->width, r->height);
        if (cairo_surface_status(r->image) != CAIRO_STATUS_SUCCESS) {
            cairo_surface_destroy(r->image);
            r->image = NULL;
            return mur_error_set(err, MUR_ERUN, "cannot allocate a %dx%d frame", r->width, r->height);
        }
    }
    cairo_t *cr = cairo_create(r->image);
    int rc = mur_renderer_draw(r, cr, flocks, n, t, err);
    cairo_destroy(cr);
    if (rc)
        return rc;
    cairo_surface_flush(r->image);
    *pixels = cairo_image_surface_get_data(r->image);
    *stride = cairo_image_surface_get_stride(r->image);
    return MUR_OK;
}

int mur_renderer_write_png(mur_renderer *r, const char *path, mur_error *err)
{
    if (!r->image)
        return mur_error_set(err, MUR_ERUN, "no frame drawn yet");
    cairo_status_t st = cairo_surface_write_to_png(r->image, path);
    if (st != CAIRO_STATUS_SUCCESS)
        return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", path, cairo_status_to_string(st));
    return MUR_OK;
}
