/* The chaos twins (experiment.twin): a half-box shift starts at rounding
 * and grows with a finite doubling time, a zero shift stays exactly zero,
 * a twin's predators move with it, the growth fit and the censored
 * summary against hand-made series, the stats and series outputs, bad
 * input, and the ghost a render draws. */
#include <cairo.h>
#include <math.h>
#include <unistd.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/divergence.h"
#include "murmur/experiment.h"
#include "murmur/session.h"
#include "murmur/stats.h"
#include "murmur/twin.h"
#include "scene_util.h"

/* The chaos scene's flock (wrkspc, 160 boids in 480 x 320) with `twin`
 * and extra lines (predators, a timeline) as given. */
static mur_scene *twin_scene(const char *twin, const char *extra, int runs, int ticks)
{
    char text[2048];
    snprintf(text, sizeof text,
             "seed: 7\nmodel: wrkspc\n"
             "world: {width: 480, height: 320, boundary: wrap}\n"
             "flock: {count: 160}\n"
             "video: {width: 240, height: 160, duration: 1s}\n"
             "%s"
             "experiment: {runs: %d, ticks: %d, twin: %s, metrics: [order]}\n",
             extra, runs, ticks, twin);
    return scene_of(text);
}

TEST(half_box_twin_starts_at_rounding_and_doubles_in_finite_time)
{
    mur_scene *s = twin_scene("{shift: half-box}", "", 3, 700);
    REQUIRE(s, "scene");
    mur_experiment *e = experiment_of(s, 0);
    REQUIRE(e, "experiment");
    for (int r = 0; r < 3; r++) {
        const mur_twin_record *t0 = mur_experiment_twin(e, 0, r, 0);
        CHECK(t0->divergence.rms < 1e-9 && t0->divergence.max < 1e-9, "run %d starts %g apart (max %g)", r,
              t0->divergence.rms, t0->divergence.max);
        const mur_twin_result *res = mur_experiment_twin_result(e, 0, r);
        double dt = res->value[0];
        CHECK(isfinite(dt) && dt > 0, "run %d: doubling time %g", r, dt);
        CHECK(res->growth.first >= 0 && res->growth.last > res->growth.first, "run %d: range %ld..%ld", r,
              res->growth.first, res->growth.last);
        /* the twins do part: the rounding grows past 1e-5 within 700 ticks */
        CHECK(isfinite(res->value[2]), "run %d never reached 1e-5", r);
    }
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
}

/* Determinism: the twin is made exactly as its run, so with nothing moved
 * it is that run, bit for bit, every tick (tick, noise and PRNG included:
 * the scene has noise and a scatter). */
TEST(zero_shift_twin_stays_exactly_zero_for_1000_ticks)
{
    mur_scene *s = scene_of("seed: 7\nmodel: wrkspc\n"
                            "world: {width: 480, height: 320, boundary: wrap}\n"
                            "flock: {count: 160, noise: 0.05}\n"
                            "video: {width: 240, height: 160, duration: 20s, warmup: 30t}\n"
                            "timeline:\n  - at: 5s\n    event: scatter\n"
                            "experiment: {runs: 2, ticks: 1000, twin: {shift: [0, 0]}, metrics: [order]}\n");
    REQUIRE(s, "scene");
    mur_experiment *e = experiment_of(s, 1);
    REQUIRE(e, "experiment");
    long nonzero = 0, first = -1;
    for (int r = 0; r < 2; r++)
        for (long t = 0; t <= 1000; t++) {
            const mur_twin_record *w = mur_experiment_twin(e, 0, r, t);
            if (w->divergence.rms != 0 || w->divergence.max != 0 ||
                w->twin_order != mur_experiment_metrics(e, 0, r, t)->order) {
                nonzero++;
                if (first < 0)
                    first = t;
            }
        }
    CHECK(nonzero == 0, "%ld ticks with a divergence, the first at tick %ld", nonzero, first);
    CHECK(isinf(mur_experiment_twin_result(e, 0, 0)->value[0]), "no growth must be censored, not %g",
          mur_experiment_twin_result(e, 0, 0)->value[0]);
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
}

