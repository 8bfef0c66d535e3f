/* The model family: the one table of kinds, and the tick of every family
 * other than Reynolds' (family.h says how a tick goes). */
#include "murmur/family.h"
#include "kinds.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "murmur/alloc.h"
#include "murmur/presets.h"
#include <stdlib.h>

/* A row: the documented kind, then what does it (the fields of its axis;
 * the others NULL). */
typedef struct {
    mur_kind kind;
    mur_nb_each each;       /* neighbours: every neighbour of a boid */
    mur_nb_cell cell;       /* neighbours: the grid's cell size */
    mur_it_add add;         /* interaction: one neighbour into the sums */
    mur_it_finish finish;   /* interaction: the sums into the result */
    mur_it_reach reach;     /* interaction: how far metric neighbours count */
    int accel;              /* interaction: its result is an acceleration (else a heading) */
    mur_move move;          /* motion: a boid moved with the result */
    /* the same in three dimensions (kinds.h) */
    mur_nb3_each each3;
    mur_it3_add add3;
    mur_it3_finish finish3;
    mur_move3 move3;
} row;

/* Keys and defaults of a kind: its settings of the settings table
 * (presets.c, whose rows name the kind), the defaults every other preset
 * carries (family.h's MUR_FAMILY_DEFAULTS). */
static const row rows[] = {
    {{"neighbours", "metric", MUR_NEIGHBOURS_METRIC, {NULL}, {0},
      "a radius per rule (or the interaction's zones), inside the field of view", "", {{NULL}}},
     mur_nb_metric, mur_nb_metric_cell, NULL, NULL, NULL, 0, NULL,
     mur_nb3_metric, NULL, NULL, NULL},
    {{"neighbours", "topological", MUR_NEIGHBOURS_TOPOLOGICAL,
      {"topological_k", "topological_radius", NULL}, {MUR_DEFAULT_K, MUR_MAX_WORLD, 0},
      "the k nearest (ties to the lower index), optionally within a radius; the field of view "
      "filters after choosing",
      "Ballerini et al. 2008, PNAS 105:1232", {{NULL}}},
     mur_nb_topological, mur_nb_topological_cell, NULL, NULL, NULL, 0, NULL,
     mur_nb3_topological, NULL, NULL, NULL},
    {{"neighbours", "adaptive", MUR_NEIGHBOURS_ADAPTIVE, {NULL}, {0},
      "those within a search radius of each bird's own, which grows or shrinks at each reaction "
      "toward topological_range neighbours (model: starling; 3D only)",
      "Hildenbrandt et al. 2010, Behav. Ecol. 21:1349", {{NULL}}},
     NULL, NULL, NULL, NULL, NULL, 0, NULL,
     mur_nb3_adaptive, NULL, NULL, NULL},
    {{"interaction", "reynolds", MUR_INTERACTION_REYNOLDS, {NULL}, {0},
      "separation, alignment and cohesion combined into an acceleration", "Reynolds 1987",
      {{"sep", "separation"}, {"ali", "alignment"}, {"coh", "cohesion"}}},
     NULL, NULL, mur_it2_reynolds_add, mur_it2_reynolds_finish, mur_it_reynolds_reach, 1, NULL,
     NULL, mur_it3_reynolds_add, mur_it3_reynolds_finish, NULL},
    {{"interaction", "vicsek", MUR_INTERACTION_VICSEK, {NULL}, {0},
      "the mean heading of the neighbours and the boid itself, plus uniform noise in "
      "[-eta/2, eta/2]",
      "Vicsek et al. 1995, Phys. Rev. Lett. 75:1226",
      {{"eta", "noise"}, {"r", "alignment_radius"}}},
     NULL, NULL, mur_it2_vicsek_add, mur_it2_vicsek_finish, mur_it_vicsek_reach, 0, NULL,
     NULL, mur_it3_vicsek_add, mur_it3_vicsek_finish, NULL},
    {{"interaction", "couzin", MUR_INTERACTION_COUZIN,
      {"orientation_width", "attraction_width", NULL},
      {MUR_DEFAULT_ORIENTATION_WIDTH, MUR_DEFAULT_ATTRACTION_WIDTH, 0},
      "zones of repulsion, orientation and attraction; normal angular noise sigma",
      "Couzin et al. 2002, J. theor. Biol. 218:1",
      /* each zone's depth: r_r, r_o - r_r, r_a - r_o */
      {{"repulsion", "separation_radius"}, {"orientation", "orientation_width"},
       {"attraction", "attraction_width"}}},
     NULL, NULL, mur_it2_couzin_add, mur_it2_couzin_finish, mur_it_couzin_reach, 0, NULL,
     NULL, mur_it3_couzin_add, mur_it3_couzin_finish, NULL},
    {{"interaction", "starling", MUR_INTERACTION_STARLING, {NULL}, {0},
      "StarDisplay's steering: separation, alignment and cohesion with circularity in the head "
      "frame, a roost and a preferred height, held between reactions (model: starling; 3D only)",
      "Hemelrijk and Hildenbrandt 2011, PLoS ONE 6:e22479",
      {{"sep", "separation_weight"}, {"ali", "alignment_weight"}, {"coh", "cohesion_weight"},
       {"roost", "roost_weight"}, {"alt", "altitude_weight"}}},
     NULL, NULL, NULL, NULL, mur_it_starling_reach, 1, NULL,
     NULL, NULL, mur_it3_starling_finish, NULL},
    {{"motion", "steer", MUR_MOTION_STEER, {NULL}, {0},
      "v += a, then the speed rule", "Reynolds 1987", {{NULL}}},
     NULL, NULL, NULL, NULL, NULL, 0, mur_move2_steer, NULL, NULL, NULL, mur_move3_steer},
    {{"motion", "turn", MUR_MOTION_TURN, {"turn_rate", "dt", NULL},
      {MUR_DEFAULT_TURN_RATE, MUR_DEFAULT_DT, 0},
      "constant speed; the heading turns toward the desired one by at most turn_rate x dt",
      "Couzin et al. 2002", {{NULL}}},
     NULL, NULL, NULL, NULL, NULL, 0, mur_move2_turn, NULL, NULL, NULL, mur_move3_turn},
    {{"motion", "set", MUR_MOTION_SET, {NULL}, {0},
      "the position moves with the tick's velocity, then the heading becomes the desired one",
      "Vicsek et al. 1995", {{NULL}}},
     NULL, NULL, NULL, NULL, NULL, 0, mur_move2_set, NULL, NULL, NULL, mur_move3_set},
    {{"motion", "fly", MUR_MOTION_FLY, {NULL}, {0},
      "lift, drag and gravity on a body of mass body_mass, velocity Verlet over dt seconds; a bird "
      "rolls to turn (model: starling; 3D only)",
      "Hildenbrandt et al. 2010, Behav. Ecol. 21:1349", {{NULL}}},
     NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, mur_move3_fly},
};

