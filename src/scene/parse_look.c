/* The look section (`look:`): background, the boids' shape and colour, trails
 * and overlays (readouts, plots, the one-boid view). */
#include "parse.h"
#include "../data/recording.h"
#include "murmur/metrics.h"
#include "murmur/limits.h"
#include "murmur/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int boid_pair(ctx *c, pair *p, void *arg)
{
    mur_scene *s = arg;
    int rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key), k;
    if (rc)
        return rc;
    if (!strcmp(p->key, "shape")) {
        if ((rc = mur_parse_choice(c, p->v, "shape", mur_shape_names, &k)))
            return rc;
        s->look.shape = (mur_shape)k;
        s->look.shape_auto = 0;   /* a chosen shape never switches */
        return 0;
    }
    if (!strcmp(p->key, "size"))
        return mur_parse_number(c, p->v, "size", 0.1, 1000, &s->look.boid_size);
    /* color: a fixed "#rrggbb" or a mode name */
    const char *v = mur_parse_scalar(p->v);
    if (v[0] == '#') {
        s->boid_color_given = 1;   /* else a 3D world's falcons and ink stay dark */
        s->look.color_mode = MUR_COLOR_FIXED;
        return mur_parse_colour(c, p->v, "color", &s->look.boid_color);
    }
    if ((rc = mur_parse_choice(c, p->v, "color", mur_color_mode_names + 1, &k)))   /* "fixed" is a colour: "#rrggbb" */
        return rc;
    s->look.color_mode = (mur_color_mode)(k + 1);
    return 0;
}

static int trails_pair(ctx *c, pair *p, void *arg)
{
    mur_scene *s = arg;
    int rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key);
    if (rc)
        return rc;
    if (!strcmp(p->key, "length")) {
        if ((rc = mur_parse_integer(c, p->v, "length", 0, 1000, &s->look.trail_length)))
            return rc;
        return 0;
    }
    static const char *const yesno[] = {"false", "true", NULL};
    if (!strcmp(p->key, "warm"))
        return mur_parse_choice(c, p->v, "warm", yesno, &s->look.trail_warm);
    return mur_parse_choice(c, p->v, "fade", yesno, &s->look.trail_fade);
}

static const char *const corner_names[] = {"top-left", "top-right", "bottom-left",
                                           "bottom-right", NULL};

int mur_parse_metric_name(ctx *c, yaml_node_t *n, const char *key, int *out)
{
    const char *names[MUR_METRIC_COUNT + 1];
    for (int k = 0; k < MUR_METRIC_COUNT; k++)
        names[k] = mur_metric_name(k);
    names[MUR_METRIC_COUNT] = NULL;
    int rc = mur_parse_need_type(c, n, YAML_SCALAR_NODE, key);
    if (rc)
        return rc;
    return mur_parse_choice(c, n, key, names, out);
}

static int plot_pair(ctx *c, pair *p, void *arg)
{
    mur_overlay *o = arg;
    int rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key), k;
    if (rc)
        return rc;
    if (!strcmp(p->key, "metric"))
        return mur_parse_metric_name(c, p->v, "metric", &o->metric);
    if (!strcmp(p->key, "window"))
        return mur_parse_time_value(c, p->v, "window", 0.1, 3600, &o->window);
    if ((rc = mur_parse_choice(c, p->v, "corner", corner_names, &k)))
        return rc;
    o->corner = (mur_corner)k;
    return 0;
}

/* Reads the boid a watch view or a camera names, at node v: an index below
 * the flock's count, or on a replay one of the recording's ids (they are
 * the tracker's numbers: any, in any order). world and flock are read
 * before look and camera, so both are known here. what: for messages. */
int mur_parse_boid_named(ctx *c, yaml_node_t *v, const char *what, int *out)
{
    const mur_recording *r = c->s->replay;
    if (!r) {
        int n = c->s->params.count;
        int rc = mur_parse_integer(c, v, "boid", 0, MUR_MAX_BOIDS, out);
        if (!rc && *out >= n)
            return mur_parse_fail_at(c, v, "%s boid %d, but the flock has %d (boids 0 to %d)", what, *out, n,
                           n - 1);
        return rc;
    }
    int rc = mur_parse_integer(c, v, "boid", 0, MUR_REPLAY_MAX_ID, out);
    if (rc)
        return rc;
    long rows = r->first[r->nframes];
    for (long k = 0; k < rows; k++)
        if (r->id[k] == *out)
            return 0;
    return mur_parse_fail_at(c, v, "%s boid %d, but no boid of '%s' has that id", what, *out, r->path);
}

