/* The camera section (`camera:`) and the camera's keys on the timeline
 * (`camera.zoom`, `camera.center`, ...), checked once predators are known. */
#include "parse.h"
#include "murmur/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mur_parse_camera_keys[] = {"center", "zoom", "follow", "smooth", "boid_size", "mode",
                                             "position", "target", "up", "fov", "height", "focus",
                                             "aperture", "wrap", "views", NULL};
const char *const mur_parse_follow_keys[] = {"boid", "predator", NULL};

/* what a timeline's set and ramp may change besides the flock's settings */
static const char *const camera_set_keys[] = {"camera.zoom", "camera.center", "camera.x", "camera.y",
                                              "camera.follow", "camera.position", "camera.target",
                                              "camera.fov", "camera.height", NULL};
/* the keys of a 2D camera and of a 3D one (docs/scenes.md `camera`) */
static const char *const keys_2d[] = {"center", "zoom", "boid_size", "camera.zoom", "camera.center",
                                      "camera.x", "camera.y", NULL};
static const char *const keys_3d[] = {"mode", "position", "target", "up", "fov", "height", "focus", "aperture",
                                      "wrap", "views", "camera.position",
                                      "camera.target", "camera.fov", "camera.height", NULL};
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

/* [x, y, z] in world units into xyz. */
static int camera_vector(ctx *c, yaml_node_t *n, const char *key, double xyz[3])
{
    int rc = mur_parse_need_type(c, n, YAML_SEQUENCE_NODE, key);
    if (rc)
        return rc;
    if (n->data.sequence.items.top - n->data.sequence.items.start != 3)
        return mur_parse_fail_at(c, n, "'%s' is a 3D point [x, y, z] in world units (z up)", key);
    for (int k = 0; k < 3; k++) {
        yaml_node_t *item = mur_parse_node(c, n->data.sequence.items.start[k]);
        if ((rc = mur_parse_need_type(c, item, YAML_SCALAR_NODE, key)) ||
            (rc = mur_parse_number(c, item, key, -CAMERA_FAR, CAMERA_FAR, &xyz[k])))
            return rc;
    }
    return 0;
}

static int listed(const char *const *names, const char *key)
{
    for (int k = 0; names[k]; k++)
        if (!strcmp(names[k], key))
            return 1;
    return 0;
}

/* A key that only one kind of world's camera has, in the other kind. */
static int wrong_world(ctx *c, pair *p)
{
    int three = c->s->params.dimensions == 3;
    if (three && listed(keys_2d, p->key))
        return mur_parse_fail_at(c, p->k, "'%s' belongs to a 2D world's camera: a 3D world's camera has "
                                 "position, target, up, fov (or mode: orthographic and height) and "
                                 "follow: flock", p->key);
    if (!three && listed(keys_3d, p->key))
        return mur_parse_fail_at(c, p->k, "'%s' belongs to a 3D world's camera, and this world is 2D "
                                 "(world: {dimensions: 3} makes it 3D)", p->key);
    return 0;
}

/* A field of view, degrees, strictly inside (0, 180). */
static int camera_fov(ctx *c, yaml_node_t *n, const char *key, double *out)
{
    int rc = mur_parse_need_type(c, n, YAML_SCALAR_NODE, key);
    /* any number, so that one out of range is told what a field of view is */
    if (rc || (rc = mur_parse_number(c, n, key, -HUGE_VAL, HUGE_VAL, out)))
        return rc;
    if (!(*out > 0 && *out < 180))
        return mur_parse_fail_at(c, n, "'%s' = %g: a field of view lies between 0 and 180 degrees (both "
                                 "excluded)",
                                 key, *out);
    return 0;
}

