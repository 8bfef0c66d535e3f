/* model: starling's escape and its copying (escape.c; docs/model.md
 * "Escapes and waves"): StarDisplay's Zig, its IncurNeighborPanic copying,
 * and the wave its copies make, measured as its wave.lua does. Private to
 * src/core. */
#ifndef MURMUR_CORE_ESCAPE_H
#define MURMUR_CORE_ESCAPE_H

#include <stddef.h>

struct mur_flock;

/* Each bird's escape, by id: *onset the tick its zig started (-1: none),
 * *dir the sign of its side force while away (+1 along its body side),
 * *copy how many copies from a zig the predator started (0: it saw the
 * predator). A tick's reactions read the committed arrays and write the
 * _next ones (their own bird's only); mur_escape_commit_ makes them the
 * committed ones, so a bird sees its neighbours' zigs of earlier ticks on
 * any thread count. The wave: t0 the tick its first zig started (-1:
 * none), first that bird, p0 every bird's position then (3 a bird),
 * delay and speed each bird's seconds to its copy and its wave speed
 * (NaN: it did not copy in this wave). */
typedef struct mur_escape {
    long long *onset, *onset_next;
    signed char *dir, *dir_next;
    int *copy, *copy_next;
    double *p0, *delay, *speed;
    long long t0;
    int first, active;
    size_t cap;
} mur_escape;

/* The escape's state for f's birds before a tick: made when escape_radius
 * turns it on (birds from `from` on idle), freed when it turns off; -1
 * without memory. */
int mur_escape_sync_(struct mur_flock *f, int from);
void mur_escape_free_(struct mur_flock *f);

/* Bird i's escape at its reaction, at r with body side w: ends a zig past
 * escape_time, copies a zig of one of its nearest neighbours (ids, m of
 * them, nearest first) or starts one for a predator within escape_radius,
 * and adds the zig's side force to F. Returns 1 while the bird escapes (it
 * then ignores the roost, as StarDisplay's panicking prey do). */
int mur_escape_react_(const struct mur_flock *f, int i, const double r[3], const double w[3], const int *ids,
                      int m, double F[3]);

/* After a tick's reactions, before the birds move (serially): the zigs
 * started this tick into the wave, then the _next arrays committed. */
void mur_escape_commit_(struct mur_flock *f);

/* The last wave's speed (m/s; the median over the later half of its
 * copies, by delay) and its birds (the first and the copies): NaN without
 * a wave. */
void mur_escape_wave_(const struct mur_flock *f, double *speed, double *birds);

#endif
