/* The interaction kinds (docs/model.md "Model families" and "Three
 * dimensions"), written once in interaction_d.h and compiled here for the
 * plane (D 2) and the box (D 3): what a boid makes of its neighbours. Each
 * is an `add` (one neighbour into the sums) and a `finish` (the sums into
 * an acceleration or a desired heading), and a reach (how far metric
 * neighbours count). What differs between the worlds is how a noise turns
 * a heading, below:
 *
 * vicsek (Vicsek et al. 1995, eq. 2): in the plane the new heading is the
 * angle of the summed headings plus dtheta uniform in [-eta/2, eta/2]
 * (eta = `noise`, draw 0 of the family's noise); in the box the unit mean
 * turned to a direction uniform on the spherical cap of half-angle eta / 2
 * around it (draws 0 and 1), a mean that cancels keeping the boid's
 * heading.
 *
 * couzin (Couzin et al. 2002): the desired heading turned by an angle
 * drawn from N(0, sigma^2) (sigma = `noise`; Box-Muller from draws 0 and
 * 1), in the box about an axis normal to it at an azimuth drawn uniform
 * (draw 2). */
#include "kinds.h"
#include "lanes.h"
#include "vec3.h"

#include <math.h>

/* N(0, 1) from draws 0 and 1 of boid i (Box-Muller). */
static double gauss(const mur_flock *f, int i)
{
    double u0 = mur_noise_u01(f->seed, f->tick, (uint64_t)i, 0);
    double u1 = mur_noise_u01(f->seed, f->tick, (uint64_t)i, 1);
    return sqrt(-2 * log(1 - u0)) * cos(2 * MUR_PI * u1);
}

static void vicsek_turn2(const mur_it2 *it, const double m[2], const double own[2], double out[2])
{
    (void)own;
    double th = atan2(m[1], m[0]);
    double u = mur_noise_u01(it->f->seed, it->f->tick, (uint64_t)it->i, 0);
    th += (u - 0.5) * it->p->noise;
    out[0] = cos(th);
    out[1] = sin(th);
}

static void vicsek_turn3(const mur_it3 *it, const double m[3], const double own[3], double out[3])
{
    double mean[3];
    if (!(mur_unit_(m, mean, 3) > 0)) {
        for (int c = 0; c < 3; c++)
            mean[c] = own[c];
        if (!(it->vlen > 0))
            mean[0] = 1;   /* at rest and alone: +x, as atan2(0, 0) = 0 is in 2D */
    }
    const mur_flock *f = it->f;
    double u0 = mur_noise_u01(f->seed, f->tick, (uint64_t)it->i, 0);
    double u1 = mur_noise_u01(f->seed, f->tick, (uint64_t)it->i, 1);
    mur_v3_cap(mean, it->p->noise / 2, u0, u1, out);
}

static void couzin_turn2(const mur_it2 *it, const double d[2], double out[2])
{
    double a = it->p->noise * gauss(it->f, it->i), c = cos(a), s = sin(a);
    out[0] = d[0] * c - d[1] * s;
    out[1] = d[0] * s + d[1] * c;
}

static void couzin_turn3(const mur_it3 *it, const double d[3], double out[3])
{
    if (d[0] == 0 && d[1] == 0 && d[2] == 0) {
        for (int c = 0; c < 3; c++)
            out[c] = d[c];
        return;
    }
    const mur_flock *f = it->f;
    double a = it->p->noise * gauss(f, it->i);
    double phi = 2 * MUR_PI * mur_noise_u01(f->seed, f->tick, (uint64_t)it->i, 2), e1[3], e2[3];
    mur_v3_frame(d, e1, e2);
    /* about the axis cos(phi) e1 + sin(phi) e2, normal to d: d turns
     * toward the normal -sin(phi) e1 + cos(phi) e2 (axis x d) */
    for (int c = 0; c < 3; c++) {
        double n = -sin(phi) * e1[c] + cos(phi) * e2[c];
        out[c] = cos(a) * d[c] + sin(a) * n;
    }
}

#define D 2
#include "interaction_d.h"
#undef D
#define D 3
#include "interaction_d.h"
#undef D

double mur_it_reynolds_reach(const mur_params *p)
{
    return fmax(p->separation_radius, fmax(p->alignment_radius, p->cohesion_radius));
}

double mur_it_vicsek_reach(const mur_params *p) { return p->alignment_radius; }

double mur_it_couzin_reach(const mur_params *p)
{
    return p->separation_radius + p->orientation_width + p->attraction_width;
}
