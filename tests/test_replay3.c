/* Replays of 3D tracks (issue #29; docs/data.md "Recorded flocks in"): a
 * 3D world replaying the trace of another, CSV (frame,id,x,y,z) or H5MD
 * (dimension 3), draws the same frames; velocities come from the moves in
 * 3D when a file has none; a 3D replay missing z, a 2D recording in a 3D
 * world and a 3D one in the plane are refused naming the line, exit 2. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/flock.h"
#include "murmur/scene.h"
#include "murmur/session.h"
#include "murmur/trace.h"

static mur_scene *scene_in_scratch(const char *yaml, mur_error *err)
{
    mur_scene *s = NULL;
    memset(err, 0, sizeof *err);
    mur_scene_parse(&s, scratch_path("scene3.yaml"), yaml, strlen(yaml), err);
    return s;
}

/* FNV-1a of frames [0, n) of a scene's render on `threads` threads: one hash per frame into h. */
static int frame_hashes(const mur_scene *s, long n, int threads, uint64_t *h)
{
    mur_session *ss = NULL;
    mur_error err;
    mur_session_opts o = MUR_SESSION_OPTS_INIT;
    o.threads = threads;
    if (mur_session_create(&ss, s, &o, &err)) {
        fprintf(stderr, "  session: %s\n", err.msg);
        return -1;
    }
    for (long k = 0; k < n; k++) {
        const uint8_t *px;
        int stride;
        if (mur_session_frame(ss, k, &px, &stride, &err)) {
            fprintf(stderr, "  frame %ld: %s\n", k, err.msg);
            mur_session_destroy(ss);
            return -1;
        }
        uint64_t v = 1469598103934665603ULL;
        for (int y = 0; y < s->height; y++)
            for (int x = 0; x < 4 * s->width; x++)
                v = (v ^ px[(size_t)y * stride + x]) * 1099511628211ULL;
        h[k] = v;
    }
    mur_session_destroy(ss);
    return 0;
}

/* A 3D world seen from the ground, the camera following the flock, its
 * readout measuring it: a replay must give every one of these the same. */
#define SCENE3                                                                                          \
    "model: wrkspc\nseed: 7\nworld: {dimensions: 3, width: 240, height: 160, depth: 120}\n"           \
    "video: {width: 240, height: 160, duration: 2s, fps: 15%s}\n"                                       \
    "camera: {position: [120, -150, 10], target: [120, 80, 60], follow: flock}\n"                     \
    "look:\n  boid: {size: 5}\n  overlays: [{readout: [order, nearest, thickness]}]\n"

static void replay3_equals_scene(const char *file)
{
    char text[1024];
    snprintf(text, sizeof text, SCENE3 "flock: {count: 120, noise: 0.05}\n", ", warmup: 30t");
    mur_error err;
    mur_scene *a = scene_in_scratch(text, &err);
    REQUIRE(a, "%s", err.msg);
    mur_trace_opts o = MUR_TRACE_OPTS_INIT;
    o.path = scratch_path(file);
    REQUIRE(mur_trace_write(a, &o, &err) == MUR_OK, "%s", err.msg);
    snprintf(text, sizeof text, SCENE3 "flock: {noise: 0.05, replay: %s}\n", "", file);
    mur_scene *b = scene_in_scratch(text, &err);
    REQUIRE(b, "%s", err.msg);
    CHECK(b->params.dimensions == 3 && b->params.count == 120, "the replay: %dD, %d boids", b->params.dimensions,
          b->params.count);
    long n = mur_scene_frames(a);
    uint64_t ha[64], hb[64], hc[64];
    REQUIRE(n > 10 && n <= 64 && n == mur_scene_frames(b), "frames %ld and %ld", n, mur_scene_frames(b));
    REQUIRE(frame_hashes(a, n, 1, ha) == 0 && frame_hashes(b, n, 1, hb) == 0 && frame_hashes(b, n, 2, hc) == 0,
            "rendering failed");
    int differ = 0, moved = 0, threads = 0;
    for (long k = 0; k < n; k++) {
        differ += ha[k] != hb[k];
        threads += hb[k] != hc[k];
        moved += k > 0 && ha[k] != ha[k - 1];
    }
    CHECK(moved > n / 2, "only %d of %ld frames differ from the one before: the test cannot fail", moved, n);
    CHECK(differ == 0, "%d of %ld frames of the replayed %s differ from the scene's", differ, n, file);
    CHECK(threads == 0, "%d of %ld frames of the replayed %s differ on 2 threads", threads, n, file);
    mur_scene_destroy(a);
    mur_scene_destroy(b);
}

