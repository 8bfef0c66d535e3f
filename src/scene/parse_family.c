/* The model family's scene keys (docs/scenes.md, flock): the short form
 * `neighbours: {topological: {k: K, radius: R}}`, and the check that every
 * key of a kind belongs to a kind the flock chose. */
#include "parse.h"

#include <stdio.h>
#include <string.h>

#include "murmur/family.h"
#include "murmur/presets.h"

/* The kind a setting of a kind belongs to (NULL for a setting of every
 * kind) and its axis's setting. */
static const mur_kind *kind_of(const mur_setting *st, const mur_setting **axis)
{
    const mur_kind *kd = NULL;
    for (int i = 0; st->kind && i < mur_kind_count() && !kd; i++)
        if (!strcmp(mur_kind_at(i)->name, st->kind))
            kd = mur_kind_at(i);
    *axis = kd ? mur_setting_find(kd->axis) : NULL;
    return *axis ? kd : NULL;
}

/* Refuse key k (setting st), whose kind the params pr do not choose;
 * `elsewhere`: words for where else it could have been chosen. */
static int refuse_key(ctx *c, yaml_node_t *k, const mur_setting *st, const mur_params *pr,
                      const char *elsewhere)
{
    const mur_setting *axis;
    const mur_kind *kd = kind_of(st, &axis);
    char kinds[160] = "";
    size_t len = 0;
    for (int i = 0; i < mur_kind_count(); i++)
        if (!strcmp(mur_kind_at(i)->axis, kd->axis))
            len += (size_t)snprintf(kinds + len, sizeof kinds - len, "%s%s", len ? " | " : "",
                                    mur_kind_at(i)->name);
    return mur_parse_fail_at(c, k, "'%s' is a setting of %s: %s, but this flock's %s is %s (%s: %s)%s; "
                             "choose %s: %s or remove '%s'",
                             st->name, kd->axis, kd->name, kd->axis, mur_setting_choice(axis, pr), kd->axis,
                             kinds, elsewhere, kd->axis, kd->name, st->name);
}

/* The setting named by a key of a settings map, when it belongs to a kind
 * (NULL otherwise: a setting of every kind, camera.*, a condition's own). */
static const mur_setting *kind_setting(ctx *c, yaml_node_pair_t *it, yaml_node_t **k)
{
    *k = mur_parse_node(c, it->key);
    const char *key = mur_parse_scalar(*k);
    const mur_setting *st = key ? mur_setting_find(key) : NULL;
    const mur_setting *axis;
    return st && kind_of(st, &axis) ? st : NULL;
}

/* After the flock section: every key of a kind belongs to a kind chosen
 * (orientation_width means nothing to reynolds; docs/model.md "Model
 * families"). */
int mur_parse_kinds_keys(ctx *c, yaml_node_t *map)
{
    const mur_params *pr = &c->s->params;
    for (yaml_node_pair_t *it = map->data.mapping.pairs.start; it < map->data.mapping.pairs.top; it++) {
        yaml_node_t *k;
        const mur_setting *st = kind_setting(c, it, &k);
        if (st && !mur_setting_active(st, pr))
            return refuse_key(c, k, st, pr, "");
    }
    return 0;
}

/* Whether some timeline entry's set or some condition chooses st's kind
 * (each applied alone to the flock's settings). */
static int chosen_somewhere(const mur_scene *s, const mur_setting *st)
{
    for (int i = 0; i < s->ncues + s->nconditions; i++) {
        mur_params p = s->params;
        if (i < s->ncues)
            mur_scene_apply(s->cues[i].set, s->cues[i].nset, &p);
        else
            mur_scene_apply(s->conditions[i - s->ncues].set, s->conditions[i - s->ncues].nset, &p);
        if (mur_setting_active(st, &p))
            return 1;
    }
    return 0;
}

static const char elsewhere_words[] = " and no timeline entry's set or experiment condition chooses it";

/* A timeline entry's set and ramp: a key of a kind that neither the flock,
 * nor any entry's set, nor any condition chooses (the timeline runs under
 * every condition). */
static int timeline_kinds(ctx *c, yaml_node_t *timeline)
{
    if (!timeline || timeline->type != YAML_SEQUENCE_NODE)
        return 0;
    for (yaml_node_item_t *e = timeline->data.sequence.items.start; e < timeline->data.sequence.items.top; e++) {
        yaml_node_t *entry = mur_parse_node(c, *e);
        for (int r = 0; entry && entry->type == YAML_MAPPING_NODE && r < 2; r++) {
            yaml_node_t *map = mur_parse_lookup(c, entry, r ? "ramp" : "set");
            if (!map || map->type != YAML_MAPPING_NODE)
                continue;
            for (yaml_node_pair_t *it = map->data.mapping.pairs.start; it < map->data.mapping.pairs.top; it++) {
                yaml_node_t *k;
                const mur_setting *st = kind_setting(c, it, &k);
                if (st && !mur_setting_active(st, &c->s->params) && !chosen_somewhere(c->s, st))
                    return refuse_key(c, k, st, &c->s->params, elsewhere_words);
            }
        }
    }
    return 0;
}

/* An experiment condition's keys: a key of a kind that neither the flock
 * with the condition's own choices, nor any timeline entry, chooses. */
static int condition_kinds(ctx *c, yaml_node_t *experiment)
{
    mur_scene *s = c->s;
    yaml_node_t *conds = experiment ? mur_parse_lookup(c, experiment, "conditions") : NULL;
    if (!conds || conds->type != YAML_MAPPING_NODE)
        return 0;
    for (yaml_node_pair_t *q = conds->data.mapping.pairs.start; q < conds->data.mapping.pairs.top; q++) {
        const char *name = mur_parse_scalar(mur_parse_node(c, q->key));
        yaml_node_t *map = mur_parse_node(c, q->value);
        const mur_condition *cd = NULL;
        for (int i = 0; name && i < s->nconditions && !cd; i++)
            if (s->conditions[i].name && !strcmp(s->conditions[i].name, name))
                cd = &s->conditions[i];
        if (!cd || !map || map->type != YAML_MAPPING_NODE)
            continue;
        mur_params p = s->params;
        mur_scene_apply(cd->set, cd->nset, &p);
        for (yaml_node_pair_t *it = map->data.mapping.pairs.start; it < map->data.mapping.pairs.top; it++) {
            yaml_node_t *k;
            const mur_setting *st = kind_setting(c, it, &k);
            int cued = 0;
            for (int i = 0; st && !mur_setting_active(st, &p) && i < s->ncues && !cued; i++) {
                mur_params t = p;
                mur_scene_apply(s->cues[i].set, s->cues[i].nset, &t);
                cued = mur_setting_active(st, &t);
            }
            if (st && !mur_setting_active(st, &p) && !cued)
                return refuse_key(c, k, st, &p, " and no timeline entry's set chooses it");
        }
    }
    return 0;
}

/* Once every section is read: the keys of a kind in the timeline's set and
 * ramp entries and in the experiment's conditions, as the flock's are. */
int mur_parse_kinds_elsewhere(ctx *c, yaml_node_t *root)
{
    int rc = timeline_kinds(c, mur_parse_lookup(c, root, "timeline"));
    return rc ? rc : condition_kinds(c, mur_parse_lookup(c, root, "experiment"));
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

