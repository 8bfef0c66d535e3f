/* The chaos twins in a 3D world (docs/scenes.md "The chaos twins"): the
 * divergence undoes a shift along z (the nearest image along the depth
 * under wrap), a twin moved by a whole period or along z alone stays with
 * its run, its predators move with it along z, a perturbation is a
 * displacement on the sphere, `murmur stats` of scenes/chaos3d.yaml gives
 * finite twin rows, `check` prints the shift, a dz in the plane is refused,
 * the ghost is drawn moved back along z; and the plane's twins keep their
 * bytes (pinned). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/divergence.h"
#include "murmur/experiment.h"
#include "murmur/flock.h"
#include "murmur/presets.h"
#include "murmur/session.h"
#include "murmur/twin.h"
#include "scene_util.h"

/* ---- the divergence ------------------------------------------------------- */

static mur_params box3(mur_boundary b)
{
    mur_params q = mur_preset_find("wrkspc")->params;
    q.dimensions = 3;
    q.density = 0;
    q.count = 120;
    q.width = 300;
    q.height = 240;
    q.depth = 180;
    q.boundary = b;
    return q;
}

static mur_flock *make(const mur_params *p)
{
    mur_flock *f = NULL;
    mur_error err = {{0}};
    if (mur_flock_create(&f, p, 5, &err)) {
        fprintf(stderr, "create: %s\n", err.msg);
        abort();
    }
    return f;
}

/* Every boid of f moved by (dx, dy, dz). */
static void move(mur_flock *f, double dx, double dy, double dz)
{
    int n = mur_flock_count(f);
    double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b), *c = malloc((size_t)n * sizeof *c);
    for (int i = 0; i < n; i++) {
        a[i] = dx;
        b[i] = dy;
        c[i] = dz;
    }
    mur_flock_displace3(f, a, b, c);
    free(a);
    free(b);
    free(c);
}

TEST(divergence3_undoes_a_shift_along_z_and_without_it_is_the_shift)
{
    const mur_boundary kinds[2] = {MUR_BOUNDARY_WRAP, MUR_BOUNDARY_REFLECT};
    for (int k = 0; k < 2; k++) {
        mur_params p = box3(kinds[k]);
        mur_flock *a = make(&p), *b = make(&p);
        double dz = 60;   /* twice it is past half the depth: the nearest image is the other way */
        move(b, 0, 0, dz);
        mur_divergence d;
        mur_divergence_measure3(a, b, (const double[3]){0, 0, dz}, &d);
        CHECK(d.rms < 1e-12 && d.max < 1e-12, "boundary %d: measured with the shift, %g apart (max %g)", k, d.rms,
              d.max);
        mur_divergence_measure3(a, b, (const double[3]){0, 0, 0}, &d);
        CHECK(fabs(d.rms - dz) < 1e-9 && fabs(d.max - dz) < 1e-9, "boundary %d: without the shift rms %.17g max %.17g",
              k, d.rms, d.max);
        /* the other way round along z: the nearest image under wrap, the plain difference else */
        mur_divergence_measure3(a, b, (const double[3]){0, 0, -dz}, &d);
        double want = k == 0 ? p.depth - 2 * dz : 2 * dz;   /* 60 or 120 */
        CHECK(fabs(d.rms - want) < 1e-9, "boundary %d: shifted the wrong way, rms %.17g (want %g)", k, d.rms, want);
        mur_flock_destroy(a);
        mur_flock_destroy(b);
    }
}

