/* model: starling's escape and its waves (docs/model.md "Escapes and
 * waves"): no wave without a predator; a falcon's zig copied from bird to
 * bird until birds far from the falcon roll; the wave's speed the same at
 * 2,000 and 8,000 birds within its spread over seeds; the same bits on any
 * thread count; escape off the bits of before; the new keys' bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bad_scene.h"
#include "cli_util.h"
#include "flock_util.h"
#include "harness.h"
#include "murmur/flock.h"
#include "murmur/metrics.h"
#include "murmur/presets.h"

#define PI 3.14159265358979323846

/* The starling preset of n birds with the escape on (StarDisplay's Lua
 * Zig's 10 m) or off. */
static mur_params starling(int n, int escape)
{
    const mur_preset *p = mur_preset_find("starling");
    if (!p)
        abort();
    mur_params q = p->params;
    q.count = n;
    q.escape_radius = escape ? 10 : 0;
    return q;
}

/* A flock started as StarDisplay's: a ball of radius 1.5 n^(1/3) m over the
 * roost, heading east at the cruise speed. */
static mur_flock *make_ball(const mur_params *p, uint64_t seed)
{
    mur_flock *f = make(p, seed);
    mur_error err;
    mur_start_group g;
    memset(&g, 0, sizeof g);
    g.count = p->count;
    g.region = MUR_REGION_BALL;
    g.cx = 150, g.cy = 80, g.cz = 100, g.radius = 1.5 * cbrt(p->count);
    g.speed_min = g.speed_max = p->cruise_speed * p->dt;
    if (mur_flock_set_start(f, &g, 1, &err)) {
        fprintf(stderr, "start: %s\n", err.msg);
        abort();
    }
    return f;
}

/* A falcon just ahead of the flock's leading bird (most east), at *at,
 * for `ticks` ticks, then gone: it only frightens (no flight from it
 * beyond its 1 m), so what spreads is the zig and its copies. */
static void falcon_passes(mur_flock *f, int ticks, double at[3])
{
    int n = mur_flock_count(f), lead = 0;
    for (int i = 1; i < n; i++)
        if (mur_flock_x(f)[i] > mur_flock_x(f)[lead])
            lead = i;
    at[0] = mur_flock_x(f)[lead] + 3, at[1] = mur_flock_y(f)[lead], at[2] = mur_flock_z(f)[lead];
    mur_predator pr = {.x = at[0], .y = at[1], .z = at[2], .radius = 1, .strength = 1e-6};
    mur_flock_set_predators(f, &pr, 1);
    step(f, ticks);
    mur_flock_set_predators(f, NULL, 0);
}

/* Bird i's roll from level, degrees: its up against the world's up made
 * normal to its heading. */
static double roll_deg(const mur_flock *f, int i)
{
    double v[3] = {mur_flock_vx(f)[i], mur_flock_vy(f)[i], mur_flock_vz(f)[i]};
    const double *u = mur_flock_up(f) + 3 * i;
    double h = hypot(v[0], v[1]), l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(h > 0))
        return 0;
    double hs[3] = {v[1] / h, -v[0] / h, 0};   /* unit(f x z) */
    double e[3] = {v[0] / l, v[1] / l, v[2] / l};
    double hu[3] = {hs[1] * e[2] - hs[2] * e[1], hs[2] * e[0] - hs[0] * e[2], hs[0] * e[1] - hs[1] * e[0]};
    return fabs(atan2(u[0] * hs[0] + u[1] * hs[1] + u[2] * hs[2], u[0] * hu[0] + u[1] * hu[1] + u[2] * hu[2])) *
           180 / PI;
}

static void wave_of(const mur_flock *f, double *speed, double *birds)
{
    mur_metrics_ctx *m = mur_metrics_ctx_create();
    mur_metrics out;
    unsigned want = 1u << MUR_METRIC_WAVE_SPEED | 1u << MUR_METRIC_WAVE_BIRDS;
    if (!m || mur_metrics_compute_some(m, f, want, &out))
        abort();
    *speed = out.wave_speed, *birds = out.wave_birds;
    mur_metrics_ctx_destroy(m);
}

TEST(no_wave_without_a_predator)
{
    mur_params p = starling(1000, 1);
    mur_flock *f = make_ball(&p, 2);
    double speed = 0, birds = 0;
    for (int s = 0; s < 6; s++) {
        step(f, 100);
        wave_of(f, &speed, &birds);
        CHECK(isnan(speed) && isnan(birds), "at %.1f s without a predator: a wave of %g birds at %g m/s",
              0.5 * (s + 1), birds, speed);
    }
    mur_flock_destroy(f);
}

/* The birds' largest roll over 2 s after a falcon passes, for the birds
 * more than `far` m from it (their share of the flock in *share), as the
 * median over them; *birds the wave's. */
