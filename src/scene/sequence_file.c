/* Sequence files: one video from many scenes (docs/scenes.md, "Sequences").
 *
 *   title: Collective behaviour, part 1
 *   transition: {crossfade, over: 1s}
 *   video: {width: 1280, height: 720, fps: 30}
 *   sequence:
 *     - scene: knockout.yaml
 *     - {title: "Part 2: predators", for: 3s}
 *     - {scene: predator.yaml, from: 5s, to: 40s, transition: fade}
 *
 * A sequence loads as a scene (mur_scene_parse hands it here) whose video
 * is the whole sequence: its size, frame rate, quality and output, and a
 * duration of every entry's frames laid end to end (a crossfade overlaps
 * two). Its `sequence` lists the entries with their own scenes, which the
 * session draws one after another, so a sequence renders, chunks, joins
 * and takes --from/--to as a scene does. A title card is a scene made for
 * it: no boids, the title on the background.
 *
 * Entries of different sizes or frame rates are refused at their line
 * unless `video:` sets them for all (then each entry's scene is rendered at
 * that size and rate, as `--size` and `--fps` would). A sequence may hold
 * another; one that holds itself, directly or through others, is refused
 * at the entry that closes the loop (the files being loaded are kept in a
 * per-thread chain, since each entry is loaded by mur_scene_load). */
#define _DEFAULT_SOURCE /* realpath */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "murmur/alloc.h"
#include "murmur/file.h"
#include "murmur/limits.h"
#include "sequence_file.h"
#include "sha256.h"
#include "yamlnode.h"

/* The sequence files being loaded on this thread, innermost first. */
typedef struct loading {
    const char *path;   /* realpath, or the name as given when there is none */
    const char *name;   /* as given, for messages */
    const struct loading *up;
} loading;
static _Thread_local const loading *chain;

static const char *const top_keys[] = {"title", "sequence", "transition", "video", NULL};
static const char *const entry_keys[] = {"scene", "title", "subtitle", "background", "from", "to",
                                         "for", "transition", NULL};
static const char *const video_keys[] = {"width", "height", "fps", "quality", "output", NULL};
static const char *const transition_names[] = {"cut", "fade", "crossfade", NULL};

/* Seconds a transition takes when it names none; a title card's length. */
#define DEFAULT_OVER 0.5
#define DEFAULT_TITLE_FOR 3.0

typedef struct {
    const yaml_node_t *node;      /* the entry */
    const yaml_node_t *over;      /* its transition's `over` (its own or the sequence's), or NULL */
    const yaml_node_t *title_for; /* a title card's `for`, or NULL */
    const char *subtitle, *background;
} entry_nodes;

typedef struct {
    const char *name;
    yaml_document_t *doc;
    mur_error *err;
    mur_sequence *q;
    entry_nodes *nodes;
    int width, height;            /* the sequence's video (0: not given) */
    double fps;
    int quality;                  /* -1: not given */
    const char *output, *title;
    const yaml_node_t *size_node, *fps_node;
    mur_transition transition;    /* the sequence's default */
    const yaml_node_t *transition_node, *over_node;
} seq_ctx;

static int fail(const seq_ctx *c, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(const seq_ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = mur_yaml_fail(c->err, c->name, n, fmt, ap);
    va_end(ap);
    return rc;
}

static yaml_node_t *node(const seq_ctx *c, int id) { return yaml_document_get_node(c->doc, id); }

/* The value of key in mapping m, or NULL. */
static const yaml_node_t *lookup(const seq_ctx *c, const yaml_node_t *m, const char *key)
{
    if (!m || m->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        const char *k = mur_yaml_scalar(node(c, p->key));
        if (k && !strcmp(k, key))
            return node(c, p->value);
    }
    return NULL;
}

/* Every key of mapping m is one of keys (else an error suggesting the nearest). */
static int keys_ok(const seq_ctx *c, const yaml_node_t *m, const char *const *keys, const char *what)
{
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        const yaml_node_t *kn = node(c, p->key);
        const char *k = mur_yaml_scalar(kn);
        int known = 0, best = -1, dist = 99;
        for (int i = 0; k && keys[i]; i++) {
            known |= !strcmp(k, keys[i]);
            int d = mur_edit_distance(k, keys[i]);
            if (d < dist) {
                dist = d;
                best = i;
            }
        }
        if (known)
            continue;
        if (best >= 0 && dist <= 2)
            return fail(c, kn, "unknown key '%s' in %s; did you mean '%s'?", k ? k : "", what, keys[best]);
        return fail(c, kn, "unknown key '%s' in %s", k ? k : "", what);
    }
    return MUR_OK;
}

