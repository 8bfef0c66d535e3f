/* model: starling, after StarDisplay (Hildenbrandt, Carere and Hemelrijk
 * 2010; Hemelrijk and Hildenbrandt 2011, PLoS ONE 6:e22479; the public
 * source merovingiano/StarDisplay, Prey.cpp and Bird.cpp of its first
 * commit). docs/model.md "starling" has every equation and value; the
 * names below are its symbols. Three kinds that go together:
 *
 * neighbours adaptive (mur_nb3_adaptive): at a reaction, bird i's search
 *   radius becomes R <- min(R + lerp (R (n_topo / (n + 1))^(1/3) - R),
 *   max_radius), n its interacting count of the last reaction; its
 *   neighbours are the (at most CAP) nearest within R, by distance (ties to
 *   the lower id). The search and the starling interaction are one pass.
 * interaction starling: separation, alignment, bank alignment and cohesion
 *   with circularity over those neighbours, weighted in the head frame;
 *   the roost, the preferred height, murmur's predators, the speed control
 *   and a random force added: the steering force, held until the next
 *   reaction. A bird reacts when its clock reaches its interval (drawn
 *   within +- spread of reaction_time at each reaction).
 * motion fly (mur_move3_fly; four birds at a time on AVX2, fly4_avx2): every
 *   tick, lift, drag and gravity, velocity Verlet over dt seconds, the speed
 *   clamp, then the bank: the body frame rolls by roll_rate (F . h_side -
 *   L . h_side) dt and is made orthonormal.
 *
 * The state's velocities are world units (metres) a tick, like every
 * murmur model's: fly works in m/s, v / dt. Each bird's result depends on
 * the state at the start of the tick and its own draws (the counter-based
 * hash), its neighbours visited in an order fixed by distance and id: the
 * same bits on every thread count. */
#include "starling.h"

#include "escape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kinds.h"
#include "murmur/alloc.h"
#include "vec3.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define FLY4 1   /* the flight four birds at a time (AVX2), below */
#include <immintrin.h>
#else
#define FLY4 0
#endif

#define G 9.81             /* m/s^2 */
#define START_RADIUS 5.0   /* m: StarDisplay's CBird starts searchRadius_ at 5 */
#define CAP 20             /* the most neighbours a search keeps (StarDisplay's maxTopologicalRange, chosen) */

/* draws of a bird at a tick (mur_noise_u01's index) */
enum { DRAW_NOISE0 = 0, DRAW_NOISE1 = 1, DRAW_INTERVAL = 2 };

/* ---- state ---------------------------------------------------------------- */

void mur_starling_free_(mur_flock *f)
{
    mur_escape_free_(f);
    mur_starling *s = f->star;
    if (!s)
        return;
    mur_free(s->up);
    mur_free(s->acc);
    mur_free(s->steer);
    mur_free(s->radius);
    mur_free(s->interacting);
    mur_free(s->clock);
    mur_free(s->interval);
    mur_free(s);
    f->star = NULL;
}

static int grow(mur_starling *s, size_t n)
{
    if (n <= s->cap)
        return 0;
    size_t cap = s->cap ? s->cap : 64;
    while (cap < n)
        cap *= 2;
    void **three[] = {(void **)&s->up, (void **)&s->acc, (void **)&s->steer};
    for (int k = 0; k < 3; k++) {
        void *q = mur_realloc(*three[k], cap * 3 * sizeof(double));
        if (!q)
            return -1;
        *three[k] = q;
    }
    void **one[] = {(void **)&s->radius, (void **)&s->clock, (void **)&s->interval};
    for (int k = 0; k < 3; k++) {
        void *q = mur_realloc(*one[k], cap * sizeof(double));
        if (!q)
            return -1;
        *one[k] = q;
    }
    int *q = mur_realloc(s->interacting, cap * sizeof *q);
    if (!q)
        return -1;
    s->interacting = q;
    s->cap = cap;
    return 0;
}

/* The level up of heading h: +z made normal to h (x for a vertical h). */
static void level_up(const double h[3], double u[3])
{
    double f[3], z[3] = {0, 0, 1};
    if (!(mur_unit3_(h, f) > 0)) {
        f[0] = 1, f[1] = f[2] = 0;
    }
    double d = mur_dot3_(z, f);
    for (int c = 0; c < 3; c++)
        u[c] = z[c] - d * f[c];
    if (!(mur_unit3_(u, u) > 1e-9)) {
        double x[3] = {1, 0, 0};
        d = mur_dot3_(x, f);
        for (int c = 0; c < 3; c++)
            u[c] = x[c] - d * f[c];
        mur_unit3_(u, u);
    }
}

