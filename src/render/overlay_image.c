/* Image overlays (`look.overlays[].image`): a picture made elsewhere (a
 * logo, a diagram, a figure) in a corner of the frame, stacked with the
 * other boxes there, or fitted in a region of it. The loader decoded the
 * file (murmur/look.h mur_image): pixels are painted scaled (Cairo's good
 * filter); an SVG is drawn by librsvg, as vectors in a vector still and,
 * in a frame of pixels, once at its size on the frame into a cached
 * surface that each frame paints (the same pixels every frame, on any
 * thread count: overlays are drawn by the caller's thread alone). */
#include "internal.h"
#include "murmur/alloc.h"

#include <librsvg/rsvg.h>

#include <math.h>
#include <string.h>

struct mur_image_cache {
    RsvgHandle *svg;            /* an SVG's document, parsed once */
    cairo_surface_t *raster;    /* its drawing at rw x rh pixels (NULL: not yet) */
    int rw, rh;
};

int mur_overlay_images_init(mur_renderer *r)
{
    const mur_look *lk = r->look;
    int any = 0;
    for (int k = 0; k < lk->noverlays; k++)
        any |= lk->overlays[k].kind == MUR_OVERLAY_IMAGE;
    if (!any)
        return 0;
    if (!(r->images = mur_calloc((size_t)lk->noverlays, sizeof *r->images)))
        return -1;
    for (int k = 0; k < lk->noverlays; k++) {
        const mur_overlay *o = &lk->overlays[k];
        if (o->kind != MUR_OVERLAY_IMAGE || o->image->format != MUR_IMAGE_SVG)
            continue;
        r->images[k].svg = rsvg_handle_new_from_data(o->image->data, o->image->size, NULL);
        if (!r->images[k].svg)
            return -1;
    }
    return 0;
}

void mur_overlay_images_free(mur_renderer *r)
{
    if (!r->images)
        return;
    for (int k = 0; k < r->look->noverlays; k++) {
        if (r->images[k].svg)
            g_object_unref(r->images[k].svg);
        if (r->images[k].raster)
            cairo_surface_destroy(r->images[k].raster);
    }
    mur_free(r->images);
    r->images = NULL;
}

void mur_overlay_image_rect(const mur_image *im, mur_stacks *st, double W, double H, double *x, double *y,
                            double *w, double *h)
{
    double iw = im->width, ih = im->height, s;
    if (im->has_region) {
        double bx = im->region[0] * W, by = im->region[1] * H, bw = im->region[2] * W, bh = im->region[3] * H;
        s = fmin(bw / iw, bh / ih);
        *w = iw * s;
        *h = ih * s;
        *x = bx + (bw - *w) / 2;
        *y = by + (bh - *h) / 2;
        return;
    }
    double mw = im->frame_width * W, mh = im->frame_height * H;
    if (!(mw > 0) && !(mh > 0))
        mw = 0.2 * W;
    s = mw > 0 && mh > 0 ? fmin(mw / iw, mh / ih) : mw > 0 ? mw / iw : mh / ih;
    *w = iw * s;
    *h = ih * s;
    mur_stack_place(st, im->corner, *w, *h, x, y);
}

/* Whether cr draws straight onto pixels: an image surface, no transform. */
static int on_pixels(cairo_t *cr)
{
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    return cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE && m.xx == 1 &&
           m.yy == 1 && m.xy == 0 && m.yx == 0 && m.x0 == 0 && m.y0 == 0;
}

/* An SVG drawn at rw x rh pixels, kept for the frames that follow. */
static cairo_surface_t *svg_raster(struct mur_image_cache *ic, int rw, int rh)
{
    if (ic->raster && ic->rw == rw && ic->rh == rh)
        return ic->raster;
    if (ic->raster)
        cairo_surface_destroy(ic->raster);
    ic->raster = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, rw, rh);
    ic->rw = rw;
    ic->rh = rh;
    cairo_t *c = cairo_create(ic->raster);
    RsvgRectangle vp = {0, 0, rw, rh};
    rsvg_handle_render_document(ic->svg, c, &vp, NULL);   /* checked at load (parse_image.c) */
    cairo_destroy(c);
    return ic->raster;
}

static void draw_one(mur_renderer *r, cairo_t *cr, int k, const mur_image *im, mur_stacks *st)
{
    double x, y, w, h;
    mur_overlay_image_rect(im, st, r->width, r->height, &x, &y, &w, &h);
    if (!(im->opacity > 0) || !(w > 0) || !(h > 0))
        return;
    cairo_save(cr);
    if (im->format == MUR_IMAGE_PIXELS) {
        cairo_surface_t *s = cairo_image_surface_create_for_data((unsigned char *)im->data, CAIRO_FORMAT_ARGB32,
                                                                 im->width, im->height, im->stride);
        cairo_translate(cr, x, y);
        cairo_scale(cr, w / im->width, h / im->height);
        cairo_set_source_surface(cr, s, 0, 0);
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);   /* no fringe at its edges */
        cairo_rectangle(cr, 0, 0, im->width, im->height);
        cairo_clip(cr);
        cairo_paint_with_alpha(cr, im->opacity);
        cairo_surface_destroy(s);
    } else if (on_pixels(cr)) {
        /* whole pixels: the cached drawing lands 1:1 */
        int px = (int)lround(x), py = (int)lround(y), rw = (int)fmax(1, lround(w)), rh = (int)fmax(1, lround(h));
        cairo_set_source_surface(cr, svg_raster(&r->images[k], rw, rh), px, py);
        cairo_paint_with_alpha(cr, im->opacity);
    } else {
        RsvgRectangle vp = {x, y, w, h};
        if (im->opacity < 1)
            cairo_push_group(cr);
        rsvg_handle_render_document(r->images[k].svg, cr, &vp, NULL);
        if (im->opacity < 1) {
            cairo_pop_group_to_source(cr);
            cairo_paint_with_alpha(cr, im->opacity);
        }
    }
    cairo_restore(cr);
}

void mur_overlays_images(mur_renderer *r, cairo_t *cr, mur_stacks *st)
{
    const mur_look *lk = r->look;
    for (int k = 0; k < lk->noverlays; k++) {
        if (lk->overlays[k].kind != MUR_OVERLAY_IMAGE || !mur_titles_overlay_begin(r, cr, MUR_OVERLAY_IMAGE))
            continue;
        draw_one(r, cr, k, lk->overlays[k].image, st);
        mur_titles_overlay_end(r, cr, MUR_OVERLAY_IMAGE);
    }
}
