/* Recorded flocks, read into memory when a scene is loaded: the frames of
 * `flock: {replay: FILE}` and the saved state of `flock: {start: FILE}`
 * (docs/data.md "Recorded flocks in"). Private to src/scene.
 *
 * A recording is frames in tick order, each the boids present then, sorted
 * by id, with positions and velocities (given, or worked out from the
 * positions). Every check a file can fail is made while reading, so a
 * scene that loads can be replayed without surprises, and a bad file is an
 * error naming its line (CSV) or dataset (HDF5), exit 2, before anything
 * is written. */
#ifndef MURMUR_SCENE_RECORDING_H
#define MURMUR_SCENE_RECORDING_H

#include <stddef.h>
#include <stdint.h>

#include "murmur/error.h"
#include "murmur/flock.h"

/* Positions a replay may hold in memory (boids x frames): 10,000,000 take
 * 360 MB (36 bytes a row), a hundred tracked animals for a day at 1 frame a second or
 * for an hour at 25. */
#define MUR_REPLAY_MAX_ROWS 10000000L
/* The largest id a recorded boid may have. */
#define MUR_REPLAY_MAX_ID 2147483646L
/* Bytes of a replay or state file: 2 GiB. */
#define MUR_REPLAY_MAX_BYTES (2L << 30)

typedef struct mur_recording {
    char *path;               /* the file, as messages name it */
    long nframes;
    long *tick;               /* [nframes], strictly ascending */
    long *first;              /* [nframes + 1]: frame k is rows first[k] .. first[k + 1] - 1 */
    int *id;                  /* rows: ascending within a frame */
    double *x, *y, *vx, *vy;
    int dimension;            /* 3: a 3D world's trace (z and vz below); else 2 (0: 2 too) */
    double *z, *vz;           /* rows, in 3D only (NULL in 2D) */
    int max_n;                /* the most boids of any frame */
    /* A saved state from `murmur trace` (HDF5 with parameters/state): */
    int has_state;
    uint64_t flock_tick;      /* the flock's tick counter at the chosen frame */
    uint64_t stream[4];       /* the flock's stream for added boids then */
    uint64_t seed;            /* the seed of the run that made it */
    char sha256[65];          /* the file's SHA-256, hex (the provenance's inputs) */
} mur_recording;

/* The frame shown at tick: the last one at or before it, or -1 before the first. */
long mur_recording_frame_at(const mur_recording *r, long tick);

/* Whether path may be read as a recording: a regular file (not a pipe or a
 * device, which a scene could name to hang or exhaust the loader) within
 * the size limit. 0, or -1 with the reason in why ("cannot be read: ...",
 * "is not a regular file", ...). */
int mur_recording_file_ok(const char *path, char *why, size_t n);

/* Read `flock: {replay: path}` for a world p: every frame. shown names the
 * file in messages. 0, MUR_EINPUT (the file's fault) or MUR_ERUN. */
int mur_recording_replay(mur_recording **out, const char *path, const char *shown,
                         const mur_params *p, mur_error *err);

/* Read `flock: {start: path}` for a world p: the one frame at tick (-1: the
 * file's last), with its saved state when the file has one. */
int mur_recording_start(mur_recording **out, const char *path, const char *shown, long tick,
                        const mur_params *p, mur_error *err);

void mur_recording_destroy(mur_recording *r);

/* Internal to the readers (recording.c, recording_csv.c, recording_h5.c). */
typedef struct rec_builder {
    mur_recording *r;
    long rows, cap;
    long fcap;
    int three;                /* rows have z and vz (set before the first mur_rec_grow past 0) */
} rec_builder;
int mur_rec_begin(rec_builder *b, const char *shown, mur_error *err);
/* Room for one more row; 0 or -1 (out of memory). */
int mur_rec_grow(rec_builder *b, long rows);
/* Close the frame whose rows are rows first .. b->rows - 1 at tick. */
int mur_rec_frame(rec_builder *b, long tick);
/* After the last frame: velocities from positions when the file had none
 * (has_velocity 0), the world checks. 0, or MUR_EINPUT naming the file. */
int mur_rec_finish(rec_builder *b, int has_velocity, const mur_params *p, mur_error *err);
/* An HDF5 trace (all: every frame; else the frame at tick, -1 the last,
 * with its saved state). HDF5 is not hardened against damaged files (a
 * forged B-tree address makes 1.10 read through a null pointer), so the
 * reading runs in a child process (recording_isolate.c): a crash or a
 * hang of the library there is this file's error, exit 2, not murmur's. */
int mur_recording_read_h5(mur_recording **out, const char *path, const char *shown, long tick,
                          int all, const mur_params *p, mur_error *err);
/* The same reading in this process (recording_h5.c). */
int mur_recording_read_h5_here(mur_recording **out, const char *path, const char *shown, long tick,
                               int all, const mur_params *p, mur_error *err);
int mur_recording_read_csv(mur_recording **out, const char *path, const char *shown,
                           const mur_params *p, mur_error *err);

#endif
