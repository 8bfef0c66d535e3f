/* A 3D world's panel (issue #29; docs/scenes.md "Three dimensions").
 *
 * A flock whose z is not NULL is drawn through the look's 3D camera
 * (camera.c: mur_camera_view3d) rather than seen from above: the evening
 * sky (view3d.c) into an image of the panel's pixels, laid on the frame,
 * then the birds far to near over it as silhouettes or points, hazed
 * toward the horizon's colour by distance. With `look.boid.shape:
 * density` the birds are not drawn but absorb the sky (Beer-Lambert,
 * mur_absorb_*): each lays -ln(1 - opacity) of optical depth on a disc of
 * half its length (a starling: by how much wing it shows the camera), so
 * a dense part of the flock seen through many birds is dark and a thin one
 * a veil. The fleeing predators are drawn over the birds as falcons.
 *
 * All of it is drawn on one thread, in the same order whatever the
 * renderer's thread count, so the bytes of a frame do not depend on it;
 * the overlays of the panel and the frame (readouts, captions, titles)
 * are drawn after it as in 2D by frame.c. Vector stills take the same
 * path: the sky is an image in them, the birds are paths. */
#include "internal.h"
#include "view3d.h"
#include "murmur/alloc.h"

#include <math.h>
#include <string.h>

uint32_t mur_rgb24(mur_rgba c)
{
    uint32_t o = 0;
    double v[3] = {c.r, c.g, c.b};
    for (int k = 0; k < 3; k++) {
        double u = v[k] < 0 ? 0 : v[k] > 1 ? 1 : v[k];
        o |= (uint32_t)lrint(u * 255) << (16 - 8 * k);
    }
    return o;
}

/* Seed of the tree line's profile (the same on every frame: the trees stand still). */
#define TREE_SEED 0x74726565ull

/* A falcon is this many birds long (a peregrine's span, about a metre, over
 * a starling's 0.4 m), and beats its wings at this share of the birds' rate. */
#define FALCON_SCALE 2.5
#define FALCON_BEAT 0.5
/* ...and is never drawn under this many pixels long: in sight at any distance. */
#define FALCON_MIN_PX 8.0

/* One segment of a falcon's trail through the camera (mur_pred_trail_each):
 * each end at its image the camera draws, both in front of it, a line a
 * tenth of the falcon's length at that depth wide (at least a pixel),
 * hazed as the falcon and fading with age. */
typedef struct sky_trail {
    mur_trail_strip strip;
    const mur_view3d *v;
    const double *ink, *haze;
    double body, visibility, alpha;
    double depth, scale;     /* the newest end's, for the run it starts */
} sky_trail;

static void sky_trail_source(void *arg, double fade)
{
    const sky_trail *st = arg;
    double h = mur_view3d_haze(st->depth, st->visibility);
    cairo_set_source_rgba(st->strip.cr, st->ink[0] + (st->haze[0] - st->ink[0]) * h,
                          st->ink[1] + (st->haze[1] - st->ink[1]) * h, st->ink[2] + (st->haze[2] - st->ink[2]) * h,
                          st->alpha * fade);
    cairo_set_line_width(st->strip.cr, fmax(1, 0.1 * st->body * st->scale));
}

static void sky_trail_segment(void *arg, const double a[3], const double b[3], double age)
{
    sky_trail *st = arg;
    double p[2][3] = {{a[0], a[1], a[2]}, {b[0], b[1], b[2]}}, px[2], py[2], d[2], s[2];
    for (int e = 0; e < 2; e++) {
        mur_view3d_image(st->v, p[e]);
        if (!mur_view3d_project(st->v, p[e], &px[e], &py[e], &d[e], &s[e]) || !isfinite(px[e]) || !isfinite(py[e]))
            return;
    }
    st->depth = d[1];
    st->scale = s[1];
    mur_trail_strip_add(&st->strip, px[0], py[0], px[1], py[1], age, sky_trail_source, st);
}

/* Predator k's heading on the picture at (px, py): along its path (a
 * scripted one: its motion over the next millisecond, `later`) or toward
 * the nearest bird (a hunter, which turns toward it); (1, 0) when the
 * picture of that motion is a point. */