/* A whole number within [lo, hi] at n. */
static int whole(const seq_ctx *c, const yaml_node_t *n, const char *key, long lo, long hi, long *out)
{
    const char *s = mur_yaml_scalar(n);
    char *end = NULL;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || end == s || *end)
        return fail(c, n, "'%s' must be a whole number", key);
    if (v < lo || v > hi)
        return fail(c, n, "'%s' = %ld is out of range [%ld, %ld]", key, v, lo, hi);
    *out = v;
    return MUR_OK;
}

/* A time at n (12s, 1.5s, 900t at tps), within [lo, hi] seconds. */
static int time_at(const seq_ctx *c, const yaml_node_t *n, const char *key, double tps, double lo,
                   double hi, double *out)
{
    const char *s = mur_yaml_scalar(n);
    if (!s || mur_time_parse(s, tps, out))
        return fail(c, n, "'%s' must be a time like 12s, 1.5s or %s", key, tps > 0 ? "900t" : "40 (seconds)");
    if (*out < lo || *out > hi)
        return fail(c, n, "'%s' = %gs is out of range [%gs, %gs]", key, *out, lo, hi);
    return MUR_OK;
}

/* ---- the sequence's own keys ---------------------------------------------- */

static int read_video(seq_ctx *c, const yaml_node_t *v)
{
    if (!v)
        return MUR_OK;
    if (v->type != YAML_MAPPING_NODE)
        return fail(c, v, "'video' must be a mapping of width, height, fps, quality, output");
    int rc = keys_ok(c, v, video_keys, "the sequence's video");
    const yaml_node_t *w = lookup(c, v, "width"), *h = lookup(c, v, "height"), *f = lookup(c, v, "fps");
    long n;
    if (!rc && (!w) != (!h))
        rc = fail(c, w ? w : h, "give the sequence's 'width' and 'height' together");
    if (!rc && w && !(rc = whole(c, w, "width", 16, MUR_SCENE_MAX_PIXELS, &n)))
        c->width = (int)n;
    if (!rc && h && !(rc = whole(c, h, "height", 16, MUR_SCENE_MAX_PIXELS, &n)))
        c->height = (int)n;
    if (!rc && f && !(rc = whole(c, f, "fps", 1, MUR_MAX_FPS, &n)))
        c->fps = (double)n;
    const yaml_node_t *qn = lookup(c, v, "quality"), *o = lookup(c, v, "output");
    if (!rc && qn && !(rc = whole(c, qn, "quality", 0, MUR_MAX_QUALITY, &n)))
        c->quality = (int)n;
    if (!rc && o && !(c->output = mur_yaml_scalar(o)))
        rc = fail(c, o, "'output' must be a path");
    if (!rc && o && strlen(c->output) > MUR_SCENE_MAX_PATH)
        rc = fail(c, o, "'output' is longer than %d bytes", MUR_SCENE_MAX_PATH);
    c->size_node = w;
    c->fps_node = f;
    return rc;
}

/* A transition: `cut`, `fade`, `crossfade`, or a mapping of one of them
 * (`{crossfade, over: 1s}`, its value empty) or `type:` and `over:`. */