TEST(rendering_the_3d_h5_trace_of_a_scene_gives_its_frames) { replay3_equals_scene("full3.h5"); }
TEST(rendering_the_3d_csv_trace_of_a_scene_gives_its_frames) { replay3_equals_scene("full3.csv"); }

/* A 3D replay of csv in a 100 x 100 x 50 reflecting world, or NULL with err. */
static mur_scene *replay3_of(const char *csv, int dimensions, mur_error *err)
{
    write_file(scratch_path("tracks3.csv"), csv);
    char text[512];
    snprintf(text, sizeof text, "model: wrkspc\nworld: {%swidth: 100, height: 100, boundary: reflect}\n"
                                "video: {duration: 1s, ticks_per_second: 30}\nflock: {replay: tracks3.csv}\n",
             dimensions == 3 ? "dimensions: 3, depth: 50, " : "");
    return scene_in_scratch(text, err);
}

TEST(a_3d_replay_s_velocities_come_from_its_moves_in_3d)
{
    mur_error err;
    mur_scene *s = replay3_of("frame,id,x,y,z\n0,4,10,10,5\n0,9,20,20,40\n"
                              "2,4,12,11,9\n2,9,24,20,30\n",
                              3, &err);
    REQUIRE(s, "%s", err.msg);
    mur_flock *f = NULL;
    mur_driver *d = NULL;
    REQUIRE(mur_flock_create(&f, &s->params, 1, &err) == 0 && mur_driver_create(&d, &err) == 0, "%s", err.msg);
    REQUIRE(mur_driver_start(d, s, f, &s->params, &err) == 0, "%s", err.msg);
    REQUIRE(mur_flock_count(f) == 2 && mur_flock_z(f), "frame 0: %d boids, z %s", mur_flock_count(f),
            mur_flock_z(f) ? "given" : "missing");
    CHECK(mur_flock_z(f)[0] == 5 && mur_flock_z(f)[1] == 40, "frame 0's heights: %g, %g", mur_flock_z(f)[0],
          mur_flock_z(f)[1]);
    /* frame 0: toward frame 2, the move over 2 ticks */
    CHECK(mur_flock_vx(f)[0] == 1 && mur_flock_vy(f)[0] == 0.5 && mur_flock_vz(f)[0] == 2,
          "id 4 at frame 0: v = (%g, %g, %g), want (1, 0.5, 2)", mur_flock_vx(f)[0], mur_flock_vy(f)[0],
          mur_flock_vz(f)[0]);
    CHECK(mur_flock_vz(f)[1] == -5, "id 9 at frame 0: vz %g, want -5", mur_flock_vz(f)[1]);
    REQUIRE(mur_driver_run_to(d, 3, &err) == 0, "%s", err.msg);
    CHECK(mur_flock_z(f)[0] == 9 && mur_flock_vz(f)[0] == 2, "tick 3 holds frame 2: z %g vz %g",
          mur_flock_z(f)[0], mur_flock_vz(f)[0]);
    mur_driver_destroy(d);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* The loader's message for a replay of csv in a world of `dimensions`, or "" when it loads. */
static const char *refusal3(const char *csv, int dimensions)
{
    static char msg[1024];
    mur_error err;
    mur_scene *s = replay3_of(csv, dimensions, &err);
    snprintf(msg, sizeof msg, "%s", s ? "" : err.msg);
    mur_scene_destroy(s);
    return msg;
}

TEST(bad_3d_replay_files_are_refused_with_their_line)
{
    static const struct {
        const char *csv, *want;
        int dimensions;
    } cases[] = {
        {"frame,id,x,y\n0,1,2,3\n", "tracks3.csv:1: error: no 'z' column: a replay in a 3D world", 3},
        {"frame,id,x,y,z\n0,1,2,3,4\n0,2,2,3,\n", "tracks3.csv:3: error: z = '' is not a number", 3},
        {"frame,id,x,y,z\n0,1,2,3,4\n0,2,2,3,high\n", "tracks3.csv:3: error: z = 'high' is not a number", 3},
        {"frame,id,x,y,z\n0,1,2,3,4\n0,2,2,3,500\n", "tracks3.csv:3: error: z = 500 lies far outside the world "
                                                     "(0 to 50): set world.depth", 3},
        {"frame,id,x,y,z,vx,vy\n0,1,2,3,4,1,1\n", "tracks3.csv:1: error: 'vx' without 'vz'", 3},
        {"frame,id,x,y,z,vz\n0,1,2,3,4,1\n", "tracks3.csv:1: error: 'vz' without 'vx'", 3},
        {"frame,id,x,y,z\n0,1,2,3,4\n", "tracks3.csv:1: error: a 'z' column: a 3D recording cannot replay in a "
                                        "2D world", 2},
        {"frame,id,x,y,vz\n0,1,2,3,4\n", "tracks3.csv:1: error: a 'vz' column", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = refusal3(cases[i].csv, cases[i].dimensions);
        CHECK(strstr(got, cases[i].want) != NULL, "case %zu: want '%s', got '%s'", i, cases[i].want, got);
    }
    CHECK(!*refusal3("frame,id,x,y,z,vx,vy,vz\n0,1,2,3,4,1,0,0\n", 3), "a full 3D row: %s",
          refusal3("frame,id,x,y,z,vx,vy,vz\n0,1,2,3,4,1,0,0\n", 3));
    CHECK(!*refusal3("frame,id,x,y\n0,1,2,3\n", 2), "a 2D row in the plane: %s", refusal3("frame,id,x,y\n0,1,2,3\n", 2));
}

/* Through the command line: exit 2, the scene's or the file's line named. */
TEST(a_3d_replay_of_the_wrong_dimensions_exits_2_naming_the_line)
{
    char args[1024], err[4096];
    const char *flat = scratch_path("flat2.yaml"), *deep = scratch_path("deep3.yaml");
    write_file(flat, "model: wrkspc\nseed: 3\nworld: {width: 200, height: 200}\nflock: {count: 20}\n"
                     "video: {duration: 1s}\n");
    write_file(deep, "model: wrkspc\nseed: 3\nworld: {dimensions: 3, width: 200, height: 200, depth: 100}\n"
                     "flock: {count: 20}\nvideo: {duration: 1s}\n");
    static const char *const outs[] = {"flat2.h5", "flat2.csv", "deep3.h5", "deep3.csv"};
    for (int k = 0; k < 4; k++) {
        snprintf(args, sizeof args, "trace %s -o %s --to 5t -q", k < 2 ? flat : deep, scratch_path(outs[k]));
        int st = murmur(args, err, sizeof err);
        REQUIRE(st == 0, "trace %s: exit %d: %s", outs[k], st, err);
    }
    static const struct {
        const char *yaml, *where, *says;
    } cases[] = {
        {"model: wrkspc\nworld: {dimensions: 3, width: 200, height: 200, depth: 100}\nflock: {replay: flat2.h5}\n",
         "r.yaml:3:17", "traced in a 2D world"},
        {"model: wrkspc\nworld: {width: 200, height: 200}\nflock: {replay: deep3.h5}\n", "r.yaml:3:17",
         "cannot replay in a 2D world"},
        {"model: wrkspc\nworld: {dimensions: 3, width: 200, height: 200, depth: 100}\nflock: {replay: flat2.csv}\n",
         "flat2.csv:1: error", "no 'z' column"},
        {"model: wrkspc\nworld: {width: 200, height: 200}\nflock: {replay: deep3.csv}\n", "deep3.csv:1: error",
         "a 'z' column"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(check_refuses("r.yaml", cases[i].yaml, cases[i].where, cases[i].says, err, sizeof err), "case %zu: %s",
              i, err);
    /* and the right ones load */
    write_file(scratch_path("ok3.yaml"), "model: wrkspc\nworld: {dimensions: 3, width: 200, height: 200, depth: 100}\n"
                                         "flock: {replay: deep3.csv}\nvideo: {duration: 1s}\n");
    snprintf(args, sizeof args, "check %s", scratch_path("ok3.yaml"));
    CHECK(murmur(args, err, sizeof err) == 0, "a 3D CSV trace in a 3D world: %s", err);
}
