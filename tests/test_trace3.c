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