static int read_transition(const seq_ctx *c, const yaml_node_t *t, mur_transition *kind,
                           const yaml_node_t **over)
{
    const char *name = mur_yaml_scalar(t);
    *over = NULL;
    if (t->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *p = t->data.mapping.pairs.start; p < t->data.mapping.pairs.top; p++) {
            const char *k = mur_yaml_scalar(node(c, p->key));
            const yaml_node_t *v = node(c, p->value);
            if (k && !strcmp(k, "over"))
                *over = v;
            else if (k && !strcmp(k, "type"))
                name = mur_yaml_scalar(v);
            else if (k && mur_yaml_scalar(v) && !*mur_yaml_scalar(v))
                name = k;   /* {crossfade, over: 1s}: the kind as a key with no value */
            else
                return fail(c, node(c, p->key), "a transition is cut, fade or crossfade with 'over', "
                                                "not '%s'", k ? k : "");
        }
    }
    for (int i = 0; name && transition_names[i]; i++)
        if (!strcmp(name, transition_names[i])) {
            *kind = (mur_transition)i;
            return MUR_OK;
        }
    return fail(c, t, "a transition is cut, fade or crossfade%s%s%s", name ? ", not '" : "",
                name ? name : "", name ? "'" : "");
}

/* ---- the entries ---------------------------------------------------------- */

/* The entry's file beside the sequence file (an absolute path as it is). */
static char *beside(const char *seq, const char *file)
{
    const char *slash = strrchr(seq, '/');
    size_t dir = file[0] == '/' || !slash ? 0 : (size_t)(slash - seq) + 1;
    char *p = mur_malloc(dir + strlen(file) + 1);
    if (p) {
        memcpy(p, seq, dir);
        strcpy(p + dir, file);
    }
    return p;
}

/* The loop a file closes, when it is one of the files being loaded:
 * "a.yaml -> b.yaml -> a.yaml" into buf; 0 when it closes none. */
static int closes_loop(const char *path, char *buf, size_t n)
{
    char real[PATH_MAX];
    const char *key = realpath(path, real) ? real : path;
    const loading *hit = NULL;
    for (const loading *l = chain; l && !hit; l = l->up)
        if (!strcmp(l->path, key))
            hit = l;
    if (!hit)
        return 0;
    /* from the outermost file that is the loop's start down to the innermost */
    const loading *stack[64];
    int depth = 0;
    for (const loading *l = chain; l && depth < 64; l = l->up) {
        stack[depth++] = l;
        if (l == hit)
            break;
    }
    size_t len = 0;
    buf[0] = 0;
    for (int i = depth - 1; i >= 0 && len < n; i--)
        len += (size_t)snprintf(buf + len, n - len, "%s -> ", stack[i]->name);
    if (len < n)
        snprintf(buf + len, n - len, "%s", path);
    return 1;
}

/* Loads entry e's scene file named at n. A file that is not there is
 * refused at the entry's line; a broken scene with its own file:line:col. */
static int load_scene(seq_ctx *c, mur_sequence_entry *e, const yaml_node_t *n)
{
    const char *file = mur_yaml_scalar(n);
    if (!file || !*file)
        return fail(c, n, "'scene' must be the path of a scene file");
    if (!(e->file = mur_strdup(file)))
        return mur_error_set(c->err, MUR_ERUN, "out of memory");
    char *path = beside(c->name, file), loop[1024];
    if (!path)
        return mur_error_set(c->err, MUR_ERUN, "out of memory");
    char why[512];
    int rc = MUR_OK;
    if (mur_file_check_input(path, MUR_SCENE_MAX_BYTES, why, sizeof why))
        rc = fail(c, n, "scene '%s' (%s) %s", file, path, why);
    if (!rc && closes_loop(path, loop, sizeof loop))
        rc = fail(c, n, "the sequence includes itself: %s", loop);
    if (!rc)
        rc = mur_scene_load(&e->scene, path, c->err);
    mur_free(path);
    return rc;
}

