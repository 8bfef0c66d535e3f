/* The motion kinds (docs/model.md "Model families", Motion kinds), written
 * once in motion_d.h and compiled here for the plane (D 2) and the box
 * (D 3): how a boid moves given its interaction's result, an acceleration
 * a (reynolds) or a desired unit heading d (vicsek, couzin). Where a kind
 * needs the other form: the heading of an acceleration is unit(v + a) (the
 * way the boid would fly), and the acceleration toward a heading is
 * Reynolds' steering, max_speed d - v clamped to max_force. What differs
 * between the worlds is the reynolds noise kick's direction, below. */
#include "kinds.h"
#include "lanes.h"
#include "vec3.h"

#include <math.h>

/* The plane's kick: an angle uniform in [0, 2 pi) (the noise hash). */
static void kick_dir2(const mur_flock *f, int i, double u[2])
{
    double a = 2 * MUR_PI * mur_flock_noise_u01_(f, i);
    u[0] = cos(a);
    u[1] = sin(a);
}

/* The box's: uniform on the sphere (draws 0 and 1 of the family's noise). */
static void kick_dir3(const mur_flock *f, int i, double u[3])
{
    mur_v3_sphere(mur_noise_u01(f->seed, f->tick, (uint64_t)i, 0),
                  mur_noise_u01(f->seed, f->tick, (uint64_t)i, 1), u);
}

#define D 2
#include "motion_d.h"
#undef D
#define D 3
#include "motion_d.h"
#undef D
