/* The experiment and layout sections (`experiment:`, `layout:`): conditions,
 * twins, the measure window, `until`, the baseline, and finding a condition
 * by name. */
#include "parse.h"
#include "murmur/metrics.h"
#include "../data/recording.h"
#include "sweep.h"
#include "murmur/limits.h"
#include "murmur/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A condition's own keys, label, mur_parse_colour (or color) and replay, beside the flock
 * settings it changes. */
typedef struct {
    changes ch;
    mur_condition *q;
} condition_keys;

static int condition_key(ctx *c, pair *p, void *arg)
{
    condition_keys *a = arg;
    if (!strcmp(p->key, "label"))
        return mur_parse_text(c, p->v, "label", MUR_SCENE_MAX_NAME, &a->q->label);
    if (!strcmp(p->key, "colour") || !strcmp(p->key, "color")) {   /* both spellings, as look.boid.color */
        if (a->q->has_colour)
            return mur_parse_fail_at(c, p->v, "the condition's colour is given twice (colour and color are one key)");
        a->q->has_colour = 1;
        return mur_parse_colour(c, p->v, p->key, &a->q->colour);
    }
    if (strcmp(p->key, "replay"))
        return mur_parse_one_setting(c, p, &a->ch);
    int rc = mur_parse_recording(c, p->v, "replay", -1, &a->q->replay);
    if (rc)
        return rc;
    mur_recording_info in;
    mur_recording_describe(a->q->replay, &in);
    /* the condition's count is its recording's (what work bounds and a
     * trace's rows are sized by) */
    return mur_parse_add_change(c, &a->ch, mur_setting_find("count"), in.max_boids);
}

static int condition_pair(ctx *c, pair *p, void *arg)
{
    (void)arg;
    mur_scene *s = c->s;
    mur_condition *q = &s->conditions[s->nconditions];
    if (strlen(p->key) > MUR_SCENE_MAX_NAME)
        return mur_parse_fail_at(c, p->k, "condition name is longer than %d characters", MUR_SCENE_MAX_NAME);
    int bad = mur_parse_printable(c, p->k, "condition name", p->key);   /* a table's cell, a terminal's line */
    if (bad)
        return bad;
    if (!(q->name = mur_strdup(p->key)))
        return mur_parse_oom(c);
    s->nconditions++;
    if (p->v->type == YAML_SCALAR_NODE && !*mur_parse_scalar(p->v))
        return 0;  /* `all:` with nothing after it */
    yaml_node_t *count = mur_parse_lookup(c, p->v, "count"), *replay = mur_parse_lookup(c, p->v, "replay");
    if (count && replay)
        return mur_parse_fail_at(c, count, "a replayed flock's count is the recording's: remove 'count'");
    condition_keys ck = {{NULL, 0, 0, NULL, 0, NULL}, q};
    int rc = mur_parse_each_pair(c, p->v, p->key, NULL, condition_key, &ck);
    q->set = ck.ch.list;
    q->nset = ck.ch.n;
    if (rc)
        return rc;
    mur_params pp = s->params;
    mur_scene_apply(q->set, q->nset, &pp);
    return mur_parse_params_ok(c, &pp, p->v);
}

/* experiment.twin: `shift: half-box`, `shift: [dx, dy]` (a 3D world:
 * `[dx, dy, dz]`) or `perturb: D`. */
