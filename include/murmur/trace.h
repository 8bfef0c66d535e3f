/* murmur: trajectories out, every boid's position and velocity per tick,
 * for a reader's own analysis (`murmur trace`).
 *
 * A trace steps one flock of a scene through its timeline exactly as a
 * render or an experiment run does (the same settings, events, predators
 * and warm-up) and records ticks first, first + every, ... up to last:
 * the session's loop (src/session/trace.c), which hands each recorded
 * tick as a frame to a trace writer (murmur/trace_writer.h). It
 * writes CSV in long form (run,condition,tick,time,id,x,y,vx,vy, %.17g so
 * the numbers read back exactly) or HDF5 in the H5MD layout (docs/data.md),
 * tick by tick, so memory stays flat however many ticks are recorded. A
 * file appears at its name only when complete (murmur/file.h). */
#ifndef MURMUR_TRACE_H
#define MURMUR_TRACE_H

#include <signal.h>

#include "murmur/error.h"
#include "murmur/export.h"
#include "murmur/scene.h"
#include "murmur/trace_writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The version of mur_trace_opts this header describes.
#define MUR_TRACE_OPTS_VERSION 2

/// Progress of a trace: recorded ticks done of total (over every run).
typedef void (*mur_trace_progress)(void *ctx, long done, long total);

/// What to trace. Start from MUR_TRACE_OPTS_INIT, then set fields.
typedef struct mur_trace_opts {
    unsigned version;             ///< MUR_TRACE_OPTS_VERSION
    const char *path;             ///< .csv or .h5 (also .hdf5, .h5md); its extension picks the format
    const char *condition;        ///< an experiment condition's name, or NULL: the scene's own settings
    int run;                      ///< -1: the scene's seed (the flock a render draws); K >= 0: the
                                  ///< seed of experiment run K, mur_rng_derive(seed, K)
    int runs;                     ///< runs run .. run + runs - 1 (run >= 0 when runs > 1); an
                                  ///< .h5 gets one file per run, NAME-runK.h5
    long first, last;             ///< ticks [first, last] (from the first frame); last < 0: the
                                  ///< tick of the scene's last frame
    long every;                   ///< record every this many ticks, >= 1
    int float32;                  ///< .h5: positions and velocities as float32, not float64
    int threads;                  ///< threads stepping the flock (0: all cores; same numbers)
    volatile sig_atomic_t *stop;  ///< polled every tick: non-zero ends with MUR_EINTR (may be NULL)
    mur_trace_progress progress;  ///< called after each recorded tick (may be NULL)
    void *progress_ctx;
    int shard, shards;            ///< (version 2) only the runs k (0..runs-1) with k mod shards =
                                  ///< shard - 1 (murmur/shard.h); 0, 0: every run
} mur_trace_opts;

/// Defaults: the scene's seed and settings, every tick a render draws.
#define MUR_TRACE_OPTS_INIT                                                                        \
    {MUR_TRACE_OPTS_VERSION, NULL, NULL, -1, 1, 0, -1, 1, 0, 0, NULL, NULL, NULL, 0, 0}

/// Fill *out with MUR_TRACE_OPTS_INIT (for bindings that cannot use the macro).
MUR_API void mur_trace_opts_init(mur_trace_opts *out);

/// Write the trace o asks for of scene s. 0; MUR_EINPUT for a bad option
/// (an unknown extension or condition, a run out of range, an empty range);
/// MUR_ERUN for I/O failures ("cannot write 'PATH': REASON") or memory;
/// MUR_EINTR when stopped. On failure nothing is left at the final name
/// (runs already complete keep their files).
MUR_API int mur_trace_write(const mur_scene *s, const mur_trace_opts *o, mur_error *err);

/// Run shard o->shard of o->shards of the trace o asks for (o->path's
/// extension picks the format; nothing is written there) into the shard file
/// shard_path (murmur/shard.h), atomically: each of its runs' rows (.csv) or
/// whole file (.h5) as one record. 0, or as mur_trace_write.
MUR_API int mur_trace_shard_write(const mur_scene *s, const mur_trace_opts *o, const char *shard_path, mur_error *err);

/// 1 when shard_path is a complete shard file of exactly that trace shard.
MUR_API int mur_trace_shard_done(const mur_scene *s, const mur_trace_opts *o, const char *shard_path);

/// Merge the trace shards paths[0..n) of scene s into path (.csv: one file
/// and its provenance beside it; .h5: a file per run as mur_trace_path
/// names them), the bytes a whole `murmur trace` writes. MUR_EINPUT with one
/// line naming the file for a set that is not whole (mur_shard_set_open),
/// or shards of the other format; nothing is written then.
MUR_API int mur_trace_merge(const mur_scene *s, const char *const *paths, int n, const char *path, mur_error *err);

#ifdef __cplusplus
}
#endif

#endif
