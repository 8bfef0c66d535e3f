/* The `params` readout shows the settings the timeline changes (issue 31:
 * it showed sep, ali and coh and never the noise being ramped). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "murmur/presets.h"
#include "murmur/scene.h"
#include "murmur/session.h"

#define READOUT_SCENE                                                                            \
    "seed: 1\nmodel: wrkspc\nworld: {width: 320, height: 200, boundary: wrap}\nflock: {count: 20}\n" \
    "video: {width: 640, height: 400, fps: 10, duration: 4s}\n"                                   \
    "look: {background: \"#000000\", boid: {size: 1}, overlays: [params]}\n"

/* The rightmost column of light ink in the frame's top band (the readout's
 * text), frame k of yaml; -1 when it cannot be drawn. */
static int readout_right(const char *yaml, long k)
{
    mur_scene *s = NULL;
    mur_session *ss = NULL;
    mur_error err = {{0}};
    mur_session_opts o = MUR_SESSION_OPTS_INIT;
    o.threads = 1;
    const uint8_t *px;
    int stride, right = -1;
    if (mur_scene_parse(&s, "readout.yaml", yaml, strlen(yaml), &err) || mur_session_create(&ss, s, &o, &err) ||
        mur_session_frame(ss, k, &px, &stride, &err)) {
        fprintf(stderr, "  %s\n", err.msg);
    } else {
        for (int y = 0; y < 40; y++)
            for (int x = 0; x < s->width; x++) {
                uint32_t p = *(const uint32_t *)(const void *)(px + (size_t)y * stride + 4 * (size_t)x);
                /* light grey text; the boids (#7cf29c) have less red */
                if (((p >> 16) & 255) > 150 && ((p >> 8) & 255) > 150 && (p & 255) > 150 && x > right)
                    right = x;
            }
    }
    mur_session_destroy(ss);
    mur_scene_destroy(s);
    return right;
}

TEST(the_params_readout_shows_what_the_timeline_changes)
{
    const char *ramp = READOUT_SCENE "timeline:\n  - {at: 1s, ramp: {noise: 0.3}, over: 2s}\n"
                                     "  - {at: 2s, set: {alignment: 0.5, fov: 270}}\n";
    mur_scene *s = NULL;
    mur_error err = {{0}};
    REQUIRE(mur_scene_parse(&s, "readout.yaml", ramp, strlen(ramp), &err) == 0, "%s", err.msg);
    const mur_look *lk = mur_scene_look(s);
    /* noise and fov, in order of first use; alignment is on the line already */
    CHECK(lk->nshown == 2 && !strcmp(lk->shown[0]->name, "noise") && !strcmp(lk->shown[1]->name, "fov"),
          "the readout shows %d settings besides the weights (%s)", lk->nshown,
          lk->nshown ? lk->shown[0]->name : "none");
    mur_scene_destroy(s);
    int plain = readout_right(READOUT_SCENE, 25), wide = readout_right(ramp, 25);
    CHECK(plain > 0 && wide > plain + 60, "the readout ends at x = %d with the ramp, %d without: noise and fov not shown",
          wide, plain);
}
