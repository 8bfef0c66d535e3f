/* The model family (docs/model.md "Model families") against literal O(N^2)
 * transcriptions of the papers' equations written here, apart from the
 * core's code: Vicsek et al. 1995 (eqs. 1-2), Couzin et al. 2002 (zones,
 * turning rate, angular noise), and topological neighbours (Ballerini et al.
 * 2008: the k nearest, ties to the lower index). Each runs 50 ticks and must
 * agree to 1e-9. Then ties, threads, and the scene's refusals. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flock_util.h"
#include "harness.h"
#include "scene_util.h"
#include "murmur/family.h"
#include "murmur/flock.h"
#include "murmur/presets.h"
#include "murmur/rng.h"

#define PI 3.14159265358979323846

static mur_params preset(const char *name)
{
    const mur_preset *p = mur_preset_find(name);
    if (!p)
        abort();
    return p->params;
}

/* ---- the literal model: state as the papers write it ---------------------- */

typedef struct {
    int n;
    double L, W, H;   /* torus size (0: open plane) */
    double x[4096], y[4096], th[4096], sp[4096];   /* position, heading angle, speed */
} world;

static world *load(const mur_flock *f, int wrap)
{
    world *w = calloc(1, sizeof *w);
    const mur_params *p = mur_flock_params(f);
    w->n = mur_flock_count(f);
    w->W = wrap ? p->width : 0;
    w->H = wrap ? p->height : 0;
    for (int i = 0; i < w->n; i++) {
        w->x[i] = mur_flock_x(f)[i];
        w->y[i] = mur_flock_y(f)[i];
        w->th[i] = atan2(mur_flock_vy(f)[i], mur_flock_vx(f)[i]);
        w->sp[i] = hypot(mur_flock_vx(f)[i], mur_flock_vy(f)[i]);
    }
    return w;
}

/* r_j - r_i, the nearest image on a torus */
static void off(const world *w, int i, int j, double *dx, double *dy)
{
    *dx = w->x[j] - w->x[i];
    *dy = w->y[j] - w->y[i];
    if (w->W > 0) {
        *dx -= w->W * round(*dx / w->W);
        *dy -= w->H * round(*dy / w->H);
    }
}

static double wrapc(double v, double L) { return L > 0 ? v - L * floor(v / L) : v; }

/* The k nearest to i (nearest image, |d| > 0, within cap), ties to the
 * lower index: sort every other boid by (distance, index). */
static int nearest_k(const world *w, int i, int k, double cap, int *out)
{
    static int idx[4096];
    static double d2[4096];
    int m = 0;
    for (int j = 0; j < w->n; j++) {
        double dx, dy;
        off(w, i, j, &dx, &dy);
        double d = dx * dx + dy * dy;
        if (j == i || d == 0 || !(sqrt(d) < cap))
            continue;
        idx[m] = j;
        d2[j] = d;
        m++;
    }
    for (int a = 1; a < m; a++)   /* insertion sort by (d2, index) */
        for (int b = a; b > 0 && (d2[idx[b]] < d2[idx[b - 1]] ||
                                  (d2[idx[b]] == d2[idx[b - 1]] && idx[b] < idx[b - 1])); b--) {
            int t = idx[b];
            idx[b] = idx[b - 1];
            idx[b - 1] = t;
        }
    if (m > k)
        m = k;
    memcpy(out, idx, (size_t)m * sizeof *out);
    return m;
}

/* Whether i sees the offset: the angle between its heading and d at most
 * half the field of view. */
static int sees(const world *w, int i, double dx, double dy, double fov)
{
    if (fov >= 360)
        return 1;
    double a = acos(fmax(-1, fmin(1, (cos(w->th[i]) * dx + sin(w->th[i]) * dy) / hypot(dx, dy))));
    return a <= fov / 2 * PI / 180;
}

/* Vicsek 1995: theta_i(t+1) = <theta(t)>_r + dtheta, the average over the
 * neighbours within r and i itself; x_i(t+1) = x_i(t) + v_i(t). */
