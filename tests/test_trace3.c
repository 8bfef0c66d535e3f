/* `murmur trace` of a 3D world (issue #29): the CSV has z and vz columns
 * and the engine's exact numbers; the H5MD file, read back with h5py, has
 * a box of dimension 3 and position / velocity values [T][N][3] equal to
 * the flock's, with the 3D metrics as observables. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/flock.h"
#include "murmur/metrics.h"
#include "murmur/scene.h"

static const char scene_text[] =
    "seed: 5\n"
    "model: wrkspc\n"
    "world: {dimensions: 3, width: 480, height: 320, depth: 200}\n"
    "flock: {count: 300}\n"
    "video: {width: 160, height: 120, fps: 10, ticks_per_second: 30, duration: 1s}\n"
    "timeline:\n"
    "  - at: 0.4s\n"
    "    set: {alignment: 0.2}\n"
    "look:\n"
    "  overlays:\n"
    "    - readout: [order, thickness]\n";

static const char *scene_file(void)
{
    const char *path = scratch_path("trace3.yaml");
    write_file(path, scene_text);
    return path;
}

/* The engine's own trajectory of the scene, x y z vx vy vz of each tick
 * 0..ticks as [tick][i][6]; and (obs, when given) order and thickness at
 * each tick as [tick][2]. */
static double *reference(const char *path, long ticks, int *n, double *obs)
{
    mur_scene *s = NULL;
    mur_error err = {{0}};
    if (mur_scene_load(&s, path, &err))
        return NULL;
    mur_params base = s->params;
    mur_flock *f = NULL;
    mur_driver *d = NULL;
    mur_metrics_ctx *mc = mur_metrics_ctx_create();
    *n = base.count;
    double *out = malloc(sizeof(double) * 6 * (size_t)*n * (size_t)(ticks + 1));
    if (!out || !mc || mur_flock_create(&f, &base, s->seed, &err) || mur_driver_create(&d, &err) ||
        mur_driver_start(d, s, f, &base, &err) || mur_flock_dimensions(f) != 3)
        goto fail;
    for (long t = 0; t <= ticks; t++) {
        if (mur_driver_run_to(d, t, &err))
            goto fail;
        const double *a[6] = {mur_flock_x(f), mur_flock_y(f), mur_flock_z(f),
                              mur_flock_vx(f), mur_flock_vy(f), mur_flock_vz(f)};
        for (int i = 0; i < *n; i++)
            for (int k = 0; k < 6; k++)
                out[((size_t)t * (size_t)*n + (size_t)i) * 6 + (size_t)k] = a[k][i];
        mur_metrics m;
        if (obs) {
            if (mur_metrics_compute(mc, f, &m))
                goto fail;
            obs[2 * t] = m.order;
            obs[2 * t + 1] = m.thickness;
        }
    }
    mur_metrics_ctx_destroy(mc);
    mur_driver_destroy(d);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
    return out;
fail:
    free(out);
    mur_metrics_ctx_destroy(mc);
    mur_driver_destroy(d);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
    return NULL;
}

TEST(a_3d_csv_trace_has_z_and_vz_and_the_engines_numbers)
{
    const char *scene = scene_file(), *out = scratch_path("t3.csv");
    int n;
    double *ref = reference(scene, 30, &n, NULL);
    REQUIRE(ref, "reference run");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "trace %s -o %s -q", scene, out);
    int st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    FILE *fp = fopen(out, "r");
    REQUIRE(fp, "%s", out);
    char line[1024];
    CHECK(fgets(line, sizeof line, fp) && !strcmp(line, "run,condition,tick,time,id,x,y,z,vx,vy,vz\n"),
          "header %s", line);
    long rows = 0, bad = 0, last = -1;
    while (fgets(line, sizeof line, fp)) {
        char *end;
        long run = strtol(line, &end, 10);
        if (strncmp(end, ",scene,", 7)) {
            bad++;
            continue;
        }
        long tick = strtol(end + 7, &end, 10);
        strtod(end + 1, &end);   /* time */
        long id = strtol(end + 1, &end, 10);
        double v[6];
        for (int k = 0; k < 6; k++)
            v[k] = strtod(end + 1, &end);
        rows++;
        if (run != -1 || tick < 0 || tick > 30 || id < 0 || id >= n || *end != '\n') {
            bad++;
            continue;
        }
        last = tick > last ? tick : last;
        for (int k = 0; k < 6; k++)
            bad += v[k] != ref[((size_t)tick * (size_t)n + (size_t)id) * 6 + (size_t)k];
    }
    fclose(fp);
    CHECK(bad == 0 && rows == (last + 1) * n && last >= 27, "%ld rows to tick %ld, %ld differ", rows, last, bad);
    free(ref);
}

