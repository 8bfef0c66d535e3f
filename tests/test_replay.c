/* Recorded flocks in (docs/data.md): a scene replaying the trace of another
 * draws the same frames; a flock started from a saved state goes on bit
 * for bit as the run that saved it; ids come and go; velocities are worked
 * out from moves; and every bad file is refused with its file and line (or
 * dataset), exit status 2, nothing written. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <hdf5.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/session.h"
#include "murmur/render.h"
#include "murmur/trace.h"

/* A scene from text, named as a file in the scratch folder (a recording's
 * path is taken relative to it). */
static mur_scene *scene_in_scratch(const char *yaml, mur_error *err)
{
    mur_scene *s = NULL;
    memset(err, 0, sizeof *err);
    mur_scene_parse(&s, scratch_path("scene.yaml"), yaml, strlen(yaml), err);
    return s;
}

/* FNV-1a of frames [0, n) of a scene's render: one hash per frame into h. */
static int frame_hashes(const mur_scene *s, long n, uint64_t *h)
{
    mur_session *ss = NULL;
    mur_error err;
    if (mur_session_create(&ss, s, NULL, &err)) {
        fprintf(stderr, "  session: %s\n", err.msg);
        return -1;
    }
    for (long k = 0; k < n; k++) {
        const uint8_t *px;
        int stride;
        if (mur_session_frame(ss, k, &px, &stride, &err)) {
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

#define MODEL_SCENE                                                                                \
    "model: wrkspc\nseed: 7\nworld: {width: 240, height: 160}\n"                                  \
    "video: {width: 240, height: 160, duration: 2s, fps: 30%s}\n"                                  \
    "look:\n  boid: {color: heading}\n  trails: {length: 15}\n"                                    \
    "  overlays: [{readout: [order, clusters]}, {plot: {metric: nearest}}]\n"

static void replay_equals_scene(const char *file)
{
    char text[1024];
    snprintf(text, sizeof text, MODEL_SCENE "flock: {count: 60, noise: 0.05}\n", ", warmup: 30t");
    mur_error err;
    mur_scene *a = scene_in_scratch(text, &err);
    REQUIRE(a, "%s", err.msg);
    mur_trace_opts o = MUR_TRACE_OPTS_INIT;
    o.path = scratch_path(file);
    REQUIRE(mur_trace_write(a, &o, &err) == MUR_OK, "%s", err.msg);
    snprintf(text, sizeof text, MODEL_SCENE "flock: {noise: 0.05, replay: %s}\n", "", file);
    mur_scene *b = scene_in_scratch(text, &err);
    REQUIRE(b, "%s", err.msg);
    long n = mur_scene_frames(a);
    uint64_t ha[64], hb[64];
    REQUIRE(n <= 64 && n == mur_scene_frames(b), "frames %ld and %ld", n, mur_scene_frames(b));
    CHECK(frame_hashes(a, n, ha) == 0 && frame_hashes(b, n, hb) == 0, "rendering failed");
    int differ = 0;
    for (long k = 0; k < n; k++)
        differ += ha[k] != hb[k];
    CHECK(differ == 0, "%d of %ld frames of the replayed %s differ from the scene's", differ, n, file);
    mur_scene_destroy(a);
    mur_scene_destroy(b);
}

TEST(rendering_the_h5_trace_of_a_scene_gives_its_frames) { replay_equals_scene("full.h5"); }
TEST(rendering_the_csv_trace_of_a_scene_gives_its_frames) { replay_equals_scene("full.csv"); }

/* A flock's state, copied. */
typedef struct {
    int n;
    double *v;
} snap;

static snap take(const mur_flock *f)
{
    snap s = {mur_flock_count(f), NULL};
    s.v = malloc((size_t)(s.n ? s.n : 1) * 4 * sizeof(double));
    const double *a[4] = {mur_flock_x(f), mur_flock_y(f), mur_flock_vx(f), mur_flock_vy(f)};
    for (int k = 0; k < 4; k++)
        memcpy(s.v + (size_t)k * s.n, a[k], (size_t)s.n * sizeof(double));
    return s;
}

static int same(snap a, snap b)
{
    return a.n == b.n && !memcmp(a.v, b.v, (size_t)a.n * 4 * sizeof(double));
}

TEST(a_flock_started_from_a_saved_state_goes_on_bit_for_bit)
{
    /* Noise is drawn from the tick counter, and boids the timeline adds
     * from the stream: both must be restored for the runs to agree. a
     * drops 10 boids before the save and adds 15 after it, so its stream
     * has drawn 90 boids where a fresh flock of 80 would have drawn 80. */
    const char *scene = "model: wrkspc\nseed: 11\nworld: {width: 240, height: 160}\n"
                        "video: {width: 240, height: 160, duration: 6s%s}\n"
                        "flock: {count: %d, noise: 0.08%s}\n"
                        "timeline:\n%s  - {at: %s, set: {count: 95}}\n";
    char text[1024];
    snprintf(text, sizeof text, scene, ", warmup: 45t", 90, "", "  - {at: 0.5s, set: {count: 80}}\n", "3s");
    mur_error err;
    mur_scene *a = scene_in_scratch(text, &err);
    REQUIRE(a, "%s", err.msg);
    mur_trace_opts o = MUR_TRACE_OPTS_INIT;
    o.path = scratch_path("formed.h5");
    o.first = o.last = 60;   /* 1 s */
    REQUIRE(mur_trace_write(a, &o, &err) == MUR_OK, "%s", err.msg);
    /* b starts at a's 1 s, with no warm-up, and adds the boids 1 s earlier;
     * its count is the state's (the key is there for a's sake, and agrees) */
    snprintf(text, sizeof text, scene, "", 80, ", start: formed.h5", "", "2s");
    mur_scene *b = scene_in_scratch(text, &err);
    REQUIRE(b, "%s\n%s", err.msg, text);
    CHECK(b->params.count == 80, "the state's count, not %d", b->params.count);
    mur_flock *fa = NULL, *fb = NULL;
    mur_driver *da = NULL, *db = NULL;
    REQUIRE(mur_flock_create(&fa, &a->params, a->seed, &err) == 0 &&
                mur_flock_create(&fb, &b->params, b->seed, &err) == 0,
            "%s", err.msg);
    REQUIRE(mur_driver_create(&da, &err) == 0 && mur_driver_create(&db, &err) == 0, "%s", err.msg);
    REQUIRE(mur_driver_start(da, a, fa, &a->params, &err) == 0 &&
                mur_driver_start(db, b, fb, &b->params, &err) == 0,
            "%s", err.msg);
    int bad = -1;
    for (long k = 0; k <= 240 && bad < 0; k += 3) {
        mur_driver_run_to(da, 60 + k, &err);
        mur_driver_run_to(db, k, &err);
        snap sa = take(fa), sb = take(fb);
        if (!same(sa, sb))
            bad = (int)k;
        free(sa.v);
        free(sb.v);
    }
    CHECK(bad < 0, "the continued run differs from the saved run %d ticks after the state", bad);
    CHECK(mur_flock_count(fb) == 95, "the boids added by the timeline: %d", mur_flock_count(fb));
    mur_driver_destroy(da);
    mur_driver_destroy(db);
    mur_flock_destroy(fa);
    mur_flock_destroy(fb);
    mur_scene_destroy(a);
    mur_scene_destroy(b);
}

TEST(start_takes_a_chosen_tick_of_a_longer_trace)
{
    const char *text = "model: wrkspc\nseed: 3\nworld: {width: 240, height: 160}\n"
                       "video: {width: 240, height: 160, duration: 2s}\nflock: {count: 40}\n";
    mur_error err;
    mur_scene *a = scene_in_scratch(text, &err);
    REQUIRE(a, "%s", err.msg);
    mur_trace_opts o = MUR_TRACE_OPTS_INIT;
    o.path = scratch_path("long.h5");
    o.every = 10;
    REQUIRE(mur_trace_write(a, &o, &err) == MUR_OK, "%s", err.msg);
    mur_scene *b = scene_in_scratch("model: wrkspc\nseed: 3\nworld: {width: 240, height: 160}\n"
                                    "flock: {start: {file: long.h5, tick: 50}}\n", &err);
    REQUIRE(b, "%s", err.msg);
    mur_flock *fa = NULL, *fb = NULL;
    mur_driver *da = NULL, *db = NULL;
    mur_flock_create(&fa, &a->params, a->seed, &err);
    mur_flock_create(&fb, &b->params, b->seed, &err);
    REQUIRE(mur_driver_create(&da, &err) == 0 && mur_driver_create(&db, &err) == 0, "%s", err.msg);
    mur_driver_start(da, a, fa, &a->params, &err);
    mur_driver_start(db, b, fb, &b->params, &err);
    mur_driver_run_to(da, 50, &err);
    snap sa = take(fa), sb = take(fb);
    CHECK(same(sa, sb), "tick 50 of the file is not the flock's state at tick 50");
    free(sa.v);
    free(sb.v);
    mur_scene *c = scene_in_scratch("model: wrkspc\nworld: {width: 240, height: 160}\n"
                                    "flock: {start: {file: long.h5, tick: 55}}\n", &err);
    CHECK(!c && strstr(err.msg, "long.h5: error: particles/flock/position/step: no step 55 (it holds steps 0 to 110)"),
          "a tick the file lacks: %s", err.msg);
    mur_scene_destroy(c);
    mur_driver_destroy(da);
    mur_driver_destroy(db);
    mur_flock_destroy(fa);
    mur_flock_destroy(fb);
    mur_scene_destroy(a);
    mur_scene_destroy(b);
}

/* A replayed flock at tick t of a scene replaying csv (world 100 x 100). */
static mur_scene *replay_of(const char *csv, mur_error *err)
{
    write_file(scratch_path("tracks.csv"), csv);
    return scene_in_scratch("model: wrkspc\nworld: {width: 100, height: 100, boundary: reflect}\n"
                            "flock: {replay: tracks.csv}\n"
                            "video: {width: 100, height: 100, duration: 1s, ticks_per_second: 30}\n",
                            err);
}

TEST(ids_come_and_go_and_velocities_come_from_the_moves)
{
    /* id 9 is in frames 0-1 and 4; id 2 from frame 2; no frame 3: frame 2 holds */
    mur_error err;
    mur_scene *s = replay_of("frame,id,x,y,label\n"
                             "0,9,10,10,a\n0,4,50,50,b\n"
                             "1,4,51,50,b\n1,9,12,11,a\n"
                             "2,4,52,50.5,b\n2,2,80,80,c\n"
                             "4,2,80,84,c\n4,9,20,20,a\n4,4,54,51,b\n",
                             &err);
    REQUIRE(s, "%s", err.msg);
    CHECK(s->params.count == 3, "the count is the most boids of a frame: %d", s->params.count);
    mur_flock *f = NULL;
    mur_driver *d = NULL;
    REQUIRE(mur_flock_create(&f, &s->params, 1, &err) == 0 && mur_driver_create(&d, &err) == 0, "%s",
            err.msg);
    REQUIRE(mur_driver_start(d, s, f, &s->params, &err) == 0, "%s", err.msg);
    const int *ids = mur_flock_ids(f);
    CHECK(mur_flock_count(f) == 2 && ids && ids[0] == 4 && ids[1] == 9, "frame 0: ids 4, 9");
    /* seen in frames 0 and 1: velocity towards frame 1 at frame 0 */
    CHECK(mur_flock_vx(f)[1] == 2 && mur_flock_vy(f)[1] == 1, "id 9 at frame 0: v = (%g, %g)",
          mur_flock_vx(f)[1], mur_flock_vy(f)[1]);
    mur_driver_run_to(d, 3, &err);
    ids = mur_flock_ids(f);
    CHECK(mur_flock_count(f) == 2 && ids[0] == 2 && ids[1] == 4, "tick 3 holds frame 2: ids 2, 4");
    CHECK(mur_flock_vx(f)[0] == 0 && mur_flock_vy(f)[0] == 2, "id 2 at frame 2: towards frame 4, (0, 4)/2 = (%g, %g)",
          mur_flock_vx(f)[0], mur_flock_vy(f)[0]);
    CHECK(mur_flock_vx(f)[1] == 1 && mur_flock_vy(f)[1] == 0.5, "id 4 at frame 2: its move from frame 1");
    mur_driver_run_to(d, 10, &err);
    CHECK(mur_flock_count(f) == 3 && mur_flock_x(f)[2] == 20, "after the last frame it holds");
    CHECK(mur_flock_vx(f)[2] == 0 && mur_flock_vy(f)[2] == 0, "id 9 at frame 4, in neither the frame "
          "before nor after: (%g, %g), not 0", mur_flock_vx(f)[2], mur_flock_vy(f)[2]);
    mur_driver_destroy(d);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* The loader's message for a replay of csv, or "" when it loads. */
static const char *refusal(const char *csv)
{
    static char msg[1024];
    mur_error err;
    mur_scene *s = replay_of(csv, &err);
    snprintf(msg, sizeof msg, "%s", s ? "" : err.msg);
    mur_scene_destroy(s);
    return msg;
}

TEST(bad_replay_files_are_refused_with_their_line)
{
    static const struct {
        const char *csv, *want;
    } cases[] = {
        {"", "tracks.csv:1: error: empty"},
        {"frame,id,x\n0,1,2\n", "tracks.csv:1: error: no 'y' column"},
        {"frame,id,x,y,vx\n0,1,2,3,4\n", "tracks.csv:1: error: 'vx' without 'vy'"},
        {"frame,id,x,y\n", "tracks.csv:1: error: a header and no rows"},
        {"frame,id,x,y\n0,1,2,3\n0,2,2\n", "tracks.csv:3: error: 3 fields where the header has 4"},
        {"frame,id,x,y\n0,1,2,3\n0,2,two,3\n", "tracks.csv:3: error: x = 'two' is not a number"},
        {"frame,id,x,y\n0,1,2,3\n0,2,nan,3\n", "tracks.csv:3: error: x = nan: a recording's numbers must be finite"},
        {"frame,id,x,y\n3,1,2,3\n2,1,2,3\n", "tracks.csv:3: error: frame 2 after frame 3: frames must not go backwards"},
        {"frame,id,x,y\n0,1,2,3\n0,2147483647,2,3\n", "tracks.csv:3: error: an id is a whole number from 0 to 2147483646"},
        {"frame,id,x,y\n0,-1,2,3\n", "tracks.csv:2: error: an id is a whole number"},
        {"frame,id,x,y\n0.5,1,2,3\n", "tracks.csv:2: error: a frame is a whole number"},
        {"frame,id,x,y\n0,1,2,3\n0,5,2,3\n0,1,4,4\n", "tracks.csv:4: error: id 1 appears twice in frame 0"},
        {"frame,id,x,y\n0,1,2,3\n0,5,900,3\n", "tracks.csv:3: error: x = 900 lies far outside the world (0 to 100)"},
        {"frame,tick,id,x,y\n0,0,1,2,3\n", "tracks.csv:1: error: two columns are named 'tick'"},
        {"run,frame,id,x,y\n0,0,1,2,3\n1,0,1,2,3\n", "tracks.csv:3: error: a second run (1 after 0)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = refusal(cases[i].csv);
        CHECK(strstr(got, cases[i].want) != NULL, "case %zu: want '%s', got '%s'", i, cases[i].want, got);
    }
    CHECK(!*refusal("\"frame\",\"id\",x,y\r\n0,1,\"2.5\",3\r\n"), "quotes and CRLF: %s",
          refusal("\"frame\",\"id\",x,y\r\n0,1,\"2.5\",3\r\n"));
}

/* A saved state of 30 boids of a 240 x 160 world at tick 10, written as
 * scratch s240.h5 (and s240.csv, which a start refuses). 0, or -1. */
static int write_s240(void)
{
    mur_error err;
    mur_scene *a = scene_in_scratch("model: wrkspc\nworld: {width: 240, height: 160}\n"
                                    "video: {duration: 1s}\nflock: {count: 30}\n", &err);
    mur_trace_opts o = MUR_TRACE_OPTS_INIT;
    o.path = scratch_path("s240.h5");
    o.first = o.last = 10;
    int rc = !a || mur_trace_write(a, &o, &err);
    o.path = scratch_path("s240.csv");
    rc = rc || mur_trace_write(a, &o, &err);
    if (rc)
        fprintf(stderr, "  the state: %s\n", err.msg);
    mur_scene_destroy(a);
    return rc ? -1 : 0;
}

TEST(bad_saved_states_are_refused_naming_the_dataset)
{
    mur_error err;
    REQUIRE(write_s240() == 0, "writing the state");
    write_file(scratch_path("junk.h5"), "not HDF5\n");
    static const struct {
        const char *flock, *want;
    } cases[] = {
        {"{start: s240.h5}", "s240.h5: error: particles/flock/box/edges: recorded in a 240 x 160 world; this scene's is 300 x 160"},
        {"{start: s240.csv}", "scene.yaml:3:16: error: a saved state is an HDF5 file from `murmur trace` (.h5)"},
        {"{start: nowhere.h5}", "scene.yaml:3:16: error: '"},
        {"{start: junk.h5}", "junk.h5: error: not an HDF5 file"},
        {"{start: {tick: 3}}", "scene.yaml:3:16: error: 'start' needs a 'file'"},
        {"{start: {file: s240.h5, frame: 3}}", "scene.yaml:3:32: error: unknown key 'frame'"},
        {"{start: s240.h5, replay: s240.csv}", "scene.yaml:3:16: error: a flock replays a recording or starts from a saved state, not both"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "model: wrkspc\nworld: {width: %d, height: 160}\nflock: %s\n",
                 i == 0 ? 300 : 240, cases[i].flock);
        mur_scene *s = scene_in_scratch(text, &err);
        CHECK(!s && strstr(err.msg, cases[i].want), "case %zu: want '%s', got '%s'", i, cases[i].want,
              s ? "(loaded)" : err.msg);
        mur_scene_destroy(s);
    }
    /* a state written by a murmur of another state format */
    char cmd[1024], out[256];
    snprintf(cmd, sizeof cmd, "cp %s %s", scratch_path("s240.h5"), scratch_path("future.h5"));
    REQUIRE(run_tool_output(cmd, out, sizeof out) == 0, "cp");
    hid_t file = H5Fopen(scratch_path("future.h5"), H5F_ACC_RDWR, H5P_DEFAULT);
    /* (deleted and made again: HDF5 1.10 fails to rewrite it in place) */
    hid_t g = file >= 0 ? H5Gopen2(file, "parameters/state", H5P_DEFAULT) : -1;
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t attr = g >= 0 && H5Adelete(g, "format") >= 0
                     ? H5Acreate2(g, "format", H5T_STD_I32LE, sp, H5P_DEFAULT, H5P_DEFAULT)
                     : -1;
    int two = 2;
    REQUIRE(attr >= 0 && H5Awrite(attr, H5T_NATIVE_INT, &two) >= 0, "rewriting the format");
    H5Aclose(attr);
    H5Sclose(sp);
    H5Gclose(g);
    H5Fclose(file);
    mur_scene *f2 = scene_in_scratch("model: wrkspc\nworld: {width: 240, height: 160}\n"
                                     "flock: {start: future.h5}\n", &err);
    CHECK(!f2 && strstr(err.msg, "future.h5: error: parameters/state: a saved state of format 2; "
                                 "this murmur reads format 1"), "%s", f2 ? "(loaded)" : err.msg);
    mur_scene_destroy(f2);
    /* the count a state decides */
    mur_scene *s = scene_in_scratch("model: wrkspc\nworld: {width: 240, height: 160}\n"
                                    "flock: {count: 31, start: s240.h5}\n", &err);
    CHECK(!s && strstr(err.msg, "scene.yaml:3:16: error: the saved state ") &&
              strstr(err.msg, "s240.h5 holds 30 boids"), "%s", err.msg);
    mur_scene_destroy(s);
}

TEST(what_a_replay_cannot_do_is_refused_at_its_line)
{
    write_file(scratch_path("t.csv"), "frame,id,x,y\n0,1,2,3\n");
    static const struct {
        const char *more, *want;
    } cases[] = {
        {"video: {warmup: 10t}\n", "scene.yaml:4:17: error: a replayed flock has no warm-up"},
        {"timeline:\n  - {at: 1s, event: scatter}\n", "scene.yaml:5:5: error: a replayed flock follows its recording: event 'scatter'"},
        {"timeline:\n  - {at: 1s, set: {count: 3}}\n", "scene.yaml:5:5: error: a replayed flock's count is the recording's"},
    };
    mur_error err;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "model: wrkspc\nworld: {width: 100, height: 100}\n"
                                    "flock: {replay: t.csv}\n%s", cases[i].more);
        mur_scene *s = scene_in_scratch(text, &err);
        CHECK(!s && strstr(err.msg, cases[i].want), "case %zu: want '%s', got '%s'", i, cases[i].want,
              s ? "(loaded)" : err.msg);
        mur_scene_destroy(s);
    }
    mur_scene *s = scene_in_scratch("model: wrkspc\nworld: {width: 100, height: 100}\n"
                                    "flock: {replay: t.csv, count: 1}\n", &err);
    CHECK(!s && strstr(err.msg, "scene.yaml:3:31: error: a replayed flock's count is the recording's"), "%s", err.msg);
    mur_scene_destroy(s);
    s = scene_in_scratch("model: wrkspc\nflock: {replay: /dev/zero}\n", &err);
    CHECK(!s && strstr(err.msg, "scene.yaml:2:17: error: '/dev/zero' is a device, not a regular file"), "%s", err.msg);
    mur_scene_destroy(s);
}

TEST(a_render_with_a_bad_replay_exits_2_and_writes_nothing)
{
    write_file(scratch_path("bad.csv"), "frame,id,x,y\n0,1,2,3\n1,1,2,oops\n");
    char text[512], args[1024], err[2048];
    snprintf(text, sizeof text, "model: wrkspc\nworld: {width: 100, height: 100}\n"
                                "flock: {replay: bad.csv}\nvideo: {output: %s}\n",
             scratch_path("bad.mp4"));
    write_file(scratch_path("bad.yaml"), text);
    snprintf(args, sizeof args, "render %s -q", scratch_path("bad.yaml"));
    int rc = murmur(args, err, sizeof err);
    CHECK(rc == 2, "exit %d", rc);
    CHECK(strstr(err, "bad.csv:3: error: y = 'oops' is not a number"), "stderr: %s", err);
    struct stat st;
    CHECK(stat(scratch_path("bad.mp4"), &st) != 0, "a video was written");
}

TEST(trace_at_writes_one_tick_that_the_scene_s_start_reads)
{
    char text[512], args[1024], err[2048];
    snprintf(text, sizeof text, "model: wrkspc\nseed: 5\nworld: {width: 240, height: 160}\n"
                                "flock: {count: 50}\nvideo: {duration: 3s}\n");
    write_file(scratch_path("a.yaml"), text);
    snprintf(args, sizeof args, "trace %s --at 1s -o %s -q", scratch_path("a.yaml"), scratch_path("at.h5"));
    CHECK(murmur(args, err, sizeof err) == 0, "%s", err);
    snprintf(args, sizeof args, "trace %s --at 1s --from 0.5s -o %s -q", scratch_path("a.yaml"),
             scratch_path("x.h5"));
    CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, "give --at or a range"), "%s", err);
    mur_error e;
    mur_scene *b = scene_in_scratch("model: wrkspc\nseed: 5\nworld: {width: 240, height: 160}\n"
                                    "flock: {start: at.h5}\n", &e);
    CHECK(b && b->params.count == 50, "%s", b ? "count" : e.msg);
    mur_scene_destroy(b);
}

/* Two boids fly right along y = 20 (id 1) and y = 80 (id 2); id 1 is lost
 * from frame 10. Boid 0 of the flock is then id 2: its trail must still
 * reach back the whole trail length along y = 80, not start again where
 * the indices shifted (or join id 1's old positions). */
TEST(a_trail_follows_its_id_when_another_boid_vanishes)
{
    char csv[4096] = "frame,id,x,y\n";
    for (int k = 0; k <= 20; k++) {
        char row[64];
        if (k < 10) {
            snprintf(row, sizeof row, "%d,1,%d,20\n", k, 10 + k);
            strcat(csv, row);
        }
        snprintf(row, sizeof row, "%d,2,%d,80\n", k, 10 + k);
        strcat(csv, row);
    }
    write_file(scratch_path("two.csv"), csv);
    mur_error err;
    mur_scene *s = scene_in_scratch("model: wrkspc\nworld: {width: 100, height: 100, boundary: reflect}\n"
                                    "flock: {replay: two.csv}\n"
                                    "video: {width: 100, height: 100, duration: 1s, fps: 30, ticks_per_second: 30}\n"
                                    "look: {background: '#000000', boid: {shape: dot, size: 2, color: '#ffffff'},"
                                    " trails: {length: 12, fade: false}}\n",
                                    &err);
    REQUIRE(s, "%s", err.msg);
    mur_session *ss = NULL;
    REQUIRE(mur_session_create(&ss, s, NULL, &err) == 0, "%s", err.msg);
    const uint8_t *px;
    int stride;
    REQUIRE(mur_session_frame(ss, 16, &px, &stride, &err) == 0, "%s", err.msg);
    /* id 2 is at x = 26; its trail runs back to x = 14 */
    int lit = 0;
    for (int x = 15; x <= 24; x++)
        lit += px[79 * stride + 4 * x + 1] + px[80 * stride + 4 * x + 1] > 24;   /* a grey line's green */
    CHECK(lit == 10, "%d of 10 pixels of id 2's trail (x 15..24, y 80) are drawn", lit);
    mur_session_destroy(ss);
    mur_scene_destroy(s);
}

TEST(a_condition_replays_its_own_recording_beside_the_model)
{
    write_file(scratch_path("side.csv"), "frame,id,x,y\n0,3,10,10\n0,8,20,20\n1,3,11,10\n1,8,21,21\n");
    mur_error err;
    mur_scene *s = scene_in_scratch("model: wrkspc\nworld: {width: 100, height: 100}\nflock: {count: 30}\n"
                                    "video: {width: 200, height: 100, duration: 1s}\n"
                                    "experiment: {conditions: {tracked: {replay: side.csv, separation: 2}, model: {}}}\n"
                                    "layout: {panels: conditions}\n", &err);
    REQUIRE(s, "%s", err.msg);
    mur_session *ss = NULL;
    REQUIRE(mur_session_create(&ss, s, NULL, &err) == 0, "%s", err.msg);
    const mur_flock *a = mur_session_flock(ss, 0), *b = mur_session_flock(ss, 1);
    CHECK(mur_flock_count(a) == 2 && mur_flock_ids(a) && mur_flock_ids(a)[1] == 8,
          "the tracked panel shows the recording");
    CHECK(mur_flock_params(a)->separation == 2, "the condition's settings apply to its recording");
    CHECK(mur_flock_count(b) == 30 && !mur_flock_ids(b), "the model panel steps 30 boids of its own");
    mur_session_destroy(ss);
    mur_scene_destroy(s);
    s = scene_in_scratch("model: wrkspc\nworld: {width: 100, height: 100}\n"
                         "experiment: {conditions: {tracked: {replay: side.csv, count: 3}}}\n", &err);
    CHECK(!s && strstr(err.msg, "a replayed flock's count is the recording's"), "%s", s ? "(loaded)" : err.msg);
    mur_scene_destroy(s);
}

/* check of a replaying condition describes its recording (file, frames,
 * ids, most boids of a frame), not the count the loader took from it. */
TEST(check_of_a_replay_condition_describes_the_recording)
{
    write_file(scratch_path("desc.csv"), "frame,id,x,y\n0,3,10,10\n0,8,20,20\n1,3,11,10\n1,8,21,21\n2,5,1,1\n");
    const char *scene = scratch_path("desc.yaml");
    write_file(scene, "model: wrkspc\nworld: {width: 100, height: 100}\nflock: {count: 30}\n"
                      "experiment: {conditions: {tracked: {replay: desc.csv, separation: 2}, model: {}}}\n");
    char args[1024], err[2048];
    snprintf(args, sizeof args, "check %s", scene);
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    char *out = test_slurp(scratch_path("stderr.txt.out"), NULL);   /* murmur()'s stdout */
    REQUIRE(out, "no output");
    const char *row = strstr(out, "  tracked ");
    CHECK(row && strstr(row, "desc.csv, 3 frames (ticks 0 to 2), ids up to 8, at most 2 boids; set separation 2\n"),
          "%s", out);
    CHECK(!strstr(out, "set count"), "a replay's count printed as a setting: %s", out);
    free(out);
}

/* A recording is one run: `stats` of a replay says 1 run, not copies of it
 * with p10 = p90; beside a model condition its one run is paired with each
 * model run (said in the table's first line), and a recording against a
 * recording has no bootstrap interval. */
TEST(a_recording_is_one_run_in_stats)
{
    write_file(scratch_path("one.csv"), "frame,id,x,y\n0,3,10,10\n0,8,20,20\n1,3,11,10\n1,8,21,21\n");
    const char *scene = scratch_path("one.yaml");
    write_file(scene, "model: wrkspc\nworld: {width: 100, height: 100}\nflock: {count: 10}\n"
                      "experiment:\n  runs: 4\n  ticks: 3\n  metrics: [order]\n"
                      "  conditions: {tracked: {replay: one.csv}, again: {replay: one.csv}, model: {}}\n");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "stats %s -o %s --runs-out %s", scene, scratch_path("one-stats.csv"),
             scratch_path("one-runs.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    char *csv = test_slurp(scratch_path("one-stats.csv"), NULL), *runs = test_slurp(scratch_path("one-runs.csv"), NULL);
    char *table = test_slurp(scratch_path("stderr.txt.out"), NULL);   /* murmur()'s stdout */
    REQUIRE(csv && runs && table, "outputs missing");
    /* tracked: 1 run, its effect against itself 0 with no interval */
    CHECK(strstr(csv, "\ntracked,order,") && strstr(strstr(csv, "\ntracked,order,"), ",1,3,tracked,0,,\n"), "%s", csv);
    CHECK(strstr(csv, "\nagain,order,") && strstr(strstr(csv, "\nagain,order,"), ",1,3,tracked,0,,\n"), "%s", csv);
    /* the model's 4 runs, each against the recording: an interval */
    const char *m = strstr(csv, "\nmodel,order,");
    CHECK(m && strstr(m, ",4,3,tracked,") && !strstr(m, ",,\n"), "%s", m ? m : csv);
    int tracked_rows = 0;
    for (const char *p = runs; (p = strstr(p, "\ntracked,")); p++)
        tracked_rows++;
    CHECK(tracked_rows == 1, "--runs-out has %d rows of the recording", tracked_rows);
    CHECK(strstr(table, "3 conditions x 4 runs") &&
              strstr(table, "a recording, one run paired with every run of the others: tracked, again"),
          "%s", table);
    free(csv);
    free(runs);
    free(table);
    /* a scene that only replays: one run */
    write_file(scene, "model: wrkspc\nworld: {width: 100, height: 100}\nflock: {replay: one.csv}\n"
                      "experiment: {runs: 5, ticks: 3, metrics: [order]}\n");
    snprintf(args, sizeof args, "stats %s -q -o %s", scene, scratch_path("one-stats.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    csv = test_slurp(scratch_path("one-stats.csv"), NULL);
    CHECK(csv && strstr(csv, ",1,3\n") && !strstr(csv, ",5,3\n"), "%s", csv);
    free(csv);
}

/* The review's findings: the world is read before the flock whatever the
 * file's order; a condition cannot change a saved state's count; a twin is
 * refused beside a replaying condition; a thinned replay keeps its trails;
 * a byte order mark before the header is skipped. */
TEST(a_flock_before_its_world_is_checked_against_that_world)
{
    mur_error err;
    REQUIRE(write_s240() == 0, "writing the state");
    mur_scene *s = scene_in_scratch("flock: {start: {disc: {center: [200, 200], radius: 10}}}\n"
                                    "world: {width: 100, height: 100, boundary: reflect}\n", &err);
    CHECK(!s && strstr(err.msg, "the disc reaches outside the world (0 to 100, 0 to 100)"), "%s",
          s ? "(loaded)" : err.msg);
    mur_scene_destroy(s);
    s = scene_in_scratch("flock: {start: s240.h5}\nworld: {width: 240, height: 160}\nmodel: wrkspc\n", &err);
    CHECK(s != NULL, "a state of this world, written before it: %s", s ? "" : err.msg);
    mur_scene_destroy(s);
    s = scene_in_scratch("model: wrkspc\nworld: {width: 240, height: 160}\nflock: {start: s240.h5}\n"
                         "experiment: {conditions: {big: {count: 300}}}\n", &err);
    CHECK(!s && strstr(err.msg, "condition 'big' sets count, which the start decides"), "%s",
          s ? "(loaded)" : err.msg);
    mur_scene_destroy(s);
    write_file(scratch_path("one.csv"), "\xEF\xBB\xBF" "frame,id,x,y\n0,1,2,3\n");
    s = scene_in_scratch("model: wrkspc\nworld: {width: 100, height: 100, boundary: wrap}\n"
                         "experiment: {conditions: {a: {replay: one.csv}, b: {}}, twin: {perturb: 0.001}}\n", &err);
    CHECK(!s && strstr(err.msg, "a replayed flock is shown, not stepped: it has no twin"), "%s",
          s ? "(loaded, or the BOM refused)" : err.msg);
    mur_scene_destroy(s);
    s = scene_in_scratch("model: wrkspc\nworld: {width: 100, height: 100}\nflock: {replay: one.csv}\n", &err);
    CHECK(s != NULL, "a byte order mark before the header: %s", s ? "" : err.msg);
    mur_scene_destroy(s);
}

TEST(a_thinned_replay_keeps_its_trails)
{
    /* one boid flying right 1 unit a tick, recorded every 5th tick */
    char csv[2048] = "frame,id,x,y\n";
    for (int k = 0; k <= 40; k += 5) {
        char row[64];
        snprintf(row, sizeof row, "%d,1,%d,50\n", k, 10 + k);
        strcat(csv, row);
    }
    write_file(scratch_path("thin.csv"), csv);
    mur_error err;
    mur_scene *s = scene_in_scratch("model: wrkspc\nworld: {width: 100, height: 100, boundary: reflect}\n"
                                    "flock: {replay: thin.csv}\n"
                                    "video: {width: 100, height: 100, duration: 1s, fps: 30, ticks_per_second: 30}\n"
                                    "look: {background: '#000000', boid: {shape: dot, size: 2, color: '#ffffff'},"
                                    " trails: {length: 30, fade: false}}\n", &err);
    REQUIRE(s, "%s", err.msg);
    mur_session *ss = NULL;
    REQUIRE(mur_session_create(&ss, s, NULL, &err) == 0, "%s", err.msg);
    const uint8_t *px;
    int stride;
    REQUIRE(mur_session_frame(ss, 30, &px, &stride, &err) == 0, "%s", err.msg);
    int lit = 0;   /* the boid is at x = 40 (frame 30); its trail runs back to x = 10 */
    for (int x = 15; x <= 35; x++)
        lit += px[49 * stride + 4 * x + 1] + px[50 * stride + 4 * x + 1] > 24;
    CHECK(lit == 21, "%d of 21 pixels of the thinned replay's trail are drawn", lit);
    mur_session_destroy(ss);
    mur_scene_destroy(s);
}

/* On a replay a boid is named by its id, the tracker's number: the camera
 * follows, and the watch view shows, the boid with that id wherever it sits
 * among the frame's rows; an id no row has is refused at its line. */
TEST(the_camera_and_the_watch_view_name_a_replay_s_boids_by_id)
{
    /* ids 4 and 9: id 9 is row 1, far from the middle of the world */
    write_file(scratch_path("ids.csv"), "frame,id,x,y\n0,4,20,80\n0,9,85,20\n1,4,20,80\n1,9,85,20\n");
    static const char scene[] =
        "model: wrkspc\nworld: {width: 100, height: 100, boundary: reflect}\n"
        "flock: {replay: ids.csv}\n"
        "video: {width: 100, height: 100, duration: 1s, fps: 30, ticks_per_second: 30}\n"
        "camera: {follow: {boid: %d}, zoom: 4, smooth: 0}\n"
        "look: {background: '#000000', boid: {shape: dot, size: 2, color: '#ffffff'},"
        " overlays: [{watch: {boid: %d}}]}\n";
    char text[1024];
    snprintf(text, sizeof text, scene, 9, 9);
    mur_error err;
    mur_scene *s = scene_in_scratch(text, &err);
    REQUIRE(s, "%s", err.msg);
    mur_flock *f = NULL;
    mur_driver *d = NULL;
    REQUIRE(mur_flock_create(&f, &s->params, 1, &err) == 0 && mur_driver_create(&d, &err) == 0, "%s",
            err.msg);
    REQUIRE(mur_driver_start(d, s, f, &s->params, &err) == 0, "%s", err.msg);
    CHECK(mur_flock_row(f, 9) == 1 && mur_flock_row(f, 4) == 0 && mur_flock_row(f, 5) == -1 &&
              mur_flock_row(f, 0) == -1,
          "rows of ids 9, 4, 5, 0: %d %d %d %d", mur_flock_row(f, 9), mur_flock_row(f, 4),
          mur_flock_row(f, 5), mur_flock_row(f, 0));
    mur_watch_view v;
    CHECK(mur_render_watch_view(f, 9, &v, &err) == 0 && v.x == 85 && v.y == 20,
          "the watch view of id 9 is at (%g, %g), not (85, 20)", v.x, v.y);
    mur_driver_destroy(d);
    mur_flock_destroy(f);
    mur_session *ss = NULL;
    REQUIRE(mur_session_create(&ss, s, NULL, &err) == 0, "%s", err.msg);
    const uint8_t *px;
    int stride;
    REQUIRE(mur_session_frame(ss, 1, &px, &stride, &err) == 0, "%s", err.msg);
    /* id 9 held in the middle of the view: the frame's centre is lit */
    int lit = px[50 * stride + 4 * 50 + 1] > 100 || px[49 * stride + 4 * 49 + 1] > 100;
    CHECK(lit, "the boid the camera follows (id 9) is not in the middle of the frame");
    mur_session_destroy(ss);
    mur_scene_destroy(s);

    snprintf(text, sizeof text, scene, 5, 9);
    s = scene_in_scratch(text, &err);
    CHECK(!s && strstr(err.msg, "scene.yaml:5:") &&
              strstr(err.msg, "the camera follows boid 5, but no boid of"),
          "a camera on an id no row has: %s", s ? "loaded" : err.msg);
    mur_scene_destroy(s);
    snprintf(text, sizeof text, scene, 9, 1);
    s = scene_in_scratch(text, &err);
    CHECK(!s && strstr(err.msg, "the watch view shows boid 1, but no boid of"),
          "a watch view of an id no row has: %s", s ? "loaded" : err.msg);
    mur_scene_destroy(s);
}
