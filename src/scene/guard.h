/* The YAML guard (guard.c): a pass over a scene's events that rejects deep
 * nesting and alias amplification before libyaml builds the document. */
#ifndef MURMUR_SCENE_GUARD_H
#define MURMUR_SCENE_GUARD_H

#include <stddef.h>
#include "murmur/error.h"

/* Enters with a scene's text; leaves 0 when it nests at most
 * MUR_SCENE_MAX_DEPTH levels, defines at most MUR_SCENE_MAX_ANCHORS anchors
 * and, every alias expanded, holds at most MUR_SCENE_MAX_NODES values and
 * MUR_SCENE_MAX_EXPANDED bytes of text; otherwise MUR_EINPUT with err at
 * file:line:col of the offending node. A syntax error returns 0: the loader
 * reports it. Work is linear in the bytes scanned. */
int mur_scene_guard(const char *name, const char *src, size_t len, mur_error *err);

#endif