static int watch_pair(ctx *c, pair *p, void *arg)
{
    mur_overlay *o = arg;
    int rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key);
    return rc ? rc : mur_parse_boid_named(c, p->v, "the watch view shows", &o->boid);
}

const char *const mur_parse_plot_keys[] = {"metric", "window", "corner", NULL};
const char *const mur_parse_watch_keys[] = {"boid", NULL};

static int overlay(ctx *c, yaml_node_t *n, mur_overlay *o)
{
    memset(o, 0, sizeof *o);
    o->corner = MUR_CORNER_TOP_RIGHT;
    o->window = 10;
    int k, rc;
    if (n->type == YAML_SCALAR_NODE) {
        if ((rc = mur_parse_choice(c, n, "overlay", mur_overlay_names, &k)))
            return rc;
        if (k == MUR_OVERLAY_IMAGE)
            return mur_parse_fail_at(c, n, "an image overlay needs its file: {image: {file: logo.png}}");
        if (k == MUR_OVERLAY_READOUT) {
            o->nmetrics = 3;
            o->metrics[0] = 0; o->metrics[1] = 1; o->metrics[2] = 3;
        }
        o->kind = (mur_overlay_kind)k;
        if (k == MUR_OVERLAY_FIGURE)
            return mur_parse_fail_at(c, n, "a figure names its x and y: {figure: {x: noise, y: order}}");
        return 0;
    }
    if ((rc = mur_parse_need_type(c, n, YAML_MAPPING_NODE, "overlay")))
        return rc;
    if (n->data.mapping.pairs.top - n->data.mapping.pairs.start != 1)
        return mur_parse_fail_at(c, n, "an overlay is one name, or one name with its options");
    yaml_node_t *kn = mur_parse_node(c, n->data.mapping.pairs.start[0].key);
    yaml_node_t *vn = mur_parse_node(c, n->data.mapping.pairs.start[0].value);
    if (!kn || !vn)
        return mur_parse_fail_at(c, n, "scene is too large or too deeply aliased");
    if ((rc = mur_parse_choice(c, kn, "overlay", mur_overlay_names, &k)))
        return rc;
    o->kind = (mur_overlay_kind)k;
    switch (o->kind) {
    case MUR_OVERLAY_READOUT:
        if (vn->type == YAML_SCALAR_NODE) {
            if ((rc = mur_parse_metric_name(c, vn, "readout", &o->metrics[0])))
                return rc;
            o->nmetrics = 1;
            return 0;
        }
        if ((rc = mur_parse_need_type(c, vn, YAML_SEQUENCE_NODE, "readout")))
            return rc;
        for (yaml_node_item_t *it = vn->data.sequence.items.start; it < vn->data.sequence.items.top; it++) {
            if (o->nmetrics == 8)
                return mur_parse_fail_at(c, vn, "a readout shows at most 8 numbers");
            if ((rc = mur_parse_metric_name(c, mur_parse_node(c, *it), "readout", &o->metrics[o->nmetrics++])))
                return rc;
        }
        return 0;
    case MUR_OVERLAY_PLOT:
        if (vn->type == YAML_SCALAR_NODE)
            return mur_parse_metric_name(c, vn, "plot", &o->metric);
        return mur_parse_each_pair(c, vn, "plot", mur_parse_plot_keys, plot_pair, o);
    case MUR_OVERLAY_WATCH:
        return mur_parse_each_pair(c, vn, "watch", mur_parse_watch_keys, watch_pair, o);
    case MUR_OVERLAY_IMAGE:
        return mur_parse_image(c, vn, o);
    case MUR_OVERLAY_FIGURE:
        return mur_parse_figure(c, vn, o);
    default:
        return mur_parse_fail_at(c, vn, "overlay '%s' takes no options", mur_parse_scalar(kn));
    }
}

const char *const mur_parse_boid_keys[] = {"shape", "size", "color", NULL};
const char *const mur_parse_sky_keys[] = {"zenith", "horizon", "ground", "trees", "tree_height", NULL};

static int sky_pair(ctx *c, pair *p, void *arg)
{
    mur_look *lk = arg;
    int rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key);
    if (rc)
        return rc;
    if (!strcmp(p->key, "tree_height"))
        return mur_parse_number(c, p->v, "tree_height", 0, 0.5, &lk->tree_height);
    mur_rgba *to = !strcmp(p->key, "zenith")    ? &lk->sky_zenith
                   : !strcmp(p->key, "horizon") ? &lk->sky_horizon
                   : !strcmp(p->key, "ground")  ? &lk->sky_ground
                                                : &lk->sky_trees;
    if ((rc = mur_parse_colour(c, p->v, p->key, to)))
        return rc;
    if (to->a < 1)
        return mur_parse_fail_at(c, p->v, "the sky's colours are opaque (\"#rrggbb\")");
    return 0;
}