static void vicsek_tick(world *w, const mur_params *p, uint64_t seed, uint64_t t, int topo_k)
{
    static double nth[4096];
    for (int i = 0; i < w->n; i++) {
        double s = sin(w->th[i]), c = cos(w->th[i]);
        int nb[4096], m = 0;
        if (topo_k) {
            m = nearest_k(w, i, topo_k, INFINITY, nb);
        } else {
            for (int j = 0; j < w->n; j++) {
                double dx, dy;
                off(w, i, j, &dx, &dy);
                double d = hypot(dx, dy);
                if (j != i && d > 0 && d < p->alignment_radius)
                    nb[m++] = j;
            }
        }
        for (int a = 0; a < m; a++) {
            s += sin(w->th[nb[a]]);
            c += cos(w->th[nb[a]]);
        }
        double eta = p->noise;
        nth[i] = atan2(s, c) + eta * (mur_noise_u01(seed, t, (uint64_t)i, 0) - 0.5);
    }
    for (int i = 0; i < w->n; i++) {
        w->x[i] = wrapc(w->x[i] + w->sp[i] * cos(w->th[i]), w->W);
        w->y[i] = wrapc(w->y[i] + w->sp[i] * sin(w->th[i]), w->H);
        w->th[i] = nth[i];
        w->sp[i] = p->max_speed;
    }
}

/* Couzin 2002: repulsion within r_r overrides; else orientation (r_r to
 * r_o) and attraction (r_o to r_a, or the whole k set beyond r_o when
 * topological), each only inside the perception angle; a normal angular
 * error sd sigma; a turn of at most theta dt; x += s dt (new heading). */
static void couzin_tick(world *w, const mur_params *p, uint64_t seed, uint64_t t, int topo_k)
{
    static double nth[4096];
    double rr = p->separation_radius, ro = rr + p->orientation_width, ra = ro + p->attraction_width;
    for (int i = 0; i < w->n; i++) {
        int nb[4096], m = 0;
        if (topo_k) {
            m = nearest_k(w, i, topo_k, INFINITY, nb);
        } else {
            for (int j = 0; j < w->n; j++)
                if (j != i)
                    nb[m++] = j;
        }
        double rx = 0, ry = 0, ox = cos(w->th[i]), oy = sin(w->th[i]), ax = 0, ay = 0;
        int nr = 0, no = 0, na = 0;
        for (int a = 0; a < m; a++) {
            int j = nb[a];
            double dx, dy;
            off(w, i, j, &dx, &dy);
            double d = hypot(dx, dy);
            if (d == 0)
                continue;
            if (d < rr) {
                rx -= dx / d;
                ry -= dy / d;
                nr++;
            } else if (sees(w, i, dx, dy, p->fov) && d < ro) {
                ox += cos(w->th[j]);
                oy += sin(w->th[j]);
                no++;
            } else if (sees(w, i, dx, dy, p->fov) && (topo_k || d < ra)) {
                ax += dx / d;
                ay += dy / d;
                na++;
            }
        }
        double want;
        if (nr)
            want = atan2(ry, rx);
        else if (no && na)
            want = atan2(oy / hypot(ox, oy) + ay / hypot(ax, ay), ox / hypot(ox, oy) + ax / hypot(ax, ay));
        else if (no)
            want = atan2(oy, ox);
        else if (na)
            want = atan2(ay, ax);
        else
            want = w->th[i];
        double u0 = mur_noise_u01(seed, t, (uint64_t)i, 0), u1 = mur_noise_u01(seed, t, (uint64_t)i, 1);
        want += p->noise * sqrt(-2 * log(1 - u0)) * cos(2 * PI * u1);
        double turn = remainder(want - w->th[i], 2 * PI), most = p->turn_rate * p->dt * PI / 180;
        nth[i] = fabs(turn) <= most ? want : w->th[i] + (turn > 0 ? most : -most);
    }
    for (int i = 0; i < w->n; i++) {
        w->th[i] = nth[i];
        w->sp[i] = p->max_speed;
        w->x[i] = wrapc(w->x[i] + p->max_speed * cos(w->th[i]), w->W);
        w->y[i] = wrapc(w->y[i] + p->max_speed * sin(w->th[i]), w->H);
    }
}

