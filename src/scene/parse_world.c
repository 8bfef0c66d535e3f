/* The world section (`world:`): its size (or density), boundary and margin. */
#include "parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mur_parse_world_keys[] = {"width",   "height",     "boundary", "margin",
                                            "density", "dimensions", "depth",    NULL};

int mur_parse_world_pair(ctx *c, pair *p, void *arg)
{
    changes *ch = arg;
    int known = 0;
    for (int k = 0; mur_parse_world_keys[k]; k++)
        known |= strcmp(p->key, mur_parse_world_keys[k]) == 0;
    if (known) {
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
    mur_params *p = &c->s->params;
    yaml_node_t *depth = mur_parse_lookup(c, map, "depth");
    if (depth && p->dimensions != 3)
        return mur_parse_fail_at(c, depth, "'depth' is the third axis of a 3D world: give "
                                           "'dimensions: 3' too");
    if (p->dimensions == 3 && depth && dn)
        return mur_parse_fail_at(c, depth, "the world is sized by 'density' or by 'width', "
                                           "'height' and 'depth', not both");
    if (p->dimensions == 3 && depth && !(p->depth >= 1))
        return mur_parse_fail_at(c, depth, "'depth' must be at least 1 world unit (a 3D world's "
                                           "extent along z, up)");
    if (p->dimensions == 3 && !depth && !(p->depth >= 1))
        p->depth = p->height;   /* a 3D world of the given floor is as deep as it is high */
    mur_params_resolve(p);
    return 0;
}
