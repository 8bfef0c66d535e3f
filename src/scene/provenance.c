/* Provenance: the one text every file murmur writes carries, so a figure
 * or a table can be traced to the program, the seed and the scene that
 * made it, and made again from the file alone.
 *
 * The text is murmur's version, the scene's path and seed, what was asked
 * (frames, a still's time, an experiment's runs and ticks), the resolved
 * settings exactly as `murmur check` prints them, and the scene file's own
 * text. The same content as a JSON object goes into JSON outputs. Nothing
 * in it depends on the clock or the machine, so outputs that carry it stay
 * byte-reproducible. Text is built in a growing buffer from the allocator
 * hook (murmur/alloc.h), so a failed allocation is an error, never a crash. */
#include "murmur/scene.h"
#include "murmur/alloc.h"
#include "murmur/version.h"
#include "murmur_build.h"
#include "../data/recording.h"
#include "parse.h"

#include <json-c/json.h>

#include "murmur/numfmt.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- numbers and settings as check prints them ----------------------------- */

void mur_number_format(char *buf, size_t n, double v)
{
    mur_format_double(buf, n, v);   /* the shortest text strtod reads back to exactly v */
}

void mur_setting_format(char *buf, size_t n, const mur_setting *st, const mur_params *p)
{
    if (st->type == MUR_SETTING_ENUM)
        snprintf(buf, n, "%s", mur_setting_choice(st, p));
    else
        mur_number_format(buf, n, mur_setting_get(st, p));
}

static int is_world_key(const char *name)
{
    for (int k = 0; mur_parse_world_keys[k]; k++)
        if (!strcmp(name, mur_parse_world_keys[k]))
            return 1;
    return 0;
}

void mur_params_write(FILE *fp, const char *model, const mur_params *p)
{
    char w[40], h[40], b[40];
    mur_number_format(w, sizeof w, p->width);
    mur_number_format(h, sizeof h, p->height);
    mur_setting_format(b, sizeof b, mur_setting_find("boundary"), p);
    fprintf(fp, "model: %s\nworld: {%s", model, p->dimensions == 3 ? "dimensions: 3, " : "");
    if (p->density > 0) {
        mur_number_format(w, sizeof w, p->density);
        fprintf(fp, "density: %s, boundary: %s", w, b);
    } else if (p->dimensions == 3) {
        char d[40];
        mur_number_format(d, sizeof d, p->depth);
        fprintf(fp, "width: %s, height: %s, depth: %s, boundary: %s", w, h, d, b);
    } else {
        fprintf(fp, "width: %s, height: %s, boundary: %s", w, h, b);
    }
    if (p->boundary == MUR_BOUNDARY_AVOID) {
        mur_number_format(w, sizeof w, p->margin);
        fprintf(fp, ", margin: %s", w);
    }
    fprintf(fp, "}\nflock:\n");
    for (int i = 0; i < mur_setting_count(); i++) {
        const mur_setting *st = mur_setting_at(i);
        if (is_world_key(st->name) || !mur_setting_shown(st, p))
            continue;
        char key[40], val[40];
        snprintf(key, sizeof key, "%s:", st->name);
        mur_setting_format(val, sizeof val, st, p);
        fprintf(fp, "  %-23s %-10s # %s\n", key, val, st->help);
    }
}

/* ---- a growing text -------------------------------------------------------- */

typedef struct {
    char *s;
    size_t len, cap;
    int failed;
} text;

static void put_n(text *t, const char *s, size_t n)
{
    if (t->failed)
        return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1024;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *s2 = mur_realloc(t->s, cap);
        if (!s2) {
            t->failed = 1;
            return;
        }
        t->s = s2;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = 0;
}

static void put(text *t, const char *s) { put_n(t, s, strlen(s)); }