/* wrkspc's rules (docs/model.md steps 1-7, combine normalize) on the k
 * nearest: separation over those closer than R_sep, alignment and
 * cohesion over all k. */
static void reynolds_topo_tick(world *w, const mur_params *p, int k)
{
    static double nvx[4096], nvy[4096];
    for (int i = 0; i < w->n; i++) {
        int nb[4096];
        int m = nearest_k(w, i, k, p->topological_radius, nb);
        double S[2] = {0, 0}, A[2] = {0, 0}, C[2] = {0, 0};
        int na = 0;
        for (int a = 0; a < m; a++) {
            int j = nb[a];
            double dx, dy;
            off(w, i, j, &dx, &dy);
            double d = hypot(dx, dy);
            if (!sees(w, i, dx, dy, p->fov))
                continue;
            if (d < p->separation_radius) {
                S[0] -= dx / pow(d, 1 + p->separation_falloff);
                S[1] -= dy / pow(d, 1 + p->separation_falloff);
            }
            A[0] += w->sp[j] * cos(w->th[j]);
            A[1] += w->sp[j] * sin(w->th[j]);
            C[0] += dx;
            C[1] += dy;
            na++;
        }
        double a[2] = {0, 0};
        const double *raw[3] = {S, A, C};
        double wg[3] = {p->separation * p->gain_separation, p->alignment * p->gain_alignment,
                        p->cohesion * p->gain_cohesion};
        for (int r = 0; r < 3; r++) {
            double l = hypot(raw[r][0], raw[r][1]);   /* a mean's unit vector is the sum's */
            if (l > 0) {
                a[0] += wg[r] * raw[r][0] / l;
                a[1] += wg[r] * raw[r][1] / l;
            }
        }
        (void)na;
        double la = hypot(a[0], a[1]);
        if (la > p->max_force) {
            a[0] *= p->max_force / la;
            a[1] *= p->max_force / la;
        }
        double vx = w->sp[i] * cos(w->th[i]) + a[0], vy = w->sp[i] * sin(w->th[i]) + a[1];
        double s = hypot(vx, vy), want = fmin(fmax(s, p->min_speed), p->max_speed);
        nvx[i] = vx * want / s;
        nvy[i] = vy * want / s;
    }
    for (int i = 0; i < w->n; i++) {
        w->x[i] = wrapc(w->x[i] + nvx[i], w->W);
        w->y[i] = wrapc(w->y[i] + nvy[i], w->H);
        w->th[i] = atan2(nvy[i], nvx[i]);
        w->sp[i] = hypot(nvx[i], nvy[i]);
    }
}

/* Largest difference between the flock and the literal world (positions by
 * nearest image, velocities as v (cos theta, sin theta)). */
static double gap(const mur_flock *f, const world *w)
{
    double worst = 0;
    for (int i = 0; i < w->n; i++) {
        double dx = mur_flock_x(f)[i] - w->x[i], dy = mur_flock_y(f)[i] - w->y[i];
        if (w->W > 0) {
            dx -= w->W * round(dx / w->W);
            dy -= w->H * round(dy / w->H);
        }
        double ex = mur_flock_vx(f)[i] - w->sp[i] * cos(w->th[i]);
        double ey = mur_flock_vy(f)[i] - w->sp[i] * sin(w->th[i]);
        worst = fmax(worst, fmax(fmax(fabs(dx), fabs(dy)), fmax(fabs(ex), fabs(ey))));
    }
    return worst;
}

enum { VICSEK, COUZIN, REYNOLDS_TOPO };

