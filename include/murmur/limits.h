/* murmur: the limits of counts every part checks (the loader, the CLI's
 * options and their --help, the library's entry points, the shard and
 * trace files), named once so that no two checks can disagree. */
#ifndef MURMUR_LIMITS_H
#define MURMUR_LIMITS_H

/// Most runs per condition of an experiment (experiment.runs, --runs).
#define MUR_MAX_RUNS 100000

/// Most ticks of an experiment's run (experiment.ticks, --ticks).
#define MUR_MAX_RUN_TICKS 10000000

/// Frames per second of a video (video.fps, --fps): 1 to this.
#define MUR_MAX_FPS 240

/// The CRF-like quality (video.quality, --quality): 0 (best) to this, x264's range.
#define MUR_MAX_QUALITY 51

/// A limit as text, for messages and --help written as string literals.
#define MUR_STR_(x) #x
#define MUR_STR(x) MUR_STR_(x)

#endif