static int read_entry(seq_ctx *c, int i, const yaml_node_t *n)
{
    mur_sequence_entry *e = &c->q->entries[i];
    entry_nodes *en = &c->nodes[i];
    en->node = n;
    e->line = (int)n->start_mark.line + 1;
    e->col = (int)n->start_mark.column + 1;
    e->to = -1;
    e->transition = i ? c->transition : MUR_TRANSITION_CUT;
    const yaml_node_t *tn = i ? c->transition_node : NULL;
    en->over = i ? c->over_node : NULL;
    if (n->type != YAML_MAPPING_NODE)
        return fail(c, n, "an entry is a mapping: {scene: FILE} or {title: TEXT, for: TIME}");
    int rc = keys_ok(c, n, entry_keys, "a sequence entry");
    const yaml_node_t *sc = lookup(c, n, "scene"), *ti = lookup(c, n, "title"), *own = lookup(c, n, "transition");
    if (!rc && (!sc) == (!ti))
        rc = fail(c, n, "an entry gives either 'scene' or 'title'");
    if (!rc && own && i == 0)
        rc = fail(c, own, "the first entry has nothing before it to turn from");
    if (!rc && own && !(rc = read_transition(c, own, &e->transition, &en->over)))
        tn = own;
    if (tn) {
        e->transition_line = (int)tn->start_mark.line + 1;
        e->transition_col = (int)tn->start_mark.column + 1;
    }
    if (rc)
        return rc;
    if (ti) {
        const char *text = mur_yaml_scalar(ti);
        const yaml_node_t *bad = lookup(c, n, "from") ? lookup(c, n, "from") : lookup(c, n, "to");
        if (!text || !*text)
            return fail(c, ti, "a title card's 'title' is its text");
        if (bad)
            return fail(c, bad, "a title card has no 'from' or 'to' (its length is 'for')");
        en->title_for = lookup(c, n, "for");
        en->subtitle = mur_yaml_scalar(lookup(c, n, "subtitle"));
        en->background = mur_yaml_scalar(lookup(c, n, "background"));
        return (e->title = mur_strdup(text)) ? MUR_OK : mur_error_set(c->err, MUR_ERUN, "out of memory");
    }
    const yaml_node_t *bad = lookup(c, n, "for") ? lookup(c, n, "for")
                             : lookup(c, n, "subtitle") ? lookup(c, n, "subtitle") : lookup(c, n, "background");
    if (bad)
        return fail(c, bad, "'for', 'subtitle' and 'background' belong to a title card; a scene "
                            "entry shows [from, to) of its video");
    if ((rc = load_scene(c, e, sc)))
        return rc;
    const yaml_node_t *fn = lookup(c, n, "from"), *tn2 = lookup(c, n, "to");
    double dur = e->scene->duration;
    if (fn && (rc = time_at(c, fn, "from", e->scene->tps, 0, dur, &e->from)))
        return rc;
    if (tn2 && (rc = time_at(c, tn2, "to", e->scene->tps, 0, dur, &e->to)))
        return rc;
    if (tn2 && e->to <= e->from)
        return fail(c, tn2, "'to' (%gs) is not after 'from' (%gs)", e->to, e->from);
    return MUR_OK;
}

static int read_entries(seq_ctx *c, const yaml_node_t *list)
{
    if (!list)
        return fail(c, NULL, "a sequence file needs 'sequence', a list of entries");
    if (list->type != YAML_SEQUENCE_NODE)
        return fail(c, list, "'sequence' must be a list of entries");
    long n = list->data.sequence.items.top - list->data.sequence.items.start;
    if (n < 1 || n > MUR_SEQUENCE_MAX_ENTRIES)
        return fail(c, list, "a sequence holds 1 to %d entries, not %ld", MUR_SEQUENCE_MAX_ENTRIES, n);
    c->q->entries = mur_calloc((size_t)n, sizeof *c->q->entries);
    c->nodes = mur_calloc((size_t)n, sizeof *c->nodes);
    if (!c->q->entries || !c->nodes)
        return mur_error_set(c->err, MUR_ERUN, "out of memory");
    for (int i = 0; i < n; i++) {
        c->q->n = i + 1;
        int rc = read_entry(c, i, node(c, list->data.sequence.items.start[i]));
        if (rc)
            return rc;
    }
    return MUR_OK;
}