#define NROWS ((int)(sizeof rows / sizeof rows[0]))

int mur_kind_count(void) { return NROWS; }

const mur_kind *mur_kind_at(int i) { return i >= 0 && i < NROWS ? &rows[i].kind : NULL; }

const mur_kind *mur_kind_of(const char *axis, int value)
{
    for (int i = 0; i < NROWS; i++)
        if (!strcmp(rows[i].kind.axis, axis) && rows[i].kind.value == value)
            return &rows[i].kind;
    return NULL;
}

const mur_kind *mur_kind_find(const char *axis, const char *name)
{
    for (int i = 0; i < NROWS; i++)
        if (!strcmp(rows[i].kind.axis, axis) && !strcmp(rows[i].kind.name, name))
            return &rows[i].kind;
    return NULL;
}

/* The axis setting's value in p. */
static int axis_value(const char *axis, const mur_params *p)
{
    if (!strcmp(axis, "neighbours"))
        return (int)p->neighbours;
    if (!strcmp(axis, "interaction"))
        return (int)p->interaction;
    return (int)p->motion;
}

/* The row of p's choice on an axis (the table has a row for every value
 * the settings table accepts). */
static const row *chosen_row(const char *axis, const mur_params *p)
{
    int v = axis_value(axis, p);
    for (int i = 0; i < NROWS; i++)
        if (!strcmp(rows[i].kind.axis, axis) && rows[i].kind.value == v)
            return &rows[i];
    return &rows[0];
}

