/* Scene loading: YAML (libyaml's document API) to a validated mur_scene.
 *
 * Every key of docs/scenes.md is known here; an unknown key is an error that
 * suggests the nearest known one, and every value is type- and range-checked
 * with the file:line:col of the offending node. Limits on counts, sizes and
 * durations are checked before anything is allocated from them. Before the
 * document is built, the guard (guard.c) refuses deep nesting and bounds the
 * size the scene expands to through aliases; a walk budget then bounds the
 * visits of the walk below, and every text has a length that fits where it
 * is shown. */
#include "parse.h"
#include "murmur/limits.h"
#include "murmur/alloc.h"
#include "murmur/family.h"

#include <errno.h>
#include <libavutil/eval.h>
#include <libavutil/log.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "guard.h"
#include "look_timeline.h"
#include "sequence_file.h"
#include "yamlnode.h"
#include "../data/recording.h"
#include "sha256.h"
#include "murmur/file.h"
#include "murmur/metrics.h"
#include "sweep.h"

/* The scene as mur_scene_parse allocates it: the public struct first, so
 * a pointer to one is a pointer to the other, then what its 0.2 layout has
 * no room for. */
typedef struct scene_box {
    mur_scene s;
    mur_scene_more more;
} scene_box;

mur_scene_more *mur_scene_more_of(mur_scene *s) { return &((scene_box *)s)->more; }
const mur_scene_more *mur_scene_more_of_const(const mur_scene *s) { return &((const scene_box *)s)->more; }

void mur_scene_twin_shift(const mur_scene *s, double out[3])
{
    int written = s->twin.kind == MUR_TWIN_SHIFT && !s->twin.half_box;
    out[0] = written ? s->twin.shift[0] : 0;
    out[1] = written ? s->twin.shift[1] : 0;
    out[2] = written ? mur_scene_more_of_const(s)->twin_shift_z : 0;
}

/* ---- the document ------------------------------------------------------- */

static int top_pair(ctx *c, pair *p, void *arg)
{
    (void)arg;
    mur_scene *s = c->s;
    const char *k = p->key;
    int rc;
    if (!strcmp(k, "title"))
        return mur_parse_text(c, p->v, k, MUR_SCENE_MAX_TITLE, &s->title);
    if (!strcmp(k, "theme")) {
        static const char *const themes[] = {"light", "dark", NULL};
        return (rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, k)) ? rc : mur_parse_choice(c, p->v, k, themes, &s->theme);
    }
    if (!strcmp(k, "seed")) {
        double v;
        if ((rc = mur_parse_number(c, p->v, k, 0, 9007199254740992.0, &v)))
            return rc;
        if (v != floor(v))
            return mur_parse_fail_at(c, p->v, "'seed' must be a whole number");
        s->seed = (uint64_t)v;
        return 0;
    }
    if (!strcmp(k, "model"))
        return 0;  /* read first, in load() */
    if (!strcmp(k, "world")) {
        changes ch = {NULL, 0, -1, &s->params, 0, NULL};
        if ((rc = mur_parse_each_pair(c, p->v, "world", mur_parse_world_keys, mur_parse_world_pair, &ch)) ||
            (rc = mur_parse_world_finish(c, p->v)))
            return rc;
        return mur_parse_params_ok(c, &s->params, p->v);
    }
    if (!strcmp(k, "flock")) {
        changes ch = {NULL, 0, -1, &s->params, 0, NULL};
        c->flock_node = p->v;
        if ((rc = mur_parse_each_pair(c, p->v, "flock", NULL, mur_parse_flock_pair, &ch)) || (rc = mur_parse_flock_source(c, p->v)) ||
            (rc = mur_parse_kinds_keys(c, p->v)))
            return rc;
        return mur_parse_params_ok(c, &s->params, p->v);
    }
    if (!strcmp(k, "video"))
        return mur_parse_each_pair(c, p->v, "video", mur_parse_video_keys, mur_parse_video_pair, s);
    if (!strcmp(k, "look"))
        return mur_parse_each_pair(c, p->v, "look", mur_parse_look_keys, mur_parse_look_pair, s);
    if (!strcmp(k, "timeline"))
        return mur_parse_timeline(c, p->v);
    if (!strcmp(k, "predators"))
        return mur_parse_predators(c, p->v);
    if (!strcmp(k, "experiment")) {
        if ((rc = mur_parse_each_pair(c, p->v, "experiment", mur_parse_exp_keys, mur_parse_experiment_pair, s)))
            return rc;
        return mur_parse_baseline(c);
    }
    if (!strcmp(k, "camera"))
        return mur_parse_camera_section(c, p->v);
    return mur_parse_each_pair(c, p->v, "layout", mur_parse_layout_keys, mur_parse_layout_pair, s);
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