int mur_starling_sync_(mur_flock *f, int from)
{
    if (f->p.motion != MUR_MOTION_FLY || f->p.dimensions != 3) {
        mur_starling_free_(f);
        return 0;
    }
    if (!f->star) {
        f->star = mur_calloc(1, sizeof *f->star);
        if (!f->star)
            return -1;
        from = 0;
    }
    mur_starling *s = f->star;
    if (grow(s, (size_t)(f->n > 0 ? f->n : 1)))
        return -1;
    for (int i = from < 0 ? 0 : from; i < f->n; i++) {
        double v[3] = {f->vx[i], f->vy[i], f->vz[i]};
        level_up(v, s->up + 3 * i);
        for (int c = 0; c < 3; c++)
            s->acc[3 * i + c] = s->steer[3 * i + c] = 0;
        s->radius[i] = START_RADIUS;
        s->interacting[i] = 0;
        s->clock[i] = 0;
        s->interval[i] = 0;   /* a reaction at the first tick, as StarDisplay's */
    }
    return mur_escape_sync_(f, from);
}

/* ---- the search ------------------------------------------------------------ */

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double mur_starling_cell_(const mur_flock *f)
{
    enum { SAMPLE = 255 };
    double v[SAMPLE];
    int m = 0, step = f->n / SAMPLE + 1;
    for (int i = 0; f->star && i < f->n && m < SAMPLE; i += step)
        if (f->star->radius[i] > 0 && isfinite(f->star->radius[i]))
            v[m++] = f->star->radius[i];
    if (m == 0)
        return START_RADIUS;
    qsort(v, (size_t)m, sizeof v[0], by_value);
    return fmax(v[m / 2], 0.05);
}

typedef struct {
    double d2;
    int id, k;
} cand;

typedef struct {
    cand best[CAP];
    int m;
    double r2;
} found;

static int before(double d2, int id, const cand *c) { return d2 < c->d2 || (d2 == c->d2 && id < c->id); }

static void consider(const mur_it3 *it, found *fd, int j)
{
    if (j == it->k)
        return;
    const mur_flock *f = it->f;
    double d[3] = {f->kx[j] - it->r[0], f->ky[j] - it->r[1], f->kz[j] - it->r[2]};
    if (it->wrap)
        for (int c = 0; c < 3; c++)
            d[c] = mur_near_image(d[c], it->size[c]);
    double d2 = mur_dot3_(d, d);
    if (!(d2 > 0 && d2 <= fd->r2))
        return;
    int id = f->grid3_ok ? f->grid3.order[j] : j, m = fd->m;
    if (m == CAP && !before(d2, id, &fd->best[m - 1]))
        return;
    int t = m < CAP ? m : m - 1;
    while (t > 0 && before(d2, id, &fd->best[t - 1])) {
        fd->best[t] = fd->best[t - 1];
        t--;
    }
    fd->best[t] = (cand){d2, id, j};
    if (m < CAP)
        fd->m = m + 1;
}

/* The cells along one axis the ball of radius R around u meets: [lo, hi],
 * every cell once (all of them when the ball spans the axis under wrap). */
static void axis_range(const mur_grid3 *g, int c, double u, double R, int *lo, int *hi, int *all)
{
    int n = g->n[c];
    double a = (u - R - g->o[c]) * g->inv[c], b = (u + R - g->o[c]) * g->inv[c];
    *all = 0;
    if (g->wrap && !(b - a < n - 2)) {
        *lo = 0, *hi = n - 1, *all = 1;
        return;
    }
    int l = (int)floor(a), h = (int)floor(b);
    if (!g->wrap) {
        l = l < 0 ? 0 : l > n - 1 ? n - 1 : l;
        h = h < 0 ? 0 : h > n - 1 ? n - 1 : h;
    }
    *lo = l, *hi = h;
}

static inline int around(int c, int n) { return ((c % n) + n) % n; }

