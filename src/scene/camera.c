/* The scene's camera as a function of time (docs/scenes.md `camera`).
 *
 * Like the flock's settings, the camera's zoom and centre are recomputed
 * from the scene at every time asked, never accumulated, so a still at T
 * and frame T of a render see the same camera; so is what it follows,
 * which the timeline may change (`set: {camera.follow: ...}`). The
 * smoothing of a following camera is not here: it depends on where the
 * target has been, which only the renderer sees tick by tick
 * (render/camera.c). */
#include <math.h>
#include <string.h>

#include "murmur/scene.h"
#include "ease.h"

/* Value k of the camera (MUR_CAMERA_*) in v[MUR_CAMERA_KEYS]. */
static void put(double v[MUR_CAMERA_KEYS], const mur_camera_change *ch, double u)
{
    double from = v[ch->key], to = ch->value;
    if (!ch->ramp || u >= 1)
        v[ch->key] = to;
    else if (ch->key == MUR_CAMERA_ZOOM)   /* geometric: each step zooms by the same factor */
        v[ch->key] = from * pow(to / from, u);
    else
        v[ch->key] = from * (1 - u) + to * u;
}

void mur_scene_camera_at(const mur_scene *s, double t, mur_camera *out)
{
    const mur_scene_camera *sc = &s->camera;
    double v[MUR_CAMERA_KEYS] = {sc->zoom, sc->x, sc->y, 0, sc->position[0], sc->position[1], sc->position[2],
                                 sc->look_at[0], sc->look_at[1], sc->look_at[2], sc->fov, sc->height};
    mur_follow follow = sc->follow;
    int target = sc->target;
    for (int i = 0; i < s->ncues && s->cues[i].at <= t; i++) {
        const mur_cue *q = &s->cues[i];
        double u = q->over > 0 ? mur_ease_at(q->ease, (t - q->at) / q->over) : 1;
        for (int k = 0; k < q->ncamera; k++) {   /* sets first, then ramps from there */
            const mur_camera_change *ch = &q->camera[k];
            if (ch->key == MUR_CAMERA_FOLLOW) {
                follow = ch->follow;
                target = (int)ch->value;
            } else if (!ch->ramp) {
                put(v, ch, 1);
            }
        }
        for (int k = 0; k < q->ncamera; k++)
            if (q->camera[k].ramp)
                put(v, &q->camera[k], u);
    }
    memset(out, 0, sizeof *out);
    out->zoom = v[MUR_CAMERA_ZOOM];
    out->x = v[MUR_CAMERA_X];
    out->y = v[MUR_CAMERA_Y];
    out->follows = 1;
    out->follow = follow;
    out->follow_index = target;
    if (sc->view3d) {
        out->view3d = 1;
        out->orthographic = sc->orthographic;
        for (int k = 0; k < 3; k++) {
            out->position[k] = v[MUR_CAMERA_PX + k];
            out->target[k] = v[MUR_CAMERA_TX + k];
            out->up[k] = sc->up[k];
        }
        out->fov = v[MUR_CAMERA_FOV];
        out->height = v[MUR_CAMERA_HEIGHT];
        out->aperture = sc->aperture;
        out->focus = isnan(sc->focus) ? 0 : sc->focus;
        out->focus_flock = sc->focus_flock;
        out->wrap_nearest = sc->wrap_nearest;
        out->nviews = sc->nviews;
        memcpy(out->views, sc->views, sizeof out->views);
    }
    out->smooth = sc->smooth_given             ? sc->smooth
                  : follow == MUR_FOLLOW_FLOCK ? MUR_CAMERA_SMOOTH_FLOCK
                                               : MUR_CAMERA_SMOOTH;
    if (follow == MUR_FOLLOW_PREDATOR && target < s->npredators) {
        /* the scene with that predator alone: the timeline's own answer for it */
        mur_scene one = *s;
        mur_predator p;
        one.predators = &s->predators[target];
        one.npredators = 1;
        if (mur_scene_predators_at(&one, t, &p, 1) == 1) {
            out->has_target = 1;
            out->tx = p.x;
            out->ty = p.y;
            out->tz = p.z;
        }
    }
}