/* `views: [perspective, top, front, side]`: one to four views, each once. */
static int camera_views(ctx *c, yaml_node_t *n, mur_scene_camera *cam)
{
    static const char *const names[] = {"perspective", "top", "front", "side", NULL};
    int rc = mur_parse_need_type(c, n, YAML_SEQUENCE_NODE, "views");
    if (rc)
        return rc;
    long len = n->data.sequence.items.top - n->data.sequence.items.start;
    if (len < 1 || len > MUR_VIEWS_MAX)
        return mur_parse_fail_at(c, n, "'views' lists one to %d views of perspective, top, front and side "
                                 "(it has %ld)", MUR_VIEWS_MAX, len);
    cam->nviews = 0;
    for (long k = 0; k < len; k++) {
        yaml_node_t *item = mur_parse_node(c, n->data.sequence.items.start[k]);
        int v;
        if ((rc = mur_parse_need_type(c, item, YAML_SCALAR_NODE, "views")) ||
            (rc = mur_parse_choice(c, item, "views", names, &v)))
            return rc;
        for (int j = 0; j < cam->nviews; j++)
            if (cam->views[j] == v)
                return mur_parse_fail_at(c, item, "'views' lists '%s' twice", names[v]);
        cam->views[cam->nviews++] = v;
    }
    return 0;
}

/* `focus`: a depth in world units, or `flock` (its centre's). */
static int camera_focus(ctx *c, yaml_node_t *n, mur_scene_camera *cam)
{
    int rc = mur_parse_need_type(c, n, YAML_SCALAR_NODE, "focus");
    if (rc)
        return rc;
    if (!strcmp((const char *)n->data.scalar.value, "flock")) {
        cam->focus_flock = 1;
        return 0;
    }
    char *end;
    const char *v = (const char *)n->data.scalar.value;
    strtod(v, &end);
    if (end == v)
        return mur_parse_fail_at(c, n, "'focus' is a distance in world units (above 0) or 'flock', not '%s'", v);
    if ((rc = mur_parse_number(c, n, "focus", -CAMERA_FAR, CAMERA_FAR, &cam->focus)))
        return rc;
    if (!(cam->focus > 0))
        return mur_parse_fail_at(c, n, "'focus' = %g: the distance in focus lies above 0 (world units, along "
                                 "the view)", cam->focus);
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
    if ((rc = wrong_world(c, p)))
        return rc;
    if (!strcmp(p->key, "mode")) {
        static const char *const modes[] = {"perspective", "orthographic", NULL};
        return (rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)) ? rc
               : mur_parse_choice(c, p->v, "mode", modes, &cam->orthographic);
    }
    if (!strcmp(p->key, "position"))
        return camera_vector(c, p->v, "position", cam->position);
    if (!strcmp(p->key, "target"))
        return camera_vector(c, p->v, "target", cam->look_at);
    if (!strcmp(p->key, "up"))
        return camera_vector(c, p->v, "up", cam->up);
    if (!strcmp(p->key, "fov")) {
        c->fov = p->k;
        return camera_fov(c, p->v, "fov", &cam->fov);
    }
    if (!strcmp(p->key, "height")) {
        c->height = p->k;
        return (rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)) ? rc
               : mur_parse_number(c, p->v, "height", 1e-6, CAMERA_FAR, &cam->height);
    }
    if (!strcmp(p->key, "views"))
        return camera_views(c, p->v, cam);
    if (!strcmp(p->key, "focus")) {
        c->focus = p->k;
        return camera_focus(c, p->v, cam);
    }
    if (!strcmp(p->key, "aperture")) {
        c->aperture = p->k;
        return (rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)) ? rc
               : mur_parse_number(c, p->v, "aperture", 0, CAMERA_FAR, &cam->aperture);
    }
    if (!strcmp(p->key, "wrap")) {
        static const char *const wraps[] = {"none", "nearest", NULL};
        c->wrap = p->k;
        return (rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)) ? rc
               : mur_parse_choice(c, p->v, "wrap", wraps, &cam->wrap_nearest);
    }
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
    c->camera = map;
    return mur_parse_each_pair(c, map, "camera", mur_parse_camera_keys, camera_pair, &c->s->camera);
}