/* ---- one size and rate ---------------------------------------------------- */

/* The first scene entry, or NULL when all are title cards. */
static const mur_sequence_entry *first_scene(const mur_sequence *q)
{
    for (int i = 0; i < q->n; i++)
        if (q->entries[i].scene)
            return &q->entries[i];
    return NULL;
}

/* The sequence's size and rate: its `video:`'s, else the first scene's,
 * which every other entry must then have (refused at its line). With
 * `video:` giving them, every scene is made at them. */
static int one_size(seq_ctx *c)
{
    const mur_sequence_entry *f = first_scene(c->q);
    int w = c->width ? c->width : f ? f->scene->width : 1280, h = c->height ? c->height : f ? f->scene->height : 720;
    double fps = c->fps > 0 ? c->fps : f ? f->scene->fps : 30;
    for (int i = 0; i < c->q->n; i++) {
        mur_sequence_entry *e = &c->q->entries[i];
        if (!e->scene)
            continue;
        if (!c->width && (e->scene->width != w || e->scene->height != h))
            return fail(c, c->nodes[i].node,
                        "%s is %dx%d, the sequence %dx%d (its first scene's): give the sequence "
                        "'video: {width, height}' to render every entry at one size",
                        e->file, e->scene->width, e->scene->height, w, h);
        if (c->fps <= 0 && fabs(e->scene->fps - fps) > 1e-9)
            return fail(c, c->nodes[i].node,
                        "%s runs at %g fps, the sequence at %g (its first scene's): give the "
                        "sequence 'video: {fps}' to render every entry at one rate",
                        e->file, e->scene->fps, fps);
        mur_variant v = MUR_VARIANT_INIT;
        v.width = w;
        v.height = h;
        v.fps = (int)lround(fps);
        if (fabs(e->scene->fps - fps) < 1e-9)
            v.fps = 0;   /* a rate that is not whole is kept as it is */
        mur_error why;
        if (mur_scene_vary(e->scene, &v, &why))
            return fail(c, c->nodes[i].node, "%s at %dx%d, %g fps: %s", e->file, w, h, fps, why.msg);
    }
    c->width = w;
    c->height = h;
    c->fps = fps;
    if (c->quality < 0)
        c->quality = f ? f->scene->quality : 20;
    return MUR_OK;
}

/* text as a YAML double-quoted scalar into buf (control characters as
 * escapes, which the scene loader then refuses as it refuses them in a
 * scene). */
static void quoted(char *buf, size_t n, const char *text)
{
    size_t j = 0;
    buf[j++] = '"';
    for (const unsigned char *p = (const unsigned char *)text; *p && j + 8 < n; p++) {
        if (*p == '"' || *p == '\\')
            j += (size_t)snprintf(buf + j, n - j, "\\%c", *p);
        else if (*p == '\n')
            j += (size_t)snprintf(buf + j, n - j, "\\n");
        else if (*p < 0x20 || *p == 0x7f)
            j += (size_t)snprintf(buf + j, n - j, "\\x%02x", *p);
        else
            buf[j++] = (char)*p;
    }
    buf[j++] = '"';
    buf[j] = 0;
}

/* A title card's scene: no boids, the title on the background for its
 * length. Its errors (a title too long) are the entry's. */
