/* What the trace writer (trace.c: CSV and the dispatch) and its HDF5
 * format (trace_h5.c) share. Neither knows a scene: they are handed
 * metadata and frames (murmur/trace_writer.h). */
#ifndef MURMUR_TRACE_INTERNAL_H
#define MURMUR_TRACE_INTERNAL_H

#include "murmur/trace_writer.h"

typedef struct trace_h5 trace_h5;

/* Create the H5MD file tmp (the temporary name of final, which messages
 * name) with m's metadata; frames are appended by mur_trace_h5_frame_. */
int mur_trace_h5_open_(trace_h5 **out, const char *tmp, const char *final, const mur_trace_meta *m,
                  mur_error *err);
int mur_trace_h5_frame_(trace_h5 *h, const mur_trace_frame *f, mur_error *err);
/* Flush and close; a failed flush is MUR_ERUN. Frees h either way (NULL is fine). */
int mur_trace_h5_close_(trace_h5 *h, mur_error *err);

#endif
