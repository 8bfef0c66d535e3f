/* Drawing a 3D state through a camera: view3d.h says what each piece does.
 *
 * Projection. The camera's axes are fwd = unit(target - pos), right =
 * unit(fwd x up), upv = right x fwd. A point p at offset q = p - pos has
 * depth d = q . fwd; perspective draws it at
 *   (w/2 + f (q . right) / d,  h/2 - f (q . upv) / d),  f = (h/2) / tan(fov/2),
 * orthographic at (w/2 + f q . right, h/2 - f q . upv), f = h / height.
 * A point with d < near is behind the camera (or in it) and not drawn.
 *
 * Absorption. Each bird is a thin absorbing layer of opacity a: passing it
 * multiplies what is behind by (1 - a). Optical depths add, so a pixel
 * behind k birds passes exp(-sum tau) = (1 - a)^k of the sky, and the
 * colour is ink + (sky - ink) exp(-tau): a sheet seen edge-on stacks many
 * layers and reads as a dark band, face-on as a pale veil. */
#include "view3d.h"

#include "murmur/alloc.h"
#include "murmur/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static double unit3(double a[3])
{
    double l = sqrt(dot3(a, a));
    if (l > 0)
        for (int k = 0; k < 3; k++)
            a[k] /= l;
    return l;
}

int mur_view3d_init(mur_view3d *v, char *err, size_t n)
{
    for (int k = 0; k < 3; k++)
        v->fwd[k] = v->target[k] - v->pos[k];
    double l = unit3(v->fwd);
    const char *why = NULL;
    if (v->w < 1 || v->h < 1)
        why = "the frame has no pixels";
    else if (!(l > 0) || !isfinite(l))
        why = "the camera's target equals its position";
    else if (v->mode == MUR_VIEW_PERSPECTIVE && !(v->fov > 0 && v->fov < 180))
        why = "the field of view must lie in (0, 180) degrees";
    else if (v->mode == MUR_VIEW_ORTHOGRAPHIC && !(v->height > 0 && isfinite(v->height)))
        why = "an orthographic camera needs a height above 0";
    if (!why) {
        double up[3] = {v->up[0], v->up[1], v->up[2]};
        cross3(v->fwd, up, v->right);
        double r = unit3(v->right), u = sqrt(dot3(up, up));
        if (!(u > 0) || r <= 1e-9 * u)
            why = "the camera's up is parallel to its view";
    }
    if (why) {
        if (err && n)
            snprintf(err, n, "%s", why);
        return MUR_EINPUT;
    }
    cross3(v->right, v->fwd, v->upv);
    if (v->mode == MUR_VIEW_PERSPECTIVE)
        v->focal = 0.5 * v->h / tan(0.5 * v->fov * M_PI / 180.0);
    else
        v->focal = v->h / v->height;
    return 0;
}

int mur_view3d_project(const mur_view3d *v, const double p[3], double *px, double *py, double *depth,
                       double *scale)
{
    double q[3] = {p[0] - v->pos[0], p[1] - v->pos[1], p[2] - v->pos[2]};
    double d = dot3(q, v->fwd);
    if (v->mode == MUR_VIEW_PERSPECTIVE && !(d >= v->near && d > 0))
        return 0;
    if (v->mode == MUR_VIEW_ORTHOGRAPHIC && !(d >= v->near))
        return 0;
    double s = v->mode == MUR_VIEW_PERSPECTIVE ? v->focal / d : v->focal;
    *px = 0.5 * v->w + s * dot3(q, v->right);
    *py = 0.5 * v->h - s * dot3(q, v->upv);
    *depth = d;
    *scale = s;
    return 1;
}

void mur_view3d_image(const mur_view3d *v, double p[3])
{
    for (int k = 0; k < 3; k++)
        if (v->period[k] > 0) {
            double d = p[k] - v->target[k];
            p[k] -= v->period[k] * floor(d / v->period[k] + 0.5);
        }
}

double mur_view3d_blur(const mur_view3d *v, double d)
{
    if (!(v->aperture > 0) || v->mode != MUR_VIEW_PERSPECTIVE || !(d > 0) || !(v->focus > 0))
        return 0;
    return 0.5 * v->focal * v->aperture * fabs(1 / d - 1 / v->focus);
}

typedef struct {
    double d;
    uint32_t i;
} depth_key;