static int title_scene(seq_ctx *c, int i, const char *background)
{
    mur_sequence_entry *e = &c->q->entries[i];
    const entry_nodes *en = &c->nodes[i];
    double len = DEFAULT_TITLE_FOR;
    int rc = en->title_for ? time_at(c, en->title_for, "for", c->fps, 0.1, MUR_SCENE_MAX_SECONDS, &len) : 0;
    if (rc)
        return rc;
    char title[2048], sub[2048] = "", bg[64], *text = mur_malloc(8192);
    if (!text)
        return mur_error_set(c->err, MUR_ERUN, "out of memory");
    quoted(title, sizeof title, e->title);
    if (en->subtitle)
        quoted(sub, sizeof sub, en->subtitle);
    quoted(bg, sizeof bg, en->background ? en->background : background);
    snprintf(text, 8192,
             "seed: 0\nmodel: wrkspc\nflock: {count: 0}\n"
             "video: {width: %d, height: %d, fps: %.17g, duration: %.17g}\n"
             "look: {background: %s}\n"
             "timeline: [{at: 0s, title: {text: %s%s%s, for: %.17g}}]\n",
             c->width, c->height, c->fps, len, bg, title, *sub ? ", subtitle: " : "", sub, len);
    mur_error why;
    rc = mur_scene_parse(&e->scene, c->name, text, strlen(text), &why);
    mur_free(text);
    if (rc) {   /* the generated scene's place means nothing: the entry's line does */
        const char *msg = strstr(why.msg, "error: ");
        return fail(c, en->node, "this title card: %s", msg ? msg + 7 : why.msg);
    }
    return MUR_OK;
}

/* "#rrggbb" of the first scene's background: title cards stand on it. */
static void background_of(const mur_sequence *q, char *buf, size_t n)
{
    const mur_sequence_entry *f = first_scene(q);
    mur_rgba b = f ? f->scene->look.background : (mur_rgba){0, 0, 0, 1};
    snprintf(buf, n, "#%02x%02x%02x", (int)lround(b.r * 255), (int)lround(b.g * 255), (int)lround(b.b * 255));
}

/* ---- frames --------------------------------------------------------------- */

/* Whether the transition into entry i (over frames) fits the entries it
 * joins; refused at the transition's line. */
static int transition_fits(const mur_sequence *q, int i, const char *name, mur_error *err)
{
    const mur_sequence_entry *e = &q->entries[i], *p = &q->entries[i - 1];
    const mur_sequence_entry *longer = NULL;
    long used_prev = e->over_frames + (i >= 2 ? p->over_frames : 0);   /* p's start and end */
    if (e->over_frames > e->frames || (e->transition == MUR_TRANSITION_CROSSFADE && e->over_frames > p->frames))
        longer = e->over_frames > e->frames ? e : p;
    else if (used_prev > p->frames)
        longer = p;
    if (!longer)
        return MUR_OK;
    return mur_error_set(err, MUR_EINPUT,
                         "%s:%d:%d: error: a %s over %ld frames is longer than the entry on line %d "
                         "(%ld frames%s)", name, e->transition_line ? e->transition_line : e->line,
                         e->transition_line ? e->transition_col : e->col, transition_names[e->transition],
                         e->over_frames, longer->line, longer->frames,
                         longer == p && used_prev > e->over_frames ? ", which also turns in" : "");
}

/* Lays the entries out at fps: each one's frames, its first sequence frame,
 * its transition's frames. *total: the sequence's frames. */
static int layout(mur_sequence *q, const char *name, double fps, long *total, mur_error *err)
{
    long at = 0;
    for (int i = 0; i < q->n; i++) {
        mur_sequence_entry *e = &q->entries[i];
        long n = mur_scene_frames(e->scene);
        long a = e->title ? 0 : (long)ceil(e->from * e->scene->fps - 1e-9);
        long b = e->title || e->to < 0 ? n : (long)ceil(e->to * e->scene->fps - 1e-9);
        if (b > n)
            b = n;
        if (a >= b)
            return mur_error_set(err, MUR_EINPUT, "%s:%d:%d: error: the entry shows no frame (%ld to %ld of %ld)",
                                 name, e->line, e->col, a, b, n);
        e->first = a;
        e->frames = b - a;
        e->over_frames = e->transition == MUR_TRANSITION_CUT ? 0 : (long)fmax(1, lround(e->over * fps));
        if (i && e->transition == MUR_TRANSITION_CROSSFADE)
            at -= e->over_frames;
        e->start = at < 0 ? 0 : at;
        at = e->start + e->frames;
    }
    for (int i = 1; i < q->n; i++) {
        int rc = transition_fits(q, i, name, err);
        if (rc)
            return rc;
    }
    *total = at;
    return MUR_OK;
}

