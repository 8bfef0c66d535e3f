/* The flock section (`flock:`): the model's settings (one table, mur_setting,
 * shared with `set`, `ramp` and experiment conditions), recorded flocks
 * (`flock.replay`, `flock.start`) and the starting flock's shape and groups. */
#include "parse.h"
#include "../data/recording.h"
#include "sha256.h"
#include "murmur/file.h"
#include "murmur/limits.h"
#include "murmur/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Names a `flock`, `set`, `ramp` or condition may use: the settings table
 * minus the world's keys, plus the composite keys. Filled into the caller's
 * array (128 entries): nothing global, so two threads may load at once. */
const char **mur_parse_setting_names(const char *names[128])
{
    int k = 0;
    for (int i = 0; i < mur_setting_count() && k < 122; i++) {
        const char *nm = mur_setting_at(i)->name;
        int world = 0;
        for (int w = 0; mur_parse_world_keys[w]; w++)
            world |= strcmp(mur_parse_world_keys[w], nm) == 0;
        if (!world)
            names[k++] = nm;
    }
    names[k++] = "perception";
    names[k++] = "gains";
    names[k++] = "init_speed";
    names[k] = NULL;
    return names;
}

int mur_parse_add_change(ctx *c, changes *ch, const mur_setting *s, double v)
{
    if (!ch->list && ch->cap == -1) {
        mur_setting_put(s, ch->p, v);
        return 0;
    }
    if (ch->n == ch->cap) {
        int cap = ch->cap ? ch->cap * 2 : 8;
        mur_change *l = mur_realloc(ch->list, (size_t)cap * sizeof *l);
        if (!l)
            return mur_parse_oom(c);
        ch->list = l;
        ch->cap = cap;
    }
    ch->list[ch->n++] = (mur_change){s, v};
    return 0;
}

int mur_parse_setting_value(ctx *c, const yaml_node_t *n, const mur_setting *s, changes *ch)
{
    double v;
    int rc;
    if (s->type == MUR_SETTING_ENUM) {
        if (ch->ramp)
            return mur_parse_fail_at(c, n, "'%s' is a choice and cannot ramp (use set)", s->name);
        int k;
        if ((rc = mur_parse_choice(c, n, s->name, s->choices, &k)))
            return rc;
        v = k;
    } else if (s->type == MUR_SETTING_INT) {
        int k = 0;
        if ((rc = mur_parse_integer(c, n, s->name, s->min, s->max, &k)))
            return rc;
        v = k;
    } else if ((rc = mur_parse_number(c, n, s->name, s->min, s->max, &v))) {
        return rc;
    }
    return mur_parse_add_change(c, ch, s, v);
}

const char *const mur_parse_rule_names[] = {"separation", "alignment", "cohesion", NULL};

static int triple(ctx *c, const yaml_node_t *n, const char *key, const char *const names[3],
                  changes *ch)
{
    /* gains: one number for all three, [s, a, c], or {separation:, ...} */
    const char *const *rules = mur_parse_rule_names;
    int rc;
    if (n->type == YAML_SCALAR_NODE) {
        for (int k = 0; k < 3; k++)
            if ((rc = mur_parse_setting_value(c, n, mur_setting_find(names[k]), ch)))
                return rc;
        return 0;
    }
    if (n->type == YAML_SEQUENCE_NODE) {
        int len = (int)(n->data.sequence.items.top - n->data.sequence.items.start);
        if (len != 3)
            return mur_parse_fail_at(c, n, "'%s' needs three values [separation, alignment, cohesion]", key);
        for (int k = 0; k < 3; k++) {
            yaml_node_t *item = mur_parse_node(c, n->data.sequence.items.start[k]);
            if ((rc = mur_parse_need_type(c, item, YAML_SCALAR_NODE, key)) ||
                (rc = mur_parse_setting_value(c, item, mur_setting_find(names[k]), ch)))
                return rc;
        }
        return 0;
    }
    for (yaml_node_pair_t *it = n->data.mapping.pairs.start; it < n->data.mapping.pairs.top; it++) {
        yaml_node_t *k = mur_parse_node(c, it->key), *v = mur_parse_node(c, it->value);
        const char *name = mur_parse_scalar(k);
        int which = -1;
        for (int r = 0; name && r < 3; r++)
            if (strcmp(rules[r], name) == 0)
                which = r;
        if (which < 0)
            return mur_parse_unknown(c, k ? k : n, "rule", name ? name : "?", rules);
        if ((rc = mur_parse_need_type(c, v, YAML_SCALAR_NODE, name)) ||
            (rc = mur_parse_setting_value(c, v, mur_setting_find(names[which]), ch)))
            return rc;
    }
    return 0;
}