static int far_first(const void *a, const void *b)
{
    const depth_key *p = a, *q = b;
    if (p->d != q->d)
        return p->d > q->d ? -1 : 1;
    return (p->i > q->i) - (p->i < q->i);
}

size_t mur_view3d_order(const mur_view3d *v, size_t n, const double *x, const double *y, const double *z,
                        uint32_t *idx)
{
    depth_key *k = mur_malloc((n ? n : 1) * sizeof *k);
    if (!k)
        return SIZE_MAX;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        double p[3] = {x[i], y[i], z[i]}, px, py, d, s;
        mur_view3d_image(v, p);
        if (mur_view3d_project(v, p, &px, &py, &d, &s))
            k[m++] = (depth_key){d, (uint32_t)i};
    }
    qsort(k, m, sizeof *k, far_first);
    for (size_t j = 0; j < m; j++)
        idx[j] = k[j].i;
    mur_free(k);
    return m;
}

double mur_view3d_haze(double d, double visibility)
{
    if (!(visibility > 0) || !(d > 0))
        return 0;
    return 1 - exp(-d / visibility);
}

double mur_view3d_horizon_row(const mur_view3d *v)
{
    /* the direction of the view laid flat on the ground, far away */
    double g[3] = {v->fwd[0], v->fwd[1], 0};
    if (unit3(g) == 0)
        return v->fwd[2] > 0 ? v->h * 2.0 : -v->h * 1.0;
    if (v->mode == MUR_VIEW_ORTHOGRAPHIC) {
        /* no vanishing line: the ground under the target */
        double q[3] = {v->target[0] - v->pos[0], v->target[1] - v->pos[1], -v->pos[2]};
        return 0.5 * v->h - v->focal * dot3(q, v->upv);
    }
    double d = dot3(g, v->fwd), u = dot3(g, v->upv);
    return 0.5 * v->h - v->focal * u / d;
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static double chan(uint32_t c, int k)
{
    return (double)((c >> (16 - 8 * k)) & 0xff);
}

static uint32_t lerp_rgb(uint32_t a, uint32_t b, double t)
{
    uint32_t o = 0xff000000u;
    for (int k = 0; k < 3; k++) {
        double c = chan(a, k) + (chan(b, k) - chan(a, k)) * t;
        o |= (uint32_t)lrint(c < 0 ? 0 : c > 255 ? 255 : c) << (16 - 8 * k);
    }
    return o;
}

/* The tree line's height at column x, in pixels: a few crowns' worth of
 * hashed bumps, smooth along the row. */
static double tree_height(const mur_sky *s, int x)
{
    int cell = x / 24;
    double f = (x % 24) / 24.0, e = f * f * (3 - 2 * f);
    double a = (mix64(s->seed ^ (uint64_t)cell) >> 11) * 0x1.0p-53;
    double b = (mix64(s->seed ^ (uint64_t)(cell + 1)) >> 11) * 0x1.0p-53;
    double fine = (mix64(s->seed * 31 + (uint64_t)x) >> 11) * 0x1.0p-53;
    return s->tree_px * (0.55 + 0.4 * (a + (b - a) * e) + 0.05 * fine);
}

void mur_view3d_sky(const mur_view3d *v, const mur_sky *s, unsigned char *data, int stride)
{
    double hr = mur_view3d_horizon_row(v);
    if (!(hr > -2.0 * v->h))   /* far outside the frame (or not a number): as good as there */
        hr = -2.0 * v->h;
    if (hr > 3.0 * v->h)
        hr = 3.0 * v->h;
    for (int y = 0; y < v->h; y++) {
        uint32_t *row = (uint32_t *)(data + (size_t)y * (size_t)stride);
        uint32_t c;
        if (y >= hr) {
            c = s->ground | 0xff000000u;
        } else {
            double t = hr > 0 ? (double)y / hr : 1;
            c = lerp_rgb(s->zenith, s->horizon, t * t);
        }
        for (int x = 0; x < v->w; x++)
            row[x] = c;
    }
    if (!(s->tree_px > 0))
        return;
    for (int x = 0; x < v->w; x++) {
        double top = hr - tree_height(s, x);
        for (int y = top < 0 ? 0 : (int)ceil(top); y < v->h && y < hr + 1; y++)
            ((uint32_t *)(data + (size_t)y * (size_t)stride))[x] = s->trees | 0xff000000u;
    }
}

double mur_wing_angle(double t, double freq, double amplitude, uint32_t id)
{
    double phase = (mix64(0x5eedull + id) >> 11) * 0x1.0p-53;
    return amplitude * sin(2 * M_PI * (freq * t + phase));
}

void mur_view3d_bird(cairo_t *cr, double px, double py, double hx, double hy, double len, double wing,
                     const double rgb[3])
{
    mur_view3d_bird_alpha(cr, px, py, hx, hy, len, wing, rgb, 1);
}

void mur_view3d_bird_alpha(cairo_t *cr, double px, double py, double hx, double hy, double len, double wing,
                           const double rgb[3], double alpha)
{
    /* level: the wings across the body in the picture, the tips raised up
     * the picture (y grows down) */
    double l = hypot(hx, hy);
    double nx = l > 0 ? -hy / l : 0, ny = l > 0 ? hx / l : 1;
    mur_view3d_bird_banked(cr, px, py, hx, hy, nx, ny, 0, -1, len, wing, rgb, alpha);
}

void mur_view3d_bird_banked(cairo_t *cr, double px, double py, double hx, double hy, double sx, double sy,
                            double ux, double uy, double len, double wing, const double rgb[3], double alpha)
{
    if (alpha < 1)
        cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], alpha);
    else
        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
    mur_view3d_bird_path(cr, px, py, hx, hy, sx, sy, ux, uy, len, wing);
    cairo_fill(cr);
}