/* The twin starts from the scene's own start (flock.start, applied by the
 * driver), not from a uniform flock of the same seed. */
TEST(a_twin_starts_from_the_scenes_shaped_start)
{
    mur_scene *s = scene_of("seed: 7\nmodel: wrkspc\n"
                            "world: {width: 480, height: 320, boundary: wrap}\n"
                            "flock: {count: 160, start: {disc: {center: [100, 100], radius: 30}}}\n"
                            "video: {width: 240, height: 160, duration: 1s}\n"
                            "experiment: {runs: 2, ticks: 20, twin: {shift: half-box}, metrics: [order]}\n");
    REQUIRE(s, "scene");
    mur_experiment *e = experiment_of(s, 0);
    REQUIRE(e, "experiment");
    for (int r = 0; r < 2; r++)
        CHECK(mur_experiment_twin(e, 0, r, 20)->divergence.max < 1e-9, "run %d: %g apart after 20 ticks", r,
              mur_experiment_twin(e, 0, r, 20)->divergence.max);
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
}

/* A predator fixed in the world would meet the shifted twin elsewhere:
 * the twin's predators move with it, so the pair still starts as one. */
TEST(a_shifted_twins_predators_move_with_it)
{
    mur_scene *s = twin_scene("{shift: half-box}",
                              "predators:\n  - mode: flee\n    radius: 120\n    strength: 0.8\n"
                              "    x: \"100 + 60*t\"\n    y: \"80\"\n",
                              1, 60);
    REQUIRE(s, "scene");
    mur_experiment *e = experiment_of(s, 0);
    REQUIRE(e, "experiment");
    double d = mur_experiment_twin(e, 0, 0, 60)->divergence.max;
    CHECK(d < 1e-6, "with a predator the twins are %g apart after 60 ticks", d);
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
}

TEST(perturbed_twin_starts_the_perturbation_apart)
{
    mur_scene *s = twin_scene("{perturb: 1e-6}", "", 1, 5);
    REQUIRE(s, "scene");
    mur_experiment *e = experiment_of(s, 0);
    REQUIRE(e, "experiment");
    const mur_twin_record *w = mur_experiment_twin(e, 0, 0, 0);
    CHECK(fabs(w->divergence.rms - 1e-6) < 1e-9 && fabs(w->divergence.max - 1e-6) < 1e-9,
          "rms %.17g max %.17g", w->divergence.rms, w->divergence.max);
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
}

/* ---- the fit and the summary --------------------------------------------- */

TEST(growth_fit_finds_the_doubling_time_of_an_exponential)
{
    /* rounding-level plateau, a clean exponential doubling every 10 ticks
     * from 1e-11, then saturation at 50 */
    double d[400];
    for (int t = 0; t < 400; t++)
        d[t] = t < 20 ? 1e-14 : fmin(1e-11 * pow(2, (t - 20) / 10.0), 50);
    mur_growth g;
    mur_growth_fit(d, 400, &g);
    CHECK(fabs(g.doubling_time - 10) < 1e-6, "doubling time %.9g (range %ld..%ld)", g.doubling_time, g.first,
          g.last);
    CHECK(d[g.first] >= MUR_GROWTH_FLOOR && d[g.last] < MUR_GROWTH_CEILING && d[g.last + 1] >= MUR_GROWTH_CEILING,
          "range %ld..%ld", g.first, g.last);
    CHECK(mur_divergence_first_reaching(d, 400, 1e-9) == 20 + (long)ceil(10 * log2(100)),
          "first reaching 1e-9: %ld", mur_divergence_first_reaching(d, 400, 1e-9));
    CHECK(mur_divergence_first_reaching(d, 400, 100) == -1, "never reaching 100");
    double flat[50] = {0};
    mur_growth_fit(flat, 50, &g);
    CHECK(isnan(g.doubling_time) && g.first == -1, "no growth: %g", g.doubling_time);
}