static int defaults(ctx *c, const char *name)
{
    mur_scene *s = c->s;
    s->seed = 1;
    s->preset = mur_preset_find(MUR_PRESET_DEFAULT);
    s->params = s->preset->params;
    s->width = 1280;
    s->height = 720;
    s->fps = 30;
    s->tps = 60;
    s->duration = 10;
    s->quality = 20;
    s->look.background = (mur_rgba){0x0b / 255.0, 0x0d / 255.0, 0x0f / 255.0, 1};
    s->look.shape = MUR_SHAPE_ARROW;
    s->look.shape_auto = 1;   /* arrows, or density when they are specks */
    s->look.boid_size = 6;
    s->look.color_mode = MUR_COLOR_FIXED;
    s->look.boid_color = (mur_rgba){0x7c / 255.0, 0xf2 / 255.0, 0x9c / 255.0, 1};
    s->look.trail_fade = 1;
    /* a 3D world's evening sky (docs/scenes.md "Three dimensions"); unused in 2D */
    s->look.sky_zenith = (mur_rgba){0x1d / 255.0, 0x2b / 255.0, 0x53 / 255.0, 1};
    s->look.sky_horizon = (mur_rgba){0xf0 / 255.0, 0xa8 / 255.0, 0x6a / 255.0, 1};
    s->look.sky_ground = (mur_rgba){0x1a / 255.0, 0x17 / 255.0, 0x1c / 255.0, 1};
    s->look.sky_trees = (mur_rgba){0x0c / 255.0, 0x0c / 255.0, 0x10 / 255.0, 1};
    s->look.tree_height = 0.05;
    s->look.birds = MUR_BIRDS_SILHOUETTE;
    s->look.wingbeat = 4;
    s->camera = (mur_scene_camera){.x = NAN, .y = NAN, .zoom = 1, .smooth = NAN, .position = {NAN, NAN, NAN},
                                   .look_at = {NAN, NAN, NAN}, .up = {NAN, NAN, NAN}, .fov = NAN,
                                   .height = NAN, .focus = NAN};
    s->runs = 25;
    s->ticks = 900;
    s->measure.every = 1;
    s->nmetrics = 0;   /* the default set: the field's measures only when named */
    for (int k = 0; k < MUR_METRIC_COUNT; k++)
        if (mur_metrics_default_mask() >> k & 1)
            s->metrics[s->nmetrics++] = k;
    /* out/<scene name>.mp4 */
    const char *b = base_name(name);
    size_t len = strlen(b);
    const char *dot = strrchr(b, '.');
    if (dot && dot != b)
        len = (size_t)(dot - b);
    if (!(s->output = mur_malloc(len + 9)))
        return mur_parse_oom(c);
    snprintf(s->output, len + 9, "out/%.*s.mp4", (int)len, b);
    return 0;
}

static const char *const top_keys[] = {"title", "seed", "model", "world", "flock", "video",
                                       "look", "timeline", "predators", "experiment", "layout",
                                       "camera", "theme", NULL};

/* Unknown and repeated top-level keys, in one linear pass before anything
 * is read (a file of 100000 repeated keys must not cost n^2). */
static int top_keys_ok(ctx *c, yaml_node_t *root)
{
    unsigned seen = 0;
    for (yaml_node_pair_t *it = root->data.mapping.pairs.start; it < root->data.mapping.pairs.top;
         it++) {
        yaml_node_t *kn = mur_parse_node(c, it->key);
        const char *k = mur_parse_scalar(kn);
        if (!kn)
            return mur_parse_fail_at(c, root, "scene is too large or too deeply aliased");
        if (!k)
            return mur_parse_fail_at(c, kn, "keys of the scene must be plain names");
        int i = 0;
        while (top_keys[i] && strcmp(top_keys[i], k))
            i++;
        if (!top_keys[i])
            return mur_parse_unknown(c, kn, "key", k, top_keys);
        if (seen & (1u << i))
            return mur_parse_fail_at(c, kn, "'%s' is given twice", k);
        seen |= 1u << i;
    }
    return 0;
}

/* A scene is one YAML document; a second one ("---" and more) would be
 * silently ignored, so it is an error. */
static int single_document(ctx *c, yaml_parser_t *parser)
{
    yaml_document_t more;
    if (!yaml_parser_load(parser, &more))
        return mur_error_set(c->err, MUR_EINPUT, "%s:%lu:%lu: error: %s%s%s", c->name,
                             (unsigned long)parser->problem_mark.line + 1,
                             (unsigned long)parser->problem_mark.column + 1,
                             parser->problem ? parser->problem : "invalid YAML",
                             parser->context ? " " : "", parser->context ? parser->context : "");
    yaml_node_t *root = yaml_document_get_root_node(&more);
    int rc = 0;
    if (root)
        rc = mur_error_set(c->err, MUR_EINPUT, "%s:%lu:%lu: error: a scene is one YAML document; "
                           "this is a second one", c->name,
                           (unsigned long)more.start_mark.line + 1,
                           (unsigned long)more.start_mark.column + 1);
    yaml_document_delete(&more);
    return rc;
}