void mur_view3d_bird_path(cairo_t *cr, double px, double py, double hx, double hy, double sx, double sy,
                          double ux, double uy, double len, double wing)
{
    double l = hypot(hx, hy);
    if (!(l > 0)) {
        hx = 1;
        hy = 0;
        l = 1;
    }
    hx /= l;
    hy /= l;
    double nx = -hy, ny = hx;
    double span = 0.75 * len * (0.35 + 0.65 * fabs(cos(wing))), lift = 0.45 * len * sin(wing);
    cairo_move_to(cr, px + 0.5 * len * hx, py + 0.5 * len * hy);
    cairo_line_to(cr, px + 0.12 * len * nx, py + 0.12 * len * ny);
    cairo_line_to(cr, px - 0.5 * len * hx, py - 0.5 * len * hy);
    cairo_line_to(cr, px - 0.12 * len * nx, py - 0.12 * len * ny);
    cairo_close_path(cr);
    for (int side = -1; side <= 1; side += 2) {
        double tx = px + side * span * sx - 0.25 * len * hx + lift * ux;
        double ty = py + side * span * sy - 0.25 * len * hy + lift * uy;
        cairo_move_to(cr, px + 0.15 * len * hx, py + 0.15 * len * hy);
        cairo_line_to(cr, tx, ty);
        cairo_line_to(cr, px - 0.2 * len * hx, py - 0.2 * len * hy);
        cairo_close_path(cr);
    }
}

/* The picture of the unit world direction e at p (pixel px, py, scale s
 * pixels a world unit there): length 1 across the view, 0 along it. */
static void picture_dir(const mur_view3d *v, const double p[3], const double e[3], double px, double py, double s,
                        double *ex, double *ey)
{
    double q[3] = {p[0] + 1e-3 * e[0], p[1] + 1e-3 * e[1], p[2] + 1e-3 * e[2]}, qx, qy, d, t;
    *ex = *ey = 0;
    if (s > 0 && mur_view3d_project(v, q, &qx, &qy, &d, &t)) {
        *ex = (qx - px) / (1e-3 * s);
        *ey = (qy - py) / (1e-3 * s);
    }
}

void mur_absorb_add(float *tau, int w, int h, double px, double py, double r, double opacity)
{
    if (!(opacity > 0) || !(r > 0))
        return;
    double a = -log1p(-(opacity < 1 ? opacity : 0.999999));
    if (r < 1) {
        /* under a pixel across: the disc's whole optical depth, a pi r^2,
         * shared bilinearly among the four pixels nearest its centre, so a
         * small bird darkens as much as its area says and moves smoothly */
        double total = a * M_PI * r * r, gx = px - 0.5, gy = py - 0.5;
        int x0 = (int)floor(gx), y0 = (int)floor(gy);
        double fx = gx - x0, fy = gy - y0;
        for (int j = 0; j < 2; j++)
            for (int i = 0; i < 2; i++) {
                int X = x0 + i, Y = y0 + j;
                double wgt = (i ? fx : 1 - fx) * (j ? fy : 1 - fy);
                if (X >= 0 && X < w && Y >= 0 && Y < h && wgt > 0)
                    tau[(size_t)Y * (size_t)w + (size_t)X] += (float)(total * wgt);
            }
        return;
    }
    float af = (float)a;
    int cx = (int)floor(px), cy = (int)floor(py);
    int rr = (int)ceil(r);
    for (int y = cy - rr; y <= cy + rr; y++) {
        if (y < 0 || y >= h)
            continue;
        for (int x = cx - rr; x <= cx + rr; x++) {
            if (x < 0 || x >= w)
                continue;
            double dx = x + 0.5 - px, dy = y + 0.5 - py;
            if (dx * dx + dy * dy <= r * r || (x == cx && y == cy))
                tau[(size_t)y * (size_t)w + (size_t)x] += af;
        }
    }
}

