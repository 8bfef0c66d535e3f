/* `murmur trace`: trajectories read back (CSV by parsing, H5MD with libhdf5
 * and with Python's h5py) equal a flock stepped here through the library,
 * number for number; --every thins; bad options are exit 2 and write
 * nothing; a write that fails half way leaves nothing at the final name. */
#include <dirent.h>
#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/flock.h"
#include "murmur/numfmt.h"
#include "murmur/rng.h"
#include "murmur/scene.h"

/* 10 frames at 3 ticks each (the last frame shows tick 27), a warm-up, a
 * timeline change mid-way and two conditions: every path a trace takes. */
static const char scene_text[] =
    "seed: 11\n"
    "model: wrkspc\n"
    "world: {width: 200, height: 150, boundary: wrap}\n"
    "flock: {count: 40}\n"
    "video: {width: 160, height: 120, fps: 10, ticks_per_second: 30, duration: 1s, warmup: 20}\n"
    "timeline:\n"
    "  - at: 0.4s\n"
    "    set: {alignment: 0.2}\n"
    "experiment:\n"
    "  runs: 4\n"
    "  ticks: 30\n"
    "  conditions:\n"
    "    all: {}\n"
    "    no-cohesion: {cohesion: 0}\n"
    "look:\n"
    "  overlays:\n"
    "    - readout: [order, clusters]\n";

static const char *scene_file(void)
{
    const char *path = scratch_path("trace.yaml");
    write_file(path, scene_text);
    return path;
}

/* The engine's own trajectory: the scene's flock (condition c, -1 for the
 * scene's settings; run r, -1 for the scene's seed) stepped through the
 * timeline; x, y, vx, vy of each tick 0..ticks stored as [tick][i][4]. */
static double *reference(const char *path, int c, int r, long ticks, int *n)
{
    mur_scene *s = NULL;
    mur_error err = {{0}};
    if (mur_scene_load(&s, path, &err))
        return NULL;
    mur_params base = s->params;
    if (c >= 0)
        mur_scene_apply(s->conditions[c].set, s->conditions[c].nset, &base);
    mur_flock *f = NULL;
    mur_driver *d = NULL;
    uint64_t seed = r < 0 ? s->seed : mur_rng_derive(s->seed, (uint64_t)r);
    *n = base.count;
    double *out = malloc(sizeof(double) * 4 * (size_t)*n * (size_t)(ticks + 1));
    if (!out || mur_flock_create(&f, &base, seed, &err) || mur_driver_create(&d, &err) ||
        mur_driver_start(d, s, f, &base, &err))
        goto fail;
    for (long t = 0; t <= ticks; t++) {
        if (mur_driver_run_to(d, t, &err))
            goto fail;
        for (int i = 0; i < *n; i++) {
            double *o = out + ((size_t)t * (size_t)*n + (size_t)i) * 4;
            o[0] = mur_flock_x(f)[i];
            o[1] = mur_flock_y(f)[i];
            o[2] = mur_flock_vx(f)[i];
            o[3] = mur_flock_vy(f)[i];
        }
    }
    mur_driver_destroy(d);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
    return out;
fail:
    free(out);
    mur_driver_destroy(d);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
    return NULL;
}

/* Compares a CSV trace with the reference; counts rows and mismatches, and
 * records which ticks it holds (ticks[t] = 1). */
static void compare_csv(const char *csv, const double *ref, int n, int want_run, const char *cond,
                        long maxtick, long *rows, long *bad, char *ticks)
{
    FILE *fp = fopen(csv, "r");
    char line[1024];
    *rows = *bad = 0;
    if (!fp || !fgets(line, sizeof line, fp) ||
        strcmp(line, "run,condition,tick,time,id,x,y,vx,vy\n")) {
        *bad = -1;
        if (fp)
            fclose(fp);
        return;
    }
    while (fgets(line, sizeof line, fp)) {
        char *p = line, *end;
        long run = strtol(p, &end, 10);
        char *c = end + 1, *comma = strchr(c, ',');
        if (!comma) {
            (*bad)++;
            continue;
        }
        *comma = 0;
        long tick = strtol(comma + 1, &end, 10);
        double time = strtod(end + 1, &end);
        long id = strtol(end + 1, &end, 10);
        double v[4];
        for (int k = 0; k < 4; k++)
            v[k] = strtod(end + 1, &end);
        (*rows)++;
        if (run != want_run || strcmp(c, cond) || tick < 0 || tick > maxtick || id < 0 || id >= n ||
            time != tick / 30.0) {
            (*bad)++;
            continue;
        }
        ticks[tick] = 1;
        const double *o = ref + ((size_t)tick * (size_t)n + (size_t)id) * 4;
        for (int k = 0; k < 4; k++)
            *bad += v[k] != o[k];
    }
    fclose(fp);
}