double mur_scene_max_count(const mur_scene *s, const mur_params *base)
{
    double n = base->count;
    for (int i = 0; i < s->ncues; i++) {
        const mur_cue *q = &s->cues[i];
        for (int k = 0; k < q->nset + q->nramp; k++) {
            const mur_change *ch = k < q->nset ? &q->set[k] : &q->ramp[k - q->nset];
            if (!strcmp(ch->setting->name, "count") && ch->value > n)
                n = ch->value;
        }
    }
    return n;
}

/* A preset whose variant comes with a scripted predator (engine-predator)
 * brings it along unless the scene says `predators:` itself. */
static int preset_predator(ctx *c)
{
    mur_scene *s = c->s;
    const mur_preset *pre = s->preset;
    if (!pre->predator_x || !pre->predator_y)
        return 0;
    mur_script_predator *pr = mur_calloc(1, sizeof *pr);
    if (!pr)
        return mur_parse_oom(c);
    s->predators = pr;
    s->npredators = 1;
    *pr = (mur_script_predator){.attract = pre->predator.attract, .radius = pre->predator.radius,
                                .strength = pre->predator.strength, .from = -INFINITY,
                                .until = INFINITY, .smooth = 1};
    if (!(pr->x_expr = mur_strdup(pre->predator_x)) || !(pr->y_expr = mur_strdup(pre->predator_y)))
        return mur_parse_oom(c);
    AVExpr *x = NULL, *y = NULL;
    int ex = av_expr_parse(&x, pr->x_expr, mur_parse_expr_names, NULL, NULL, NULL, NULL, AV_LOG_TRACE + 64, NULL);
    pr->x_eval = x;
    int ey = av_expr_parse(&y, pr->y_expr, mur_parse_expr_names, NULL, NULL, NULL, NULL, AV_LOG_TRACE + 64, NULL);
    pr->y_eval = y;
    if (ex < 0 || ey < 0)
        return mur_error_set(c->err, MUR_ERUN, "preset %s: its predator expressions do not parse", pre->name);
    return 0;
}

/* A twin is the same boids moved: a timeline that resets the flock or
 * changes its count would give the twin boids that are not the first
 * flock's moved (a reset draws the unmoved start again), and a shift only
 * leaves the dynamics unchanged on a torus. */
static int twin_ok(ctx *c, yaml_node_t *root)
{
    mur_scene *s = c->s;
    if (s->twin.kind == MUR_TWIN_NONE)
        return 0;
    yaml_node_t *where = mur_parse_lookup(c, mur_parse_lookup(c, root, "experiment"), "twin");
    int replayed = s->replay != NULL;
    for (int i = 0; i < s->nconditions; i++)
        replayed |= s->conditions[i].replay != NULL;
    if (replayed)
        return mur_parse_fail_at(c, where, "a replayed flock is shown, not stepped: it has no twin");
    for (int i = 0; i < s->ncues; i++) {
        const mur_cue *q = &s->cues[i];
        if (q->event == MUR_EVENT_RESET)
            return mur_parse_fail_at(c, where, "a twin cannot follow a timeline with a reset (line %d): the twin "
                                     "would restart unmoved", q->line);
        for (int k = 0; k < q->nset + q->nramp; k++) {
            const mur_change *ch = k < q->nset ? &q->set[k] : &q->ramp[k - q->nset];
            if (!strcmp(ch->setting->name, "count"))
                return mur_parse_fail_at(c, where, "a twin needs a fixed boid count; the timeline changes it (line %d)",
                               q->line);
            if (s->twin.kind == MUR_TWIN_SHIFT && !strcmp(ch->setting->name, "boundary") &&
                ch->value != MUR_BOUNDARY_WRAP)
                return mur_parse_fail_at(c, where, "a shifted twin needs a wrapping world; the timeline sets "
                                         "another boundary (line %d): use perturb", q->line);
        }
    }
    for (int i = -1; i < s->nconditions && s->twin.kind == MUR_TWIN_SHIFT; i++) {
        mur_params p = s->params;
        if (i >= 0)
            mur_scene_apply(s->conditions[i].set, s->conditions[i].nset, &p);
        if (p.boundary != MUR_BOUNDARY_WRAP)
            return mur_parse_fail_at(c, where, "a shifted twin needs a wrapping world (boundary: wrap)%s%s: "
                                     "on walls a shift changes the flock; use perturb",
                           i >= 0 ? "; condition " : "", i >= 0 ? s->conditions[i].name : "");
    }
    return 0;
}

