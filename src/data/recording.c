/* Recorded flocks (recording.h): the frames both readers build, velocities
 * worked out from positions when a file has none, and which reader a file
 * takes. */
#include "recording.h"
#include "murmur/recording.h"
#include "murmur/alloc.h"
#include "murmur/file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

long mur_recording_frame_at(const mur_recording *r, long tick)
{
    long lo = 0, hi = r->nframes;   /* the first frame after tick is in [lo, hi] */
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (r->tick[mid] <= tick)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

void mur_recording_describe(const mur_recording *r, mur_recording_info *out)
{
    out->path = r->path;
    out->frames = r->nframes;
    out->first_tick = r->nframes ? r->tick[0] : 0;
    out->last_tick = r->nframes ? r->tick[r->nframes - 1] : 0;
    out->max_boids = r->max_n;
    out->max_id = -1;
    for (long k = 0; k < r->nframes; k++)   /* ascending within a frame: its last */
        if (r->first[k + 1] > r->first[k] && r->id[r->first[k + 1] - 1] > out->max_id)
            out->max_id = r->id[r->first[k + 1] - 1];
    out->has_state = r->has_state;
    out->flock_tick = r->flock_tick;
}

void mur_recording_destroy(mur_recording *r)
{
    if (!r)
        return;
    mur_free(r->path);
    mur_free(r->tick);
    mur_free(r->first);
    mur_free(r->id);
    mur_free(r->x);
    mur_free(r->y);
    mur_free(r->vx);
    mur_free(r->vy);
    mur_free(r->z);
    mur_free(r->vz);
    mur_free(r);
}

/* ---- building --------------------------------------------------------------- */

int mur_rec_begin(rec_builder *b, const char *shown, mur_error *err)
{
    memset(b, 0, sizeof *b);
    b->r = mur_calloc(1, sizeof *b->r);
    if (b->r)
        b->r->path = mur_strdup(shown);
    if (!b->r || !b->r->path || mur_rec_grow(b, 0) || !(b->r->first = mur_calloc(1, sizeof(long)))) {
        mur_recording_destroy(b->r);
        b->r = NULL;
        return mur_error_set(err, MUR_ERUN, "out of memory reading '%s'", shown);
    }
    return MUR_OK;
}

int mur_rec_grow(rec_builder *b, long rows)
{
    if (rows < b->cap)
        return 0;
    long cap = b->cap ? b->cap : 1024;
    while (cap <= rows)
        cap *= 2;
    mur_recording *r = b->r;
    void **arrays[] = {(void **)&r->x, (void **)&r->y, (void **)&r->vx, (void **)&r->vy,
                       (void **)&r->z, (void **)&r->vz};
    for (size_t k = 0; k < (b->three ? 6u : 4u); k++) {
        void *q = mur_realloc(*arrays[k], (size_t)cap * sizeof(double));
        if (!q)
            return -1;
        *arrays[k] = q;
    }
    int *id = mur_realloc(r->id, (size_t)cap * sizeof *id);
    if (!id)
        return -1;
    r->id = id;
    b->cap = cap;
    return 0;
}

int mur_rec_frame(rec_builder *b, long tick)
{
    mur_recording *r = b->r;
    if (r->nframes + 1 >= b->fcap) {
        long cap = b->fcap ? 2 * b->fcap : 256;
        long *t = mur_realloc(r->tick, (size_t)cap * sizeof *t);
        if (t)
            r->tick = t;
        long *f = t ? mur_realloc(r->first, (size_t)(cap + 1) * sizeof *f) : NULL;
        if (!f)
            return -1;
        r->first = f;
        b->fcap = cap;
    }
    long n = b->rows - r->first[r->nframes];
    if (n > r->max_n)
        r->max_n = (int)n;
    r->tick[r->nframes++] = tick;
    r->first[r->nframes] = b->rows;
    return 0;
}

/* Velocities of frame k's boids from their moves: from the frame before
 * when the boid is in it (the step that brought it here, as a flock's
 * velocity is), else towards the frame after, else 0. Rows are sorted by
 * id, so each pair of frames is one merge. Enters with unknown velocities
 * NaN. */
static void velocity_of_frame(mur_recording *r, long k, const mur_params *p)
{
    for (int side = 0; side < 2; side++) {
        long o = side == 0 ? k - 1 : k + 1;
        if (o < 0 || o >= r->nframes)
            continue;
        double dt = (double)(r->tick[k] - r->tick[o]);   /* negative towards the next */
        long i = r->first[k], j = r->first[o];
        while (i < r->first[k + 1] && j < r->first[o + 1]) {
            if (r->id[i] != r->id[j]) {
                if (r->id[i] < r->id[j])
                    i++;
                else
                    j++;
                continue;
            }
            if (isnan(r->vx[i]) && r->dimension == 3) {   /* the move in 3D, the nearest image along z too */
                double from[3] = {r->x[j], r->y[j], r->z[j]}, to[3] = {r->x[i], r->y[i], r->z[i]}, d[3];
                mur_params_offset3(p, from, to, d);
                r->vx[i] = d[0] / dt;
                r->vy[i] = d[1] / dt;
                r->vz[i] = d[2] / dt;
            } else if (isnan(r->vx[i])) {
                double dx, dy;
                mur_params_offset(p, r->x[j], r->y[j], r->x[i], r->y[i], &dx, &dy);
                r->vx[i] = dx / dt;
                r->vy[i] = dy / dt;
            }
            i++;
            j++;
        }
    }
    for (long i = r->first[k]; i < r->first[k + 1]; i++)
        if (isnan(r->vx[i])) {
            r->vx[i] = r->vy[i] = 0;   /* seen once: no move to tell */
            if (r->dimension == 3)
                r->vz[i] = 0;
        }
}

int mur_rec_finish(rec_builder *b, int has_velocity, const mur_params *p, mur_error *err)
{
    (void)err;
    mur_recording *r = b->r;
    if (has_velocity)
        return MUR_OK;
    for (long i = 0; i < b->rows; i++)
        r->vx[i] = r->vy[i] = NAN;   /* vz follows vx (velocity_of_frame) */
    for (long k = 0; k < r->nframes; k++)
        velocity_of_frame(r, k, p);
    return MUR_OK;
}

/* ---- which reader --------------------------------------------------------- */

int mur_recording_file_ok(const char *path, char *why, size_t n)
{
    return mur_file_check_input(path, MUR_REPLAY_MAX_BYTES, why, n);
}

int mur_recording_replay(mur_recording **out, const char *path, const char *shown,
                         const mur_params *p, mur_error *err)
{
    *out = NULL;
    return mur_file_is_hdf5(path) ? mur_recording_read_h5(out, path, shown, -1, 1, p, err)
                       : mur_recording_read_csv(out, path, shown, p, err);
}

int mur_recording_start(mur_recording **out, const char *path, const char *shown, long tick,
                        const mur_params *p, mur_error *err)
{
    *out = NULL;
    if (!mur_file_is_hdf5(path))
        return mur_error_set(err, MUR_EINPUT,
                             "%s: error: a saved state is an HDF5 file from `murmur trace` (.h5)", shown);
    return mur_recording_read_h5(out, path, shown, tick, 0, p, err);
}