void mur_absorb_apply(const float *tau, int w, int h, unsigned char *data, int stride, uint32_t ink)
{
    for (int y = 0; y < h; y++) {
        uint32_t *row = (uint32_t *)(data + (size_t)y * (size_t)stride);
        for (int x = 0; x < w; x++) {
            float t = tau[(size_t)y * (size_t)w + (size_t)x];
            if (t == 0)
                continue;
            double pass = exp(-(double)t);
            uint32_t c = row[x], o = c & 0xff000000u;
            for (int k = 0; k < 3; k++) {
                double i = chan(ink, k), s = chan(c, k);
                o |= (uint32_t)lrint(i + (s - i) * pass) << (16 - 8 * k);
            }
            row[x] = o;
        }
    }
}

/* Bird i's heading as the picture shows it: the projection of a short step
 * along its velocity, from its own pixel. */
static void picture_heading(const mur_view3d *v, const double p[3], const double u[3], double px, double py,
                            double *hx, double *hy)
{
    double q[3] = {p[0] + 1e-3 * u[0], p[1] + 1e-3 * u[1], p[2] + 1e-3 * u[2]}, qx, qy, d, s;
    *hx = 1;
    *hy = 0;
    if (mur_view3d_project(v, q, &qx, &qy, &d, &s) && (qx != px || qy != py)) {
        *hx = qx - px;
        *hy = qy - py;
    }
}

/* The share of a bird's shadow a line of sight along unit l sees: its
 * wings' underside face-on (l along its up u) all of it, edge-on
 * MUR_ABSORB_EDGE of it (the body and the wings' edges); a level bird (no
 * up) all of it. */
#define MUR_ABSORB_EDGE 0.2

/* Absorbing birds (mur_view3d_birds with tau): each lays its optical depth
 * -ln(1 - opacity), times the share its body frame shows the camera and
 * the air's 1 - haze in front of it, on a disc of half its length (no
 * smaller bird: under a pixel its area's worth, mur_absorb_add). Optical
 * depths add, so no order is needed: birds in index order. */
static void absorbing(const mur_view3d *v, const mur_view3d_style *st, size_t n, const double *x, const double *y,
                      const double *z, float *tau)
{
    double a0 = -log1p(-fmin(st->opacity, 0.999999));
    for (size_t i = 0; i < n; i++) {
        double p[3] = {x[i], y[i], z[i]}, px = 0, py = 0, d = 0, s = 0;
        mur_view3d_image(v, p);
        if (!mur_view3d_project(v, p, &px, &py, &d, &s))
            continue;
        double len = fmin(st->len_world * s, 4.0 * fmax(v->w, v->h));
        if (!isfinite(px) || !isfinite(py) || !(len > 0))
            continue;
        double b = mur_view3d_blur(v, d);
        if (b < 0.05)
            b = 0;
        double r0 = 0.5 * len, r1 = r0 + b;
        if (px < -r1 - 1 || py < -r1 - 1 || px > v->w + r1 + 1 || py > v->h + r1 + 1)
            continue;
        double share = 1;
        if (st->up) {
            const double *u = st->up + 3 * i;
            double l[3] = {p[0] - v->pos[0], p[1] - v->pos[1], p[2] - v->pos[2]};
            if (v->mode == MUR_VIEW_ORTHOGRAPHIC)
                l[0] = v->fwd[0], l[1] = v->fwd[1], l[2] = v->fwd[2];
            double ll = sqrt(dot3(l, l));
            if (ll > 0)
                share = MUR_ABSORB_EDGE + (1 - MUR_ABSORB_EDGE) * fabs(dot3(u, l)) / ll;
        }
        /* out of focus: the same optical depth spread over the wider disc */
        double tau_b = a0 * share * (1 - mur_view3d_haze(d, st->visibility)) * (r0 * r0) / (r1 * r1);
        mur_absorb_add(tau, v->w, v->h, px, py, r1, -expm1(-tau_b));
    }
}

