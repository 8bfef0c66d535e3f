/* What the scene loader's files (parse_*.c, scene.c, sweep.c) share about libyaml's
 * nodes: a scalar's text, and an error at a node's file:line:col. Private
 * to src/scene. */
#ifndef MURMUR_SCENE_YAMLNODE_H
#define MURMUR_SCENE_YAMLNODE_H

#include <stdarg.h>
#include <yaml.h>

#include "murmur/error.h"

/* The text of a scalar node, or NULL for any other node (or none). */
static inline const char *mur_yaml_scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* MUR_EINPUT with "file:line:col: error: MESSAGE" at node n (1:1 when n is
 * NULL: every scene error names a place, and editors jump there). */
int mur_yaml_fail(mur_error *err, const char *file, const yaml_node_t *n, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

#endif