static double far_roll(int escape, uint64_t seed, double far, double *share, double *birds)
{
    mur_params p = starling(1500, escape);
    mur_flock *f = make_ball(&p, seed);
    step(f, 400);   /* 2 s: the ball settles into a flock */
    double at[3];
    falcon_passes(f, 20, at);
    int n = mur_flock_count(f), m = 0;
    int *away = malloc((size_t)n * sizeof *away);
    double *most = calloc((size_t)n, sizeof *most);
    if (!away || !most)
        abort();
    for (int i = 0; i < n; i++) {
        double d[3] = {mur_flock_x(f)[i] - at[0], mur_flock_y(f)[i] - at[1], mur_flock_z(f)[i] - at[2]};
        if (sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) > far)
            away[m++] = i;
    }
    for (int t = 0; t < 400; t++) {
        step(f, 1);
        for (int k = 0; k < m; k++)
            most[k] = fmax(most[k], roll_deg(f, away[k]));
    }
    double speed;
    wave_of(f, &speed, birds);
    *share = (double)m / n;
    for (int a = 1; a < m; a++)   /* the median: sorted by insertion */
        for (int b = a; b > 0 && most[b] < most[b - 1]; b--) {
            double t = most[b];
            most[b] = most[b - 1], most[b - 1] = t;
        }
    double med = m ? most[m / 2] : NAN;
    free(away);
    free(most);
    mur_flock_destroy(f);
    return med;
}

/* A falcon at the flock's front for 0.1 s: with the escape on, the birds
 * more than 25 m from it (2.5 escape radii: none of them saw it) roll
 * because their neighbours did; with it off they fly on level. */
TEST(a_falcon_sets_off_a_wave_that_rolls_birds_far_from_it)
{
    for (uint64_t seed = 1; seed <= 2; seed++) {
        double share_on, share_off, birds_on, birds_off;
        double on = far_roll(1, seed, 25, &share_on, &birds_on), off = far_roll(0, seed, 25, &share_off, &birds_off);
        printf("  seed %d: %.0f%% of the birds over 25 m away; their median largest roll %.1f deg escaping, "
               "%.1f deg not; the wave %g birds\n",
               (int)seed, 100 * share_on, on, off, birds_on);
        CHECK(share_on > 0.2, "only %g of the flock is over 25 m from the falcon", share_on);
        CHECK(on > 20 && on > 3 * off, "far birds roll %g deg with the escape, %g without", on, off);
        CHECK(birds_on > 0.85 * 1500, "the wave reached %g birds of 1500", birds_on);
        CHECK(isnan(birds_off), "a wave of %g birds with the escape off", birds_off);
    }
}

/* The wave's speed after a falcon at the front, n birds, seed s. */
static double wave_speed_of(int n, uint64_t seed, double *birds)
{
    mur_params p = starling(n, 1);
    mur_flock *f = make_ball(&p, seed);
    step(f, 400);
    double at[3], speed;
    falcon_passes(f, 20, at);
    step(f, 600);   /* 3 s: the wave has crossed the flock */
    wave_of(f, &speed, birds);
    mur_flock_destroy(f);
    return speed;
}

/* Hemelrijk et al. 2015: the wave's speed does not depend on flock size.
 * Five seeds at 2,000 and at 8,000 birds, each 2 s after a start as
 * StarDisplay's: the two means differ by less than the larger of the two
 * sizes' ranges over seeds (the spread). Measured: 24.6-28.4 m/s (mean
 * 26.6) at 2,000 and 23.2-26.3 m/s (mean 24.9) at 8,000. */
TEST(the_wave_speed_does_not_depend_on_flock_size)
{
    enum { SEEDS = 5 };
    const int size[2] = {2000, 8000};
    double mean[2], range[2];
    for (int k = 0; k < 2; k++) {
        double lo = INFINITY, hi = -INFINITY, sum = 0;
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            double birds, v = wave_speed_of(size[k], seed, &birds);
            printf("  %d birds, seed %d: wave speed %.2f m/s, %g birds\n", size[k], (int)seed, v, birds);
            CHECK(isfinite(v) && v > 0, "%d birds, seed %d: no wave speed (%g)", size[k], (int)seed, v);
            CHECK(birds > 0.5 * size[k], "%d birds, seed %d: the wave reached %g", size[k], (int)seed, birds);
            lo = fmin(lo, v), hi = fmax(hi, v), sum += v;
        }
        mean[k] = sum / SEEDS, range[k] = hi - lo;
    }
    double spread = fmax(range[0], range[1]);
    printf("  means %.2f and %.2f m/s, ranges %.2f and %.2f m/s\n", mean[0], mean[1], range[0], range[1]);
    CHECK(fabs(mean[0] - mean[1]) <= spread, "the means %g and %g m/s differ by more than the spread %g",
          mean[0], mean[1], spread);
}

