/* A render session: a scene, one flock and driver per panel, a renderer.
 * Shared by `render` and `still`, so both show exactly the same frames. */
#ifndef MURMUR_SESSION_H
#define MURMUR_SESSION_H

#include "commands.h"
#include "murmur/render.h"
#include "murmur/scene.h"

#define MUR_MAX_PANELS 64

typedef struct mur_session mur_session;

typedef struct {
    mur_session *session;
    int panel;
} mur_session_observer;

struct mur_session {
    mur_scene *scene;
    int npanels;
    mur_flock *flocks[MUR_MAX_PANELS];
    mur_driver drivers[MUR_MAX_PANELS];
    mur_session_observer observers[MUR_MAX_PANELS];
    mur_renderer *renderer;
};

/// Load the scene, create a flock per panel (condition overrides applied,
/// same seed), run the warm-up, and create a renderer at the scene's size.
/// Every long loop of the session (warm-up, stepping, drawing) watches
/// o->stop and returns MUR_EINTR once it is set.
int mur_session_start(mur_session *ss, const mur_cli_opts *o, mur_error *err);

/// Step every panel's flock to `tick` (counted from the first frame).
int mur_session_run_to(mur_session *ss, long tick, mur_error *err);

/// Step to frame k and draw it into the renderer's image.
int mur_session_frame(mur_session *ss, long k, const uint8_t **pixels, int *stride, mur_error *err);

/// Free everything; safe on a zeroed or half-started session.
void mur_session_end(mur_session *ss);

/// Frame index of a time given on the command line (12s, 900t, ...).
int mur_session_frame_of(const mur_scene *s, const char *text, const char *opt, long *out,
                         mur_error *err);

#endif