TEST(a_flock_a_whole_period_away_under_wrap_has_no_divergence)
{
    mur_params p = box3(MUR_BOUNDARY_WRAP);
    mur_flock *a = make(&p), *b = make(&p);
    move(b, p.width, p.height, p.depth);
    mur_divergence d;
    mur_divergence_measure3(a, b, (const double[3]){0, 0, 0}, &d);
    CHECK(d.rms < 1e-9 && d.max < 1e-9, "a period away: %g apart (max %g)", d.rms, d.max);
    mur_divergence_measure3(a, b, (const double[3]){p.width, p.height, p.depth}, &d);
    CHECK(d.rms < 1e-9 && d.max < 1e-9, "a period away, measured with it: %g apart (max %g)", d.rms, d.max);
    /* half a period along z is the farthest image: depth / 2 */
    mur_flock *c = make(&p);
    move(c, 0, 0, p.depth / 2);
    mur_divergence_measure3(a, c, (const double[3]){0, 0, 0}, &d);
    CHECK(fabs(d.rms - p.depth / 2) < 1e-9, "half the depth away: %.17g", d.rms);
    mur_flock_destroy(a);
    mur_flock_destroy(b);
    mur_flock_destroy(c);
}

TEST(divergence3_of_plane_flocks_is_the_planes_to_the_bit)
{
    mur_params p = mur_preset_find("wrkspc")->params;
    p.count = 100;
    mur_flock *a = make(&p), *b = make(&p);
    double dx[100], dy[100];
    for (int i = 0; i < 100; i++) {
        dx[i] = 240;
        dy[i] = 160;
    }
    mur_flock_displace(b, dx, dy);
    for (int t = 0; t < 50; t++)
        REQUIRE(!mur_flock_step(a) && !mur_flock_step(b), "step");
    mur_divergence two, three;
    mur_divergence_measure(a, b, 240, 160, &two);
    mur_divergence_measure3(a, b, (const double[3]){240, 160, 99}, &three);
    CHECK(two.rms > 0 && !memcmp(&two, &three, sizeof two), "plane: %.17g/%.17g against %.17g/%.17g", two.rms,
          two.max, three.rms, three.max);
    mur_flock_destroy(a);
    mur_flock_destroy(b);
}

/* ---- experiments ------------------------------------------------------------ */

/* 200 wrkspc boids in a wrapping 480 x 320 x 200 box, with `twin` and extra lines. */
static mur_scene *twin3_scene(const char *twin, const char *extra, int runs, int ticks)
{
    char text[2048];
    snprintf(text, sizeof text,
             "seed: 7\nmodel: wrkspc\n"
             "world: {dimensions: 3, width: 480, height: 320, depth: 200, boundary: wrap}\n"
             "flock: {count: 200}\n"
             "video: {width: 320, height: 180, duration: 1s}\n"
             "%s"
             "experiment: {runs: %d, ticks: %d, twin: %s, metrics: [order]}\n",
             extra, runs, ticks, twin);
    return scene_of(text);
}

/* A session of s (NULL, its message on stderr, when it cannot start). */
static mur_session *session_of(mur_scene *s)
{
    mur_session *ss = NULL;
    mur_error err = {{0}};
    if (!s || mur_session_create(&ss, s, NULL, &err)) {
        fprintf(stderr, "  session: %s\n", s ? err.msg : "no scene");
        return NULL;
    }
    return ss;
}

/* The largest divergence of run 0 over ticks 0..ticks. */
static double worst(const char *twin, const char *extra, int ticks)
{
    mur_scene *s = twin3_scene(twin, extra, 1, ticks);
    if (!s)
        return NAN;
    mur_experiment *e = experiment_of(s, 0);
    double m = NAN;
    if (e) {
        m = 0;
        for (long t = 0; t <= ticks; t++)
            m = fmax(m, mur_experiment_twin(e, 0, 0, t)->divergence.max);
    }
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
    return m;
}

/* On the 3-torus a shift changes nothing the rules see: moved along z
 * alone, by a whole period, by [dx, dy] (z 0) or by half the box, the twin
 * flies as its run (a measure that forgot z would see 50 or 100 apart). */