static void falcon_heading(const mur_panel_ctx *pc, const mur_view3d *v, const mur_predator *pr, const mur_predator *later,
                           const double p[3], double px, double py, double *hx, double *hy)
{
    double to[3] = {pr->x + 1, pr->y, pr->z};   /* the predator where it is, not at its image */
    if (later)
        to[0] = later->x, to[1] = later->y, to[2] = later->z;
    else
        mur_flock_pursue_target3(pc->f, MUR_PURSUE_NEAREST, (double[3]){pr->x, pr->y, pr->z}, to);
    double dir[3] = {to[0] - pr->x, to[1] - pr->y, to[2] - pr->z};
    double q[3] = {p[0] + 1e-3 * dir[0], p[1] + 1e-3 * dir[1], p[2] + 1e-3 * dir[2]}, qx, qy, qd, qs;
    *hx = 1, *hy = 0;
    if (mur_view3d_project(v, q, &qx, &qy, &qd, &qs) && (qx != px || qy != py))
        *hx = qx - px, *hy = qy - py;
}

/* The fleeing predators, each drawn as a bird over the flock, FALCON_SCALE
 * times the size of the flock's or its own `size` (world units), never
 * under FALCON_MIN_PX, in the birds' ink or its own `color`, heading along
 * its path, hazed as the birds, its `trail` behind it. The attractors are
 * places, not birds: not drawn. Gated and faded as the 2D markers are
 * (timeline show/hide of `predators`). */
static void falcons(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, const mur_view3d *v,
                    const mur_view3d_style *st)
{
    const mur_look *lk = r->look;
    mur_predator pr[MUR_MAX_PREDATORS], later[MUR_MAX_PREDATORS];
    int np = mur_render_predators(lk, pc->f, pc->t, pr);
    if (!np || !mur_titles_overlay_begin(r, cr, MUR_LOOK_PREDATORS))
        return;
    int nl = lk->predators_at ? lk->predators_at(lk->ctx, pc->t + 1e-3, later, MUR_MAX_PREDATORS) : 0;
    const double birds[3] = {((st->bird >> 16) & 0xff) / 255.0, ((st->bird >> 8) & 0xff) / 255.0,
                             (st->bird & 0xff) / 255.0};
    double haze[3] = {((st->sky.horizon >> 16) & 0xff) / 255.0, ((st->sky.horizon >> 8) & 0xff) / 255.0,
                      (st->sky.horizon & 0xff) / 255.0};
    int ns = 0;   /* the scripted ones come first (mur_render_predators) */
    while (ns < np && !pr[ns].hunting)
        ns++;
    if (nl != ns)   /* one starts or stops within the millisecond: no path to follow */
        nl = 0;
    for (int k = 0, scripted = 0; k < np; k++) {
        int own = pr[k].hunting;
        if (!own)
            scripted++;
        if (pr[k].attract)
            continue;
        const mur_predator_look *pl = mur_predator_look_of(lk, &pr[k]);
        const double mine[3] = {pl ? pl->color.r : 0, pl ? pl->color.g : 0, pl ? pl->color.b : 0};
        const double *ink = pl && pl->has_color ? mine : birds;
        double body = pl && pl->size > 0 ? pl->size : FALCON_SCALE * st->len_world;
        if (pl && pl->trail > 0) {
            sky_trail tr = {{cr, 0, 0, 0, 0}, v, ink, haze, body, st->visibility,
                            0.7 * (pl->has_color ? pl->color.a : 1), 0, 0};
            cairo_save(cr);
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);   /* runs meet flush: no bead at a bin's edge */
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
            mur_pred_trail_each(r->panels + pc->index, lk, &pr[k], pc->t, sky_trail_segment, &tr);
            mur_trail_strip_end(&tr.strip);
            cairo_restore(cr);
        }
        double p[3] = {pr[k].x, pr[k].y, pr[k].z};
        mur_view3d_image(v, p);
        double px, py, d, s;
        if (!mur_view3d_project(v, p, &px, &py, &d, &s))
            continue;
        double len = fmin(fmax(body * s, FALCON_MIN_PX), 4.0 * fmax(v->w, v->h));
        if (!isfinite(px) || !isfinite(py) || px < -len || py < -len || px > v->w + len || py > v->h + len)
            continue;
        double hx, hy;
        falcon_heading(pc, v, &pr[k], !own && scripted - 1 < nl ? &later[scripted - 1] : NULL, p, px, py, &hx, &hy);
        double a = mur_view3d_haze(d, st->visibility), rgb[3];
        for (int c = 0; c < 3; c++)
            rgb[c] = ink[c] + (haze[c] - ink[c]) * a;
        double wing = mur_wing_angle(pc->t, FALCON_BEAT * st->wing_freq, 0.9, 0xfa1c0000u + (uint32_t)k);
        mur_view3d_bird(cr, px, py, hx, hy, len, wing, rgb);
    }
    mur_titles_overlay_end(r, cr, MUR_LOOK_PREDATORS);
}