TEST(censored_summary_counts_runs_that_never_got_there)
{
    double v[5] = {INFINITY, 30, 10, INFINITY, 20};
    mur_summary m;
    int censored = -1;
    mur_summary_censored(&m, v, 5, &censored);
    CHECK(censored == 2 && m.n == 5, "censored %d of %d", censored, m.n);
    CHECK(m.median == 30, "median %g: the 3rd of 5, observed", m.median);
    CHECK(m.p10 == 14, "p10 %g", m.p10);
    CHECK(isnan(m.p90) && isnan(m.mean), "p90 %g and mean %g need censored runs", m.p90, m.mean);
    /* p10 of 11 is the 2nd value: observed, though most runs are censored */
    double w[11] = {INFINITY, 1, INFINITY, 2, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, 3};
    mur_summary_censored(&m, w, 11, &censored);
    CHECK(censored == 8 && isnan(m.median) && m.p10 == 2, "median %g p10 %g", m.median, m.p10);
}

/* ---- the command line ---------------------------------------------------- */

static const char *chaos_small(void)
{
    const char *path = scratch_path("chaos.yaml");
    write_file(path,
               "seed: 7\nmodel: wrkspc\n"
               "world: {width: 480, height: 320, boundary: wrap}\n"
               "flock: {count: 160}\n"
               "video: {width: 240, height: 160, duration: 2s}\n"
               "experiment: {runs: 3, ticks: 600, twin: {shift: half-box}, metrics: [order]}\n");
    return path;
}

TEST(stats_reports_the_doubling_time_and_ticks_to_each_size)
{
    char args[1024], err[4096];
    const char *csv = scratch_path("twin-stats.csv");
    snprintf(args, sizeof args, "stats %s -q -o %s", chaos_small(), csv);
    REQUIRE(murmur(args, err, sizeof err) == 0, "stats failed: %s", err);
    char *text = test_slurp(csv, NULL);
    REQUIRE(text, "no csv");
    static const char header[] = "condition,metric,median,p10,p90,mean,runs,ticks,censored\n";
    CHECK(!strncmp(text, header, strlen(header)), "header: %.80s", text);
    static const char *const rows[] = {"all,order,", "all,doubling_time,", "all,ticks_to_1e-9,",
                                       "all,ticks_to_1e-5,", "all,ticks_to_1,"};
    for (int i = 0; i < 5; i++)
        CHECK(strstr(text, rows[i]), "no row %s in\n%s", rows[i], text);
    /* the doubling time's median is a positive number */
    const char *dt = strstr(text, "all,doubling_time,");
    CHECK(dt && atof(dt + strlen("all,doubling_time,")) > 0, "doubling time row: %.60s", dt ? dt : "");
    free(text);
}

TEST(stats_plot_of_a_twin_draws_the_divergence_figure)
{
    char args[1024], err[4096];
    const char *png = scratch_path("twin.png"), *pdf = scratch_path("twin.pdf");
    snprintf(args, sizeof args, "stats %s -q --plot %s", chaos_small(), png);
    REQUIRE(murmur(args, err, sizeof err) == 0, "stats --plot failed: %s", err);
    snprintf(args, sizeof args, "stats %s -q --plot %s", chaos_small(), pdf);
    REQUIRE(murmur(args, err, sizeof err) == 0, "stats --plot failed: %s", err);
    cairo_surface_t *img = cairo_image_surface_create_from_png(png);
    REQUIRE(cairo_surface_status(img) == CAIRO_STATUS_SUCCESS, "not a PNG");
    /* the twin's figure is the divergence's: the condition's blue line is there */
    int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img);
    int stride = cairo_image_surface_get_stride(img);
    const unsigned char *px = cairo_image_surface_get_data(img);
    long blue = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const unsigned char *q = px + (size_t)y * stride + 4 * (size_t)x;   /* B G R A */
            blue += q[0] > 150 && q[2] < 60 && q[1] > 80 && q[1] < 140;
        }
    CHECK(blue > 1000, "%ld blue pixels in a %dx%d figure", blue, w, h);
    cairo_surface_destroy(img);
    char *text = test_slurp(pdf, NULL);
    CHECK(text && !strncmp(text, "%PDF", 4), "not a PDF");
    free(text);
}