static int twin_pair(ctx *c, pair *p, void *arg)
{
    mur_twin_spec *tw = arg;
    int rc, dims = c->s->params.dimensions;
    if (!strcmp(p->key, "perturb")) {
        tw->kind = MUR_TWIN_PERTURB;
        if ((rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, "perturb")))
            return rc;
        return mur_parse_number(c, p->v, "perturb", 1e-15, 100, &tw->perturb);
    }
    tw->kind = MUR_TWIN_SHIFT;
    const char *v = mur_parse_scalar(p->v);
    if (v && !strcmp(v, "half-box")) {
        tw->half_box = 1;
        return 0;
    }
    long n = p->v->type == YAML_SEQUENCE_NODE ? p->v->data.sequence.items.top - p->v->data.sequence.items.start : 0;
    /* [dx, dy] in either world (a 3D world's z: 0), [dx, dy, dz] in a 3D one */
    if (n == 3 && dims != 3)
        return mur_parse_fail_at(c, p->v, "'shift' has a dz but the world is 2D: give [dx, dy] "
                                          "(a shift along z needs world.dimensions: 3)");
    if (n != 2 && n != 3)
        return mur_parse_fail_at(c, p->v, "'shift' must be half-box or %s in world units",
                                 dims == 3 ? "[dx, dy] or [dx, dy, dz]" : "[dx, dy]");
    double d[3] = {0, 0, 0};
    for (int k = 0; k < (int)n; k++)
        if ((rc = mur_parse_number(c, mur_parse_node(c, p->v->data.sequence.items.start[k]), "shift", -MUR_MAX_WORLD, MUR_MAX_WORLD,
                         &d[k])))
            return rc;
    tw->shift[0] = d[0];
    tw->shift[1] = d[1];
    mur_scene_more_of(c->s)->twin_shift_z = d[2];
    return 0;
}

const char *const mur_parse_twin_keys[] = {"shift", "perturb", NULL};

static int twin_map(ctx *c, yaml_node_t *map, mur_twin_spec *tw)
{
    *tw = (mur_twin_spec){0};
    mur_scene_more_of(c->s)->twin_shift_z = 0;
    int rc = mur_parse_each_pair(c, map, "twin", mur_parse_twin_keys, twin_pair, tw);
    if (rc)
        return rc;
    if (mur_parse_lookup(c, map, "shift") && mur_parse_lookup(c, map, "perturb"))
        return mur_parse_fail_at(c, map, "'twin' takes 'shift' or 'perturb', not both");
    if (tw->kind == MUR_TWIN_NONE)
        return mur_parse_fail_at(c, map, "'twin' needs 'shift' (half-box or %s) or 'perturb'",
                                 c->s->params.dimensions == 3 ? "[dx, dy, dz]" : "[dx, dy]");
    return 0;
}

/* A duration in whole ticks (`100t`, or seconds at ticks_per_second). */
static int ticks_value(ctx *c, const yaml_node_t *n, const char *key, long *out)
{
    double secs;
    int rc = mur_parse_need_type(c, n, YAML_SCALAR_NODE, key);
    if (rc || (rc = mur_parse_time_value(c, n, key, 0, 1e7 / c->tps, &secs)))
        return rc;
    *out = lround(secs * c->tps);
    if (*out < 1)
        return mur_parse_fail_at(c, n, "'%s' must be at least one tick", key);
    return 0;
}

/* experiment.measure: `at: last`, or `window: 100t` with `every: 10t`. */
static int measure_pair(ctx *c, pair *p, void *arg)
{
    mur_measure *m = arg;
    if (!strcmp(p->key, "at")) {
        static const char *const at[] = {"last", NULL};
        int which;
        int rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, "at");
        return rc ? rc : mur_parse_choice(c, p->v, "at", at, &which);
    }
    if (!strcmp(p->key, "radius"))   /* above 0; the world bounds it once it is known (scene_valid) */
        return mur_parse_number(c, p->v, "radius", 1e-9, 1e9, &m->radius);
    if (!strcmp(p->key, "correlation_bin"))   /* a bin of zero width holds nothing */
        return mur_parse_number(c, p->v, "correlation_bin", 1e-9, 1e9, &m->correlation_bin);
    if (!strcmp(p->key, "correlation_range"))
        return mur_parse_number(c, p->v, "correlation_range", 1e-9, 1e9, &m->correlation_range);
    if (!strcmp(p->key, "window")) {
        m->window_line = (int)p->v->start_mark.line + 1;
        m->window_col = (int)p->v->start_mark.column + 1;
    }
    return ticks_value(c, p->v, p->key, !strcmp(p->key, "window") ? &m->window : &m->every);
}

const char *const mur_parse_measure_keys[] = {"at", "window", "every", "radius", "correlation_bin",
                                              "correlation_range", NULL};