/* The birds of mur_view3d_draw and mur_view3d_birds: the id of bird i is
 * uids[i], else iids[i], else i. */
static int birds(cairo_t *cr, const mur_view3d *v, const mur_view3d_style *st, size_t n, const double *x,
                 const double *y, const double *z, const double *vx, const double *vy, const double *vz,
                 const uint32_t *uids, const int *iids, double t, float *tau)
{
    if (tau) {
        absorbing(v, st, n, x, y, z, tau);
        return 0;
    }
    uint32_t *idx = mur_malloc((n ? n : 1) * sizeof *idx);
    if (!idx)
        return -1;
    size_t m = mur_view3d_order(v, n, x, y, z, idx);
    if (m == SIZE_MAX) {
        mur_free(idx);
        return -1;
    }
    double bird[3] = {chan(st->bird, 0) / 255, chan(st->bird, 1) / 255, chan(st->bird, 2) / 255};
    double haze[3] = {chan(st->sky.horizon, 0) / 255, chan(st->sky.horizon, 1) / 255,
                      chan(st->sky.horizon, 2) / 255};
    for (size_t j = 0; j < m; j++) {
        uint32_t i = idx[j];
        double p[3] = {x[i], y[i], z[i]}, u[3] = {vx[i], vy[i], vz[i]}, px = 0, py = 0, d = 0, s = 0, hx = 0, hy = 0;
        mur_view3d_image(v, p);
        mur_view3d_project(v, p, &px, &py, &d, &s);
        /* a bird larger than the frame covers it anyway: no larger (a hostile
         * camera's scale cannot make a disc of 1e12 pixels to walk) */
        double len = fmin(fmax(st->len_world * s, st->min_px), 4.0 * fmax(v->w, v->h));
        if (!isfinite(px) || !isfinite(py) || !(len > 0))
            continue;
        /* Out of focus (depth of field): the bird grown by its circle of
         * confusion b on every side and fainter by the ratio of the areas,
         * so it lays the same ink spread wider; under 0.05 pixels it is
         * drawn sharp, as without depth of field. */
        double b = mur_view3d_blur(v, d), fade = 1;
        if (b < 0.05)
            b = 0;
        if (px < -len - 2 * b || py < -len - 2 * b || px > v->w + len + 2 * b || py > v->h + len + 2 * b)
            continue;
        double a = mur_view3d_haze(d, st->visibility), rgb[3];
        const double *ink = st->bin ? st->palette[st->bin[i]] : bird;
        for (int k = 0; k < 3; k++)
            rgb[k] = ink[k] + (haze[k] - ink[k]) * a;
        if (st->points) {
            double r0 = fmax(0.25 * len, 0.6), r1 = r0 + b;
            if (b > 0)
                cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], r0 * r0 / (r1 * r1));
            else
                cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
            cairo_arc(cr, px, py, r1, 0, 2 * M_PI);
            cairo_fill(cr);
            continue;
        }
        if (b > 0) {
            fade = len * len / ((len + 2 * b) * (len + 2 * b));
            len += 2 * b;
        }
        picture_heading(v, p, u, px, py, &hx, &hy);
        uint32_t id = uids ? uids[i] : iids ? (uint32_t)iids[i] : i;
        double wing = mur_wing_angle(t, st->wing_freq, 0.9, id);
        if (st->up) {   /* a banked bird: its wings along its body's side, raised along its up */
            const double *b = st->up + 3 * (size_t)i;
            double f[3] = {u[0], u[1], u[2]}, fl = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
            if (fl > 0) {
                for (int k = 0; k < 3; k++)
                    f[k] /= fl;
                double w[3] = {f[1] * b[2] - f[2] * b[1], f[2] * b[0] - f[0] * b[2], f[0] * b[1] - f[1] * b[0]};
                double sx, sy, ux, uy;
                picture_dir(v, p, w, px, py, s, &sx, &sy);
                picture_dir(v, p, b, px, py, s, &ux, &uy);
                mur_view3d_bird_banked(cr, px, py, hx, hy, sx, sy, ux, uy, len, wing, rgb, fade);
                continue;
            }
        }
        mur_view3d_bird_alpha(cr, px, py, hx, hy, len, wing, rgb, fade);
    }
    mur_free(idx);
    return 0;
}

