/* The trace writers (murmur/trace_writer.h) on plain data, with no scene:
 * metadata once, then frames, to CSV (the exact text) and to H5MD (read
 * back with libhdf5, a replay's ids to their rows); what is not a trace is
 * refused; the writer's header and sources know no scene. */
#include "murmur/trace_writer.h"

#ifdef MURMUR_SCENE_H
#error "murmur/trace_writer.h includes murmur/scene.h"
#endif

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "harness.h"

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    rewind(fp);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(fp);
    return buf;
}

static mur_trace_meta meta(int format)
{
    static const char *const names[2] = {"order", "largest"};
    mur_trace_meta m = {MUR_TRACE_META_VERSION, format, "all", 0, 7, 2, {200, 150, 0}, 1, 3, 0,
                        names, 2, "x.yaml", 11, 30, 0, 6, 3, "provenance text"};
    return m;
}

TEST(a_csv_trace_is_its_frames_run_after_run)
{
    const char *path = scratch_path("w.csv");
    mur_error err = {{0}};
    mur_trace_writer *w = NULL;
    mur_trace_meta m = meta(MUR_TRACE_CSV);
    m.condition = "a,\"b\"";
    const double x[2] = {1.5, -0.0}, y[2] = {2, 0.1}, vx[2] = {-1, 3}, vy[2] = {0, 1e-300};
    const int ids[2] = {4, 9};
    mur_trace_frame f = {3, 0.1, 2, x, y, vx, vy, NULL, NULL, 0, {0}, NULL, NULL};
    CHECK(mur_trace_writer_open(&w, path, path, &m, &err) == MUR_OK, "%s", err.msg);
    CHECK(w && mur_trace_writer_frame(w, &f, &err) == MUR_OK, "%s", err.msg);
    m.condition = "c";
    m.run = 1;
    f.ids = ids;
    f.n = 1;
    CHECK(w && mur_trace_writer_run(w, &m, &err) == MUR_OK, "%s", err.msg);
    CHECK(w && mur_trace_writer_frame(w, &f, &err) == MUR_OK, "%s", err.msg);
    CHECK(mur_trace_writer_close(w, &err) == MUR_OK, "%s", err.msg);
    char *text = slurp(path);
    const char *want = MUR_TRACE_CSV_HEADER
        "0,\"a,\"\"b\"\"\",3,0.1,0,1.5,2,-1,0\n"
        "0,\"a,\"\"b\"\"\",3,0.1,1,0,0.1,3,1e-300\n"
        "1,c,3,0.1,4,1.5,2,-1,0\n";
    CHECK(text && !strcmp(text, want), "got:\n%s", text ? text : "(none)");
    free(text);
}

/* Dataset name of file path as n doubles into v. */
static int read_doubles(const char *path, const char *name, double *v, size_t n)
{
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = file >= 0 ? H5Dopen2(file, name, H5P_DEFAULT) : -1;
    hid_t sp = d >= 0 ? H5Dget_space(d) : -1;
    int ok = sp >= 0 && (size_t)H5Sget_simple_extent_npoints(sp) == n &&
             H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0;
    if (sp >= 0)
        H5Sclose(sp);
    if (d >= 0)
        H5Dclose(d);
    if (file >= 0)
        H5Fclose(file);
    return ok;
}

