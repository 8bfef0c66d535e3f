/* The `params` readout shows the settings the timeline changes (issue 31:
 * it showed sep, ali and coh and never the noise being ramped), after the
 * interaction's own values (a starling's read "sep 0.00 ali 0.00 coh
 * 0.00", Reynolds' weights, which it does not have). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "render/internal.h"   /* mur_params_text_: the readout's words */
#include "murmur/family.h"
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

/* The readout's line for scene yaml at time 0 into buf. 0, or -1. */
static int readout_text(const char *yaml, char *buf, size_t size)
{
    mur_scene *s = NULL;
    mur_error err = {{0}};
    if (mur_scene_parse(&s, "readout.yaml", yaml, strlen(yaml), &err)) {
        fprintf(stderr, "  %s\n", err.msg);
        return -1;
    }
    mur_params_text_(buf, size, mur_scene_look(s), &s->params, s->params.count);
    mur_scene_destroy(s);
    return 0;
}

#define NB "\u00a0"

TEST(the_params_readout_leads_with_the_interactions_own_values)
{
    char got[480], want[480];
    /* Reynolds': the line it always had, byte for byte */
    REQUIRE(readout_text(READOUT_SCENE, got, sizeof got) == 0, "wrkspc");
    const mur_params *w = &mur_preset_find("wrkspc")->params;
    snprintf(want, sizeof want, "20" NB "boids   sep" NB "%.2f   ali" NB "%.2f   coh" NB "%.2f", w->separation,
             w->alignment, w->cohesion);
    CHECK(!strcmp(got, want), "reynolds: '%s', want '%s'", got, want);
    /* vicsek: its noise eta and radius r; a ramp of the noise is not shown twice */
    REQUIRE(readout_text("model: vicsek\nflock: {count: 20, noise: 0.5, perception: 1.5}\n"
                         "look: {overlays: [params]}\ntimeline:\n  - {at: 1s, ramp: {noise: 2}, over: 1s}\n",
                         got, sizeof got) == 0, "vicsek");
    CHECK(!strcmp(got, "20" NB "boids   eta" NB "0.50   r" NB "1.50"), "vicsek: '%s'", got);
    /* couzin: its zones, r_r and the widths of the two beyond */
    REQUIRE(readout_text("model: couzin\nflock: {count: 20}\nlook: {overlays: [params]}\n", got, sizeof got) == 0,
            "couzin");
    CHECK(!strcmp(got, "20" NB "boids   repulsion" NB "1.00   orientation" NB "2.00   attraction" NB "14.00"),
          "couzin: '%s'", got);
    /* starling: its force weights, not Reynolds' (all 0 for it) */
    REQUIRE(readout_text("model: starling\nflock: {count: 20}\nlook: {overlays: [params]}\n", got, sizeof got) == 0,
            "starling");
    CHECK(!strcmp(got, "20" NB "boids   sep" NB "1.00   ali" NB "0.50   coh" NB "1.00   roost" NB "0.01   alt" NB "0.01"),
          "starling: '%s'", got);
    /* every readout names a setting of the settings table */
    for (int i = 0; i < mur_kind_count(); i++)
        for (int j = 0; j < MUR_KIND_READOUT && mur_kind_at(i)->readout[j].label; j++)
            CHECK(mur_setting_find(mur_kind_at(i)->readout[j].setting), "%s's readout names '%s'",
                  mur_kind_at(i)->name, mur_kind_at(i)->readout[j].setting);
}