/* One `name: value` of a flock, set, ramp or condition. */
int mur_parse_one_setting(ctx *c, pair *p, void *arg)
{
    changes *ch = arg;
    int rc;
    if (!strncmp(p->key, "camera.", 7))
        return mur_parse_camera_change(c, p, ch);
    if (strcmp(p->key, "perception") == 0) {
        if ((rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)) ||
            (rc = mur_parse_setting_value(c, p->v, mur_setting_find("alignment_radius"), ch)))
            return rc;
        return mur_parse_setting_value(c, p->v, mur_setting_find("cohesion_radius"), ch);
    }
    if (strcmp(p->key, "neighbours") == 0)
        return mur_parse_neighbours_value(c, p, ch);
    if (strcmp(p->key, "gains") == 0) {
        static const char *const g[3] = {"gain_separation", "gain_alignment", "gain_cohesion"};
        return triple(c, p->v, p->key, g, ch);
    }
    if (strcmp(p->key, "init_speed") == 0) {
        const mur_setting *lo = mur_setting_find("init_speed_min"), *hi = mur_setting_find("init_speed_max");
        if (p->v->type == YAML_SEQUENCE_NODE) {
            if (p->v->data.sequence.items.top - p->v->data.sequence.items.start != 2)
                return mur_parse_fail_at(c, p->v, "'init_speed' is a speed or a range [min, max]");
            yaml_node_t *a = mur_parse_node(c, p->v->data.sequence.items.start[0]);
            yaml_node_t *b = mur_parse_node(c, p->v->data.sequence.items.start[1]);
            if ((rc = mur_parse_need_type(c, a, YAML_SCALAR_NODE, p->key)) ||
                (rc = mur_parse_need_type(c, b, YAML_SCALAR_NODE, p->key)) ||
                (rc = mur_parse_setting_value(c, a, lo, ch)) || (rc = mur_parse_setting_value(c, b, hi, ch)))
                return rc;
            return 0;
        }
        if ((rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)) ||
            (rc = mur_parse_setting_value(c, p->v, lo, ch)))
            return rc;
        return mur_parse_setting_value(c, p->v, hi, ch);
    }
    const mur_setting *s = NULL;
    const char *names[128];
    for (const char **nm = mur_parse_setting_names(names); *nm && !s; nm++)
        if (!strcmp(*nm, p->key))
            s = mur_setting_find(p->key);
    if (!s)
        return mur_parse_unknown(c, p->k, "setting", p->key, names);
    if ((rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
        return rc;
    return mur_parse_setting_value(c, p->v, s, ch);
}

/* Keys are checked by mur_parse_one_setting, so a misspelt one is an "unknown
 * setting" with the nearest setting's name. */
int mur_parse_settings_map(ctx *c, yaml_node_t *map, const char *what, changes *ch)
{
    return mur_parse_each_pair(c, map, what, NULL, mur_parse_one_setting, ch);
}

/* Check a whole parameter set; errors point at the node that set it. */
int mur_parse_params_ok(ctx *c, const mur_params *p, const yaml_node_t *where)
{
    mur_error e;
    if (mur_params_validate(p, &e))
        return mur_parse_fail_at(c, where, "%s", e.msg);
    return 0;
}

/* ---- sections ------------------------------------------------------------ */

/* ---- recorded flocks: flock.replay, flock.start ------------------------- */

const char *const mur_parse_source_keys[] = {"replay", "start", NULL};
const char *const mur_parse_start_keys[] = {"file", "tick", NULL};

static int start_state(ctx *c, yaml_node_t *v, yaml_node_t *flock);

/* A path in the scene, relative to the scene file's folder (a scene and
 * its recordings travel together); NULL when out of memory. */
char *mur_parse_beside_scene(const char *scene, const char *path)
{
    const char *slash = strrchr(scene, '/');
    size_t dir = path[0] == '/' || !slash ? 0 : (size_t)(slash - scene) + 1;
    char *out = mur_malloc(dir + strlen(path) + 1);
    if (out) {
        memcpy(out, scene, dir);
        strcpy(out + dir, path);
    }
    return out;
}

int mur_parse_file_beside(ctx *c, yaml_node_t *n, const char *key, char **out)
{
    char *written = NULL;
    int rc = mur_parse_text(c, n, key, MUR_SCENE_MAX_PATH, &written);
    if (rc)
        return rc;
    *out = mur_parse_beside_scene(c->name, written);
    mur_free(written);
    return *out ? 0 : mur_parse_oom(c);
}

/* Read the recording n names; errors in the file name the file (and its
 * line or dataset), a file that cannot be read the scene's line. */
int mur_parse_recording(ctx *c, yaml_node_t *n, const char *key, long tick, mur_recording **out)
{
    char *path = NULL;
    int rc = mur_parse_file_beside(c, n, key, &path);
    if (rc)
        return rc;
    char why[160];
    if (strcmp(key, "replay") && !mur_file_is_hdf5(path)) {
        rc = mur_parse_fail_at(c, n, "a saved state is an HDF5 file from `murmur trace` (.h5), not '%s'", path);
    } else if (mur_recording_file_ok(path, why, sizeof why)) {
        rc = mur_parse_fail_at(c, n, "'%s' %s", path, why);
    } else {
        mur_error e;
        if (!strcmp(key, "replay"))
            rc = mur_recording_replay(out, path, path, &c->s->params, &e);
        else
            rc = mur_recording_start(out, path, path, tick, &c->s->params, &e);
        int want = c->s->params.dimensions == 3 ? 3 : 2, got = !rc && (*out)->dimension == 3 ? 3 : 2;
        if (rc) {
            mur_error_set(c->err, rc, "%s", e.msg);
        } else if (got != want) {   /* a 2D state in a 3D world, or a 3D one in the plane */
            rc = mur_parse_fail_at(c, n, "'%s' was traced in a %dD world (positions [T][N][%d]): it cannot %s "
                                   "a %dD world%s", path, got, got, strcmp(key, "replay") ? "start" : "replay in",
                                   want, want == 3 ? " (dimensions: 3)" : "");
            mur_recording_destroy(*out);
            *out = NULL;
        } else if (strcmp(key, "replay") && c->s->params.motion == MUR_MOTION_FLY) {
            /* a trace holds positions and velocities, not the birds' body frames */
            rc = mur_parse_fail_at(c, n, "'%s' is a saved state of positions and velocities; model: starling's "
                                   "birds carry body frames (up vectors), search radii and reaction clocks "
                                   "that it does not hold, so a starling flock cannot continue from it: "
                                   "start from a shape (ball, box, slab)", path);
            mur_recording_destroy(*out);
            *out = NULL;
        } else if (mur_sha256_file(path, (*out)->sha256)) {   /* the bytes just read, for the provenance */
            rc = mur_parse_fail_at(c, n, "'%s' cannot be read again to hash it", path);
        }
    }
    mur_free(path);
    return rc;
}

/* ---- the starting flock's shape: flock.start -------------------------------- */

static const char *const region_names[] = {"uniform", "disc", "box", "ring", "ball", "slab", NULL};
const char *const mur_parse_disc_keys[] = {"center", "radius", NULL};
const char *const mur_parse_ring_keys[] = {"center", "radius", "width", NULL};
const char *const mur_parse_box_keys[] = {"x", "y", "width", "height", "z", "depth", NULL};
const char *const mur_parse_ball_keys[] = {"center", "radius", NULL};
const char *const mur_parse_slab_keys[] = {"bottom", "top", NULL};
const char *const mur_parse_shape_keys[] = {"uniform", "disc", "box", "ring", "ball", "slab",
                                            "heading", "spread", "speed", NULL};
const char *const mur_parse_groups_key[] = {"groups", NULL};
const char *const mur_parse_group_keys[] = {"count", "uniform", "disc", "box", "ring", "ball", "slab",
                                            "heading", "spread", "speed", "color", NULL};

/* [x, y] in the world. */
static int point(ctx *c, yaml_node_t *n, const char *key, double *x, double *y)
{
    double xy[2];
    int rc = mur_parse_number_pair(c, n, key, "a point [x, y]", -MUR_MAX_WORLD, MUR_MAX_WORLD, xy);
    if (!rc) {
        *x = xy[0];
        *y = xy[1];
    }
    return rc;
}

/* A size of a region (a box's side, a radius, a ring's width): above 0
 * and at most hi; `what` says which in the message ("a box's sides"). */
static int region_size(ctx *c, yaml_node_t *n, const char *key, const char *what, double hi, double *out)
{
    /* any number first: the range's low end (a hair above 0) is no help */
    int rc = mur_parse_number(c, n, key, -HUGE_VAL, HUGE_VAL, out);
    if (!rc && !(*out > 0))
        return mur_parse_fail_at(c, n, "'%s' = %g: %s must be above 0", key, *out, what);
    if (!rc && *out > hi)
        return mur_parse_fail_at(c, n, "'%s' = %g: %s must be at most %g", key, *out, what, hi);
    return rc;
}

/* The range of a region's corners and sizes, wider than any world: a
 * region past a closed world's walls is refused by the walls' message. */
#define REGION_BIG (2 * MUR_MAX_WORLD)

/* Which region a group's mapping names: leaves *kind (-1: none, uniform)
 * and *at its node (NULL: none); a second region refused. */
static int region_kind(ctx *c, yaml_node_t *map, const mur_start_group *g, int *kind, yaml_node_t **at)
{
    yaml_node_t *v, *seen = NULL;
    *kind = -1;
    for (int k = 0; region_names[k]; k++)
        if ((v = mur_parse_lookup(c, map, region_names[k]))) {
            if (seen && g->count < 0)
                return mur_parse_fail_at(c, v, "'start' has one region (%s and %s here): to start boids in "
                                               "several, list them as start: {groups: [...]}, each group "
                                               "with its count and its region",
                                         region_names[*kind], region_names[k]);
            if (seen)
                return mur_parse_fail_at(c, v, "a group of start.groups has one region (%s and %s here: "
                                               "uniform, disc, box, ring, ball or slab); give each region "
                                               "a group of its own", region_names[*kind], region_names[k]);
            seen = v;
            *kind = k;
        }
    *at = seen;
    return 0;
}

/* A ball (node v, its keys checked): leaves its centre and radius in g,
 * inside a closed world. */
static int ball(ctx *c, yaml_node_t *v, mur_start_group *g)
{
    const mur_params *p = &c->s->params;
    yaml_node_t *cn, *rn;
    double at[3];
    int rc;
    if (!(cn = mur_parse_lookup(c, v, "center")) || !(rn = mur_parse_lookup(c, v, "radius")))
        return mur_parse_fail_at(c, v, "a ball needs a center [x, y, z] and a radius");
    if ((rc = mur_parse_numbers(c, cn, "center", "a point [x, y, z]", 3, -MUR_MAX_WORLD, MUR_MAX_WORLD, at)) ||
        (rc = region_size(c, rn, "radius", "a ball's radius", REGION_BIG, &g->radius)))
        return rc;
    g->cx = at[0], g->cy = at[1], g->cz = at[2];
    double r = g->radius;
    if (p->boundary != MUR_BOUNDARY_OPEN &&
        (g->cx - r < 0 || g->cy - r < 0 || g->cz - r < 0 || g->cx + r > p->width ||
         g->cy + r > p->height || g->cz + r > p->depth))
        return mur_parse_fail_at(c, v, "the ball reaches outside the world (0 to %g, 0 to %g, 0 to %g)",
                                 p->width, p->height, p->depth);
    return 0;
}

/* A slab (node v, its keys checked): leaves its bottom in g->z and its
 * thickness in g->d, inside a closed world. */
static int slab(ctx *c, yaml_node_t *v, mur_start_group *g)
{
    const mur_params *p = &c->s->params;
    yaml_node_t *bn, *tn;
    double top;
    int rc;
    if (!(bn = mur_parse_lookup(c, v, "bottom")) || !(tn = mur_parse_lookup(c, v, "top")))
        return mur_parse_fail_at(c, v, "a slab needs a bottom and a top (heights, z)");
    if ((rc = mur_parse_number(c, bn, "bottom", -REGION_BIG, REGION_BIG, &g->z)) ||
        (rc = mur_parse_number(c, tn, "top", -REGION_BIG, REGION_BIG, &top)))
        return rc;
    if (!(top > g->z))
        return mur_parse_fail_at(c, tn, "a slab's top must be above its bottom");
    g->d = top - g->z;
    if (p->boundary != MUR_BOUNDARY_OPEN && (g->z < 0 || top > p->depth))
        return mur_parse_fail_at(c, v, "the slab reaches outside the world (z from 0 to %g)", p->depth);
    return 0;
}

/* A disc or a ring (kind) of the plane at node v: leaves its centre,
 * radius and band (a ring's width; a fifth of the radius unless given) in
 * g, inside a closed world. */
static int round_region(ctx *c, yaml_node_t *v, int kind, mur_start_group *g)
{
    const mur_params *p = &c->s->params;
    yaml_node_t *cn, *rn, *wn;
    int rc;
    if ((rc = mur_parse_each_pair(c, v, region_names[kind], kind == MUR_REGION_DISC ? mur_parse_disc_keys : mur_parse_ring_keys,
                        NULL, NULL)))
        return rc;
    if (!(cn = mur_parse_lookup(c, v, "center")) || !(rn = mur_parse_lookup(c, v, "radius")))
        return mur_parse_fail_at(c, v, "a %s needs a center [x, y] and a radius", region_names[kind]);
    if ((rc = point(c, cn, "center", &g->cx, &g->cy)) ||
        (rc = region_size(c, rn, "radius", kind == MUR_REGION_DISC ? "a disc's radius" : "a ring's radius",
                          REGION_BIG, &g->radius)))
        return rc;
    g->band = g->radius / 5;
    if ((wn = mur_parse_lookup(c, v, "width")) && (rc = mur_parse_number(c, wn, "width", 1e-9, 2 * g->radius, &g->band)))
        return rc;
    double r = g->radius + (kind == MUR_REGION_RING ? g->band / 2 : 0);
    if (p->boundary != MUR_BOUNDARY_OPEN &&   /* an open world has no outside */
        (g->cx - r < 0 || g->cy - r < 0 || g->cx + r > p->width || g->cy + r > p->height))
        return mur_parse_fail_at(c, v, "the %s reaches outside the world (0 to %g, 0 to %g)", region_names[kind],
                       p->width, p->height);
    return 0;
}

/* A box at node v: leaves its corner and sides in g (z and depth in a 3D
 * world, where they are needed; refused in the plane), inside a closed
 * world. */
static int box(ctx *c, yaml_node_t *v, mur_start_group *g)
{
    const mur_params *p = &c->s->params;
    int three = p->dimensions == 3, rc;
    if ((rc = mur_parse_each_pair(c, v, "box", mur_parse_box_keys, NULL, NULL)))
        return rc;
    yaml_node_t *n[6];
    double *out[6] = {&g->x, &g->y, &g->w, &g->h, &g->z, &g->d};
    for (int k = 0; k < 6; k++) {
        n[k] = mur_parse_lookup(c, v, mur_parse_box_keys[k]);
        if (k >= 4 && n[k] && !three)
            return mur_parse_fail_at(c, n[k], "a box's '%s' is the third axis: it needs a 3D world",
                                     mur_parse_box_keys[k]);
        if (k >= 4 && !three)
            continue;
        if (!n[k])
            return mur_parse_fail_at(c, v, three ? "a box in a 3D world needs x, y, z, width, height "
                                                   "and depth"
                                                 : "a box needs x, y, width and height");
        int size = k == 2 || k == 3 || k == 5;
        if ((rc = size ? region_size(c, n[k], mur_parse_box_keys[k], "a box's sides", REGION_BIG, out[k])
                       : mur_parse_number(c, n[k], mur_parse_box_keys[k], -REGION_BIG, REGION_BIG, out[k])))
            return rc;
    }
    if (p->boundary != MUR_BOUNDARY_OPEN &&
        (g->x < 0 || g->y < 0 || g->x + g->w > p->width || g->y + g->h > p->height ||
         (three && (g->z < 0 || g->z + g->d > p->depth))))
        return mur_parse_fail_at(c, v, three ? "the box reaches outside the world (0 to %g, 0 to %g, 0 to %g)"
                                             : "the box reaches outside the world (0 to %g, 0 to %g)",
                                 p->width, p->height, p->depth);
    return 0;
}

/* The region of a group: one of uniform, disc, box, ring, ball, slab (the
 * first found), inside the world; a count below 0: the whole flock's
 * shape (flock.start itself, not one of its groups). */
static int region(ctx *c, yaml_node_t *map, mur_start_group *g)
{
    const mur_params *p = &c->s->params;
    yaml_node_t *v = NULL;
    int kind, rc;
    if ((rc = region_kind(c, map, g, &kind, &v)))
        return rc;
    g->region = kind < 0 ? MUR_REGION_UNIFORM : (mur_region)kind;
    int three = p->dimensions == 3;
    if (three && (kind == MUR_REGION_DISC || kind == MUR_REGION_RING))
        return mur_parse_fail_at(c, v, "a %s is a region of the plane: a 3D world takes a ball, a box "
                                       "(with z and depth) or a slab", region_names[kind]);
    if ((kind == MUR_REGION_BALL || kind == MUR_REGION_SLAB) &&
        ((rc = mur_parse_each_pair(c, v, region_names[kind],
                                   kind == MUR_REGION_BALL ? mur_parse_ball_keys : mur_parse_slab_keys, NULL,
                                   NULL))))
        return rc;
    if (!three && (kind == MUR_REGION_BALL || kind == MUR_REGION_SLAB))
        return mur_parse_fail_at(c, v, "a %s is a region of a 3D world (world.dimensions: 3)",
                                 region_names[kind]);
    if (kind == MUR_REGION_BALL)
        return ball(c, v, g);
    if (kind == MUR_REGION_SLAB)
        return slab(c, v, g);
    if (kind == MUR_REGION_DISC || kind == MUR_REGION_RING)
        return round_region(c, v, kind, g);
    if (kind == MUR_REGION_BOX)
        return box(c, v, g);
    if (v && !(v->type == YAML_SCALAR_NODE && !*mur_parse_scalar(v)) &&
        !(v->type == YAML_MAPPING_NODE && v->data.mapping.pairs.start == v->data.mapping.pairs.top))
        return mur_parse_fail_at(c, v, "'uniform' takes nothing ({} or an empty value)");
    return 0;
}

/* heading, spread and speed of a group (a shape or a group's mapping). */
static int motion(ctx *c, yaml_node_t *map, mur_start_group *g)
{
    yaml_node_t *h = mur_parse_lookup(c, map, "heading"), *sp = mur_parse_lookup(c, map, "spread"), *v = mur_parse_lookup(c, map, "speed");
    int rc;
    g->heading_random = 1;
    g->speed_min = g->speed_max = -1;
    if (h && !(h->type == YAML_SCALAR_NODE && !strcmp(mur_parse_scalar(h), "random"))) {
        if ((rc = mur_parse_number(c, h, "heading", -360, 360, &g->heading)))
            return rc;
        g->heading_random = 0;
    }
    if (sp && g->heading_random)
        return mur_parse_fail_at(c, sp, "'spread' is around a heading: give the group a heading in degrees");
    if (sp && (rc = mur_parse_number(c, sp, "spread", 0, 360, &g->spread)))
        return rc;
    if (!v)
        return 0;
    if (v->type == YAML_SEQUENCE_NODE && v->data.sequence.items.top - v->data.sequence.items.start == 2) {
        if ((rc = mur_parse_number(c, mur_parse_node(c, v->data.sequence.items.start[0]), "speed", 0, 10000, &g->speed_min)) ||
            (rc = mur_parse_number(c, mur_parse_node(c, v->data.sequence.items.start[1]), "speed", 0, 10000, &g->speed_max)))
            return rc;
        if (g->speed_min > g->speed_max)
            return mur_parse_fail_at(c, v, "'speed' [min, max] with min above max");
        return 0;
    }
    if ((rc = mur_parse_number(c, v, "speed", 0, 10000, &g->speed_min)))
        return rc;
    g->speed_max = g->speed_min;
    return 0;
}

static int add_group(ctx *c, yaml_node_t *map, int count, mur_rgba col_in)
{
    mur_scene *s = c->s;
    if (s->ngroups == MUR_SCENE_MAX_GROUPS)
        return mur_parse_fail_at(c, map, "more than %d groups", MUR_SCENE_MAX_GROUPS);
    mur_start_group *g = mur_realloc(s->groups, (size_t)(s->ngroups + 1) * sizeof *g);
    mur_rgba *col = g ? mur_realloc(s->group_colors, (size_t)(s->ngroups + 1) * sizeof *col) : NULL;
    if (g)
        s->groups = g;
    if (!col)
        return mur_parse_oom(c);
    s->group_colors = col;
    g = &s->groups[s->ngroups];
    memset(g, 0, sizeof *g);
    g->count = count;
    col[s->ngroups] = col_in;
    s->ngroups++;
    int rc = region(c, map, g);
    return rc ? rc : motion(c, map, g);
}

/* The palette groups are drawn in when they name no colour. */
static mur_rgba group_palette(int k)
{
    static const unsigned rgb[] = {0x7cf29c, 0xf2a65a, 0x5ab8f2, 0xf25a8a, 0xd9e05a, 0xb07cf2, 0x5af2e0, 0xf2f2f2};
    unsigned v = rgb[k % 8];
    return (mur_rgba){(v >> 16) / 255.0, ((v >> 8) & 255) / 255.0, (v & 255) / 255.0, 1};
}

/* flock.start: {groups: [...]} */
static int groups(ctx *c, yaml_node_t *seq, yaml_node_t *count)
{
    if (seq->type != YAML_SEQUENCE_NODE || seq->data.sequence.items.top == seq->data.sequence.items.start)
        return mur_parse_fail_at(c, seq, "'groups' is a list of groups, each with a count and a region");
    double total = 0;
    int rc;
    for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++) {
        yaml_node_t *g = mur_parse_node(c, *it), *n, *cl;
        int k = 0;
        mur_rgba col = group_palette(c->s->ngroups);
        if ((rc = mur_parse_each_pair(c, g, "group", mur_parse_group_keys, NULL, NULL)))
            return rc;
        if (!(n = mur_parse_lookup(c, g, "count")))
            return mur_parse_fail_at(c, g, "a group needs a count");
        if ((rc = mur_parse_integer(c, n, "count", 0, MUR_MAX_BOIDS, &k)))
            return rc;
        if ((cl = mur_parse_lookup(c, g, "color")) && (rc = mur_parse_colour(c, cl, "color", &col)))
            return rc;
        total += k;
        if (total > MUR_MAX_BOIDS)
            return mur_parse_fail_at(c, n, "the groups hold %.0f boids (at most %d)", total, MUR_MAX_BOIDS);
        if ((rc = add_group(c, g, k, col)))
            return rc;
    }
    (void)count;   /* checked against the total once the flock section is read (mur_parse_flock_source) */
    return 0;
}