TEST(an_h5_trace_puts_each_id_in_its_row_and_its_observables_beside)
{
    const char *path = scratch_path("w.h5");
    mur_error err = {{0}};
    mur_trace_writer *w = NULL;
    mur_trace_meta m = meta(MUR_TRACE_H5);
    const double x[2] = {1, 2}, y[2] = {3, 4}, v[2] = {0, 0}, obs[2] = {0.25, 2};
    const int ids[2] = {2, 0};
    mur_trace_frame f = {0, 0, 2, x, y, v, v, ids, obs, 5, {1, 2, 3, 4}, NULL, NULL};
    CHECK(mur_trace_writer_open(&w, path, path, &m, &err) == MUR_OK, "%s", err.msg);
    CHECK(w && mur_trace_writer_frame(w, &f, &err) == MUR_OK, "%s", err.msg);
    f.tick = 3;
    f.n = 1;
    CHECK(w && mur_trace_writer_frame(w, &f, &err) == MUR_OK, "%s", err.msg);
    CHECK(w && mur_trace_writer_run(w, &m, &err) == MUR_EINPUT, "an .h5 took a second run");
    CHECK(mur_trace_writer_close(w, &err) == MUR_OK, "%s", err.msg);
    double pos[12], order[2], edges[2];
    CHECK(read_doubles(path, "particles/flock/position/value", pos, 12), "no positions [2][3][2]");
    CHECK(pos[0] == 2 && pos[1] == 4 && isnan(pos[2]) && pos[4] == 1 && pos[5] == 3, "frame 0 rows: %g %g %g %g",
          pos[0], pos[1], pos[4], pos[5]);
    CHECK(isnan(pos[6]) && pos[10] == 1 && pos[11] == 3, "frame 1: only id 2 in its row");
    CHECK(read_doubles(path, "observables/order/value", order, 2) && order[0] == 0.25 && order[1] == 0.25,
          "the observables' values");
    CHECK(read_doubles(path, "particles/flock/box/edges", edges, 2) && edges[0] == 200 && edges[1] == 150,
          "the box's edges");
}

TEST(what_is_not_a_trace_is_refused)
{
    const char *path = scratch_path("bad.h5");
    mur_error err = {{0}};
    mur_trace_writer *w = NULL;
    mur_trace_meta m = meta(MUR_TRACE_H5);
    m.dimension = 4;
    CHECK(mur_trace_writer_open(&w, path, path, &m, &err) == MUR_EINPUT && !w, "dimension 4 taken");
    m = meta(MUR_TRACE_H5);
    m.version = MUR_TRACE_META_VERSION + 1;
    CHECK(mur_trace_writer_open(&w, path, path, &m, &err) == MUR_EINPUT && !w, "a later version taken");
    m = meta(7);
    CHECK(mur_trace_writer_open(&w, path, path, &m, &err) == MUR_EINPUT && !w, "format 7 taken");
    m = meta(MUR_TRACE_H5);
    const double x[1] = {0};
    const int ids[1] = {3};   /* rows 0..2 */
    mur_trace_frame f = {0, 0, 1, x, x, x, x, ids, x, 0, {0}, NULL, NULL};
    CHECK(mur_trace_writer_open(&w, path, path, &m, &err) == MUR_OK, "%s", err.msg);
    CHECK(w && mur_trace_writer_frame(w, &f, &err) == MUR_EINPUT && strstr(err.msg, "id 3"), "id 3 of 3 rows: %s",
          err.msg);
    f.ids = NULL;
    f.observables = NULL;
    CHECK(w && mur_trace_writer_frame(w, &f, &err) == MUR_EINPUT, "a frame without its observables taken");
    mur_trace_writer_close(w, NULL);
    CHECK(mur_trace_format_of("a.csv") == MUR_TRACE_CSV && mur_trace_format_of("a.h5md") == MUR_TRACE_H5 &&
              mur_trace_format_of("a.h5.txt") < 0,
          "formats by extension");
}

/* The writer knows no scene: its sources include no scene, experiment,
 * shard or trace (session) header, wherever the house keeps them. */
TEST(the_writers_sources_include_no_scene_header)
{
    static const char *const files[] = {"trace.c", "trace_h5.c", "trace_internal.h"};
    static const char *const banned[] = {"murmur/scene.h", "murmur/experiment.h", "murmur/shard.h",
                                         "murmur/trace.h\"", "murmur/twin.h", "murmur/variant.h"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char p[256];
        snprintf(p, sizeof p, "src/data/%s", files[i]);
        char *text = slurp(p);
        if (!text) {
            snprintf(p, sizeof p, "src/output/%s", files[i]);
            text = slurp(p);
        }
        CHECK(text, "no %s in src/data or src/output", files[i]);
        for (size_t j = 0; text && j < sizeof banned / sizeof *banned; j++)
            CHECK(!strstr(text, banned[j]), "%s includes %s", p, banned[j]);
        free(text);
    }
}
