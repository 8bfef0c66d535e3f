/* The look on the timeline (look_timeline.c): what scene.c asks of it while
 * loading. Private to src/scene. */
#ifndef MURMUR_SCENE_LOOK_TIMELINE_H
#define MURMUR_SCENE_LOOK_TIMELINE_H

#include "murmur/scene.h"

/* Whether frames of s need mur_scene_moment_at: an overlay shown or hidden,
 * a placed or sized caption, two captions at once, a title card or a fade.
 * A scene without any draws exactly as before these existed. */
int mur_look_timeline_used(const mur_scene *s);

/* 0, or MUR_EINPUT "file:line:col: error: ..." at the entry whose show or
 * hide names an overlay that look.overlays does not have. */
int mur_look_timeline_check(const mur_scene *s, mur_error *err);

#endif
