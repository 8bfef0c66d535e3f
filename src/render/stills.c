/* Stills: one frame as a PNG, or as a PDF or SVG for a paper.
 *
 * The vector stills go through Cairo's own PDF and SVG surfaces, so boids,
 * trails, rings and text stay paths and glyphs (fonts embedded as subsets),
 * never a bitmap. They are drawn by the same code at the frame's size in
 * user units and scaled to one paper column, so a PDF is its PNG, sharp at
 * any zoom. Every still is written beside its final name and renamed when
 * complete, so a failed write never leaves half a file at the name. */
#include "internal.h"
#include "murmur/file.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

enum { STILL_PNG, STILL_PDF, STILL_SVG };

#define PRINT_UI_PT 2.5   /* UI unit of a vector still, points: labels of 5 to 8 pt */

static int still_kind(const char *path)
{
    const char *ext = strrchr(path, '.');
    if (!ext || strchr(ext, '/'))
        return -1;
    if (!strcasecmp(ext, ".png")) return STILL_PNG;
    if (!strcasecmp(ext, ".pdf")) return STILL_PDF;
    if (!strcasecmp(ext, ".svg")) return STILL_SVG;
    return -1;
}

/* One column for a frame, both columns (a figure*) for small multiples. */
static double still_width(const mur_renderer *r)
{
    return r->npanels > 1 ? 2 * MUR_RENDER_COLUMN_PT : MUR_RENDER_COLUMN_PT;
}

/* The file a still is written to (murmur/file.h: a temporary name beside
 * the final one, or a device or pipe in place). The first failed write's
 * errno is kept in file.error, so the message says why ("No space left on
 * device"), which Cairo's own status does not. */
typedef struct {
    mur_atomic file;
    const mur_renderer *r;    /* whose stop flag cuts the writing short */
} still_file;

/* Cairo writes a vector still out when the surface is finished, in one call
 * that no loop of ours can look into (a PDF of 4,000,000 boids: 30 s); a
 * failed write is what makes it give up early. */
static cairo_status_t write_stream(void *closure, const unsigned char *data, unsigned int length)
{
    still_file *o = closure;
    if (mur_render_stopped(o->r))
        return CAIRO_STATUS_WRITE_ERROR;
    if (fwrite(data, 1, length, o->file.fp) == length)
        return CAIRO_STATUS_SUCCESS;
    if (!o->file.error)
        o->file.error = errno;
    return CAIRO_STATUS_WRITE_ERROR;
}

static int file_open(still_file *o, const char *path, mur_error *err)
{
    int rc = mur_atomic_begin(&o->file, path, 0, err);
    if (!rc && !mur_atomic_fopen(&o->file, "wb", err)) {
        mur_atomic_abort(&o->file);
        rc = MUR_ERUN;
    }
    return rc;
}

/* Close and publish; on failure (or rc already set) remove the temporary.
 * status: how drawing into the file ended. */
static int file_close(still_file *o, int rc, cairo_status_t status, mur_error *err)
{
    if (!rc && status != CAIRO_STATUS_SUCCESS && !o->file.error)
        rc = mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", o->file.path,
                           cairo_status_to_string(status));
    if (rc) {
        mur_atomic_abort(&o->file);
        return rc;
    }
    return mur_atomic_commit(&o->file, err);
}

/* Draw a vector still onto surface (already sized), then finish it; how
 * the surface ended (a failed write) goes to *status. */
static int draw_vector(mur_renderer *r, cairo_surface_t *surf, const mur_flock *const *flocks, int n,
                       double t, cairo_status_t *status, mur_error *err)
{
    cairo_t *cr = cairo_create(surf);
    double k = still_width(r) / r->width;
    cairo_scale(cr, k, k);
    /* A video frame's text shrunk to a column would be 2 pt: keep the
     * UI unit at PRINT_UI_PT or more, which puts the smallest labels near
     * 5 pt; the world and the boids are scaled as they are. */
    r->ui_floor = PRINT_UI_PT / k;
    int rc = mur_renderer_draw(r, cr, flocks, n, t, err);
    r->ui_floor = 0;
    if (rc) {
        /* The surface records what was drawn and writes it all out when
         * finished, stopped or not; clearing it whole drops the record. */
        cairo_identity_matrix(cr);
        cairo_reset_clip(cr);
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
        cairo_paint(cr);
    }
    cairo_destroy(cr);
    cairo_surface_finish(surf);
    *status = cairo_surface_status(surf);
    return rc;
}

int mur_renderer_write_still(mur_renderer *r, const mur_flock *const *flocks, int n, double t,
                             const char *path, mur_error *err)
{
    int kind = still_kind(path), rc;
    if (kind < 0)
        return mur_error_set(err, MUR_EINPUT, "a still is .png, .pdf or .svg, not '%s'", path);
    still_file o = {.r = r};
    if ((rc = file_open(&o, path, err)))
        return rc;
    cairo_surface_t *surf = NULL;
    cairo_status_t st = CAIRO_STATUS_SUCCESS;
    double wpt = still_width(r), hpt = wpt * r->height / r->width;
    const char *title = r->look->title ? r->look->title : "murmur";
    /* the SVG's writer outlives the switch: Cairo writes when the surface is finished */
    mur_meta_writer svg = {write_stream, &o, MUR_META_SVG, title, r->provenance, 0, 0, 0};
    switch (kind) {
    case STILL_PNG: {
        const uint8_t *px;
        int stride;
        mur_meta_writer mw = {write_stream, &o, MUR_META_PNG, r->look->title, r->provenance, 0, 0, 0};
        if (!(rc = mur_renderer_draw_image(r, flocks, n, t, &px, &stride, err)))
            st = cairo_surface_write_to_png_stream(r->image, mur_meta_write, &mw);
        break;
    }
    case STILL_PDF:
        surf = cairo_pdf_surface_create_for_stream(write_stream, &o, wpt, hpt);
        mur_meta_pdf(surf, title, r->provenance);
        rc = draw_vector(r, surf, flocks, n, t, &st, err);
        break;
    default:
        surf = cairo_svg_surface_create_for_stream(mur_meta_write, &svg, wpt, hpt);
        cairo_svg_surface_set_document_unit(surf, CAIRO_SVG_UNIT_PT);
        rc = draw_vector(r, surf, flocks, n, t, &st, err);
        break;
    }
    if (surf)
        cairo_surface_destroy(surf);
    if (!rc && mur_render_stopped(r))   /* a still stopped anywhere is not written */
        rc = mur_error_set(err, MUR_EINTR, "stopped while writing the still");
    return file_close(&o, rc, st, err);
}

void mur_renderer_set_provenance(mur_renderer *r, const char *text) { r->provenance = text; }

int mur_renderer_write_png(mur_renderer *r, const char *path, mur_error *err)
{
    if (!r->image)
        return mur_error_set(err, MUR_ERUN, "no frame drawn yet");
    cairo_status_t st = cairo_surface_write_to_png(r->image, path);
    if (st != CAIRO_STATUS_SUCCESS)
        return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", path, cairo_status_to_string(st));
    return MUR_OK;
}
