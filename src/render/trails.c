/* Trails: where each boid has been over the last `length` ticks, fading.
 *
 * The renderer records every boid's position after every tick in a ring per
 * panel, so a still at T shows exactly the trails of frame T of a render.
 * A trail is walked newest first by nearest-image steps, never by raw
 * differences: a boid that wrapped from x = W - 1 to x = 1 stepped 2 units,
 * not W - 2, and its trail continues past the edge (drawn again from the
 * other side) instead of streaking across the screen. A step longer than
 * the speed limit allows is a jump (a reset), and the trail ends there. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Beyond this a scene asks for more trail than any frame is worth. */
#define TRAIL_MAX_BYTES ((size_t)1 << 30)
/* Fading trails are stroked in this many steps of opacity per colour bin:
 * the eye sees a smooth fade, and each step is one stroke for all boids.
 * Drawing time grows with the steps (each splits every trail once more):
 * at 2,000 boids five steps take a fifth more of Cairo's stroking than one
 * (770 against 936 million instructions for 5 frames, callgrind). */
#define FADE_STEPS 5

void mur_trails_free(mur_trails *t)
{
    free(t->x);
    free(t->y);
    free(t->count);
    free(t->reach);
    memset(t, 0, sizeof *t);
}

/* 0, -1 when memory is short, -2 when the trails would pass TRAIL_MAX_BYTES. */
int mur_trails_record(mur_trails *t, int length, const mur_flock *f)
{
    if (length <= 0)
        return 0;
    int n = mur_flock_count(f), slots = length + 1;
    if (!t->count) {
        t->count = calloc((size_t)slots, sizeof *t->count);
        t->reach = calloc((size_t)slots, sizeof *t->reach);
        if (!t->count || !t->reach)
            return -1;
        t->slots = slots;
        t->head = 0;
        t->filled = 0;
    }
    if ((size_t)n > t->cap) {
        size_t cap = (size_t)n + (size_t)n / 4 + 16;
        if (cap * (size_t)slots * 2 * sizeof(float) > TRAIL_MAX_BYTES)
            return -2;
        float *x = realloc(t->x, cap * (size_t)slots * sizeof *x);
        if (!x)
            return -1;
        t->x = x;
        float *y = realloc(t->y, cap * (size_t)slots * sizeof *y);
        if (!y)
            return -1;
        t->y = y;
        t->cap = cap;
    }
    int h = t->filled ? (t->head + 1) % slots : 0;
    const double *x = mur_flock_x(f), *y = mur_flock_y(f);
    for (int i = 0; i < n; i++) {
        t->x[(size_t)i * slots + h] = (float)x[i];
        t->y[(size_t)i * slots + h] = (float)y[i];
    }
    t->count[h] = n;
    /* An honest step is at most max_speed long (the speed rule runs before
     * the move); twice that, plus float rounding, still rejects a reset. */
    t->reach[h] = (float)(2 * mur_flock_params(f)->max_speed + 1e-3);
    t->head = h;
    if (t->filled < slots)
        t->filled++;
    return 0;
}

int mur_trails_polyline(const mur_trails *t, int i, const mur_params *p, float *px, float *py,
                        int max)
{
    if (!t->filled || max < 1 || i < 0 || i >= t->count[t->head])
        return 0;
    int slots = t->slots, s = t->head;
    const float *xs = t->x + (size_t)i * slots, *ys = t->y + (size_t)i * slots;
    double X = xs[s], Y = ys[s];
    px[0] = (float)X;
    py[0] = (float)Y;
    int np = 1;
    for (int k = 1; k < t->filled && np < max; k++) {
        int older = s == 0 ? slots - 1 : s - 1;
        if (i >= t->count[older])
            break;   /* the boid was added after that tick */
        double dx, dy;
        mur_params_offset(p, xs[s], ys[s], xs[older], ys[older], &dx, &dy);
        double reach = t->reach[s];
        if (dx * dx + dy * dy > reach * reach)
            break;   /* a jump: reset, or a state loaded in place */
        X += dx;
        Y += dy;
        px[np] = (float)X;
        py[np] = (float)Y;
        np++;
        s = older;
    }
    return np;
}