/* flock.start: FILE, uniform, {file: FILE, tick: N}, a shape, or groups */
static int start_state(ctx *c, yaml_node_t *v, yaml_node_t *flock)
{
    if (v->type == YAML_SCALAR_NODE && !strcmp(mur_parse_scalar(v), "uniform"))
        return 0;
    if (v->type != YAML_MAPPING_NODE)
        return mur_parse_recording(c, v, "start", -1, &c->s->start);
    int rc;
    yaml_node_t *file = mur_parse_lookup(c, v, "file"), *tick = mur_parse_lookup(c, v, "tick"), *gs = mur_parse_lookup(c, v, "groups");
    if (gs) {
        return (rc = mur_parse_each_pair(c, v, "start", mur_parse_groups_key, NULL, NULL)) ? rc
                                                                       : groups(c, gs, mur_parse_lookup(c, flock, "count"));
    }
    if (!file && !tick) {   /* one shape for the whole flock */
        if ((rc = mur_parse_each_pair(c, v, "start", mur_parse_shape_keys, NULL, NULL)))
            return rc;
        return add_group(c, v, -1, group_palette(0));   /* its count: the flock's, once read */
    }
    if ((rc = mur_parse_each_pair(c, v, "start", mur_parse_start_keys, NULL, NULL)))
        return rc;
    int t = -1;
    if (!file)
        return mur_parse_fail_at(c, v, "'start' needs a 'file' (a saved state from `murmur trace --at`)");
    if (tick && (rc = mur_parse_integer(c, tick, "tick", 0, MUR_SCENE_MAX_TICKS, &t)))
        return rc;
    return mur_parse_recording(c, file, "start", t, &c->s->start);
}

