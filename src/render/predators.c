/* A predator's own look and its trail (docs/scenes.md `predators[].size`,
 * `color`, `trail`; issue #45), the one place both worlds ask: the plane's
 * markers (overlays.c) and a 3D world's falcons (frame3d.c) take their
 * size and colour from mur_predator_look_of, and draw the same trail,
 * kept here.
 *
 * A trail is what the predator did, not where a path says it was: a
 * hunter moves itself, and a scripted one may be shifted (a twin) or
 * hidden for a tick (an expression out of range). So each panel keeps,
 * per tag, a ring of the positions the flock's predators had at every
 * observed tick, sized once when the renderer is made (trail seconds x
 * ticks per second), never grown in a frame. A still at T sees the trail
 * of frame T of a render, since both observe the same ticks. */
#include "internal.h"
#include "murmur/alloc.h"

#include <math.h>

/* The most positions one trail keeps (60 s at 1000 ticks a second); a
 * longer trail at a higher rate keeps its newest this many. */
#define TRAIL_MAX_POINTS 60000

const mur_predator_look *mur_predator_look_of(const mur_look *lk, const mur_predator *p)
{
    if (lk->version < 4 || !lk->predator_looks || p->tag < 1 || p->tag > lk->npredator_looks)
        return NULL;
    return &lk->predator_looks[p->tag - 1];
}

int mur_pred_trails_init(mur_panel_state *ps, const mur_look *lk)
{
    int n = lk->version >= 4 && lk->predator_looks ? lk->npredator_looks : 0;
    if (n > MUR_MAX_PREDATORS)
        n = MUR_MAX_PREDATORS;
    for (int k = 0; k < n; k++) {
        double want = ceil(lk->predator_looks[k].trail * lk->tps) + 1;
        if (!(lk->predator_looks[k].trail > 0))
            continue;
        int cap = want < TRAIL_MAX_POINTS ? (int)want : TRAIL_MAX_POINTS;
        if (!(ps->ptrail[k].at = mur_malloc((size_t)cap * sizeof *ps->ptrail[k].at)))
            return -1;
        ps->ptrail[k].cap = cap;
    }
    return 0;
}

void mur_pred_trails_free(mur_panel_state *ps)
{
    for (int k = 0; k < MUR_MAX_PREDATORS; k++) {
        mur_free(ps->ptrail[k].at);
        ps->ptrail[k] = (mur_pred_trail){0};
    }
}

void mur_pred_trails_observe(mur_panel_state *ps, const mur_flock *f, long tick)
{
    int np = 0;
    const mur_predator *pr = mur_flock_predators(f, &np);
    for (int k = 0; k < np; k++) {
        int t = pr[k].tag - 1;
        if (t < 0 || t >= MUR_MAX_PREDATORS || !ps->ptrail[t].cap)
            continue;
        mur_pred_trail *tr = &ps->ptrail[t];
        if (tr->n && tick <= (long)tr->at[(tr->head + tr->n - 1) % tr->cap][0])
            tr->n = 0;   /* ticks went back (a seek, a reset of the run): start again */
        double *q = tr->at[(tr->head + tr->n) % tr->cap];
        q[0] = (double)tick, q[1] = pr[k].x, q[2] = pr[k].y, q[3] = pr[k].z;
        if (tr->n < tr->cap)
            tr->n++;
        else
            tr->head = (tr->head + 1) % tr->cap;
    }
}

void mur_trail_strip_add(mur_trail_strip *s, double x0, double y0, double x1, double y1, double age,
                         void (*source)(void *arg, double fade), void *arg)
{
    int bin = (int)fmin(fmax(age * MUR_TRAIL_BINS, 0), MUR_TRAIL_BINS - 1);
    if (!s->open || bin != s->bin || x0 != s->x || y0 != s->y) {
        mur_trail_strip_end(s);
        source(arg, 1 - (bin + 0.5) / MUR_TRAIL_BINS);
        cairo_move_to(s->cr, x0, y0);
        s->bin = bin;
        s->open = 1;
    }
    cairo_line_to(s->cr, x1, y1);
    s->x = x1;
    s->y = y1;
}

void mur_trail_strip_end(mur_trail_strip *s)
{
    if (s->open)
        cairo_stroke(s->cr);
    s->open = 0;
}

int mur_pred_trail_each(const mur_panel_state *ps, const mur_look *lk, const mur_predator *p, double t,
                        void (*fn)(void *arg, const double a[3], const double b[3], double age), void *arg)
{
    const mur_predator_look *pl = mur_predator_look_of(lk, p);
    if (!pl || !(pl->trail > 0) || !ps->ptrail[p->tag - 1].cap)
        return 0;
    const mur_pred_trail *tr = &ps->ptrail[p->tag - 1];
    double now = t * lk->tps, span = pl->trail * lk->tps;
    int drawn = 0;
    for (int i = 1; i < tr->n; i++) {
        const double *a = tr->at[(tr->head + i - 1) % tr->cap], *b = tr->at[(tr->head + i) % tr->cap];
        if (b[0] > now + 0.5 || now - a[0] > span || b[0] - a[0] > 1.5)   /* later, too old, or a gap */
            continue;
        fn(arg, a + 1, b + 1, fmax(0, (now - b[0]) / span));
        drawn++;
    }
    return drawn;
}