/* Checks on the scene as a whole, after every key is read: limits on the
 * total work it asks for (each value may be in range while their product
 * would keep a machine busy for weeks), checked before anything is
 * allocated or run; the preset's predator; the timeline against the flock
 * and every condition. */
/* experiment.measure against the rest of the scene: a window the runs
 * hold, a radius the world holds (then the render's readouts measure with
 * it too). */
static int measure_ok(ctx *c, yaml_node_t *root)
{
    mur_scene *s = c->s;
    yaml_node_t *m = mur_parse_lookup(c, mur_parse_lookup(c, root, "experiment"), "measure");
    if (s->measure.window > (long)s->ticks + 1)
        return mur_parse_fail_at(c, mur_parse_lookup(c, m, "window"), "the window (%ld ticks) is longer than the experiment's %d ticks",
                       s->measure.window, s->ticks);
    double world = s->params.width > s->params.height ? s->params.width : s->params.height;
    if (s->measure.radius > world)
        return mur_parse_fail_at(c, mur_parse_lookup(c, m, "radius"), "'radius' = %g is larger than the world (%g x %g)",
                       s->measure.radius, s->params.width, s->params.height);
    s->look.metric_radius = s->measure.radius;   /* a render's readouts measure as the experiment does */
    s->look.correlation_bin = s->measure.correlation_bin;
    s->look.correlation_range = s->measure.correlation_range;
    return 0;
}

static int finish(ctx *c, yaml_node_t *root, yaml_node_t *video)
{
    mur_scene *s = c->s;
    yaml_node_t *where = video ? video : root;
    double ticks = s->duration * s->tps + s->warmup;
    if (ticks > MUR_SCENE_MAX_TICKS)
        return mur_parse_fail_at(c, where, "the video needs %.0f ticks (at most %.0f): shorten duration, "
                                 "warmup or ticks_per_second", ticks, MUR_SCENE_MAX_TICKS);
    double frames = floor(s->duration * s->fps + 1e-9);
    if (frames < 1) {
        yaml_node_t *d = video ? mur_parse_lookup(c, video, "duration") : NULL;
        return mur_parse_fail_at(c, d ? d : where, "the video is %gs at %g fps: less than one frame "
                                         "(duration must be at least %gs)",
                       s->duration, s->fps, 1 / s->fps);
    }
    double pixel_frames = (double)s->width * s->height * frames;
    if (pixel_frames > MUR_SCENE_MAX_PIXEL_FRAMES)
        return mur_parse_fail_at(c, where, "the video is %dx%d pixels x %.0f frames = %.3g pixel-frames "
                                 "(at most %.3g): make it smaller, shorter or fewer fps",
                       s->width, s->height, frames, pixel_frames, MUR_SCENE_MAX_PIXEL_FRAMES);
    /* Panels run one flock per condition; otherwise one flock. */
    double boids = 0, all_conditions = 0;
    for (int i = 0; i < s->nconditions; i++) {
        mur_params p = s->params;
        mur_scene_apply(s->conditions[i].set, s->conditions[i].nset, &p);
        all_conditions += mur_scene_max_count(s, &p);
    }
    boids = s->panels && s->nconditions ? all_conditions : mur_scene_max_count(s, &s->params);
    double flocks = s->twin.kind != MUR_TWIN_NONE ? 2 : 1;   /* every flock has its twin */
    if (flocks * boids * ticks > MUR_SCENE_MAX_BOID_TICKS)
        return mur_parse_fail_at(c, where, "the render needs %.0f boids x %.0f ticks = %.3g boid-ticks "
                                 "(at most %.3g): fewer boids, a shorter video or fewer ticks_per_second",
                       flocks * boids, ticks, flocks * boids * ticks, MUR_SCENE_MAX_BOID_TICKS);
    if (boids * s->look.trail_length > MUR_SCENE_MAX_TRAIL_POINTS)
        return mur_parse_fail_at(c, mur_parse_lookup(c, root, "look"), "trails of %d ticks for %.0f boids are %.3g points "
                                                   "(at most %.3g): shorter trails or fewer boids",
                       s->look.trail_length, boids, boids * s->look.trail_length, MUR_SCENE_MAX_TRAIL_POINTS);
    if (!all_conditions)
        all_conditions = mur_scene_max_count(s, &s->params);
    all_conditions *= flocks;
    double work = (double)s->runs * (s->ticks + s->warmup) * all_conditions;
    if (work > MUR_SCENE_MAX_BOID_TICKS)
        return mur_parse_fail_at(c, mur_parse_lookup(c, root, "experiment"), "the experiment needs %d runs x %.0f ticks "
                                                         "(warm-up included) x %.0f boids (all conditions) "
                                                         "= %.3g boid-ticks (at most %.3g): fewer runs, ticks or boids",
                       s->runs, s->ticks + s->warmup, all_conditions, work, MUR_SCENE_MAX_BOID_TICKS);
    /* The driver recomputes the settings from the timeline every tick (that
     * is what makes them a pure function of time), at a cost that grows
     * with the entries and their changes. */
    double changes = s->ncues;
    for (int i = 0; i < s->ncues; i++)
        changes += s->cues[i].nset + s->cues[i].nramp + s->cues[i].ncamera;
    if (changes * ticks > MUR_SCENE_MAX_TIMELINE_WORK)
        return mur_parse_fail_at(c, mur_parse_lookup(c, root, "timeline"), "the timeline's %.0f entries and changes, evaluated "
                       "for each of %.0f ticks, are %.3g steps (at most %.3g): fewer entries or a shorter video",
                       changes, ticks, changes * ticks, MUR_SCENE_MAX_TIMELINE_WORK);
    int rc;
    if ((rc = mur_parse_replay_ok(c, root, video)) || (rc = mur_parse_kinds_elsewhere(c, root)))
        return rc;
    for (int i = 0; (s->ngroups > 1 || s->start) && i < s->nconditions; i++)
        for (int k = 0; k < s->conditions[i].nset && !s->conditions[i].replay; k++)
            if (!strcmp(s->conditions[i].set[k].setting->name, "count"))
                return mur_parse_fail_at(c, mur_parse_lookup(c, root, "experiment"), "condition '%s' sets count, which "
                               "the start decides (%s)", s->conditions[i].name,
                               s->start ? "the saved state's boids" : "the sum of its groups");
    if (!mur_parse_lookup(c, root, "predators") && (rc = preset_predator(c)))
        return rc;
    if ((rc = mur_parse_camera_finish(c)))
        return rc;
    /* Each check walks the timeline once per entry (and twice more per
     * ramp): bounded so a hostile file cannot make loading itself slow;
     * past the bound the driver still stops at the first bad time. */
    double check_work = 3.0 * s->ncues * changes;
    if (check_work <= 5e7 && (rc = mur_parse_timeline_valid(c, &s->params, NULL)))
        return rc;
    if (check_work * s->nconditions <= 5e7)
        for (int i = 0; i < s->nconditions; i++) {
            if (!s->conditions[i].nset)
                continue;
            mur_params p = s->params;
            mur_scene_apply(s->conditions[i].set, s->conditions[i].nset, &p);
            if ((rc = mur_parse_timeline_valid(c, &p, s->conditions[i].name)))
                return rc;
        }
    if ((rc = twin_ok(c, root)))
        return rc;
    return measure_ok(c, root);
}

