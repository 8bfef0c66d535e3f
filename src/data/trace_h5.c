/* Traces as HDF5 in the H5MD 1.1 layout (docs/data.md "Traces"): h5md/
 * (version, creator, author), particles/flock/{box,position,velocity},
 * observables/<metric> and parameters/. Every time series is a group of
 * step [T], time [T] and value [T]... datasets that grow by one tick per
 * call (H5Dset_extent), chunked one tick per chunk along T and deflated,
 * so memory holds one tick whatever the length of the trace. What it
 * writes is handed over (murmur/trace_writer.h): it knows no scene.
 *
 * HDF5 reports errors by printing its error stack; a library must not
 * print, so the stack's printing is turned off and every failing call is
 * answered with "cannot write 'PATH': REASON". */
#include "trace_internal.h"
#include "murmur/alloc.h"

#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "murmur/version.h"

/* A time series: its group's step, time and value datasets. */
typedef struct {
    hid_t group, step, time, value;
} series;

struct trace_h5 {
    hid_t file;
    const char *path;              /* the final name, for messages */
    int n, float32;                /* n: the most boids the flock has at any tick */
    int dim;                       /* 2 or 3: a row's values ([N][dim]) */
    long t;                        /* ticks written */
    series pos, vel;
    hid_t state, flock_tick, stream; /* parameters/state: what a continuation needs */
    series obs[MUR_TRACE_MAX_OBSERVABLES];
    int nobs;
    void *buf;                     /* one tick's [N][dim] values */
};

static int h5_fail(const trace_h5 *h, mur_error *err)
{
    int e = errno;
    return mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", h->path,
                         e ? strerror(e) : "the HDF5 library failed");
}

/* ---- attributes and fixed datasets --------------------------------------- */

/* Creation properties of every dataset: no modification times, so the
 * same trace gives the same bytes. */
static hid_t untimed(void)
{
    hid_t pl = H5Pcreate(H5P_DATASET_CREATE);
    if (pl >= 0 && H5Pset_obj_track_times(pl, 0) < 0) {
        H5Pclose(pl);
        return -1;
    }
    return pl;
}

static hid_t vlen_string_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t >= 0 && (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0)) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