/* The flock section: settings, and where the boids come from. */
int mur_parse_flock_pair(ctx *c, pair *p, void *arg)
{
    if (!strcmp(p->key, "replay"))
        return mur_parse_recording(c, p->v, "replay", -1, &c->s->replay);
    if (!strcmp(p->key, "start")) {
        changes *ch = arg;
        (void)ch;
        return start_state(c, p->v, c->flock_node);
    }
    return mur_parse_one_setting(c, p, arg);
}

/* After the flock section: a recording decides the count (the most boids
 * of any frame, or the saved state's), and replay and start exclude each
 * other. */
int mur_parse_flock_source(ctx *c, yaml_node_t *map)
{
    mur_scene *s = c->s;
    yaml_node_t *count = mur_parse_lookup(c, map, "count");
    const mur_recording *r = s->replay ? s->replay : s->start;
    if (s->ngroups && s->replay)
        return mur_parse_fail_at(c, mur_parse_lookup(c, map, "start"), "a replayed flock follows its recording: it has no start");
    if (s->ngroups == 1 && s->groups[0].count < 0) {
        s->groups[0].count = s->params.count;   /* one shape: the whole flock */
    } else if (s->ngroups) {
        long total = 0;
        for (int k = 0; k < s->ngroups; k++)
            total += s->groups[k].count;
        if (count && s->params.count != total)
            return mur_parse_fail_at(c, count, "the start's groups hold %ld boids: remove 'count' or make it %ld",
                           total, total);
        s->params.count = (int)total;
    }
    if (s->replay && s->start)
        return mur_parse_fail_at(c, mur_parse_lookup(c, map, "start"), "a flock replays a recording or starts from a "
                                                   "saved state, not both");
    if (!r)
        return 0;
    int n = s->replay ? r->max_n : (int)(r->first[1] - r->first[0]);
    if (count && s->replay)
        return mur_parse_fail_at(c, count, "a replayed flock's count is the recording's (%s): remove 'count'", r->path);
    if (count && s->params.count != n)
        return mur_parse_fail_at(c, count, "the saved state %s holds %d boids: remove 'count' or make it %d", r->path, n, n);
    s->params.count = n;
    return 0;
}

