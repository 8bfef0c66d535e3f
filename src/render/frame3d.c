/* A 3D world's panel (issue #29; docs/scenes.md "Three dimensions").
 *
 * A flock whose z is not NULL is drawn through the look's 3D camera
 * (camera.c: mur_camera_view3d) rather than seen from above: the evening
 * sky (view3d.c) into an image of the panel's pixels, laid on the frame,
 * then the birds far to near over it as silhouettes or points, hazed
 * toward the horizon's colour by distance. With `look.boid.shape:
 * density` the birds are not drawn but absorb the sky (Beer-Lambert,
 * mur_absorb_*): each lays -ln(1 - opacity) of optical depth on a disc of
 * half its length, so a dense part of the flock seen through many birds
 * is dark and a thin one a veil.
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

static uint32_t rgb24(mur_rgba c)
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
    mur_view3d_style st = {
        .sky = {.zenith = rgb24(lk->sky_zenith), .horizon = rgb24(lk->sky_horizon), .ground = rgb24(lk->sky_ground),
                .trees = rgb24(lk->sky_trees), .tree_px = lk->tree_height * H, .seed = TREE_SEED},
        .bird = rgb24(lk->boid_color),
        .len_world = lk->boid_size,
        .min_px = 1.5,
        .visibility = lk->visibility,
        .wing_freq = lk->wingbeat,
        .points = lk->birds == MUR_BIRDS_POINTS,
        .opacity = lk->boid_color.a < 1 ? lk->boid_color.a : 0.5,
        .up = mur_flock_up(f),   /* starlings bank (NULL: level birds) */
    };
    int absorb = lk->shape == MUR_SHAPE_DENSITY && !lk->shape_auto;
    cairo_surface_t *sky = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    if (cairo_surface_status(sky) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(sky);
        return -1;
    }
    char why[160];
    int ok = mur_view3d_init(&v, why, sizeof why) == 0;   /* an embedder's bad camera: sky alone */
    const double *px = mur_flock_x(f), *py = mur_flock_y(f), *pz = mur_flock_z(f);
    const double *vx = mur_flock_vx(f), *vy = mur_flock_vy(f), *vz = mur_flock_vz(f);
    const int *ids = mur_flock_ids(f);
    int rc = 0;
    cairo_surface_flush(sky);
    unsigned char *data = cairo_image_surface_get_data(sky);
    int stride = cairo_image_surface_get_stride(sky);
    if (ok) {
        mur_view3d_sky(&v, &st.sky, data, stride);
    } else {   /* no horizon: the sky's zenith colour throughout */
        for (int j = 0; j < H; j++)
            for (int i = 0; i < W; i++)
                ((uint32_t *)(data + (size_t)j * (size_t)stride))[i] = 0xff000000u | st.sky.zenith;
    }
    if (ok && absorb && n > 0) {
        float *tau = mur_calloc((size_t)W * (size_t)H, sizeof *tau);
        if (!tau || mur_view3d_birds(cr, &v, &st, (size_t)n, px, py, pz, vx, vy, vz, ids, pc->t, tau))
            rc = -1;
        else
            mur_absorb_apply(tau, W, H, data, stride, st.bird);
        mur_free(tau);
    }
    cairo_surface_mark_dirty(sky);
    cairo_save(cr);
    cairo_identity_matrix(cr);   /* device pixels: the panel's */
    cairo_rectangle(cr, X, Y, W, H);
    cairo_clip(cr);
    cairo_set_source_surface(cr, sky, X, Y);
    cairo_paint(cr);
    if (!rc && ok)   /* the trails, under the birds (trails3d.c) */
        rc = mur_trails3d_draw(r, cr, &r->panels[pc->index].trails, mur_flock_params(f), &v, &st, X, Y);
    if (!rc && ok && !absorb && n > 0) {
        cairo_translate(cr, X, Y);
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_GOOD);
        rc = mur_view3d_birds(cr, &v, &st, (size_t)n, px, py, pz, vx, vy, vz, ids, pc->t, NULL);
    }
    if (!rc && ok && n > 0 && lk->noverlays) {   /* the one-boid view, over the birds (watch3d.c) */
        cairo_identity_matrix(cr);
        cairo_translate(cr, X, Y);
        rc = mur_watch3d_draw(r, cr, pc, &v);
    }
    cairo_restore(cr);
    cairo_surface_destroy(sky);
    if (!rc && mur_render_stopped(r))
        rc = MUR_EINTR;
    return rc;
}
