/* Recorded flocks from HDF5 in the H5MD layout `murmur trace` writes
 * (docs/data.md): particles/flock/position (step [T], value [T][N][2]),
 * velocity when there, box/edges, and parameters/state (the flock's tick
 * counter and stream at every step) for a saved state. Row i of a value is
 * boid i; NaN rows are boids absent then (the trace of a flock the timeline
 * shrinks or grows). Values are read as doubles, so a float64 trace gives
 * the engine's numbers exactly, and frame by frame, so only the frames
 * asked for are read. HDF5's own error printing is off: a library must not
 * print, and every failure here names the file and dataset instead.
 * This is the reader itself; mur_recording_read_h5 (recording_isolate.c)
 * runs it in a child process, as HDF5 can crash on a damaged file. */
#include "recording.h"
#include "murmur/alloc.h"
#include "murmur/trace_writer.h"

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <string.h>


typedef struct {
    hid_t file, pos, vel, step;
    hsize_t T, N;
    hsize_t D;          /* a row's values: 2, or 3 (a 3D world's trace) */
    const char *shown;
    mur_error *err;
} h5in;

static int bad(h5in *h, const char *dataset, const char *what)
{
    return mur_error_set(h->err, MUR_EINPUT, "%s: error: %s: %s", h->shown, dataset, what);
}

/* Whether path (a/b/c) names an object: 1, 0, or -1 (refused, h->err
 * set). Each link in turn, as H5Lexists fails on a missing group along the
 * way; every one must be a hard link. A soft link can loop or lead
 * anywhere in the file, an external link opens another file (a pipe there
 * blocks HDF5 for good): murmur reads only what the file holds itself. */
static int exists(h5in *h, const char *path)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *slash = buf;; slash++) {
        slash = strchr(slash, '/');
        if (slash)
            *slash = '\0';
        H5L_info_t info;
        if (H5Lexists(h->file, buf, H5P_DEFAULT) <= 0)
            return 0;
        if (H5Lget_info(h->file, buf, &info, H5P_DEFAULT) < 0 || info.type != H5L_TYPE_HARD) {
            bad(h, buf, info.type == H5L_TYPE_SOFT       ? "a soft link: murmur reads only objects the file holds"
                        : info.type == H5L_TYPE_EXTERNAL ? "an external link to another file: murmur reads only "
                                                           "the file it is given"
                                                         : "a link murmur does not follow");
            return -1;
        }
        if (!slash)
            return 1;
        *slash = '/';
    }
}

/* A dataset whose values are elsewhere (a virtual dataset's sources,
 * raw data in external files) is refused: those files may be missing,
 * pipes or devices, and reading them is not reading this file. */
static int stored_here(h5in *h, hid_t d, const char *path)
{
    hid_t pl = H5Dget_create_plist(d);
    int layout = pl >= 0 ? (int)H5Pget_layout(pl) : -1;
    int external = pl >= 0 ? H5Pget_external_count(pl) : -1;
    if (pl >= 0)
        H5Pclose(pl);
    if (layout == H5D_VIRTUAL)
        return bad(h, path, "a virtual dataset (its values are in other files): murmur reads only values the file holds");
    if (layout < 0 || external != 0)
        return bad(h, path, "its values are stored in external files: murmur reads only values the file holds");
    return MUR_OK;
}

/* Dataset path of rank `rank` with inner dims as given (0: any), its length along T. */
static hid_t open_dataset(h5in *h, const char *path, int rank, hsize_t n1, hsize_t n2, hsize_t *T)
{
    int found = exists(h, path);
    if (found <= 0) {
        if (!found)
            bad(h, path, "missing");
        return -1;
    }
    hid_t d = H5Dopen2(h->file, path, H5P_DEFAULT);
    if (d >= 0 && stored_here(h, d, path)) {
        H5Dclose(d);
        return -1;
    }
    hid_t sp = d >= 0 ? H5Dget_space(d) : -1;
    hsize_t dims[4] = {0};
    int r = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
    if (r == rank && r <= 4)
        H5Sget_simple_extent_dims(sp, dims, NULL);
    if (sp >= 0)
        H5Sclose(sp);
    char want[64];
    snprintf(want, sizeof want, "not a dataset of rank %d%s", rank, rank == 3 ? " [T][N][2]" : "");
    if (d < 0 || r != rank || (n1 && dims[1] != n1) || (n2 && dims[2] != n2)) {
        if (d >= 0)
            H5Dclose(d);
        bad(h, path, want);
        return -1;
    }
    *T = dims[0];
    if (rank == 3) {
        h->N = dims[1];
        h->D = dims[2];
    }
    return d;
}

