/* A progress bar for long work: done/total, rate, ETA and a caller's extra
 * text (a render's output size), on stderr when it is a terminal; silent
 * otherwise or when quiet. */
#ifndef MURMUR_PROGRESS_H
#define MURMUR_PROGRESS_H

#include <stdint.h>

typedef struct mur_progress {
    const char *unit;     /* "frames", "runs", ... */
    long total;
    int enabled;
    double start, last;   /* monotonic seconds */
    char extra[64];       /* the last extra text, kept for the final line */
} mur_progress;

/// Start a bar for total units; enabled only on a terminal and when !quiet.
void mur_progress_start(mur_progress *p, const char *unit, long total, int quiet);

/// Report done units (redraws at most 10 times a second). extra: short text or NULL.
void mur_progress_update(mur_progress *p, long done, const char *extra);

/// Finish the line.
void mur_progress_end(mur_progress *p, long done);

/// Monotonic clock in seconds.
double mur_now(void);

#endif