/* Each transition's `over`, read once the sequence's rate is known. */
static int read_overs(seq_ctx *c)
{
    for (int i = 1; i < c->q->n; i++) {
        mur_sequence_entry *e = &c->q->entries[i];
        e->over = e->transition == MUR_TRANSITION_CUT ? 0 : DEFAULT_OVER;
        const yaml_node_t *o = c->nodes[i].over;
        if (o && e->transition == MUR_TRANSITION_CUT)
            return fail(c, o, "a cut takes no time: 'over' is for fade and crossfade");
        int rc = o ? time_at(c, o, "over", c->fps, 1e-3, MUR_SCENE_MAX_SECONDS, &e->over) : 0;
        if (rc)
            return rc;
    }
    return MUR_OK;
}

/* ---- the whole ------------------------------------------------------------ */

/* The scene that stands for the sequence: its video (size, rate, quality,
 * output, duration) and title; no boids of its own. */
static int whole_scene(seq_ctx *c, long total, mur_scene **out)
{
    char *text = mur_malloc(16384), title[1024] = "", output[MUR_SCENE_MAX_PATH * 2 + 16] = "";
    if (!text)
        return mur_error_set(c->err, MUR_ERUN, "out of memory");
    if (c->title)
        quoted(title, sizeof title, c->title);
    if (c->output)
        quoted(output, sizeof output, c->output);
    snprintf(text, 16384,
             "%s%s%sseed: 0\nmodel: wrkspc\nflock: {count: 0}\n"
             "video: {width: %d, height: %d, fps: %.17g, ticks_per_second: %.17g, duration: %ldt, "
             "quality: %d%s%s}\n",
             c->title ? "title: " : "", title, c->title ? "\n" : "", c->width, c->height, c->fps, c->fps,
             total, c->quality, c->output ? ", output: " : "", output);
    mur_error why;
    int rc = mur_scene_parse(out, c->name, text, strlen(text), &why);
    mur_free(text);
    if (rc) {
        const char *msg = strstr(why.msg, "error: ");
        return fail(c, c->title ? lookup(c, node(c, 1), "title") : NULL, "%s", msg ? msg + 7 : why.msg);
    }
    return MUR_OK;
}

static int read_top(seq_ctx *c, const yaml_node_t *root)
{
    if (!root || root->type != YAML_MAPPING_NODE)
        return fail(c, root, "a sequence file is a mapping with 'sequence'");
    int rc = keys_ok(c, root, top_keys, "a sequence file");
    const yaml_node_t *t = lookup(c, root, "title"), *tr = lookup(c, root, "transition");
    if (!rc && t && !(c->title = mur_yaml_scalar(t)))
        rc = fail(c, t, "'title' must be text");
    if (!rc)
        rc = read_video(c, lookup(c, root, "video"));
    if (!rc && tr && !(rc = read_transition(c, tr, &c->transition, &c->over_node)))
        c->transition_node = tr;
    return rc;
}

/* Enters with the document loaded; leaves *out the sequence's scene. */
static int read_sequence(seq_ctx *c, const char *src, size_t len, mur_scene **out)
{
    const yaml_node_t *root = yaml_document_get_root_node(c->doc);
    int rc = read_top(c, root);
    if (!rc)
        rc = read_entries(c, lookup(c, root, "sequence"));
    if (!rc)
        rc = one_size(c);
    char bg[16];
    background_of(c->q, bg, sizeof bg);
    for (int i = 0; !rc && i < c->q->n; i++)
        if (c->q->entries[i].title)
            rc = title_scene(c, i, bg);
    long total = 0;
    if (!rc && !(rc = read_overs(c)) && !(rc = layout(c->q, c->name, c->fps, &total, c->err)) &&
        !(rc = whole_scene(c, total, out))) {
        if (mur_sha256_hex(src, len, (*out)->sha256) || !(c->q->text = mur_malloc(len + 1))) {
            mur_scene_destroy(*out);
            *out = NULL;
            return mur_error_set(c->err, MUR_ERUN, "out of memory");
        }
        memcpy(c->q->text, src, len);
        c->q->text[len] = 0;
        (*out)->sequence = c->q;
        c->q = NULL;
    }
    return rc;
}

