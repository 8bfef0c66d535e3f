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
#include "murmur/scene.h"
#include "murmur/limits.h"
#include "murmur/alloc.h"

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
#include "yamlnode.h"
#include "../data/recording.h"
#include "sha256.h"
#include "murmur/file.h"
#include "murmur/metrics.h"
#include "sweep.h"

#define WALK_BUDGET 200000  /* node visits per file */

typedef struct {
    const char *name;     /* file name for messages */
    yaml_document_t *doc;
    mur_error *err;
    long budget;
    double tps;           /* ticks per second, known before times are read */
    mur_scene *s;
    yaml_node_t *flock_node; /* the flock section, while it is read */
    yaml_node_t *follow;  /* camera.follow, checked once predators are known */
    yaml_node_t *baseline; /* experiment.baseline, resolved once the conditions are read */
} ctx;

/* ---- errors ------------------------------------------------------------- */

int mur_yaml_fail(mur_error *err, const char *file, const yaml_node_t *n, const char *fmt, va_list ap)
{
    char msg[768];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (n)
        return mur_error_set(err, MUR_EINPUT, "%s:%lu:%lu: error: %s", file,
                             (unsigned long)n->start_mark.line + 1,
                             (unsigned long)n->start_mark.column + 1, msg);
    /* Whole-file problems (empty, too large) point at its start: every
     * scene error names file:line:col, and editors jump there. */
    return mur_error_set(err, MUR_EINPUT, "%s:1:1: error: %s", file, msg);
}

__attribute__((format(printf, 3, 4)))
static int fail_at(ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = mur_yaml_fail(c->err, c->name, n, fmt, ap);
    va_end(ap);
    return rc;
}

static int oom(ctx *c) { return mur_error_set(c->err, MUR_ERUN, "%s: out of memory", c->name); }

static const char *nearest(const char *word, const char *const *names)
{
    const char *best = NULL;
    int bestd = 99;
    for (int i = 0; names[i]; i++) {
        int d = mur_edit_distance(word, names[i]);
        if (d < bestd) {
            bestd = d;
            best = names[i];
        }
    }
    int limit = (int)strlen(word) / 3 + 1;
    return bestd <= (limit < 3 ? limit : 3) ? best : NULL;
}

static int unknown(ctx *c, const yaml_node_t *n, const char *what, const char *word,
                   const char *const *names)
{
    const char *near = nearest(word, names);
    if (near)
        return fail_at(c, n, "unknown %s '%s' (did you mean '%s'?)", what, word, near);
    char list[512] = "";
    size_t len = 0;
    for (int i = 0; names[i] && len < sizeof list - 40; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", names[i]);
    return fail_at(c, n, "unknown %s '%s' (expected one of: %s)", what, word, list);
}

/* ---- node access -------------------------------------------------------- */

static yaml_node_t *node(ctx *c, int id)
{
    if (--c->budget < 0)
        return NULL;
    return yaml_document_get_node(c->doc, id);
}

static const char *scalar(const yaml_node_t *n) { return mur_yaml_scalar(n); }

static int need_type(ctx *c, const yaml_node_t *n, yaml_node_type_t t, const char *key)
{
    static const char *const names[] = {"nothing", "a value", "a list", "a mapping"};
    if (!n)
        return fail_at(c, NULL, "scene is too large or too deeply aliased");
    if (n->type != t) {
        const char *got = n->type <= YAML_MAPPING_NODE ? names[n->type] : "?";
        return fail_at(c, n, "'%s' must be %s, not %s", key, names[t], got);
    }
    return 0;
}

typedef struct {
    const char *key;
    yaml_node_t *k, *v;
} pair;

/* Iterate a mapping: for each pair, check the key is one of `allowed` (NULL
 * terminated; NULL list = any key) and unique. Calls fn with each pair. */
typedef int (*pair_fn)(ctx *c, pair *p, void *arg);

static int each_pair(ctx *c, yaml_node_t *map, const char *what, const char *const *allowed,
                     pair_fn fn, void *arg)
{
    int rc = need_type(c, map, YAML_MAPPING_NODE, what);
    if (rc)
        return rc;
    for (yaml_node_pair_t *it = map->data.mapping.pairs.start; it < map->data.mapping.pairs.top;
         it++) {
        pair p = {NULL, node(c, it->key), node(c, it->value)};
        if (!p.k || !p.v)
            return fail_at(c, map, "scene is too large or too deeply aliased");
        p.key = scalar(p.k);
        if (!p.key)
            return fail_at(c, p.k, "keys in '%s' must be plain names", what);
        for (yaml_node_pair_t *jt = map->data.mapping.pairs.start; jt < it; jt++) {
            const char *other = scalar(yaml_document_get_node(c->doc, jt->key));
            if (other && strcmp(other, p.key) == 0)
                return fail_at(c, p.k, "'%s' is given twice in '%s'", p.key, what);
        }
        if (allowed) {
            int ok = 0;
            for (int i = 0; allowed[i] && !ok; i++)
                ok = strcmp(allowed[i], p.key) == 0;
            if (!ok)
                return unknown(c, p.k, "key", p.key, allowed);
        }
        if (fn && (rc = fn(c, &p, arg)))
            return rc;
    }
    return 0;
}

static yaml_node_t *lookup(ctx *c, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *it = map->data.mapping.pairs.start; it < map->data.mapping.pairs.top;
         it++) {
        const char *k = scalar(yaml_document_get_node(c->doc, it->key));
        if (k && strcmp(k, key) == 0)
            return node(c, it->value);
    }
    return NULL;
}

/* ---- values ------------------------------------------------------------- */

static int parse_double(const char *s, double *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    while (*end == ' ')
        end++;
    if (*end || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int number(ctx *c, const yaml_node_t *n, const char *key, double lo, double hi,
                  double *out)
{
    const char *s = scalar(n);
    double v;
    if (!s || parse_double(s, &v))
        return fail_at(c, n, "'%s' must be a number%s%s%s", key, s ? ", not '" : "",
                       s ? s : "", s ? "'" : "");
    if (v < lo || v > hi)
        return fail_at(c, n, "'%s' = %.10g is out of range [%.10g, %.10g]", key, v, lo, hi);
    *out = v;
    return 0;
}

static int integer(ctx *c, const yaml_node_t *n, const char *key, double lo, double hi,
                   int *out)
{
    double v = 0;
    int rc = number(c, n, key, lo, hi, &v);
    if (rc)
        return rc;
    if (v != floor(v))
        return fail_at(c, n, "'%s' must be a whole number, not %g", key, v);
    *out = (int)v;
    return 0;
}

int mur_time_parse(const char *s, double tps, double *seconds)
{
    char buf[64];
    size_t len = s ? strlen(s) : 0;
    if (len == 0 || len >= sizeof buf)
        return MUR_EINPUT;
    memcpy(buf, s, len + 1);
    double scale = 1;
    if (buf[len - 1] == 's') {
        buf[len - 1] = 0;
    } else if (buf[len - 1] == 't') {
        buf[len - 1] = 0;
        scale = 1.0 / tps;
    }
    double v;
    if (parse_double(buf, &v) || !isfinite(v * scale))
        return MUR_EINPUT;
    *seconds = v * scale;
    return 0;
}

/* A time: `12s`, `1.5s`, `900t` (ticks) or a bare number of seconds. */
static int time_value(ctx *c, const yaml_node_t *n, const char *key, double lo, double hi,
                      double *out)
{
    const char *s = scalar(n);
    double v;
    if (!s || mur_time_parse(s, c->tps, &v))
        return fail_at(c, n, "'%s' must be a time like 12s, 1.5s or 900t%s%s%s", key,
                       s ? ", not '" : "", s ? s : "", s ? "'" : "");
    if (v < lo || v > hi)
        return fail_at(c, n, "'%s' = %gs is out of range [%gs, %gs]", key, v, lo, hi);
    *out = v;
    return 0;
}

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

static int colour(ctx *c, const yaml_node_t *n, const char *key, mur_rgba *out)
{
    const char *s = scalar(n);
    size_t len = s ? strlen(s) : 0;
    /* An unquoted #... is a YAML comment, which leaves an empty value. */
    if (!s || !*s)
        return fail_at(c, n, "'%s' must be a colour \"#rrggbb\" or \"#rrggbbaa\" (quote it: # starts a YAML comment)", key);
    if (s[0] != '#' || (len != 7 && len != 9))
        return fail_at(c, n, "'%s': '%s' is not a colour: expected \"#\" and 6 or 8 hex digits (\"#rrggbb\" or \"#rrggbbaa\")",
                       key, s);
    double ch[4] = {0, 0, 0, 1};
    for (size_t i = 0; i + 1 < len; i += 2) {
        int hi = hexval(s[1 + i]), lo = hexval(s[2 + i]);
        if (hi < 0 || lo < 0)
            return fail_at(c, n, "'%s': '%s' is not a hex colour", key, s);
        ch[i / 2] = (hi * 16 + lo) / 255.0;
    }
    *out = (mur_rgba){ch[0], ch[1], ch[2], ch[3]};
    return 0;
}

static int choice(ctx *c, const yaml_node_t *n, const char *key, const char *const *names,
                  int *out)
{
    const char *s = scalar(n);
    if (!s)
        return fail_at(c, n, "'%s' must be one of its names", key);
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], s) == 0) {
            *out = i;
            return 0;
        }
    char what[96];
    snprintf(what, sizeof what, "value for '%s'", key);
    return unknown(c, n, what, s, names);
}

/* Reads a text of at most max characters (UTF-8 code points): every text a
 * scene holds is drawn, printed or used as a name, and a screen or a column
 * has room for only so much; an alias repeated a thousand times must not
 * make `check` print gigabytes. */
/* A control character (YAML's "\e", "\r") in a caption, a title or a
 * condition's name would reach a subtitle file, a table or a terminal as
 * it is: a CR LF in a caption makes extra .srt cues, an ESC drives a
 * terminal. Line breaks and tabs are text. 0, or the error at n. */
static int printable(ctx *c, const yaml_node_t *n, const char *key, const char *s)
{
    for (const unsigned char *u = (const unsigned char *)s; *u; u++)
        if ((*u < 0x20 && *u != '\n' && *u != '\t') || *u == 0x7f)
            return fail_at(c, n, "'%s' holds the control character \\x%02x: text is printable (a line break is \\n)",
                           key, *u);
    return 0;
}

static int text(ctx *c, const yaml_node_t *n, const char *key, size_t max, char **out)
{
    const char *s = scalar(n);
    if (!s)
        return fail_at(c, n, "'%s' must be text", key);
    int rc = printable(c, n, key, s);
    if (rc)
        return rc;
    size_t chars = 0;
    for (const unsigned char *u = (const unsigned char *)s; *u; u++)
        chars += (*u & 0xC0) != 0x80;
    if (chars > max)
        return fail_at(c, n, "'%s' is %zu characters long; at most %zu fit", key, chars, max);
    mur_free(*out);
    if (!(*out = mur_strdup(s)))
        return oom(c);
    return 0;
}

/* ---- model settings ----------------------------------------------------- */

static const char *const world_keys[] = {"width", "height", "boundary", "margin", NULL};

/* Names a `flock`, `set`, `ramp` or condition may use: the settings table
 * minus the world's keys, plus the composite keys. Filled into the caller's
 * array (64 entries): nothing global, so two threads may load at once. */
static const char **setting_names(const char *names[64])
{
    int k = 0;
    for (int i = 0; i < mur_setting_count() && k < 58; i++) {
        const char *nm = mur_setting_at(i)->name;
        int world = 0;
        for (int w = 0; world_keys[w]; w++)
            world |= strcmp(world_keys[w], nm) == 0;
        if (!world)
            names[k++] = nm;
    }
    names[k++] = "perception";
    names[k++] = "gains";
    names[k++] = "init_speed";
    names[k] = NULL;
    return names;
}

typedef struct {
    mur_change *list;   /* growing list of changes (NULL: write params directly) */
    int n, cap;
    mur_params *p;      /* params to write when list is NULL */
    int ramp;           /* only numeric settings may ramp */
    mur_cue *cue;       /* a timeline entry's: camera.* keys go to its camera list */
} changes;