/* The one value of attribute name of object obj (a group) as type mt
 * into out (8 bytes at most): 1, 0 when there is none, -1 when it is not
 * one value (an array attribute would be read past out's end). */
static int read_attr(hid_t obj, const char *name, hid_t mt, void *out)
{
    if (H5Aexists(obj, name) <= 0)
        return 0;
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    hid_t sp = a >= 0 ? H5Aget_space(a) : -1;
    int ok = sp >= 0 && H5Sget_simple_extent_npoints(sp) == 1 && H5Aread(a, mt, out) >= 0;
    if (sp >= 0)
        H5Sclose(sp);
    if (a >= 0)
        H5Aclose(a);
    return ok ? 1 : -1;
}

/* Row t of dataset d ([T][N][k]) into buf as type mt. */
static int read_row(hid_t d, hsize_t t, hsize_t n, hsize_t k, hid_t mt, void *buf)
{
    hsize_t start[3] = {t, 0, 0}, count[3] = {1, n, k};
    int rank = n ? 3 : 1;
    if (!n)
        count[0] = 1;
    hid_t fs = H5Dget_space(d), ms = H5Screate_simple(rank, count, NULL);
    int ok = fs >= 0 && ms >= 0 &&
             H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
             H5Dread(d, mt, ms, fs, H5P_DEFAULT, buf) >= 0;
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    return ok ? 0 : -1;
}

static void h5_close(h5in *h)
{
    hid_t *ids[] = {&h->pos, &h->vel, &h->step};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (*ids[i] >= 0)
            H5Dclose(*ids[i]);
    if (h->file >= 0)
        H5Fclose(h->file);
}

/* Open the file and its position, step and (when there) velocity datasets. */
static int h5_open(h5in *h, const char *path)
{
    H5dont_atexit();
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    H5PLset_loading_state(0);   /* a file's filter must not load code from the plugin folders */
    h->file = h->pos = h->vel = h->step = -1;
    if (H5Fis_hdf5(path) <= 0 || (h->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0)
        return mur_error_set(h->err, MUR_EINPUT, "%s: error: not an HDF5 file", h->shown);
    int found = exists(h, "particles/flock/position/value");
    if (found < 0)
        return MUR_EINPUT;
    if (!found)
        return bad(h, "particles/flock/position", "missing: not a trace (H5MD from `murmur trace`)");
    hsize_t T, Ts, Tv;
    /* [T][N][2], or [T][N][3] from a 3D world */
    if ((h->pos = open_dataset(h, "particles/flock/position/value", 3, 0, 0, &T)) < 0)
        return MUR_EINPUT;
    if (h->D != 2 && h->D != 3)
        return bad(h, "particles/flock/position/value", "not a dataset of rank 3 [T][N][2] (or [T][N][3] in 3D)");
    if ((h->step = open_dataset(h, "particles/flock/position/step", 1, 0, 0, &Ts)) < 0)
        return MUR_EINPUT;
    if (Ts != T)
        return bad(h, "particles/flock/position/step", "not as long as position/value");
    h->T = T;
    if (h->N > (hsize_t)MUR_MAX_BOIDS)
        return bad(h, "particles/flock/position/value", "more boids than murmur can hold (4,000,000)");
    if ((found = exists(h, "particles/flock/velocity/value")) < 0)
        return MUR_EINPUT;
    if (found) {
        hsize_t D = h->D;
        if ((h->vel = open_dataset(h, "particles/flock/velocity/value", 3, h->N, D, &Tv)) < 0)
            return MUR_EINPUT;
        if (Tv != T)
            return bad(h, "particles/flock/velocity/value", "not as long as position/value");
    }
    return MUR_OK;
}

/* particles/flock/box: the world it was recorded in must be p's. */
static int same_world(h5in *h, const mur_params *p)
{
    int found = exists(h, "particles/flock/box/edges");
    if (found <= 0)
        return found < 0 ? MUR_EINPUT : MUR_OK;
    hsize_t T;
    double e[3];
    hid_t d = open_dataset(h, "particles/flock/box/edges", 1, 0, 0, &T);
    if (d < 0)
        return MUR_EINPUT;
    int ok = T == h->D && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, e) >= 0;
    H5Dclose(d);
    if (!ok)
        return bad(h, "particles/flock/box/edges", h->D == 3 ? "not three numbers" : "not two numbers");
    /* a world of other dimensions is the loader's to refuse, at the scene's line */
    if (T == 3 && p->dimensions == 3 && e[2] != p->depth && e[0] == p->width && e[1] == p->height) {
        char what[160];
        snprintf(what, sizeof what, "recorded in a world %g deep; this scene's is %g deep (set world.depth to match)",
                 e[2], p->depth);
        return bad(h, "particles/flock/box/edges", what);
    }
    if (e[0] != p->width || e[1] != p->height) {
        char what[160];
        snprintf(what, sizeof what, "recorded in a %g x %g world; this scene's is %g x %g "
                 "(set world.width and world.height to match)", e[0], e[1], p->width, p->height);
        return bad(h, "particles/flock/box/edges", what);
    }
    return MUR_OK;
}