/* Both for 50 ticks from the flock's start; the worst gap. */
static double against_literal(mur_params p, int model, int topo_k, uint64_t seed, int brute)
{
    mur_flock *f = make(&p, seed);
    mur_flock_set_brute_force(f, brute);
    world *w = load(f, p.boundary == MUR_BOUNDARY_WRAP);
    double worst = 0;
    for (int t = 0; t < 50; t++) {
        if (model == VICSEK)
            vicsek_tick(w, mur_flock_params(f), seed, (uint64_t)t, topo_k);
        else if (model == COUZIN)
            couzin_tick(w, mur_flock_params(f), seed, (uint64_t)t, topo_k);
        else
            reynolds_topo_tick(w, mur_flock_params(f), topo_k);
        mur_flock_step(f);
        worst = fmax(worst, gap(f, w));
    }
    free(w);
    mur_flock_destroy(f);
    return worst;
}

TEST(vicsek_metric_follows_eqs_1_and_2)
{
    mur_params p = preset("vicsek");
    p.count = 300;
    p.density = 6;   /* a side of ~7: many neighbours, and the seam */
    mur_params_resolve(&p);
    for (int noise = 0; noise < 3; noise++) {
        p.noise = noise * 2.0;
        for (int brute = 0; brute < 2; brute++) {
            double g = against_literal(p, VICSEK, 0, 11, brute);
            CHECK(g < 1e-9, "eta %g brute %d: gap %g", p.noise, brute, g);
        }
    }
}

TEST(vicsek_topological_follows_the_k_nearest)
{
    mur_params p = preset("vicsek");
    p.count = 300;
    p.neighbours = MUR_NEIGHBOURS_TOPOLOGICAL;
    p.noise = 1;
    int ks[] = {1, 7, 20};
    for (int a = 0; a < 3; a++) {
        p.topological_k = ks[a];
        for (int brute = 0; brute < 2; brute++) {
            double g = against_literal(p, VICSEK, ks[a], 12, brute);
            CHECK(g < 1e-9, "k %d brute %d: gap %g", ks[a], brute, g);
        }
    }
}

TEST(couzin_metric_follows_the_zones)
{
    mur_params p = preset("couzin");
    double widths[] = {0, 2, 6, 13};
    for (int a = 0; a < 4; a++) {
        p.orientation_width = widths[a];
        for (int brute = 0; brute < 2; brute++) {
            double g = against_literal(p, COUZIN, 0, 13, brute);
            CHECK(g < 1e-9, "orientation width %g brute %d: gap %g", widths[a], brute, g);
        }
    }
}

TEST(couzin_topological_and_wrapped_follow_the_zones)
{
    mur_params p = preset("couzin");
    p.neighbours = MUR_NEIGHBOURS_TOPOLOGICAL;
    p.topological_k = 7;
    double g = against_literal(p, COUZIN, 7, 14, 0);
    CHECK(g < 1e-9, "open, topological: gap %g", g);
    p.boundary = MUR_BOUNDARY_WRAP;   /* on a torus of the same area */
    p.density = 1.5;
    p.count = 200;
    mur_params_resolve(&p);
    g = against_literal(p, COUZIN, 7, 15, 0);
    CHECK(g < 1e-9, "wrap, topological: gap %g", g);
    p.neighbours = MUR_NEIGHBOURS_METRIC;
    g = against_literal(p, COUZIN, 0, 15, 0);
    CHECK(g < 1e-9, "wrap, metric: gap %g", g);
}

TEST(reynolds_on_the_k_nearest_follows_the_rules)
{
    mur_params p = preset("topological");
    p.count = 400;
    for (int cap = 0; cap < 2; cap++) {
        p.topological_radius = cap ? 30 : MUR_MAX_WORLD;
        p.fov = cap ? 270 : 360;
        for (int brute = 0; brute < 2; brute++) {
            double g = against_literal(p, REYNOLDS_TOPO, 7, 16, brute);
            CHECK(g < 1e-9, "cap %d brute %d: gap %g", cap, brute, g);
        }
    }
}

/* On a square lattice every shell of neighbours is an exact tie: k = 6
 * takes the 4 at distance 1 and 2 of the 4 diagonals, the lower indices. */