TEST(csv_trace_has_the_engines_exact_positions_over_the_ticks_a_render_draws)
{
    const char *scene = scene_file();
    int n;
    double *ref = reference(scene, -1, -1, 40, &n);
    REQUIRE(ref, "reference run");
    char args[1024], err[4096], ticks[41] = {0};
    const char *out = scratch_path("plain.csv");
    snprintf(args, sizeof args, "trace %s -o %s -q", scene, out);
    int st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    long rows, bad;
    compare_csv(out, ref, n, -1, "scene", 40, &rows, &bad, ticks);
    /* a render's ticks: 0 (the first frame) to 27 (the last frame's) */
    CHECK(rows == 28L * n && bad == 0, "%ld rows (want %ld), %ld differ", rows, 28L * n, bad);
    for (int t = 0; t <= 27; t++)
        CHECK(ticks[t], "tick %d missing", t);
    free(ref);

    /* experiment run 2 of condition no-cohesion: its overrides and derived seed */
    ref = reference(scene, 1, 2, 40, &n);
    REQUIRE(ref, "reference run");
    memset(ticks, 0, sizeof ticks);
    snprintf(args, sizeof args, "trace %s -o %s -q --condition no-cohesion --run 2 --ticks 40",
             scene, out);
    st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    compare_csv(out, ref, n, 2, "no-cohesion", 40, &rows, &bad, ticks);
    CHECK(rows == 41L * n && bad == 0, "run 2: %ld rows (want %ld), %ld differ", rows, 41L * n, bad);
    free(ref);
}

/* Reads dataset name of file as doubles into a new array of *count values. */
static double *read_doubles(hid_t file, const char *name, hsize_t *count, hsize_t dims[3])
{
    hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
    if (d < 0)
        return NULL;
    hid_t sp = H5Dget_space(d);
    int rank = H5Sget_simple_extent_dims(sp, dims, NULL);
    *count = 1;
    for (int k = 0; k < rank; k++)
        *count *= dims[k];
    double *v = malloc(sizeof(double) * (*count ? *count : 1));
    if (v && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0) {
        free(v);
        v = NULL;
    }
    H5Sclose(sp);
    H5Dclose(d);
    return v;
}

/* Mismatches between an H5MD trace's position, velocity and steps and the
 * reference at ticks first, first + every, ...; float32 files are compared
 * with the reference rounded to float. -1 when the file cannot be read. */
static long compare_h5(const char *path, const double *ref, int n, long first, long every,
                       long ticks, int float32)
{
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0)
        return -1;
    long bad = 0;
    static const char *const names[2] = {"particles/flock/position", "particles/flock/velocity"};
    for (int w = 0; w < 2; w++) {
        char name[96];
        hsize_t cnt, dims[3] = {0}, sdims[3] = {0}, scnt;
        snprintf(name, sizeof name, "%s/value", names[w]);
        double *v = read_doubles(file, name, &cnt, dims);
        snprintf(name, sizeof name, "%s/step", names[w]);
        double *step = read_doubles(file, name, &scnt, sdims);
        if (!v || !step || dims[0] != (hsize_t)ticks || dims[1] != (hsize_t)n || dims[2] != 2 ||
            scnt != (hsize_t)ticks)
            bad = -1;
        for (long t = 0; bad >= 0 && t < ticks; t++) {
            long tick = first + t * every;
            bad += step[t] != (double)tick;
            for (int i = 0; i < n; i++)
                for (int k = 0; k < 2; k++) {
                    double want = ref[((size_t)tick * (size_t)n + (size_t)i) * 4 + (size_t)(2 * w + k)];
                    if (float32)
                        want = (float)want;
                    bad += v[((size_t)t * (size_t)n + (size_t)i) * 2 + (size_t)k] != want;
                }
        }
        free(v);
        free(step);
    }
    H5Fclose(file);
    return bad;
}

TEST(h5md_trace_read_back_with_libhdf5_has_the_exact_positions)
{
    const char *scene = scene_file();
    int n;
    double *ref = reference(scene, -1, -1, 40, &n);
    REQUIRE(ref, "reference run");
    char args[1024], err[4096];
    const char *out = scratch_path("plain.h5");
    snprintf(args, sizeof args, "trace %s -o %s -q", scene, out);
    int st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    long bad = compare_h5(out, ref, n, 0, 1, 28, 0);
    CHECK(bad == 0, "%ld values differ", bad);
    snprintf(args, sizeof args, "trace %s -o %s -q --float32 --from 0.2s --ticks 12", scene, out);
    st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    bad = compare_h5(out, ref, n, 6, 1, 13, 1);
    CHECK(bad == 0, "float32: %ld values differ", bad);
    free(ref);
}