/* Frame t (row t) into the builder: the boids whose position is a number,
 * ids their rows. xy and v are scratch of N x D doubles. */
static int read_frame(h5in *h, rec_builder *b, hsize_t t, double *xy, double *v, const mur_params *p)
{
    int64_t step;   /* an empty flock's [T][0][2] has no values to read */
    hsize_t D = h->D;
    if ((h->N && read_row(h->pos, t, h->N, D, H5T_NATIVE_DOUBLE, xy)) ||
        (h->N && h->vel >= 0 && read_row(h->vel, t, h->N, D, H5T_NATIVE_DOUBLE, v)) ||
        read_row(h->step, t, 0, 0, H5T_NATIVE_INT64, &step))
        return bad(h, "particles/flock/position", "cannot be read");
    long prev = b->r->nframes ? b->r->tick[b->r->nframes - 1] : -1;
    char what[160];
    if (step < 0 || step > 100000000 || step <= prev) {
        snprintf(what, sizeof what, "step %lld at row %llu %s", (long long)step, (unsigned long long)t,
                 step <= prev ? "does not come after the step before" : "is out of range [0, 1e8]");
        return bad(h, "particles/flock/position/step", what);
    }
    if (mur_rec_grow(b, b->rows + (long)h->N))
        return mur_error_set(h->err, MUR_ERUN, "out of memory reading '%s'", h->shown);
    int wrap = p->boundary == MUR_BOUNDARY_WRAP;
    for (hsize_t i = 0; i < h->N; i++) {
        double x = xy[D * i], y = xy[D * i + 1], z = D == 3 ? xy[D * i + 2] : 0;
        if (isnan(x) && isnan(y))
            continue;   /* absent then */
        double vx = h->vel >= 0 ? v[D * i] : 0, vy = h->vel >= 0 ? v[D * i + 1] : 0;
        double vz = D == 3 && h->vel >= 0 ? v[D * i + 2] : 0;
        if (!isfinite(x) || !isfinite(y) || !isfinite(vx) || !isfinite(vy) || !isfinite(z) || !isfinite(vz)) {
            snprintf(what, sizeof what, "boid %llu at step %lld is not finite", (unsigned long long)i,
                     (long long)step);
            return bad(h, "particles/flock/position", what);
        }
        if (wrap ? x < 0 || x > p->width || y < 0 || y > p->height
                 : x < -p->width || x > 2 * p->width || y < -p->height || y > 2 * p->height) {
            snprintf(what, sizeof what, "boid %llu at step %lld lies outside the world (%g x %g)",
                     (unsigned long long)i, (long long)step, p->width, p->height);
            return bad(h, "particles/flock/position/value", what);
        }
        /* z within the depth when the scene's world has one (else the loader refuses the file) */
        double depth = p->dimensions == 3 ? p->depth : 0;
        if (D == 3 && p->dimensions == 3 && (wrap ? z < 0 || z > depth : z < -depth || z > 2 * depth)) {
            snprintf(what, sizeof what, "boid %llu at step %lld lies outside the world's depth (%g)",
                     (unsigned long long)i, (long long)step, depth);
            return bad(h, "particles/flock/position/value", what);
        }
        long r = b->rows++;
        if (D == 3) {
            b->r->z[r] = z;
            b->r->vz[r] = vz;
        }
        b->r->id[r] = (int)i;
        b->r->x[r] = x;
        b->r->y[r] = y;
        b->r->vx[r] = vx;
        b->r->vy[r] = vy;
    }
    if (mur_rec_frame(b, (long)step))
        return mur_error_set(h->err, MUR_ERUN, "out of memory reading '%s'", h->shown);
    return MUR_OK;
}

