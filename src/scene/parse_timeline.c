/* The timeline (`timeline:`): its entries (`at`, `set`, `ramp`, captions,
 * titles, events, overlay switches) in time order, validated against the
 * settings they change. */
#include "parse.h"
#include "murmur/alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    mur_cue *cue;
    yaml_node_t *over_node, *ramp_node;
} cue_arg;

static const char *const place_names[] = {"bottom", "top", "centre", NULL};
static const char *const align_names[] = {"centre", "left", "right", NULL};

/* A caption's position: a name, or [x, y] in fractions of the frame. */
static int caption_position(ctx *c, yaml_node_t *v, mur_caption_style *st)
{
    int k, rc;
    if (v->type == YAML_SCALAR_NODE) {
        if ((rc = mur_parse_choice(c, v, "position", place_names, &k)))
            return rc;
        st->place = (mur_place)k;
        return 0;
    }
    if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.top - v->data.sequence.items.start != 2)
        return mur_parse_fail_at(c, v, "'position' must be top, bottom, centre or [x, y] (fractions of the frame)");
    yaml_node_t *x = mur_parse_node(c, v->data.sequence.items.start[0]), *y = mur_parse_node(c, v->data.sequence.items.start[1]);
    if (!x || !y)
        return mur_parse_fail_at(c, v, "scene is too large or too deeply aliased");
    if ((rc = mur_parse_need_type(c, x, YAML_SCALAR_NODE, "position")) || (rc = mur_parse_need_type(c, y, YAML_SCALAR_NODE, "position")) ||
        (rc = mur_parse_number(c, x, "position x", 0, 1, &st->x)) || (rc = mur_parse_number(c, y, "position y", 0, 1, &st->y)))
        return rc;
    st->place = MUR_PLACE_AT;
    return 0;
}

static int caption_pair(ctx *c, pair *p, void *arg)
{
    mur_cue *q = arg;
    int rc, k;
    if (!strcmp(p->key, "position"))
        return caption_position(c, p->v, &q->caption_style);
    if ((rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
        return rc;
    if (!strcmp(p->key, "text"))
        return mur_parse_text(c, p->v, "text", MUR_SCENE_MAX_CAPTION, &q->caption);
    if (!strcmp(p->key, "size"))
        return mur_parse_number(c, p->v, "size", 0.5, 4, &q->caption_style.size);
    if (!strcmp(p->key, "align")) {
        if ((rc = mur_parse_choice(c, p->v, "align", align_names, &k)))
            return rc;
        q->caption_style.align = (mur_align)k;
        return 0;
    }
    return mur_parse_time_value(c, p->v, "for", 0.1, MUR_SCENE_MAX_SECONDS, &q->caption_for);
}

static int title_pair(ctx *c, pair *p, void *arg)
{
    mur_cue *q = arg;
    int rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key);
    if (rc)
        return rc;
    if (!strcmp(p->key, "text"))
        return mur_parse_text(c, p->v, "text", MUR_SCENE_MAX_TITLE, &q->title);
    if (!strcmp(p->key, "subtitle"))
        return mur_parse_text(c, p->v, "subtitle", MUR_SCENE_MAX_TITLE, &q->subtitle);
    return mur_parse_time_value(c, p->v, "for", 0.1, MUR_SCENE_MAX_SECONDS, &q->title_for);
}

/* The overlays `show` and `hide` name (look.h's kinds, and the predator
 * markers), as a bit set: one name or a list. */
static const char *const *showable_names(const char *names[MUR_LOOK_SHOWABLE + 1])
{
    for (int k = 0; k < MUR_LOOK_PREDATORS; k++)
        names[k] = mur_overlay_names[k];
    names[MUR_LOOK_PREDATORS] = MUR_LOOK_PREDATORS_NAME;
    names[MUR_LOOK_SHOWABLE] = NULL;
    return names;
}

static int overlay_set(ctx *c, yaml_node_t *v, const char *key, unsigned *out)
{
    const char *names[MUR_LOOK_SHOWABLE + 1];
    int k, rc;
    if (v->type == YAML_SCALAR_NODE) {
        if ((rc = mur_parse_choice(c, v, key, showable_names(names), &k)))
            return rc;
        *out |= 1u << k;   /* an overlay kind, or MUR_LOOK_PREDATORS */
        return 0;
    }
    if ((rc = mur_parse_need_type(c, v, YAML_SEQUENCE_NODE, key)))
        return rc;
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
        yaml_node_t *item = mur_parse_node(c, *it);
        if (!item)
            return mur_parse_fail_at(c, v, "scene is too large or too deeply aliased");
        if ((rc = mur_parse_need_type(c, item, YAML_SCALAR_NODE, key)) || (rc = mur_parse_choice(c, item, key, showable_names(names), &k)))
            return rc;
        *out |= 1u << k;   /* an overlay kind, or MUR_LOOK_PREDATORS */
    }
    return 0;
}

