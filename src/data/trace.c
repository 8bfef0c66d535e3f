/* Trace writers (murmur/trace_writer.h): metadata once, then frames of
 * state, to CSV here or to H5MD in trace_h5.c. The loop that steps a scene
 * and hands the frames over is the session's (src/session/trace.c). */
#include "murmur/trace_writer.h"
#include "murmur/alloc.h"
#include "murmur/numfmt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "murmur/file.h"
#include "murmur/version.h"
#include "trace_internal.h"

static const char *extension(const char *path)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot : "";
}

int mur_trace_format_of(const char *path)
{
    if (!strcmp(extension(path), ".csv"))
        return MUR_TRACE_CSV;
    if (mur_file_is_hdf5(path))
        return MUR_TRACE_H5;
    return -1;
}

char *mur_trace_path(const char *path, int runs, int k)
{
    size_t len = strlen(path);
    char *out = mur_malloc(len + 32);
    if (!out)
        return NULL;
    if (runs <= 1 || mur_trace_format_of(path) != MUR_TRACE_H5) {
        memcpy(out, path, len + 1);
        return out;
    }
    const char *ext = extension(path);
    snprintf(out, len + 32, "%.*s-run%d%s", (int)(ext - path), path, k, ext);
    return out;
}

/* ---- CSV ----------------------------------------------------------------- */

struct mur_trace_writer {
    int format;
    FILE *csv;                /* the CSV stream, or NULL */
    trace_h5 *h5;             /* the H5MD writer, or NULL */
    char *path;               /* the final name, for messages */
    char *condition;          /* the CSV's condition column, as one field */
    int run;
    int dimension;            /* 3: the CSV's z and vz columns */
};

/* A condition name as one CSV field (quoted when it holds , " or a newline). */
static char *csv_field(const char *text)
{
    size_t n = strlen(text), q = 0;
    for (const char *p = text; *p; p++)
        q += *p == '"';
    char *out = mur_malloc(n + q + 3), *o = out;
    if (!out)
        return NULL;
    if (!strpbrk(text, ",\"\n\r"))
        return memcpy(out, text, n + 1);
    *o++ = '"';
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            *o++ = '"';
        *o++ = *p;
    }
    *o++ = '"';
    *o = '\0';
    return out;
}

/* A 3D world's frame: x, y, z, vx, vy, vz. */
static int csv_frame3(mur_trace_writer *w, const mur_trace_frame *f, mur_error *err)
{
    FILE *fp = w->csv;
    if (f->n > 0 && (!f->z || !f->vz))
        return mur_error_set(err, MUR_EINPUT, "'%s': a 3D trace's frame without z", w->path);
    char prefix[64], t[MUR_FORMAT_SIZE], v[6][MUR_FORMAT_SIZE];
    mur_format_double(t, sizeof t, f->time);
    snprintf(prefix, sizeof prefix, "%ld,%s,", f->tick, t);
    for (int i = 0; i < f->n; i++) {
        const double *a[6] = {f->x, f->y, f->z, f->vx, f->vy, f->vz};
        for (int k = 0; k < 6; k++)
            mur_format_double(v[k], sizeof v[k], a[k][i]);
        fprintf(fp, "%d,%s,%s%d,%s,%s,%s,%s,%s,%s\n", w->run, w->condition, prefix, f->ids ? f->ids[i] : i, v[0],
                v[1], v[2], v[3], v[4], v[5]);
    }
    if (ferror(fp))
        return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", w->path, strerror(errno));
    return MUR_OK;
}

static int csv_frame(mur_trace_writer *w, const mur_trace_frame *f, mur_error *err)
{
    if (w->dimension == 3)
        return csv_frame3(w, f, err);
    FILE *fp = w->csv;
    char prefix[64], t[MUR_FORMAT_SIZE], v[4][MUR_FORMAT_SIZE];
    mur_format_double(t, sizeof t, f->time);
    snprintf(prefix, sizeof prefix, "%ld,%s,", f->tick, t);
    for (int i = 0; i < f->n; i++) {
        /* mur_format_double: exact, and 0 where the model gives -0 */
        mur_format_double(v[0], sizeof v[0], f->x[i]);
        mur_format_double(v[1], sizeof v[1], f->y[i]);
        mur_format_double(v[2], sizeof v[2], f->vx[i]);
        mur_format_double(v[3], sizeof v[3], f->vy[i]);
        fprintf(fp, "%d,%s,%s%d,%s,%s,%s,%s\n", w->run, w->condition, prefix, f->ids ? f->ids[i] : i, v[0],
                v[1], v[2], v[3]);
    }
    if (ferror(fp))
        return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", w->path, strerror(errno));
    return MUR_OK;
}