TEST(series_gives_the_divergence_per_tick_with_bands)
{
    char args[1024], err[4096];
    const char *csv = scratch_path("twin-series.csv");
    snprintf(args, sizeof args, "series %s -q --runs 3 --ticks 300 -o %s", chaos_small(), csv);
    REQUIRE(murmur(args, err, sizeof err) == 0, "series failed: %s", err);
    char *text = test_slurp(csv, NULL);
    REQUIRE(text, "no csv");
    char *nl = strchr(text, '\n');
    REQUIRE(nl, "no header");
    *nl = 0;
    CHECK(strstr(text, ",divergence_rms,divergence_max,twin_order,divergence_rms_median,divergence_rms_p10,"
                       "divergence_rms_p90,"),
          "header: %s", text);
    /* 301 rows of ticks */
    int rows = 0;
    for (char *p = nl + 1; (p = strchr(p, '\n')); p++)
        rows++;
    CHECK(rows == 301, "%d rows", rows);
    free(text);
}

TEST(twin_bad_input_exits_2_naming_the_line)
{
    static const struct {
        const char *yaml, *where, *says;
    } cases[] = {
        {"experiment:\n  twin: {shift: half-box, perturb: 1e-12}\n", ":2:9:", "not both"},
        {"experiment:\n  twin: {}\n", ":2:9:", "needs 'shift'"},
        {"experiment:\n  twin:\n    shift: quarter-box\n", ":3:12:", "half-box or [dx, dy]"},
        {"experiment:\n  twin: {perturb: 0}\n", ":2:19:", "out of range"},
        {"world: {boundary: reflect}\nexperiment:\n  twin: {shift: half-box}\n", ":3:9:", "wrapping world"},
        {"timeline:\n  - at: 1s\n    set: {count: 100}\nexperiment:\n  twin: {perturb: 1e-9}\n", ":5:9:",
         "fixed boid count"},
        {"timeline:\n  - at: 1s\n    event: reset\nexperiment:\n  twin: {perturb: 1e-9}\n", ":5:9:", "reset"},
        {"experiment:\n  twin: {shfit: half-box}\n", ":2:10:", "did you mean 'shift'"},
        {"flock: {replay: twin-tracks.csv}\nexperiment:\n  twin: {perturb: 1e-9}\n", ":3:9:", "no twin"},
    };
    write_file(scratch_path("twin-tracks.csv"), "frame,id,x,y\n0,0,10,10\n0,1,20,20\n1,0,11,10\n1,1,21,20\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[4096];
        CHECK(check_refuses("bad-twin.yaml", cases[i].yaml, cases[i].where, cases[i].says, err, sizeof err),
              "case %zu: %s", i, err);
    }
}

/* ---- the ghost ------------------------------------------------------------ */

/* Pixels of a frame that differ between two renders. */
static long frame_diff(mur_session *a, mur_session *b, long k)
{
    const uint8_t *pa, *pb;
    int sa, sb;
    mur_error err = {{0}};
    if (mur_session_frame(a, k, &pa, &sa, &err))
        return -1;
    uint8_t *copy = malloc((size_t)sa * 160);
    memcpy(copy, pa, (size_t)sa * 160);
    if (mur_session_frame(b, k, &pb, &sb, &err)) {
        free(copy);
        return -1;
    }
    long n = 0;
    for (int y = 0; y < 160; y++)
        n += memcmp(copy + (size_t)y * sa, pb + (size_t)y * sb, (size_t)sa) != 0;
    free(copy);
    return n;
}

/* Ghost-coloured pixels (the dark theme's magenta) of frame k of a session
 * on a black background. */
