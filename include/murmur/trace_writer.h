/* murmur: trace files from frames of state (the data side of `murmur trace`).
 *
 * A trace writer is handed what it writes, as the video encoder is handed
 * pixels: once the file's metadata (mur_trace_meta: the box, the run, the
 * observables' names, the provenance text), then one frame of state per
 * recorded tick (mur_trace_frame: tick, time, positions, velocities, ids,
 * observables' values, the flock's counters). It never steps a flock nor
 * reads a scene: the loop that does (mur_trace_write, murmur/trace.h) is
 * the session's.
 *
 * Two formats: CSV in long form (run,condition,tick,time,id,x,y,vx,vy, one
 * row per boid, numbers exact and -0 written 0; runs follow each other in
 * one file) and HDF5 in the H5MD 1.1 layout (docs/data.md "Traces"; one
 * file per run, a row per boid or id, NaN where a row has no boid). Memory
 * holds one frame whatever the number of frames. */
#ifndef MURMUR_TRACE_WRITER_H
#define MURMUR_TRACE_WRITER_H

#include <stdint.h>

#include "murmur/error.h"
#include "murmur/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The format of a trace's saved state (parameters/state: the flock's tick
/// counter and stream at every step), which `flock: {start: FILE}` reads.
#define MUR_TRACE_STATE_FORMAT 1

/// The version of mur_trace_meta this header describes.
#define MUR_TRACE_META_VERSION 1

/// A CSV trace's first line.
#define MUR_TRACE_CSV_HEADER "run,condition,tick,time,id,x,y,vx,vy\n"

/// A CSV trace's first line in a 3D world (mur_trace_meta.dimension 3): z and vz too.
#define MUR_TRACE_CSV_HEADER3 "run,condition,tick,time,id,x,y,z,vx,vy,vz\n"

/// The most observables a trace's metadata names.
#define MUR_TRACE_MAX_OBSERVABLES 32

/// Formats of a trace file.
enum { MUR_TRACE_CSV = 0, MUR_TRACE_H5 = 1 };

/// The format path's extension picks: MUR_TRACE_CSV for .csv, MUR_TRACE_H5
/// for .h5, .hdf5 or .h5md (mur_file_is_hdf5), -1 for anything else.
MUR_API int mur_trace_format_of(const char *path);

/// The file of run k of a trace to path: path itself when runs == 1, else
/// "NAME-runK.EXT" for an HDF5 path (a CSV keeps every run in one file).
/// The caller frees it; NULL when out of memory.
MUR_API char *mur_trace_path(const char *path, int runs, int k);

/// What a trace file says about itself, handed over once by its caller.
/// Strings are borrowed for the call (copied where kept).
typedef struct mur_trace_meta {
    unsigned version;            ///< MUR_TRACE_META_VERSION
    int format;                  ///< MUR_TRACE_CSV or MUR_TRACE_H5
    /* the run (the CSV's run and condition columns; .h5: parameters/) */
    const char *condition;       ///< the condition's name ("scene": the scene's own settings)
    int run;                     ///< the run's index, -1: the scene's seed
    uint64_t seed;               ///< the run's seed
    int dimension;               ///< of the world: 2, or 3 (a CSV's z and vz columns; an .h5's [N][3]);
                                 ///< a CSV takes anything but 3 as 2
    /* .h5 only from here on */
    double edges[3];             ///< the box's edge lengths, dimension of them
    int periodic;                ///< the box wraps (H5MD boundary "periodic", else "none")
    int rows;                    ///< boids (or ids) a frame's [N][dimension] holds: the most there can be
    int float32;                 ///< positions and velocities as float32, not float64
    const char *const *observables; ///< names of the values of every frame's observables
    int nobservables;            ///< 0 to MUR_TRACE_MAX_OBSERVABLES
    const char *scene_path;      ///< parameters/scene_path
    uint64_t scene_seed;         ///< parameters/scene_seed
    double tps;                  ///< parameters/ticks_per_second
    long first, last, every;     ///< parameters/first_last_every: the ticks recorded
    const char *provenance;      ///< parameters/provenance: the text that remakes the file
} mur_trace_meta;

/// One frame of state: n boids' positions and velocities (ids: their own
/// ids, a replay's, or NULL for 0..n-1), the observables' values (as many
/// as the metadata names) and the flock's counters a continuation needs.
typedef struct mur_trace_frame {
    long tick;                   ///< ticks from the first frame
    double time;                 ///< seconds, tick / ticks per second
    int n;
    const double *x, *y, *vx, *vy;
    const int *ids;              ///< NULL: boid i is row i; else each id in 0..rows-1 (.h5)
    const double *observables;   ///< nobservables values (NULL when there are none)
    uint64_t flock_tick;         ///< the flock's tick counter (mur_flock_tick)
    uint64_t stream[4];          ///< the flock's stream (mur_flock_stream)
    const double *z, *vz;        ///< a 3D world's third axis (dimension 3; NULL in 2D)
} mur_trace_frame;

typedef struct mur_trace_writer mur_trace_writer;

/// Create a trace file at tmp (the caller publishes it: murmur/file.h's
/// mur_atomic_*), final being the name messages give; a CSV begins with
/// MUR_TRACE_CSV_HEADER, an .h5 with its whole layout. 0, MUR_EINPUT for
/// metadata that does not describe a trace (version, format, dimension,
/// rows, observables), MUR_ERUN "cannot write 'FINAL': REASON".
MUR_API int mur_trace_writer_open(mur_trace_writer **out, const char *tmp, const char *final,
                                  const mur_trace_meta *m, mur_error *err);

/// A CSV goes on with another run (m's condition and run label the rows
/// from now on); an .h5 holds one run: MUR_EINPUT.
MUR_API int mur_trace_writer_run(mur_trace_writer *w, const mur_trace_meta *m, mur_error *err);

/// Append one frame. 0, MUR_EINPUT for an id outside 0..rows-1 (.h5),
/// MUR_ERUN "cannot write 'FINAL': REASON".
MUR_API int mur_trace_writer_frame(mur_trace_writer *w, const mur_trace_frame *f, mur_error *err);

/// Flush and close; a failed flush or write is MUR_ERUN (err may be NULL:
/// closing after a failure). Frees w either way; NULL is fine.
MUR_API int mur_trace_writer_close(mur_trace_writer *w, mur_error *err);

#ifdef __cplusplus
}
#endif

#endif