TEST(every_thins_by_ticks_or_by_time)
{
    const char *scene = scene_file();
    int n;
    double *ref = reference(scene, -1, -1, 40, &n);
    REQUIRE(ref, "reference run");
    char args[1024], err[4096];
    const char *h5 = scratch_path("thin.h5"), *csv = scratch_path("thin.csv");
    /* 5t: ticks 0, 5, ..., 25 of 0..27 */
    snprintf(args, sizeof args, "trace %s -o %s -q --every 5t", scene, h5);
    int st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    long bad = compare_h5(h5, ref, n, 0, 5, 6, 0);
    CHECK(bad == 0, "--every 5t: %ld differ", bad);
    /* 0.2s at 30 ticks per second: every 6th tick, 0..24 */
    snprintf(args, sizeof args, "trace %s -o %s -q --every 0.2s", scene, csv);
    st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    char ticks[41] = {0};
    long rows;
    compare_csv(csv, ref, n, -1, "scene", 40, &rows, &bad, ticks);
    CHECK(rows == 5L * n && bad == 0, "--every 0.2s: %ld rows, %ld differ", rows, bad);
    for (int t = 0; t <= 27; t++)
        CHECK(ticks[t] == (t % 6 == 0), "tick %d: %s", t, ticks[t] ? "present" : "missing");
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
    "assert list(f['h5md'].attrs['version']) == [1, 1]\n"
    "assert f['h5md/creator'].attrs['name'] == 'murmur'\n"
    "assert f['h5md/creator'].attrs['version']\n"
    "assert f['h5md/author'].attrs['name']\n"
    "box = f['particles/flock/box']\n"
    "assert box.attrs['dimension'] == 2\n"
    "assert list(box.attrs['boundary']) == ['periodic', 'periodic']\n"
    "assert list(box['edges'][:]) == [200.0, 150.0]\n"
    "for g in ('position', 'velocity'):\n"
    "    d = f['particles/flock/' + g]\n"
    "    assert d['value'].shape == (28, 40, 2) and d['value'].dtype == 'float64'\n"
    "    assert d['value'].chunks == (1, 40, 2) and d['value'].compression == 'gzip'\n"
    "    assert list(d['step'][:]) == list(range(28))\n"
    "    assert abs(d['time'][27] - 27 / 30) < 1e-15\n"
    "assert sorted(f['observables']) == ['clusters', 'order']\n"
    "assert f['observables/order/value'].shape == (28,)\n"
    "p = f['parameters']\n"
    "assert p.attrs['seed'] == 11 and p.attrs['run'] == -1 and p.attrs['condition'] == 'scene'\n"
    "prov = p['provenance'][()]\n"
    "assert b'ticks_per_second: 30' in prov and b'# resolved settings' in prov and b'seed: 11' in prov\n"
    "v = f['particles/flock/position/value'][13]\n"
    "w = f['particles/flock/velocity/value'][13]\n"
    "for i in range(40):\n"
    "    print(repr(float(v[i][0])), repr(float(v[i][1])), repr(float(w[i][0])), repr(float(w[i][1])))\n";

TEST(h5md_trace_read_with_h5py_has_the_layout_and_the_values)
{
    const char *py = python_with_h5py();
    if (!py)
        SKIP("no python3 with h5py (Debian: python3-h5py)");
    const char *scene = scene_file();
    int n;
    double *ref = reference(scene, -1, -1, 40, &n);
    REQUIRE(ref, "reference run");
    char args[1024], err[4096], cmd[1024];
    const char *out = scratch_path("py.h5"), *script = scratch_path("check.py");
    const char *printed = scratch_path("py.txt");
    snprintf(args, sizeof args, "trace %s -o %s -q", scene, out);
    int st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    write_file(script, h5py_script);
    snprintf(cmd, sizeof cmd, "%s %s %s >%s", py, script, out, printed);
    REQUIRE(system(cmd) == 0, "%s failed (its assertion is on stderr)", cmd);
    FILE *fp = fopen(printed, "r");
    REQUIRE(fp, "%s", printed);
    long bad = 0;
    for (int i = 0; i < n; i++) {
        double v[4];
        if (fscanf(fp, "%lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3]) != 4) {
            bad = -1;
            break;
        }
        for (int k = 0; k < 4; k++)
            bad += v[k] != ref[((size_t)13 * (size_t)n + (size_t)i) * 4 + (size_t)k];
    }
    fclose(fp);
    CHECK(bad == 0, "h5py's tick 13: %ld values differ", bad);
    free(ref);
}

/* Number of entries of dir besides . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int k = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        k += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return k;
}

static const char *fresh_dir(const char *name)
{
    const char *dir = scratch_path(name);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    if (system(cmd) != 0)
        abort();
    return dir;
}

TEST(bad_extension_condition_or_run_is_exit_2_and_writes_nothing)
{
    const char *scene = scene_file(), *dir = fresh_dir("bad");
    static const char *const cases[] = {
        "-o %s/t.txt",
        "-o %s/t.csv --condition no-such",
        "-o %s/t.h5 --condition no-such",
        "-o %s/t.csv --run 4",
        "-o %s/t.h5 --run -1",
        "-o %s/t.csv --every 0t",
        "-o %s/t.csv --from 2s",
        "-o %s/t.csv --run 1 --runs 2",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char tail[512], args[1024], err[4096];
        snprintf(tail, sizeof tail, cases[i], dir);
        snprintf(args, sizeof args, "trace %s -q %s", scene, tail);
        int st = murmur(args, err, sizeof err);
        CHECK(st == 2, "%s: exit %d: %s", tail, st, err);
        CHECK(strstr(err, "murmur") != NULL, "%s: no message", tail);
        CHECK(entries(dir) == 0, "%s: left %d files", tail, entries(dir));
    }
}

TEST(runs_give_one_csv_and_one_h5_per_run)
{
    const char *scene = scene_file(), *dir = fresh_dir("runs");
    char args[1024], err[4096], path[512];
    snprintf(args, sizeof args, "trace %s -q --runs 3 --ticks 4 -o %s/r.h5", scene, dir);
    int st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    for (int k = 0; k < 3; k++) {
        int n;
        double *ref = reference(scene, -1, k, 4, &n);
        snprintf(path, sizeof path, "%s/r-run%d.h5", dir, k);
        long bad = ref ? compare_h5(path, ref, n, 0, 1, 5, 0) : -2;
        CHECK(bad == 0, "%s: %ld differ", path, bad);
        free(ref);
    }
    CHECK(entries(dir) == 3, "%d files", entries(dir));
    snprintf(args, sizeof args, "trace %s -q --runs 2 --ticks 4 -o %s/r.csv", scene, dir);
    st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    snprintf(path, sizeof path, "%s/r.csv", dir);
    size_t len;
    char *text = test_slurp(path, &len);
    REQUIRE(text, "%s", path);
    /* header + 2 runs x 5 ticks x 40 boids; run 1's rows follow run 0's */
    long lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    CHECK(lines == 1 + 2 * 5 * 40, "%ld lines", lines);
    CHECK(strstr(text, "\n0,scene,0,0,0,") && strstr(text, "\n1,scene,4,"), "runs 0 and 1");
    free(text);
}

/* Runs murmur with args under a file size limit (writes fail with EFBIG, as
 * on a full disk, through the same path); returns the exit status. */
static int murmur_limited(const char *args, long limit, char *err, size_t n)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "ulimit -f %ld; exec %s", limit / 512, args);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    (void)err;
    (void)n;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(a_write_that_fails_half_way_leaves_nothing)
{
    const char *scene = scene_file();
    static const char *const names[] = {"t.csv", "t.h5"};
    for (int i = 0; i < 2; i++) {
        const char *dir = fresh_dir(i ? "full-h5" : "full-csv");
        char args[1024], err[4096] = "";
        const char *errfile = scratch_path("limited.err");
        /* 64 KiB: the header and the metadata fit, 28 ticks of 40 boids do not */
        snprintf(args, sizeof args, "%s trace %s -q -o %s/%s 2>%s", MURMUR_EXE, scene, dir,
                 names[i], errfile);
        int st = murmur_limited(args, 64 * 1024, err, sizeof err);
        size_t len;
        char *text = test_slurp(errfile, &len);
        CHECK(st == 1, "%s: exit %d: %s", names[i], st, text ? text : "");
        CHECK(text && strstr(text, "murmur: error: cannot write"), "%s: %s", names[i],
              text ? text : "");
        CHECK(entries(dir) == 0, "%s: %d files left", names[i], entries(dir));
        free(text);
        /* a symbolic link to /dev/full is written in place and fails, not replaced */
        char link[512], target[64] = "";
        snprintf(link, sizeof link, "%s/%s", dir, names[i]);
        CHECK(symlink("/dev/full", link) == 0, "symlink %s", link);
        snprintf(args, sizeof args, "trace %s -q -o %s", scene, link);
        st = murmur(args, err, sizeof err);
        CHECK(st == 1 && strstr(err, "cannot write"), "%s: exit %d: %s", link, st, err);
        CHECK(readlink(link, target, sizeof target - 1) > 0 && !strcmp(target, "/dev/full"),
              "%s: the link was replaced", link);
    }
}