static void search(const mur_it3 *it, found *fd, double R)
{
    const mur_flock *f = it->f;
    fd->m = 0;
    fd->r2 = R * R;
    if (!f->grid3_ok) {
        for (int j = 0; j < f->n; j++)
            consider(it, fd, j);
        return;
    }
    const mur_grid3 *g = &f->grid3;
    int lo[3], hi[3], all[3];
    for (int c = 0; c < 3; c++)
        axis_range(g, c, it->r[c], R, &lo[c], &hi[c], &all[c]);
    for (int cz = lo[2]; cz <= hi[2]; cz++) {
        int wz = around(cz, g->n[2]);
        for (int cy = lo[1]; cy <= hi[1]; cy++) {
            int wy = around(cy, g->n[1]);
            const int *row = g->start + (wz * g->n[1] + wy) * g->n[0];
            if (!g->wrap || all[0] || (lo[0] >= 0 && hi[0] < g->n[0])) {
                for (int j = row[lo[0]]; j < row[hi[0] + 1]; j++)
                    consider(it, fd, j);
            } else {
                for (int cx = lo[0]; cx <= hi[0]; cx++) {
                    int wx = around(cx, g->n[0]);
                    for (int j = row[wx]; j < row[wx + 1]; j++)
                        consider(it, fd, j);
                }
            }
        }
    }
}

/* ---- the reaction ------------------------------------------------------------ */

/* glmutils::smootherstep(e0, e1, x) */
static double smootherstep(double e0, double e1, double x)
{
    double t = e1 > e0 ? (x - e0) / (e1 - e0) : (x < e0 ? 0 : 1);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return t * t * t * (t * (t * 6 - 15) + 10);
}

/* The head frame of unit heading f: h_up = +z made normal to f, h_side =
 * unit(f x z); for a vertical f (|f x z| at most 1e-9, returned), the
 * body's side. */
static double head_frame(const double f[3], const double side[3], double hs[3], double hu[3])
{
    double s[3] = {f[1], -f[0], 0};   /* f x (0, 0, 1) */
    double len = mur_unit3_(s, hs);
    if (!(len > 1e-9))
        for (int c = 0; c < 3; c++)
            hs[c] = side[c];
    /* hu = hs x f */
    hu[0] = hs[1] * f[2] - hs[2] * f[1];
    hu[1] = hs[2] * f[0] - hs[0] * f[2];
    hu[2] = hs[0] * f[1] - hs[1] * f[0];
    return len;
}

