/* libmurmur as a host program embeds it: a scene from a string, a session,
 * frames into the program's own buffer; no global state, so two threads may
 * load and run two scenes at once and get what each gets alone; options
 * structs refuse a version they do not know. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "murmur/murmur.h"

static const char *const scenes[2] = {
    "model: wrkspc\nseed: 11\nflock: {count: 120}\nvideo: {width: 160, height: 96, fps: 10}\n"
    "look: {trails: {length: 10}, boid: {color: cluster}, overlays: [params, clock]}\n"
    "timeline:\n  - {at: 0s, caption: \"one\"}\n  - {at: 0.5s, set: {alignment: 0}}\n",
    "model: engine\nseed: 12\nflock: {count: 90}\nvideo: {width: 128, height: 128, fps: 12}\n"
    "look: {boid: {shape: dot, color: heading}, overlays: [{readout: [order, milling]}]}\n"
    "predators:\n  - {mode: attract, x: \"W/2 + 30*cos(t)\", y: \"H/2\"}\n",
};

/* FNV-1a over the frame rows. */
static uint64_t hash_rows(uint64_t h, const uint8_t *px, int stride, int w, int rows)
{
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < w * 4; x++)
            h = (h ^ px[(size_t)y * stride + x]) * 0x100000001b3u;
    return h;
}

typedef struct {
    int which;
    int threads;
    uint64_t hash;
    int rc;
    mur_error err;
} job;

/* Renders frames 0..7 of scene `which` and hashes them. */
static void *run(void *arg)
{
    job *j = arg;
    mur_scene *s = NULL;
    mur_session *ss = NULL;
    mur_session_opts so = MUR_SESSION_OPTS_INIT;
    so.threads = j->threads;
    j->hash = 0xcbf29ce484222325u;
    j->rc = mur_scene_parse(&s, "lib.yaml", scenes[j->which], strlen(scenes[j->which]), &j->err);
    if (!j->rc)
        j->rc = mur_session_create(&ss, s, &so, &j->err);
    for (long k = 0; !j->rc && k < 8; k++) {
        const uint8_t *px;
        int stride;
        j->rc = mur_session_frame(ss, k, &px, &stride, &j->err);
        if (!j->rc)
            j->hash = hash_rows(j->hash, px, stride, s->width, s->height);
    }
    mur_session_destroy(ss);
    mur_scene_destroy(s);
    return NULL;
}

TEST(two_threads_run_two_scenes_at_once_as_each_runs_alone)
{
    job alone[2] = {{0, 1, 0, 0, {{0}}}, {1, 1, 0, 0, {{0}}}};
    for (int i = 0; i < 2; i++) {
        run(&alone[i]);
        REQUIRE(alone[i].rc == MUR_OK, "scene %d alone: %s", i, alone[i].err.msg);
    }
    CHECK(alone[0].hash != alone[1].hash, "two different scenes drew the same frames");
    for (int round = 0; round < 3; round++) {
        job both[4] = {{0, 1, 0, 0, {{0}}}, {1, 2, 0, 0, {{0}}}, {0, 2, 0, 0, {{0}}},
                       {1, 1, 0, 0, {{0}}}};
        pthread_t t[4];
        for (int i = 0; i < 4; i++)
            REQUIRE(pthread_create(&t[i], NULL, run, &both[i]) == 0, "pthread_create");
        for (int i = 0; i < 4; i++)
            pthread_join(t[i], NULL);
        for (int i = 0; i < 4; i++) {
            CHECK(both[i].rc == MUR_OK, "thread %d: %s", i, both[i].err.msg);
            CHECK(both[i].hash == alone[both[i].which].hash,
                  "round %d, thread %d (scene %d, %d threads): frames differ from the scene alone",
                  round, i, both[i].which, both[i].threads);
        }
    }
}

/* A frame drawn onto the program's own buffer (its own Cairo surface) is
 * the frame the session draws into its image. */
