/* The YAML guard: bounds a scene's nesting and its size as expanded by
 * aliases, before libyaml builds the document.
 *
 * Why a pass of its own: libyaml's scanner keeps one "simple key" per open
 * flow collection and checks all of them for every token it fetches, so a
 * file of N nested '[' costs O(N^2) inside yaml_parser_load (80,000 took 15 s
 * to reject). Pulled as events instead, the parser hands over each opening
 * as soon as it is scanned, so the guard stops at the first level past the
 * limit having scanned a few hundred bytes. And a document is a graph, not a
 * tree: an alias is one node however large its anchor, so a small file can
 * stand for gigabytes once walked. The guard adds up what each anchor stands
 * for and charges it again at every alias, which bounds the expanded size
 * however the aliases nest (the "billion laughs").
 *
 * Syntax errors are not the guard's business: it stops quietly and lets the
 * loader report them, so a broken file gets the same message either way. */
#include "guard.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "murmur/scene.h"
#include "murmur/alloc.h"

typedef struct {
    char *name;         /* anchor name (owned) */
    int64_t nodes;      /* values the anchored node stands for, aliases expanded */
    int64_t bytes;      /* bytes of text it stands for */
} anchor;

typedef struct {
    int anchor;         /* index into anchors of the collection's anchor, or -1 */
    int64_t nodes0;     /* running totals when the collection opened */
    int64_t bytes0;
} open_collection;

typedef struct {
    const char *name;   /* file name for messages */
    mur_error *err;
    anchor anchors[MUR_SCENE_MAX_ANCHORS];
    int nanchors;
    open_collection stack[MUR_SCENE_MAX_DEPTH];
    int depth;
    int64_t nodes, bytes;   /* expanded totals so far */
} guard;

static int fail(guard *g, const yaml_mark_t *m, const char *what)
{
    return mur_error_set(g->err, MUR_EINPUT, "%s:%lu:%lu: error: %s", g->name,
                         (unsigned long)m->line + 1, (unsigned long)m->column + 1, what);
}

/* Enters with the running totals just grown; leaves 0 while they are within
 * the limits, or an error at the event that crossed them. */
static int within(guard *g, const yaml_mark_t *m)
{
    char msg[160];
    if (g->nodes > MUR_SCENE_MAX_NODES) {
        snprintf(msg, sizeof msg, "the scene expands to more than %d values "
                 "(aliases count once for every use)", MUR_SCENE_MAX_NODES);
        return fail(g, m, msg);
    }
    if (g->bytes > MUR_SCENE_MAX_EXPANDED) {
        snprintf(msg, sizeof msg, "the scene expands to more than %d bytes of text "
                 "(aliases count once for every use)", MUR_SCENE_MAX_EXPANDED);
        return fail(g, m, msg);
    }
    return 0;
}

/* Records an anchor (a later one of the same name shadows an earlier one, as
 * in YAML); leaves *index at its slot and returns 0, or an error code. */
static int define(guard *g, const yaml_char_t *name, const yaml_mark_t *m, int *index)
{
    if (g->nanchors == MUR_SCENE_MAX_ANCHORS) {
        char msg[96];
        snprintf(msg, sizeof msg, "more than %d anchors ('&name') in one scene",
                 MUR_SCENE_MAX_ANCHORS);
        return fail(g, m, msg);
    }
    anchor *a = &g->anchors[g->nanchors];
    if (!(a->name = mur_strdup((const char *)name)))
        return mur_error_set(g->err, MUR_ERUN, "%s: out of memory", g->name);
    a->nodes = a->bytes = 0;
    *index = g->nanchors++;
    return 0;
}

static const anchor *find(const guard *g, const yaml_char_t *name)
{
    for (int i = g->nanchors - 1; i >= 0; i--)   /* the latest definition wins */
        if (strcmp(g->anchors[i].name, (const char *)name) == 0)
            return &g->anchors[i];
    return NULL;
}

/* One event: grows the totals and the stack. Returns 0, 1 at the stream's
 * end, or an error code. */
static int take(guard *g, const yaml_event_t *e)
{
    const yaml_mark_t *m = &e->start_mark;
    const yaml_char_t *name;
    switch (e->type) {
    case YAML_STREAM_END_EVENT:
        return 1;
    case YAML_ALIAS_EVENT: {
        const anchor *a = find(g, e->data.alias.anchor);
        if (!a)
            return 0;   /* undefined: the loader reports it */
        g->nodes += a->nodes;
        g->bytes += a->bytes;
        return within(g, m);
    }
    case YAML_SCALAR_EVENT:
        g->nodes += 1;
        g->bytes += (int64_t)e->data.scalar.length;
        if (e->data.scalar.anchor) {
            int i, rc = define(g, e->data.scalar.anchor, m, &i);
            if (rc)
                return rc;
            g->anchors[i].nodes = 1;
            g->anchors[i].bytes = (int64_t)e->data.scalar.length;
        }
        return within(g, m);
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        if (g->depth == MUR_SCENE_MAX_DEPTH) {
            char msg[96];
            snprintf(msg, sizeof msg, "the scene nests more than %d levels deep",
                     MUR_SCENE_MAX_DEPTH);
            return fail(g, m, msg);
        }
        name = e->type == YAML_SEQUENCE_START_EVENT ? e->data.sequence_start.anchor
                                                    : e->data.mapping_start.anchor;
        int i = -1, rc = name ? define(g, name, m, &i) : 0;
        if (rc)
            return rc;
        g->stack[g->depth++] = (open_collection){i, g->nodes, g->bytes};
        g->nodes += 1;
        return within(g, m);
    }
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT: {
        if (g->depth == 0)
            return 0;
        open_collection *o = &g->stack[--g->depth];
        if (o->anchor >= 0) {
            g->anchors[o->anchor].nodes = g->nodes - o->nodes0;
            g->anchors[o->anchor].bytes = g->bytes - o->bytes0;
        }
        return 0;
    }
    default:
        return 0;
    }
}

int mur_scene_guard(const char *name, const char *src, size_t len, mur_error *err)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return mur_error_set(err, MUR_ERUN, "%s: out of memory", name);
    guard *g = mur_calloc(1, sizeof *g);
    if (!g) {
        yaml_parser_delete(&parser);
        return mur_error_set(err, MUR_ERUN, "%s: out of memory", name);
    }
    g->name = name;
    g->err = err;
    yaml_parser_set_input_string(&parser, (const unsigned char *)src, len);
    int rc = 0;
    while (!rc) {
        yaml_event_t e;
        if (!yaml_parser_parse(&parser, &e))
            break;   /* a syntax error: the loader names it */
        rc = take(g, &e);
        yaml_event_delete(&e);
    }
    for (int i = 0; i < g->nanchors; i++)
        mur_free(g->anchors[i].name);
    mur_free(g);
    yaml_parser_delete(&parser);
    return rc > 0 ? 0 : rc;
}