/* A signal stops a trace between ticks: exit 130, nothing at the final
 * name, no temporary left. The signal is sent once the temporary exists
 * (a bounded poll for it), so the trace is surely under way. */
TEST(a_signal_stops_a_trace_and_leaves_nothing)
{
    const char *scene = scratch_path("long.yaml");
    write_file(scene, "seed: 1\nmodel: wrkspc\nworld: {width: 2000, height: 2000}\n"
                      "flock: {count: 5000}\n"
                      "video: {width: 160, height: 120, fps: 10, duration: 600s}\n");
    static const char *const names[] = {"t.csv", "t.h5"};
    for (int i = 0; i < 2; i++) {
        const char *dir = fresh_dir(i ? "sig-h5" : "sig-csv");
        char out[512];
        snprintf(out, sizeof out, "%s/%s", dir, names[i]);
        pid_t pid = fork();
        if (pid == 0) {
            execl(MURMUR_EXE, MURMUR_EXE, "trace", scene, "-q", "--threads", "1", "-o", out,
                  (char *)NULL);
            _exit(127);
        }
        int seen = 0;
        for (int k = 0; k < 2000 && !seen; k++) {   /* at most 20 s */
            seen = entries(dir) > 0;
            if (!seen)
                nanosleep(&(struct timespec){0, 10000000}, NULL);
        }
        CHECK(seen, "%s: no temporary appeared", names[i]);
        kill(pid, SIGTERM);
        int st;
        waitpid(pid, &st, 0);
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 130, "%s: status %d", names[i], st);
        CHECK(entries(dir) == 0, "%s: %d files left", names[i], entries(dir));
    }
}