/* Step at row t into *step: 0, or -1 when it cannot be read. */
static int step_at(h5in *h, hsize_t t, int64_t *step)
{
    return read_row(h->step, t, 0, 0, H5T_NATIVE_INT64, step);
}

/* The row of step `tick` (-1: the last row). Steps ascend (a replay
 * checks that of every row), so the row is found by bisection: a few
 * reads, however many steps the file declares, and no copy of them. */
static int find_step(h5in *h, long tick, hsize_t *row)
{
    if (h->T == 0)
        return bad(h, "particles/flock/position", "no steps recorded");
    if (tick < 0) {
        *row = h->T - 1;
        return MUR_OK;
    }
    int64_t first, last, v = 0;
    if (step_at(h, 0, &first) || step_at(h, h->T - 1, &last))
        return bad(h, "particles/flock/position/step", "cannot be read");
    hsize_t lo = 0, hi = h->T;   /* the first row whose step is >= tick is in [lo, hi] */
    while (lo < hi) {
        hsize_t mid = lo + (hi - lo) / 2;
        if (step_at(h, mid, &v))
            return bad(h, "particles/flock/position/step", "cannot be read");
        if (v < tick)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == h->T || step_at(h, lo, &v) || v != tick) {
        char what[160];
        snprintf(what, sizeof what, "no step %ld (it holds steps %lld to %lld)", tick, (long long)first,
                 (long long)last);
        return bad(h, "particles/flock/position/step", what);
    }
    *row = lo;
    return MUR_OK;
}

/* parameters/state at row t: the flock's tick counter and stream, for a
 * continuation bit for bit. A file without it (another H5MD writer, an
 * older murmur) starts a flock at tick 0. */
static int read_state(h5in *h, mur_recording *r, hsize_t t)
{
    int found = exists(h, "parameters/state/flock_tick");
    if (found <= 0)
        return found < 0 ? MUR_EINPUT : MUR_OK;
    int format = 0;
    uint64_t seed = 0;
    hid_t g = H5Gopen2(h->file, "parameters/state", H5P_DEFAULT);
    int ok = g >= 0 && read_attr(g, "format", H5T_NATIVE_INT, &format) == 1;
    if (g >= 0)
        H5Gclose(g);
    if (!ok || format != MUR_TRACE_STATE_FORMAT) {
        char what[120];
        snprintf(what, sizeof what, "a saved state of format %d; this murmur reads format %d",
                 format, MUR_TRACE_STATE_FORMAT);
        return bad(h, "parameters/state", what);
    }
    hsize_t T1, T2;
    hid_t ft = open_dataset(h, "parameters/state/flock_tick", 1, 0, 0, &T1);
    hid_t st = ft >= 0 ? open_dataset(h, "parameters/state/stream", 2, 4, 0, &T2) : -1;
    ok = ft >= 0 && st >= 0 && T1 == h->T && T2 == h->T &&
         read_row(ft, t, 0, 0, H5T_NATIVE_UINT64, &r->flock_tick) == 0;
    hsize_t start[2] = {t, 0}, count[2] = {1, 4};
    hid_t fs = ok ? H5Dget_space(st) : -1, ms = H5Screate_simple(2, count, NULL);
    ok = ok && fs >= 0 && H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
         H5Dread(st, H5T_NATIVE_UINT64, ms, fs, H5P_DEFAULT, r->stream) >= 0;
    if (fs >= 0)
        H5Sclose(fs);
    H5Sclose(ms);
    if (ft >= 0)
        H5Dclose(ft);
    if (st >= 0)
        H5Dclose(st);
    if (!ok)
        return bad(h, "parameters/state", "flock_tick or stream missing or not one per step");
    if ((g = H5Gopen2(h->file, "parameters", H5P_DEFAULT)) >= 0) {
        if (read_attr(g, "seed", H5T_NATIVE_UINT64, &seed) == 1)
            r->seed = seed;
        H5Gclose(g);
    }
    r->has_state = 1;
    return MUR_OK;
}

