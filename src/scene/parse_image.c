/* The image overlay (`look.overlays[].image`): a PNG or SVG file placed in
 * a corner or a region of the frame. The file is read, checked and decoded
 * here, when the scene loads: a PNG into Cairo's premultiplied ARGB32
 * pixels, an SVG parsed by librsvg and kept as its bytes (the renderer
 * draws it, as vectors in vector stills). The look the renderer borrows
 * holds only plain bytes (murmur/look.h mur_image). */
#include "parse.h"
#include "sha256.h"
#include "murmur/alloc.h"
#include "murmur/file.h"
#include "murmur/limits.h"

#include <cairo.h>
#include <librsvg/rsvg.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *const mur_parse_image_keys[] = {"file", "corner", "width", "height", "region", "opacity", NULL};

static const char *const corner_names[] = {"top-left", "top-right", "bottom-left", "bottom-right", NULL};

/* What is read while the mapping is walked: the nodes to name in errors. */
typedef struct {
    mur_image *im;
    yaml_node_t *file, *corner, *size, *region;
    char *path;
} image_read;

static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

typedef struct {
    const unsigned char *p;
    size_t left;
} png_bytes;

static cairo_status_t png_read(void *closure, unsigned char *data, unsigned int length)
{
    png_bytes *b = closure;
    if (length > b->left)
        return CAIRO_STATUS_READ_ERROR;
    memcpy(data, b->p, length);
    b->p += length;
    b->left -= length;
    return CAIRO_STATUS_SUCCESS;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Decodes PNG bytes into im's pixels; 0, or -1 with the reason in why. The
 * header's size is checked before anything is decoded. */
static int decode_png(const unsigned char *buf, size_t len, mur_image *im, char *why, size_t n)
{
    if (len < 33 || memcmp(buf + 12, "IHDR", 4)) {
        snprintf(why, n, "is not a PNG image (no header)");
        return -1;
    }
    uint32_t w = be32(buf + 16), h = be32(buf + 20);
    if (w < 1 || h < 1 || w > MUR_IMAGE_MAX_PIXELS || h > MUR_IMAGE_MAX_PIXELS) {
        snprintf(why, n, "is %ux%u pixels; an image has 1 to %d each way", w, h, MUR_IMAGE_MAX_PIXELS);
        return -1;
    }
    png_bytes b = {buf, len};
    cairo_surface_t *png = cairo_image_surface_create_from_png_stream(png_read, &b);
    cairo_status_t st = cairo_surface_status(png);
    if (st != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(png);
        snprintf(why, n, "is not a readable PNG image (%s)",
                 st == CAIRO_STATUS_NO_MEMORY ? "out of memory" : "damaged or cut short");
        return -1;
    }
    /* Whatever Cairo made of it (grey, RGB, 16 bits), painted onto ARGB32. */
    int iw = cairo_image_surface_get_width(png), ih = cairo_image_surface_get_height(png);
    int stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, iw);
    unsigned char *px = mur_calloc((size_t)ih, (size_t)stride);
    if (!px) {
        cairo_surface_destroy(png);
        snprintf(why, n, "is too large to decode (out of memory)");
        return -1;
    }
    cairo_surface_t *out = cairo_image_surface_create_for_data(px, CAIRO_FORMAT_ARGB32, iw, ih, stride);
    cairo_t *cr = cairo_create(out);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_set_source_surface(cr, png, 0, 0);
    cairo_paint(cr);
    st = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_destroy(out);
    cairo_surface_destroy(png);
    if (st != CAIRO_STATUS_SUCCESS) {
        mur_free(px);
        snprintf(why, n, "cannot be decoded (%s)", cairo_status_to_string(st));
        return -1;
    }
    im->format = MUR_IMAGE_PIXELS;
    im->width = iw;
    im->height = ih;
    im->stride = stride;
    im->data = px;
    im->size = (size_t)ih * (size_t)stride;
    return 0;
}

/* Parses SVG bytes with librsvg and takes their size; the bytes are kept
 * (buf becomes im's). 0, or -1 with the reason in why. */