static int measure_map(ctx *c, yaml_node_t *map, mur_measure *m)
{
    *m = (mur_measure){.every = 1};
    int rc = mur_parse_each_pair(c, map, "measure", mur_parse_measure_keys, measure_pair, m);
    if (rc)
        return rc;
    if (mur_parse_lookup(c, map, "at") && mur_parse_lookup(c, map, "window"))
        return mur_parse_fail_at(c, map, "'measure' takes 'at: last' or a 'window', not both");
    if (mur_parse_lookup(c, map, "every") && !m->window)
        return mur_parse_fail_at(c, mur_parse_lookup(c, map, "every"), "'every' samples a 'window': give one");
    if (m->window && m->every > m->window)
        return mur_parse_fail_at(c, mur_parse_lookup(c, map, "every"), "'every' (%ld ticks) is longer than the window (%ld ticks)",
                       m->every, m->window);
    if (m->correlation_bin > 0 && m->correlation_range / m->correlation_bin > MUR_CORRELATION_BINS)
        return mur_parse_fail_at(c, mur_parse_lookup(c, map, "correlation_bin"),
                                 "'correlation_bin' = %g makes more than %d bins of 'correlation_range' = %g",
                                 m->correlation_bin, MUR_CORRELATION_BINS, m->correlation_range);
    return 0;
}

