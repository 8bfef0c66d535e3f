/* The figure overlay (`look.overlays: [{figure: {...}}]`, docs/scenes.md):
 * a metric against a setting the timeline changes, with a reference curve
 * from a series CSV (read here, at load, by the data room's reader; the
 * renderer gets the points in the overlay). Its x axis spans what the
 * timeline does to the setting, so that check waits for the timeline
 * (mur_parse_figure_finish, once the whole scene is read). */
#include "parse.h"
#include "../data/series_csv.h"
#include "sha256.h"
#include "murmur/alloc.h"
#include "murmur/file.h"
#include "murmur/metrics.h"
#include "murmur/presets.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The most bytes a reference series may have: an ensemble's series of a
 * long video at every tick is tens of megabytes. */
#define REFERENCE_MAX_BYTES (256LL << 20)

const char *const mur_parse_figure_keys[] = {"x", "y", "reference", "corner", "x_range", "y_range", NULL};
static const char *const corner_names[] = {"top-left", "top-right", "bottom-left", "bottom-right", NULL};

static int range(ctx *c, yaml_node_t *v, const char *key, double out[2])
{
    int rc = mur_parse_number_pair(c, v, key, "a range [low, high]", -1e12, 1e12, out);
    if (rc)
        return rc;
    if (!(out[1] > out[0]))
        return mur_parse_fail_at(c, v, "'%s' is [low, high] with low below high", key);
    return 0;
}

typedef struct {
    mur_overlay *o;
    yaml_node_t *reference, *x;
} figure_arg;

