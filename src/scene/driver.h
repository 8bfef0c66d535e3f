/* The timeline's driver (timeline.c): the state mur_driver_start and
 * mur_driver_run_to keep between ticks. Opaque in the public API
 * (murmur/scene.h); private to src/scene, where hunt.c keeps its hunters'
 * state in it too. */
#ifndef MURMUR_SCENE_DRIVER_H
#define MURMUR_SCENE_DRIVER_H

#include "murmur/scene.h"

struct mur_driver {
    const mur_scene *scene;
    mur_flock *flock;            /* not owned */
    mur_params base;             /* settings before the timeline (scene + condition) */
    long tick;                   /* next tick to run */
    int next_cue;                /* first cue whose event has not fired */
    void (*on_tick)(void *ctx, const mur_flock *f, long tick); /* called after every tick (may be NULL) */
    void *on_tick_ctx;
    volatile sig_atomic_t *stop; /* polled before every tick, warm-up included (may be NULL) */
    double predator_shift[3];    /* added to every predator's position (kept by start; z: 3D) */
    long shown;                  /* a replay: the recording's frame the flock holds (-1: none yet) */
    const mur_recording *replay; /* the recording shown instead of the model: kept by start when set
                                  * before it (a condition's); NULL: the scene's */
    double hunt[MUR_MAX_PREDATORS][6]; /* hunting predators (`pursue`): x, y, vx, vy (3D: and z, vz),
                                        * by script index */
    unsigned char hunting[MUR_MAX_PREDATORS]; /* 1 once predator k has started hunting */
    int observe_warm;            /* kept by start: 1 also calls on_tick for the warm-up's last
                                  * look.trail_length ticks and its end (ticks <= 0), when the
                                  * look asks (trail_warm) */
};

#endif