/* What a replayed flock cannot do: it follows its recording, so nothing
 * may step it, move it or change its count. */
int mur_parse_replay_ok(ctx *c, yaml_node_t *root, yaml_node_t *video)
{
    const mur_scene *s = c->s;
    int any = s->replay != NULL;
    for (int i = 0; i < s->nconditions; i++)
        any |= s->conditions[i].replay != NULL;
    if (!any)
        return 0;
    if (s->warmup > 0)
        return mur_parse_fail_at(c, mur_parse_lookup(c, video, "warmup"), "a replayed flock has no warm-up: its first "
                                                      "frame is the recording's");
    for (int i = 0; i < s->ncues; i++) {
        const mur_cue *q = &s->cues[i];
        mur_error e;
        if (q->event != MUR_EVENT_NONE)
            return mur_error_set(c->err, MUR_EINPUT, "%s:%d:%d: error: a replayed flock follows its "
                                 "recording: event '%s' cannot act on it", c->name, q->line,
                                 q->col > 0 ? q->col : 1, mur_event_name(q->event));
        for (int k = 0; k < q->nset + q->nramp; k++) {
            const mur_change *ch = k < q->nset ? &q->set[k] : &q->ramp[k - q->nset];
            if (!strcmp(ch->setting->name, "count"))
                return mur_error_set(c->err, MUR_EINPUT, "%s:%d:%d: error: a replayed flock's count "
                                     "is the recording's: the timeline cannot set it", c->name,
                                     q->line, q->col > 0 ? q->col : 1);
        }
        (void)e;
    }
    (void)root;
    return 0;
}