/* Where a bird's wings and up lie in the picture (mur_view3d_bird_banked's
 * sx, sy, ux, uy): along its body frame's side and up when st->up gives
 * one, else level (across its picture heading, tips up the picture). */
static void picture_frame(const mur_view3d *v, const mur_view3d_style *st, size_t i, const double p[3],
                          const double u[3], double px, double py, double s, double hx, double hy, double fr[4])
{
    double l = hypot(hx, hy), fl = sqrt(dot3(u, u));
    fr[0] = l > 0 ? -hy / l : 0;
    fr[1] = l > 0 ? hx / l : 1;
    fr[2] = 0;
    fr[3] = -1;
    if (!st->up || !(fl > 0))
        return;
    const double *b = st->up + 3 * i;
    double f[3] = {u[0] / fl, u[1] / fl, u[2] / fl}, w[3];
    cross3(f, b, w);
    picture_dir(v, p, w, px, py, s, &fr[0], &fr[1]);
    picture_dir(v, p, b, px, py, s, &fr[2], &fr[3]);
}

void mur_view3d_outlines(cairo_t *cr, const mur_view3d *v, const mur_view3d_style *st, size_t n, const double *x,
                         const double *y, const double *z, const double *vx, const double *vy, const double *vz,
                         const int *ids, double t, const double back[3], const double box[3])
{
    for (size_t i = 0; i < n; i++) {
        double p[3] = {x[i] - back[0], y[i] - back[1], z[i] - back[2]}, u[3] = {vx[i], vy[i], vz[i]};
        for (int k = 0; k < 3; k++)
            if (box[k] > 0) {   /* the twin's bird where its original flies, inside the world */
                p[k] = fmod(p[k], box[k]);
                p[k] = p[k] < 0 ? p[k] + box[k] : p[k];
            }
        double px = 0, py = 0, d = 0, s = 0, hx = 0, hy = 0;
        mur_view3d_image(v, p);
        if (!mur_view3d_project(v, p, &px, &py, &d, &s))
            continue;
        double len = fmin(fmax(st->len_world * s, st->min_px), 4.0 * fmax(v->w, v->h));
        if (!isfinite(px) || !isfinite(py) || !(len > 0) || px < -len || py < -len || px > v->w + len ||
            py > v->h + len)
            continue;
        if (st->points || len < MUR_VIEW3D_OUTLINE_PX) {
            /* a ring around the bird, clear of a dot's or a speck's edge */
            double r = st->points ? fmax(0.25 * len, 0.6) + 1.5 : fmax(0.6 * len, 2.5);
            cairo_new_sub_path(cr);
            cairo_arc(cr, px, py, r, 0, 2 * M_PI);
            continue;
        }
        double fr[4];
        picture_heading(v, p, u, px, py, &hx, &hy);
        picture_frame(v, st, i, p, u, px, py, s, hx, hy, fr);
        double wing = mur_wing_angle(t, st->wing_freq, 0.9, ids ? (uint32_t)ids[i] : (uint32_t)i);
        mur_view3d_bird_path(cr, px, py, hx, hy, fr[0], fr[1], fr[2], fr[3], len, wing);
    }
}

int mur_view3d_draw(cairo_t *cr, const mur_view3d *v, const mur_view3d_style *st, size_t n, const double *x,
                    const double *y, const double *z, const double *vx, const double *vy, const double *vz,
                    const uint32_t *ids, double t)
{
    cairo_surface_t *img = cairo_get_target(cr);
    cairo_surface_flush(img);
    mur_view3d_sky(v, &st->sky, cairo_image_surface_get_data(img), cairo_image_surface_get_stride(img));
    cairo_surface_mark_dirty(img);
    return birds(cr, v, st, n, x, y, z, vx, vy, vz, ids, NULL, t, NULL);
}

int mur_view3d_birds(cairo_t *cr, const mur_view3d *v, const mur_view3d_style *st, size_t n, const double *x,
                     const double *y, const double *z, const double *vx, const double *vy, const double *vz,
                     const int *ids, double t, float *tau)
{
    return birds(cr, v, st, n, x, y, z, vx, vy, vz, NULL, ids, t, tau);
}