/* Debian's python3 (a pyenv python may lack h5py); NULL when none has it. */
static const char *python_with_h5py(void)
{
    static const char *const pythons[] = {"/usr/bin/python3", "python3"};
    for (size_t i = 0; i < 2; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "%s -c 'import h5py' >/dev/null 2>&1", pythons[i]);
        if (system(cmd) == 0)
            return pythons[i];
    }
    return NULL;
}

static const char h5py_script[] =
    "import sys, h5py\n"
    "f = h5py.File(sys.argv[1], 'r')\n"
    "box = f['particles/flock/box']\n"
    "assert box.attrs['dimension'] == 3\n"
    "assert list(box.attrs['boundary']) == ['periodic'] * 3\n"
    "assert list(box['edges'][:]) == [480.0, 320.0, 200.0]\n"
    "T = f['particles/flock/position/value'].shape[0]\n"
    "for g in ('position', 'velocity'):\n"
    "    d = f['particles/flock/' + g]\n"
    "    assert d['value'].shape == (T, 300, 3) and d['value'].dtype == 'float64'\n"
    "    assert d['value'].chunks == (1, 300, 3)\n"
    "    assert list(d['step'][:]) == list(range(T))\n"
    "assert sorted(f['observables']) == ['order', 'thickness']\n"
    "print(T)\n"
    "for t in (0, 13, T - 1):\n"
    "    v = f['particles/flock/position/value'][t]\n"
    "    w = f['particles/flock/velocity/value'][t]\n"
    "    print(repr(float(f['observables/order/value'][t])), repr(float(f['observables/thickness/value'][t])))\n"
    "    for i in range(300):\n"
    "        print(' '.join(repr(float(a)) for a in list(v[i]) + list(w[i])))\n";

TEST(a_3d_h5md_trace_read_with_h5py_has_dimension_3_and_the_flocks_values)
{
    const char *py = python_with_h5py();
    if (!py)
        SKIP("no python3 with h5py (Debian: python3-h5py)");
    const char *scene = scene_file();
    int n;
    double obs[2 * 31];
    double *ref = reference(scene, 30, &n, obs);
    REQUIRE(ref, "reference run");
    char args[1024], err[4096], cmd[1024];
    const char *out = scratch_path("t3.h5"), *script = scratch_path("check3.py"), *printed = scratch_path("t3.txt");
    snprintf(args, sizeof args, "trace %s -o %s -q", scene, out);
    int st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    write_file(script, h5py_script);
    snprintf(cmd, sizeof cmd, "%s %s %s >%s", py, script, out, printed);
    REQUIRE(system(cmd) == 0, "%s failed (its assertion is on stderr)", cmd);
    FILE *fp = fopen(printed, "r");
    REQUIRE(fp, "%s", printed);
    int T = 0;
    REQUIRE(fscanf(fp, "%d", &T) == 1 && T >= 28 && T <= 31, "frames %d", T);
    long bad = 0;
    const int ticks[3] = {0, 13, T - 1};
    for (int e = 0; e < 3 && bad >= 0; e++) {
        double o[2];
        if (fscanf(fp, "%lf %lf", &o[0], &o[1]) != 2) {
            bad = -1;
            break;
        }
        CHECK(o[0] == obs[2 * ticks[e]] && o[1] == obs[2 * ticks[e] + 1], "tick %d: order %.17g thickness %.17g, "
              "the library's %.17g %.17g", ticks[e], o[0], o[1], obs[2 * ticks[e]], obs[2 * ticks[e] + 1]);
        for (int i = 0; i < n; i++) {
            double v[6];
            if (fscanf(fp, "%lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6) {
                bad = -1;
                break;
            }
            for (int k = 0; k < 6; k++)
                bad += v[k] != ref[((size_t)ticks[e] * (size_t)n + (size_t)i) * 6 + (size_t)k];
        }
    }
    fclose(fp);
    CHECK(bad == 0, "h5py's values: %ld differ", bad);
    free(ref);
}

/* ---- saved states --------------------------------------------------------- */

/* A CSV trace's rows keyed by (tick, id): the six numbers' text, for
 * comparing two traces row by row. */
typedef struct {
    long tick, id;
    char values[400];
} row;

static row *read_rows(const char *path, long *n)
{
    FILE *fp = fopen(path, "r");
    char line[1024];
    row *out = NULL;
    long cap = 0;
    *n = 0;
    if (!fp || !fgets(line, sizeof line, fp)) {
        if (fp)
            fclose(fp);
        return NULL;
    }
    while (fgets(line, sizeof line, fp)) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 4096;
            out = realloc(out, (size_t)cap * sizeof *out);
        }
        char *p = strchr(line, ',');                  /* after run */
        p = p ? strchr(p + 1, ',') : NULL;            /* after condition */
        row *r = &out[*n];
        char *end;
        r->tick = strtol(p + 1, &end, 10);
        end = strchr(end + 1, ',');                   /* after time */
        r->id = strtol(end + 1, &end, 10);
        snprintf(r->values, sizeof r->values, "%s", end + 1);
        (*n)++;
    }
    fclose(fp);
    return out;
}

