/* model: starling's escape and its copying, after StarDisplay (Hemelrijk,
 * van Zuidam and Hildenbrandt 2015, Behav Ecol Sociobiol 69:755; the
 * public source merovingiano/StarDisplay: bin/evasion.lua's Zig, Prey.cpp's
 * IncurNeighborPanic copying in CPrey::update, bin/wave.lua's measure).
 * docs/model.md "Escapes and waves" has every equation and value.
 *
 * A zig: a bird at its reaction with a predator within escape_radius (and
 * no zig under way) starts one at tick T0: for escape_away seconds its
 * steering force gains escape_force along its body side, the side away
 * from the predator, then for escape_back seconds the same force the other
 * way; it rolls away and back, as the flight banks toward a side force. It
 * can start another only escape_time seconds after T0 (StarDisplay's
 * t_handle, the rest of that time its refractory time); while a zig runs
 * the bird ignores the roost.
 * Copying: a bird with no zig under way looks, at its reaction, at its
 * copy_neighbours nearest neighbours, nearest first; the first whose zig
 * is in its force phases (StarDisplay's Detectable) and began at least
 * copy_latency seconds ago is copied: the bird starts the same zig, the
 * same way round.
 * The wave: the first zig a predator starts when no zig is under way opens
 * a wave (its bird the first, every bird's position recorded); each bird
 * that copies in it has its delay dt = (T - T0) dt_tick and its speed
 * 0.5 (D0 / dt + D1 / dt), D0 its distance from the first bird at T0, D1
 * at its copy (wave.lua's wv). */
#include "escape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flock_internal.h"
#include "murmur/alloc.h"
#include "kinds.h"
#include "vec3.h"

void mur_escape_free_(mur_flock *f)
{
    mur_escape *e = f->esc;
    if (!e)
        return;
    mur_free(e->onset), mur_free(e->onset_next);
    mur_free(e->dir), mur_free(e->dir_next);
    mur_free(e->copy), mur_free(e->copy_next);
    mur_free(e->p0), mur_free(e->delay), mur_free(e->speed);
    mur_free(e);
    f->esc = NULL;
}

static int grow(mur_escape *e, size_t n)
{
    if (n <= e->cap)
        return 0;
    size_t cap = e->cap ? e->cap : 64;
    while (cap < n)
        cap *= 2;
    struct {
        void **a;
        size_t size;
    } arr[] = {{(void **)&e->onset, sizeof(long long)}, {(void **)&e->onset_next, sizeof(long long)},
               {(void **)&e->dir, 1},                   {(void **)&e->dir_next, 1},
               {(void **)&e->copy, sizeof(int)},        {(void **)&e->copy_next, sizeof(int)},
               {(void **)&e->p0, 3 * sizeof(double)},   {(void **)&e->delay, sizeof(double)},
               {(void **)&e->speed, sizeof(double)}};
    for (size_t k = 0; k < sizeof arr / sizeof arr[0]; k++) {
        void *q = mur_realloc(*arr[k].a, cap * arr[k].size);
        if (!q)
            return -1;
        *arr[k].a = q;
    }
    e->cap = cap;
    return 0;
}

int mur_escape_sync_(mur_flock *f, int from)
{
    if (!(f->p.escape_radius > 0) || f->p.motion != MUR_MOTION_FLY) {
        mur_escape_free_(f);
        return 0;
    }
    if (!f->esc) {
        f->esc = mur_calloc(1, sizeof *f->esc);
        if (!f->esc)
            return -1;
        from = 0;
    }
    mur_escape *e = f->esc;
    if (from <= 0)
        e->t0 = -1, e->active = 0;
    if (grow(e, (size_t)(f->n > 0 ? f->n : 1)))
        return -1;
    for (int i = from < 0 ? 0 : from; i < f->n; i++) {
        e->onset[i] = e->onset_next[i] = -1;
        e->dir[i] = e->dir_next[i] = 1;
        e->copy[i] = e->copy_next[i] = 0;
        e->delay[i] = e->speed[i] = NAN;
        for (int c = 0; c < 3; c++)
            e->p0[3 * i + c] = 0;
    }
    return 0;
}

/* Whether a zig begun `since` seconds ago pushes (its two force phases). */
static int pushing(const mur_params *p, double since) { return since < p->escape_away + p->escape_back; }

/* The copy: the first of the nearest copy_neighbours whose zig pushes and
 * began copy_latency ago or more; its id, or -1. */
static int copied(const mur_flock *f, const int *ids, int m)
{
    const mur_params *p = &f->p;
    const mur_escape *e = f->esc;
    int n = m < p->copy_neighbours ? m : p->copy_neighbours;
    for (int a = 0; a < n; a++) {
        long long o = e->onset[ids[a]];
        double since = (double)((long long)f->tick - o) * p->dt;
        if (o >= 0 && pushing(p, since) && since >= p->copy_latency)
            return ids[a];
    }
    return -1;
}

/* The side away from the nearest predator within escape_radius: +1 or -1
 * along w; 0 when none is that near. */