static void cross3(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* The body frame of bird i from its velocity v and stored up: f, u, w =
 * unit(f x u) (u re-made normal to f). */
static void body_frame(const double v[3], const double *up, double fw[3], double u[3], double w[3])
{
    if (!(mur_unit3_(v, fw) > 0)) {
        fw[0] = 1, fw[1] = fw[2] = 0;
    }
    double uu[3] = {up[0], up[1], up[2]}, t[3];
    cross3(fw, uu, t);
    if (!(mur_unit3_(t, w) > 1e-12)) {
        level_up(fw, uu);
        cross3(fw, uu, t);
        mur_unit3_(t, w);
    }
    cross3(w, fw, u);
}

/* F weighted in the head frame: weight along f and h_side, weight x up
 * along h_up (H diag(w, w up, w) H^T F). */
static void head_weight(double F[3], const double hu[3], double weight, double up)
{
    double a = mur_dot3_(F, hu) * (up - 1);
    for (int c = 0; c < 3; c++)
        F[c] = weight * (F[c] + a * hu[c]);
}

/* Bird i's frames at a reaction: the body's (f, u, w) and the head's
 * (h_side, h_up). */
typedef struct {
    double fw[3], u[3], w[3], hs[3], hu[3];
} frames;

/* The neighbours of a reaction: the search's, each with its unit direction
 * from bird i and its distance. */
typedef struct {
    found fd;
    double dir[CAP][3], dist[CAP];
} nearest;

/* Enters with nb->fd found; leaves each neighbour's direction and distance
 * in nb and returns the circularity, |mean direction| (1 alone). */
static inline double circularity(const mur_it3 *it, nearest *nb)
{
    const mur_flock *f = it->f;
    const found *fd = &nb->fd;
    double circ = 1;
    if (fd->m) {
        double cv[3] = {0, 0, 0};
        for (int a = 0; a < fd->m; a++) {
            nb->dist[a] = sqrt(fd->best[a].d2);
            int j = fd->best[a].k;
            double d[3] = {f->kx[j] - it->r[0], f->ky[j] - it->r[1], f->kz[j] - it->r[2]};
            if (it->wrap)
                for (int c = 0; c < 3; c++)
                    d[c] = mur_near_image(d[c], it->size[c]);
            for (int c = 0; c < 3; c++) {
                nb->dir[a][c] = d[c] / nb->dist[a];
                cv[c] += nb->dir[a][c];
            }
        }
        for (int c = 0; c < 3; c++)
            cv[c] /= fd->m;
        circ = sqrt(mur_dot3_(cv, cv));
    }
    return circ;
}

/* The rules, nearest first: enters with the neighbours, their circularity
 * and bird i's frames; leaves separation, alignment, bank alignment and
 * cohesion summed into F (set, not added) and the count that interacted in
 * st->interacting[i]. */
static inline void rules(const mur_it3 *it, const nearest *nb, double circ, const frames *fr, double F[3])
{
    const mur_flock *f = it->f;
    const mur_params *p = it->p;
    mur_starling *st = f->star;
    const double *fw = fr->fw, *u = fr->u, *w = fr->w, *hs = fr->hs;
    const double cos_half = it->fov_cone ? it->cos_half : -2;
    const double blind = p->cohesion_blind_angle * MUR_PI / 360;   /* half of it, radians */
    const double cos_blind = cos(blind);
    double sep[3] = {0, 0, 0}, ali[3] = {0, 0, 0}, coh[3] = {0, 0, 0}, bank = 0;
    int ns = 0, na = 0, nc = 0;
    for (int a = 0; a < nb->fd.m; a++) {
        const double *d = nb->dir[a], dist = nb->dist[a];
        if (mur_dot3_(d, fw) < cos_half)
            continue;   /* murmur's field of view (fov: 360 sees all round) */
        int j = nb->fd.best[a].k, id = nb->fd.best[a].id;
        double sstep = smootherstep(p->hard_core, p->separation_radius, dist);
        if (ns < p->separation_neighbours && dist < p->separation_radius) {
            for (int c = 0; c < 3; c++)
                sep[c] += (1 - sstep) * d[c];
            ns++;
        }
        double vj[3] = {f->kvx[j], f->kvy[j], f->kvz[j]}, fj[3], uj[3], wj[3];
        if (p->bank_alignment != 0) {   /* w_j: j's body frame (it adds 0 x bank otherwise) */
            body_frame(vj, st->up + 3 * id, fj, uj, wj);
            bank += mur_dot3_(wj, u);
        } else if (!(mur_unit3_(vj, fj) > 0)) {
            fj[0] = 1, fj[1] = fj[2] = 0;
        }
        for (int c = 0; c < 3; c++)
            ali[c] += fj[c];
        na++;
        /* the rear blind angle: behind when the azimuth in the head frame
         * (forward, side) is past 180 - blind / 2 */
        double x = mur_dot3_(d, fw), y = mur_dot3_(d, hs);
        if (!(p->cohesion_blind_angle > 0 && x < 0 && x * x >= cos_blind * cos_blind * (x * x + y * y) &&
              (x * x + y * y) > 0)) {
            for (int c = 0; c < 3; c++)
                coh[c] += sstep * d[c];
            nc++;
        }
    }
    if (ns)
        for (int c = 0; c < 3; c++)
            sep[c] *= -1.0 / ns;
    if (na) {
        bank /= na;
        for (int c = 0; c < 3; c++)
            ali[c] = ali[c] / na - fw[c];
    }
    if (nc)
        for (int c = 0; c < 3; c++)
            coh[c] *= circ * circ / nc;
    int n = ns > na ? ns : na;
    st->interacting[it->i] = n > nc ? n : nc;
    head_weight(sep, fr->hu, p->separation_weight, p->separation_up);
    head_weight(coh, fr->hu, p->cohesion_weight, p->cohesion_up);
    for (int c = 0; c < 3; c++)
        F[c] = sep[c] + p->alignment_weight * ali[c] - p->bank_alignment * bank * w[c] + coh[c];
}

/* The roost and the preferred height: enters with bird i's frames, leaves
 * their push added to F (summed apart first, then added). Outside the disc
 * by e, the roost pushes along the head's side toward the centre, o e, o =
 * (1 + f_h . n) / 2 the outwardness. */
static inline void roost(const mur_it3 *it, const frames *fr, double F[3])
{
    const mur_params *p = it->p;
    const double *fw = fr->fw, *hs = fr->hs;
    double nx = it->r[0] - p->roost_x, ny = it->r[1] - p->roost_y, dc = hypot(nx, ny), e = dc - p->roost_radius;
    double B[3] = {0, 0, 0};
    if (e > 0) {
        nx /= dc, ny /= dc;
        double hx = fw[0], hy = fw[1], hl = hypot(hx, hy);
        double o = hl > 0 ? 0.5 * (1 + (hx * nx + hy * ny) / hl) : 0.5;
        if (o > cos(p->reflect_angle * MUR_PI / 180)) {
            double toward = -(nx * hs[0] + ny * hs[1]);   /* the centre's side of h_side */
            double m = (toward > 0 ? 1 : -1) * o * e * p->roost_weight;
            for (int c = 0; c < 3; c++)
                B[c] = m * hs[c];
        }
    }
    double dz = p->altitude - it->r[2];
    B[2] += p->altitude_weight * (dz < -10 ? -10 : dz > 10 ? 10 : dz);
    for (int c = 0; c < 3; c++)
        F[c] += B[c];
}

/* murmur's predators: leaves, added to F, each one's flight (or pull) with
 * strength (1 - d / R) in world units a tick^2, a force m a / dt^2. */
static inline void flee(const mur_it3 *it, double F[3])
{
    const mur_flock *f = it->f;
    const mur_params *p = it->p;
    const double dt = p->dt, m = p->body_mass;
    for (int k = 0; k < f->npred; k++) {
        const mur_predator *pr = &f->pred[k];
        double at[3] = {pr->x, pr->y, pr->z}, d[3];
        mur_params_offset3(p, at, it->r, d);   /* r_i - predator */
        double dd = sqrt(mur_dot3_(d, d));
        if (dd < pr->radius && dd > 0) {
            double s = (pr->attract ? -1.0 : 1.0) * pr->strength * (1 - dd / pr->radius) / dd * m / (dt * dt);
            for (int c = 0; c < 3; c++)
                F[c] += s * d[c];
        }
    }
}

/* Bird i's reaction: the new search radius, its neighbours, and the
 * steering force (N) into the state. */
static void react(const mur_it3 *it)
{
    const mur_flock *f = it->f;
    const mur_params *p = it->p;
    mur_starling *st = f->star;
    const int i = it->i;
    /* the adaptive radius */
    double R = st->radius[i];
    double Rn = R * cbrt(p->topological_range / (st->interacting[i] + 1));
    R = fmin(R + p->neighbour_lerp * (Rn - R), p->max_radius);
    st->radius[i] = R;
    nearest nb;
    search(it, &nb.fd, R);
    frames fr;
    body_frame(it->v, st->up + 3 * i, fr.fw, fr.u, fr.w);
    head_frame(fr.fw, fr.w, fr.hs, fr.hu);
    double circ = circularity(it, &nb), F[3];
    rules(it, &nb, circ, &fr, F);
    int escaping = 0;
    if (f->esc) {   /* the zig and its copying (escape.c), nearest first */
        int ids[CAP];
        for (int a = 0; a < nb.fd.m; a++)
            ids[a] = nb.fd.best[a].id;
        escaping = mur_escape_react_(f, i, it->r, fr.w, ids, nb.fd.m, F);
    }
    if (!escaping)
        roost(it, &fr, F);
    flee(it, F);
    /* the speed control toward the cruise speed, and the random force */
    const double dt = p->dt, m = p->body_mass;
    double speed = it->vlen / dt;
    for (int c = 0; c < 3; c++)
        F[c] += m * p->speed_control * (p->cruise_speed - speed) * fr.fw[c];
    if (p->random_weight > 0) {
        double r[3];
        mur_v3_sphere(mur_noise_u01(f->seed, f->tick, (uint64_t)i, DRAW_NOISE0),
                      mur_noise_u01(f->seed, f->tick, (uint64_t)i, DRAW_NOISE1), r);
        double elapsed = st->clock[i] + dt;
        for (int c = 0; c < 3; c++)
            F[c] += p->random_weight * elapsed * r[c];
    }
    for (int c = 0; c < 3; c++)
        st->steer[3 * i + c] = F[c];
}

static int reacts(const mur_starling *st, int i, double dt) { return st->clock[i] + dt >= st->interval[i]; }

void mur_nb3_adaptive(const mur_it3 *it, mur_it3_add add, sums3 *acc)
{
    (void)add;
    (void)acc;
    if (reacts(it->f->star, it->i, it->p->dt))
        react(it);
}

void mur_it3_starling_finish(const mur_it3 *it, const sums3 *acc, double out[3])
{
    (void)acc;
    for (int c = 0; c < 3; c++)
        out[c] = it->f->star->steer[3 * it->i + c];
}

double mur_it_starling_reach(const mur_params *p)
{
    return p->max_radius;
}

/* ---- flight ------------------------------------------------------------------ */

/* The top speed of a bird at r, m/s: max_speed, or a fleeing predator's
 * burst within its radius. */
static double top_speed(const mur_flock *f, const double r[3])
{
    const mur_params *p = &f->p;
    double top = p->max_speed / p->dt;
    for (int k = 0; k < f->npred; k++) {
        const mur_predator *pr = &f->pred[k];
        if (pr->attract || !(pr->burst > 1))
            continue;
        double at[3] = {pr->x, pr->y, pr->z}, d[3];
        mur_params_offset3(p, at, r, d);
        if (mur_dot3_(d, d) < pr->radius * pr->radius)
            top = fmax(top, p->max_speed * pr->burst / p->dt);
    }
    return top;
}

/* The roll of up vector u (unit, normal to the unit heading f) from the
 * head's up h_u (the world's up made normal to f), radians in (-pi, pi]:
 * u = cos(roll) h_u + sin(roll) h_side. 0 for a vertical f (no horizon). */
static double roll_of(const double f[3], const double u[3], double hs[3], double hu[3])
{
    if (!(head_frame(f, f, hs, hu) > 1e-9))
        return 0;
    return atan2(mur_dot3_(u, hs), mur_dot3_(u, hu));
}

double mur_starling_roll_(const double f[3], const double u[3])
{
    double hs[3], hu[3];
    return roll_of(f, u, hs, hu);
}

/* The roll-out and the bound (docs/model.md "starling", Flight): the new
 * up nu (unit, normal to the new heading nf) rolls back toward level by
 * roll_out x roll x dt and is held within max_roll of it. The same
 * operations for one bird and for a lane of four. */
static void roll_back(const mur_params *p, const double nf[3], double nu[3])
{
    if (!(p->roll_out > 0) && !(p->max_roll < 180))
        return;
    double hs[3], hu[3], b = roll_of(nf, nu, hs, hu);
    if (b == 0)
        return;
    double most = p->max_roll * (MUR_PI / 180);
    b -= p->roll_out * b * p->dt;
    b = b > most ? most : b < -most ? -most : b;
    double c = cos(b), s = sin(b);
    for (int k = 0; k < 3; k++)
        nu[k] = c * hu[k] + s * hs[k];
}

/* Bird i's reaction clock, a tick on: at its interval, 0 and a new one. */
static void tick_clock(mur_flock *f, int i)
{
    const mur_params *p = &f->p;
    mur_starling *st = f->star;
    st->clock[i] += p->dt;
    if (st->clock[i] >= st->interval[i]) {
        double q = mur_noise_u01(f->seed, f->tick, (uint64_t)i, DRAW_INTERVAL);
        st->clock[i] = 0;
        st->interval[i] = p->reaction_time * (1 + p->reaction_spread * (2 * q - 1));
    }
}

void mur_move3_fly(mur_flock *f, int i, const double o[3], int accel)
{
    (void)accel;
    const mur_params *p = &f->p;
    mur_starling *st = f->star;
    const double dt = p->dt, m = p->body_mass, W = m * G;
    double vt[3] = {f->vx[i], f->vy[i], f->vz[i]}, r[3] = {f->x[i], f->y[i], f->z[i]};
    double v[3], fw[3], u[3], w[3], hs[3], hu[3];
    for (int c = 0; c < 3; c++)
        v[c] = vt[c] / dt;   /* m/s */
    double speed = sqrt(mur_dot3_(v, v));
    body_frame(v, st->up + 3 * i, fw, u, w);
    head_frame(fw, w, hs, hu);
    /* lift, drag and thrust, gravity (Prey.cpp flightDynamic) */
    double L = W * speed * speed / (p->cruise_speed * p->cruise_speed);
    double Lc = fmin(L, p->max_lift), D = p->drag_lift * L;
    double lift[3], Fa[3];
    for (int c = 0; c < 3; c++) {
        lift[c] = Lc * u[c];
        Fa[c] = lift[c] + (p->drag_lift * W - D) * fw[c] + o[c];
    }
    Fa[2] -= W;
    /* velocity Verlet (Bird.cpp integration) */
    double *a = st->acc + 3 * i;
    for (int c = 0; c < 3; c++) {
        v[c] += a[c] * 0.5 * dt;
        r[c] += v[c] * dt;
        a[c] = Fa[c] / m;
        v[c] += a[c] * 0.5 * dt;
    }
    double top = top_speed(f, r);
    speed = sqrt(mur_dot3_(v, v));
    double s = speed < p->min_speed / dt ? p->min_speed / dt : speed > top ? top : speed;
    double nf[3];
    if (speed > 0) {
        for (int c = 0; c < 3; c++)
            nf[c] = v[c] / speed;
    } else {
        for (int c = 0; c < 3; c++)
            nf[c] = fw[c];
    }
    /* the bank and pitch (Bird.cpp regenerateLocalSpace): the old side and
     * up, the old head frame, the held steering and this tick's lift */
    const double *F = o;
    double beta = p->roll_rate * (mur_dot3_(F, hs) - mur_dot3_(lift, hs)) * dt;
    double phi = p->pitch_rate * mur_dot3_(F, u) * dt, t[3];
    for (int c = 0; c < 3; c++)
        t[c] = nf[c] + phi * u[c];
    if (mur_unit3_(t, t) > 0)
        for (int c = 0; c < 3; c++)
            nf[c] = t[c];
    double nu[3], nw[3];
    for (int c = 0; c < 3; c++)
        nu[c] = u[c] + beta * w[c];
    cross3(nf, nu, t);
    if (mur_unit3_(t, nw) > 1e-12) {
        cross3(nw, nf, nu);
    } else {
        level_up(nf, nu);
    }
    roll_back(p, nf, nu);
    for (int c = 0; c < 3; c++) {
        st->up[3 * i + c] = nu[c];
        v[c] = nf[c] * s * dt;   /* back to world units a tick */
    }
    mur_place3_(f, i, r, v);
    tick_clock(f, i);
}

/* ---- the flight of four birds at once --------------------------------------- */

#if FLY4

typedef double v4 __attribute__((vector_size(32)));

#define AVX2 __attribute__((target("avx2")))

static AVX2 inline v4 splat(double a) { return (v4){a, a, a, a}; }
static AVX2 inline v4 vsqrt(v4 a) { return _mm256_sqrt_pd(a); }
/* mask ? a : b, the mask a comparison's */
static AVX2 inline v4 pick(v4 mask, v4 a, v4 b) { return _mm256_blendv_pd(b, a, mask); }
static AVX2 inline v4 dot(const v4 a[3], const v4 b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static AVX2 inline void cross(const v4 a[3], const v4 b[3], v4 o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}
/* lanes where a > b (false where either is not a number, as C's >) */
static AVX2 inline int all_above(v4 a, v4 b) { return _mm256_movemask_pd(_mm256_cmp_pd(a, b, _CMP_GT_OQ)) == 15; }
/* three components of four birds from an array of (x, y, z) */
static AVX2 inline void load_aos(const double *q, v4 o[3])
{
    for (int c = 0; c < 3; c++)
        o[c] = (v4){q[c], q[3 + c], q[6 + c], q[9 + c]};
}
static AVX2 inline void store_aos(double *q, const v4 o[3])
{
    for (int c = 0; c < 3; c++)
        for (int l = 0; l < 4; l++)
            q[3 * l + c] = o[c][l];
}

/* mur_move3_fly for birds i .. i + 3, o their steering forces (x, y, z
 * each four wide), each lane the scalar code's operations in its order
 * (no FMA: -ffp-contract=off; IEEE division and square root are exact in
 * either unit), so the same bits. The flight's chain of square roots and
 * divisions (a dozen a bird) is what a tick waits on; four birds wait
 * together. Returns -1, having written nothing, when a lane takes one of
 * the rare turns (a bird at rest, a vertical heading, a frame that
 * folds): the caller flies those four one by one. */
static AVX2 int fly4_avx2(mur_flock *f, int i, const v4 o[3])
{
    const mur_params *p = &f->p;
    mur_starling *st = f->star;
    const double dt = p->dt, m = p->body_mass, W = m * G;
    v4 vt[3] = {_mm256_loadu_pd(f->vx + i), _mm256_loadu_pd(f->vy + i), _mm256_loadu_pd(f->vz + i)};
    v4 r[3] = {_mm256_loadu_pd(f->x + i), _mm256_loadu_pd(f->y + i), _mm256_loadu_pd(f->z + i)};
    v4 v[3], fw[3], u[3], w[3], hs[3], up[3], t[3];
    for (int c = 0; c < 3; c++)
        v[c] = vt[c] / dt;
    v4 speed = vsqrt(dot(v, v));
    /* body_frame: fw = unit(v), w = unit(fw x up), u = w x fw */
    if (!all_above(speed, splat(0)))
        return -1;
    for (int c = 0; c < 3; c++)
        fw[c] = v[c] / speed;
    load_aos(st->up + 3 * i, up);
    cross(fw, up, t);
    v4 lt = vsqrt(dot(t, t));
    if (!all_above(lt, splat(1e-12)))
        return -1;
    for (int c = 0; c < 3; c++)
        w[c] = t[c] / lt;
    cross(w, fw, u);
    /* head_frame's side: hs = unit(fw x z) (its up is not used here) */
    v4 s3[3] = {fw[1], -fw[0], splat(0)};
    v4 ls = vsqrt(dot(s3, s3));
    if (!all_above(ls, splat(1e-9)))
        return -1;
    for (int c = 0; c < 3; c++)
        hs[c] = s3[c] / ls;
    /* lift, drag and thrust, gravity */
    v4 L = splat(W) * speed * speed / splat(p->cruise_speed * p->cruise_speed);
    v4 Lc = _mm256_min_pd(L, splat(p->max_lift)), D = splat(p->drag_lift) * L;
    v4 lift[3], Fa[3];
    for (int c = 0; c < 3; c++) {
        lift[c] = Lc * u[c];
        Fa[c] = lift[c] + (splat(p->drag_lift * W) - D) * fw[c] + o[c];
    }
    Fa[2] -= W;
    /* velocity Verlet */
    v4 a[3];
    load_aos(st->acc + 3 * i, a);
    for (int c = 0; c < 3; c++) {
        v[c] += a[c] * 0.5 * dt;
        r[c] += v[c] * dt;
        a[c] = Fa[c] / m;
        v[c] += a[c] * 0.5 * dt;
    }
    v4 top;
    for (int l = 0; l < 4; l++) {
        double rl[3] = {r[0][l], r[1][l], r[2][l]};
        top[l] = top_speed(f, rl);
    }
    speed = vsqrt(dot(v, v));
    if (!all_above(speed, splat(0)))
        return -1;
    v4 lo = splat(p->min_speed / dt);
    v4 s = pick(_mm256_cmp_pd(speed, lo, _CMP_LT_OQ), lo,
                pick(_mm256_cmp_pd(speed, top, _CMP_GT_OQ), top, speed));
    v4 nf[3];
    for (int c = 0; c < 3; c++)
        nf[c] = v[c] / speed;
    /* the bank and pitch */
    v4 beta = splat(p->roll_rate) * (dot(o, hs) - dot(lift, hs)) * dt;
    v4 phi = splat(p->pitch_rate) * dot(o, u) * dt;
    for (int c = 0; c < 3; c++)
        t[c] = nf[c] + phi * u[c];
    v4 ln = vsqrt(dot(t, t));
    if (!all_above(ln, splat(0)))
        return -1;
    for (int c = 0; c < 3; c++)
        nf[c] = t[c] / ln;
    v4 nu[3], nw[3];
    for (int c = 0; c < 3; c++)
        nu[c] = u[c] + beta * w[c];
    cross(nf, nu, t);
    v4 lw = vsqrt(dot(t, t));
    if (!all_above(lw, splat(1e-12)))
        return -1;
    for (int c = 0; c < 3; c++)
        nw[c] = t[c] / lw;
    cross(nw, nf, nu);
    /* nothing was written above: from here on the four birds move */
    store_aos(st->acc + 3 * i, a);
    store_aos(st->up + 3 * i, nu);
    for (int l = 0; l < 4; l++) {   /* the roll-out and bound, lane by lane as one bird */
        double fl[3] = {nf[0][l], nf[1][l], nf[2][l]};
        roll_back(p, fl, st->up + 3 * (i + l));
    }
    for (int c = 0; c < 3; c++)
        v[c] = nf[c] * s * dt;
    for (int l = 0; l < 4; l++) {
        double rl[3] = {r[0][l], r[1][l], r[2][l]}, vl[3] = {v[0][l], v[1][l], v[2][l]};
        mur_place3_(f, i + l, rl, vl);
        tick_clock(f, i + l);
    }
    return 0;
}
#endif

void mur_move3_fly_range(mur_flock *f, int begin, int end, const double *acc, const double *accz)
{
    int i = begin;
#if FLY4
    if (f->simd >= MUR_SIMD_AVX2 && mur_filter_best() >= MUR_SIMD_AVX2)
        for (; i + 4 <= end; i += 4) {
            v4 o[3] = {{acc[2 * i], acc[2 * i + 2], acc[2 * i + 4], acc[2 * i + 6]},
                       {acc[2 * i + 1], acc[2 * i + 3], acc[2 * i + 5], acc[2 * i + 7]},
                       {accz[i], accz[i + 1], accz[i + 2], accz[i + 3]}};
            if (fly4_avx2(f, i, o) == 0)
                continue;
            for (int l = 0; l < 4; l++) {
                double ol[3] = {o[0][l], o[1][l], o[2][l]};
                mur_move3_fly(f, i + l, ol, 0);
            }
        }
#endif
    for (; i < end; i++) {
        double o[3] = {acc[2 * i], acc[2 * i + 1], accz[i]};
        mur_move3_fly(f, i, o, 0);
    }
}
