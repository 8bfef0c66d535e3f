/* The world section (`world:`): its size (or density), boundary and margin. */
#include "parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mur_parse_world_keys[] = {"width", "height", "boundary", "margin", "density", NULL};

int mur_parse_world_pair(ctx *c, pair *p, void *arg)
{
    changes *ch = arg;
    if (strcmp(p->key, "width") == 0 || strcmp(p->key, "height") == 0 ||
        strcmp(p->key, "boundary") == 0 || strcmp(p->key, "margin") == 0 ||
        strcmp(p->key, "density") == 0) {
        int rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key);
        return rc ? rc : mur_parse_setting_value(c, p->v, mur_setting_find(p->key), ch);
    }
    return 0;
}

int mur_parse_world_finish(ctx *c, yaml_node_t *map)
{
    yaml_node_t *dn = mur_parse_lookup(c, map, "density"), *wn = mur_parse_lookup(c, map, "width");
    if (!wn)
        wn = mur_parse_lookup(c, map, "height");
    if (dn && wn)
        return mur_parse_fail_at(c, wn, "the world is sized by 'density' or by 'width' and 'height', "
                                        "not both");
    if (dn && !(c->s->params.density > 0))
        return mur_parse_fail_at(c, dn, "'density' must be above 0 (boids per unit area)");
    return 0;
}
