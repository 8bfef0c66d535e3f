/* Stills: one frame as a PNG, or as a PDF or SVG for a paper.
 *
 * The vector stills go through Cairo's own PDF and SVG surfaces, so boids,
 * trails, rings and text stay paths and glyphs (fonts embedded as subsets),
 * never a bitmap. They are drawn by the same code at the frame's size in
 * user units and scaled to one paper column, so a PDF is its PNG, sharp at
 * any zoom. Every still is written beside its final name and renamed when
 * complete, so a failed write never leaves half a file at the name. */
#include "internal.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

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

static cairo_status_t write_stream(void *closure, const unsigned char *data, unsigned int length)
{
    return fwrite(data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* Draw a vector still onto surface (already sized), then finish it. */
static int draw_vector(mur_renderer *r, cairo_surface_t *surf, const mur_flock *const *flocks, int n,
                       double t, mur_error *err)
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
    cairo_destroy(cr);
    cairo_surface_finish(surf);
    cairo_status_t st = cairo_surface_status(surf);
    if (!rc && st != CAIRO_STATUS_SUCCESS)
        rc = mur_error_set(err, MUR_ERUN, "cannot write the still: %s", cairo_status_to_string(st));
    return rc;
}

int mur_renderer_write_still(mur_renderer *r, const mur_flock *const *flocks, int n, double t,
                             const char *path, mur_error *err)
{
    int kind = still_kind(path), rc = MUR_OK, fd = -1;
    if (kind < 0)
        return mur_error_set(err, MUR_EINPUT, "murmur: a still is .png, .pdf or .svg, not '%s'", path);
    size_t len = strlen(path);
    char *tmp = malloc(len + 8);
    if (!tmp)
        return mur_error_set(err, MUR_ERUN, "out of memory");
    memcpy(tmp, path, len);
    memcpy(tmp + len, ".XXXXXX", 8);
    FILE *fp = NULL;
    cairo_surface_t *surf = NULL;
    if ((fd = mkstemp(tmp)) < 0) {
        rc = mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", path, strerror(errno));
        goto fail;
    }
    fchmod(fd, 0644);   /* mkstemp makes it private; a figure is not */
    if (!(fp = fdopen(fd, "wb"))) {
        rc = mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", path, strerror(errno));
        close(fd);
        goto fail;
    }
    double wpt = still_width(r), hpt = wpt * r->height / r->width;
    const char *title = r->scene->title ? r->scene->title : "murmur";
    switch (kind) {
    case STILL_PNG: {
        const uint8_t *px;
        int stride;
        if ((rc = mur_renderer_draw_image(r, flocks, n, t, &px, &stride, err)))
            goto fail;
        cairo_status_t st = cairo_surface_write_to_png_stream(r->image, write_stream, fp);
        if (st != CAIRO_STATUS_SUCCESS) {
            rc = mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", path, cairo_status_to_string(st));
            goto fail;
        }
        break;
    }
    case STILL_PDF:
        surf = cairo_pdf_surface_create_for_stream(write_stream, fp, wpt, hpt);
        cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_TITLE, title);
        cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_CREATOR, "murmur " MURMUR_VERSION);
        if ((rc = draw_vector(r, surf, flocks, n, t, err)))
            goto fail;
        break;
    default:
        surf = cairo_svg_surface_create_for_stream(write_stream, fp, wpt, hpt);
        cairo_svg_surface_set_document_unit(surf, CAIRO_SVG_UNIT_PT);
        if ((rc = draw_vector(r, surf, flocks, n, t, err)))
            goto fail;
        break;
    }
    if (surf)
        cairo_surface_destroy(surf);
    surf = NULL;
    int bad = ferror(fp);
    if (fclose(fp) != 0 || bad) {
        fp = NULL;
        rc = mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", path, strerror(errno));
        goto fail;
    }
    fp = NULL;
    if (rename(tmp, path) != 0) {
        rc = mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", path, strerror(errno));
        goto fail;
    }
    free(tmp);
    return MUR_OK;
fail:
    if (surf)
        cairo_surface_destroy(surf);
    if (fp)
        fclose(fp);
    if (fd >= 0)
        unlink(tmp);
    free(tmp);
    return rc;
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