void mur_family_kinds3_(const mur_params *p, mur_kinds3 *out)
{
    const row *nb = chosen_row("neighbours", p), *in = chosen_row("interaction", p);
    out->each = nb->each3;
    out->add = in->add3;
    out->finish = in->finish3;
    out->reach = in->reach;
    out->accel = in->accel;
    out->move = chosen_row("motion", p)->move3;
}

int mur_kind_chosen(const char *kind, const mur_params *p)
{
    for (int i = 0; i < NROWS; i++)
        if (!strcmp(rows[i].kind.name, kind))
            return axis_value(rows[i].kind.axis, p) == rows[i].kind.value;
    return 0;
}

/* model: starling's three parts and their settings (docs/model.md "starling"). */
static int starling_validate(const mur_params *p, mur_error *err)
{
    int parts = (p->neighbours == MUR_NEIGHBOURS_ADAPTIVE) + (p->interaction == MUR_INTERACTION_STARLING) +
                (p->motion == MUR_MOTION_FLY);
    if (parts == 0)
        return MUR_OK;
    if (parts != 3)
        return mur_error_set(err, MUR_EINPUT,
                             "neighbours: adaptive, interaction: starling and motion: fly go together "
                             "(model: starling)");
    if (p->dimensions != 3)
        return mur_error_set(err, MUR_EINPUT,
                             "model: starling flies in three dimensions: it needs world: {dimensions: 3}");
    struct {
        const char *name;
        double v;
    } pos[] = {{"topological_range", p->topological_range}, {"max_radius", p->max_radius},
               {"body_mass", p->body_mass},           {"cruise_speed", p->cruise_speed},
               {"dt", p->dt},                         {"reaction_time", p->reaction_time},
               {"max_speed", p->max_speed}};
    for (size_t k = 0; k < sizeof pos / sizeof pos[0]; k++)
        if (!(pos[k].v > 0))
            return mur_error_set(err, MUR_EINPUT, "%s = %g must be above 0 (model: starling)", pos[k].name,
                                 pos[k].v);
    if (!(p->reaction_spread < 1))
        return mur_error_set(err, MUR_EINPUT, "reaction_spread = %g must be below 1", p->reaction_spread);
    if (p->escape_radius > 0 && !(p->escape_away + p->escape_back <= p->escape_time))
        return mur_error_set(err, MUR_EINPUT, "escape_time = %g must be at least escape_away + escape_back (%g)",
                             p->escape_time, p->escape_away + p->escape_back);
    return MUR_OK;
}

int mur_family_validate(const mur_params *p, mur_error *err)
{
    int rc = starling_validate(p, err);
    if (rc)
        return rc;
    const char *it = chosen_row("interaction", p)->kind.name;
    if (p->interaction != MUR_INTERACTION_REYNOLDS && !(p->noise <= 2 * MUR_PI))
        return mur_error_set(err, MUR_EINPUT,
                             "noise = %g is out of range [0, 2 pi = 6.2832] for interaction %s "
                             "(an angle in radians)",
                             p->noise, it);
    if (p->neighbours == MUR_NEIGHBOURS_TOPOLOGICAL) {
        if (p->topological_k >= p->count || p->topological_k > MUR_MAX_K)
            return mur_error_set(err, MUR_EINPUT,
                                 "topological k = %d must be below the flock's count (%d) and at "
                                 "most %d",
                                 p->topological_k, p->count, MUR_MAX_K);
        if (!(p->topological_radius > 0))
            return mur_error_set(err, MUR_EINPUT,
                                 "topological radius = %g must be above 0 (leave it out for no cap)",
                                 p->topological_radius);
    }
    if (p->motion == MUR_MOTION_TURN && !(p->turn_rate > 0))
        return mur_error_set(err, MUR_EINPUT, "turn_rate = %g must be above 0 (degrees a second)",
                             p->turn_rate);
    if (p->motion == MUR_MOTION_TURN && !(p->dt > 0))
        return mur_error_set(err, MUR_EINPUT, "dt = %g must be above 0 (seconds a tick)", p->dt);
    if (p->update == MUR_UPDATE_SEQUENTIAL && !mur_params_reynolds(p))
        return mur_error_set(err, MUR_EINPUT,
                             "update: sequential needs neighbours: metric, interaction: reynolds "
                             "and motion: steer (use update: sync)");
    return MUR_OK;
}

