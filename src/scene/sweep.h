/* experiment.sweep (sweep.c): a parameter grid read from the scene and
 * expanded into the scene's conditions. */
#ifndef MURMUR_SCENE_SWEEP_H
#define MURMUR_SCENE_SWEEP_H

#include <yaml.h>

#include "murmur/scene.h"

/* Enters with the `experiment.sweep` mapping n of doc (file: the name for
 * messages) and s without conditions; leaves s->conditions with the
 * cartesian product of the sweep's values, each named from its values
 * ("noise=0.05,alignment=1", the first setting varying slowest), and
 * s->sweep, sweep_dim, sweep_log, nsweep set. 0, MUR_EINPUT with
 * "file:line:col: error: ..." (a bad spec, no values, more than
 * MUR_SCENE_MAX_GRID conditions, settings a condition cannot hold) or
 * MUR_ERUN (memory). */
int mur_sweep_load(mur_scene *s, yaml_document_t *doc, yaml_node_t *n, const char *file, mur_error *err);

#endif