TEST(a_frame_draws_into_the_programs_own_buffer)
{
    mur_scene *s = NULL;
    mur_session *a = NULL, *b = NULL;
    mur_error err = {{0}};
    REQUIRE(mur_scene_parse(&s, "own.yaml", scenes[0], strlen(scenes[0]), &err) == MUR_OK, "%s", err.msg);
    REQUIRE(mur_session_create(&a, s, NULL, &err) == MUR_OK && mur_session_create(&b, s, NULL, &err) == MUR_OK,
            "%s", err.msg);
    int stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, s->width);
    static uint8_t mine[160 * 96 * 4];
    REQUIRE((size_t)stride * s->height <= sizeof mine, "buffer");
    for (long k = 0; k < 6; k++) {
        const uint8_t *px;
        int st;
        REQUIRE(mur_session_frame(a, k, &px, &st, &err) == MUR_OK, "%s", err.msg);
        memset(mine, 0x55, sizeof mine);
        cairo_surface_t *surf = cairo_image_surface_create_for_data(mine, CAIRO_FORMAT_ARGB32, s->width,
                                                                    s->height, stride);
        cairo_t *cr = cairo_create(surf);
        int rc = mur_session_draw(b, k, cr, s->width, s->height, &err);
        cairo_destroy(cr);
        cairo_surface_flush(surf);
        cairo_surface_destroy(surf);
        REQUIRE(rc == MUR_OK, "%s", err.msg);
        long differ = 0;
        for (int y = 0; y < s->height; y++)
            differ += memcmp(px + (size_t)y * st, mine + (size_t)y * stride, (size_t)s->width * 4) != 0;
        CHECK(differ == 0, "frame %ld: %ld rows differ from the session's own image", k, differ);
    }
    mur_session_destroy(a);
    mur_session_destroy(b);
    mur_scene_destroy(s);
}

TEST(options_of_an_unknown_version_are_refused)
{
    mur_scene *s = NULL;
    mur_session *ss = NULL;
    mur_error err = {{0}};
    REQUIRE(mur_scene_parse(&s, "v.yaml", scenes[0], strlen(scenes[0]), &err) == MUR_OK, "%s", err.msg);
    mur_session_opts so = MUR_SESSION_OPTS_INIT;
    so.version = MUR_SESSION_OPTS_VERSION + 1;
    CHECK(mur_session_create(&ss, s, &so, &err) == MUR_EINPUT && !ss && strstr(err.msg, "version"),
          "session options of a later version: %s", err.msg);
    REQUIRE(mur_session_create(&ss, s, NULL, &err) == MUR_OK, "NULL options: %s", err.msg);
    mur_render_opts ro = MUR_RENDER_OPTS_INIT;
    ro.version = 0;
    ro.path = "/tmp/murmur-never.mp4";
    CHECK(mur_session_render(ss, &ro, NULL, &err) == MUR_EINPUT && strstr(err.msg, "version"),
          "render options of version 0: %s", err.msg);
    mur_video *v = NULL;
    mur_video_opts vo = MUR_VIDEO_OPTS_INIT;
    vo.version = MUR_VIDEO_OPTS_VERSION + 1;
    vo.path = "/tmp/murmur-never.mp4";
    CHECK(mur_video_open(&v, &vo, &err) == MUR_EINPUT && !v && strstr(err.msg, "version"),
          "video options of a later version: %s", err.msg);
    mur_experiment *e = NULL;
    mur_experiment_def def = MUR_EXPERIMENT_DEF_INIT;
    def.version = 0;
    CHECK(mur_experiment_run(&e, s, &def, &err) == MUR_EINPUT && !e && strstr(err.msg, "version"),
          "an experiment of version 0: %s", err.msg);
    mur_session_destroy(ss);
    mur_scene_destroy(s);
}

TEST(the_version_is_the_headers_version)
{
    CHECK(strcmp(mur_version(), MUR_VERSION_STRING) == 0, "mur_version() %s, header %s", mur_version(),
          MUR_VERSION_STRING);
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", MUR_VERSION_MAJOR, MUR_VERSION_MINOR, MUR_VERSION_PATCH);
    CHECK(strcmp(want, MUR_VERSION_STRING) == 0, "MUR_VERSION_STRING %s, numbers %s",
          MUR_VERSION_STRING, want);
}