TEST(topological_ties_go_to_the_lower_index)
{
    mur_params p = preset("vicsek");
    p.density = 0;
    p.width = p.height = 12;
    p.count = 144;
    p.neighbours = MUR_NEIGHBOURS_TOPOLOGICAL;
    p.noise = 0;
    mur_flock *f = make(&p, 3);
    double x[144], y[144], vx[144], vy[144];
    for (int i = 0; i < 144; i++) {
        /* scrambled indices, so that the lower index is not the first cell's */
        int c = (i * 89) % 144;
        x[i] = c % 12 + 0.5;
        y[i] = c / 12 + 0.5;
        double a = 2 * PI * mur_noise_u01(99, 0, (uint64_t)i, 0);
        vx[i] = 0.03 * cos(a);
        vy[i] = 0.03 * sin(a);
    }
    mur_error err;
    REQUIRE(!mur_flock_set_state(f, 144, x, y, vx, vy, &err), "%s", err.msg);
    int ks[] = {3, 4, 6, 10, 13};
    for (int a = 0; a < 5; a++) {
        p.topological_k = ks[a];
        REQUIRE(!mur_flock_set_params(f, &p, &err), "%s", err.msg);
        REQUIRE(!mur_flock_set_state(f, 144, x, y, vx, vy, &err), "%s", err.msg);
        world *w = load(f, 1);
        vicsek_tick(w, &p, 3, 0, ks[a]);
        mur_flock_step(f);
        double g = gap(f, w);
        CHECK(g < 1e-12, "k %d: gap %g", ks[a], g);
        free(w);
    }
    mur_flock_destroy(f);
}

static uint64_t hash_state(const mur_flock *f)
{
    uint64_t h = 1469598103934665603ULL;
    const double *arr[4] = {mur_flock_x(f), mur_flock_y(f), mur_flock_vx(f), mur_flock_vy(f)};
    for (int a = 0; a < 4; a++)
        for (int i = 0; i < mur_flock_count(f); i++) {
            uint64_t b;
            memcpy(&b, &arr[a][i], sizeof b);
            h = (h ^ b) * 1099511628211ULL;
        }
    return h;
}

TEST(every_kind_gives_the_same_bytes_on_1_2_3_and_8_threads)
{
    const char *names[] = {"vicsek", "couzin", "topological"};
    for (int a = 0; a < 3; a++) {
        for (int variant = 0; variant < 2; variant++) {
            mur_params p = preset(names[a]);
            p.count = 20000;
            if (p.density == 0) {
                p.width *= sqrt(p.count / 160.0);
                p.height *= sqrt(p.count / 160.0);
            }
            if (variant)   /* the other neighbour kind, and another motion */
                p.neighbours = p.neighbours ? MUR_NEIGHBOURS_METRIC : MUR_NEIGHBOURS_TOPOLOGICAL,
                p.motion = p.motion == MUR_MOTION_TURN ? MUR_MOTION_SET : MUR_MOTION_TURN;
            mur_params_resolve(&p);
            uint64_t first = 0;
            int threads[] = {1, 2, 3, 8};
            for (int t = 0; t < 4; t++) {
                mur_flock *f = make(&p, 5);
                mur_error err;
                REQUIRE(!mur_flock_set_threads(f, threads[t], &err), "%s", err.msg);
                for (int k = 0; k < 20; k++)
                    mur_flock_step(f);
                uint64_t h = hash_state(f);
                if (t == 0)
                    first = h;
                CHECK(h == first, "%s variant %d: %d threads differ", names[a], variant, threads[t]);
                mur_flock_destroy(f);
            }
        }
    }
}

/* An open world: nothing wraps; the grid over the boids' box keeps up
 * with a flock that flies far from where it started. */
