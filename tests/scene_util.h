/* A scene from YAML text for tests that draw or run one; the loader's
 * message goes to stderr when it refuses the text (the test then fails on
 * the NULL). */
#ifndef MURMUR_TEST_SCENE_UTIL_H
#define MURMUR_TEST_SCENE_UTIL_H

#include <stdio.h>
#include <string.h>

#include "murmur/scene.h"

static inline mur_scene *scene_of(const char *yaml)
{
    mur_scene *s = NULL;
    mur_error err = {{0}};
    if (mur_scene_parse(&s, "test.yaml", yaml, strlen(yaml), &err))
        fprintf(stderr, "  scene: %s\n", err.msg);
    return s;
}

#endif