const char *const mur_parse_ease_names[] = {"step", "linear", "smooth", NULL};
const char *const mur_parse_event_names[] = {"none", "scatter", "reset", "freeze", "unfreeze",
                                          "fade-in", "fade-out", "title", NULL};

const char *const mur_parse_caption_keys[] = {"text", "for", "position", "size", "align", NULL};
const char *const mur_parse_title_keys[] = {"text", "subtitle", "for", NULL};

static int cue_pair(ctx *c, pair *p, void *arg)
{
    cue_arg *a = arg;
    mur_cue *q = a->cue;
    int rc, k;
    if (!strcmp(p->key, "at"))
        return mur_parse_time_value(c, p->v, "at", 0, MUR_SCENE_MAX_SECONDS, &q->at);
    if (!strcmp(p->key, "set") || !strcmp(p->key, "ramp")) {
        int ramp = p->key[0] == 'r';
        changes ch = {ramp ? q->ramp : q->set, ramp ? q->nramp : q->nset,
                      ramp ? q->nramp : q->nset, NULL, ramp, q};
        rc = mur_parse_settings_map(c, p->v, p->key, &ch);
        if (ramp) {
            q->ramp = ch.list;
            q->nramp = ch.n;
            a->ramp_node = p->k;
        } else {
            q->set = ch.list;
            q->nset = ch.n;
        }
        return rc;
    }
    if (!strcmp(p->key, "over")) {
        a->over_node = p->v;
        if ((rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
            return rc;
        return mur_parse_time_value(c, p->v, "over", 0, MUR_SCENE_MAX_SECONDS, &q->over);
    }
    if (!strcmp(p->key, "ease")) {
        if ((rc = mur_parse_choice(c, p->v, "ease", mur_parse_ease_names, &k)))
            return rc;
        q->ease = (mur_ease)k;
        return 0;
    }
    if (!strcmp(p->key, "caption")) {
        if (p->v->type == YAML_SCALAR_NODE)
            return mur_parse_text(c, p->v, "caption", MUR_SCENE_MAX_CAPTION, &q->caption);
        if ((rc = mur_parse_each_pair(c, p->v, "caption", mur_parse_caption_keys, caption_pair, q)))
            return rc;
        if (!q->caption)
            return mur_parse_fail_at(c, p->v, "caption needs 'text'");
        return 0;
    }
    if (!strcmp(p->key, "show") || !strcmp(p->key, "hide"))
        return overlay_set(c, p->v, p->key, p->key[0] == 's' ? &q->show : &q->hide);
    if (!strcmp(p->key, "title")) {
        if (p->v->type == YAML_SCALAR_NODE)
            return mur_parse_text(c, p->v, "title", MUR_SCENE_MAX_TITLE, &q->title);
        if ((rc = mur_parse_each_pair(c, p->v, "title", mur_parse_title_keys, title_pair, q)))
            return rc;
        if (!q->title)
            return mur_parse_fail_at(c, p->v, "title needs 'text'");
        return 0;
    }
    if (!strcmp(p->key, "chapter")) {
        if ((rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
            return rc;
        return mur_parse_text(c, p->v, "chapter", MUR_SCENE_MAX_TITLE, &q->chapter);
    }
    /* event */
    if ((rc = mur_parse_choice(c, p->v, "event", mur_parse_event_names + 1, &k)))
        return rc;
    q->event = (mur_event)(k + 1);
    return 0;
}

void mur_parse_free_cue(mur_cue *q)
{
    mur_free(q->set);
    mur_free(q->ramp);
    mur_free(q->caption);
    mur_free(q->title);
    mur_free(q->subtitle);
    mur_free(q->chapter);
    mur_free(q->camera);
}

/* Every setting is range-checked where it is written, but some rules tie
 * settings together (min_speed <= max_speed), so the settings in force are
 * checked as a whole where they can change: at each entry, half-way through
 * and at the end of each ramp, for the scene's flock and for each
 * experiment condition. A single ramp blends linearly between those points;
 * overlapping ramps on tied settings are caught by the driver with the time
 * they fail at. */
int mur_parse_timeline_valid(ctx *c, const mur_params *base, const char *condition)
{
    mur_scene *s = c->s;
    for (int i = 0; i < s->ncues; i++) {
        const mur_cue *q = &s->cues[i];
        double when[3] = {q->at, q->at + q->over / 2, q->at + q->over};
        for (int k = 0; k < (q->nramp ? 3 : 1); k++) {
            mur_params p;
            mur_error e;
            mur_scene_params_at(s, base, when[k], &p);
            if (mur_params_validate(&p, &e))
                return mur_error_set(c->err, MUR_EINPUT, "%s:%d:%d: error: at %gs the timeline gives %s%s%s",
                                     c->name, q->line, q->col, when[k], e.msg,
                                     condition ? " in condition " : "", condition ? condition : "");
        }
    }
    return 0;
}

static int cue_order(const void *a, const void *b)
{
    const mur_cue *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return (x->col > y->col) - (x->col < y->col);
}

const char *const mur_parse_cue_keys[] = {"at",    "set",  "ramp", "over",  "ease",    "caption",
                                       "event", "show", "hide", "title", "chapter", NULL};

int mur_parse_timeline(ctx *c, yaml_node_t *seq)
{
    mur_scene *s = c->s;
    int rc = mur_parse_need_type(c, seq, YAML_SEQUENCE_NODE, "timeline");
    if (rc)
        return rc;
    long n = seq->data.sequence.items.top - seq->data.sequence.items.start;
    if (n > MUR_SCENE_MAX_ENTRIES)
        return mur_parse_fail_at(c, seq, "timeline has %ld entries (at most %d)", n, MUR_SCENE_MAX_ENTRIES);
    if (n && !(s->cues = mur_calloc((size_t)n, sizeof *s->cues)))
        return mur_parse_oom(c);
    for (long i = 0; i < n; i++) {
        yaml_node_t *item = mur_parse_node(c, seq->data.sequence.items.start[i]);
        if (!item)
            return mur_parse_fail_at(c, seq, "scene is too large or too deeply aliased");
        mur_cue *q = &s->cues[s->ncues++];
        q->at = -1;
        q->ease = MUR_EASE_LINEAR;
        q->caption_for = 4;
        q->caption_style.size = 1;
        q->title_for = 3;
        q->line = (int)item->start_mark.line + 1;
        q->col = (int)item->start_mark.column + 1;
        cue_arg a = {q, NULL, NULL};
        if ((rc = mur_parse_each_pair(c, item, "timeline entry", mur_parse_cue_keys, cue_pair, &a)))
            return rc;
        if (q->at < 0)
            return mur_parse_fail_at(c, item, "timeline entry needs 'at' (a time like 10s)");
        int ramps = q->nramp;
        for (int k = 0; k < q->ncamera; k++)
            ramps += q->camera[k].ramp;
        if (ramps && !(q->over > 0))
            return mur_parse_fail_at(c, a.ramp_node, "'ramp' needs 'over' (a duration > 0)");
        int fades = q->show || q->hide || q->event == MUR_EVENT_FADE_IN || q->event == MUR_EVENT_FADE_OUT;
        if (!ramps && !fades && a.over_node)
            return mur_parse_fail_at(c, a.over_node, "'over' belongs to a 'ramp', a show, a hide or a fade");
        /* a fade takes a second unless told; a show or hide is at once */
        q->fade_over = a.over_node ? q->over : (fades && !q->show && !q->hide ? 1 : 0);
        if (!ramps)
            q->over = 0;
        if (!q->nset && !q->nramp && !q->ncamera && !q->caption && !q->event && !q->show && !q->hide &&
            !q->title && !q->chapter)
            return mur_parse_fail_at(c, item, "timeline entry does nothing: give set, ramp, caption, event, "
                                    "show, hide, title or chapter");
    }
    /* Sort by time; entries at one time keep file order (line, then column,
     * is file order), so several entries at one time apply in that order. */
    if (s->ncues > 1)
        qsort(s->cues, (size_t)s->ncues, sizeof *s->cues, cue_order);
    return 0;
}