/* Enters with the parser set on the source; leaves the one document of the
 * source in c->doc (*have_doc set, for the caller to delete) or an error
 * at the parser's position. */
static int load_document(ctx *c, yaml_parser_t *parser, int *have_doc)
{
    if (!yaml_parser_load(parser, c->doc))
        return mur_error_set(c->err, MUR_EINPUT, "%s:%lu:%lu: error: %s%s%s", c->name,
                             (unsigned long)parser->problem_mark.line + 1,
                             (unsigned long)parser->problem_mark.column + 1,
                             parser->problem ? parser->problem : "invalid YAML",
                             parser->context ? " " : "", parser->context ? parser->context : "");
    *have_doc = 1;
    return single_document(c, parser);
}

/* Enters with the scene's defaults; leaves s->params from the preset that
 * 'model' names, if the file has one. */
static int read_model(ctx *c, yaml_node_t *root)
{
    mur_scene *s = c->s;
    yaml_node_t *model = mur_parse_lookup(c, root, "model");
    if (!model)
        return 0;
    const char *m = mur_parse_scalar(model);
    const char *names[32];
    int np = mur_preset_count() < 31 ? mur_preset_count() : 31;
    for (int i = 0; i < np; i++)
        names[i] = mur_preset_at(i)->name;
    names[np] = NULL;
    if (!m)
        return mur_parse_fail_at(c, model, "'model' must be a preset name");
    if (!(s->preset = mur_preset_find(m)))
        return mur_parse_unknown(c, model, "model", m, names);
    s->params = s->preset->params;
    return 0;
}

/* Leaves s->tps and c->tps from video.ticks_per_second, if the file gives
 * it (video may be NULL). */
static int read_tps(ctx *c, yaml_node_t *video)
{
    mur_scene *s = c->s;
    yaml_node_t *tps = video ? mur_parse_lookup(c, video, "ticks_per_second") : NULL;
    if (!tps)
        return 0;
    int rc;
    if ((rc = mur_parse_need_type(c, tps, YAML_SCALAR_NODE, "ticks_per_second")) ||
        (rc = mur_parse_number(c, tps, "ticks_per_second", 0.01, 10000, &s->tps)))
        return rc;
    c->tps = s->tps;
    return 0;
}