static int figure_pair(ctx *c, pair *p, void *arg)
{
    figure_arg *fa = arg;
    mur_overlay *o = fa->o;
    int rc, k;
    if (!strcmp(p->key, "x_range"))
        return range(c, p->v, "x_range", o->x_range);
    if (!strcmp(p->key, "y_range"))
        return range(c, p->v, "y_range", o->y_range);
    if ((rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
        return rc;
    if (!strcmp(p->key, "y"))
        return mur_parse_metric_name(c, p->v, "y", &o->metric);
    if (!strcmp(p->key, "reference")) {
        fa->reference = p->v;
        return 0;
    }
    if (!strcmp(p->key, "x")) {
        const char *names[128];
        const mur_setting *st = mur_setting_find(mur_parse_scalar(p->v));
        if (!st)
            return mur_parse_unknown(c, p->v, "setting", mur_parse_scalar(p->v), mur_parse_setting_names(names));
        if (st->type == MUR_SETTING_ENUM)
            return mur_parse_fail_at(c, p->v, "the figure's x is a number: '%s' is a choice", st->name);
        o->setting = st;
        fa->x = p->v;
        return 0;
    }
    if ((rc = mur_parse_choice(c, p->v, "corner", corner_names, &k)))
        return rc;
    o->corner = (mur_corner)k;
    return 0;
}

static int reference(ctx *c, yaml_node_t *n, mur_overlay *o)
{
    char *path = NULL;
    int rc = mur_parse_file_beside(c, n, "reference", &path);
    if (rc)
        return rc;
    double *x, *y;
    mur_error e;
    char why[160];
    /* a missing file, a pipe or a device: the scene's line; a bad one: the file's */
    if (mur_file_check_input(path, REFERENCE_MAX_BYTES, why, sizeof why))
        rc = mur_parse_fail_at(c, n, "cannot open the reference series '%s': it %s", path, why);
    else if ((rc = mur_series_csv_read(path, path, o->setting->name, mur_metric_name(o->metric), &x, &y,
                                       &o->nref, &e)))
        mur_error_set(c->err, rc, "%s", e.msg);
    else if (mur_sha256_file(path, o->ref_sha256)) {   /* for the provenance's inputs */
        mur_free(x);
        mur_free(y);
        o->nref = 0;
        rc = mur_parse_fail_at(c, n, "cannot read the reference series '%s' again", path);
    }
    if (rc) {
        mur_free(path);
        return rc;
    }
    o->ref_x = x;
    o->ref_y = y;
    o->ref_path = path;
    return 0;
}

int mur_parse_figure(ctx *c, yaml_node_t *v, mur_overlay *o)
{
    figure_arg fa = {o, NULL, NULL};
    int rc = mur_parse_need_type(c, v, YAML_MAPPING_NODE, "figure");
    if (rc)
        return rc;
    rc = mur_parse_each_pair(c, v, "figure", mur_parse_figure_keys, figure_pair, &fa);
    if (rc)
        return rc;
    if (!fa.x || !mur_parse_lookup(c, v, "y"))
        return mur_parse_fail_at(c, v, "a figure names its x (a setting the timeline changes) and its y "
                                       "(a metric): {figure: {x: noise, y: order}}");
    if (!(o->y_range[1] > o->y_range[0]) && mur_metric_info_at(o->metric)->unit_interval)
        o->y_range[1] = 1;   /* else 0 to a ceiling of what is drawn (render) */
    return fa.reference ? reference(c, fa.reference, o) : 0;
}

void mur_parse_figure_free(mur_overlay *o)
{
    mur_free((void *)o->ref_x);
    mur_free((void *)o->ref_y);
    mur_free((void *)o->ref_path);
    o->ref_x = o->ref_y = NULL;
    o->ref_path = NULL;
    o->nref = 0;
}

/* The values the setting takes: at the start (each panel's condition's) and
 * each set and ramp of the timeline. 0 when the timeline never changes it. */
static int setting_span(const mur_scene *s, const mur_setting *st, double *lo, double *hi)
{
    int changed = 0;
    *lo = *hi = mur_setting_get(st, &s->params);
    for (int i = 0; s->panels && i < s->nconditions; i++) {
        mur_params p = s->params;
        mur_scene_apply(s->conditions[i].set, s->conditions[i].nset, &p);
        *lo = fmin(*lo, mur_setting_get(st, &p));
        *hi = fmax(*hi, mur_setting_get(st, &p));
    }
    for (int i = 0; i < s->ncues; i++)
        for (int k = 0; k < s->cues[i].nset + s->cues[i].nramp; k++) {
            const mur_cue *q = &s->cues[i];
            const mur_change *ch = k < q->nset ? &q->set[k] : &q->ramp[k - q->nset];
            if (ch->setting != st)
                continue;
            changed = 1;
            *lo = fmin(*lo, ch->value);
            *hi = fmax(*hi, ch->value);
        }
    return changed;
}

int mur_parse_figure_finish(ctx *c)
{
    mur_scene *s = c->s;
    yaml_node_t *root = yaml_document_get_root_node(c->doc);
    yaml_node_t *look = root ? mur_parse_lookup(c, root, "look") : NULL;
    yaml_node_t *seq = look ? mur_parse_lookup(c, look, "overlays") : NULL;
    for (int k = 0; k < s->look.noverlays; k++) {
        mur_overlay *o = (mur_overlay *)&s->look.overlays[k];
        if (o->kind != MUR_OVERLAY_FIGURE)
            continue;
        yaml_node_t *item = seq && seq->type == YAML_SEQUENCE_NODE ? mur_parse_node(c, seq->data.sequence.items.start[k]) : NULL;
        yaml_node_t *fig = item && item->type == YAML_MAPPING_NODE ? mur_parse_lookup(c, item, "figure") : NULL;
        yaml_node_t *x = fig && fig->type == YAML_MAPPING_NODE ? mur_parse_lookup(c, fig, "x") : item;
        double lo, hi;
        if (!setting_span(s, o->setting, &lo, &hi))
            return mur_parse_fail_at(c, x, "the figure's x '%s' is a setting the timeline never changes: "
                                           "set or ramp it in the timeline (or show the metric over time "
                                           "with a plot)", o->setting->name);
        if (o->x_range[1] > o->x_range[0])
            continue;
        if (!(hi > lo))
            return mur_parse_fail_at(c, x, "the timeline keeps '%s' at %g: give the figure an x_range",
                                     o->setting->name, lo);
        o->x_range[0] = lo;
        o->x_range[1] = hi;
    }
    return 0;
}
