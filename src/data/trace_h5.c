/* Traces as HDF5 in the H5MD 1.1 layout (docs/data.md "Traces"): h5md/
 * (version, creator, author), particles/flock/{box,position,velocity},
 * observables/<metric> and parameters/. Every time series is a group of
 * step [T], time [T] and value [T]... datasets that grow by one tick per
 * call (H5Dset_extent), chunked one tick per chunk along T and deflated,
 * so memory holds one tick whatever the length of the trace.
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

#include "murmur/metrics.h"
#include "murmur/version.h"

/* A time series: its group's step, time and value datasets. */
typedef struct {
    hid_t group, step, time, value;
} series;

struct trace_h5 {
    hid_t file;
    const char *path;              /* the final name, for messages */
    int n, float32;                /* n: the most boids the flock has at any tick */
    long t;                        /* ticks written */
    series pos, vel;
    hid_t state, flock_tick, stream; /* parameters/state: what a continuation needs */
    series obs[MUR_METRIC_COUNT];
    int metrics[MUR_METRIC_COUNT]; /* metric index of each observable */
    int nmetrics;
    mur_metrics_ctx *mc;
    void *buf;                     /* one tick's [N][2] values */
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

/* particles/flock/box: a 2-D world, periodic when it wraps. */
static int write_box(hid_t flock, const mur_params *p)
{
    static const char *const periodic[2] = {"periodic", "periodic"}, *const none[2] = {"none", "none"};
    const int dim = 2;
    const double edges[2] = {p->width, p->height};
    hsize_t two = 2;
    hid_t box = H5Gcreate2(flock, "box", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int ok = box >= 0 && !attr_numbers(box, "dimension", H5T_STD_I32LE, H5T_NATIVE_INT, &dim, 0) &&
             !attr_strings(box, "boundary", p->boundary == MUR_BOUNDARY_WRAP ? periodic : none, 2);
    hid_t sp = ok ? H5Screate_simple(1, &two, NULL) : -1, pl = untimed();
    hid_t d = sp >= 0 && pl >= 0
                  ? H5Dcreate2(box, "edges", H5T_IEEE_F64LE, sp, H5P_DEFAULT, pl, H5P_DEFAULT)
                  : -1;
    ok = d >= 0 && H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, edges) >= 0;
    if (d >= 0)
        H5Dclose(d);
    if (pl >= 0)
        H5Pclose(pl);
    if (sp >= 0)
        H5Sclose(sp);
    return close_group(box, ok);
}

/* parameters/: what made the file (version, seeds, run, range) and its
 * provenance, the text every murmur output carries (mur_scene_provenance:
 * the resolved settings and the scene file itself), so the trace can be
 * remade. */
static int write_parameters(hid_t file, const mur_scene *s, const mur_trace_opts *o,
                            const trace_run *r, long last)
{
    hid_t g = H5Gcreate2(file, "parameters", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const long ticks[3] = {o->first, last, o->every};
    int ok = g >= 0 && !attr_string(g, "murmur_version", mur_version()) &&
             !attr_string(g, "scene_path", s->path) && !attr_string(g, "condition", r->condition) &&
             !attr_numbers(g, "run", H5T_STD_I32LE, H5T_NATIVE_INT, &r->run, 0) &&
             !attr_numbers(g, "seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, &r->seed, 0) &&
             !attr_numbers(g, "scene_seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, &s->seed, 0) &&
             !attr_numbers(g, "ticks_per_second", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &s->tps, 0) &&
             !attr_numbers(g, "first_last_every", H5T_STD_I64LE, H5T_NATIVE_LONG, ticks, 3);
    char request[160], *text = NULL;
    snprintf(request, sizeof request, "trace: ticks %ld to %ld, every %ld; condition %s, run %d",
             o->first, last, o->every, r->condition, r->run);
    if (ok)
        ok = mur_scene_provenance(s, r->seed, request, &text, NULL) == MUR_OK &&
             !dataset_string(g, "provenance", text);
    mur_free(text);
    return close_group(g, ok);
}

/* ---- time series ---------------------------------------------------------- */

/* An empty dataset of rank 1 + inner dims, growing along T without limit:
 * chunks of one tick (of `along` ticks for a rank-1 series), deflated. A
 * chunk cannot be 0 boids wide, nor wider than a fixed dimension, so the
 * [T][0][2] of an empty flock has chunks of one boid (never written) and an
 * unlimited N. */
static hid_t growing(hid_t loc, const char *name, hid_t type, int inner, hsize_t n, hsize_t along)
{
    hsize_t dims[3] = {0, n, 2}, maxd[3] = {H5S_UNLIMITED, n ? n : H5S_UNLIMITED, 2},
            chunk[3] = {along, n ? n : 1, 2};
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
 * observable, n < 0) or [T][n][2] of type (particles, n >= 0). */
static int series_create(series *se, hid_t loc, const char *path, hid_t type, long n)
{
    se->group = H5Gcreate2(loc, path, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (se->group < 0)
        return -1;
    se->step = growing(se->group, "step", H5T_STD_I64LE, 0, 0, 1024);
    se->time = growing(se->group, "time", H5T_IEEE_F64LE, 0, 0, 1024);
    se->value = n >= 0 ? growing(se->group, "value", type, 2, (hsize_t)n, 1)
                       : growing(se->group, "value", type, 0, 0, 1024);
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

/* Append row t of a dataset of rank 1 (n < 0) or 3 ([T][n][2]) from memory
 * of mt. A row of no boids has no values: the extent grows, nothing is
 * written. */
static int append(hid_t d, long t, hid_t mt, const void *v, long n)
{
    int rank = n >= 0 ? 3 : 1;
    hsize_t size[3] = {(hsize_t)t + 1, n > 0 ? (hsize_t)n : 0, 2}, start[3] = {(hsize_t)t, 0, 0},
            count[3] = {1, size[1], 2};
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
                         long n)
{
    int64_t step = tick;
    return append(se->step, t, H5T_NATIVE_INT64, &step, -1) ||
                   append(se->time, t, H5T_NATIVE_DOUBLE, &time, -1) || append(se->value, t, mt, v, n)
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
    h->flock_tick = growing(h->state, "flock_tick", H5T_STD_U64LE, 0, 0, 1024);
    hid_t sp = H5Screate_simple(2, dims, maxd), pl = untimed();
    if (sp >= 0 && pl >= 0 && H5Pset_chunk(pl, 2, chunk) >= 0 && H5Pset_deflate(pl, 1) >= 0)
        h->stream = H5Dcreate2(h->state, "stream", H5T_STD_U64LE, sp, H5P_DEFAULT, pl, H5P_DEFAULT);
    if (pl >= 0)
        H5Pclose(pl);
    if (sp >= 0)
        H5Sclose(sp);
    return h->flock_tick > 0 && h->stream > 0 ? 0 : -1;
}

static int state_append(trace_h5 *h, const mur_flock *f)
{
    uint64_t tick = mur_flock_tick(f), stream[4];
    mur_flock_stream(f, stream);
    if (append(h->flock_tick, h->t, H5T_NATIVE_UINT64, &tick, -1))
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

/* The readout's metrics (every readout overlay's, each once), else the default set. */
static void choose_metrics(trace_h5 *h, const mur_scene *s)
{
    const mur_look *look = mur_scene_look(s);
    int seen[MUR_METRIC_COUNT] = {0};
    for (int i = 0; i < look->noverlays; i++) {
        const mur_overlay *ov = &look->overlays[i];
        for (int j = 0; ov->kind == MUR_OVERLAY_READOUT && j < ov->nmetrics; j++)
            if (ov->metrics[j] >= 0 && ov->metrics[j] < MUR_METRIC_COUNT && !seen[ov->metrics[j]]++)
                h->metrics[h->nmetrics++] = ov->metrics[j];
    }
    unsigned all = h->nmetrics ? 0 : mur_metrics_default_mask();
    for (int k = 0; k < MUR_METRIC_COUNT; k++)
        if (all >> k & 1)
            h->metrics[h->nmetrics++] = k;
}

static int create_layout(trace_h5 *h, const mur_scene *s, const mur_params *base,
                         const mur_trace_opts *o, const trace_run *r)
{
    long last = o->last >= 0 ? o->last : mur_scene_frame_tick(s, mur_scene_frames(s) - 1);
    hid_t type = h->float32 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
    if (write_h5md(h->file) || write_parameters(h->file, s, o, r, last))
        return -1;
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    if (lcpl < 0 || H5Pset_create_intermediate_group(lcpl, 1) < 0)
        return -1;
    hid_t flock = H5Gcreate2(h->file, "particles/flock", lcpl, H5P_DEFAULT, H5P_DEFAULT);
    hid_t obs = H5Gcreate2(h->file, "observables", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Pclose(lcpl);
    int ok = flock >= 0 && obs >= 0 && !write_box(flock, base) &&
             !series_create(&h->pos, flock, "position", type, h->n) &&
             !series_create(&h->vel, flock, "velocity", type, h->n);
    for (int k = 0; ok && k < h->nmetrics; k++)
        ok = !series_create(&h->obs[k], obs, mur_metric_name(h->metrics[k]), H5T_IEEE_F64LE, -1);
    ok = ok && !state_create(h);
    ok = !close_group(flock, ok);
    return close_group(obs, ok);
}

int trace_h5_open(trace_h5 **out, const char *tmp, const char *final, const mur_scene *s,
                  const mur_params *base, const mur_trace_opts *o, const trace_run *r,
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
    h->n = (int)mur_scene_max_count(s, base);
    const mur_recording *rec = mur_scene_replay_of(s, r->index);
    if (rec) {   /* a row per id */
        mur_recording_info in;
        mur_recording_describe(rec, &in);
        h->n = in.max_id + 1;
    }
    h->float32 = o->float32;
    h->file = -1;
    choose_metrics(h, s);
    h->mc = mur_metrics_ctx_create();
    if (h->mc) {   /* the observables measure as the scene's experiment does */
        mur_metrics_ctx_set_radius(h->mc, s->measure.radius);
        mur_metrics_ctx_set_correlation(h->mc, s->measure.correlation_bin, s->measure.correlation_range);
    }
    h->buf = mur_malloc((size_t)(h->n ? h->n : 1) * 2 * sizeof(double));
    if (!h->mc || !h->buf) {
        trace_h5_close(h, NULL);
        return mur_error_set(err, MUR_ERUN, "out of memory for a trace of %d boids", h->n);
    }
    mur_metrics_ctx_set_stop(h->mc, o->stop);
    errno = 0;
    /* A strong close degree: closing the file closes whatever a failure
     * left open, so a failed trace leaves no object behind for HDF5's exit
     * handler to trip over. */
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl >= 0 && H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) >= 0)
        h->file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    if (fapl >= 0)
        H5Pclose(fapl);
    if (h->file < 0 || create_layout(h, s, base, o, r)) {
        int rc = h5_fail(h, err);
        trace_h5_close(h, NULL);
        return rc;
    }
    *out = h;
    return MUR_OK;
}

/* x and y of one tick's n boids interleaved as [N][2], in the file's
 * precision; rows past n (boids the timeline has not added yet, or has
 * removed) are NaN. A replayed flock's boid goes to the row of its id
 * (mur_trace_write has checked that the ids fit), the rows of ids absent
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

int trace_h5_tick(trace_h5 *h, long tick, double time, const mur_flock *f, mur_error *err)
{
    hid_t mt = h->float32 ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
    long n = h->n;
    errno = 0;
    int now = mur_flock_count(f) < h->n ? mur_flock_count(f) : h->n;
    if (series_append(&h->pos, h->t, tick, time, mt, interleave(h, now, mur_flock_x(f), mur_flock_y(f), mur_flock_ids(f)), n) ||
        series_append(&h->vel, h->t, tick, time, mt, interleave(h, now, mur_flock_vx(f), mur_flock_vy(f), mur_flock_ids(f)), n) ||
        state_append(h, f))
        return h5_fail(h, err);
    if (h->nmetrics) {
        mur_metrics m;
        unsigned want = 0;   /* only the observables' metrics: at a million boids the rest cost seconds */
        for (int k = 0; k < h->nmetrics; k++)
            want |= 1u << h->metrics[k];
        int rc = mur_metrics_compute_some(h->mc, f, want, &m);
        if (rc)
            return rc == MUR_EINTR ? mur_error_set(err, MUR_EINTR, "stopped at tick %ld", tick)
                                   : mur_error_set(err, MUR_ERUN, "out of memory computing metrics");
        for (int k = 0; k < h->nmetrics; k++) {
            double v = mur_metrics_value(&m, h->metrics[k]);
            if (series_append(&h->obs[k], h->t, tick, time, H5T_NATIVE_DOUBLE, &v, -1))
                return h5_fail(h, err);
        }
    }
    h->t++;
    return MUR_OK;
}

int trace_h5_close(trace_h5 *h, mur_error *err)
{
    if (!h)
        return MUR_OK;
    /* Everything is closed even after a failure (a group left open would
     * trip HDF5's exit handler); the first failure's errno is the reason. */
    errno = 0;
    int ok = !series_close(&h->pos);
    ok = !series_close(&h->vel) && ok;
    for (int k = 0; k < h->nmetrics; k++)
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
    mur_metrics_ctx_destroy(h->mc);
    mur_free(h->buf);
    mur_free(h);
    return rc;
}