TEST(a_3d_twin_moved_along_z_or_by_a_period_flies_with_its_run)
{
    static const char *const twins[] = {"{shift: [0, 0, 50]}", "{shift: [480, 320, 200]}",
                                        "{shift: [-30, 12.5, -275]}", "{shift: [10, 20]}", "{shift: half-box}"};
    for (size_t i = 0; i < sizeof twins / sizeof twins[0]; i++) {
        double d = worst(twins[i], "", 40);
        CHECK(d < 1e-9, "%s: %g apart within 40 ticks", twins[i], d);
    }
}

TEST(a_3d_twins_predators_move_with_it_along_z)
{
    double d = worst("{shift: [0, 0, 50]}",
                     "predators:\n  - mode: flee\n    radius: 120\n    strength: 0.8\n"
                     "    x: \"100 + 60*t\"\n    y: \"80\"\n    z: \"60\"\n",
                     60);
    CHECK(d < 1e-6, "with a predator the twins are %g apart after 60 ticks", d);
}

TEST(a_3d_twins_shift_is_the_one_written)
{
    static const struct {
        const char *twin;
        double want[3];
    } cases[] = {
        {"{shift: [10, -20, 30]}", {10, -20, 30}},
        {"{shift: [10, -20]}", {10, -20, 0}},
        {"{shift: half-box}", {240, 160, 100}},
        {"{perturb: 1e-9}", {0, 0, 0}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mur_scene *s = twin3_scene(cases[i].twin, "", 1, 1);
        REQUIRE(s, "%s", cases[i].twin);
        double got[3];
        mur_twin_shift3(s, &s->params, got);
        CHECK(got[0] == cases[i].want[0] && got[1] == cases[i].want[1] && got[2] == cases[i].want[2],
              "%s: (%g, %g, %g)", cases[i].twin, got[0], got[1], got[2]);
        mur_scene_destroy(s);
    }
}

/* A perturbation moves each boid by its length in a direction on the
 * sphere: the twins start exactly that far apart, z included. */
TEST(a_3d_twin_perturbation_starts_the_perturbation_apart)
{
    mur_scene *s = twin3_scene("{perturb: 1e-6}", "", 1, 1);
    REQUIRE(s, "scene");
    mur_experiment *e = experiment_of(s, 0);
    REQUIRE(e, "experiment");
    const mur_twin_record *w = mur_experiment_twin(e, 0, 0, 0);
    CHECK(fabs(w->divergence.rms - 1e-6) < 1e-9 && fabs(w->divergence.max - 1e-6) < 1e-9, "rms %.17g max %.17g",
          w->divergence.rms, w->divergence.max);
    mur_experiment_destroy(e);
    mur_scene_destroy(s);
}

/* The median of a stats CSV's row "all,NAME," (NaN when absent). */
static double median_of(const char *text, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\nall,%s,", name);
    const char *at = strstr(text, key);
    return at ? strtod(at + strlen(key), NULL) : NAN;
}

TEST(stats_of_the_3d_chaos_scene_gives_finite_twin_rows)
{
    char args[1024], err[4096];
    const char *csv = scratch_path("twin3-stats.csv");
    snprintf(args, sizeof args, "stats scenes/chaos3d.yaml --runs 3 -q -o %s", csv);
    REQUIRE(murmur(args, err, sizeof err) == 0, "stats failed: %s", err);
    char *text = test_slurp(csv, NULL);
    REQUIRE(text, "no csv");
    static const char *const rows[] = {"doubling_time", "ticks_to_1e-9", "ticks_to_1e-5", "ticks_to_1"};
    double prev = 0;
    for (int i = 0; i < 4; i++) {
        double m = median_of(text, rows[i]);
        CHECK(isfinite(m) && m > 0, "%s: median %g in\n%s", rows[i], m, text);
        CHECK(i < 2 || m > prev, "%s (%g) must come after the smaller size (%g)", rows[i], m, prev);
        prev = m;
    }
    free(text);
    /* and the series has the divergence per tick, starting at the rounding */
    csv = scratch_path("twin3-series.csv");
    snprintf(args, sizeof args, "series scenes/chaos3d.yaml --ticks 20 -q -o %s", csv);
    REQUIRE(murmur(args, err, sizeof err) == 0, "series failed: %s", err);
    text = test_slurp(csv, NULL);
    REQUIRE(text, "no csv");
    CHECK(strstr(text, ",divergence_rms,divergence_max,twin_order"), "header: %.200s", text);
    const char *row0 = strstr(text, "\n0,");
    int col = 0;
    for (const char *h = text; h && *h != '\n' && strncmp(h, "divergence_rms,", 15); h++)
        col += *h == ',';
    double d0 = NAN;
    if (row0) {
        const char *f = row0 + 1;
        for (int c = 0; c < col && f; c++)
            f = strchr(f, ',') ? strchr(f, ',') + 1 : NULL;
        d0 = f ? strtod(f, NULL) : NAN;
    }
    CHECK(isfinite(d0) && d0 >= 0 && d0 < 1e-12, "divergence_rms at tick 0: %g", d0);
    free(text);
}

/* ---- check and the loader ---------------------------------------------------- */

TEST(check_prints_a_3d_twins_shift)
{
    static const struct {
        const char *twin, *says;
    } cases[] = {
        {"{shift: half-box}", "twin: moved by half the box (240, 160, 100)"},
        {"{shift: [10, -20, 30]}", "twin: moved by (10, -20, 30)"},
        {"{shift: [10, -20]}", "twin: moved by (10, -20, 0)"},
        {"{perturb: 1e-12}", "each boid moved 1e-12 world units in a random direction"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024], args[1024], err[4096];
        snprintf(text, sizeof text,
                 "model: wrkspc\nworld: {dimensions: 3, width: 480, height: 320, depth: 200}\n"
                 "experiment: {twin: %s}\n",
                 cases[i].twin);
        const char *path = scratch_path("twin3-check.yaml");
        write_file(path, text);
        snprintf(args, sizeof args, "check %s", path);
        REQUIRE(murmur(args, err, sizeof err) == 0, "check failed: %s", err);
        char out[512];
        snprintf(out, sizeof out, "%s.out", scratch_path("stderr.txt"));
        char *printed = test_slurp(out, NULL);
        CHECK(printed && strstr(printed, cases[i].says), "%s: no \"%s\" in\n%s", cases[i].twin, cases[i].says,
              printed ? printed : "(nothing)");
        free(printed);
    }
}

TEST(a_dz_in_a_2d_world_is_refused_naming_the_line)
{
    char err[4096];
    CHECK(check_refuses("twin3-bad.yaml", "model: wrkspc\nexperiment:\n  twin: {shift: [1, 2, 3]}\n", ":3:17:",
                        "the world is 2D", err, sizeof err),
          "%s", err);
    CHECK(check_refuses("twin3-bad.yaml",
                        "model: wrkspc\nworld: {dimensions: 3}\nexperiment:\n  twin: {shift: [1]}\n", ":4:17:",
                        "[dx, dy] or [dx, dy, dz]", err, sizeof err),
          "%s", err);
    CHECK(check_refuses("twin3-bad.yaml",
                        "model: wrkspc\nworld: {dimensions: 3, boundary: reflect}\nexperiment:\n"
                        "  twin: {shift: [1, 2, 3]}\n",
                        ":4:9:", "wrapping world", err, sizeof err),
          "%s", err);
}

/* ---- the ghost ------------------------------------------------------------------ */

/* Pixels that differ between frame k of sessions a and b (w x h). */
static long pixels_apart(mur_session *a, mur_session *b, long k, int w, int h)
{
    const uint8_t *pa, *pb;
    int sa, sb;
    mur_error err = {{0}};
    if (mur_session_frame(a, k, &pa, &sa, &err))
        return -1;
    uint8_t *copy = malloc((size_t)sa * (size_t)h);
    memcpy(copy, pa, (size_t)sa * (size_t)h);
    long n = -1;
    if (!mur_session_frame(b, k, &pb, &sb, &err)) {
        n = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                n += memcmp(copy + (size_t)y * sa + 4 * (size_t)x, pb + (size_t)y * sb + 4 * (size_t)x, 4) != 0;
    }
    free(copy);
    return n;
}

/* The ghost is drawn where its original flies: a twin moved along z and
 * drawn moved back is the unmoved twin's ghost, pixel for pixel at the
 * start; with no twin there is no ghost. */
TEST(the_3d_ghost_is_drawn_moved_back_along_z)
{
    mur_scene *sz = twin3_scene("{shift: [0, 0, 50]}", "", 1, 1), *s0 = twin3_scene("{shift: [0, 0, 0]}", "", 1, 1);
    mur_scene *none = scene_of("seed: 7\nmodel: wrkspc\n"
                               "world: {dimensions: 3, width: 480, height: 320, depth: 200, boundary: wrap}\n"
                               "flock: {count: 200}\nvideo: {width: 320, height: 180, duration: 1s}\n");
    mur_session *a = session_of(sz), *b = session_of(s0), *c = session_of(none);
    REQUIRE(a && b && c, "sessions");
    long same = pixels_apart(a, b, 0, 320, 180), ghost = pixels_apart(b, c, 0, 320, 180);
    CHECK(same == 0, "moved along z and drawn moved back: %ld pixels differ from the unmoved twin's ghost", same);
    CHECK(ghost > 500, "the ghost changes only %ld pixels", ghost);
    mur_session_destroy(a);
    mur_session_destroy(b);
    mur_session_destroy(c);
    mur_scene_destroy(sz);
    mur_scene_destroy(s0);
    mur_scene_destroy(none);
}

/* ---- the plane keeps its bytes ------------------------------------------------- */

static uint64_t fnv(const void *p, size_t n, uint64_t h)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

/* The series CSV and a ghost frame of a 2D twin experiment, each as an
 * FNV-1a 64: the same bytes as the tree before 3D twins (f0177f3) gave
 * (its `murmur series` file and `still` image compared byte for byte). */
#define PINNED_SERIES 0x73771c26929008f7ULL
#define PINNED_FRAME 0x9a52c397d1810f14ULL
TEST(plane_twins_keep_their_bytes)
{
    const char *yaml = scratch_path("twin2-pinned.yaml"), *csv = scratch_path("twin2-pinned.csv");
    static const char text[] = "seed: 7\nmodel: wrkspc\n"
                               "world: {width: 480, height: 320, boundary: wrap}\n"
                               "flock: {count: 160}\n"
                               "video: {width: 240, height: 160, duration: 2s}\n"
                               "experiment: {runs: 2, ticks: 500, twin: {shift: [100, -37.5]}, metrics: [order]}\n";
    write_file(yaml, text);
    char args[1024], err[4096];
    snprintf(args, sizeof args, "series %s --runs 2 -q -o %s", yaml, csv);
    REQUIRE(murmur(args, err, sizeof err) == 0, "series failed: %s", err);
    size_t n = 0;
    char *out = test_slurp(csv, &n);
    REQUIRE(out, "no csv");
    uint64_t h = fnv(out, n, 0xcbf29ce484222325ULL);
    free(out);
    CHECK(h == PINNED_SERIES, "series: %016llx", (unsigned long long)h);

    mur_scene *s = scene_of(text);
    mur_session *ss = session_of(s);
    REQUIRE(ss, "session");
    const uint8_t *px;
    int stride;
    mur_error e = {{0}};
    REQUIRE(!mur_session_frame(ss, 40, &px, &stride, &e), "%s", e.msg);
    uint64_t f = 0xcbf29ce484222325ULL;
    for (int y = 0; y < 160; y++)
        f = fnv(px + (size_t)y * stride, 4 * 240, f);
    CHECK(f == PINNED_FRAME, "frame 40: %016llx", (unsigned long long)f);
    mur_session_destroy(ss);
    mur_scene_destroy(s);
}