/* A timeline that adds boids: the .h5 holds the most boids the flock ever
 * has, NaN for those not there yet; the .csv has a row per boid present. */
TEST(a_count_the_timeline_changes_gives_nan_rows_until_the_boids_exist)
{
    const char *scene = scratch_path("grow.yaml");
    write_file(scene, "seed: 2\nmodel: wrkspc\nworld: {width: 200, height: 150}\nflock: {count: 40}\n"
                      "video: {width: 160, height: 120, fps: 10, ticks_per_second: 30, duration: 1s}\n"
                      "timeline:\n  - at: 0.4s\n    set: {count: 60}\n");
    char args[1024], err[4096];
    const char *h5 = scratch_path("grow.h5"), *csv = scratch_path("grow.csv");
    snprintf(args, sizeof args, "trace %s -q -o %s", scene, h5);
    int st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    snprintf(args, sizeof args, "trace %s -q -o %s", scene, csv);
    st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    hid_t file = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(file >= 0, "%s", h5);
    hsize_t cnt, dims[3] = {0};
    double *v = read_doubles(file, "particles/flock/position/value", &cnt, dims);
    H5Fclose(file);
    REQUIRE(v && dims[0] == 28 && dims[1] == 60 && dims[2] == 2, "shape %llu %llu %llu",
            (unsigned long long)dims[0], (unsigned long long)dims[1], (unsigned long long)dims[2]);
    long nan_early = 0, nan_late = 0;
    for (int i = 0; i < 60; i++) {
        nan_early += isnan(v[i * 2]) != (i >= 40);
        nan_late += isnan(v[(27 * 60 + i) * 2]);
    }
    CHECK(nan_early == 0 && nan_late == 0, "tick 0: %ld wrong, tick 27: %ld NaN", nan_early, nan_late);
    size_t len;
    char *text = test_slurp(csv, &len);
    REQUIRE(text, "%s", csv);
    long rows0 = 0, rows27 = 0;
    for (char *p = strchr(text, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
        rows0 += !strncmp(p + 1, "-1,scene,0,", 11);
        rows27 += !strncmp(p + 1, "-1,scene,27,", 12);
    }
    CHECK(rows0 == 40 && rows27 == 60, "rows: %ld at tick 0, %ld at tick 27", rows0, rows27);
    free(text);
    free(v);
}

/* The same trace gives the same bytes, for any --threads: no modification
 * times in the file (HDF5 stores them by default, to the second). */
TEST(the_same_trace_gives_the_same_bytes)
{
    const char *scene = scene_file();
    const char *a = scratch_path("same-a.h5"), *b = scratch_path("same-b.h5");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "trace %s -q --threads 1 -o %s", scene, a);
    int st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    snprintf(args, sizeof args, "trace %s -q --threads 2 -o %s", scene, b);
    st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    size_t la, lb;
    char *ta = test_slurp(a, &la), *tb = test_slurp(b, &lb);
    CHECK(ta && tb && la == lb && !memcmp(ta, tb, la), "the two files differ");
    free(ta);
    free(tb);
    hid_t file = H5Fopen(a, H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(file >= 0, "%s", a);
    static const char *const objs[] = {"particles/flock/position/value", "particles/flock/box/edges",
                                       "parameters/provenance", "observables/order/step"};
    for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++) {
        H5O_info_t info;
        memset(&info, 0, sizeof info);
        herr_t rc = H5Oget_info_by_name2(file, objs[i], &info, H5O_INFO_TIME, H5P_DEFAULT);
        CHECK(rc >= 0 && info.mtime == 0 && info.ctime == 0, "%s: times %lld %lld", objs[i],
              (long long)info.mtime, (long long)info.ctime);
    }
    H5Fclose(file);
}

