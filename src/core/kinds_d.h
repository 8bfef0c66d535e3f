/* kinds.h's part for D components, included by it with D 2 and with D 3
 * (dim.h's DN: mur_it2_couzin_add, then mur_it3_couzin_add): the kinds
 * written once in interaction_d.h and motion_d.h. */
#ifndef D
#error "kinds_d.h wants D (2 or 3)"
#endif

/* reynolds' one neighbour into the sums (DN(mur_it, _reynolds_add)), inline
 * for the metric scans' loops over their filtered candidates. Metric
 * neighbours count for a rule inside its own radius; the k set counts
 * whole for alignment and cohesion, and inside R_sep for separation
 * (docs/model.md, Neighbours). */
static inline void DN(mur_reynolds_add, _)(const DN(mur_it, ) *it, DN(sums, ) *acc,
                                           const DN(mur_nb, ) *e)
{
    if (!e->seen)
        return;
    const mur_params *p = it->p;
    const mur_flock *f = it->f;
    if ((it->used & 1) && e->dist < p->separation_radius) {
        /* (|d| + e)^(1 + k), flock.c's weighting */
        double s = e->dist + p->separation_softening;
        double wgt = p->separation_falloff == 0 ? s : p->separation_falloff == 1 ? s * s : s * s * s;
        for (int c = 0; c < D; c++)
            acc->s[c] -= e->d[c] / wgt;
        acc->ns++;
    }
    if ((it->used & 2) && (it->topological || e->dist < p->alignment_radius)) {
        const double *const kv[D] = D_AXES(f->kvx, f->kvy, f->kvz);
        for (int c = 0; c < D; c++)
            acc->a[c] += kv[c][e->k];
        acc->na++;
    }
    if ((it->used & 4) && (it->topological || e->dist < p->cohesion_radius)) {
        for (int c = 0; c < D; c++)
            acc->c[c] += e->d[c];
        acc->nc++;
    }
}

/* interaction.c (interaction_d.h) */
void DN(mur_it, _reynolds_add)(const DN(mur_it, ) *it, DN(sums, ) *acc, const DN(mur_nb, ) *e);
void DN(mur_it, _reynolds_finish)(const DN(mur_it, ) *it, const DN(sums, ) *acc, double out[D]);
void DN(mur_it, _vicsek_add)(const DN(mur_it, ) *it, DN(sums, ) *acc, const DN(mur_nb, ) *e);
void DN(mur_it, _vicsek_finish)(const DN(mur_it, ) *it, const DN(sums, ) *acc, double out[D]);
void DN(mur_it, _couzin_add)(const DN(mur_it, ) *it, DN(sums, ) *acc, const DN(mur_nb, ) *e);
void DN(mur_it, _couzin_finish)(const DN(mur_it, ) *it, const DN(sums, ) *acc, double out[D]);

/* motion.c (motion_d.h) */
void DN(mur_move, _steer)(mur_flock *f, int i, const double o[D], int accel);
void DN(mur_move, _turn)(mur_flock *f, int i, const double o[D], int accel);
void DN(mur_move, _set)(mur_flock *f, int i, const double o[D], int accel);
/* steer of accelerations (acc: x, y a boid; accz the z of each in 3D) for
 * boids [begin, end): four at a time on a vector unit where it can (AVX2
 * and up, f->simd; no predator, no noise, wrap or open), the same bits */
void DN(mur_move, _steer_range)(mur_flock *f, int begin, int end, const double *acc,
                                const double *accz);
/* docs/model.md steps 4-7 for boid i given its acceleration a: predators,
 * the avoid band, the noise kick when `kick`, the speed rule, the move and
 * the boundary */
void DN(mur_integrate, _)(mur_flock *f, int i, double a[D], int kick);
/* boid i to r with velocity v, then the boundary along each axis */
void DN(mur_place, _)(mur_flock *f, int i, double r[D], double v[D]);