/* Attribute name on loc: n strings (a scalar when n == 0, the first). */
static int attr_strings(hid_t loc, const char *name, const char *const *v, hsize_t n)
{
    hid_t t = vlen_string_type();
    hid_t sp = n ? H5Screate_simple(1, &n, NULL) : H5Screate(H5S_SCALAR);
    hid_t a = t >= 0 && sp >= 0 ? H5Acreate2(loc, name, t, sp, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int ok = a >= 0 && H5Awrite(a, t, v) >= 0;
    if (a >= 0)
        H5Aclose(a);
    if (sp >= 0)
        H5Sclose(sp);
    if (t >= 0)
        H5Tclose(t);
    return ok ? 0 : -1;
}

static int attr_string(hid_t loc, const char *name, const char *v)
{
    return attr_strings(loc, name, &v, 0);
}

/* Attribute of n numbers of memory type mt, stored as file type ft. */
static int attr_numbers(hid_t loc, const char *name, hid_t ft, hid_t mt, const void *v, hsize_t n)
{
    hid_t sp = n ? H5Screate_simple(1, &n, NULL) : H5Screate(H5S_SCALAR);
    hid_t a = sp >= 0 ? H5Acreate2(loc, name, ft, sp, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int ok = a >= 0 && H5Awrite(a, mt, v) >= 0;
    if (a >= 0)
        H5Aclose(a);
    if (sp >= 0)
        H5Sclose(sp);
    return ok ? 0 : -1;
}

/* A scalar string dataset (a scene's text). */
static int dataset_string(hid_t loc, const char *name, const char *v)
{
    hid_t t = vlen_string_type(), sp = H5Screate(H5S_SCALAR), pl = untimed();
    hid_t d = t >= 0 && sp >= 0 && pl >= 0
                  ? H5Dcreate2(loc, name, t, sp, H5P_DEFAULT, pl, H5P_DEFAULT)
                  : -1;
    int ok = d >= 0 && H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) >= 0;
    if (d >= 0)
        H5Dclose(d);
    if (pl >= 0)
        H5Pclose(pl);
    H5Sclose(sp);
    H5Tclose(t);
    return ok ? 0 : -1;
}

static int close_group(hid_t g, int ok)
{
    if (g >= 0 && H5Gclose(g) < 0)
        ok = 0;
    return ok ? 0 : -1;
}

/* h5md/: the layout's version, who made the file and who ran it. */
static int write_h5md(hid_t file)
{
    static const int version[2] = {1, 1};
    const char *user = getenv("USER");
    hid_t g = H5Gcreate2(file, "h5md", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int ok = g >= 0 && !attr_numbers(g, "version", H5T_STD_I32LE, H5T_NATIVE_INT, version, 2);
    hid_t c = ok ? H5Gcreate2(g, "creator", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    ok = c >= 0 && !attr_string(c, "name", "murmur") && !attr_string(c, "version", mur_version());
    ok = !close_group(c, ok);
    hid_t a = ok ? H5Gcreate2(g, "author", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    ok = a >= 0 && !attr_string(a, "name", user && *user ? user : "unknown");
    ok = !close_group(a, ok);
    return close_group(g, ok);
}

/* particles/flock/box: the world's dimension and edges, periodic when it wraps. */
static int write_box(hid_t flock, const mur_trace_meta *m)
{
    static const char *const periodic[3] = {"periodic", "periodic", "periodic"},
                             *const none[3] = {"none", "none", "none"};
    const int dim = m->dimension;
    hsize_t two = (hsize_t)dim;
    hid_t box = H5Gcreate2(flock, "box", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int ok = box >= 0 && !attr_numbers(box, "dimension", H5T_STD_I32LE, H5T_NATIVE_INT, &dim, 0) &&
             !attr_strings(box, "boundary", m->periodic ? periodic : none, two);
    hid_t sp = ok ? H5Screate_simple(1, &two, NULL) : -1, pl = untimed();
    hid_t d = sp >= 0 && pl >= 0
                  ? H5Dcreate2(box, "edges", H5T_IEEE_F64LE, sp, H5P_DEFAULT, pl, H5P_DEFAULT)
                  : -1;
    ok = d >= 0 && H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, m->edges) >= 0;
    if (d >= 0)
        H5Dclose(d);
    if (pl >= 0)
        H5Pclose(pl);
    if (sp >= 0)
        H5Sclose(sp);
    return close_group(box, ok);
}

/* parameters/: what made the file (version, seeds, run, range) and its
 * provenance, the text every murmur output carries (the caller's: the
 * resolved settings and the scene file itself), so the trace can be
 * remade. */
static int write_parameters(hid_t file, const mur_trace_meta *m)
{
    hid_t g = H5Gcreate2(file, "parameters", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const long ticks[3] = {m->first, m->last, m->every};
    int ok = g >= 0 && !attr_string(g, "murmur_version", mur_version()) &&
             !attr_string(g, "scene_path", m->scene_path ? m->scene_path : "") &&
             !attr_string(g, "condition", m->condition) &&
             !attr_numbers(g, "run", H5T_STD_I32LE, H5T_NATIVE_INT, &m->run, 0) &&
             !attr_numbers(g, "seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, &m->seed, 0) &&
             !attr_numbers(g, "scene_seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, &m->scene_seed, 0) &&
             !attr_numbers(g, "ticks_per_second", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &m->tps, 0) &&
             !attr_numbers(g, "first_last_every", H5T_STD_I64LE, H5T_NATIVE_LONG, ticks, 3) &&
             !dataset_string(g, "provenance", m->provenance ? m->provenance : "");
    return close_group(g, ok);
}

/* ---- time series ---------------------------------------------------------- */

/* An empty dataset of rank 1 + inner dims, growing along T without limit:
 * chunks of one tick (of `along` ticks for a rank-1 series), deflated. A
 * chunk cannot be 0 boids wide, nor wider than a fixed dimension, so the
 * [T][0][2] of an empty flock has chunks of one boid (never written) and an
 * unlimited N. */
static hid_t growing(hid_t loc, const char *name, hid_t type, int inner, hsize_t n, hsize_t along, hsize_t dim)
{
    hsize_t dims[3] = {0, n, dim}, maxd[3] = {H5S_UNLIMITED, n ? n : H5S_UNLIMITED, dim},
            chunk[3] = {along, n ? n : 1, dim};
    int rank = 1 + inner;
    hid_t sp = H5Screate_simple(rank, dims, maxd), pl = untimed();
    hid_t d = -1;
    if (sp >= 0 && pl >= 0 && H5Pset_chunk(pl, rank, chunk) >= 0 && H5Pset_shuffle(pl) >= 0 &&
        H5Pset_deflate(pl, 1) >= 0)
        d = H5Dcreate2(loc, name, type, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    if (pl >= 0)
        H5Pclose(pl);
    if (sp >= 0)
        H5Sclose(sp);
    return d;
}

/* Group path under loc with step, time and value; value is [T] (an
 * observable, n < 0) or [T][n][dim] of type (particles, n >= 0). */
static int series_create(series *se, hid_t loc, const char *path, hid_t type, long n, int dim)
{
    se->group = H5Gcreate2(loc, path, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (se->group < 0)
        return -1;
    se->step = growing(se->group, "step", H5T_STD_I64LE, 0, 0, 1024, 2);
    se->time = growing(se->group, "time", H5T_IEEE_F64LE, 0, 0, 1024, 2);
    se->value = n >= 0 ? growing(se->group, "value", type, 2, (hsize_t)n, 1, (hsize_t)dim)
                       : growing(se->group, "value", type, 0, 0, 1024, 2);
    if (se->time >= 0 && attr_string(se->time, "unit", "s"))
        return -1;
    return se->step >= 0 && se->time >= 0 && se->value >= 0 ? 0 : -1;
}

static int series_close(series *se)
{
    int ok = 1;
    hid_t *ids[3] = {&se->step, &se->time, &se->value};
    for (int i = 0; i < 3; i++)
        if (*ids[i] > 0 && H5Dclose(*ids[i]) < 0)
            ok = 0;
    if (se->group > 0 && H5Gclose(se->group) < 0)
        ok = 0;
    memset(se, 0, sizeof *se);
    return ok ? 0 : -1;
}

/* Append row t of a dataset of rank 1 (n < 0) or 3 ([T][n][dim]) from
 * memory of mt. A row of no boids has no values: the extent grows, nothing
 * is written. */
static int append(hid_t d, long t, hid_t mt, const void *v, long n, int dim)
{
    int rank = n >= 0 ? 3 : 1;
    hsize_t size[3] = {(hsize_t)t + 1, n > 0 ? (hsize_t)n : 0, (hsize_t)dim}, start[3] = {(hsize_t)t, 0, 0},
            count[3] = {1, size[1], (hsize_t)dim};
    if (H5Dset_extent(d, size) < 0)
        return -1;
    if (n == 0)
        return 0;
    hid_t fs = H5Dget_space(d), ms = H5Screate_simple(rank, count, NULL);
    int ok = fs >= 0 && ms >= 0 &&
             H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
             H5Dwrite(d, mt, ms, fs, H5P_DEFAULT, v) >= 0;
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    return ok ? 0 : -1;
}

static int series_append(series *se, long t, long tick, double time, hid_t mt, const void *v,
                         long n, int dim)
{
    int64_t step = tick;
    return append(se->step, t, H5T_NATIVE_INT64, &step, -1, 2) ||
                   append(se->time, t, H5T_NATIVE_DOUBLE, &time, -1, 2) || append(se->value, t, mt, v, n, dim)
               ? -1
               : 0;
}

/* ---- the saved state ---------------------------------------------------------- */

/* parameters/state: at every recorded step the flock's tick counter (the
 * noise is drawn from it) and its stream (it draws boids the timeline
 * adds), so that a flock started from any step (`flock: {start: FILE}`)
 * goes on exactly as this run did. Positions and velocities are the
 * particles' own. `format` changes when this does. */
static int state_create(trace_h5 *h)
{
    static const int format = MUR_TRACE_STATE_FORMAT;
    hsize_t dims[2] = {0, 4}, maxd[2] = {H5S_UNLIMITED, 4}, chunk[2] = {1024, 4};
    h->state = H5Gcreate2(h->file, "parameters/state", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (h->state < 0 || attr_numbers(h->state, "format", H5T_STD_I32LE, H5T_NATIVE_INT, &format, 0))
        return -1;
    h->flock_tick = growing(h->state, "flock_tick", H5T_STD_U64LE, 0, 0, 1024, 2);
    hid_t sp = H5Screate_simple(2, dims, maxd), pl = untimed();
    if (sp >= 0 && pl >= 0 && H5Pset_chunk(pl, 2, chunk) >= 0 && H5Pset_deflate(pl, 1) >= 0)
        h->stream = H5Dcreate2(h->state, "stream", H5T_STD_U64LE, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    if (pl >= 0)
        H5Pclose(pl);
    if (sp >= 0)
        H5Sclose(sp);
    return h->flock_tick > 0 && h->stream > 0 ? 0 : -1;
}

static int state_append(trace_h5 *h, const mur_trace_frame *f)
{
    uint64_t tick = f->flock_tick;
    const uint64_t *stream = f->stream;
    if (append(h->flock_tick, h->t, H5T_NATIVE_UINT64, &tick, -1, 2))
        return -1;
    hsize_t size[2] = {(hsize_t)h->t + 1, 4}, start[2] = {(hsize_t)h->t, 0}, count[2] = {1, 4};
    if (H5Dset_extent(h->stream, size) < 0)
        return -1;
    hid_t fs = H5Dget_space(h->stream), ms = H5Screate_simple(2, count, NULL);
    int ok = fs >= 0 && ms >= 0 &&
             H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
             H5Dwrite(h->stream, H5T_NATIVE_UINT64, ms, fs, H5P_DEFAULT, stream) >= 0;
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    return ok ? 0 : -1;
}

static int state_close(trace_h5 *h)
{
    int ok = 1;
    hid_t *ids[2] = {&h->flock_tick, &h->stream};
    for (int i = 0; i < 2; i++)
        if (*ids[i] > 0 && H5Dclose(*ids[i]) < 0)
            ok = 0;
    if (h->state > 0 && H5Gclose(h->state) < 0)
        ok = 0;
    h->state = h->flock_tick = h->stream = 0;
    return ok ? 0 : -1;
}

/* ---- the writer ----------------------------------------------------------- */

static int create_layout(trace_h5 *h, const mur_trace_meta *m)
{
    hid_t type = h->float32 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
    if (write_h5md(h->file) || write_parameters(h->file, m))
        return -1;
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    if (lcpl < 0 || H5Pset_create_intermediate_group(lcpl, 1) < 0)
        return -1;
    hid_t flock = H5Gcreate2(h->file, "particles/flock", lcpl, H5P_DEFAULT, H5P_DEFAULT);
    hid_t obs = H5Gcreate2(h->file, "observables", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Pclose(lcpl);
    int ok = flock >= 0 && obs >= 0 && !write_box(flock, m) &&
             !series_create(&h->pos, flock, "position", type, h->n, h->dim) &&
             !series_create(&h->vel, flock, "velocity", type, h->n, h->dim);
    for (int k = 0; ok && k < h->nobs; k++)
        ok = !series_create(&h->obs[k], obs, m->observables[k], H5T_IEEE_F64LE, -1, 2);
    ok = ok && !state_create(h);
    ok = !close_group(flock, ok);
    return close_group(obs, ok);
}

int mur_trace_h5_open_(trace_h5 **out, const char *tmp, const char *final, const mur_trace_meta *m,
                  mur_error *err)
{
    *out = NULL;
    /* A file whose close failed (a full disk) stays open inside HDF5, and
     * HDF5's exit handler crashes on it; a trace that failed is discarded
     * anyway, so the handler is not installed (this works when murmur is
     * the first to call HDF5; a host program may call H5close itself). */
    H5dont_atexit();
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    trace_h5 *h = mur_calloc(1, sizeof *h);
    if (!h)
        return mur_error_set(err, MUR_ERUN, "out of memory");
    h->path = final;
    h->n = m->rows;
    h->float32 = m->float32;
    h->dim = m->dimension == 3 ? 3 : 2;
    h->nobs = m->nobservables;
    h->file = -1;
    h->buf = mur_malloc((size_t)(h->n ? h->n : 1) * (size_t)h->dim * sizeof(double));
    if (!h->buf) {
        mur_trace_h5_close_(h, NULL);
        return mur_error_set(err, MUR_ERUN, "out of memory for a trace of %d boids", h->n);
    }
    errno = 0;
    /* A strong close degree: closing the file closes whatever a failure
     * left open, so a failed trace leaves no object behind for HDF5's exit
     * handler to trip over. */
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl >= 0 && H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) >= 0)
        h->file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    if (fapl >= 0)
        H5Pclose(fapl);
    if (h->file < 0 || create_layout(h, m)) {
        int rc = h5_fail(h, err);
        mur_trace_h5_close_(h, NULL);
        return rc;
    }
    *out = h;
    return MUR_OK;
}

/* x, y and z of one tick's n boids interleaved as [N][3] (a 3D world),
 * as interleave does in 2D. */
static const void *interleave3(trace_h5 *h, int n, const double *x, const double *y, const double *z,
                               const int *ids)
{
    const double *a[3] = {x, y, z};
    for (int c = 0; c < 3; c++) {
        if (h->float32) {
            float *b = h->buf;
            for (int i = 0; i < h->n; i++)
                b[3 * i + c] = i < n && !ids ? (float)a[c][i] : NAN;
            for (int i = 0; ids && i < n; i++)
                b[3 * ids[i] + c] = (float)a[c][i];
        } else {
            double *b = h->buf;
            for (int i = 0; i < h->n; i++)
                b[3 * i + c] = i < n && !ids ? a[c][i] : NAN;
            for (int i = 0; ids && i < n; i++)
                b[3 * ids[i] + c] = a[c][i];
        }
    }
    return h->buf;
}

/* x and y of one tick's n boids interleaved as [N][2], in the file's
 * precision; rows past n (boids the timeline has not added yet, or has
 * removed) are NaN. A replayed flock's boid goes to the row of its id
 * (mur_trace_h5_frame_ has checked that the ids fit), the rows of ids absent
 * then NaN. */
static const void *interleave(trace_h5 *h, int n, const double *x, const double *y, const int *ids)
{
    if (h->float32) {
        float *b = h->buf;
        for (int i = 0; i < h->n; i++) {
            b[2 * i] = i < n && !ids ? (float)x[i] : NAN;
            b[2 * i + 1] = i < n && !ids ? (float)y[i] : NAN;
        }
        for (int i = 0; ids && i < n; i++) {
            b[2 * ids[i]] = (float)x[i];
            b[2 * ids[i] + 1] = (float)y[i];
        }
    } else {
        double *b = h->buf;
        for (int i = 0; i < h->n; i++) {
            b[2 * i] = i < n && !ids ? x[i] : NAN;
            b[2 * i + 1] = i < n && !ids ? y[i] : NAN;
        }
        for (int i = 0; ids && i < n; i++) {
            b[2 * ids[i]] = x[i];
            b[2 * ids[i] + 1] = y[i];
        }
    }
    return h->buf;
}

int mur_trace_h5_frame_(trace_h5 *h, const mur_trace_frame *f, mur_error *err)
{
    hid_t mt = h->float32 ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
    long n = h->n;
    int now = f->n < h->n ? f->n : h->n;
    if (h->nobs && !f->observables)
        return mur_error_set(err, MUR_EINPUT, "'%s': a frame without its %d observables", h->path, h->nobs);
    for (int i = 0; f->ids && i < now; i++)
        if (f->ids[i] < 0 || f->ids[i] >= h->n)
            return mur_error_set(err, MUR_EINPUT, "'%s': id %d has no row in a trace of %d rows", h->path,
                                 f->ids[i], h->n);
    if (h->dim == 3 && now > 0 && (!f->z || !f->vz))
        return mur_error_set(err, MUR_EINPUT, "'%s': a 3D trace's frame without z", h->path);
    errno = 0;
    int d = h->dim;
    if (d == 3 ? series_append(&h->pos, h->t, f->tick, f->time, mt, interleave3(h, now, f->x, f->y, f->z, f->ids), n, 3) ||
                     series_append(&h->vel, h->t, f->tick, f->time, mt, interleave3(h, now, f->vx, f->vy, f->vz, f->ids), n, 3)
               : series_append(&h->pos, h->t, f->tick, f->time, mt, interleave(h, now, f->x, f->y, f->ids), n, 2) ||
                     series_append(&h->vel, h->t, f->tick, f->time, mt, interleave(h, now, f->vx, f->vy, f->ids), n, 2))
        return h5_fail(h, err);
    if (state_append(h, f))
        return h5_fail(h, err);
    for (int k = 0; k < h->nobs; k++)
        if (series_append(&h->obs[k], h->t, f->tick, f->time, H5T_NATIVE_DOUBLE, &f->observables[k], -1, 2))
            return h5_fail(h, err);
    h->t++;
    return MUR_OK;
}

int mur_trace_h5_close_(trace_h5 *h, mur_error *err)
{
    if (!h)
        return MUR_OK;
    /* Everything is closed even after a failure (a group left open would
     * trip HDF5's exit handler); the first failure's errno is the reason. */
    errno = 0;
    int ok = !series_close(&h->pos);
    ok = !series_close(&h->vel) && ok;
    for (int k = 0; k < h->nobs; k++)
        ok = !series_close(&h->obs[k]) && ok;
    ok = !state_close(h) && ok;
    int e = errno;
    if (h->file >= 0) {
        ok = H5Fflush(h->file, H5F_SCOPE_LOCAL) >= 0 && ok;
        ok = H5Fclose(h->file) >= 0 && ok;
    }
    if (e)
        errno = e;
    int rc = ok ? MUR_OK : err ? h5_fail(h, err) : MUR_ERUN;
    mur_free(h->buf);
    mur_free(h);
    return rc;
}