static int check_svg(unsigned char *buf, size_t len, mur_image *im, char *why, size_t n)
{
    GError *gerr = NULL;
    RsvgHandle *h = rsvg_handle_new_from_data(buf, len, &gerr);
    if (!h) {
        snprintf(why, n, "is not a readable SVG image (%s)", gerr && gerr->message ? gerr->message : "?");
        for (char *q = why; *q; q++)   /* one line */
            if (*q == '\n' || *q == '\r')
                *q = ' ';
        if (gerr)
            g_error_free(gerr);
        return -1;
    }
    double w = 0, hh = 0;
    if (!rsvg_handle_get_intrinsic_size_in_pixels(h, &w, &hh)) {
        gboolean has_w, has_h, has_box;
        RsvgLength lw, lh;
        RsvgRectangle box;
        rsvg_handle_get_intrinsic_dimensions(h, &has_w, &lw, &has_h, &lh, &has_box, &box);
        if (has_box) {
            w = box.width;
            hh = box.height;
        }
    }
    int rc = 0;
    if (!(w > 0) || !(hh > 0)) {
        snprintf(why, n, "is an SVG image of no size (give its <svg> a width and height, or a viewBox)");
        rc = -1;
    } else if (w > MUR_IMAGE_MAX_PIXELS || hh > MUR_IMAGE_MAX_PIXELS) {
        snprintf(why, n, "is an SVG image of %.0fx%.0f pixels; an image has at most %d each way", w, hh,
                 MUR_IMAGE_MAX_PIXELS);
        rc = -1;
    } else {
        /* Drawn once, small, so a document librsvg cannot render fails here. */
        cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 16, 16);
        cairo_t *cr = cairo_create(s);
        RsvgRectangle vp = {0, 0, 16, 16};
        if (!rsvg_handle_render_document(h, cr, &vp, &gerr) || cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
            snprintf(why, n, "is an SVG image librsvg cannot draw (%s)",
                     gerr && gerr->message ? gerr->message : "?");
            rc = -1;
        }
        if (gerr)
            g_error_free(gerr);
        cairo_destroy(cr);
        cairo_surface_destroy(s);
    }
    g_object_unref(h);
    if (rc)
        return rc;
    im->format = MUR_IMAGE_SVG;
    im->width = (int)fmax(1, lround(w));
    im->height = (int)fmax(1, lround(hh));
    im->data = buf;
    im->size = len;
    return 0;
}

static int ends_with_svg(const char *path)
{
    size_t n = strlen(path);
    return n >= 4 && !strcasecmp(path + n - 4, ".svg");
}

/* Reads the file at path into im: a PNG by its signature, an SVG by its name. */
static int load_image(ctx *c, yaml_node_t *where, const char *path, mur_image *im)
{
    char why[320];
    if (mur_file_check_input(path, MUR_IMAGE_MAX_BYTES, why, sizeof why))
        return mur_parse_fail_at(c, where, "image '%s' %s", path, why);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return mur_parse_fail_at(c, where, "image '%s' cannot be read", path);
    fseek(fp, 0, SEEK_END);
    long len = ftell(fp);
    rewind(fp);
    unsigned char *buf = len > 0 ? mur_malloc((size_t)len + 1) : NULL;
    size_t got = buf ? fread(buf, 1, (size_t)len, fp) : 0;
    fclose(fp);
    if (len <= 0 || !buf || got != (size_t)len) {
        mur_free(buf);
        if (len > 0 && !buf)
            return mur_parse_oom(c);
        return mur_parse_fail_at(c, where, "image '%s' %s", path, len == 0 ? "is empty" : "cannot be read");
    }
    buf[len] = 0;
    if (mur_sha256_hex(buf, (size_t)len, im->sha256)) {   /* the bytes decoded, for the provenance */
        mur_free(buf);
        return mur_parse_oom(c);
    }
    int rc;
    if ((size_t)len >= 8 && !memcmp(buf, png_signature, 8)) {
        rc = decode_png(buf, (size_t)len, im, why, sizeof why);
        mur_free(buf);
    } else if (ends_with_svg(path)) {
        if ((rc = check_svg(buf, (size_t)len, im, why, sizeof why)))
            mur_free(buf);
    } else {
        snprintf(why, sizeof why, "is not a PNG or SVG image (a PNG by its signature, an SVG by a .svg name)");
        mur_free(buf);
        rc = -1;
    }
    return rc ? mur_parse_fail_at(c, where, "image '%s' %s", path, why) : 0;
}

