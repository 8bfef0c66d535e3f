/* The interaction kinds (docs/model.md "Model families"): what a boid makes
 * of its neighbours. Each is an `add` (one neighbour into the sums) and a
 * `finish` (the sums into an acceleration or a desired heading), and a
 * reach (how far metric neighbours count).
 *
 * reynolds (here only on the k set; the metric Reynolds family is
 * flock.c's): separation over the k set's boids closer than R_sep,
 * alignment and cohesion over the whole set, all inside the field of view;
 * then docs/model.md steps 2-3 exactly as flock.c combines them.
 *
 * vicsek (Vicsek et al. 1995, eq. 2): the new heading is the angle of the
 * summed headings of the neighbours and of the boid itself, plus dtheta
 * uniform in [-eta/2, eta/2] (eta = `noise`, draw 0 of the family's noise).
 *
 * couzin (Couzin et al. 2002): repulsion from every boid closer than r_r
 * (all round) overrides everything; else the orientation zone's headings
 * (the boid's own included) and the attraction zone's directions, each
 * seen inside the cone, give the desired heading; then it turns by an
 * angle drawn from N(0, sigma^2) (sigma = `noise`; Box-Muller from draws 0
 * and 1). Under topological neighbours the attraction zone has no outer
 * radius: the k set replaces r_a, as it replaces Reynolds' R_coh. */
#include "kinds.h"

#include <math.h>

static void unit2(double x, double y, double *ox, double *oy)
{
    double l = sqrt(x * x + y * y);
    if (l > 0) {
        *ox = x / l;
        *oy = y / l;
    } else {
        *ox = 0;
        *oy = 0;
    }
}

/* ---- reynolds ------------------------------------------------------------- */

enum { RULE_SEP = 1, RULE_ALI = 2, RULE_COH = 4 };

void mur_it_reynolds_add(const mur_it *it, sums *acc, const mur_nb *e)
{
    if (!e->seen)
        return;
    const mur_params *p = it->p;
    if ((it->used & RULE_SEP) && e->d < p->separation_radius) {
        /* flock.c's weighting: (|d| + e)^(1 + k) */
        double s = e->d + p->separation_softening;
        double wgt = p->separation_falloff == 0 ? s : p->separation_falloff == 1 ? s * s : s * s * s;
        acc->sx -= e->dx / wgt;
        acc->sy -= e->dy / wgt;
        acc->ns++;
    }
    if (it->used & RULE_ALI) {
        acc->ax += it->f->kvx[e->k];
        acc->ay += it->f->kvy[e->k];
        acc->na++;
    }
    if (it->used & RULE_COH) {
        acc->cx += e->dx;
        acc->cy += e->dy;
        acc->nc++;
    }
}

void mur_it_reynolds_finish(const mur_it *it, const sums *acc, double out[2])
{
    mur_flock_combine_(it->p, it->used, it->vxi, it->vyi, acc, &out[0], &out[1]);
}

double mur_it_reynolds_reach(const mur_params *p)
{
    return fmax(p->separation_radius, fmax(p->alignment_radius, p->cohesion_radius));
}

/* ---- vicsek --------------------------------------------------------------- */

void mur_it_vicsek_add(const mur_it *it, sums *acc, const mur_nb *e)
{
    if (!e->seen)
        return;
    double ux, uy;
    unit2(it->f->kvx[e->k], it->f->kvy[e->k], &ux, &uy);   /* (cos theta_j, sin theta_j) */
    acc->ax += ux;
    acc->ay += uy;
    acc->na++;
}

void mur_it_vicsek_finish(const mur_it *it, const sums *acc, double out[2])
{
    double ux, uy;
    unit2(it->vxi, it->vyi, &ux, &uy);   /* the boid itself */
    double th = atan2(acc->ay + uy, acc->ax + ux);
    double u = mur_noise_u01(it->f->seed, it->f->tick, (uint64_t)it->i, 0);
    th += (u - 0.5) * it->p->noise;
    out[0] = cos(th);
    out[1] = sin(th);
}

double mur_it_vicsek_reach(const mur_params *p) { return p->alignment_radius; }

/* ---- couzin --------------------------------------------------------------- */

void mur_it_couzin_add(const mur_it *it, sums *acc, const mur_nb *e)
{
    double ux = e->dx / e->d, uy = e->dy / e->d;   /* unit(d_ij), |d| > 0 */
    if (e->d < it->rr) {
        acc->sx -= ux;
        acc->sy -= uy;
        acc->ns++;
        return;
    }
    if (!e->seen)
        return;
    if (e->d < it->ro) {
        double vx, vy;
        unit2(it->f->kvx[e->k], it->f->kvy[e->k], &vx, &vy);
        acc->ax += vx;
        acc->ay += vy;
        acc->na++;
    } else if (it->topological || e->d < it->ra) {
        acc->cx += ux;
        acc->cy += uy;
        acc->nc++;
    }
}

/* The desired heading before noise; (0, 0) when the boid has none. */
static void couzin_desire(const mur_it *it, const sums *acc, double *dx, double *dy)
{
    double hx, hy;
    unit2(it->vxi, it->vyi, &hx, &hy);
    if (acc->ns) {
        unit2(acc->sx, acc->sy, dx, dy);
    } else if (acc->na || acc->nc) {
        double ox = 0, oy = 0, ax = 0, ay = 0;
        if (acc->na)
            unit2(hx + acc->ax, hy + acc->ay, &ox, &oy);
        if (acc->nc)
            unit2(acc->cx, acc->cy, &ax, &ay);
        if (acc->na && acc->nc)
            unit2(ox + ax, oy + ay, dx, dy);
        else
            *dx = ox + ax, *dy = oy + ay;   /* the one zone that holds boids */
    } else {
        *dx = 0;
        *dy = 0;
    }
    if (*dx == 0 && *dy == 0) {
        *dx = hx;   /* no boid, or sums that cancel: the current heading */
        *dy = hy;
    }
}

void mur_it_couzin_finish(const mur_it *it, const sums *acc, double out[2])
{
    double dx, dy;
    couzin_desire(it, acc, &dx, &dy);
    double sigma = it->p->noise;
    if (sigma > 0) {
        double u0 = mur_noise_u01(it->f->seed, it->f->tick, (uint64_t)it->i, 0);
        double u1 = mur_noise_u01(it->f->seed, it->f->tick, (uint64_t)it->i, 1);
        double g = sqrt(-2 * log(1 - u0)) * cos(2 * MUR_PI * u1);   /* N(0, 1), Box-Muller */
        double a = sigma * g, c = cos(a), s = sin(a);
        double rx = dx * c - dy * s, ry = dx * s + dy * c;
        dx = rx;
        dy = ry;
    }
    out[0] = dx;
    out[1] = dy;
}

double mur_it_couzin_reach(const mur_params *p)
{
    return p->separation_radius + p->orientation_width + p->attraction_width;
}