/* A CSV trace carries its provenance beside it, as every CSV murmur writes
 * does; the CSV itself keeps its header as its first line. */
TEST(a_csv_trace_has_its_provenance_beside_it)
{
    const char *scene = scene_file();
    char args[1024], err[4096], side[600];
    const char *csv = scratch_path("prov.csv");
    snprintf(args, sizeof args, "trace %s -q --ticks 3 --condition no-cohesion --run 1 -o %s", scene, csv);
    int st = murmur(args, err, sizeof err);
    REQUIRE(st == 0, "exit %d: %s", st, err);
    char *table = test_slurp(csv, NULL);
    CHECK(table && !strncmp(table, "run,condition,tick,time,id,x,y,vx,vy\n", 37), "the CSV's header moved");
    free(table);
    snprintf(side, sizeof side, "%s.provenance.txt", csv);
    char *text = test_slurp(side, NULL);
    REQUIRE(text, "no %s", side);
    CHECK(!strncmp(text, "murmur ", 7) && strstr(text, "condition no-cohesion") &&
              strstr(text, "# resolved settings") && strstr(text, "# scene file"),
          "provenance: %.300s", text);
    free(text);
}

/* Shape of dataset name ([T][N][2] as dims, its rank returned; -1: none). */
static int shape_of(hid_t file, const char *name, hsize_t dims[3])
{
    hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
    hid_t sp = d >= 0 ? H5Dget_space(d) : -1;
    int rank = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
    if (rank >= 1 && rank <= 3)
        H5Sget_simple_extent_dims(sp, dims, NULL);
    if (sp >= 0)
        H5Sclose(sp);
    if (d >= 0)
        H5Dclose(d);
    return rank;
}

/* An empty flock (count 0, or a replay with no boids) traces to a valid
 * file: the .h5's values are [T][0][2] (a chunk cannot be 0 boids wide), a
 * file libhdf5, h5py and murmur itself read back, as a replay and as a
 * saved state a timeline then fills; the .csv is its header alone, which
 * `replay:` refuses (no frames) with its line. */