int mur_sequence_parse(mur_scene **out, const char *name, const char *src, size_t len, mur_error *err)
{
    *out = NULL;
    char real[PATH_MAX];
    loading me = {realpath(name, real) ? real : name, name, chain};
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser))
        return mur_error_set(err, MUR_ERUN, "out of memory");
    yaml_parser_set_input_string(&parser, (const unsigned char *)src, len);
    if (!yaml_parser_load(&parser, &doc)) {
        int rc = mur_error_set(err, MUR_EINPUT, "%s:%zu:%zu: error: %s", name, parser.problem_mark.line + 1,
                               parser.problem_mark.column + 1, parser.problem ? parser.problem : "bad YAML");
        yaml_parser_delete(&parser);
        return rc;
    }
    seq_ctx c = {.name = name, .doc = &doc, .err = err, .quality = -1};
    c.q = mur_calloc(1, sizeof *c.q);
    int rc = c.q ? MUR_OK : mur_error_set(err, MUR_ERUN, "out of memory");
    const loading *outer = chain;
    chain = &me;
    if (!rc)
        rc = read_sequence(&c, src, len, out);
    chain = outer;
    mur_sequence_free(c.q);
    mur_free(c.nodes);
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    return rc;
}

int mur_sequence_sniff(const char *src, size_t len)
{
    /* most scenes never say the word: no second parse for them */
    int maybe = 0;
    for (size_t i = 0; i + 8 <= len && !maybe; i++)
        maybe = !memcmp(src + i, "sequence", 8);
    if (!maybe)
        return 0;
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser))
        return 0;
    yaml_parser_set_input_string(&parser, (const unsigned char *)src, len);
    int found = 0;
    if (yaml_parser_load(&parser, &doc)) {
        seq_ctx c = {.doc = &doc};
        found = lookup(&c, yaml_document_get_root_node(&doc), "sequence") != NULL;
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    return found;
}

int mur_sequence_vary(mur_scene *s, const mur_variant *v, mur_error *err)
{
    mur_sequence *q = s->sequence;
    for (int i = 0; i < q->n; i++) {
        mur_variant each = *v;
        each.width = s->width;   /* the whole's new size and rate, given to every entry */
        each.height = s->height;
        each.draft = 0;
        each.fps = fabs(q->entries[i].scene->fps - s->fps) > 1e-9 ? (int)lround(s->fps) : 0;
        int rc = mur_scene_vary(q->entries[i].scene, &each, err);
        if (rc)
            return rc;
    }
    long total;
    int rc = layout(q, s->path, s->fps, &total, err);
    if (rc)
        return rc;
    s->tps = s->fps;
    s->duration = (double)total / s->fps;
    return MUR_OK;
}

int mur_sequence_key_at(int i, char *buf, size_t size)
{
    static const char *const transition_keys[] = {"type", "over", NULL};
    static const struct {
        const char *prefix;
        const char *const *keys;
    } lists[] = {{"", top_keys}, {"sequence[].", entry_keys}, {"video.", video_keys},
                 {"transition.", transition_keys}};
    for (size_t l = 0; i >= 0 && l < sizeof lists / sizeof lists[0]; l++)
        for (int k = 0; lists[l].keys[k]; k++)
            if (i-- == 0) {
                snprintf(buf, size, "%s%s", lists[l].prefix, lists[l].keys[k]);
                return 0;
            }
    return 1;   /* past the last key */
}

void mur_sequence_free(mur_sequence *q)
{
    if (!q)
        return;
    for (int i = 0; i < q->n; i++) {
        mur_scene_destroy(q->entries[i].scene);
        mur_free(q->entries[i].file);
        mur_free(q->entries[i].title);
    }
    mur_free(q->entries);
    mur_free(q->text);
    mur_free(q);
}