static int add_change(ctx *c, changes *ch, const mur_setting *s, double v)
{
    if (!ch->list && ch->cap == -1) {
        mur_setting_put(s, ch->p, v);
        return 0;
    }
    if (ch->n == ch->cap) {
        int cap = ch->cap ? ch->cap * 2 : 8;
        mur_change *l = mur_realloc(ch->list, (size_t)cap * sizeof *l);
        if (!l)
            return oom(c);
        ch->list = l;
        ch->cap = cap;
    }
    ch->list[ch->n++] = (mur_change){s, v};
    return 0;
}

static int setting_value(ctx *c, const yaml_node_t *n, const mur_setting *s, changes *ch)
{
    double v;
    int rc;
    if (s->type == MUR_SETTING_ENUM) {
        if (ch->ramp)
            return fail_at(c, n, "'%s' is a choice and cannot ramp (use set)", s->name);
        int k;
        if ((rc = choice(c, n, s->name, s->choices, &k)))
            return rc;
        v = k;
    } else if (s->type == MUR_SETTING_INT) {
        int k = 0;
        if ((rc = integer(c, n, s->name, s->min, s->max, &k)))
            return rc;
        v = k;
    } else if ((rc = number(c, n, s->name, s->min, s->max, &v))) {
        return rc;
    }
    return add_change(c, ch, s, v);
}

static const char *const rule_names[] = {"separation", "alignment", "cohesion", NULL};

static int triple(ctx *c, const yaml_node_t *n, const char *key, const char *const names[3],
                  changes *ch)
{
    /* gains: one number for all three, [s, a, c], or {separation:, ...} */
    const char *const *rules = rule_names;
    int rc;
    if (n->type == YAML_SCALAR_NODE) {
        for (int k = 0; k < 3; k++)
            if ((rc = setting_value(c, n, mur_setting_find(names[k]), ch)))
                return rc;
        return 0;
    }
    if (n->type == YAML_SEQUENCE_NODE) {
        int len = (int)(n->data.sequence.items.top - n->data.sequence.items.start);
        if (len != 3)
            return fail_at(c, n, "'%s' needs three values [separation, alignment, cohesion]", key);
        for (int k = 0; k < 3; k++) {
            yaml_node_t *item = node(c, n->data.sequence.items.start[k]);
            if ((rc = need_type(c, item, YAML_SCALAR_NODE, key)) ||
                (rc = setting_value(c, item, mur_setting_find(names[k]), ch)))
                return rc;
        }
        return 0;
    }
    for (yaml_node_pair_t *it = n->data.mapping.pairs.start; it < n->data.mapping.pairs.top; it++) {
        yaml_node_t *k = node(c, it->key), *v = node(c, it->value);
        const char *name = scalar(k);
        int which = -1;
        for (int r = 0; name && r < 3; r++)
            if (strcmp(rules[r], name) == 0)
                which = r;
        if (which < 0)
            return unknown(c, k ? k : n, "rule", name ? name : "?", rules);
        if ((rc = need_type(c, v, YAML_SCALAR_NODE, name)) ||
            (rc = setting_value(c, v, mur_setting_find(names[which]), ch)))
            return rc;
    }
    return 0;
}

static int camera_change(ctx *c, pair *p, changes *ch);

/* One `name: value` of a flock, set, ramp or condition. */
static int one_setting(ctx *c, pair *p, void *arg)
{
    changes *ch = arg;
    int rc;
    if (!strncmp(p->key, "camera.", 7))
        return camera_change(c, p, ch);
    if (strcmp(p->key, "perception") == 0) {
        if ((rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key)) ||
            (rc = setting_value(c, p->v, mur_setting_find("alignment_radius"), ch)))
            return rc;
        return setting_value(c, p->v, mur_setting_find("cohesion_radius"), ch);
    }
    if (strcmp(p->key, "gains") == 0) {
        static const char *const g[3] = {"gain_separation", "gain_alignment", "gain_cohesion"};
        return triple(c, p->v, p->key, g, ch);
    }
    if (strcmp(p->key, "init_speed") == 0) {
        const mur_setting *lo = mur_setting_find("init_speed_min"), *hi = mur_setting_find("init_speed_max");
        if (p->v->type == YAML_SEQUENCE_NODE) {
            if (p->v->data.sequence.items.top - p->v->data.sequence.items.start != 2)
                return fail_at(c, p->v, "'init_speed' is a speed or a range [min, max]");
            yaml_node_t *a = node(c, p->v->data.sequence.items.start[0]);
            yaml_node_t *b = node(c, p->v->data.sequence.items.start[1]);
            if ((rc = need_type(c, a, YAML_SCALAR_NODE, p->key)) ||
                (rc = need_type(c, b, YAML_SCALAR_NODE, p->key)) ||
                (rc = setting_value(c, a, lo, ch)) || (rc = setting_value(c, b, hi, ch)))
                return rc;
            return 0;
        }
        if ((rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key)) ||
            (rc = setting_value(c, p->v, lo, ch)))
            return rc;
        return setting_value(c, p->v, hi, ch);
    }
    const mur_setting *s = NULL;
    const char *names[64];
    for (const char **nm = setting_names(names); *nm && !s; nm++)
        if (!strcmp(*nm, p->key))
            s = mur_setting_find(p->key);
    if (!s)
        return unknown(c, p->k, "setting", p->key, names);
    if ((rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
        return rc;
    return setting_value(c, p->v, s, ch);
}

/* Keys are checked by one_setting, so a misspelt one is an "unknown
 * setting" with the nearest setting's name. */
static int settings_map(ctx *c, yaml_node_t *map, const char *what, changes *ch)
{
    return each_pair(c, map, what, NULL, one_setting, ch);
}

/* Check a whole parameter set; errors point at the node that set it. */
static int params_ok(ctx *c, const mur_params *p, const yaml_node_t *where)
{
    mur_error e;
    if (mur_params_validate(p, &e))
        return fail_at(c, where, "%s", e.msg);
    return 0;
}

/* ---- sections ------------------------------------------------------------ */

/* ---- recorded flocks: flock.replay, flock.start ------------------------- */

static const char *const source_keys[] = {"replay", "start", NULL};
static const char *const start_keys[] = {"file", "tick", NULL};
static int start_state(ctx *c, yaml_node_t *v, yaml_node_t *flock);

/* A path in the scene, relative to the scene file's folder (a scene and
 * its recordings travel together); NULL when out of memory. */
static char *beside_scene(const char *scene, const char *path)
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

/* Read the recording n names; errors in the file name the file (and its
 * line or dataset), a file that cannot be read the scene's line. */
static int recording(ctx *c, yaml_node_t *n, const char *key, long tick, mur_recording **out)
{
    char *written = NULL;
    int rc = text(c, n, key, MUR_SCENE_MAX_PATH, &written);
    if (rc)
        return rc;
    char *path = beside_scene(c->name, written);
    mur_free(written);
    if (!path)
        return oom(c);
    char why[160];
    if (strcmp(key, "replay") && !mur_file_is_hdf5(path)) {
        rc = fail_at(c, n, "a saved state is an HDF5 file from `murmur trace` (.h5), not '%s'", path);
    } else if (mur_recording_file_ok(path, why, sizeof why)) {
        rc = fail_at(c, n, "'%s' %s", path, why);
    } else {
        mur_error e;
        if (!strcmp(key, "replay"))
            rc = mur_recording_replay(out, path, path, &c->s->params, &e);
        else
            rc = mur_recording_start(out, path, path, tick, &c->s->params, &e);
        if (rc)
            mur_error_set(c->err, rc, "%s", e.msg);
        else if (mur_sha256_file(path, (*out)->sha256))   /* the bytes just read, for the provenance */
            rc = fail_at(c, n, "'%s' cannot be read again to hash it", path);
    }
    mur_free(path);
    return rc;
}

/* ---- the starting flock's shape: flock.start -------------------------------- */

static const char *const region_names[] = {"uniform", "disc", "box", "ring", NULL};
static const char *const disc_keys[] = {"center", "radius", NULL};
static const char *const ring_keys[] = {"center", "radius", "width", NULL};
static const char *const box_keys[] = {"x", "y", "width", "height", NULL};
static const char *const shape_keys[] = {"uniform", "disc", "box", "ring", "heading", "spread", "speed", NULL};
static const char *const groups_key[] = {"groups", NULL};
static const char *const group_keys[] = {"count", "uniform", "disc", "box", "ring", "heading", "spread",
                                         "speed", "color", NULL};

/* [x, y] in the world. */
static int point(ctx *c, yaml_node_t *n, const char *key, double *x, double *y)
{
    yaml_node_t *a = NULL, *b = NULL;
    if (n->type == YAML_SEQUENCE_NODE && n->data.sequence.items.top - n->data.sequence.items.start == 2) {
        a = node(c, n->data.sequence.items.start[0]);
        b = node(c, n->data.sequence.items.start[1]);
    }
    if (!a || !b)
        return fail_at(c, n, "'%s' is a point [x, y]", key);
    int rc = number(c, a, key, -MUR_MAX_WORLD, MUR_MAX_WORLD, x);
    return rc ? rc : number(c, b, key, -MUR_MAX_WORLD, MUR_MAX_WORLD, y);
}

/* The region of a group: one of uniform, disc, box, ring (the first found),
 * inside the world. where: the group's node, for messages. */
static int region(ctx *c, yaml_node_t *map, mur_start_group *g)
{
    const mur_params *p = &c->s->params;
    yaml_node_t *v = NULL, *seen = NULL;
    int kind = -1, rc;
    for (int k = 0; region_names[k]; k++)
        if ((v = lookup(c, map, region_names[k]))) {
            if (seen)
                return fail_at(c, v, "a group has one region (uniform, disc, box or ring)");
            seen = v;
            kind = k;
        }
    g->region = kind < 0 ? MUR_REGION_UNIFORM : (mur_region)kind;
    v = seen;
    double big = 2 * MUR_MAX_WORLD;
    if (kind == MUR_REGION_DISC || kind == MUR_REGION_RING) {
        yaml_node_t *cn, *rn, *wn;
        if ((rc = each_pair(c, v, region_names[kind], kind == MUR_REGION_DISC ? disc_keys : ring_keys,
                            NULL, NULL)))
            return rc;
        if (!(cn = lookup(c, v, "center")) || !(rn = lookup(c, v, "radius")))
            return fail_at(c, v, "a %s needs a center [x, y] and a radius", region_names[kind]);
        if ((rc = point(c, cn, "center", &g->cx, &g->cy)) || (rc = number(c, rn, "radius", 1e-9, big, &g->radius)))
            return rc;
        g->band = g->radius / 5;
        if ((wn = lookup(c, v, "width")) && (rc = number(c, wn, "width", 1e-9, 2 * g->radius, &g->band)))
            return rc;
        double r = g->radius + (kind == MUR_REGION_RING ? g->band / 2 : 0);
        if (g->cx - r < 0 || g->cy - r < 0 || g->cx + r > p->width || g->cy + r > p->height)
            return fail_at(c, v, "the %s reaches outside the world (0 to %g, 0 to %g)", region_names[kind],
                           p->width, p->height);
    } else if (kind == MUR_REGION_BOX) {
        if ((rc = each_pair(c, v, "box", box_keys, NULL, NULL)))
            return rc;
        yaml_node_t *n[4];
        double *out[4] = {&g->x, &g->y, &g->w, &g->h};
        for (int k = 0; k < 4; k++) {
            if (!(n[k] = lookup(c, v, box_keys[k])))
                return fail_at(c, v, "a box needs x, y, width and height");
            if ((rc = number(c, n[k], box_keys[k], k < 2 ? -big : 1e-9, big, out[k])))
                return rc;
        }
        if (g->x < 0 || g->y < 0 || g->x + g->w > p->width || g->y + g->h > p->height)
            return fail_at(c, v, "the box reaches outside the world (0 to %g, 0 to %g)", p->width, p->height);
    } else if (v && !(v->type == YAML_SCALAR_NODE && !*scalar(v)) &&
               !(v->type == YAML_MAPPING_NODE && v->data.mapping.pairs.start == v->data.mapping.pairs.top))
        return fail_at(c, v, "'uniform' takes nothing ({} or an empty value)");
    return 0;
}

/* heading, spread and speed of a group (a shape or a group's mapping). */
static int motion(ctx *c, yaml_node_t *map, mur_start_group *g)
{
    yaml_node_t *h = lookup(c, map, "heading"), *sp = lookup(c, map, "spread"), *v = lookup(c, map, "speed");
    int rc;
    g->heading_random = 1;
    g->speed_min = g->speed_max = -1;
    if (h && !(h->type == YAML_SCALAR_NODE && !strcmp(scalar(h), "random"))) {
        if ((rc = number(c, h, "heading", -360, 360, &g->heading)))
            return rc;
        g->heading_random = 0;
    }
    if (sp && g->heading_random)
        return fail_at(c, sp, "'spread' is around a heading: give the group a heading in degrees");
    if (sp && (rc = number(c, sp, "spread", 0, 360, &g->spread)))
        return rc;
    if (!v)
        return 0;
    if (v->type == YAML_SEQUENCE_NODE && v->data.sequence.items.top - v->data.sequence.items.start == 2) {
        if ((rc = number(c, node(c, v->data.sequence.items.start[0]), "speed", 0, 10000, &g->speed_min)) ||
            (rc = number(c, node(c, v->data.sequence.items.start[1]), "speed", 0, 10000, &g->speed_max)))
            return rc;
        if (g->speed_min > g->speed_max)
            return fail_at(c, v, "'speed' [min, max] with min above max");
        return 0;
    }
    if ((rc = number(c, v, "speed", 0, 10000, &g->speed_min)))
        return rc;
    g->speed_max = g->speed_min;
    return 0;
}

static int add_group(ctx *c, yaml_node_t *map, int count, mur_rgba col_in)
{
    mur_scene *s = c->s;
    if (s->ngroups == MUR_SCENE_MAX_GROUPS)
        return fail_at(c, map, "more than %d groups", MUR_SCENE_MAX_GROUPS);
    mur_start_group *g = mur_realloc(s->groups, (size_t)(s->ngroups + 1) * sizeof *g);
    mur_rgba *col = g ? mur_realloc(s->group_colors, (size_t)(s->ngroups + 1) * sizeof *col) : NULL;
    if (g)
        s->groups = g;
    if (!col)
        return oom(c);
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
        return fail_at(c, seq, "'groups' is a list of groups, each with a count and a region");
    double total = 0;
    int rc;
    for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++) {
        yaml_node_t *g = node(c, *it), *n, *cl;
        int k = 0;
        mur_rgba col = group_palette(c->s->ngroups);
        if ((rc = each_pair(c, g, "group", group_keys, NULL, NULL)))
            return rc;
        if (!(n = lookup(c, g, "count")))
            return fail_at(c, g, "a group needs a count");
        if ((rc = integer(c, n, "count", 0, MUR_MAX_BOIDS, &k)))
            return rc;
        if ((cl = lookup(c, g, "color")) && (rc = colour(c, cl, "color", &col)))
            return rc;
        total += k;
        if (total > MUR_MAX_BOIDS)
            return fail_at(c, n, "the groups hold %.0f boids (at most %d)", total, MUR_MAX_BOIDS);
        if ((rc = add_group(c, g, k, col)))
            return rc;
    }
    (void)count;   /* checked against the total once the flock section is read (flock_source) */
    return 0;
}