/* ---- the tick --------------------------------------------------------------- */

typedef struct {
    mur_flock *f;
    const row *nb, *in;
    mur_it tmpl;        /* the tick's part of every boid's mur_it */
    double *reach_of;   /* topological: each boid's k-th distance, or NULL */
} tick_ctx;

static void tick_init(tick_ctx *t, mur_flock *f)
{
    const mur_params *p = &f->p;
    t->f = f;
    t->reach_of = NULL;
    t->nb = chosen_row("neighbours", p);
    t->in = chosen_row("interaction", p);
    mur_it *it = &t->tmpl;
    memset(it, 0, sizeof *it);
    it->f = f;
    it->p = p;
    it->topological = p->neighbours == MUR_NEIGHBOURS_TOPOLOGICAL;
    it->used = mur_flock_rules_used_(p);
    it->rr = p->separation_radius;
    it->ro = it->rr + p->orientation_width;
    it->ra = it->ro + p->attraction_width;
    it->reach = t->in->reach(p);
    it->treach = mur_sqrt_bound(it->reach);
    it->cap = p->topological_radius;
    it->tcap = it->topological ? mur_sqrt_bound(it->cap) : INFINITY;
    it->fov_cone = p->fov < 360;
    it->cos_half = it->fov_cone ? cos(p->fov * 0.5 * MUR_PI / 180.0) : -1;
    it->wrap = p->boundary == MUR_BOUNDARY_WRAP;
    it->w = p->width;
    it->h = p->height;
}

/* Results of positions [begin, end), stored by position in f->acc (and
 * each k-th distance in f->hint, whose value for the position has been
 * read): stores in order, where by id each would miss the cache and hold
 * up the stores after it. */
static void desire_chunk(void *ctx, int begin, int end)
{
    tick_ctx *t = ctx;
    mur_flock *f = t->f;
    mur_it it = t->tmpl;
    /* positions run in cell order: the cell of each follows its start,
     * read in order rather than from cell_of (by id: a cache miss a boid) */
    it.cell = f->grid_ok && begin < end ? f->grid.cell_of[f->grid.order[begin]] : 0;
    for (int k = begin; k < end; k++) {
        while (f->grid_ok && f->grid.start[it.cell + 1] <= k)
            it.cell++;
        if ((k - begin) % 4096 == 4095 && mur_flock_stop_seen_(f))
            return;
        it.k = k;
        it.i = f->grid_ok ? f->grid.order[k] : k;
        it.r[0] = f->kx[k];
        it.r[1] = f->ky[k];
        it.v[0] = f->kvx[k];
        it.v[1] = f->kvy[k];
        it.vlen = sqrt(it.v[0] * it.v[0] + it.v[1] * it.v[1]);
        sums s;
        memset(&s, 0, sizeof s);
        double far = t->nb->each(&it, t->in->add, &s);
        if (t->reach_of)
            f->hint[k] = far;
        double out[2];
        t->in->finish(&it, &s, out);
        f->acc[2 * k] = out[0];
        f->acc[2 * k + 1] = out[1];
    }
}

typedef struct {
    mur_flock *f;
    mur_move move;
    int accel;
    const int *slot;   /* results by position (boid i's at slot[i]), or NULL: by id */
    double *reach_of;  /* and the k-th distances (in f->hint) to reach_of by id, or NULL */
} move_ctx;

/* By position, the results are gathered a block at a time in a loop of
 * loads alone, so the cache misses of scattered reads overlap (one a boid
 * between two moves would wait for each). */
