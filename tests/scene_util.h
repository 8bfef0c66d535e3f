/* A scene from YAML text for tests that draw or run one, or that check the
 * loader refuses it (expect_refusal); the loader's
 * message goes to stderr when it refuses the text (the test then fails on
 * the NULL). */
#ifndef MURMUR_TEST_SCENE_UTIL_H
#define MURMUR_TEST_SCENE_UTIL_H

#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "murmur/experiment.h"
#include "murmur/scene.h"

static inline mur_scene *scene_of(const char *yaml)
{
    mur_scene *s = NULL;
    mur_error err = {{0}};
    if (mur_scene_parse(&s, "test.yaml", yaml, strlen(yaml), &err))
        fprintf(stderr, "  scene: %s\n", err.msg);
    return s;
}

/* An experiment of s run on 2 threads (every_tick: keep every tick's
 * metrics); the message goes to stderr when it fails (the test then fails
 * on the NULL). */
static inline mur_experiment *experiment_of(const mur_scene *s, int every_tick)
{
    mur_experiment_def def = MUR_EXPERIMENT_DEF_INIT;
    def.every_tick = every_tick;
    def.threads = 2;
    mur_experiment *e = NULL;
    mur_error err = {{0}};
    if (mur_experiment_run(&e, s, &def, &err))
        fprintf(stderr, "  experiment: %s\n", err.msg);
    return e;
}

/* The loader must refuse yaml (read as "t.yaml") with a message holding
 * `where` (as "t.yaml:2:25: error") and `what`. */
static inline void expect_refusal(const char *yaml, const char *where, const char *what)
{
    mur_scene *s = NULL;
    mur_error err = {{0}};
    int rc = mur_scene_parse(&s, "t.yaml", yaml, strlen(yaml), &err);
    CHECK(rc == MUR_EINPUT && strstr(err.msg, where) && strstr(err.msg, what), "%s\n  gave: %s", yaml,
          rc ? err.msg : "(loaded)");
    mur_scene_destroy(s);
}

#endif
