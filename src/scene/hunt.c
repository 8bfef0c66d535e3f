/* Hunting predators: a predator with `pursue: nearest | centre | largest`
 * starts where its x and y expressions put it when it becomes active and
 * from then on moves itself, one step per tick at its own speed, turning
 * toward its prey (mur_flock_pursue_target) by at most its turning limit:
 * a hunter that overshoots has to come round, as a hawk does, which is what
 * splits a flock instead of parking in its middle. Its state is the
 * driver's (struct mur_driver.hunt, driver.h), so a render, a still or a part of a render
 * steps it tick for tick alike; the flock holds the position each tick
 * used (mur_flock_predators), which the renderer draws.
 *
 * In a 3D world a hunter flies by the same rules with z: it starts where
 * its x, y and z expressions put it (no z: half the depth, as a scripted
 * predator), heading for its prey (mur_flock_pursue_target3), and each tick
 * its heading turns toward the prey by at most its turning limit, in the
 * plane of the two directions (the great circle between them), then it
 * moves on at its speed, wrapped or mirrored along all three axes. */
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

/* A 3D hunter k starts at time t (start() with z); the state is x, y, vx,
 * vy in hunt[k][0..3] as in 2D, and z, vz in hunt[k][4..5]. */
static int start3(mur_driver *d, int k, double t)
{
    const mur_scene *s = d->scene;
    const mur_script_predator *pr = &s->predators[k];
    double vars[4] = {t, s->params.width, s->params.height, s->params.depth};
    double at[3] = {av_expr_eval(pr->x_eval, vars, NULL) + d->predator_shift[0],
                    av_expr_eval(pr->y_eval, vars, NULL) + d->predator_shift[1],
                    (pr->z_eval ? av_expr_eval(pr->z_eval, vars, NULL) : s->params.depth / 2) +
                        d->predator_shift[2]};
    for (int a = 0; a < 3; a++)
        if (!(fabs(at[a]) <= 1e12))
            return 0;   /* not a place yet: tried again next tick */
    double to[3] = {at[0] + 1, at[1], at[2]}, v = hunter_speed(d, pr);
    mur_flock_pursue_target3(d->flock, pr->pursue, at, to);
    double dx = to[0] - at[0], dy = to[1] - at[1], dz = to[2] - at[2], l = sqrt(dx * dx + dy * dy + dz * dz);
    double *h = d->hunt[k];
    h[0] = at[0];
    h[1] = at[1];
    h[4] = at[2];
    h[2] = l > 0 ? v * dx / l : v;
    h[3] = l > 0 ? v * dy / l : 0;
    h[5] = l > 0 ? v * dz / l : 0;
    return 1;
}

/* Hunter k starts at time t: where its expressions put it, heading for its prey. */
static int start(mur_driver *d, int k, double t)
{
    const mur_scene *s = d->scene;
    if (s->params.dimensions == 3)
        return start3(d, k, t);
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
                                        pr->burst, 1, s->params.dimensions == 3 ? d->hunt[k][4] : 0, k + 1};
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

/* keep_inside() with z: h is x, y, vx, vy, z, vz. */
static void keep_inside3(const mur_params *p, double *h)
{
    const double size[3] = {p->width, p->height, p->depth};
    const int pos[3] = {0, 1, 4}, vel[3] = {2, 3, 5};
    for (int a = 0; a < 3; a++) {
        double *x = &h[pos[a]], *v = &h[vel[a]];
        if (p->boundary == MUR_BOUNDARY_WRAP) {
            *x = fmod(fmod(*x, size[a]) + size[a], size[a]);
            continue;
        }
        if (*x < 0) {
            *x = -*x;
            *v = -*v;
        } else if (*x > size[a]) {
            *x = 2 * size[a] - *x;
            *v = -*v;
        }
        *x = fmin(fmax(*x, 0), size[a]);
    }
}

/* One tick of a 3D hunter (h: x, y, vx, vy, z, vz): its unit heading u
 * turns toward the unit direction w of its prey by at most `limit`
 * radians, along the great circle from u to w; straight away from it (w =
 * -u), it turns up or, heading straight up or down, toward +x. */
static void step3(double *h, const double to[3], int has_prey, double v, double limit)
{
    double vl = sqrt(h[2] * h[2] + h[3] * h[3] + h[5] * h[5]);
    double u[3] = {vl > 0 ? h[2] / vl : 1, vl > 0 ? h[3] / vl : 0, vl > 0 ? h[5] / vl : 0};
    double w[3] = {to[0] - h[0], to[1] - h[1], to[2] - h[4]};
    double wl = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    if (has_prey && wl > 0) {
        for (int a = 0; a < 3; a++)
            w[a] /= wl;
        double c = fmax(-1, fmin(1, u[0] * w[0] + u[1] * w[1] + u[2] * w[2])), angle = acos(c);
        if (angle <= limit) {
            for (int a = 0; a < 3; a++)
                u[a] = w[a];
        } else {
            double e[3] = {w[0] - c * u[0], w[1] - c * u[1], w[2] - c * u[2]};
            double el = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
            if (!(el > 1e-12)) {   /* straight away: turn up (or toward +x when flying along z) */
                double up[3] = {0, 0, 1};
                if (fabs(u[2]) > 0.9) {
                    up[0] = 1;
                    up[2] = 0;
                }
                double cu = u[0] * up[0] + u[1] * up[1] + u[2] * up[2];
                for (int a = 0; a < 3; a++)
                    e[a] = up[a] - cu * u[a];
                el = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
            }
            double cl = cos(limit), sl = sin(limit);
            for (int a = 0; a < 3; a++)
                u[a] = cl * u[a] + sl * e[a] / el;
        }
    }
    double ul = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    h[2] = v * u[0] / ul;
    h[3] = v * u[1] / ul;
    h[5] = v * u[2] / ul;
    h[0] += h[2];
    h[1] += h[3];
    h[4] += h[5];
}

int mur_hunt_step(mur_driver *d, mur_error *err)
{
    const mur_scene *s = d->scene;
    if (s->params.dimensions == 3) {
        for (int k = 0; k < s->npredators && k < MUR_MAX_PREDATORS; k++) {
            if (d->hunting[k] != 1)
                continue;
            const mur_script_predator *pr = &s->predators[k];
            double *h = d->hunt[k], at[3] = {h[0], h[1], h[4]}, to[3];
            int rc = mur_flock_pursue_target3(d->flock, pr->pursue, at, to);
            if (rc == MUR_ERUN)
                return mur_error_set(err, MUR_ERUN, "out of memory finding a hunter's prey");
            step3(h, to, rc == 0, hunter_speed(d, pr), pr->turn * MUR_PI / 180);
            keep_inside3(mur_flock_params(d->flock), h);
        }
        return MUR_OK;
    }
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