/* The state's bits: positions, velocities and up vectors, FNV-1a. */
static unsigned long long state_hash(const mur_flock *f)
{
    unsigned long long h = 1469598103934665603ull;
    int n = mur_flock_count(f);
    const double *a[6] = {mur_flock_x(f), mur_flock_y(f), mur_flock_z(f), mur_flock_vx(f), mur_flock_vy(f),
                          mur_flock_vz(f)};
    for (int k = 0; k < 7; k++)
        for (int i = 0; i < (k < 6 ? n : 3 * n); i++) {
            double v = k < 6 ? a[k][i] : mur_flock_up(f)[i];
            unsigned char b[sizeof v];
            memcpy(b, &v, sizeof v);
            for (size_t c = 0; c < sizeof v; c++)
                h = (h ^ b[c]) * 1099511628211ull;
        }
    return h;
}

/* 400 birds, 1 s, then a falcon among them for 1 s, with escape_radius 0
 * and the other escape settings as given. */
static unsigned long long off_run(double force, int copy, int threads)
{
    mur_params p = starling(400, 0);
    p.escape_force = force, p.copy_neighbours = copy;
    mur_flock *f = make_ball(&p, 5);
    mur_error err;
    if (threads > 1 && mur_flock_set_threads(f, threads, &err))
        abort();
    step(f, 200);
    mur_predator pr = {.x = 150, .y = 90, .z = 100, .radius = 20, .strength = 0.0005};
    mur_flock_set_predators(f, &pr, 1);
    step(f, 200);
    unsigned long long h = state_hash(f);
    mur_flock_destroy(f);
    return h;
}

/* Escape off (escape_radius 0, the preset's): the bits of the commit
 * before the escape (the hash pinned from it), whatever the other escape
 * settings say. */
TEST(escape_off_gives_the_bits_of_before)
{
    const unsigned long long before = 0x3ce81d2759056176ull;   /* main at b1b06a7, the same run */
    unsigned long long h = off_run(1, 7, 1);
    printf("  hash %016llx\n", h);
    CHECK(h == before, "escape off: hash %016llx, before %016llx", h, before);
    CHECK(off_run(5, 3, 1) == h, "the escape's other settings changed a flock whose escape is off");
}

/* The escape reads its neighbours' zigs of earlier ticks only: the same
 * bits on 1, 2, 3 and 8 threads, through a wave. */
TEST(waves_are_the_same_bits_on_1_2_3_and_8_threads)
{
    const int threads[4] = {1, 2, 3, 8};
    unsigned long long h[4];
    double birds[4];
    for (int k = 0; k < 4; k++) {
        mur_params p = starling(1200, 1);
        mur_flock *f = make_ball(&p, 8);
        mur_error err;
        if (threads[k] > 1 && mur_flock_set_threads(f, threads[k], &err))
            abort();
        step(f, 200);
        double at[3], speed;
        falcon_passes(f, 20, at);
        step(f, 200);
        wave_of(f, &speed, &birds[k]);
        h[k] = state_hash(f);
        mur_flock_destroy(f);
    }
    CHECK(birds[0] > 100, "no wave to compare: %g birds", birds[0]);
    for (int k = 1; k < 4; k++)
        CHECK(h[k] == h[0] && birds[k] == birds[0], "%d threads: %016llx (%g birds), 1 thread %016llx (%g)",
              threads[k], h[k], birds[k], h[0], birds[0]);
}

/* A starling scene whose flock block is `flock` (its first key at line 4)
 * exits 2 naming file:line:column and the words. */
static void expect_bad_flock(const char *name, const char *flock, const char *where, const char *words)
{
    char text[1024];
    snprintf(text, sizeof text,
             "model: starling\nworld: {dimensions: 3, width: 300, height: 300, depth: 200, boundary: open}\n"
             "flock:\n%s",
             flock);
    expect_bad(name, text, where, words);
}

TEST(bad_escape_settings_exit_2_naming_the_line)
{
    expect_bad_flock("radius.yaml", "  count: 50\n  escape_radius: -1\n", "5:18:", "out of range");
    expect_bad_flock("force.yaml", "  count: 50\n  escape_force: 1e9\n", "5:17:", "out of range");
    expect_bad_flock("away.yaml", "  escape_away: -0.1\n", "4:16:", "out of range");
    expect_bad_flock("copy.yaml", "  copy_neighbours: 21\n", "4:20:", "out of range");
    expect_bad_flock("count.yaml", "  copy_neighbours: 2.5\n", "4:20:", "whole");
    expect_bad_flock("latency.yaml", "  copy_latency: -1\n", "4:17:", "out of range");
    expect_bad_flock("time.yaml", "  escape_radius: 10\n  escape_time: 0.3\n", "4:3:", "escape_time = 0.3 must be at least");
}