TEST(a_trace_of_an_empty_flock_reads_back)
{
    const char *dir = fresh_dir("empty");
    char scene[256], h5[256], csv[256], args[1024], err[4096], text[512];
    snprintf(scene, sizeof scene, "%s/empty.yaml", dir);
    snprintf(h5, sizeof h5, "%s/empty.h5", dir);
    snprintf(csv, sizeof csv, "%s/empty.csv", dir);
    static const char head[] = "seed: 4\nworld: {width: 200, height: 150}\n"
                               "video: {width: 160, height: 120, fps: 10, ticks_per_second: 30, duration: 1s}\n";
    snprintf(text, sizeof text, "%sflock: {count: 0}\n", head);
    write_file(scene, text);
    for (int f32 = 0; f32 < 2; f32++) {
        snprintf(args, sizeof args, "trace %s -q -o %s%s", scene, h5, f32 ? " --float32" : "");
        int st = murmur(args, err, sizeof err);
        REQUIRE(st == 0, "%s: exit %d: %s", args, st, err);
        hid_t file = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
        REQUIRE(file >= 0, "%s", h5);
        hsize_t dims[3] = {0}, cnt;
        for (int w = 0; w < 2; w++) {
            const char *name = w ? "particles/flock/velocity/value" : "particles/flock/position/value";
            CHECK(shape_of(file, name, dims) == 3 && dims[0] == 28 && dims[1] == 0 && dims[2] == 2,
                  "%s%s: rank %d, [%llu][%llu][%llu] (want [28][0][2])", name, f32 ? " (float32)" : "",
                  shape_of(file, name, dims), (unsigned long long)dims[0], (unsigned long long)dims[1],
                  (unsigned long long)dims[2]);
        }
        double *step = read_doubles(file, "particles/flock/position/step", &cnt, dims);
        CHECK(step && cnt == 28 && step[0] == 0 && step[27] == 27, "steps: %llu", (unsigned long long)cnt);
        free(step);
        CHECK(shape_of(file, "parameters/state/flock_tick", dims) == 1 && dims[0] == 28, "flock_tick");
        H5Fclose(file);
    }
    const char *py = python_with_h5py();
    if (py) {
        char script[256], cmd[1024];
        snprintf(script, sizeof script, "%s/check.py", dir);
        write_file(script, "import sys, h5py\nf = h5py.File(sys.argv[1], 'r')\n"
                           "for g in ('position', 'velocity'):\n"
                           "    v = f['particles/flock/' + g + '/value']\n"
                           "    assert v.shape == (28, 0, 2), v.shape\n"
                           "    assert v[:].shape == (28, 0, 2) and v[13].shape == (0, 2)\n"
                           "    assert list(f['particles/flock/' + g + '/step'][:]) == list(range(28))\n"
                           "assert f['observables/order/value'].shape == (28,)\n");
        snprintf(cmd, sizeof cmd, "%s %s %s", py, script, h5);
        CHECK(system(cmd) == 0, "h5py: %s failed (its assertion is on stderr)", cmd);
    } else {
        fprintf(stderr, "  note: no python3 with h5py (Debian: python3-h5py): h5py's reading skipped\n");
    }
    /* murmur reads it back: replayed (and traced again), and as the state a
     * flock starts from, which the timeline then fills */
    snprintf(args, sizeof args, "trace %s -q -o %s", scene, h5);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    char rscene[256], rh5[256], sscene[256], sh5[256];
    snprintf(rscene, sizeof rscene, "%s/replay.yaml", dir);
    snprintf(rh5, sizeof rh5, "%s/replay.h5", dir);
    snprintf(text, sizeof text, "%sflock: {replay: empty.h5}\n", head);
    write_file(rscene, text);
    snprintf(args, sizeof args, "trace %s -q -o %s", rscene, rh5);
    int st = murmur(args, err, sizeof err);
    CHECK(st == 0, "trace of its replay: exit %d: %s", st, err);
    snprintf(sscene, sizeof sscene, "%s/start.yaml", dir);
    snprintf(sh5, sizeof sh5, "%s/start.h5", dir);
    snprintf(text, sizeof text, "%sflock: {start: {file: empty.h5, tick: 9}}\ntimeline:\n  - at: 0.4s\n    set: {count: 5}\n",
             head);
    write_file(sscene, text);
    snprintf(args, sizeof args, "trace %s -q -o %s", sscene, sh5);
    st = murmur(args, err, sizeof err);
    CHECK(st == 0, "trace of a flock started from it: exit %d: %s", st, err);
    hid_t file = H5Fopen(rh5, H5F_ACC_RDONLY, H5P_DEFAULT);
    hsize_t dims[3] = {0}, cnt;
    CHECK(file >= 0 && shape_of(file, "particles/flock/position/value", dims) == 3 && dims[0] == 28 && dims[1] == 0,
          "the replay's trace: [%llu][%llu]", (unsigned long long)dims[0], (unsigned long long)dims[1]);
    if (file >= 0)
        H5Fclose(file);
    file = H5Fopen(sh5, H5F_ACC_RDONLY, H5P_DEFAULT);
    double *v = file >= 0 ? read_doubles(file, "particles/flock/position/value", &cnt, dims) : NULL;
    double *ft = file >= 0 ? read_doubles(file, "parameters/state/flock_tick", &cnt, dims) : NULL;
    if (file >= 0)
        H5Fclose(file);
    REQUIRE(v && ft, "the started flock's trace cannot be read");
    long wrong = 0;   /* empty before 0.4 s (tick 12), five boids after it */
    for (int t = 0; t < 28; t++)
        for (int i = 0; i < 5 && t != 12; i++)
            wrong += isnan(v[(t * 5 + i) * 2]) != (t < 12);
    CHECK(wrong == 0, "%ld positions wrong (NaN before tick 12, numbers after)", wrong);
    CHECK(ft[0] == 9, "the state's tick counter: %g (want 9, the saved tick's)", ft[0]);
    free(v);
    free(ft);
    /* the .csv: its header alone, which a replay refuses at its line */
    snprintf(args, sizeof args, "trace %s -q -o %s", scene, csv);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    char *table = test_slurp(csv, NULL);
    CHECK(table && !strcmp(table, "run,condition,tick,time,id,x,y,vx,vy\n"), "the empty CSV: %s", table ? table : "(none)");
    free(table);
    snprintf(text, sizeof text, "%sflock: {replay: empty.csv}\n", head);
    write_file(rscene, text);
    snprintf(args, sizeof args, "trace %s -q -o %s/replay.csv", rscene, dir);
    st = murmur(args, err, sizeof err);
    CHECK(st == 2 && strstr(err, "empty.csv:1: error: a header and no rows"), "replay of the empty CSV: exit %d: %s",
          st, err);
    snprintf(args, sizeof args, "%s/replay.csv", dir);
    CHECK(access(args, F_OK) != 0, "a refused replay wrote %s", args);
}

