/* Hunting predators: a predator with `pursue: nearest | centre | largest`
 * starts where its x and y expressions put it when it becomes active and
 * from then on moves itself, one step per tick at its own speed, turning
 * toward its prey (mur_flock_pursue_target) by at most its turning limit:
 * a hunter that overshoots has to come round, as a hawk does, which is what
 * splits a flock instead of parking in its middle. Its state is the
 * driver's (struct mur_driver.hunt, driver.h), so a render, a still or a part of a render
 * steps it tick for tick alike; the flock holds the position each tick
 * used (mur_flock_predators), which the renderer draws. */
#include <libavutil/eval.h>
#include <math.h>

#include "hunt.h"

#ifndef MUR_PI
#define MUR_PI 3.14159265358979323846
#endif

/* Hunter speed when the scene gives none: faster than the flock, so it
 * closes, not so fast that it never has to turn. */
#define DEFAULT_SPEEDUP 1.25

static double hunter_speed(const mur_driver *d, const mur_script_predator *pr)
{
    return pr->speed > 0 ? pr->speed : DEFAULT_SPEEDUP * mur_flock_params(d->flock)->max_speed;
}

/* Hunter k starts at time t: where its expressions put it, heading for its prey. */
static int start(mur_driver *d, int k, double t)
{
    const mur_scene *s = d->scene;
    const mur_script_predator *pr = &s->predators[k];
    double vars[4] = {t, s->params.width, s->params.height, s->params.depth};
    double x = av_expr_eval(pr->x_eval, vars, NULL) + d->predator_shift[0];
    double y = av_expr_eval(pr->y_eval, vars, NULL) + d->predator_shift[1];
    if (!(fabs(x) <= 1e12) || !(fabs(y) <= 1e12))
        return 0;   /* not a place yet: tried again next tick */
    double tx = x + 1, ty = y, v = hunter_speed(d, pr);
    mur_flock_pursue_target(d->flock, pr->pursue, x, y, &tx, &ty);
    double dx = tx - x, dy = ty - y, l = hypot(dx, dy);
    d->hunt[k][0] = x;
    d->hunt[k][1] = y;
    d->hunt[k][2] = l > 0 ? v * dx / l : v;
    d->hunt[k][3] = l > 0 ? v * dy / l : 0;
    return 1;
}

int mur_hunt_predators(mur_driver *d, double t, mur_predator *pred, int np)
{
    const mur_scene *s = d->scene;
    for (int k = 0; k < s->npredators && k < MUR_MAX_PREDATORS; k++) {
        const mur_script_predator *pr = &s->predators[k];
        if (!pr->pursue)
            continue;
        int active = t >= pr->from && t < pr->until;
        if (!active) {
            d->hunting[k] = d->hunting[k] ? 2 : 0;   /* gone: its place is kept, it does not move */
            continue;
        }
        if (!d->hunting[k] && !start(d, k, t))
            continue;
        d->hunting[k] = 1;
        if (np < MUR_MAX_PREDATORS)
            pred[np++] = (mur_predator){d->hunt[k][0], d->hunt[k][1], pr->radius, pr->strength, pr->attract,
                                        pr->burst, 1, 0};
    }
    return np;
}

/* (x, y) and its velocity kept inside the world: wrapped, or mirrored at a wall. */
static void keep_inside(const mur_params *p, double *h)
{
    if (p->boundary == MUR_BOUNDARY_WRAP) {
        h[0] = fmod(fmod(h[0], p->width) + p->width, p->width);
        h[1] = fmod(fmod(h[1], p->height) + p->height, p->height);
        return;
    }
    const double size[2] = {p->width, p->height};
    for (int a = 0; a < 2; a++) {
        if (h[a] < 0) {
            h[a] = -h[a];
            h[2 + a] = -h[2 + a];
        } else if (h[a] > size[a]) {
            h[a] = 2 * size[a] - h[a];
            h[2 + a] = -h[2 + a];
        }
        h[a] = fmin(fmax(h[a], 0), size[a]);
    }
}

int mur_hunt_step(mur_driver *d, mur_error *err)
{
    const mur_scene *s = d->scene;
    for (int k = 0; k < s->npredators && k < MUR_MAX_PREDATORS; k++) {
        if (d->hunting[k] != 1)
            continue;
        const mur_script_predator *pr = &s->predators[k];
        double *h = d->hunt[k], tx, ty;
        int rc = mur_flock_pursue_target(d->flock, pr->pursue, h[0], h[1], &tx, &ty);
        if (rc == MUR_ERUN)
            return mur_error_set(err, MUR_ERUN, "out of memory finding a hunter's prey");
        double v = hunter_speed(d, pr), heading = atan2(h[3], h[2]);
        if (rc == 0 && (tx != h[0] || ty != h[1])) {
            /* turn toward the prey by at most the limit, the shorter way round */
            double want = atan2(ty - h[1], tx - h[0]), turn = remainder(want - heading, 2 * MUR_PI);
            double limit = pr->turn * MUR_PI / 180;
            heading += fmax(-limit, fmin(limit, turn));
        }
        h[2] = v * cos(heading);
        h[3] = v * sin(heading);
        h[0] += h[2];
        h[1] += h[3];
        keep_inside(mur_flock_params(d->flock), h);
    }
    return MUR_OK;
}
