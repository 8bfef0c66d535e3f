/* The world section (`world:`): its size, boundary and margin. */
#include "parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mur_parse_world_keys[] = {"width", "height", "boundary", "margin", NULL};

int mur_parse_world_pair(ctx *c, pair *p, void *arg)
{
    changes *ch = arg;
    if (strcmp(p->key, "width") == 0 || strcmp(p->key, "height") == 0 ||
        strcmp(p->key, "boundary") == 0 || strcmp(p->key, "margin") == 0) {
        int rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key);
        return rc ? rc : mur_parse_setting_value(c, p->v, mur_setting_find(p->key), ch);
    }
    return 0;
}