/* A saved state is the model's flock: boids 0 .. n-1 present, none after. */
static int contiguous(h5in *h, const mur_recording *r)
{
    for (long i = 0; i < r->first[1]; i++)
        if (r->id[i] != i) {
            char what[120];
            snprintf(what, sizeof what, "boid %ld is absent but boid %d is there: not a flock's "
                     "state (boids leave from the end)", i, r->id[i]);
            return bad(h, "particles/flock/position/value", what);
        }
    return MUR_OK;
}

int mur_recording_read_h5_here(mur_recording **out, const char *path, const char *shown, long tick,
                               int all, const mur_params *p, mur_error *err)
{
    *out = NULL;
    h5in h = {.shown = shown, .err = err};
    rec_builder b = {0};
    double *xy = NULL, *v = NULL;
    int rc = h5_open(&h, path);
    if (!rc)
        rc = same_world(&h, p);
    /* every step costs a read, an empty one too: bounded before reading */
    if (!rc && all && (double)h.T * (double)(h.N ? h.N : 1) > (double)MUR_REPLAY_MAX_ROWS) {
        char what[160];
        snprintf(what, sizeof what, "%llu steps of %llu boids is more than a replay may hold (%ld positions)",
                 (unsigned long long)h.T, (unsigned long long)h.N, MUR_REPLAY_MAX_ROWS);
        rc = bad(&h, "particles/flock/position/value", what);
    }
    if (!rc && !(rc = mur_rec_begin(&b, shown, err))) {
        b.three = h.D == 3;
        b.r->dimension = (int)h.D;
        /* mur_rec_begin grew the 2D rows; a 3D trace's z and vz grow with them from here */
        if (b.three && (!(b.r->z = mur_malloc((size_t)b.cap * sizeof(double))) ||
                        !(b.r->vz = mur_malloc((size_t)b.cap * sizeof(double)))))
            rc = mur_error_set(err, MUR_ERUN, "out of memory reading '%s'", shown);
        xy = mur_malloc((size_t)(h.N ? h.N : 1) * 3 * sizeof *xy);
        v = mur_malloc((size_t)(h.N ? h.N : 1) * 3 * sizeof *v);
        if (!rc && (!xy || !v))
            rc = mur_error_set(err, MUR_ERUN, "out of memory reading '%s'", shown);
    }
    hsize_t row = 0;
    if (!rc && all) {
        for (hsize_t t = 0; !rc && t < h.T; t++)
            rc = read_frame(&h, &b, t, xy, v, p);
        if (!rc && h.T == 0)
            rc = bad(&h, "particles/flock/position", "no steps recorded");
    } else if (!rc && !(rc = find_step(&h, tick, &row)) && !(rc = read_frame(&h, &b, row, xy, v, p)) &&
               !(rc = contiguous(&h, b.r))) {
        rc = read_state(&h, b.r, row);
    }
    if (!rc)
        rc = mur_rec_finish(&b, h.vel >= 0 || !all, p, err);
    if (!rc && !all && h.vel < 0)
        rc = bad(&h, "particles/flock/velocity", "missing: a saved state needs velocities");
    mur_free(xy);
    mur_free(v);
    h5_close(&h);
    if (rc)
        mur_recording_destroy(b.r);
    else
        *out = b.r;
    return rc;
}