static void putf(text *t, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    put_n(t, buf, n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* The resolved settings through a memory stream (mur_params_write writes to
 * a FILE, as check prints). */
static void put_settings(text *t, const mur_scene *s)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *fp = open_memstream(&buf, &n);
    if (!fp) {
        t->failed = 1;
        return;
    }
    mur_params_write(fp, s->preset->name, &s->params);
    if (fclose(fp) != 0)
        t->failed = 1;
    else
        put_n(t, buf, n);
    free(buf);
}

/* The scene file as it is on disk, up to the loader's limit; a scene
 * parsed from memory (no file at its path) has none. */
static void put_scene_file(text *t, const mur_scene *s, void (*put_text)(text *, const char *, size_t))
{
    FILE *in = fopen(s->path, "rb");
    if (!in)
        return;
    char buf[4096];
    size_t n, total = 0;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0 && total < MUR_SCENE_MAX_BYTES) {
        put_text(t, buf, n);
        total += n;
    }
    fclose(in);
}

/* ---- the inputs: every file the scene read, by its SHA-256 ------------------- */

/* The file an overlay read (an image, a figure's reference): 1 with its
 * path and SHA-256, or 0. */
static int overlay_file(const mur_overlay *o, const char **path, const char **sha)
{
    if (o->image && o->image->path) {
        *path = o->image->path;
        *sha = o->image->sha256;
        return 1;
    }
    if (o->ref_path) {
        *path = o->ref_path;
        *sha = o->ref_sha256;
        return 1;
    }
    return 0;
}

/* Input i of the scene (0: the scene file, then flock.replay, flock.start
 * and each condition's replay, then the overlays' files (images, figures'
 * references); a file named
 * twice once): its path and SHA-256 through *path and *sha; 0 past the last. */
static int input_at(const mur_scene *s, int i, const char **path, const char **sha)
{
    *path = s->path;
    *sha = s->sha256;
    int k = 0;   /* inputs before the recording looked at */
    for (int j = -2; j < s->nconditions && k < i; j++) {
        const mur_recording *r = j == -2 ? s->replay : j == -1 ? s->start : s->conditions[j].replay;
        int seen = !r;
        for (int q = -2; !seen && q < j; q++) {   /* named before, in this same order */
            const mur_recording *o = q == -2 ? s->replay : q == -1 ? s->start : s->conditions[q].replay;
            seen = o && !strcmp(o->path, r->path) && !strcmp(o->sha256, r->sha256);
        }
        if (!seen) {
            k++;
            *path = r->path;
            *sha = r->sha256;
        }
    }
    for (int j = 0; j < s->look.noverlays && k < i; j++) {   /* then each overlay's file */
        const char *jp, *js;
        int seen = !overlay_file(&s->look.overlays[j], &jp, &js);
        for (int q = 0; !seen && q < j; q++) {
            const char *qp, *qs;
            seen = overlay_file(&s->look.overlays[q], &qp, &qs) && !strcmp(qp, jp) && !strcmp(qs, js);
        }
        if (!seen) {
            k++;
            *path = jp;
            *sha = js;
        }
    }
    return k == i;
}

/* "build: COMMIT" when the build knew it; then the inputs as sha256sum
 * prints them ("HEX  PATH"), so `sha256sum -c` on those lines checks a
 * folder's files are the ones the result came from. */
static void put_build_and_inputs(text *t, const mur_scene *s)
{
    if (*MUR_BUILD_COMMIT)
        putf(t, "build: %s\n", MUR_BUILD_COMMIT);
    put(t, "# inputs (SHA-256, as sha256sum prints them)\n");
    const char *path, *sha;
    for (int i = 0; input_at(s, i, &path, &sha); i++) {
        putf(t, "%s  ", sha);
        put(t, path);
        put(t, "\n");
    }
}

static int finish(text *t, char **out, mur_error *err)
{
    if (t->failed || !t->s) {
        mur_free(t->s);
        *out = NULL;
        return mur_error_set(err, MUR_ERUN, "out of memory writing the provenance");
    }
    *out = t->s;
    return MUR_OK;
}

int mur_scene_provenance(const mur_scene *s, uint64_t seed, const char *request, char **out,
                         mur_error *err)
{
    text t = {0};
    putf(&t, "murmur %s\nscene: %s\nseed: %llu\n", MUR_VERSION_STRING, s->path, (unsigned long long)seed);
    if (request) {
        put(&t, request);
        if (*request && request[strlen(request) - 1] != '\n')
            put(&t, "\n");
    }
    put_build_and_inputs(&t, s);
    char radius[MUR_FORMAT_SIZE];
    mur_format_double(radius, sizeof radius, s->measure.radius);
    putf(&t, "measure radius: %s\n", s->measure.radius > 0 ? radius : "cohesion_radius");
    put(&t, "# resolved settings (as murmur check prints them)\n");
    put_settings(&t, s);
    put(&t, "# scene file\n");
    put_scene_file(&t, s, put_n);
    return finish(&t, out, err);
}