TEST(a_3d_saved_state_starts_a_3d_world_that_goes_on_exactly_as_the_run_did)
{
    const char *scene = scene_file(), *state = scratch_path("state3.h5"), *whole = scratch_path("whole3.csv"),
               *on = scratch_path("on3.csv"), *next = scratch_path("next3.yaml");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "trace %s --at 15t -o %s -q", scene, state);
    int st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "--at: exit %d: %s", st, err);
    snprintf(args, sizeof args, "trace %s -o %s -q", scene, whole);
    REQUIRE((st = murmur(args, err, sizeof err)) == 0, "exit %d: %s", st, err);
    /* the same scene started from the state at tick 15 (the timeline's
     * change at 0.4 s is 12 ticks in, before it: left out) */
    write_file(next, "seed: 5\n"
                     "model: wrkspc\n"
                     "world: {dimensions: 3, width: 480, height: 320, depth: 200}\n"
                     "flock: {count: 300, alignment: 0.2, start: state3.h5}\n"
                     "video: {width: 160, height: 120, fps: 10, ticks_per_second: 30, duration: 0.4s}\n");
    snprintf(args, sizeof args, "trace %s -o %s -q", next, on);
    REQUIRE((st = murmur(args, err, sizeof err)) == 0, "from the state: exit %d: %s", st, err);
    long na, nb;
    row *a = read_rows(whole, &na), *b = read_rows(on, &nb);
    REQUIRE(a && b && nb > 0, "rows %ld %ld", na, nb);
    long compared = 0, bad = 0;
    for (long k = 0; k < nb; k++) {
        long t = b[k].tick + 15;
        if (t > 30)
            continue;
        long j = t * 300 + b[k].id;   /* whole: every tick of 300 boids in order */
        REQUIRE(j < na && a[j].tick == t && a[j].id == b[k].id, "row %ld of the whole trace", j);
        compared++;
        bad += strcmp(a[j].values, b[k].values) != 0;
    }
    CHECK(bad == 0 && compared >= 300 * 10, "%ld of %ld rows differ from the run that saved the state", bad,
          compared);
    free(a);
    free(b);
}

TEST(a_2d_state_in_a_3d_world_and_a_3d_state_in_the_plane_are_exit_2_naming_the_line)
{
    const char *scene = scene_file(), *state3 = scratch_path("s3.h5"), *flat = scratch_path("flat.yaml"),
               *state2 = scratch_path("s2.h5");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "trace %s --at 3t -o %s -q", scene, state3);
    int st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    write_file(flat, "model: wrkspc\nworld: {width: 480, height: 320}\nflock: {count: 300}\n");
    snprintf(args, sizeof args, "trace %s --at 3t -o %s -q", flat, state2);
    REQUIRE((st = murmur(args, err, sizeof err)) == 0, "exit %d: %s", st, err);
    static const struct {
        const char *yaml, *where, *says;
    } cases[] = {
        {"model: wrkspc\nworld: {width: 480, height: 320}\nflock: {count: 300, start: s3.h5}\n", ":3:", "traced in a 3D world"},
        {"model: wrkspc\nworld: {dimensions: 3, width: 480, height: 320, depth: 200}\nflock: {count: 300, start: s2.h5}\n",
         ":3:", "traced in a 2D world"},
        {"model: wrkspc\nworld: {dimensions: 3, width: 480, height: 320, depth: 200}\n"
         "flock:\n  count: 300\n  start: {file: s2.h5, tick: 3}\n", ":5:", "cannot start a 3D world"},
        {"model: wrkspc\nworld: {width: 480, height: 320}\nflock: {replay: s3.h5}\n", ":3:", "cannot replay in a 2D world"},
        {"model: wrkspc\nworld: {dimensions: 3, width: 480, height: 320, depth: 100}\nflock: {count: 300, start: s3.h5}\n",
         "s3.h5: error: particles/flock/box/edges", "this scene's is 100 deep"},   /* as a width that differs: the file's error */
        {"model: wrkspc\nworld: {dimensions: 3, width: 480, height: 320, depth: 200}\n"
         "flock:\n  count: 300\n  start: {disc: {center: [100, 100], radius: 20}}\n", ":5:", "region of the plane"},
        {"model: wrkspc\nworld: {dimensions: 3, width: 480, height: 320, depth: 200}\nflock: {replay: s2.h5}\n", ":3:",
         "cannot replay in a 3D world"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(check_refuses("dims.yaml", cases[i].yaml, cases[i].where, cases[i].says, err, sizeof err), "case %zu: %s",
              i, err);
}