static int region_value(ctx *c, yaml_node_t *v, double *r)
{
    int rc = mur_parse_need_type(c, v, YAML_SEQUENCE_NODE, "region");
    if (rc)
        return rc;
    if (v->data.sequence.items.top - v->data.sequence.items.start != 4)
        return mur_parse_fail_at(c, v, "'region' is [x, y, width, height], fractions of the frame");
    static const char *const what[4] = {"region x", "region y", "region width", "region height"};
    for (int k = 0; k < 4; k++) {
        yaml_node_t *it = mur_parse_node(c, v->data.sequence.items.start[k]);
        if (!it)
            return mur_parse_fail_at(c, v, "scene is too large or too deeply aliased");
        if ((rc = mur_parse_need_type(c, it, YAML_SCALAR_NODE, what[k])) ||
            (rc = mur_parse_number(c, it, what[k], k < 2 ? 0 : 0.001, 1, &r[k])))
            return rc;
    }
    if (r[0] + r[2] > 1 + 1e-9 || r[1] + r[3] > 1 + 1e-9)
        return mur_parse_fail_at(c, v, "'region' [%g, %g, %g, %g] reaches past the frame (x + width and "
                                 "y + height at most 1)", r[0], r[1], r[2], r[3]);
    return 0;
}

static int image_pair(ctx *c, pair *p, void *arg)
{
    image_read *ir = arg;
    mur_image *im = ir->im;
    if (!strcmp(p->key, "region")) {
        ir->region = p->v;
        im->has_region = 1;
        return region_value(c, p->v, im->region);
    }
    int rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key), k;
    if (rc)
        return rc;
    if (!strcmp(p->key, "file")) {
        ir->file = p->v;
        return mur_parse_text(c, p->v, "file", MUR_SCENE_MAX_PATH, &ir->path);
    }
    if (!strcmp(p->key, "corner")) {
        ir->corner = p->v;
        if ((rc = mur_parse_choice(c, p->v, "corner", corner_names, &k)))
            return rc;
        im->corner = (mur_corner)k;
        return 0;
    }
    if (!strcmp(p->key, "opacity"))
        return mur_parse_number(c, p->v, "opacity", 0, 1, &im->opacity);
    ir->size = p->v;
    return mur_parse_number(c, p->v, p->key, 0.01, 1, !strcmp(p->key, "width") ? &im->frame_width : &im->frame_height);
}

int mur_parse_image(ctx *c, yaml_node_t *v, mur_overlay *o)
{
    mur_image *im = mur_calloc(1, sizeof *im);
    if (!im)
        return mur_parse_oom(c);
    o->image = im;   /* freed with the overlays; here when the overlay fails (not counted) */
    im->corner = MUR_CORNER_BOTTOM_RIGHT;
    im->opacity = 1;
    image_read ir = {.im = im};
    int rc = mur_parse_each_pair(c, v, "image", mur_parse_image_keys, image_pair, &ir);
    if (!rc && !ir.file)
        rc = mur_parse_fail_at(c, v, "an image overlay needs its 'file' (a PNG or an SVG)");
    if (!rc && ir.region && (ir.corner || ir.size))
        rc = mur_parse_fail_at(c, ir.corner ? ir.corner : ir.size,
                               "an image in a 'region' is fitted to it: no 'corner', 'width' or 'height'");
    char *path = NULL;
    if (!rc && !(path = mur_parse_beside_scene(c->name, ir.path)))
        rc = mur_parse_oom(c);
    if (!rc)
        rc = load_image(c, ir.file, path, im);
    im->path = path;   /* the image's now */
    mur_free(ir.path);
    if (rc) {
        mur_free((void *)im->data);
        mur_free((void *)im->path);
        mur_free(im);
        o->image = NULL;
    }
    return rc;
}

void mur_parse_free_overlays(mur_look *lk)
{
    for (int k = 0; k < lk->noverlays; k++) {
        mur_parse_figure_free((mur_overlay *)&lk->overlays[k]);
        if (lk->overlays[k].image) {
            mur_free((void *)lk->overlays[k].image->data);
            mur_free((void *)lk->overlays[k].image->path);
            mur_free((void *)lk->overlays[k].image);
        }
    }
    mur_free((void *)lk->overlays);
    lk->overlays = NULL;
    lk->noverlays = 0;
}