TEST(an_open_world_grid_agrees_with_brute_force_far_from_the_start)
{
    mur_params p = preset("couzin");
    p.orientation_width = 13;   /* highly parallel: the group flies off */
    p.count = 300;
    mur_params_resolve(&p);
    mur_flock *a = make(&p, 21), *b = make(&p, 21);
    mur_flock_set_brute_force(b, 1);
    double worst = 0, far = 0;
    mur_error err;
    for (int t = 0; t < 600; t++) {
        /* each tick from the same state: rounding in the sums' order must
         * not get the chance to grow */
        REQUIRE(!mur_flock_set_state(b, p.count, mur_flock_x(a), mur_flock_y(a), mur_flock_vx(a),
                                     mur_flock_vy(a), &err), "%s", err.msg);
        mur_flock_set_tick(b, mur_flock_tick(a));
        mur_flock_step(a);
        mur_flock_step(b);
        for (int i = 0; i < p.count; i++) {
            worst = fmax(worst, fabs(mur_flock_x(a)[i] - mur_flock_x(b)[i]));
            far = fmax(far, fabs(mur_flock_x(a)[i]));
        }
    }
    CHECK(worst < 1e-9, "grid and brute force differ by %g", worst);
    CHECK(far > 3 * p.width, "the group stayed within %g of the start", far);
    mur_flock_destroy(a);
    mur_flock_destroy(b);
}

TEST(a_sweep_over_count_keeps_the_density)
{
    mur_params p = preset("vicsek");
    const mur_setting *count = mur_setting_find("count");
    mur_setting_put(count, &p, 4000);
    CHECK(fabs(p.width - sqrt(1000)) < 1e-12 && p.width == p.height, "side %g", p.width);
    mur_setting_put(mur_setting_find("width"), &p, 50);
    CHECK(p.density == 0 && p.width == 50, "a width given replaces the density");
}

TEST(the_kinds_table_documents_every_choice)
{
    const char *axes[] = {"neighbours", "interaction", "motion"};
    for (int a = 0; a < 3; a++) {
        const mur_setting *st = mur_setting_find(axes[a]);
        REQUIRE(st && st->type == MUR_SETTING_ENUM, "%s", axes[a]);
        for (int c = 0; st->choices[c]; c++) {
            const mur_kind *k = mur_kind_find(axes[a], st->choices[c]);
            CHECK(k && k->value == c && k->summary[0], "%s: %s has no row", axes[a], st->choices[c]);
            for (int j = 0; k && j < MUR_KIND_KEYS && k->keys[j]; j++) {
                const mur_setting *ks = mur_setting_find(k->keys[j]);
                CHECK(ks && ks->kind && !strcmp(ks->kind, k->name), "%s: key %s", k->name, k->keys[j]);
                /* every preset not of the kind carries the kind's default */
                for (int i = 0; ks && i < mur_preset_count(); i++) {
                    const mur_params *pp = &mur_preset_at(i)->params;
                    if (!mur_setting_active(ks, pp))
                        CHECK(mur_setting_get(ks, pp) == k->defaults[j], "%s: %s default",
                              mur_preset_at(i)->name, k->keys[j]);
                }
            }
        }
    }
}

TEST(bad_family_input_is_refused_naming_the_line)
{
    expect_refusal("model: wrkspc\nflock:\n  neighbours: {topological: {k: 0}}\n", "t.yaml:3:",
                   "'topological_k' = 0 is out of range [1,");
    expect_refusal("model: topological\nflock:\n  count: 10\n  topological_k: 10\n", "t.yaml:3:",
                   "must be below the flock's count (10)");
    expect_refusal("model: vicsek\nflock:\n  noise: 7\n", "t.yaml:3:", "[0, 2 pi");
    expect_refusal("model: couzin\nflock:\n  orientation_width: -1\n", "t.yaml:3:",
                   "orientation_width");
    expect_refusal("model: couzin\nflock:\n  turn_rate: 0\n", "t.yaml:3:", "turn_rate = 0 must be above 0");
    expect_refusal("model: wrkspc\nflock:\n  neighbours: {topological: {radius: 0}}\n", "t.yaml:3:",
                   "must be above 0");
    expect_refusal("model: wrkspc\nflock:\n  orientation_width: 3\n", "t.yaml:3:3",
                   "choose interaction: couzin");
    expect_refusal("model: vicsek\nflock:\n  separation: 1\n", "t.yaml:3:3", "choose interaction: reynolds");
    expect_refusal("model: couzin\nflock:\n  neighbours: {metric: 1}\n", "t.yaml:3:", "topological");
    expect_refusal("model: lab\nflock:\n  motion: turn\n", "t.yaml:3:", "update: sequential needs");
    expect_refusal("world: {density: 4, width: 30}\n", "t.yaml:1:", "not both");
    expect_refusal("model: couzin\nworld: {boundary: open}\nexperiment:\n  twin: {shift: [1, 0]}\n",
                   "t.yaml:", "wrapping world");
}

