/* The model family's scene keys (docs/scenes.md, flock): the short form
 * `neighbours: {topological: {k: K, radius: R}}`, and the check that every
 * key of a kind belongs to a kind the flock chose. */
#include "parse.h"

#include <stdio.h>
#include <string.h>

#include "murmur/family.h"
#include "murmur/presets.h"

/* After the flock section: every key of a kind belongs to a kind chosen
 * (orientation_width means nothing to reynolds; docs/model.md "Model
 * families"). */
int mur_parse_kinds_keys(ctx *c, yaml_node_t *map)
{
    const mur_params *pr = &c->s->params;
    for (yaml_node_pair_t *it = map->data.mapping.pairs.start; it < map->data.mapping.pairs.top; it++) {
        yaml_node_t *k = mur_parse_node(c, it->key);
        const char *key = mur_parse_scalar(k);
        const mur_setting *st = key ? mur_setting_find(key) : NULL;
        if (!st || mur_setting_active(st, pr))
            continue;
        const mur_kind *kd = NULL;
        for (int i = 0; i < mur_kind_count() && !kd; i++)
            if (!strcmp(mur_kind_at(i)->name, st->kind))
                kd = mur_kind_at(i);
        const mur_setting *axis = kd ? mur_setting_find(kd->axis) : NULL;
        if (!axis)
            continue;
        char kinds[160] = "";
        size_t len = 0;
        for (int i = 0; i < mur_kind_count(); i++)
            if (!strcmp(mur_kind_at(i)->axis, kd->axis))
                len += (size_t)snprintf(kinds + len, sizeof kinds - len, "%s%s", len ? " | " : "",
                                        mur_kind_at(i)->name);
        return mur_parse_fail_at(c, k, "'%s' is a setting of %s: %s, but this flock's %s is %s (%s: %s); "
                             "choose %s: %s or remove '%s'",
                       key, kd->axis, kd->name, kd->axis, mur_setting_choice(axis, pr), kd->axis,
                       kinds, kd->axis, kd->name, key);
    }
    return 0;
}

static const char *const topological_keys[] = {"k", "radius", NULL};

static int topological_pair(ctx *c, pair *p, void *arg)
{
    int rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key);
    if (rc)
        return rc;
    const mur_setting *st = mur_setting_find(!strcmp(p->key, "k") ? "topological_k" : "topological_radius");
    if (st->type == MUR_SETTING_REAL) {
        double v;
        if ((rc = mur_parse_number(c, p->v, "radius", st->min, st->max, &v)))
            return rc;
        if (!(v > 0))
            return mur_parse_fail_at(c, p->v, "the topological cap 'radius' must be above 0 (leave it out for "
                                    "no cap)");
    }
    return mur_parse_setting_value(c, p->v, st, arg);
}

/* neighbours: metric | topological | {topological: {k: K, radius: R}} */
int mur_parse_neighbours_value(ctx *c, pair *p, changes *ch)
{
    static const char *const kinds_[] = {"topological", NULL};
    const mur_setting *st = mur_setting_find("neighbours");
    if (p->v->type == YAML_SCALAR_NODE)
        return mur_parse_setting_value(c, p->v, st, ch);
    if (ch->ramp)
        return mur_parse_fail_at(c, p->v, "'neighbours' is a choice and cannot ramp (use set)");
    int rc = mur_parse_need_type(c, p->v, YAML_MAPPING_NODE, p->key);
    if (rc)
        return rc;
    if ((rc = mur_parse_each_pair(c, p->v, "neighbours", kinds_, NULL, NULL)))
        return rc;
    if ((rc = mur_parse_add_change(c, ch, st, MUR_NEIGHBOURS_TOPOLOGICAL)))
        return rc;
    yaml_node_t *t = mur_parse_lookup(c, p->v, "topological");
    if (t && t->type == YAML_SCALAR_NODE && !strcmp(mur_parse_scalar(t), ""))
        return 0;   /* {topological: } : its defaults */
    return mur_parse_each_pair(c, t, "topological", topological_keys, topological_pair, ch);
}