/* Enters with the model and ticks_per_second read; leaves every top-level
 * key read. The timeline and conditions are checked against the final
 * flock, so world and flock are read before them. */
static int read_top_keys(ctx *c, yaml_node_t *root)
{
    /* pass 0: world; 1: flock (its shapes and recordings are checked
     * against the world); 2: the rest */
    static const char *const first[] = {"world", "flock", NULL};
    int rc = 0;
    for (int pass = 0; pass < 3 && !rc; pass++) {
        for (yaml_node_pair_t *it = root->data.mapping.pairs.start;
             !rc && it < root->data.mapping.pairs.top; it++) {
            const char *k = mur_parse_scalar(yaml_document_get_node(c->doc, it->key));
            int when = !k ? 2 : !strcmp(k, first[0]) ? 0 : !strcmp(k, first[1]) ? 1 : 2;
            if (when != pass)
                continue;
            yaml_node_t one = *root;
            one.data.mapping.pairs.start = it;
            one.data.mapping.pairs.top = it + 1;
            rc = mur_parse_each_pair(c, &one, "the scene", top_keys, top_pair, NULL);
        }
    }
    return rc;
}

/* Leaves the scene with at least one condition: "all", when the file
 * names none. */
static int default_condition(ctx *c)
{
    mur_scene *s = c->s;
    if (s->nconditions)
        return 0;
    if (!(s->conditions = mur_calloc(1, sizeof *s->conditions)) ||
        !(s->conditions[0].name = mur_strdup("all")))
        return mur_parse_oom(c);
    s->nconditions = 1;
    return 0;
}

/* The look's two functions of time: the timeline's, through the types
 * the renderer calls (a scene function called through a pointer of
 * another type would be undefined). */
static const char *look_caption(const void *ctx, double t, double *alpha)
{
    return mur_scene_caption_at(ctx, t, alpha);
}

static int look_predators(const void *ctx, double t, mur_predator *out, int max)
{
    return mur_scene_predators_at(ctx, t, out, max);
}

static void look_moment(const void *ctx, double t, mur_moment *out)
{
    mur_scene_moment_at(ctx, t, out);
}

static void look_camera(const void *ctx, double t, mur_camera *out)
{
    mur_scene_camera_at(ctx, t, out);
}

/* The settings the timeline's sets and ramps change, in order of first
 * use, for the `params` readout (which always shows the count and the
 * interaction's own values, its kind's readout): a ramp of noise is shown
 * as it runs. */
static int shown_settings(ctx *c)
{
    mur_scene *s = c->s;
    const mur_setting *found[8];
    const mur_kind *kind = mur_kind_of("interaction", (int)s->params.interaction);
    int n = 0;
    for (int i = 0; i < s->ncues; i++)
        for (int k = 0; k < s->cues[i].nset + s->cues[i].nramp; k++) {
            const mur_cue *q = &s->cues[i];
            const mur_setting *st = k < q->nset ? q->set[k].setting : q->ramp[k - q->nset].setting;
            int seen = !strcmp(st->name, "count");
            for (int j = 0; kind && j < MUR_KIND_READOUT && kind->readout[j].label; j++)
                seen |= !strcmp(st->name, kind->readout[j].setting);
            for (int j = 0; j < n; j++)
                seen |= found[j] == st;
            if (!seen && n < 8)
                found[n++] = st;
        }
    if (!n)
        return 0;
    const mur_setting **list = mur_malloc((size_t)n * sizeof *list);
    if (!list)
        return -1;
    memcpy(list, found, (size_t)n * sizeof *list);
    s->look.shown = list;
    s->look.nshown = n;
    return 0;
}

/* The predators' own looks (size, color, trail) as the look's list by
 * tag (an all-zero look, a predator that gives none, draws as before).
 * 0, or -1 without memory. */
static int predator_looks(ctx *c)
{
    mur_scene *s = c->s;
    if (!s->npredators)
        return 0;
    mur_predator_look *looks = mur_calloc((size_t)s->npredators, sizeof *looks);
    if (!looks)
        return -1;
    for (int i = 0; i < s->npredators; i++)
        looks[i] = s->predators[i].look;
    s->look.predator_looks = looks;
    s->look.npredator_looks = s->npredators;
    return 0;
}

/* What the look borrows from the rest of the scene, once it is all read:
 * the title, ticks per second, a panel per condition (the layout's) and
 * their names, captions and predators when the timeline has any (none:
 * the renderer loads no fonts for captions and asks nothing). */