/* ---- JSON ------------------------------------------------------------------ */

/* The scene file's text, as the text provenance holds it. */
static void put_raw(text *t, const char *s, size_t n) { put_n(t, s, n); }

/* json-c builds the object (escaping its strings); numbers are the text
 * check prints (mur_setting_format: the shortest that reads back exactly),
 * kept verbatim by json_object_new_double_s. A NULL from json-c is out of
 * memory: add() then fails (json-c would add it as null) and frees v. */
static int add(json_object *o, const char *key, json_object *v)
{
    if (!o || !v || json_object_object_add(o, key, v)) {
        json_object_put(v);
        return 0;
    }
    return 1;
}

static json_object *settings_object(const mur_scene *s)
{
    json_object *set = json_object_new_object();
    int ok = add(set, "model", json_object_new_string(s->preset->name));
    for (int i = 0; ok && i < mur_setting_count(); i++) {
        const mur_setting *st = mur_setting_at(i);
        if (!mur_setting_shown(st, &s->params))
            continue;
        char val[40];
        mur_setting_format(val, sizeof val, st, &s->params);
        ok = add(set, st->name, st->type == MUR_SETTING_ENUM
                                    ? json_object_new_string(val)
                                    : json_object_new_double_s(mur_setting_get(st, &s->params), val));
    }
    if (!ok) {
        json_object_put(set);
        return NULL;
    }
    return set;
}

/* The files the run read, each with its SHA-256, as [{path, sha256}]. */
static json_object *inputs_array(const mur_scene *s)
{
    json_object *a = json_object_new_array();
    const char *path, *sha;
    for (int i = 0; a && input_at(s, i, &path, &sha); i++) {
        json_object *in = json_object_new_object();
        if (!add(in, "path", json_object_new_string(path)) || !add(in, "sha256", json_object_new_string(sha)) ||
            json_object_array_add(a, in)) {
            json_object_put(in);
            json_object_put(a);
            return NULL;
        }
    }
    return a;
}

static json_object *provenance_object(const mur_scene *s, uint64_t seed, const char *request, const text *file)
{
    json_object *o = json_object_new_object();
    char radius[MUR_FORMAT_SIZE];
    mur_format_double(radius, sizeof radius, s->measure.radius);
    /* build and measure_radius are null when unknown / the cohesion radius */
    int ok = add(o, "murmur", json_object_new_string(MUR_VERSION_STRING)) &&
             !json_object_object_add(o, "build", *MUR_BUILD_COMMIT ? json_object_new_string(MUR_BUILD_COMMIT) : NULL) &&
             add(o, "scene", json_object_new_string(s->path)) && add(o, "inputs", inputs_array(s)) &&
             add(o, "seed", json_object_new_uint64(seed)) &&
             add(o, "request", json_object_new_string(request ? request : "")) &&
             !json_object_object_add(o, "measure_radius", s->measure.radius > 0
                                         ? json_object_new_double_s(s->measure.radius, radius) : NULL) &&
             add(o, "settings", settings_object(s)) &&
             add(o, "scene_text", json_object_new_string_len(file->s ? file->s : "", (int)file->len));
    if (!ok) {
        json_object_put(o);
        return NULL;
    }
    return o;
}

int mur_scene_provenance_json(const mur_scene *s, uint64_t seed, const char *request, char **out,
                              mur_error *err)
{
    text file = {0}, t = {0};
    put_scene_file(&file, s, put_raw);
    json_object *o = file.failed ? NULL : provenance_object(s, seed, request, &file);
    const char *js = o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE) : NULL;
    if (js)
        put(&t, js);
    else
        t.failed = 1;
    json_object_put(o);
    mur_free(file.s);
    return finish(&t, out, err);
}