/* ---- the writer ----------------------------------------------------------- */

static int check_meta(const mur_trace_meta *m, mur_error *err)
{
    if (!MUR_VERSION_OK(m->version, 1, MUR_TRACE_META_VERSION))
        return mur_error_set(err, MUR_EINPUT, "trace metadata of version %u (this murmur takes %d)", m->version,
                             MUR_TRACE_META_VERSION);
    if (m->format != MUR_TRACE_CSV && m->format != MUR_TRACE_H5)
        return mur_error_set(err, MUR_EINPUT, "a trace is written as CSV or HDF5, not format %d", m->format);
    if (!m->condition)
        return mur_error_set(err, MUR_EINPUT, "a trace's run needs a condition's name");
    if (m->format == MUR_TRACE_H5 &&
        ((m->dimension != 2 && m->dimension != 3) || m->rows < 0 || m->nobservables < 0 ||
         m->nobservables > MUR_TRACE_MAX_OBSERVABLES || (m->nobservables && !m->observables)))
        return mur_error_set(err, MUR_EINPUT,
                             "an .h5 trace of dimension %d, %d rows and %d observables: not one this murmur writes",
                             m->dimension, m->rows, m->nobservables);
    return MUR_OK;
}

int mur_trace_writer_run(mur_trace_writer *w, const mur_trace_meta *m, mur_error *err)
{
    if (w->format != MUR_TRACE_CSV)
        return mur_error_set(err, MUR_EINPUT, "'%s': an .h5 trace holds one run", w->path);
    char *c = m->condition ? csv_field(m->condition) : NULL;
    if (!c)
        return mur_error_set(err, m->condition ? MUR_ERUN : MUR_EINPUT,
                             m->condition ? "out of memory" : "a trace's run needs a condition's name");
    mur_free(w->condition);
    w->condition = c;
    w->run = m->run;
    return MUR_OK;
}

int mur_trace_writer_open(mur_trace_writer **out, const char *tmp, const char *final, const mur_trace_meta *m,
                          mur_error *err)
{
    *out = NULL;
    int rc = check_meta(m, err);
    if (rc)
        return rc;
    mur_trace_writer *w = mur_calloc(1, sizeof *w);
    if (!w || !(w->path = mur_strdup(final))) {
        mur_free(w);
        return mur_error_set(err, MUR_ERUN, "out of memory");
    }
    w->format = m->format;
    w->dimension = m->dimension == 3 ? 3 : 2;
    if (m->format == MUR_TRACE_H5) {
        rc = mur_trace_h5_open_(&w->h5, tmp, final, m, err);
    } else if (!(rc = mur_trace_writer_run(w, m, err))) {
        if (!(w->csv = fopen(tmp, "w")))
            rc = mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", final, strerror(errno));
        else if (fputs(w->dimension == 3 ? MUR_TRACE_CSV_HEADER3 : MUR_TRACE_CSV_HEADER, w->csv) == EOF)
            rc = mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", final, strerror(errno));
    }
    if (rc) {
        mur_trace_writer_close(w, NULL);
        return rc;
    }
    *out = w;
    return MUR_OK;
}

int mur_trace_writer_frame(mur_trace_writer *w, const mur_trace_frame *f, mur_error *err)
{
    return w->csv ? csv_frame(w, f, err) : mur_trace_h5_frame_(w->h5, f, err);
}

int mur_trace_writer_close(mur_trace_writer *w, mur_error *err)
{
    if (!w)
        return MUR_OK;
    int rc = MUR_OK;
    if (w->csv) {
        /* after a write that failed, the close fails the same way and says why; EIO if not */
        int bad = ferror(w->csv), e = 0;
        if (fclose(w->csv) != 0)
            e = errno;
        else if (bad)
            e = EIO;
        if (e)
            rc = err ? mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", w->path, strerror(e)) : MUR_ERUN;
    } else {
        rc = mur_trace_h5_close_(w->h5, err);
    }
    mur_free(w->condition);
    mur_free(w->path);
    mur_free(w);
    return rc;
}