static int fill_look(ctx *c)
{
    mur_scene *s = c->s;
    mur_look *lk = &s->look;
    lk->version = MUR_LOOK_VERSION;
    lk->name = s->path;
    if (s->params.dimensions == 3 && !s->boid_color_given)   /* dark birds against the sky */
        lk->boid_color = (mur_rgba){0x14 / 255.0, 0x13 / 255.0, 0x18 / 255.0, 1};
    lk->title = s->title;
    lk->tps = s->tps;
    lk->panels = s->panels ? s->nconditions : 1;
    if (lk->panels > 1) {
        const char **labels = mur_malloc((size_t)lk->panels * sizeof *labels);
        if (!labels)
            return mur_parse_oom(c);
        for (int i = 0; i < lk->panels; i++)
            labels[i] = s->conditions[i].label ? s->conditions[i].label : s->conditions[i].name;
        lk->labels = labels;
    }
    lk->columns = s->columns;
    lk->ctx = s;
    for (int i = 0; i < s->ncues && !lk->caption_at; i++)
        if (s->cues[i].caption)
            lk->caption_at = look_caption;
    lk->predators_at = s->npredators ? look_predators : NULL;
    if (predator_looks(c))
        return mur_parse_oom(c);
    lk->group_colors = s->group_colors;
    lk->ngroups = s->ngroups;
    if (s->camera.given || s->camera.view3d) {   /* a 3D world always has its camera */
        lk->follow = s->camera.follow;
        lk->follow_index = s->camera.target;
        lk->follow_smooth = s->camera.smooth;
        lk->camera_fixed_boids = s->camera.fixed_boids;
        lk->camera_at = look_camera;
    }
    lk->moment_at = mur_look_timeline_used(s) ? look_moment : NULL;
    if (shown_settings(c))
        return mur_parse_oom(c);
    int rc = mur_parse_figure_finish(c);
    if (rc)
        return rc;
    lk->trail_warm = lk->trail_warm && lk->trail_length > 0 ? (int)fmin(s->warmup, 1e9) : 0;
    return mur_look_timeline_check(s, c->err);
}

const mur_look *mur_scene_look(const mur_scene *s) { return &s->look; }

