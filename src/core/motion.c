/* The motion kinds (docs/model.md "Model families", Motion kinds): how a
 * boid moves given its interaction's result, an acceleration a (reynolds)
 * or a desired unit heading d (vicsek, couzin). Where a kind needs the
 * other form: the heading of an acceleration is unit(v + a) (the way the
 * boid would fly), and the acceleration toward a heading is Reynolds'
 * steering, max_speed d - v clamped to max_force.
 *
 * steer: docs/model.md steps 4-7 (predators, the avoid band, the speed
 *   rule, the move); the noise kick only for reynolds, whose noise it is.
 * turn: constant speed max_speed; the heading turns toward d by at most
 *   turn_rate x dt (degrees), then x += v (Couzin 2002: x += s dt unit(v),
 *   max_speed being s dt).
 * set: x += v of the start of the tick (Vicsek 1995 eq. 1), then the
 *   heading becomes d, speed max_speed.
 * A desired heading of 0 keeps the current one. Predators and the avoid
 * band act through steer only. */
#include "kinds.h"
#include "vec3.h"

#include <math.h>

/* The desired unit heading of boid i from the result (ox, oy). */
static void heading_of(const mur_flock *f, int i, double ox, double oy, int accel, double *dx,
                       double *dy)
{
    double x = accel ? f->vx[i] + ox : ox, y = accel ? f->vy[i] + oy : oy;
    double l = sqrt(x * x + y * y);
    if (l > 0) {
        *dx = x / l;
        *dy = y / l;
    } else {
        *dx = *dy = 0;
    }
}

void mur_move_steer(mur_flock *f, int i, double ox, double oy, int accel)
{
    if (accel) {
        mur_flock_integrate_(f, i, ox, oy, 1);
        return;
    }
    const mur_params *p = &f->p;
    double ax = 0, ay = 0;
    if (ox != 0 || oy != 0) {
        ax = p->max_speed * ox - f->vx[i];
        ay = p->max_speed * oy - f->vy[i];
        double l2 = ax * ax + ay * ay;
        if (p->max_force > 0 && l2 > p->max_force * p->max_force) {
            double s = p->max_force / sqrt(l2);
            ax *= s;
            ay *= s;
        }
    }
    mur_flock_integrate_(f, i, ax, ay, 0);
}

void mur_move_turn(mur_flock *f, int i, double ox, double oy, int accel)
{
    const mur_params *p = &f->p;
    double dx, dy, hx, hy;
    heading_of(f, i, ox, oy, accel, &dx, &dy);
    heading_of(f, i, 0, 0, 1, &hx, &hy);   /* unit(v) */
    if (hx == 0 && hy == 0) {
        hx = dx;   /* at rest: no heading to turn from */
        hy = dy;
    } else if (dx != 0 || dy != 0) {
        /* the turn of 3D (vec3.c), whose arithmetic on level vectors is
         * the plane's rotation: one turn for both */
        const double h[3] = {hx, hy, 0}, d[3] = {dx, dy, 0};
        double t[3];
        mur_v3_turn(h, d, p->turn_rate * p->dt * MUR_PI / 180, t);
        hx = t[0];
        hy = t[1];
    }
    double vx = p->max_speed * hx, vy = p->max_speed * hy;
    mur_flock_place_(f, i, f->x[i] + vx, f->y[i] + vy, vx, vy);
}

void mur_move_set(mur_flock *f, int i, double ox, double oy, int accel)
{
    const mur_params *p = &f->p;
    double dx, dy;
    heading_of(f, i, ox, oy, accel, &dx, &dy);
    double x = f->x[i] + f->vx[i], y = f->y[i] + f->vy[i];
    double vx = f->vx[i], vy = f->vy[i];
    if (dx != 0 || dy != 0) {
        vx = p->max_speed * dx;
        vy = p->max_speed * dy;
    }
    mur_flock_place_(f, i, x, y, vx, vy);
}
