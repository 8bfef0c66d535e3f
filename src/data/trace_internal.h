/* What the trace driver (trace.c) and its HDF5 writer (trace_h5.c) share:
 * the run being written and the writer's per-tick interface. */
#ifndef MURMUR_TRACE_INTERNAL_H
#define MURMUR_TRACE_INTERNAL_H

#include <stdint.h>

#include "murmur/flock.h"
#include "murmur/trace.h"

/* One run of a trace: its condition, index (-1: the scene's seed) and seed. */
typedef struct {
    const char *condition;
    int run;
    uint64_t seed;
    int index;               /* the condition's index, -1: the scene's own settings */
} trace_run;

typedef struct trace_h5 trace_h5;

/* Create the H5MD file tmp (the temporary name of final, which messages
 * name) for a flock created from base, with its metadata; values are
 * appended by trace_h5_tick. */
int trace_h5_open(trace_h5 **out, const char *tmp, const char *final, const mur_scene *s,
                  const mur_params *base, const mur_trace_opts *o, const trace_run *r,
                  mur_error *err);
int trace_h5_tick(trace_h5 *h, long tick, double time, const mur_flock *f, mur_error *err);
/* Flush and close; a failed flush is MUR_ERUN. Frees h either way (NULL is fine). */
int trace_h5_close(trace_h5 *h, mur_error *err);

#endif