static void move_chunk(void *ctx, int begin, int end)
{
    enum { BLOCK = 256 };
    move_ctx *m = ctx;
    const double *acc = m->f->acc, *hint = m->f->hint;
    if (!m->slot) {
        for (int i = begin; i < end; i++) {
            if (m->reach_of)
                m->reach_of[i] = hint[i];
            m->move(m->f, i, acc + 2 * i, m->accel);
        }
        return;
    }
    double o[2 * BLOCK];
    for (int i0 = begin; i0 < end; i0 += BLOCK) {
        int n = end - i0 < BLOCK ? end - i0 : BLOCK;
        const int *slot = m->slot + i0;
        for (int t = 0; t < n; t++) {
            o[2 * t] = acc[2 * slot[t]];
            o[2 * t + 1] = acc[2 * slot[t] + 1];
        }
        if (m->reach_of)
            for (int t = 0; t < n; t++)
                m->reach_of[i0 + t] = hint[slot[t]];
        for (int t = 0; t < n; t++)
            m->move(m->f, i0 + t, o + 2 * t, m->accel);
    }
}

static void move_all(mur_flock *f, int accel, const int *slot, double *reach_of)
{
    move_ctx m = {f, chosen_row("motion", &f->p)->move, accel, slot, reach_of};
    mur_pool_run(f->pool, move_chunk, &m, f->n);
}

void mur_family_move(mur_flock *f) { move_all(f, 1, NULL, NULL); }

/* The last tick's k-th distances of boids [begin, end), to their
 * positions of this tick, so the search reads its hint in order. */
static void hint_chunk(void *ctx, int begin, int end)
{
    mur_flock *f = ctx;
    for (int i = begin; i < end; i++)
        f->hint[f->grid.slot[i]] = f->reach_of[i];
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The next tick's topological cell: the median k-th distance of a sample
 * of boids (every n / 511-th position: f->hint holds this tick's by
 * position), so that a boid of a typical crowd is
 * settled by its own cell and the ring around it; 0 (a first guess from the
 * mean density) when there is none. */
static void next_cell(mur_flock *f)
{
    enum { SAMPLE = 511 };
    double v[SAMPLE];
    int m = 0, step = f->n / SAMPLE + 1;
    for (int k = 0; k < f->n && m < SAMPLE; k += step)
        if (f->hint[k] > 0 && isfinite(f->hint[k]))
            v[m++] = f->hint[k];
    if (m == 0) {
        f->topo_cell = 0;
        return;
    }
    qsort(v, (size_t)m, sizeof v[0], by_value);
    f->topo_cell = 1.4 * v[m / 2];   /* 1.0, 1.4, 1.8, 2.2 measured: 1.4 fastest at 1e4 and 1e5 */
}

int mur_family_step(mur_flock *f)
{
    tick_ctx t;
    tick_init(&t, f);
    if (t.tmpl.topological && (size_t)f->n > f->reach_cap) {
        double *q = mur_realloc(f->reach_of, (size_t)f->n * sizeof *q);
        if (q) {
            memset(q + f->reach_cap, 0, ((size_t)f->n - f->reach_cap) * sizeof *q);   /* no hint */
            f->reach_of = q;
            double *h = mur_realloc(f->hint, (size_t)f->n * sizeof *h);
            if (h) {
                f->hint = h;
                f->reach_cap = (size_t)f->n;
            }
        }
    }
    /* else no hints and the first guess of a cell: slower, the same bytes */
    if (t.tmpl.topological && (size_t)f->n <= f->reach_cap)
        t.reach_of = f->reach_of;
    mur_flock_prepare_(f, t.nb->cell(f, t.tmpl.reach));
    if (t.reach_of && f->grid_ok) {
        mur_pool_run(f->pool, hint_chunk, f, f->n);
        t.tmpl.hinted = 1;
    }
    mur_pool_run(f->pool, desire_chunk, &t, f->n);
    if (t.reach_of && f->n > 0)
        next_cell(f);
    if (atomic_load_explicit(&f->stopped, memory_order_relaxed)) {
        f->grid_ok = 0;
        return MUR_EINTR;   /* nothing has moved yet */
    }
    /* results by position: position k is boid k without a grid */
    move_all(f, t.in->accel, f->grid_ok ? f->grid.slot : NULL, t.reach_of);
    f->grid_ok = 0;
    f->tick++;
    return MUR_OK;
}
