/* The camera section (`camera:`) and the camera's keys on the timeline
 * (`camera.zoom`, `camera.center`, ...), checked once predators are known. */
#include "parse.h"
#include "murmur/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mur_parse_camera_keys[] = {"center", "zoom", "follow", "smooth", "boid_size", NULL};
const char *const mur_parse_follow_keys[] = {"boid", "predator", NULL};

/* what a timeline's set and ramp may change besides the flock's settings */
static const char *const camera_set_keys[] = {"camera.zoom", "camera.center", "camera.x", "camera.y",
                                              "camera.follow", NULL};
#define CAMERA_FAR 1e6     /* world units a camera's centre may lie from the origin */
#define ZOOM_MIN 0.1
#define ZOOM_MAX 100

/* [x, y] in world units into xy. */
static int camera_point(ctx *c, yaml_node_t *n, const char *key, double xy[2])
{
    int rc = mur_parse_need_type(c, n, YAML_SEQUENCE_NODE, key);
    if (rc)
        return rc;
    if (n->data.sequence.items.top - n->data.sequence.items.start != 2)
        return mur_parse_fail_at(c, n, "'%s' is a point [x, y] in world units", key);
    for (int k = 0; k < 2; k++) {
        yaml_node_t *item = mur_parse_node(c, n->data.sequence.items.start[k]);
        if ((rc = mur_parse_need_type(c, item, YAML_SCALAR_NODE, key)) ||
            (rc = mur_parse_number(c, item, key, -CAMERA_FAR, CAMERA_FAR, &xy[k])))
            return rc;
    }
    return 0;
}

static int follow_pair(ctx *c, pair *p, void *arg)
{
    mur_scene_camera *cam = arg;
    int rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key);
    if (rc)
        return rc;
    if (!strcmp(p->key, "boid")) {
        cam->follow = MUR_FOLLOW_BOID;
        return mur_parse_boid_named(c, p->v, "the camera follows", &cam->target);
    }
    cam->follow = MUR_FOLLOW_PREDATOR;   /* its index is checked in mur_parse_camera_finish */
    c->follow = p->v;
    return mur_parse_integer(c, p->v, "predator", 0, MUR_SCENE_MAX_ENTRIES, &cam->target);
}

static int camera_pair(ctx *c, pair *p, void *arg)
{
    mur_scene_camera *cam = arg;
    int rc;
    if (!strcmp(p->key, "center")) {
        double xy[2];
        if ((rc = camera_point(c, p->v, "center", xy)))
            return rc;
        cam->x = xy[0];
        cam->y = xy[1];
        return 0;
    }
    if (!strcmp(p->key, "zoom"))
        return mur_parse_number(c, p->v, "zoom", ZOOM_MIN, ZOOM_MAX, &cam->zoom);
    if (!strcmp(p->key, "smooth")) {
        cam->smooth_given = 1;
        return mur_parse_time_value(c, p->v, "smooth", 0, 60, &cam->smooth);
    }
    if (!strcmp(p->key, "boid_size")) {
        static const char *const sizes[] = {"zoom", "fixed", NULL};
        return mur_parse_choice(c, p->v, "boid_size", sizes, &cam->fixed_boids);
    }
    if (p->v->type == YAML_SCALAR_NODE) {
        static const char *const kinds_[] = {"flock", NULL};
        int k;
        if ((rc = mur_parse_choice(c, p->v, "follow", kinds_, &k)))
            return rc;
        cam->follow = MUR_FOLLOW_FLOCK;
        return 0;
    }
    if (p->v->type == YAML_MAPPING_NODE && p->v->data.mapping.pairs.top - p->v->data.mapping.pairs.start != 1)
        return mur_parse_fail_at(c, p->v, "'follow' is flock, {boid: N} or {predator: K}");
    return mur_parse_each_pair(c, p->v, "follow", mur_parse_follow_keys, follow_pair, cam);
}

int mur_parse_camera_section(ctx *c, yaml_node_t *map)
{
    c->s->camera.given = 1;
    return mur_parse_each_pair(c, map, "camera", mur_parse_camera_keys, camera_pair, &c->s->camera);
}