TEST(a_kinds_key_under_another_kind_is_refused_in_the_timeline_and_conditions)
{
    /* a timeline entry's set and ramp, an experiment condition: the line of the key */
    expect_refusal("model: wrkspc\ntimeline:\n  - at: 1s\n    set: {orientation_width: 3}\n", "t.yaml:4:11",
                   "choose interaction: couzin");
    expect_refusal("model: wrkspc\ntimeline:\n  - at: 1s\n    over: 1s\n    ramp: {orientation_width: 3}\n",
                   "t.yaml:5:12", "(interaction: reynolds | vicsek | couzin | starling)");
    expect_refusal("model: wrkspc\nexperiment:\n  conditions:\n    wide: {orientation_width: 3}\n",
                   "t.yaml:4:12", "choose interaction: couzin");
    expect_refusal("model: couzin\nexperiment:\n  conditions:\n    a: {interaction: vicsek, attraction_width: 3}\n",
                   "t.yaml:4:30", "this flock's interaction is vicsek");
    expect_refusal("model: wrkspc\ntimeline:\n  - at: 1s\n    set: {turn_rate: 30}\n", "t.yaml:4:11",
                   "choose motion: turn");
    /* chosen where it is set, by another entry, or by a condition: loads */
    const char *ok[] = {
        "model: wrkspc\ntimeline:\n  - at: 1s\n    set: {interaction: couzin, orientation_width: 3}\n",
        "model: wrkspc\ntimeline:\n  - at: 1s\n    set: {motion: turn}\n  - at: 2s\n    ramp: {turn_rate: 30}\n"
        "    over: 1s\n",
        "model: wrkspc\nexperiment:\n  conditions:\n    a: {interaction: couzin, orientation_width: 3}\n",
        "model: wrkspc\ntimeline:\n  - at: 1s\n    set: {motion: turn}\n"
        "experiment:\n  conditions:\n    a: {turn_rate: 30}\n",
        "model: wrkspc\ntimeline:\n  - at: 1s\n    set: {turn_rate: 30}\n"
        "experiment:\n  conditions:\n    a: {motion: turn}\n",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        mur_scene *s = scene_of(ok[i]);
        CHECK(s, "scene %zu loads", i);
        mur_scene_destroy(s);
    }
}

TEST(family_scene_keys_load_and_change_on_the_timeline)
{
    mur_scene *s = scene_of("model: wrkspc\nflock:\n  neighbours: {topological: {k: 5, radius: 90}}\n"
                            "  motion: turn\n  turn_rate: 120\n"
                            "timeline:\n  - at: 1s\n    set: {topological_k: 3}\n"
                            "  - at: 2s\n    ramp: {turn_rate: 30}\n    over: 1s\n");
    REQUIRE(s, "loads");
    CHECK(s->params.neighbours == MUR_NEIGHBOURS_TOPOLOGICAL && s->params.topological_k == 5 &&
              s->params.topological_radius == 90 && s->params.motion == MUR_MOTION_TURN,
          "settings");
    mur_scene_destroy(s);
    s = scene_of("model: vicsek\nworld: {density: 2}\nflock: {count: 800}\n");
    REQUIRE(s, "loads");
    CHECK(s->params.width == 20 && s->params.height == 20, "side %g", s->params.width);
    mur_scene_destroy(s);
}