/* The panel's sky image (W x H) and, for absorbing birds, its optical
 * depths (zeroed), made anew only when the size changes: a 1080p frame's
 * two fresh buffers cost more in page faults and zeroing than drawing
 * 20,000 birds into them. */
static int panel_buffers(mur_panel_state *ps, int W, int H, int absorb)
{
    if (!ps->sky || cairo_image_surface_get_width(ps->sky) != W || cairo_image_surface_get_height(ps->sky) != H) {
        cairo_surface_destroy(ps->sky);
        mur_free(ps->tau);
        ps->tau = NULL;
        ps->sky = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
        if (cairo_surface_status(ps->sky) != CAIRO_STATUS_SUCCESS) {
            cairo_surface_destroy(ps->sky);
            ps->sky = NULL;
            return -1;
        }
    }
    if (absorb && !ps->tau && !(ps->tau = mur_calloc((size_t)W * (size_t)H, sizeof *ps->tau)))
        return -1;
    return 0;
}

/* How the look draws a panel H pixels high: the sky, the birds' ink, size
 * and wings (no colour bins: the caller adds them). */
static mur_view3d_style panel_style(const mur_look *lk, const mur_flock *f, int H)
{
    return (mur_view3d_style){
        .sky = {.zenith = mur_rgb24(lk->sky_zenith), .horizon = mur_rgb24(lk->sky_horizon),
                .ground = mur_rgb24(lk->sky_ground),
                .trees = mur_rgb24(lk->sky_trees), .tree_px = lk->tree_height * H, .seed = TREE_SEED},
        .bird = mur_rgb24(lk->boid_color),
        .len_world = lk->boid_size,
        .min_px = 1.5,
        .visibility = lk->visibility,
        .wing_freq = lk->wingbeat,
        .points = lk->birds == MUR_BIRDS_POINTS,
        .opacity = lk->boid_color.a < 1 ? lk->boid_color.a : 0.5,
        .up = mur_flock_up(f),   /* starlings bank (NULL: level birds) */
    };
}

/* The panel's birds through the camera: silhouettes on cr, or with tau
 * their optical depths laid into it. */
static int birds(cairo_t *cr, const mur_view3d *v, const mur_view3d_style *st, const mur_panel_ctx *pc, float *tau)
{
    const mur_flock *f = pc->f;
    return mur_view3d_birds(cr, v, st, (size_t)mur_flock_count(f), mur_flock_x(f), mur_flock_y(f), mur_flock_z(f),
                            mur_flock_vx(f), mur_flock_vy(f), mur_flock_vz(f), mur_flock_ids(f), pc->t, tau);
}

/* Enters with the panel's buffers (panel_buffers) and the camera, ok when
 * it is sound; leaves the sky image painted (the zenith's colour alone
 * without a sound camera) and, for absorbing birds, their shade on it and
 * the optical depths zeroed again. */
static int paint_sky(cairo_t *cr, mur_panel_state *ps, mur_panel_ctx *pc, const mur_view3d *v,
                     const mur_view3d_style *st, int ok, int absorb)
{
    int W = v->w, H = v->h, rc = 0;
    cairo_surface_t *sky = ps->sky;
    cairo_surface_flush(sky);
    unsigned char *data = cairo_image_surface_get_data(sky);
    int stride = cairo_image_surface_get_stride(sky);
    if (ok) {
        mur_view3d_sky(v, &st->sky, data, stride);
    } else {   /* no horizon: the sky's zenith colour throughout */
        for (int j = 0; j < H; j++)
            for (int i = 0; i < W; i++)
                ((uint32_t *)(data + (size_t)j * (size_t)stride))[i] = 0xff000000u | st->sky.zenith;
    }
    if (ok && absorb && mur_flock_count(pc->f) > 0) {
        float *tau = ps->tau;
        if (birds(cr, v, st, pc, tau))
            rc = -1;
        else
            mur_absorb_apply(tau, W, H, data, stride, st->bird);
        memset(tau, 0, (size_t)W * (size_t)H * sizeof *tau);   /* for the next frame */
    }
    cairo_surface_mark_dirty(sky);
    return rc;
}