/* flock.start: FILE, uniform, {file: FILE, tick: N}, a shape, or groups */
static int start_state(ctx *c, yaml_node_t *v, yaml_node_t *flock)
{
    if (v->type == YAML_SCALAR_NODE && !strcmp(scalar(v), "uniform"))
        return 0;
    if (v->type != YAML_MAPPING_NODE)
        return recording(c, v, "start", -1, &c->s->start);
    int rc;
    yaml_node_t *file = lookup(c, v, "file"), *tick = lookup(c, v, "tick"), *gs = lookup(c, v, "groups");
    if (gs) {
        return (rc = each_pair(c, v, "start", groups_key, NULL, NULL)) ? rc
                                                                       : groups(c, gs, lookup(c, flock, "count"));
    }
    if (!file && !tick) {   /* one shape for the whole flock */
        if ((rc = each_pair(c, v, "start", shape_keys, NULL, NULL)))
            return rc;
        return add_group(c, v, -1, group_palette(0));   /* its count: the flock's, once read */
    }
    if ((rc = each_pair(c, v, "start", start_keys, NULL, NULL)))
        return rc;
    int t = -1;
    if (!file)
        return fail_at(c, v, "'start' needs a 'file' (a saved state from `murmur trace --at`)");
    if (tick && (rc = integer(c, tick, "tick", 0, MUR_SCENE_MAX_TICKS, &t)))
        return rc;
    return recording(c, file, "start", t, &c->s->start);
}

/* The flock section: settings, and where the boids come from. */
static int flock_pair(ctx *c, pair *p, void *arg)
{
    if (!strcmp(p->key, "replay"))
        return recording(c, p->v, "replay", -1, &c->s->replay);
    if (!strcmp(p->key, "start")) {
        changes *ch = arg;
        (void)ch;
        return start_state(c, p->v, c->flock_node);
    }
    return one_setting(c, p, arg);
}

/* After the flock section: a recording decides the count (the most boids
 * of any frame, or the saved state's), and replay and start exclude each
 * other. */
static int flock_source(ctx *c, yaml_node_t *map)
{
    mur_scene *s = c->s;
    yaml_node_t *count = lookup(c, map, "count");
    const mur_recording *r = s->replay ? s->replay : s->start;
    if (s->ngroups && s->replay)
        return fail_at(c, lookup(c, map, "start"), "a replayed flock follows its recording: it has no start");
    if (s->ngroups == 1 && s->groups[0].count < 0) {
        s->groups[0].count = s->params.count;   /* one shape: the whole flock */
    } else if (s->ngroups) {
        long total = 0;
        for (int k = 0; k < s->ngroups; k++)
            total += s->groups[k].count;
        if (count && s->params.count != total)
            return fail_at(c, count, "the start's groups hold %ld boids: remove 'count' or make it %ld",
                           total, total);
        s->params.count = (int)total;
    }
    if (s->replay && s->start)
        return fail_at(c, lookup(c, map, "start"), "a flock replays a recording or starts from a "
                                                   "saved state, not both");
    if (!r)
        return 0;
    int n = s->replay ? r->max_n : (int)(r->first[1] - r->first[0]);
    if (count && s->replay)
        return fail_at(c, count, "a replayed flock's count is the recording's (%s): remove 'count'", r->path);
    if (count && s->params.count != n)
        return fail_at(c, count, "the saved state %s holds %d boids: remove 'count' or make it %d", r->path, n, n);
    s->params.count = n;
    return 0;
}

/* What a replayed flock cannot do: it follows its recording, so nothing
 * may step it, move it or change its count. */
static int replay_ok(ctx *c, yaml_node_t *root, yaml_node_t *video)
{
    const mur_scene *s = c->s;
    int any = s->replay != NULL;
    for (int i = 0; i < s->nconditions; i++)
        any |= s->conditions[i].replay != NULL;
    if (!any)
        return 0;
    if (s->warmup > 0)
        return fail_at(c, lookup(c, video, "warmup"), "a replayed flock has no warm-up: its first "
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


static int world_pair(ctx *c, pair *p, void *arg)
{
    changes *ch = arg;
    if (strcmp(p->key, "width") == 0 || strcmp(p->key, "height") == 0 ||
        strcmp(p->key, "boundary") == 0 || strcmp(p->key, "margin") == 0) {
        int rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key);
        return rc ? rc : setting_value(c, p->v, mur_setting_find(p->key), ch);
    }
    return 0;
}

static int video_pair(ctx *c, pair *p, void *arg)
{
    mur_scene *s = arg;
    const char *k = p->key;
    int rc = need_type(c, p->v, YAML_SCALAR_NODE, k);
    if (rc)
        return rc;
    if (!strcmp(k, "width")) return integer(c, p->v, k, 16, MUR_SCENE_MAX_PIXELS, &s->width);
    if (!strcmp(k, "height")) return integer(c, p->v, k, 16, MUR_SCENE_MAX_PIXELS, &s->height);
    if (!strcmp(k, "fps")) {
        /* Whole frames per second: encoders take an integer rate here, and
         * an error at the key beats one after the simulation has started. */
        int fps;
        if ((rc = integer(c, p->v, k, 1, MUR_MAX_FPS, &fps)))
            return rc;
        s->fps = fps;
        return 0;
    }
    if (!strcmp(k, "ticks_per_second")) return number(c, p->v, k, 0.01, 10000, &s->tps);
    if (!strcmp(k, "duration")) return time_value(c, p->v, k, 0, MUR_SCENE_MAX_SECONDS, &s->duration);
    if (!strcmp(k, "warmup")) {
        double t;
        if ((rc = time_value(c, p->v, k, 0, MUR_SCENE_MAX_TICKS / c->tps, &t)))
            return rc;
        s->warmup = floor(t * c->tps + 0.5);
        return 0;
    }
    if (!strcmp(k, "output")) {
        if ((rc = text(c, p->v, k, MUR_SCENE_MAX_PATH, &s->output)))
            return rc;
        if (!*s->output)
            return fail_at(c, p->v, "'output' must not be empty");
        s->output_line = (int)p->v->start_mark.line + 1;
        s->output_col = (int)p->v->start_mark.column + 1;
        return 0;
    }
    if (!strcmp(k, "quality")) return integer(c, p->v, k, 0, MUR_MAX_QUALITY, &s->quality);
    if (!strcmp(k, "chapters")) {
        static const char *const chapter_sources[] = {"entries", "captions", NULL};
        return choice(c, p->v, k, chapter_sources, &s->chapter_captions);
    }
    return 0;
}


static int boid_pair(ctx *c, pair *p, void *arg)
{
    mur_scene *s = arg;
    int rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key), k;
    if (rc)
        return rc;
    if (!strcmp(p->key, "shape")) {
        if ((rc = choice(c, p->v, "shape", mur_shape_names, &k)))
            return rc;
        s->look.shape = (mur_shape)k;
        s->look.shape_auto = 0;   /* a chosen shape never switches */
        return 0;
    }
    if (!strcmp(p->key, "size"))
        return number(c, p->v, "size", 0.1, 1000, &s->look.boid_size);
    /* color: a fixed "#rrggbb" or a mode name */
    const char *v = scalar(p->v);
    if (v[0] == '#') {
        s->look.color_mode = MUR_COLOR_FIXED;
        return colour(c, p->v, "color", &s->look.boid_color);
    }
    if ((rc = choice(c, p->v, "color", mur_color_mode_names + 1, &k)))   /* "fixed" is a colour: "#rrggbb" */
        return rc;
    s->look.color_mode = (mur_color_mode)(k + 1);
    return 0;
}

static int trails_pair(ctx *c, pair *p, void *arg)
{
    mur_scene *s = arg;
    int rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key);
    if (rc)
        return rc;
    if (!strcmp(p->key, "length"))
        return integer(c, p->v, "length", 0, 1000, &s->look.trail_length);
    static const char *const yesno[] = {"false", "true", NULL};
    return choice(c, p->v, "fade", yesno, &s->look.trail_fade);
}

static const char *const corner_names[] = {"top-left", "top-right", "bottom-left",
                                           "bottom-right", NULL};

static int metric_name(ctx *c, yaml_node_t *n, const char *key, int *out)
{
    const char *names[MUR_METRIC_COUNT + 1];
    for (int k = 0; k < MUR_METRIC_COUNT; k++)
        names[k] = mur_metric_name(k);
    names[MUR_METRIC_COUNT] = NULL;
    int rc = need_type(c, n, YAML_SCALAR_NODE, key);
    if (rc)
        return rc;
    return choice(c, n, key, names, out);
}

static int plot_pair(ctx *c, pair *p, void *arg)
{
    mur_overlay *o = arg;
    int rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key), k;
    if (rc)
        return rc;
    if (!strcmp(p->key, "metric"))
        return metric_name(c, p->v, "metric", &o->metric);
    if (!strcmp(p->key, "window"))
        return time_value(c, p->v, "window", 0.1, 3600, &o->window);
    if ((rc = choice(c, p->v, "corner", corner_names, &k)))
        return rc;
    o->corner = (mur_corner)k;
    return 0;
}