/* A `camera.*` key of a timeline entry's set or ramp. */
int mur_parse_camera_change(ctx *c, pair *p, changes *ch)
{
    int which = -1, rc;
    for (int k = 0; camera_set_keys[k]; k++)
        if (!strcmp(camera_set_keys[k], p->key))
            which = k;
    if (which < 0 && (!strcmp(p->key, "camera.smooth") || !strcmp(p->key, "camera.boid_size")))
        return mur_parse_fail_at(c, p->k, "'%s' is set once, in the scene's camera: section; the timeline may "
                                "change camera.zoom, camera.center, camera.x, camera.y and camera.follow",
                       p->key);
    if (which < 0)
        return mur_parse_unknown(c, p->k, "camera setting", p->key, camera_set_keys);
    if (!ch->cue)
        return mur_parse_fail_at(c, p->k, "'%s' belongs in a timeline entry's set or ramp (the scene's "
                                "camera: section gives its start)", p->key);
    mur_cue *q = ch->cue;
    mur_camera_change add[2];
    int nadd = 1;
    if (which == 4) {   /* follow: what the camera settles on from now */
        if (ch->ramp)
            return mur_parse_fail_at(c, p->k, "'camera.follow' is set, not ramped: the camera settles on its new "
                                    "target as on any moving one (camera.smooth)");
        mur_scene_camera to = {.follow = MUR_FOLLOW_NONE};
        yaml_node_t *section = c->follow;   /* the camera section's predator, checked later */
        pair follow = {"follow", p->k, p->v};
        rc = camera_pair(c, &follow, &to);
        c->follow = section;
        if (rc)
            return rc;
        add[0] = (mur_camera_change){MUR_CAMERA_FOLLOW, 0, to.target, to.follow};
    } else if (which == 1) {   /* center: x and y */
        double xy[2];
        if ((rc = camera_point(c, p->v, p->key, xy)))
            return rc;
        add[0] = (mur_camera_change){.key = MUR_CAMERA_X, .ramp = ch->ramp, .value = xy[0]};
        add[1] = (mur_camera_change){.key = MUR_CAMERA_Y, .ramp = ch->ramp, .value = xy[1]};
        nadd = 2;
    } else {
        double v;
        int zoom = which == 0;
        if ((rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)) ||
            (rc = mur_parse_number(c, p->v, p->key, zoom ? ZOOM_MIN : -CAMERA_FAR, zoom ? ZOOM_MAX : CAMERA_FAR, &v)))
            return rc;
        add[0] = (mur_camera_change){.key = zoom ? MUR_CAMERA_ZOOM : which == 2 ? MUR_CAMERA_X : MUR_CAMERA_Y,
                                     .ramp = ch->ramp, .value = v};
    }
    mur_camera_change *l = mur_realloc(q->camera, (size_t)(q->ncamera + nadd) * sizeof *l);
    if (!l)
        return mur_parse_oom(c);
    q->camera = l;
    for (int k = 0; k < nadd; k++)
        q->camera[q->ncamera++] = add[k];
    c->s->camera.given = 1;
    return 0;
}

/* Once every key is read: the predator followed exists, and an unset
 * centre is the world's. */
int mur_parse_camera_finish(ctx *c)
{
    mur_scene *s = c->s;
    mur_scene_camera *cam = &s->camera;
    if (cam->follow == MUR_FOLLOW_PREDATOR && cam->target >= s->npredators)
        return mur_parse_fail_at(c, c->follow, "the camera follows predator %d, but the scene has %d%s",
                       cam->target, s->npredators, s->npredators ? " (numbered from 0)" : "");
    for (int i = 0; i < s->ncues; i++)   /* the timeline's, named by their entries */
        for (int k = 0; k < s->cues[i].ncamera; k++) {
            const mur_camera_change *ch = &s->cues[i].camera[k];
            if (ch->key == MUR_CAMERA_FOLLOW && ch->follow == MUR_FOLLOW_PREDATOR && ch->value >= s->npredators)
                return mur_error_set(c->err, MUR_EINPUT,
                                     "%s:%d:%d: error: the camera follows predator %.0f from %gs, but the "
                                     "scene has %d%s",
                                     c->name, s->cues[i].line, s->cues[i].col, ch->value, s->cues[i].at,
                                     s->npredators, s->npredators ? " (numbered from 0)" : "");
        }
    if (isnan(cam->smooth))
        cam->smooth = cam->follow == MUR_FOLLOW_FLOCK ? MUR_CAMERA_SMOOTH_FLOCK : MUR_CAMERA_SMOOTH;
    if (isnan(cam->x))
        cam->x = s->params.width / 2;
    if (isnan(cam->y))
        cam->y = s->params.height / 2;
    return 0;
}