/* Enters with the sky laid and cr clipped to the panel, its corner at (X,
 * Y) device pixels; leaves over the sky, in order, the trails, the birds
 * (unless they absorbed), a twin's ghost, the falcons and the one-boid
 * view, stopping at the first that fails. */
static int over_sky(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, const mur_view3d *v,
                    const mur_view3d_style *st, int absorb, int X, int Y)
{
    const mur_flock *f = pc->f;
    int n = mur_flock_count(f);
    mur_panel_state *ps = &r->panels[pc->index];
    /* the trails, under the birds (trails3d.c) */
    int rc = mur_trails3d_draw(r, cr, &ps->trails, mur_flock_params(f), v, st, X, Y);
    if (!rc && !absorb && n > 0) {
        cairo_translate(cr, X, Y);
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_GOOD);
        rc = birds(cr, v, st, pc, NULL);
    }
    if (!rc && ps->ghost) {   /* a twin's ghost, over the birds it shadows */
        cairo_identity_matrix(cr);
        cairo_translate(cr, X, Y);
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_GOOD);
        rc = mur_ghost_draw3(r, cr, pc, v, st);
    }
    if (!rc) {   /* the falcons, over the birds */
        cairo_identity_matrix(cr);
        cairo_translate(cr, X, Y);
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_GOOD);
        falcons(r, cr, pc, v, st);
    }
    if (!rc && n > 0 && r->look->noverlays) {   /* the one-boid view, over the birds (watch3d.c) */
        cairo_identity_matrix(cr);
        cairo_translate(cr, X, Y);
        rc = mur_watch3d_draw(r, cr, pc, v);
    }
    return rc;
}

int mur_frame3d_draw(mur_renderer *r, cairo_t *cr, mur_panel_ctx *pc, double x, double y, double w, double h)
{
    const mur_look *lk = r->look;
    const mur_flock *f = pc->f;
    int n = mur_flock_count(f);
    /* the panel on whole device pixels: the sky is an image of them */
    double x0 = x, y0 = y, x1 = x + w, y1 = y + h;
    cairo_user_to_device(cr, &x0, &y0);
    cairo_user_to_device(cr, &x1, &y1);
    int X = (int)lround(x0), Y = (int)lround(y0), W = (int)lround(x1) - X, H = (int)lround(y1) - Y;
    if (W < 1 || H < 1)
        return 0;
    mur_view3d v;
    memset(&v, 0, sizeof v);
    mur_camera_view3d(r, pc->index, f, pc->t, &v);
    v.w = W;
    v.h = H;
    v.near = 1e-3 * lk->boid_size;   /* a bird nearer than that would fill the frame */
    mur_view3d_style st = panel_style(lk, f, H);
    /* a colour mode: each bird (and its trail) in its bin's colour, which
     * draw_panel has just found (frame.c, assign_bins) */
    double palette[MUR_MAX_BINS][3];
    if (lk->color_mode != MUR_COLOR_FIXED && n > 0) {
        int nb = mur_bin_count(lk);
        for (int b = 0; b < nb; b++)
            mur_bin_colour(lk, b, palette[b]);
        st.bin = r->bin;
        st.palette = (const double (*)[3])palette;
    }
    int absorb = lk->shape == MUR_SHAPE_DENSITY && !lk->shape_auto;
    mur_panel_state *ps = &r->panels[pc->index];
    if (panel_buffers(ps, W, H, absorb))
        return -1;
    char why[160];
    int ok = mur_view3d_init(&v, why, sizeof why) == 0;   /* an embedder's bad camera: sky alone */
    int rc = paint_sky(cr, ps, pc, &v, &st, ok, absorb);
    cairo_save(cr);
    cairo_identity_matrix(cr);   /* device pixels: the panel's */
    cairo_rectangle(cr, X, Y, W, H);
    cairo_clip(cr);
    cairo_set_source_surface(cr, ps->sky, X, Y);
    cairo_paint(cr);
    if (!rc && ok)
        rc = over_sky(r, cr, pc, &v, &st, absorb, X, Y);
    cairo_restore(cr);
    if (!rc && mur_render_stopped(r))
        rc = MUR_EINTR;
    return rc;
}