/* Reads the boid a watch view or a camera names, at node v: an index below
 * the flock's count, or on a replay one of the recording's ids (they are
 * the tracker's numbers: any, in any order). world and flock are read
 * before look and camera, so both are known here. what: for messages. */
static int boid_named(ctx *c, yaml_node_t *v, const char *what, int *out)
{
    const mur_recording *r = c->s->replay;
    if (!r) {
        int n = c->s->params.count;
        int rc = integer(c, v, "boid", 0, MUR_MAX_BOIDS, out);
        if (!rc && *out >= n)
            return fail_at(c, v, "%s boid %d, but the flock has %d (boids 0 to %d)", what, *out, n,
                           n - 1);
        return rc;
    }
    int rc = integer(c, v, "boid", 0, MUR_REPLAY_MAX_ID, out);
    if (rc)
        return rc;
    long rows = r->first[r->nframes];
    for (long k = 0; k < rows; k++)
        if (r->id[k] == *out)
            return 0;
    return fail_at(c, v, "%s boid %d, but no boid of '%s' has that id", what, *out, r->path);
}

static int watch_pair(ctx *c, pair *p, void *arg)
{
    mur_overlay *o = arg;
    int rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key);
    return rc ? rc : boid_named(c, p->v, "the watch view shows", &o->boid);
}

static const char *const plot_keys[] = {"metric", "window", "corner", NULL};
static const char *const watch_keys[] = {"boid", NULL};

static int overlay(ctx *c, yaml_node_t *n, mur_overlay *o)
{
    memset(o, 0, sizeof *o);
    o->corner = MUR_CORNER_TOP_RIGHT;
    o->window = 10;
    int k, rc;
    if (n->type == YAML_SCALAR_NODE) {
        if ((rc = choice(c, n, "overlay", mur_overlay_names, &k)))
            return rc;
        if (k == MUR_OVERLAY_READOUT) {
            o->nmetrics = 3;
            o->metrics[0] = 0; o->metrics[1] = 1; o->metrics[2] = 3;
        }
        o->kind = (mur_overlay_kind)k;
        return 0;
    }
    if ((rc = need_type(c, n, YAML_MAPPING_NODE, "overlay")))
        return rc;
    if (n->data.mapping.pairs.top - n->data.mapping.pairs.start != 1)
        return fail_at(c, n, "an overlay is one name, or one name with its options");
    yaml_node_t *kn = node(c, n->data.mapping.pairs.start[0].key);
    yaml_node_t *vn = node(c, n->data.mapping.pairs.start[0].value);
    if (!kn || !vn)
        return fail_at(c, n, "scene is too large or too deeply aliased");
    if ((rc = choice(c, kn, "overlay", mur_overlay_names, &k)))
        return rc;
    o->kind = (mur_overlay_kind)k;
    switch (o->kind) {
    case MUR_OVERLAY_READOUT:
        if (vn->type == YAML_SCALAR_NODE) {
            if ((rc = metric_name(c, vn, "readout", &o->metrics[0])))
                return rc;
            o->nmetrics = 1;
            return 0;
        }
        if ((rc = need_type(c, vn, YAML_SEQUENCE_NODE, "readout")))
            return rc;
        for (yaml_node_item_t *it = vn->data.sequence.items.start; it < vn->data.sequence.items.top; it++) {
            if (o->nmetrics == 8)
                return fail_at(c, vn, "a readout shows at most 8 numbers");
            if ((rc = metric_name(c, node(c, *it), "readout", &o->metrics[o->nmetrics++])))
                return rc;
        }
        return 0;
    case MUR_OVERLAY_PLOT:
        if (vn->type == YAML_SCALAR_NODE)
            return metric_name(c, vn, "plot", &o->metric);
        return each_pair(c, vn, "plot", plot_keys, plot_pair, o);
    case MUR_OVERLAY_WATCH:
        return each_pair(c, vn, "watch", watch_keys, watch_pair, o);
    default:
        return fail_at(c, vn, "overlay '%s' takes no options", scalar(kn));
    }
}

static const char *const boid_keys[] = {"shape", "size", "color", NULL};
static const char *const trail_keys[] = {"length", "fade", NULL};

static int look_pair(ctx *c, pair *p, void *arg)
{
    mur_scene *s = arg;
    int rc;
    if (!strcmp(p->key, "background")) {
        if ((rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
            return rc;
        if ((rc = colour(c, p->v, "background", &s->look.background)))
            return rc;
        /* A translucent background makes translucent frames, for the
         * outputs that keep alpha (the command checks the output) */
        s->look.transparent = s->look.background.a < 1;
        s->background_line = (int)p->v->start_mark.line + 1;
        s->background_col = (int)p->v->start_mark.column + 1;
        return 0;
    }
    if (!strcmp(p->key, "boid"))
        return each_pair(c, p->v, "boid", boid_keys, boid_pair, s);
    if (!strcmp(p->key, "trails"))
        return each_pair(c, p->v, "trails", trail_keys, trails_pair, s);
    /* overlays */
    if ((rc = need_type(c, p->v, YAML_SEQUENCE_NODE, p->key)))
        return rc;
    long n = p->v->data.sequence.items.top - p->v->data.sequence.items.start;
    if (n > 32)
        return fail_at(c, p->v, "at most 32 overlays");
    mur_free((void *)s->look.overlays);
    s->look.overlays = NULL;
    s->look.noverlays = 0;
    mur_overlay *ov = n ? mur_calloc((size_t)n, sizeof *ov) : NULL;
    if (n && !ov)
        return oom(c);
    s->look.overlays = ov;
    for (long i = 0; i < n; i++) {
        yaml_node_t *item = node(c, p->v->data.sequence.items.start[i]);
        if (!item)
            return fail_at(c, p->v, "scene is too large or too deeply aliased");
        if ((rc = overlay(c, item, &ov[i])))
            return rc;
        s->look.noverlays++;
    }
    return 0;
}

/* ---- camera -------------------------------------------------------------- */

static const char *const camera_keys[] = {"center", "zoom", "follow", "smooth", "boid_size", NULL};
static const char *const follow_keys[] = {"boid", "predator", NULL};
/* what a timeline's set and ramp may change besides the flock's settings */
static const char *const camera_set_keys[] = {"camera.zoom", "camera.center", "camera.x", "camera.y",
                                              "camera.follow", NULL};
#define CAMERA_FAR 1e6     /* world units a camera's centre may lie from the origin */
#define ZOOM_MIN 0.1
#define ZOOM_MAX 100

/* [x, y] in world units into xy. */
static int camera_point(ctx *c, yaml_node_t *n, const char *key, double xy[2])
{
    int rc = need_type(c, n, YAML_SEQUENCE_NODE, key);
    if (rc)
        return rc;
    if (n->data.sequence.items.top - n->data.sequence.items.start != 2)
        return fail_at(c, n, "'%s' is a point [x, y] in world units", key);
    for (int k = 0; k < 2; k++) {
        yaml_node_t *item = node(c, n->data.sequence.items.start[k]);
        if ((rc = need_type(c, item, YAML_SCALAR_NODE, key)) ||
            (rc = number(c, item, key, -CAMERA_FAR, CAMERA_FAR, &xy[k])))
            return rc;
    }
    return 0;
}

static int follow_pair(ctx *c, pair *p, void *arg)
{
    mur_scene_camera *cam = arg;
    int rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key);
    if (rc)
        return rc;
    if (!strcmp(p->key, "boid")) {
        cam->follow = MUR_FOLLOW_BOID;
        return boid_named(c, p->v, "the camera follows", &cam->target);
    }
    cam->follow = MUR_FOLLOW_PREDATOR;   /* its index is checked in camera_finish */
    c->follow = p->v;
    return integer(c, p->v, "predator", 0, MUR_SCENE_MAX_ENTRIES, &cam->target);
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
        return number(c, p->v, "zoom", ZOOM_MIN, ZOOM_MAX, &cam->zoom);
    if (!strcmp(p->key, "smooth")) {
        cam->smooth_given = 1;
        return time_value(c, p->v, "smooth", 0, 60, &cam->smooth);
    }
    if (!strcmp(p->key, "boid_size")) {
        static const char *const sizes[] = {"zoom", "fixed", NULL};
        return choice(c, p->v, "boid_size", sizes, &cam->fixed_boids);
    }
    if (p->v->type == YAML_SCALAR_NODE) {
        static const char *const kinds_[] = {"flock", NULL};
        int k;
        if ((rc = choice(c, p->v, "follow", kinds_, &k)))
            return rc;
        cam->follow = MUR_FOLLOW_FLOCK;
        return 0;
    }
    if (p->v->type == YAML_MAPPING_NODE && p->v->data.mapping.pairs.top - p->v->data.mapping.pairs.start != 1)
        return fail_at(c, p->v, "'follow' is flock, {boid: N} or {predator: K}");
    return each_pair(c, p->v, "follow", follow_keys, follow_pair, cam);
}

static int camera_section(ctx *c, yaml_node_t *map)
{
    c->s->camera.given = 1;
    return each_pair(c, map, "camera", camera_keys, camera_pair, &c->s->camera);
}

/* A `camera.*` key of a timeline entry's set or ramp. */
static int camera_change(ctx *c, pair *p, changes *ch)
{
    int which = -1, rc;
    for (int k = 0; camera_set_keys[k]; k++)
        if (!strcmp(camera_set_keys[k], p->key))
            which = k;
    if (which < 0 && (!strcmp(p->key, "camera.smooth") || !strcmp(p->key, "camera.boid_size")))
        return fail_at(c, p->k, "'%s' is set once, in the scene's camera: section; the timeline may "
                                "change camera.zoom, camera.center, camera.x, camera.y and camera.follow",
                       p->key);
    if (which < 0)
        return unknown(c, p->k, "camera setting", p->key, camera_set_keys);
    if (!ch->cue)
        return fail_at(c, p->k, "'%s' belongs in a timeline entry's set or ramp (the scene's "
                                "camera: section gives its start)", p->key);
    mur_cue *q = ch->cue;
    mur_camera_change add[2];
    int nadd = 1;
    if (which == 4) {   /* follow: what the camera settles on from now */
        if (ch->ramp)
            return fail_at(c, p->k, "'camera.follow' is set, not ramped: the camera settles on its new "
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
        if ((rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key)) ||
            (rc = number(c, p->v, p->key, zoom ? ZOOM_MIN : -CAMERA_FAR, zoom ? ZOOM_MAX : CAMERA_FAR, &v)))
            return rc;
        add[0] = (mur_camera_change){.key = zoom ? MUR_CAMERA_ZOOM : which == 2 ? MUR_CAMERA_X : MUR_CAMERA_Y,
                                     .ramp = ch->ramp, .value = v};
    }
    mur_camera_change *l = mur_realloc(q->camera, (size_t)(q->ncamera + nadd) * sizeof *l);
    if (!l)
        return oom(c);
    q->camera = l;
    for (int k = 0; k < nadd; k++)
        q->camera[q->ncamera++] = add[k];
    c->s->camera.given = 1;
    return 0;
}

/* Once every key is read: the predator followed exists, and an unset
 * centre is the world's. */
static int camera_finish(ctx *c)
{
    mur_scene *s = c->s;
    mur_scene_camera *cam = &s->camera;
    if (cam->follow == MUR_FOLLOW_PREDATOR && cam->target >= s->npredators)
        return fail_at(c, c->follow, "the camera follows predator %d, but the scene has %d%s",
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

/* ---- timeline ------------------------------------------------------------ */

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
        if ((rc = choice(c, v, "position", place_names, &k)))
            return rc;
        st->place = (mur_place)k;
        return 0;
    }
    if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.top - v->data.sequence.items.start != 2)
        return fail_at(c, v, "'position' must be top, bottom, centre or [x, y] (fractions of the frame)");
    yaml_node_t *x = node(c, v->data.sequence.items.start[0]), *y = node(c, v->data.sequence.items.start[1]);
    if (!x || !y)
        return fail_at(c, v, "scene is too large or too deeply aliased");
    if ((rc = need_type(c, x, YAML_SCALAR_NODE, "position")) || (rc = need_type(c, y, YAML_SCALAR_NODE, "position")) ||
        (rc = number(c, x, "position x", 0, 1, &st->x)) || (rc = number(c, y, "position y", 0, 1, &st->y)))
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
    if ((rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
        return rc;
    if (!strcmp(p->key, "text"))
        return text(c, p->v, "text", MUR_SCENE_MAX_CAPTION, &q->caption);
    if (!strcmp(p->key, "size"))
        return number(c, p->v, "size", 0.5, 4, &q->caption_style.size);
    if (!strcmp(p->key, "align")) {
        if ((rc = choice(c, p->v, "align", align_names, &k)))
            return rc;
        q->caption_style.align = (mur_align)k;
        return 0;
    }
    return time_value(c, p->v, "for", 0.1, MUR_SCENE_MAX_SECONDS, &q->caption_for);
}

static int title_pair(ctx *c, pair *p, void *arg)
{
    mur_cue *q = arg;
    int rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key);
    if (rc)
        return rc;
    if (!strcmp(p->key, "text"))
        return text(c, p->v, "text", MUR_SCENE_MAX_TITLE, &q->title);
    if (!strcmp(p->key, "subtitle"))
        return text(c, p->v, "subtitle", MUR_SCENE_MAX_TITLE, &q->subtitle);
    return time_value(c, p->v, "for", 0.1, MUR_SCENE_MAX_SECONDS, &q->title_for);
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
        if ((rc = choice(c, v, key, showable_names(names), &k)))
            return rc;
        *out |= 1u << k;   /* an overlay kind, or MUR_LOOK_PREDATORS */
        return 0;
    }
    if ((rc = need_type(c, v, YAML_SEQUENCE_NODE, key)))
        return rc;
    for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
        yaml_node_t *item = node(c, *it);
        if (!item)
            return fail_at(c, v, "scene is too large or too deeply aliased");
        if ((rc = need_type(c, item, YAML_SCALAR_NODE, key)) || (rc = choice(c, item, key, showable_names(names), &k)))
            return rc;
        *out |= 1u << k;   /* an overlay kind, or MUR_LOOK_PREDATORS */
    }
    return 0;
}