int mur_scene_parse(mur_scene **out, const char *name, const char *src, size_t len,
                    mur_error *err)
{
    *out = NULL;
    if (len > MUR_SCENE_MAX_BYTES)
        return mur_error_set(err, MUR_EINPUT, "%s:1:1: error: scene file is larger than %d bytes",
                             name, MUR_SCENE_MAX_BYTES);
    int rc = mur_scene_guard(name, src, len, err);
    if (rc)
        return rc;
    if (mur_sequence_sniff(src, len))   /* many scenes as one video (sequence_file.c) */
        return mur_sequence_parse(out, name, src, len, err);
    yaml_parser_t parser;
    yaml_document_t doc;
    int have_doc = 0;
    scene_box *box = mur_calloc(1, sizeof *box);
    mur_scene *s = box ? &box->s : NULL;
    if (!s || !yaml_parser_initialize(&parser)) {
        mur_free(s);
        return mur_error_set(err, MUR_ERUN, "%s: out of memory", name);
    }
    ctx c = {name, &doc, err, WALK_BUDGET, 60, s, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    yaml_parser_set_input_string(&parser, (const unsigned char *)src, len);
    if ((rc = load_document(&c, &parser, &have_doc)))
        goto done;
    if (mur_sha256_hex(src, len, s->sha256) || !(s->path = mur_strdup(name)) || (rc = defaults(&c, name))) {
        rc = rc ? rc : mur_parse_oom(&c);
        goto done;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) {
        rc = mur_parse_fail_at(&c, NULL, "the scene is empty");
        goto done;
    }
    if ((rc = mur_parse_need_type(&c, root, YAML_MAPPING_NODE, "the scene")) || (rc = top_keys_ok(&c, root)))
        goto done;
    /* The model first (settings override it) and ticks_per_second (times in
     * ticks need it), whatever order the file gives them in. */
    if ((rc = read_model(&c, root)))
        goto done;
    yaml_node_t *video = mur_parse_lookup(&c, root, "video");
    if ((rc = read_tps(&c, video)) || (rc = read_top_keys(&c, root)) ||
        (rc = finish(&c, root, video)) || (rc = default_condition(&c)) ||
        (rc = fill_look(&c)))
        goto done;
done:
    if (have_doc)
        yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    if (rc) {
        mur_scene_destroy(s);
        return rc;
    }
    *out = s;
    return MUR_OK;
}

int mur_scene_load(mur_scene **out, const char *path, mur_error *err)
{
    *out = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return mur_error_set(err, MUR_EINPUT, "%s: error: cannot open scene: %s", path,
                             strerror(errno));
    char *buf = mur_malloc(MUR_SCENE_MAX_BYTES + 1);
    if (!buf) {
        fclose(fp);
        return mur_error_set(err, MUR_ERUN, "out of memory");
    }
    size_t len = fread(buf, 1, MUR_SCENE_MAX_BYTES + 1, fp);
    int bad = ferror(fp);
    fclose(fp);
    int rc;
    if (bad)
        rc = mur_error_set(err, MUR_EINPUT, "%s: error: cannot read scene", path);
    else
        rc = mur_scene_parse(out, path, buf, len, err);
    mur_free(buf);
    return rc;
}

void mur_scene_destroy(mur_scene *s)
{
    if (!s)
        return;
    mur_free(s->path);
    mur_free(s->title);
    mur_free(s->output);
    mur_parse_free_overlays(&s->look);
    mur_free((void *)s->look.labels);
    mur_free((void *)s->look.shown);
    mur_free((void *)s->look.predator_looks);
    for (int i = 0; i < s->ncues; i++)
        mur_parse_free_cue(&s->cues[i]);
    mur_free(s->cues);
    for (int i = 0; i < s->npredators; i++)
        mur_parse_free_predator(&s->predators[i]);
    mur_free(s->predators);
    for (int i = 0; i < s->nconditions; i++) {
        mur_free(s->conditions[i].name);
        mur_free(s->conditions[i].set);
        mur_recording_destroy(s->conditions[i].replay);
        mur_free(s->conditions[i].label);
    }
    mur_free(s->conditions);
    mur_recording_destroy(s->replay);
    mur_recording_destroy(s->start);
    mur_free(s->groups);
    mur_free(s->group_colors);
    mur_sequence_free(s->sequence);
    mur_free(s);
}

const char *mur_event_name(mur_event e) { return e <= MUR_EVENT_TITLE ? mur_parse_event_names[e] : "?"; }
const char *mur_ease_name(mur_ease e) { return e <= MUR_EASE_SMOOTH ? mur_parse_ease_names[e] : "?"; }

/* ---- the keys a scene may use ------------------------------------------- */

/* Every key path the loader accepts, read from the very lists it validates
 * with (and the settings table, for the flock), so a key the loader learns
 * is listed here: the docs test holds docs/scenes.md to this list. `set`,
 * `ramp` and each experiment condition take the flock's keys. */
static const struct {
    const char *prefix;
    const char *const *keys;   /* NULL: the flock's settings (mur_parse_setting_names) */
} key_lists[] = {
    {"", top_keys},
    {"world.", mur_parse_world_keys},
    {"flock.", NULL},
    {"flock.", mur_parse_source_keys},
    {"flock.start.", mur_parse_start_keys},
    {"flock.start.", mur_parse_shape_keys},
    {"flock.start.", mur_parse_groups_key},
    {"flock.start.groups[].", mur_parse_group_keys},
    {"flock.start.disc.", mur_parse_disc_keys},
    {"flock.start.ring.", mur_parse_ring_keys},
    {"flock.start.box.", mur_parse_box_keys},
    {"flock.start.ball.", mur_parse_ball_keys},
    {"flock.start.slab.", mur_parse_slab_keys},
    {"flock.gains.", mur_parse_rule_names},
    {"video.", mur_parse_video_keys},
    {"look.", mur_parse_look_keys},
    {"look.boid.", mur_parse_boid_keys},
    {"look.trails.", mur_parse_trail_keys},
    {"look.sky.", mur_parse_sky_keys},
    {"look.overlays[].", mur_overlay_names},
    {"look.overlays[].plot.", mur_parse_plot_keys},
    {"look.overlays[].watch.", mur_parse_watch_keys},
    {"look.overlays[].image.", mur_parse_image_keys},
    {"look.overlays[].figure.", mur_parse_figure_keys},
    {"timeline[].", mur_parse_cue_keys},
    {"timeline[].caption.", mur_parse_caption_keys},
    {"timeline[].title.", mur_parse_title_keys},
    {"predators[].", mur_parse_predator_keys},
    {"experiment.", mur_parse_exp_keys},
    {"experiment.twin.", mur_parse_twin_keys},
    {"experiment.measure.", mur_parse_measure_keys},
    {"layout.", mur_parse_layout_keys},
    {"camera.", mur_parse_camera_keys},
    {"camera.follow.", mur_parse_follow_keys},
};

int mur_scene_key_at(int i, char *buf, size_t size)
{
    for (size_t l = 0; i >= 0 && l < sizeof key_lists / sizeof key_lists[0]; l++) {
        const char *names[128];
        const char *const *keys = key_lists[l].keys ? key_lists[l].keys : mur_parse_setting_names(names);
        for (int k = 0; keys[k]; k++)
            if (i-- == 0) {
                snprintf(buf, size, "%s%s", key_lists[l].prefix, keys[k]);
                return 0;
            }
    }
    return 1;   /* past the last key: not an error code */
}