/* Add one polyline, and under wrap its copies shifted by a world size
 * wherever it runs past an edge, to the current path. Points that lie
 * within tol of the chord around them are left out: a boid mostly flies
 * straight, and the stroker's cost is per segment (at 10,000 boids most
 * segments of a trail are a pixel long). */
static void add_polyline(cairo_t *cr, const float *x, const float *y, int n, int wrap, double w,
                         double h, double tol)
{
    double x0 = x[0], x1 = x[0], y0 = y[0], y1 = y[0];
    for (int k = 1; k < n; k++) {
        x0 = fmin(x0, x[k]); x1 = fmax(x1, x[k]);
        y0 = fmin(y0, y[k]); y1 = fmax(y1, y[k]);
    }
    double sx[3] = {0}, sy[3] = {0};
    int nx = 1, ny = 1;
    if (wrap) {
        if (x0 < 0) sx[nx++] = w;
        if (x1 > w) sx[nx++] = -w;
        if (y0 < 0) sy[ny++] = h;
        if (y1 > h) sy[ny++] = -h;
    }
    double tol2 = tol * tol;
    for (int a = 0; a < nx; a++)
        for (int b = 0; b < ny; b++) {
            cairo_move_to(cr, x[0] + sx[a], y[0] + sy[b]);
            int last = 0;
            for (int k = 1; k < n - 1; k++) {
                /* distance of point k from the chord last -> k + 1 */
                double cx = x[k + 1] - x[last], cy = y[k + 1] - y[last];
                double px = x[k] - x[last], py = y[k] - y[last];
                double c2 = cx * cx + cy * cy, cross = cx * py - cy * px;
                if (c2 > 0 ? cross * cross <= tol2 * c2 : px * px + py * py <= tol2)
                    continue;
                cairo_line_to(cr, x[k] + sx[a], y[k] + sy[b]);
                last = k;
            }
            if (n > 1)
                cairo_line_to(cr, x[n - 1] + sx[a], y[n - 1] + sy[b]);
        }
}

void mur_trails_draw(mur_renderer *r, cairo_t *cr, const mur_trails *t, const mur_params *p,
                     const int *bin_start, int nbins)
{
    const mur_scene *s = r->scene;
    int len = t->slots - 1;
    if (t->filled < 2 || len < 1)
        return;
    int steps = s->trail_fade ? (len < FADE_STEPS ? len : FADE_STEPS) : 1;
    int wrap = p->boundary == MUR_BOUNDARY_WRAP;
    cairo_save(cr);
    cairo_set_line_width(cr, fmax(s->boid_size * 0.16, 0.05));
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    /* Cairo's coarser antialiasing grid (4 x 4 samples rather than 256 x 15)
     * rasterises a trail in about half the time (2,000 boids at 1080p: 38 ms
     * a frame against 68, medians of five) and looks the same on a faint
     * line a pixel wide: trails are most of the drawing, and drawing is what
     * a render adds to the encoder's time. Boids keep the fine grid. */
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL);   /* round costs a fifth more, unseen at this width */
    /* a quarter pixel of the output, in world units */
    double ux = 1, uy = 0;
    cairo_user_to_device_distance(cr, &ux, &uy);
    double tol = 0.25 / fmax(hypot(ux, uy), 1e-9);
    for (int b = 0; b < nbins; b++) {
        if (bin_start[b] == bin_start[b + 1])
            continue;
        double rgb[3];
        mur_bin_colour(s, b, rgb);
        for (int q = 0; q < steps; q++) {
            /* segments aged [a0, a1) ticks: points a0 .. a1 */
            int a0 = q * len / steps, a1 = (q + 1) * len / steps;
            cairo_new_path(cr);
            for (int k = bin_start[b]; k < bin_start[b + 1]; k++) {
                int np = mur_trails_polyline(t, r->order[k], p, r->px, r->py, a1 + 1);
                if (np < a0 + 2)
                    continue;
                add_polyline(cr, r->px + a0, r->py + a0, np - a0, wrap, p->width, p->height, tol);
            }
            double age = s->trail_fade ? (a0 + a1) * 0.5 / len : 0;
            cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], 0.55 * s->boid_color.a * (1 - age));
            cairo_stroke(cr);
        }
    }
    cairo_restore(cr);
}