static const char *const ease_names[] = {"step", "linear", "smooth", NULL};
static const char *const event_names[] = {"none", "scatter", "reset", "freeze", "unfreeze",
                                          "fade-in", "fade-out", "title", NULL};

static const char *const caption_keys[] = {"text", "for", "position", "size", "align", NULL};
static const char *const title_keys[] = {"text", "subtitle", "for", NULL};

static int cue_pair(ctx *c, pair *p, void *arg)
{
    cue_arg *a = arg;
    mur_cue *q = a->cue;
    int rc, k;
    if (!strcmp(p->key, "at"))
        return time_value(c, p->v, "at", 0, MUR_SCENE_MAX_SECONDS, &q->at);
    if (!strcmp(p->key, "set") || !strcmp(p->key, "ramp")) {
        int ramp = p->key[0] == 'r';
        changes ch = {ramp ? q->ramp : q->set, ramp ? q->nramp : q->nset,
                      ramp ? q->nramp : q->nset, NULL, ramp, q};
        rc = settings_map(c, p->v, p->key, &ch);
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
        if ((rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
            return rc;
        return time_value(c, p->v, "over", 0, MUR_SCENE_MAX_SECONDS, &q->over);
    }
    if (!strcmp(p->key, "ease")) {
        if ((rc = choice(c, p->v, "ease", ease_names, &k)))
            return rc;
        q->ease = (mur_ease)k;
        return 0;
    }
    if (!strcmp(p->key, "caption")) {
        if (p->v->type == YAML_SCALAR_NODE)
            return text(c, p->v, "caption", MUR_SCENE_MAX_CAPTION, &q->caption);
        if ((rc = each_pair(c, p->v, "caption", caption_keys, caption_pair, q)))
            return rc;
        if (!q->caption)
            return fail_at(c, p->v, "caption needs 'text'");
        return 0;
    }
    if (!strcmp(p->key, "show") || !strcmp(p->key, "hide"))
        return overlay_set(c, p->v, p->key, p->key[0] == 's' ? &q->show : &q->hide);
    if (!strcmp(p->key, "title")) {
        if (p->v->type == YAML_SCALAR_NODE)
            return text(c, p->v, "title", MUR_SCENE_MAX_TITLE, &q->title);
        if ((rc = each_pair(c, p->v, "title", title_keys, title_pair, q)))
            return rc;
        if (!q->title)
            return fail_at(c, p->v, "title needs 'text'");
        return 0;
    }
    if (!strcmp(p->key, "chapter")) {
        if ((rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
            return rc;
        return text(c, p->v, "chapter", MUR_SCENE_MAX_TITLE, &q->chapter);
    }
    /* event */
    if ((rc = choice(c, p->v, "event", event_names + 1, &k)))
        return rc;
    q->event = (mur_event)(k + 1);
    return 0;
}

static void free_cue(mur_cue *q)
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
static int timeline_valid(ctx *c, const mur_params *base, const char *condition)
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

static const char *const cue_keys[] = {"at",    "set",  "ramp", "over",  "ease",    "caption",
                                       "event", "show", "hide", "title", "chapter", NULL};

static int timeline(ctx *c, yaml_node_t *seq)
{
    mur_scene *s = c->s;
    int rc = need_type(c, seq, YAML_SEQUENCE_NODE, "timeline");
    if (rc)
        return rc;
    long n = seq->data.sequence.items.top - seq->data.sequence.items.start;
    if (n > MUR_SCENE_MAX_ENTRIES)
        return fail_at(c, seq, "timeline has %ld entries (at most %d)", n, MUR_SCENE_MAX_ENTRIES);
    if (n && !(s->cues = mur_calloc((size_t)n, sizeof *s->cues)))
        return oom(c);
    for (long i = 0; i < n; i++) {
        yaml_node_t *item = node(c, seq->data.sequence.items.start[i]);
        if (!item)
            return fail_at(c, seq, "scene is too large or too deeply aliased");
        mur_cue *q = &s->cues[s->ncues++];
        q->at = -1;
        q->ease = MUR_EASE_LINEAR;
        q->caption_for = 4;
        q->caption_style.size = 1;
        q->title_for = 3;
        q->line = (int)item->start_mark.line + 1;
        q->col = (int)item->start_mark.column + 1;
        cue_arg a = {q, NULL, NULL};
        if ((rc = each_pair(c, item, "timeline entry", cue_keys, cue_pair, &a)))
            return rc;
        if (q->at < 0)
            return fail_at(c, item, "timeline entry needs 'at' (a time like 10s)");
        int ramps = q->nramp;
        for (int k = 0; k < q->ncamera; k++)
            ramps += q->camera[k].ramp;
        if (ramps && !(q->over > 0))
            return fail_at(c, a.ramp_node, "'ramp' needs 'over' (a duration > 0)");
        int fades = q->show || q->hide || q->event == MUR_EVENT_FADE_IN || q->event == MUR_EVENT_FADE_OUT;
        if (!ramps && !fades && a.over_node)
            return fail_at(c, a.over_node, "'over' belongs to a 'ramp', a show, a hide or a fade");
        /* a fade takes a second unless told; a show or hide is at once */
        q->fade_over = a.over_node ? q->over : (fades && !q->show && !q->hide ? 1 : 0);
        if (!ramps)
            q->over = 0;
        if (!q->nset && !q->nramp && !q->ncamera && !q->caption && !q->event && !q->show && !q->hide &&
            !q->title && !q->chapter)
            return fail_at(c, item, "timeline entry does nothing: give set, ramp, caption, event, "
                                    "show, hide, title or chapter");
    }
    /* Sort by time; entries at one time keep file order (line, then column,
     * is file order), so several entries at one time apply in that order. */
    if (s->ncues > 1)
        qsort(s->cues, (size_t)s->ncues, sizeof *s->cues, cue_order);
    return 0;
}

/* ---- predators ----------------------------------------------------------- */

static const char *const expr_names[] = {"t", "W", "H", NULL};

/* The names an expression may use. libavutil's evaluator also offers
 * while(), root() and taylor() (loops a file could make endless or
 * exponential), st(), ld() and random() (state kept inside the parsed
 * expression between evaluations, so a predator's position would depend on
 * how often it was asked, breaking "a pure function of time"), time() (the
 * wall clock) and print() (writes to stderr); gcd() and bit operations cast
 * any double to an integer. Only the pure, bounded functions below pass. */
static const char *const expr_allowed[] = {
    "t", "W", "H", "PI", "E", "PHI",
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
    "exp", "log", "pow", "sqrt", "hypot", "abs", "sgn", "floor", "ceil", "trunc", "round",
    "mod", "min", "max", "clip", "between", "lerp", "if", "ifnot", "not", "eq", "gt", "gte",
    "lt", "lte", "isnan", "isinf", "squish", "gauss", NULL};

/* SI suffixes av_strtod reads after a number ("2k" = 2000). */
static int si_suffix(char ch) { return ch && strchr("yzafpnumcdhkKMGTPEZY", ch) != NULL; }

static int expression_names(ctx *c, yaml_node_t *n, const char *key, const char *src)
{
    for (const char *p = src; *p;) {
        unsigned char ch = (unsigned char)*p;
        if ((ch >= '0' && ch <= '9') || ch == '.') {
            char *end;
            strtod(p, &end);
            p = end > p ? end : p + 1;
            if (si_suffix(*p))
                p += 1 + (p[1] == 'i');
            if (*p == 'B')
                p++;
            continue;
        }
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_')) {
            p++;
            continue;
        }
        char word[32];
        size_t len = 0;
        while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
               *p == '_') {
            if (len < sizeof word - 1)
                word[len] = *p;
            len++;
            p++;
        }
        word[len < sizeof word ? len : sizeof word - 1] = 0;
        int ok = len < sizeof word;
        for (int i = 0; ok && expr_allowed[i]; i++)
            if (!strcmp(expr_allowed[i], word))
                goto next;
        const char *near = nearest(word, expr_allowed);
        return fail_at(c, n, "'%s' expression: '%s' is not a variable or function it may use%s%s%s "
                             "(variables: t, W, H; constants PI, E; pure functions like sin, cos, "
                             "min, max, if; no while, st/ld, random or time)",
                       key, word, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    next:;
    }
    return 0;
}

static int expression(ctx *c, yaml_node_t *n, const char *key, char **src, void **eval)
{
    int rc = need_type(c, n, YAML_SCALAR_NODE, key);
    if (rc || (rc = text(c, n, key, MUR_SCENE_MAX_EXPRESSION, src)))
        return rc;
    if (*eval) {
        av_expr_free(*eval);
        *eval = NULL;
    }
    if ((rc = expression_names(c, n, key, *src)))
        return rc;
    AVExpr *e = NULL;
    /* The log offset lifts the evaluator's own complaints far below any
     * level libav prints at: library code never prints, and the message
     * below says what is wrong. */
    int err = av_expr_parse(&e, *src, expr_names, NULL, NULL, NULL, NULL, AV_LOG_TRACE + 64, NULL);
    if (err < 0 || !e)
        return fail_at(c, n, "'%s': cannot parse expression '%s' (variables: t, W, H; functions like sin, cos; constant PI)",
                       key, *src);
    *eval = e;
    return 0;
}

static int path(ctx *c, yaml_node_t *seq, mur_script_predator *pr)
{
    int rc = need_type(c, seq, YAML_SEQUENCE_NODE, "path");
    if (rc)
        return rc;
    long n = seq->data.sequence.items.top - seq->data.sequence.items.start;
    if (n < 1 || n > MUR_SCENE_MAX_ENTRIES)
        return fail_at(c, seq, "'path' needs 1 to %d keyframes [time, x, y]", MUR_SCENE_MAX_ENTRIES);
    if (!(pr->path = mur_calloc((size_t)n, sizeof *pr->path)))
        return oom(c);
    for (long i = 0; i < n; i++) {
        yaml_node_t *key = node(c, seq->data.sequence.items.start[i]);
        if ((rc = need_type(c, key, YAML_SEQUENCE_NODE, "path keyframe")))
            return rc;
        if (key->data.sequence.items.top - key->data.sequence.items.start != 3)
            return fail_at(c, key, "a path keyframe is [time, x, y]");
        yaml_node_t *t = node(c, key->data.sequence.items.start[0]);
        yaml_node_t *x = node(c, key->data.sequence.items.start[1]);
        yaml_node_t *y = node(c, key->data.sequence.items.start[2]);
        if ((rc = need_type(c, t, YAML_SCALAR_NODE, "time")) ||
            (rc = need_type(c, x, YAML_SCALAR_NODE, "x")) ||
            (rc = need_type(c, y, YAML_SCALAR_NODE, "y")) ||
            (rc = time_value(c, t, "time", 0, MUR_SCENE_MAX_SECONDS, &pr->path[i][0])) ||
            (rc = number(c, x, "x", -MUR_MAX_WORLD, MUR_MAX_WORLD, &pr->path[i][1])) ||
            (rc = number(c, y, "y", -MUR_MAX_WORLD, MUR_MAX_WORLD, &pr->path[i][2])))
            return rc;
        if (i > 0 && !(pr->path[i][0] > pr->path[i - 1][0]))
            return fail_at(c, t, "path keyframe times must increase");
        pr->npath++;
    }
    return 0;
}

static int predator_pair(ctx *c, pair *p, void *arg)
{
    mur_script_predator *pr = arg;
    static const char *const modes[] = {"flee", "attract", NULL};
    static const char *const interp[] = {"linear", "smooth", NULL};
    const char *k = p->key;
    int rc;
    if (!strcmp(k, "path"))
        return path(c, p->v, pr);
    if (!strcmp(k, "x"))
        return expression(c, p->v, "x", &pr->x_expr, &pr->x_eval);
    if (!strcmp(k, "y"))
        return expression(c, p->v, "y", &pr->y_expr, &pr->y_eval);
    if ((rc = need_type(c, p->v, YAML_SCALAR_NODE, k)))
        return rc;
    if (!strcmp(k, "mode")) return choice(c, p->v, k, modes, &pr->attract);
    if (!strcmp(k, "interpolate")) return choice(c, p->v, k, interp, &pr->smooth);
    if (!strcmp(k, "radius")) return number(c, p->v, k, 0, 1e6, &pr->radius);
    if (!strcmp(k, "strength")) return number(c, p->v, k, 0, 1e3, &pr->strength);
    if (!strcmp(k, "from")) return time_value(c, p->v, k, 0, MUR_SCENE_MAX_SECONDS, &pr->from);
    return time_value(c, p->v, k, 0, MUR_SCENE_MAX_SECONDS, &pr->until);
}

/* An expression that is inf or NaN wherever the predator is active would
 * hide it for the whole video without a word: sample its first ten seconds
 * (after `from`) and refuse it when no sample is a number. */
static int expressions_finite(ctx *c, yaml_node_t *item, const mur_script_predator *pr)
{
    double start = isfinite(pr->from) && pr->from > 0 ? pr->from : 0;
    double end = fmin(pr->until, start + 10);
    for (int axis = 0; axis < 2; axis++) {
        void *e = axis ? pr->y_eval : pr->x_eval;
        int finite = 0;
        double bad = NAN;
        for (int k = 0; k <= 40 && !finite; k++) {
            double vars[3] = {start + (end - start) * k / 40, c->s->params.width, c->s->params.height};
            double v = av_expr_eval(e, vars, NULL);
            finite = isfinite(v);
            if (k == 0)
                bad = v;
        }
        if (!finite)
            return fail_at(c, lookup(c, item, axis ? "y" : "x"),
                           "'%s' = \"%s\" is not a finite number for t in [%gs, %gs] (%g at t = %gs)",
                           axis ? "y" : "x", axis ? pr->y_expr : pr->x_expr, start, end, bad, start);
    }
    return 0;
}

static void free_predator(mur_script_predator *pr)
{
    mur_free(pr->path);
    mur_free(pr->x_expr);
    mur_free(pr->y_expr);
    av_expr_free(pr->x_eval);
    av_expr_free(pr->y_eval);
}

static const char *const predator_keys[] = {"mode", "radius", "strength", "from", "until",
                                            "path", "interpolate", "x", "y", NULL};

static int predators(ctx *c, yaml_node_t *seq)
{
    mur_scene *s = c->s;
    int rc = need_type(c, seq, YAML_SEQUENCE_NODE, "predators");
    if (rc)
        return rc;
    long n = seq->data.sequence.items.top - seq->data.sequence.items.start;
    if (n > MUR_MAX_PREDATORS)
        return fail_at(c, seq, "at most %d predators", MUR_MAX_PREDATORS);
    if (n && !(s->predators = mur_calloc((size_t)n, sizeof *s->predators)))
        return oom(c);
    for (long i = 0; i < n; i++) {
        yaml_node_t *item = node(c, seq->data.sequence.items.start[i]);
        if (!item)
            return fail_at(c, seq, "scene is too large or too deeply aliased");
        mur_script_predator *pr = &s->predators[s->npredators++];
        pr->attract = s->preset->predator.attract;
        pr->radius = s->preset->predator.radius;
        pr->strength = s->preset->predator.strength;
        pr->from = -INFINITY;
        pr->until = INFINITY;
        pr->smooth = 1;
        if ((rc = each_pair(c, item, "predator", predator_keys, predator_pair, pr)))
            return rc;
        int has_expr = pr->x_expr || pr->y_expr;
        if (pr->path && has_expr)
            return fail_at(c, item, "a predator has either a 'path' or 'x'/'y' expressions, not both");
        if (!pr->path && !(pr->x_expr && pr->y_expr))
            return fail_at(c, item, "a predator needs a 'path' of keyframes or both 'x' and 'y'");
        if (pr->until <= pr->from)
            return fail_at(c, item, "predator 'until' must come after 'from'");
        if (has_expr && (rc = expressions_finite(c, item, pr)))
            return rc;
    }
    return 0;
}

/* ---- experiment, layout -------------------------------------------------- */

/* A condition's own keys, label, colour (or color) and replay, beside the flock
 * settings it changes. */
typedef struct {
    changes ch;
    mur_condition *q;
} condition_keys;

static int condition_key(ctx *c, pair *p, void *arg)
{
    condition_keys *a = arg;
    if (!strcmp(p->key, "label"))
        return text(c, p->v, "label", MUR_SCENE_MAX_NAME, &a->q->label);
    if (!strcmp(p->key, "colour") || !strcmp(p->key, "color")) {   /* both spellings, as look.boid.color */
        if (a->q->has_colour)
            return fail_at(c, p->v, "the condition's colour is given twice (colour and color are one key)");
        a->q->has_colour = 1;
        return colour(c, p->v, p->key, &a->q->colour);
    }
    if (strcmp(p->key, "replay"))
        return one_setting(c, p, &a->ch);
    int rc = recording(c, p->v, "replay", -1, &a->q->replay);
    if (rc)
        return rc;
    mur_recording_info in;
    mur_recording_describe(a->q->replay, &in);
    /* the condition's count is its recording's (what work bounds and a
     * trace's rows are sized by) */
    return add_change(c, &a->ch, mur_setting_find("count"), in.max_boids);
}

static int condition_pair(ctx *c, pair *p, void *arg)
{
    (void)arg;
    mur_scene *s = c->s;
    mur_condition *q = &s->conditions[s->nconditions];
    if (strlen(p->key) > MUR_SCENE_MAX_NAME)
        return fail_at(c, p->k, "condition name is longer than %d characters", MUR_SCENE_MAX_NAME);
    int bad = printable(c, p->k, "condition name", p->key);   /* a table's cell, a terminal's line */
    if (bad)
        return bad;
    if (!(q->name = mur_strdup(p->key)))
        return oom(c);
    s->nconditions++;
    if (p->v->type == YAML_SCALAR_NODE && !*scalar(p->v))
        return 0;  /* `all:` with nothing after it */
    yaml_node_t *count = lookup(c, p->v, "count"), *replay = lookup(c, p->v, "replay");
    if (count && replay)
        return fail_at(c, count, "a replayed flock's count is the recording's: remove 'count'");
    condition_keys ck = {{NULL, 0, 0, NULL, 0, NULL}, q};
    int rc = each_pair(c, p->v, p->key, NULL, condition_key, &ck);
    q->set = ck.ch.list;
    q->nset = ck.ch.n;
    if (rc)
        return rc;
    mur_params pp = s->params;
    mur_scene_apply(q->set, q->nset, &pp);
    return params_ok(c, &pp, p->v);
}

/* experiment.twin: `shift: half-box`, `shift: [dx, dy]` or `perturb: D`. */
static int twin_pair(ctx *c, pair *p, void *arg)
{
    mur_twin_spec *tw = arg;
    int rc;
    if (!strcmp(p->key, "perturb")) {
        tw->kind = MUR_TWIN_PERTURB;
        if ((rc = need_type(c, p->v, YAML_SCALAR_NODE, "perturb")))
            return rc;
        return number(c, p->v, "perturb", 1e-15, 100, &tw->perturb);
    }
    tw->kind = MUR_TWIN_SHIFT;
    const char *v = scalar(p->v);
    if (v && !strcmp(v, "half-box")) {
        tw->half_box = 1;
        return 0;
    }
    long n = p->v->type == YAML_SEQUENCE_NODE ? p->v->data.sequence.items.top - p->v->data.sequence.items.start : 0;
    if (n != 2)
        return fail_at(c, p->v, "'shift' must be half-box or [dx, dy] in world units");
    for (int k = 0; k < 2; k++)
        if ((rc = number(c, node(c, p->v->data.sequence.items.start[k]), "shift", -MUR_MAX_WORLD, MUR_MAX_WORLD,
                         &tw->shift[k])))
            return rc;
    return 0;
}

static const char *const twin_keys[] = {"shift", "perturb", NULL};

static int twin_map(ctx *c, yaml_node_t *map, mur_twin_spec *tw)
{
    *tw = (mur_twin_spec){0};
    int rc = each_pair(c, map, "twin", twin_keys, twin_pair, tw);
    if (rc)
        return rc;
    if (lookup(c, map, "shift") && lookup(c, map, "perturb"))
        return fail_at(c, map, "'twin' takes 'shift' or 'perturb', not both");
    if (tw->kind == MUR_TWIN_NONE)
        return fail_at(c, map, "'twin' needs 'shift' (half-box or [dx, dy]) or 'perturb'");
    return 0;
}

/* A duration in whole ticks (`100t`, or seconds at ticks_per_second). */
static int ticks_value(ctx *c, const yaml_node_t *n, const char *key, long *out)
{
    double secs;
    int rc = need_type(c, n, YAML_SCALAR_NODE, key);
    if (rc || (rc = time_value(c, n, key, 0, 1e7 / c->tps, &secs)))
        return rc;
    *out = lround(secs * c->tps);
    if (*out < 1)
        return fail_at(c, n, "'%s' must be at least one tick", key);
    return 0;
}

/* experiment.measure: `at: last`, or `window: 100t` with `every: 10t`. */
static int measure_pair(ctx *c, pair *p, void *arg)
{
    mur_measure *m = arg;
    if (!strcmp(p->key, "at")) {
        static const char *const at[] = {"last", NULL};
        int which;
        int rc = need_type(c, p->v, YAML_SCALAR_NODE, "at");
        return rc ? rc : choice(c, p->v, "at", at, &which);
    }
    if (!strcmp(p->key, "radius"))   /* above 0; the world bounds it once it is known (scene_valid) */
        return number(c, p->v, "radius", 1e-9, 1e9, &m->radius);
    if (!strcmp(p->key, "window")) {
        m->window_line = (int)p->v->start_mark.line + 1;
        m->window_col = (int)p->v->start_mark.column + 1;
    }
    return ticks_value(c, p->v, p->key, !strcmp(p->key, "window") ? &m->window : &m->every);
}

static const char *const measure_keys[] = {"at", "window", "every", "radius", NULL};

static int measure_map(ctx *c, yaml_node_t *map, mur_measure *m)
{
    *m = (mur_measure){.every = 1};
    int rc = each_pair(c, map, "measure", measure_keys, measure_pair, m);
    if (rc)
        return rc;
    if (lookup(c, map, "at") && lookup(c, map, "window"))
        return fail_at(c, map, "'measure' takes 'at: last' or a 'window', not both");
    if (lookup(c, map, "every") && !m->window)
        return fail_at(c, lookup(c, map, "every"), "'every' samples a 'window': give one");
    if (m->window && m->every > m->window)
        return fail_at(c, lookup(c, map, "every"), "'every' (%ld ticks) is longer than the window (%ld ticks)",
                       m->every, m->window);
    return 0;
}

/* experiment.until: metric: "> 0.9" (>, >=, <, <=), each metric once. */
static int until_pair(ctx *c, pair *p, void *arg)
{
    mur_scene *s = arg;
    static const char *const ops[] = {">=", "<=", ">", "<"};
    static const mur_until_op codes[] = {MUR_UNTIL_GE, MUR_UNTIL_LE, MUR_UNTIL_GT, MUR_UNTIL_LT};
    mur_until *u = &s->until[s->nuntil];
    int rc = metric_name(c, p->k, "until", &u->metric);
    if (rc || (rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
        return rc;
    const char *v = scalar(p->v);
    while (*v == ' ')
        v++;
    int op = 0;
    while (op < 4 && strncmp(v, ops[op], strlen(ops[op])))
        op++;
    if (op == 4 || parse_double(v + strlen(ops[op]), &u->value))
        return fail_at(c, p->v, "'until.%s' must be a comparison like \"> 0.9\" (>, >=, <, <=), not '%s'",
                       p->key, scalar(p->v));
    u->op = codes[op];
    s->nuntil++;
    return 0;
}

static int until_map(ctx *c, yaml_node_t *map, mur_scene *s)
{
    s->nuntil = 0;
    int rc = need_type(c, map, YAML_MAPPING_NODE, "until");
    if (rc)
        return rc;
    long n = map->data.mapping.pairs.top - map->data.mapping.pairs.start;
    if (n < 1 || n > MUR_METRIC_COUNT)
        return fail_at(c, map, "'until' needs 1 to %d metrics, each with a comparison", MUR_METRIC_COUNT);
    return each_pair(c, map, "until", NULL, until_pair, s);
}

static int experiment_pair(ctx *c, pair *p, void *arg)
{
    mur_scene *s = arg;
    int rc;
    if (!strcmp(p->key, "runs")) {
        if ((rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
            return rc;
        return integer(c, p->v, "runs", 1, MUR_MAX_RUNS, &s->runs);
    }
    if (!strcmp(p->key, "ticks")) {
        if ((rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key)))
            return rc;
        return integer(c, p->v, "ticks", 1, MUR_MAX_RUN_TICKS, &s->ticks);
    }
    if (!strcmp(p->key, "twin"))
        return twin_map(c, p->v, &s->twin);
    if (!strcmp(p->key, "measure"))
        return measure_map(c, p->v, &s->measure);
    if (!strcmp(p->key, "until"))
        return until_map(c, p->v, s);
    if (!strcmp(p->key, "metrics")) {
        if ((rc = need_type(c, p->v, YAML_SEQUENCE_NODE, p->key)))
            return rc;
        s->nmetrics = 0;
        for (yaml_node_item_t *it = p->v->data.sequence.items.start; it < p->v->data.sequence.items.top; it++) {
            if (s->nmetrics == 8)
                return fail_at(c, p->v, "at most 8 metrics");
            if ((rc = metric_name(c, node(c, *it), "metrics", &s->metrics[s->nmetrics++])))
                return rc;
        }
        return 0;
    }
    if (!strcmp(p->key, "baseline")) {
        c->baseline = p->v;
        return need_type(c, p->v, YAML_SCALAR_NODE, p->key);
    }
    if (!strcmp(p->key, "sweep")) {
        if (s->nconditions)
            return fail_at(c, p->k, "'sweep' makes the conditions: give 'sweep' or 'conditions', not both");
        return mur_sweep_load(s, c->doc, p->v, c->name, c->err);
    }
    /* conditions */
    if (s->nsweep)
        return fail_at(c, p->k, "'sweep' makes the conditions: give 'sweep' or 'conditions', not both");
    if ((rc = need_type(c, p->v, YAML_MAPPING_NODE, p->key)))
        return rc;
    long n = p->v->data.mapping.pairs.top - p->v->data.mapping.pairs.start;
    if (n < 1 || n > 64)
        return fail_at(c, p->v, "'conditions' needs 1 to 64 named conditions");
    for (int i = 0; i < s->nconditions; i++) {
        mur_free(s->conditions[i].name);
        mur_free(s->conditions[i].set);
        mur_recording_destroy(s->conditions[i].replay);
        mur_free(s->conditions[i].label);
    }
    mur_free(s->conditions);
    s->nconditions = 0;
    if (!(s->conditions = mur_calloc((size_t)n, sizeof *s->conditions)))
        return oom(c);
    return each_pair(c, p->v, "conditions", NULL, condition_pair, NULL);
}

static int layout_pair(ctx *c, pair *p, void *arg)
{
    mur_scene *s = arg;
    static const char *const panels[] = {"none", "conditions", NULL};
    int rc = need_type(c, p->v, YAML_SCALAR_NODE, p->key);
    if (!rc && !strcmp(p->key, "columns"))
        return integer(c, p->v, "columns", 1, 64, &s->columns);
    return rc ? rc : choice(c, p->v, "panels", panels, &s->panels);
}

/* experiment.baseline: the condition it names, among those just read;
 * `none` turns paired effects off (a condition of that name too).
 * Unnamed, the first condition is the baseline when there are two or more
 * (the experiments' issue: effects by default, against the condition
 * written first). */
static int baseline(ctx *c)
{
    mur_scene *s = c->s;
    if (!c->baseline) {
        s->baseline = 0;
        s->effects = s->nconditions > 1;
        return 0;
    }
    const char *name = scalar(c->baseline);
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
        return fail_at(c, c->baseline, "'baseline' names a condition to compare with, and there are none: "
                                        "give 'conditions' or a 'sweep'");
    mur_error e;
    mur_scene_find_condition(s, name, &e);
    return fail_at(c, c->baseline, "baseline '%s' %s", name, strstr(e.msg, "is not a condition"));
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

/* ---- the document ------------------------------------------------------- */

static const char *const video_keys[] = {"width", "height", "fps", "ticks_per_second",
                                         "duration", "warmup", "output", "quality", "chapters", NULL};
static const char *const look_keys[] = {"background", "boid", "trails", "overlays", NULL};
static const char *const exp_keys[] = {"runs", "ticks", "conditions", "metrics", "sweep", "baseline", "twin",
                                       "measure", "until", NULL};
static const char *const layout_keys[] = {"panels", "columns", NULL};

static int top_pair(ctx *c, pair *p, void *arg)
{
    (void)arg;
    mur_scene *s = c->s;
    const char *k = p->key;
    int rc;
    if (!strcmp(k, "title"))
        return text(c, p->v, k, MUR_SCENE_MAX_TITLE, &s->title);
    if (!strcmp(k, "seed")) {
        double v;
        if ((rc = number(c, p->v, k, 0, 9007199254740992.0, &v)))
            return rc;
        if (v != floor(v))
            return fail_at(c, p->v, "'seed' must be a whole number");
        s->seed = (uint64_t)v;
        return 0;
    }
    if (!strcmp(k, "model"))
        return 0;  /* read first, in load() */
    if (!strcmp(k, "world")) {
        changes ch = {NULL, 0, -1, &s->params, 0, NULL};
        if ((rc = each_pair(c, p->v, "world", world_keys, world_pair, &ch)))
            return rc;
        return params_ok(c, &s->params, p->v);
    }
    if (!strcmp(k, "flock")) {
        changes ch = {NULL, 0, -1, &s->params, 0, NULL};
        c->flock_node = p->v;
        if ((rc = each_pair(c, p->v, "flock", NULL, flock_pair, &ch)) || (rc = flock_source(c, p->v)))
            return rc;
        return params_ok(c, &s->params, p->v);
    }
    if (!strcmp(k, "video"))
        return each_pair(c, p->v, "video", video_keys, video_pair, s);
    if (!strcmp(k, "look"))
        return each_pair(c, p->v, "look", look_keys, look_pair, s);
    if (!strcmp(k, "timeline"))
        return timeline(c, p->v);
    if (!strcmp(k, "predators"))
        return predators(c, p->v);
    if (!strcmp(k, "experiment")) {
        if ((rc = each_pair(c, p->v, "experiment", exp_keys, experiment_pair, s)))
            return rc;
        return baseline(c);
    }
    if (!strcmp(k, "camera"))
        return camera_section(c, p->v);
    return each_pair(c, p->v, "layout", layout_keys, layout_pair, s);
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
    s->preset = mur_preset_find("wrkspc");
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
    s->camera = (mur_scene_camera){.x = NAN, .y = NAN, .zoom = 1, .smooth = NAN};
    s->runs = 25;
    s->ticks = 900;
    s->measure.every = 1;
    s->nmetrics = MUR_METRIC_COUNT;
    for (int k = 0; k < MUR_METRIC_COUNT; k++)
        s->metrics[k] = k;
    /* out/<scene name>.mp4 */
    const char *b = base_name(name);
    size_t len = strlen(b);
    const char *dot = strrchr(b, '.');
    if (dot && dot != b)
        len = (size_t)(dot - b);
    if (!(s->output = mur_malloc(len + 9)))
        return oom(c);
    snprintf(s->output, len + 9, "out/%.*s.mp4", (int)len, b);
    return 0;
}

static const char *const top_keys[] = {"title", "seed", "model", "world", "flock", "video",
                                       "look", "timeline", "predators", "experiment", "layout",
                                       "camera", NULL};

/* Unknown and repeated top-level keys, in one linear pass before anything
 * is read (a file of 100000 repeated keys must not cost n^2). */
static int top_keys_ok(ctx *c, yaml_node_t *root)
{
    unsigned seen = 0;
    for (yaml_node_pair_t *it = root->data.mapping.pairs.start; it < root->data.mapping.pairs.top;
         it++) {
        yaml_node_t *kn = node(c, it->key);
        const char *k = scalar(kn);
        if (!kn)
            return fail_at(c, root, "scene is too large or too deeply aliased");
        if (!k)
            return fail_at(c, kn, "keys of the scene must be plain names");
        int i = 0;
        while (top_keys[i] && strcmp(top_keys[i], k))
            i++;
        if (!top_keys[i])
            return unknown(c, kn, "key", k, top_keys);
        if (seen & (1u << i))
            return fail_at(c, kn, "'%s' is given twice", k);
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
        return oom(c);
    s->predators = pr;
    s->npredators = 1;
    *pr = (mur_script_predator){.attract = pre->predator.attract, .radius = pre->predator.radius,
                                .strength = pre->predator.strength, .from = -INFINITY,
                                .until = INFINITY, .smooth = 1};
    if (!(pr->x_expr = mur_strdup(pre->predator_x)) || !(pr->y_expr = mur_strdup(pre->predator_y)))
        return oom(c);
    AVExpr *x = NULL, *y = NULL;
    int ex = av_expr_parse(&x, pr->x_expr, expr_names, NULL, NULL, NULL, NULL, AV_LOG_TRACE + 64, NULL);
    pr->x_eval = x;
    int ey = av_expr_parse(&y, pr->y_expr, expr_names, NULL, NULL, NULL, NULL, AV_LOG_TRACE + 64, NULL);
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
    yaml_node_t *where = lookup(c, lookup(c, root, "experiment"), "twin");
    int replayed = s->replay != NULL;
    for (int i = 0; i < s->nconditions; i++)
        replayed |= s->conditions[i].replay != NULL;
    if (replayed)
        return fail_at(c, where, "a replayed flock is shown, not stepped: it has no twin");
    for (int i = 0; i < s->ncues; i++) {
        const mur_cue *q = &s->cues[i];
        if (q->event == MUR_EVENT_RESET)
            return fail_at(c, where, "a twin cannot follow a timeline with a reset (line %d): the twin "
                                     "would restart unmoved", q->line);
        for (int k = 0; k < q->nset + q->nramp; k++) {
            const mur_change *ch = k < q->nset ? &q->set[k] : &q->ramp[k - q->nset];
            if (!strcmp(ch->setting->name, "count"))
                return fail_at(c, where, "a twin needs a fixed boid count; the timeline changes it (line %d)",
                               q->line);
            if (s->twin.kind == MUR_TWIN_SHIFT && !strcmp(ch->setting->name, "boundary") &&
                ch->value != MUR_BOUNDARY_WRAP)
                return fail_at(c, where, "a shifted twin needs a wrapping world; the timeline sets "
                                         "another boundary (line %d): use perturb", q->line);
        }
    }
    for (int i = -1; i < s->nconditions && s->twin.kind == MUR_TWIN_SHIFT; i++) {
        mur_params p = s->params;
        if (i >= 0)
            mur_scene_apply(s->conditions[i].set, s->conditions[i].nset, &p);
        if (p.boundary != MUR_BOUNDARY_WRAP)
            return fail_at(c, where, "a shifted twin needs a wrapping world (boundary: wrap)%s%s: "
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
    yaml_node_t *m = lookup(c, lookup(c, root, "experiment"), "measure");
    if (s->measure.window > (long)s->ticks + 1)
        return fail_at(c, lookup(c, m, "window"), "the window (%ld ticks) is longer than the experiment's %d ticks",
                       s->measure.window, s->ticks);
    double world = s->params.width > s->params.height ? s->params.width : s->params.height;
    if (s->measure.radius > world)
        return fail_at(c, lookup(c, m, "radius"), "'radius' = %g is larger than the world (%g x %g)",
                       s->measure.radius, s->params.width, s->params.height);
    s->look.metric_radius = s->measure.radius;   /* a render's readouts measure as the experiment does */
    return 0;
}

static int finish(ctx *c, yaml_node_t *root, yaml_node_t *video)
{
    mur_scene *s = c->s;
    yaml_node_t *where = video ? video : root;
    double ticks = s->duration * s->tps + s->warmup;
    if (ticks > MUR_SCENE_MAX_TICKS)
        return fail_at(c, where, "the video needs %.0f ticks (at most %.0f): shorten duration, "
                                 "warmup or ticks_per_second", ticks, MUR_SCENE_MAX_TICKS);
    double frames = floor(s->duration * s->fps + 1e-9);
    if (frames < 1) {
        yaml_node_t *d = video ? lookup(c, video, "duration") : NULL;
        return fail_at(c, d ? d : where, "the video is %gs at %g fps: less than one frame "
                                         "(duration must be at least %gs)",
                       s->duration, s->fps, 1 / s->fps);
    }
    double pixel_frames = (double)s->width * s->height * frames;
    if (pixel_frames > MUR_SCENE_MAX_PIXEL_FRAMES)
        return fail_at(c, where, "the video is %dx%d pixels x %.0f frames = %.3g pixel-frames "
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
        return fail_at(c, where, "the render needs %.0f boids x %.0f ticks = %.3g boid-ticks "
                                 "(at most %.3g): fewer boids, a shorter video or fewer ticks_per_second",
                       flocks * boids, ticks, flocks * boids * ticks, MUR_SCENE_MAX_BOID_TICKS);
    if (boids * s->look.trail_length > MUR_SCENE_MAX_TRAIL_POINTS)
        return fail_at(c, lookup(c, root, "look"), "trails of %d ticks for %.0f boids are %.3g points "
                                                   "(at most %.3g): shorter trails or fewer boids",
                       s->look.trail_length, boids, boids * s->look.trail_length, MUR_SCENE_MAX_TRAIL_POINTS);
    if (!all_conditions)
        all_conditions = mur_scene_max_count(s, &s->params);
    all_conditions *= flocks;
    double work = (double)s->runs * (s->ticks + s->warmup) * all_conditions;
    if (work > MUR_SCENE_MAX_BOID_TICKS)
        return fail_at(c, lookup(c, root, "experiment"), "the experiment needs %d runs x %.0f ticks "
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
        return fail_at(c, lookup(c, root, "timeline"), "the timeline's %.0f entries and changes, evaluated "
                       "for each of %.0f ticks, are %.3g steps (at most %.3g): fewer entries or a shorter video",
                       changes, ticks, changes * ticks, MUR_SCENE_MAX_TIMELINE_WORK);
    int rc;
    if ((rc = replay_ok(c, root, video)))
        return rc;
    for (int i = 0; (s->ngroups > 1 || s->start) && i < s->nconditions; i++)
        for (int k = 0; k < s->conditions[i].nset && !s->conditions[i].replay; k++)
            if (!strcmp(s->conditions[i].set[k].setting->name, "count"))
                return fail_at(c, lookup(c, root, "experiment"), "condition '%s' sets count, which "
                               "the start decides (%s)", s->conditions[i].name,
                               s->start ? "the saved state's boids" : "the sum of its groups");
    if (!lookup(c, root, "predators") && (rc = preset_predator(c)))
        return rc;
    if ((rc = camera_finish(c)))
        return rc;
    /* Each check walks the timeline once per entry (and twice more per
     * ramp): bounded so a hostile file cannot make loading itself slow;
     * past the bound the driver still stops at the first bad time. */
    double check_work = 3.0 * s->ncues * changes;
    if (check_work <= 5e7 && (rc = timeline_valid(c, &s->params, NULL)))
        return rc;
    if (check_work * s->nconditions <= 5e7)
        for (int i = 0; i < s->nconditions; i++) {
            if (!s->conditions[i].nset)
                continue;
            mur_params p = s->params;
            mur_scene_apply(s->conditions[i].set, s->conditions[i].nset, &p);
            if ((rc = timeline_valid(c, &p, s->conditions[i].name)))
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
    yaml_node_t *model = lookup(c, root, "model");
    if (!model)
        return 0;
    const char *m = scalar(model);
    const char *names[32];
    int np = mur_preset_count() < 31 ? mur_preset_count() : 31;
    for (int i = 0; i < np; i++)
        names[i] = mur_preset_at(i)->name;
    names[np] = NULL;
    if (!m)
        return fail_at(c, model, "'model' must be a preset name");
    if (!(s->preset = mur_preset_find(m)))
        return unknown(c, model, "model", m, names);
    s->params = s->preset->params;
    return 0;
}

/* Leaves s->tps and c->tps from video.ticks_per_second, if the file gives
 * it (video may be NULL). */
static int read_tps(ctx *c, yaml_node_t *video)
{
    mur_scene *s = c->s;
    yaml_node_t *tps = video ? lookup(c, video, "ticks_per_second") : NULL;
    if (!tps)
        return 0;
    int rc;
    if ((rc = need_type(c, tps, YAML_SCALAR_NODE, "ticks_per_second")) ||
        (rc = number(c, tps, "ticks_per_second", 0.01, 10000, &s->tps)))
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
            const char *k = scalar(yaml_document_get_node(c->doc, it->key));
            int when = !k ? 2 : !strcmp(k, first[0]) ? 0 : !strcmp(k, first[1]) ? 1 : 2;
            if (when != pass)
                continue;
            yaml_node_t one = *root;
            one.data.mapping.pairs.start = it;
            one.data.mapping.pairs.top = it + 1;
            rc = each_pair(c, &one, "the scene", top_keys, top_pair, NULL);
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
        return oom(c);
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

/* What the look borrows from the rest of the scene, once it is all read:
 * the title, ticks per second, a panel per condition (the layout's) and
 * their names, captions and predators when the timeline has any (none:
 * the renderer loads no fonts for captions and asks nothing). */
static int fill_look(ctx *c)
{
    mur_scene *s = c->s;
    mur_look *lk = &s->look;
    lk->name = s->path;
    lk->title = s->title;
    lk->tps = s->tps;
    lk->panels = s->panels ? s->nconditions : 1;
    if (lk->panels > 1) {
        const char **labels = mur_malloc((size_t)lk->panels * sizeof *labels);
        if (!labels)
            return oom(c);
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
    lk->group_colors = s->group_colors;
    lk->ngroups = s->ngroups;
    if (s->camera.given) {
        lk->follow = s->camera.follow;
        lk->follow_index = s->camera.target;
        lk->follow_smooth = s->camera.smooth;
        lk->camera_fixed_boids = s->camera.fixed_boids;
        lk->camera_at = look_camera;
    }
    lk->moment_at = mur_look_timeline_used(s) ? look_moment : NULL;
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
    yaml_parser_t parser;
    yaml_document_t doc;
    int have_doc = 0;
    mur_scene *s = mur_calloc(1, sizeof *s);
    if (!s || !yaml_parser_initialize(&parser)) {
        mur_free(s);
        return mur_error_set(err, MUR_ERUN, "%s: out of memory", name);
    }
    ctx c = {name, &doc, err, WALK_BUDGET, 60, s, NULL, NULL, NULL};
    yaml_parser_set_input_string(&parser, (const unsigned char *)src, len);
    if ((rc = load_document(&c, &parser, &have_doc)))
        goto done;
    if (mur_sha256_hex(src, len, s->sha256) || !(s->path = mur_strdup(name)) || (rc = defaults(&c, name))) {
        rc = rc ? rc : oom(&c);
        goto done;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) {
        rc = fail_at(&c, NULL, "the scene is empty");
        goto done;
    }
    if ((rc = need_type(&c, root, YAML_MAPPING_NODE, "the scene")) || (rc = top_keys_ok(&c, root)))
        goto done;
    /* The model first (settings override it) and ticks_per_second (times in
     * ticks need it), whatever order the file gives them in. */
    if ((rc = read_model(&c, root)))
        goto done;
    yaml_node_t *video = lookup(&c, root, "video");
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
    mur_free((void *)s->look.overlays);
    mur_free((void *)s->look.labels);
    for (int i = 0; i < s->ncues; i++)
        free_cue(&s->cues[i]);
    mur_free(s->cues);
    for (int i = 0; i < s->npredators; i++)
        free_predator(&s->predators[i]);
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
    mur_free(s);
}

const char *mur_event_name(mur_event e) { return e <= MUR_EVENT_TITLE ? event_names[e] : "?"; }
const char *mur_ease_name(mur_ease e) { return e <= MUR_EASE_SMOOTH ? ease_names[e] : "?"; }

/* ---- the keys a scene may use ------------------------------------------- */

/* Every key path the loader accepts, read from the very lists it validates
 * with (and the settings table, for the flock), so a key the loader learns
 * is listed here: the docs test holds docs/scenes.md to this list. `set`,
 * `ramp` and each experiment condition take the flock's keys. */
static const struct {
    const char *prefix;
    const char *const *keys;   /* NULL: the flock's settings (setting_names) */
} key_lists[] = {
    {"", top_keys},
    {"world.", world_keys},
    {"flock.", NULL},
    {"flock.", source_keys},
    {"flock.start.", start_keys},
    {"flock.start.", shape_keys},
    {"flock.start.", groups_key},
    {"flock.start.groups[].", group_keys},
    {"flock.start.disc.", disc_keys},
    {"flock.start.ring.", ring_keys},
    {"flock.start.box.", box_keys},
    {"flock.gains.", rule_names},
    {"video.", video_keys},
    {"look.", look_keys},
    {"look.boid.", boid_keys},
    {"look.trails.", trail_keys},
    {"look.overlays[].", mur_overlay_names},
    {"look.overlays[].plot.", plot_keys},
    {"look.overlays[].watch.", watch_keys},
    {"timeline[].", cue_keys},
    {"timeline[].caption.", caption_keys},
    {"timeline[].title.", title_keys},
    {"predators[].", predator_keys},
    {"experiment.", exp_keys},
    {"experiment.twin.", twin_keys},
    {"experiment.measure.", measure_keys},
    {"layout.", layout_keys},
    {"camera.", camera_keys},
    {"camera.follow.", follow_keys},
};

int mur_scene_key_at(int i, char *buf, size_t size)
{
    for (size_t l = 0; i >= 0 && l < sizeof key_lists / sizeof key_lists[0]; l++) {
        const char *names[64];
        const char *const *keys = key_lists[l].keys ? key_lists[l].keys : setting_names(names);
        for (int k = 0; keys[k]; k++)
            if (i-- == 0) {
                snprintf(buf, size, "%s%s", key_lists[l].prefix, keys[k]);
                return 0;
            }
    }
    return 1;   /* past the last key: not an error code */
}
