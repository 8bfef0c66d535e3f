/* murmur: the whole public API in one include.
 *
 * libmurmur renders flocking simulations: scenes (scene.h) drive a flock
 * (flock.h, presets.h, rng.h) whose state is measured (metrics.h,
 * stats.h, experiment.h; twins and their divergence: twin.h,
 * divergence.h), drawn with Cairo as a look says (look.h, render.h,
 * plot.h) and encoded (video.h); a session (session.h) runs the whole loop
 * from a scene to frames, stills and videos.
 * Link with `murmur::murmur` (CMake) or `pkg-config --cflags --libs murmur`. */
#ifndef MURMUR_MURMUR_H
#define MURMUR_MURMUR_H

#include "murmur/version.h"
#include "murmur/limits.h"
#include "murmur/error.h"
#include "murmur/alloc.h"
#include "murmur/rng.h"
#include "murmur/family.h"
#include "murmur/flock.h"
#include "murmur/presets.h"
#include "murmur/metrics.h"
#include "murmur/stats.h"
#include "murmur/numfmt.h"
#include "murmur/recording.h"
#include "murmur/look.h"
#include "murmur/scene.h"
#include "murmur/divergence.h"
#include "murmur/twin.h"
#include "murmur/variant.h"
#include "murmur/experiment.h"
#include "murmur/shard.h"
#include "murmur/render.h"
#include "murmur/plot.h"
#include "murmur/figure_data.h"
#include "murmur/video.h"
#include "murmur/session.h"

#endif