/* look.sky, look.birds, look.wingbeat, look.visibility: a 3D world's. */
static int look3d_pair(ctx *c, pair *p, mur_scene *s)
{
    int rc = !strcmp(p->key, "sky") ? mur_parse_each_pair(c, p->v, "sky", mur_parse_sky_keys, sky_pair, &s->look) : 0;
    if (!rc && s->params.dimensions != 3)   /* after the sky's keys, so that a misspelt one is named */
        return mur_parse_fail_at(c, p->k, "'look.%s' is a 3D world's (world: {dimensions: 3}); this world is 2D",
                                 p->key);
    if (rc || !strcmp(p->key, "sky"))
        return rc;
    int k;
    rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key);
    if (rc)
        return rc;
    if (!strcmp(p->key, "birds")) {
        static const char *const kinds[] = {"silhouette", "points", NULL};
        if ((rc = mur_parse_choice(c, p->v, "birds", kinds, &k)))
            return rc;
        s->look.birds = (mur_birds)k;
        return 0;
    }
    if (!strcmp(p->key, "wingbeat"))
        return mur_parse_number(c, p->v, "wingbeat", 0, 30, &s->look.wingbeat);
    return mur_parse_number(c, p->v, "visibility", 0, 1e9, &s->look.visibility);
}
const char *const mur_parse_trail_keys[] = {"length", "fade", "warm", NULL};

int mur_parse_look_pair(ctx *c, pair *p, void *arg)
{
    mur_scene *s = arg;
    int rc;
    if (!strcmp(p->key, "background")) {
        if ((rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
            return rc;
        if ((rc = mur_parse_colour(c, p->v, "background", &s->look.background)))
            return rc;
        /* A translucent background makes translucent frames, for the
         * outputs that keep alpha (the command checks the output) */
        s->look.transparent = s->look.background.a < 1;
        s->background_line = (int)p->v->start_mark.line + 1;
        s->background_col = (int)p->v->start_mark.column + 1;
        return 0;
    }
    if (!strcmp(p->key, "boid")) {
        if ((rc = mur_parse_each_pair(c, p->v, "boid", mur_parse_boid_keys, boid_pair, s)))
            return rc;
        /* 3D birds that absorb the sky lay one ink: no colour by bird */
        if (s->params.dimensions == 3 && s->look.shape == MUR_SHAPE_DENSITY &&
            s->look.color_mode != MUR_COLOR_FIXED)
            return mur_parse_fail_at(c, mur_parse_lookup(c, p->v, "color"),
                                     "a 3D world's density birds absorb the sky in one ink, \"#rrggbb\" "
                                     "(colour modes colour silhouettes and points)");
        return 0;
    }
    if (!strcmp(p->key, "trails"))
        return mur_parse_each_pair(c, p->v, "trails", mur_parse_trail_keys, trails_pair, s);
    if (!strcmp(p->key, "sky") || !strcmp(p->key, "birds") || !strcmp(p->key, "wingbeat") ||
        !strcmp(p->key, "visibility"))
        return look3d_pair(c, p, s);
    /* overlays */
    if ((rc = mur_parse_need_type(c, p->v, YAML_SEQUENCE_NODE, p->key)))
        return rc;
    long n = p->v->data.sequence.items.top - p->v->data.sequence.items.start;
    if (n > 32)
        return mur_parse_fail_at(c, p->v, "at most 32 overlays");
    mur_parse_free_overlays(&s->look);
    mur_overlay *ov = n ? mur_calloc((size_t)n, sizeof *ov) : NULL;
    if (n && !ov)
        return mur_parse_oom(c);
    s->look.overlays = ov;
    for (long i = 0; i < n; i++) {
        yaml_node_t *item = mur_parse_node(c, p->v->data.sequence.items.start[i]);
        if (!item)
            return mur_parse_fail_at(c, p->v, "scene is too large or too deeply aliased");
        if ((rc = overlay(c, item, &ov[i])))
            return rc;
        s->look.noverlays++;
    }
    return 0;
}

const char *const mur_parse_look_keys[] = {"background", "boid", "trails", "overlays", "sky", "birds",
                                           "wingbeat", "visibility", NULL};