/* experiment.until: metric: "> 0.9" (>, >=, <, <=), each metric once. */
static int until_pair(ctx *c, pair *p, void *arg)
{
    mur_scene *s = arg;
    static const char *const ops[] = {">=", "<=", ">", "<"};
    static const mur_until_op codes[] = {MUR_UNTIL_GE, MUR_UNTIL_LE, MUR_UNTIL_GT, MUR_UNTIL_LT};
    mur_until *u = &s->until[s->nuntil];
    int rc = mur_parse_metric_name(c, p->k, "until", &u->metric);
    if (rc || (rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
        return rc;
    const char *v = mur_parse_scalar(p->v);
    while (*v == ' ')
        v++;
    int op = 0;
    while (op < 4 && strncmp(v, ops[op], strlen(ops[op])))
        op++;
    if (op == 4 || mur_parse_double(v + strlen(ops[op]), &u->value))
        return mur_parse_fail_at(c, p->v, "'until.%s' must be a comparison like \"> 0.9\" (>, >=, <, <=), not '%s'",
                       p->key, mur_parse_scalar(p->v));
    u->op = codes[op];
    s->nuntil++;
    return 0;
}

static int until_map(ctx *c, yaml_node_t *map, mur_scene *s)
{
    s->nuntil = 0;
    int rc = mur_parse_need_type(c, map, YAML_MAPPING_NODE, "until");
    if (rc)
        return rc;
    long n = map->data.mapping.pairs.top - map->data.mapping.pairs.start;
    if (n < 1 || n > MUR_METRIC_COUNT)
        return mur_parse_fail_at(c, map, "'until' needs 1 to %d metrics, each with a comparison", MUR_METRIC_COUNT);
    return mur_parse_each_pair(c, map, "until", NULL, until_pair, s);
}

int mur_parse_experiment_pair(ctx *c, pair *p, void *arg)
{
    mur_scene *s = arg;
    int rc;
    if (!strcmp(p->key, "runs")) {
        if ((rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
            return rc;
        return mur_parse_integer(c, p->v, "runs", 1, MUR_MAX_RUNS, &s->runs);
    }
    if (!strcmp(p->key, "ticks")) {
        if ((rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
            return rc;
        return mur_parse_integer(c, p->v, "ticks", 1, MUR_MAX_RUN_TICKS, &s->ticks);
    }
    if (!strcmp(p->key, "twin"))
        return twin_map(c, p->v, &s->twin);
    if (!strcmp(p->key, "measure"))
        return measure_map(c, p->v, &s->measure);
    if (!strcmp(p->key, "until"))
        return until_map(c, p->v, s);
    if (!strcmp(p->key, "metrics")) {
        if ((rc = mur_parse_need_type(c, p->v, YAML_SEQUENCE_NODE, p->key)))
            return rc;
        s->nmetrics = 0;
        for (yaml_node_item_t *it = p->v->data.sequence.items.start; it < p->v->data.sequence.items.top; it++) {
            if (s->nmetrics == MUR_METRIC_COUNT)
                return mur_parse_fail_at(c, p->v, "at most %d metrics", MUR_METRIC_COUNT);
            if ((rc = mur_parse_metric_name(c, mur_parse_node(c, *it), "metrics", &s->metrics[s->nmetrics++])))
                return rc;
        }
        return 0;
    }
    if (!strcmp(p->key, "baseline")) {
        c->baseline = p->v;
        return mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key);
    }
    if (!strcmp(p->key, "sweep")) {
        if (s->nconditions)
            return mur_parse_fail_at(c, p->k, "'sweep' makes the conditions: give 'sweep' or 'conditions', not both");
        return mur_sweep_load(s, c->doc, p->v, c->name, c->err);
    }
    /* conditions */
    if (s->nsweep)
        return mur_parse_fail_at(c, p->k, "'sweep' makes the conditions: give 'sweep' or 'conditions', not both");
    if ((rc = mur_parse_need_type(c, p->v, YAML_MAPPING_NODE, p->key)))
        return rc;
    long n = p->v->data.mapping.pairs.top - p->v->data.mapping.pairs.start;
    if (n < 1 || n > 64)
        return mur_parse_fail_at(c, p->v, "'conditions' needs 1 to 64 named conditions");
    for (int i = 0; i < s->nconditions; i++) {
        mur_free(s->conditions[i].name);
        mur_free(s->conditions[i].set);
        mur_recording_destroy(s->conditions[i].replay);
        mur_free(s->conditions[i].label);
    }
    mur_free(s->conditions);
    s->nconditions = 0;
    if (!(s->conditions = mur_calloc((size_t)n, sizeof *s->conditions)))
        return mur_parse_oom(c);
    return mur_parse_each_pair(c, p->v, "conditions", NULL, condition_pair, NULL);
}

int mur_parse_layout_pair(ctx *c, pair *p, void *arg)
{
    mur_scene *s = arg;
    static const char *const panels[] = {"none", "conditions", NULL};
    int rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key);
    if (!rc && !strcmp(p->key, "columns"))
        return mur_parse_integer(c, p->v, "columns", 1, 64, &s->columns);
    return rc ? rc : mur_parse_choice(c, p->v, "panels", panels, &s->panels);
}

/* experiment.baseline: the condition it names, among those just read;
 * `none` turns paired effects off (a condition of that name too).
 * Unnamed, the first condition is the baseline when there are two or more
 * (the experiments' issue: effects by default, against the condition
 * written first). */
int mur_parse_baseline(ctx *c)
{
    mur_scene *s = c->s;
    if (!c->baseline) {
        s->baseline = 0;
        s->effects = s->nconditions > 1;
        return 0;
    }
    const char *name = mur_parse_scalar(c->baseline);
    if (!strcmp(name, "none")) {   /* always: a condition named none is the baseline only by being first */
        s->effects = 0;
        return 0;
    }
    for (int i = 0; i < s->nconditions; i++)
        if (!strcmp(s->conditions[i].name, name)) {
            s->baseline = i;
            s->effects = 1;
            s->baseline_named = 1;
            return 0;
        }
    if (!s->nconditions)
        return mur_parse_fail_at(c, c->baseline, "'baseline' names a condition to compare with, and there are none: "
                                        "give 'conditions' or a 'sweep'");
    mur_error e;
    mur_scene_find_condition(s, name, &e);
    return mur_parse_fail_at(c, c->baseline, "baseline '%s' %s", name, strstr(e.msg, "is not a condition"));
}

int mur_scene_find_condition(const mur_scene *s, const char *name, mur_error *err)
{
    for (int c = 0; c < s->nconditions; c++)
        if (!strcmp(s->conditions[c].name, name))
            return c;
    /* The choices, up to what one line of message holds. */
    char list[600] = "";
    size_t n = 0;
    for (int c = 0; c < s->nconditions && n < sizeof list; c++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s'%s'", c ? ", " : "", s->conditions[c].name);
    mur_error_set(err, MUR_EINPUT, "--condition '%s' is not a condition of %s: %s", name, s->path, list);
    return MUR_EINPUT;
}

const char *const mur_parse_exp_keys[] = {"runs", "ticks", "conditions", "metrics", "sweep", "baseline", "twin",
                                       "measure", "until", NULL};
const char *const mur_parse_layout_keys[] = {"panels", "columns", NULL};