static long ghost_pixels(mur_session *a, long k)
{
    const uint8_t *px;
    int stride;
    mur_error err = {{0}};
    if (mur_session_frame(a, k, &px, &stride, &err))
        return -1;
    long n = 0;
    for (int y = 0; y < 400; y++)
        for (int x = 0; x < 400; x++) {
            const uint8_t *q = px + (size_t)y * stride + 4 * (size_t)x;   /* B, G, R, A */
            n += q[2] > 128 && q[0] > 100 && q[1] < q[0];
        }
    return n;
}

/* The ghost is drawn at the boids' size: under a camera that keeps boids
 * at their zoom-1 size, its outlines keep theirs too (they grew with the
 * zoom, four times the boid they outline). */
TEST(the_ghost_keeps_the_boids_size_under_a_fixed_size_camera)
{
    static const char *base =
        "seed: 3\nmodel: wrkspc\nworld: {width: 200, height: 200, boundary: wrap}\n"
        "flock: {count: 1}\nvideo: {width: 400, height: 400, duration: 1s}\n"
        "look: {background: \"#000000\", boid: {shape: dot, size: 10, color: \"#20ff20\"}}\n%s"
        "experiment: {runs: 1, ticks: 10, twin: {shift: half-box}, metrics: [order]}\n";
    const char *cams[2] = {"", "camera: {follow: {boid: 0}, zoom: 4, boid_size: fixed}\n"};
    long n[2];
    for (int c = 0; c < 2; c++) {
        char text[1024];
        snprintf(text, sizeof text, base, cams[c]);
        mur_scene *s = scene_of(text);
        REQUIRE(s, "scene %d", c);
        mur_session *a = NULL;
        mur_error err = {{0}};
        REQUIRE(!mur_session_create(&a, s, NULL, &err), "%s", err.msg);
        n[c] = ghost_pixels(a, 5);
        mur_session_destroy(a);
        mur_scene_destroy(s);
    }
    CHECK(n[0] > 40, "the ghost covers %ld pixels at zoom 1", n[0]);
    CHECK(n[1] > n[0] * 3 / 4 && n[1] < n[0] * 5 / 4, "fixed size: the ghost covers %ld pixels against %ld at zoom 1",
          n[1], n[0]);
}

TEST(render_draws_the_twin_as_a_ghost_and_nothing_else_changes)
{
    mur_scene *with = twin_scene("{shift: half-box}", "", 1, 10);
    mur_scene *without = scene_of("seed: 7\nmodel: wrkspc\nworld: {width: 480, height: 320, boundary: wrap}\n"
                                  "flock: {count: 160}\nvideo: {width: 240, height: 160, duration: 1s}\n"
                                  "experiment: {runs: 1, ticks: 10, metrics: [order]}\n");
    REQUIRE(with && without, "scenes");
    mur_session *a = NULL, *b = NULL, *c = NULL;
    mur_error err = {{0}};
    REQUIRE(!mur_session_create(&a, with, NULL, &err) && !mur_session_create(&b, without, NULL, &err) &&
                !mur_session_create(&c, without, NULL, &err),
            "%s", err.msg);
    /* the ghost is drawn: rows differ from the scene without a twin */
    long rows = frame_diff(a, b, 3);
    CHECK(rows > 20, "%ld rows differ with a ghost", rows);
    /* and the first flock is the same flock: its state is the other's */
    const mur_flock *fa = mur_session_flock(a, 0), *fc = mur_session_flock(c, 0);
    mur_session_run_to(c, mur_flock_tick(fa) - 0, &err);
    CHECK(mur_flock_count(fa) == mur_flock_count(fc) &&
              !memcmp(mur_flock_x(fa), mur_flock_x(fc), (size_t)mur_flock_count(fa) * sizeof(double)),
          "the first flock changed with a twin");
    mur_session_destroy(a);
    mur_session_destroy(b);
    mur_session_destroy(c);
    mur_scene_destroy(with);
    mur_scene_destroy(without);
}