/* A `camera.*` key of a timeline entry's set or ramp. */
int mur_parse_camera_change(ctx *c, pair *p, changes *ch)
{
    int which = -1, rc;
    for (int k = 0; camera_set_keys[k]; k++)
        if (!strcmp(camera_set_keys[k], p->key))
            which = k;
    if (which < 0) {
        /* the keys this world's timeline may change: the table's, less the other world's */
        const char *mine[16];
        int n = 0, three = c->s->params.dimensions == 3;
        for (int k = 0; camera_set_keys[k] && n < 15; k++)
            if (!listed(three ? keys_2d : keys_3d, camera_set_keys[k]))
                mine[n++] = camera_set_keys[k];
        mine[n] = NULL;
        if (!listed(mur_parse_camera_keys, p->key + 7))
            return mur_parse_unknown(c, p->k, "camera setting", p->key, mine);
        char list[256];
        size_t len = 0;
        for (int k = 0; k < n; k++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", !k ? "" : k < n - 1 ? ", " : " and ",
                                    mine[k]);
        return mur_parse_fail_at(c, p->k, "'%s' is set once, in the scene's camera: section; the timeline may "
                                 "change %s", p->key, list);
    }
    if ((rc = wrong_world(c, p)))
        return rc;
    if (!ch->cue)
        return mur_parse_fail_at(c, p->k, "'%s' belongs in a timeline entry's set or ramp (the scene's "
                                "camera: section gives its start)", p->key);
    mur_cue *q = ch->cue;
    mur_camera_change add[3];
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
    } else if (which == 5 || which == 6) {   /* position or target: x, y and z */
        double xyz[3];
        if ((rc = camera_vector(c, p->v, p->key, xyz)))
            return rc;
        mur_camera_key k0 = which == 5 ? MUR_CAMERA_PX : MUR_CAMERA_TX;
        for (int k = 0; k < 3; k++)
            add[k] = (mur_camera_change){.key = (mur_camera_key)(k0 + k), .ramp = ch->ramp, .value = xyz[k]};
        nadd = 3;
    } else if (which == 7 || which == 8) {   /* fov, height */
        double v;
        yaml_node_t **first = which == 7 ? &c->fov : &c->height;
        if (!*first)
            *first = p->k;
        if (which == 7)
            rc = camera_fov(c, p->v, p->key, &v);
        else if (!(rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
            rc = mur_parse_number(c, p->v, p->key, 1e-6, CAMERA_FAR, &v);
        if (rc)
            return rc;
        add[0] = (mur_camera_change){.key = which == 7 ? MUR_CAMERA_FOV : MUR_CAMERA_HEIGHT, .ramp = ch->ramp,
                                     .value = v};
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

/* A target nearer the position than this share of the world's largest
 * side is the position: the view's direction is then rounding. */
#define SAME_PLACE 1e-9
/* up within this angle (radians, as its sine) of the view is parallel to it */
#define PARALLEL 1e-9

/* How far the camera is from a bad pose: |f x up| / |up|, f the view from
 * the position to the target; 0 at the target on the position or up
 * along the view. *view gets |f|. */
static double pose_margin(const mur_camera *v, double *view)
{
    double f[3], r[3];
    for (int k = 0; k < 3; k++)
        f[k] = v->target[k] - v->position[k];
    r[0] = f[1] * v->up[2] - f[2] * v->up[1];
    r[1] = f[2] * v->up[0] - f[0] * v->up[2];
    r[2] = f[0] * v->up[1] - f[1] * v->up[0];
    double lu = sqrt(v->up[0] * v->up[0] + v->up[1] * v->up[1] + v->up[2] * v->up[2]);
    *view = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    return lu > 0 ? sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]) / lu : 0;
}

/* What is wrong with a 3D camera (NULL: nothing): the checks the renderer's
 * view makes (render/view3d.c), made here so that the scene's line is named;
 * scale: the world's largest side. */
static const char *view_bad(const mur_camera *v, double scale)
{
    if (!v->orthographic && !(v->fov > 0 && v->fov < 180))
        return "the field of view must lie strictly between 0 and 180 degrees";
    if (v->orthographic && !(v->height > 0))
        return "an orthographic camera needs a height above 0";
    if (v->follows && v->follow == MUR_FOLLOW_FLOCK)
        return NULL;   /* its target is the flock's, known only as it flies */
    /* following a boid, the camera keeps its offset from its target: checked as given */
    double lf, m = pose_margin(v, &lf);
    if (!(lf > SAME_PLACE * scale) || !isfinite(lf))
        return "the camera's target equals its position";
    if (!(m > PARALLEL * lf))
        return "the camera's up is parallel to its view (the line from position to target)";
    return NULL;
}

/* The camera's distance from a bad pose at time t (pose_margin), its
 * view's length and where it looks from into *cam. */
static double margin_at(const mur_scene *s, double t, mur_camera *cam, double *view)
{
    mur_scene_camera_at(s, t, cam);
    return pose_margin(cam, view);
}

/* The time in [a, b] where the camera comes nearest a bad pose: a
 * golden-section search on pose_margin, which is the length of a vector
 * moving along a line when the ramp is linear (one minimum, the search's
 * case), down to the last bits of t. */
static double nearest_bad(const mur_scene *s, double a, double b)
{
    const double g = 0.6180339887498949;   /* 1 / the golden ratio */
    mur_camera cam;
    double view, c = b - g * (b - a), d = a + g * (b - a);
    double mc = margin_at(s, c, &cam, &view), md = margin_at(s, d, &cam, &view);
    for (int k = 0; k < 200 && c < d; k++) {
        if (mc < md) {
            b = d;
            d = c;
            md = mc;
            c = b - g * (b - a);
            mc = margin_at(s, c, &cam, &view);
        } else {
            a = c;
            c = d;
            mc = md;
            d = a + g * (b - a);
            md = margin_at(s, d, &cam, &view);
        }
    }
    return mc < md ? c : d;
}

/* Timeline entry q's camera, at its time and, when it ramps, at every
 * frame's time along the ramp and at the instant between two frames where
 * the camera comes nearest a bad pose (a ramp may pass the position
 * through the target, or the view along up, between frames: a still may
 * be asked for any time). The search is skipped where the view cannot
 * have come near one: its margin at both frames larger than twice the
 * view's move between them (a flat stretch, or the far side of a turn). */
static int camera_cue_check(ctx *c, const mur_cue *q, double scale)
{
    mur_scene *s = c->s;
    mur_camera v, w;
    double t0 = q->at, end = q->at + (q->over > 0 ? q->over : 0), view0, view1;
    double m0 = margin_at(s, t0, &v, &view0), bad_t = t0;
    const char *why = view_bad(&v, scale);
    long k = (long)floor(t0 * s->fps) + 1;
    while (!why && t0 < end) {
        double t1 = fmin((double)k / s->fps, end);
        k++;
        if (!(t1 > t0))
            continue;
        double m1 = margin_at(s, t1, &w, &view1), move = 0;
        bad_t = t1;
        if (!(why = view_bad(&w, scale))) {
            for (int j = 0; j < 3; j++) {
                double df = (w.target[j] - w.position[j]) - (v.target[j] - v.position[j]);
                move += df * df;
            }
            move = sqrt(move);
            if (move > 0 && !(fmin(m0, m1) > 2 * move && fmin(view0, view1) > 2 * move)) {
                mur_camera near;
                bad_t = nearest_bad(s, t0, t1);
                mur_scene_camera_at(s, bad_t, &near);
                why = view_bad(&near, scale);
            }
        }
        t0 = t1;
        m0 = m1;
        view0 = view1;
        v = w;
    }
    if (why)
        return mur_error_set(c->err, MUR_EINPUT, "%s:%d:%d: error: at %.9gs %s", c->name, q->line, q->col,
                             bad_t, why);
    return 0;
}

/* A 3D world's camera: the defaults (docs/scenes.md "Three dimensions":
 * from the ground before the box, looking up at its centre), then the
 * camera checked at time 0 and along every timeline entry that moves it
 * (camera_cue_check), the entry named when it goes wrong there. */
static int camera3d_finish(ctx *c)
{
    mur_scene *s = c->s;
    mur_scene_camera *cam = &s->camera;
    double W = s->params.width, H = s->params.height, D = s->params.depth;
    double scale = fmax(W, fmax(H, D));
    cam->view3d = 1;
    if (isnan(cam->position[0]))
        cam->position[0] = W / 2, cam->position[1] = -0.6 * H, cam->position[2] = 0.15 * D;
    if (isnan(cam->look_at[0]))
        cam->look_at[0] = W / 2, cam->look_at[1] = H / 2, cam->look_at[2] = D / 2;
    if (isnan(cam->up[0]))
        cam->up[0] = 0, cam->up[1] = 0, cam->up[2] = 1;
    if (isnan(cam->fov))
        cam->fov = 50;
    if (isnan(cam->height))
        cam->height = 1.2 * fmax(D, H);
    if (isnan(cam->smooth))
        cam->smooth = cam->follow == MUR_FOLLOW_FLOCK ? MUR_CAMERA_SMOOTH_FLOCK : MUR_CAMERA_SMOOTH;
    if (c->focus && !(cam->aperture > 0))
        return mur_parse_fail_at(c, c->focus, "'focus' needs 'aperture' above 0 (the lens's diameter, world "
                                 "units): without it every bird is sharp");
    /* each lens has one of the two: the other would be read and never used */
    if (cam->orthographic && c->fov)
        return mur_parse_fail_at(c, c->fov, "'%s' is a perspective camera's field of view: an orthographic "
                                 "one shows 'height' world units (camera.height)", mur_parse_scalar(c->fov));
    if (!cam->orthographic && c->height)
        return mur_parse_fail_at(c, c->height, "'%s' is an orthographic camera's (mode: orthographic): a "
                                 "perspective one's view is set by 'fov'", mur_parse_scalar(c->height));
    if (cam->aperture > 0 && cam->orthographic)
        return mur_parse_fail_at(c, c->aperture, "depth of field ('aperture') is a perspective camera's: an "
                                 "orthographic one has no distance to be out of focus from");
    static const char *const bounds[] = {"wrap", "reflect", "avoid", "open"};
    if (cam->wrap_nearest && s->params.boundary != MUR_BOUNDARY_WRAP)
        return mur_parse_fail_at(c, c->wrap, "'wrap: nearest' draws a wrapping world's birds at their image "
                                 "nearest the target, and this world's boundary is %s (world.boundary: wrap)",
                                 bounds[s->params.boundary < 4 ? s->params.boundary : 3]);
    mur_camera v;
    mur_scene_camera_at(s, 0, &v);
    const char *why = view_bad(&v, scale);
    if (why) {
        yaml_node_t *at = NULL;
        const char *keys[] = {strstr(why, "up ") ? "up" : "target", "target", "position", "fov", "height"};
        for (int k = 0; k < 5 && c->camera && !at; k++)
            at = mur_parse_lookup(c, c->camera, keys[k]);
        if (!at)
            at = c->camera;
        if (at)
            return mur_parse_fail_at(c, at, "%s", why);
        return mur_error_set(c->err, MUR_EINPUT, "%s:1:1: error: the default 3D camera: %s", c->name, why);
    }
    for (int i = 0; i < s->ncues; i++) {
        int rc = s->cues[i].ncamera ? camera_cue_check(c, &s->cues[i], scale) : 0;
        if (rc)
            return rc;
    }
    return 0;
}

/* Once every key is read: the predator followed exists (in either world),
 * then a 3D camera's own checks, or a plane's unset centre is the world's. */
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
    if (s->params.dimensions == 3)
        return camera3d_finish(c);
    if (isnan(cam->smooth))
        cam->smooth = cam->follow == MUR_FOLLOW_FLOCK ? MUR_CAMERA_SMOOTH_FLOCK : MUR_CAMERA_SMOOTH;
    if (isnan(cam->x))
        cam->x = s->params.width / 2;
    if (isnan(cam->y))
        cam->y = s->params.height / 2;
    return 0;
}
