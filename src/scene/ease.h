/* The easing of a ramp (docs/scenes.md `ease`), shared by the settings'
 * timeline (timeline.c) and the camera's (camera.c). Private to src/scene. */
#ifndef MURMUR_SCENE_EASE_H
#define MURMUR_SCENE_EASE_H

#include "murmur/scene.h"

/* How far along a ramp of easing e the value is at u in [0, 1] of its time. */
static inline double mur_ease_at(mur_ease e, double u)
{
    if (u <= 0)
        return 0;
    if (u >= 1)
        return 1;
    switch (e) {
    case MUR_EASE_STEP: return 0;   /* holds until the ramp ends, then jumps */
    case MUR_EASE_LINEAR: return u;
    default: return u * u * (3 - 2 * u);
    }
}

#endif