static int away_from(const mur_flock *f, const double r[3], const double w[3])
{
    const mur_params *p = &f->p;
    double best = p->escape_radius * p->escape_radius;
    int side = 0;
    for (int k = 0; k < f->npred; k++) {
        const mur_predator *pr = &f->pred[k];
        if (pr->attract)
            continue;
        double at[3] = {pr->x, pr->y, pr->z}, d[3];
        mur_params_offset3(p, at, r, d);   /* r - predator: away */
        double d2 = mur_dot3_(d, d);
        if (d2 <= best) {
            best = d2;
            side = mur_dot3_(d, w) >= 0 ? 1 : -1;
        }
    }
    return side;
}

int mur_escape_react_(const mur_flock *f, int i, const double r[3], const double w[3], const int *ids, int m,
                      double F[3])
{
    const mur_params *p = &f->p;
    mur_escape *e = f->esc;
    const long long now = (long long)f->tick;
    long long o = e->onset[i];
    if (o >= 0 && (double)(now - o) * p->dt >= p->escape_time) {
        e->onset_next[i] = -1;   /* done: free from the next reaction on (StarDisplay's panicOnset = -1) */
        return 0;
    }
    if (o < 0) {
        int j = copied(f, ids, m), side = j < 0 ? away_from(f, r, w) : 0;
        if (j < 0 && side == 0)
            return 0;
        o = now;
        e->onset_next[i] = now;
        e->dir_next[i] = (signed char)(j < 0 ? side : e->dir[j]);
        e->copy_next[i] = j < 0 ? 0 : e->copy[j] + 1;
    }
    double since = (double)(now - o) * p->dt;
    double s = since < p->escape_away ? 1 : pushing(p, since) ? -1 : 0;
    s *= p->escape_force * e->dir_next[i];
    for (int c = 0; c < 3; c++)
        F[c] += s * w[c];
    return 1;
}

/* Opens a wave at bird i: its first, every bird's position now. */
static void open_wave(mur_flock *f, int i)
{
    mur_escape *e = f->esc;
    e->t0 = (long long)f->tick;
    e->first = i;
    e->active = 1;
    for (int k = 0; k < f->n; k++) {
        e->p0[3 * k] = f->x[k], e->p0[3 * k + 1] = f->y[k], e->p0[3 * k + 2] = f->z[k];
        e->delay[k] = e->speed[k] = NAN;
    }
    e->delay[i] = 0;
}

/* Bird i's copy in the open wave: its delay and wave.lua's wv. */
static void record_copy(mur_flock *f, int i)
{
    mur_escape *e = f->esc;
    const int a = e->first;
    double dt = (double)((long long)f->tick - e->t0) * f->p.dt, d0[3], d1[3];
    double now_a[3] = {f->x[a], f->y[a], f->z[a]}, now_i[3] = {f->x[i], f->y[i], f->z[i]};
    mur_params_offset3(&f->p, e->p0 + 3 * a, e->p0 + 3 * i, d0);
    mur_params_offset3(&f->p, now_a, now_i, d1);
    double D0 = sqrt(mur_dot3_(d0, d0)), D1 = sqrt(mur_dot3_(d1, d1));
    dt = fmax(dt, 1e-8);   /* wave.lua's */
    e->delay[i] = dt;
    e->speed[i] = 0.5 * (D0 / dt + D1 / dt);
}

void mur_escape_commit_(mur_flock *f)
{
    mur_escape *e = f->esc;
    if (!e)
        return;
    const long long now = (long long)f->tick;
    int under_way = 0;
    for (int i = 0; i < f->n; i++) {
        if (e->onset_next[i] == now && e->onset[i] != now) {
            if (e->copy_next[i] == 0 && !e->active)
                open_wave(f, i);
            else if (e->active && e->copy_next[i] > 0 && isnan(e->delay[i]))
                record_copy(f, i);
        }
        e->onset[i] = e->onset_next[i];
        e->dir[i] = e->dir_next[i];
        e->copy[i] = e->copy_next[i];
        under_way |= e->onset[i] >= 0;
    }
    e->active = e->active && under_way;
}

typedef struct {
    double delay, speed;
    int id;
} copy_rec;

static int by_delay(const void *a, const void *b)
{
    const copy_rec *x = a, *y = b;
    if (x->delay != y->delay)
        return x->delay < y->delay ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

static int by_speed(const void *a, const void *b)
{
    const copy_rec *x = a, *y = b;
    return (x->speed > y->speed) - (x->speed < y->speed);
}

void mur_escape_wave_(const mur_flock *f, double *speed, double *birds)
{
    *speed = *birds = NAN;
    const mur_escape *e = f->esc;
    if (!e || e->t0 < 0)
        return;
    copy_rec *r = mur_malloc((size_t)(f->n > 0 ? f->n : 1) * sizeof *r);
    if (!r)
        return;
    int n = 0;
    for (int i = 0; i < f->n; i++)
        if (i != e->first && !isnan(e->delay[i]))
            r[n++] = (copy_rec){e->delay[i], e->speed[i], i};
    *birds = n + 1;
    if (n > 0) {
        /* average_wave.lua: the later half, i = ceil(n / 2) .. n of the
         * copies by delay (1-based), then its median */
        qsort(r, (size_t)n, sizeof *r, by_delay);
        int lo = (n + 1) / 2 - 1, m = n - lo;
        qsort(r + lo, (size_t)m, sizeof *r, by_speed);
        *speed = m % 2 ? r[lo + m / 2].speed : 0.5 * (r[lo + m / 2 - 1].speed + r[lo + m / 2].speed);
    }
    mur_free(r);
}