TEST(a_traced_condition_says_its_own_boids_and_the_files_written)
{
    const char *dir = fresh_dir("said");
    char scene[512], args[1024], err[4096];
    snprintf(scene, sizeof scene, "%s/sweep.yaml", dir);
    write_file(scene, "seed: 2\nmodel: wrkspc\nworld: {width: 300, height: 200}\nflock: {count: 100}\n"
                      "experiment: {runs: 4, sweep: {count: [100, 800]}}\n");
    snprintf(args, sizeof args, "trace %s --condition count=800 --ticks 10t -o %s/c.h5", scene, dir);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    CHECK(strstr(err, "c.h5 (11 ticks of 800 boids, 1 run)"), "one run: %s", err);
    snprintf(args, sizeof args, "trace %s --condition count=800 --runs 4 --ticks 10t -o %s/c.h5", scene, dir);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    char want[600];
    snprintf(want, sizeof want, "wrote %s/c-run0.h5 ... %s/c-run3.h5 (11 ticks of 800 boids, 4 runs)", dir, dir);
    CHECK(strstr(err, want), "four runs: %s", err);
    for (int k = 0; k < 4; k++) {
        char path[600];
        snprintf(path, sizeof path, "%s/c-run%d.h5", dir, k);
        CHECK(access(path, F_OK) == 0, "%s not written", path);
    }
    /* a CSV keeps every run in one file, and says so */
    snprintf(args, sizeof args, "trace %s --runs 2 --ticks 3t -o %s/c.csv", scene, dir);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    snprintf(want, sizeof want, "wrote %s/c.csv (4 ticks of 100 boids, 2 runs)", dir);
    CHECK(strstr(err, want), "csv: %s", err);
}

/* Boids at rest give velocities of -0 (the model's arithmetic keeps the
 * sign): a CSV trace writes them 0, as every murmur number is written
 * (mur_format_double). */
TEST(a_csv_trace_writes_0_not_negative_zero)
{
    char b[MUR_FORMAT_SIZE];
    mur_format_double(b, sizeof b, -0.0);
    CHECK(!strcmp(b, "0"), "-0 as '%s'", b);
    mur_format_double(b, sizeof b, 0.1);
    CHECK(!strcmp(b, "0.1"), "0.1 as '%s' (the shortest that reads back)", b);
    const char *scene = scratch_path("rest.yaml"), *out = scratch_path("rest.csv");
    write_file(scene, "world: {width: 100, height: 100, boundary: avoid}\n"
                      "flock: {count: 50, speed_rule: clamp, max_speed: 0, min_speed: 0, init_speed_min: 0, "
                      "init_speed_max: 0}\n");
    char args[1024], err[2048];
    snprintf(args, sizeof args, "trace %s --ticks 2t -q -o %s", scene, out);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    char *csv = test_slurp(out, NULL);
    REQUIRE(csv, "no trace");
    int zeros = 0, negative = 0;
    for (char *p = csv; *p; p++)
        if ((p == csv || p[-1] == ',' || p[-1] == '\n') && (p[0] == '0' || (p[0] == '-' && p[1] == '0')) &&
            (p[1 + (p[0] == '-')] == ',' || p[1 + (p[0] == '-')] == '\n')) {
            negative += p[0] == '-';
            zeros++;
        }
    CHECK(zeros > 100 && negative == 0, "%d zero fields, %d of them -0", zeros, negative);
    free(csv);
}
