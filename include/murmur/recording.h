/* murmur: recorded flocks (docs/data.md "Recorded flocks in"): the frames of
 * a replay or the saved state a flock starts from, read by the scene loader
 * (flock.replay, flock.start, a condition's replay) and held by the scene.
 * The type is opaque; its readers are private to the data room. */
#ifndef MURMUR_RECORDING_H
#define MURMUR_RECORDING_H

#include "murmur/export.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A recorded flock, opaque.
typedef struct mur_recording mur_recording;

/// What a recorded flock holds, for `murmur check` and host programs.
typedef struct mur_recording_info {
    const char *path;            ///< the file, as the scene's folder and its key make it
    long frames;                 ///< frames (replay) or 1 (a saved state)
    long first_tick, last_tick;  ///< the ticks of the first and last frame
    int max_boids;               ///< the most boids of a frame
    int max_id;                  ///< the largest id of a boid
    int has_state;               ///< a saved state with the flock's tick counter and stream
    uint64_t flock_tick;         ///< that tick counter
} mur_recording_info;

/// Describe r (a scene's replay or start).
MUR_API void mur_recording_describe(const mur_recording *r, mur_recording_info *out);

#ifdef __cplusplus
}
#endif

#endif
