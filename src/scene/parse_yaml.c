/* The scene loader's YAML toolkit: errors at file:line:col with the nearest
 * known word, node access within the walk budget, and the typed values every
 * section reads (numbers, integers, times, colours, choices, texts). */
#include "parse.h"
#include "murmur/alloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
int mur_parse_fail_at(ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = mur_yaml_fail(c->err, c->name, n, fmt, ap);
    va_end(ap);
    return rc;
}

int mur_parse_oom(ctx *c) { return mur_error_set(c->err, MUR_ERUN, "%s: out of memory", c->name); }

const char *mur_parse_nearest(const char *word, const char *const *names)
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

int mur_parse_unknown(ctx *c, const yaml_node_t *n, const char *what, const char *word,
                   const char *const *names)
{
    const char *near = mur_parse_nearest(word, names);
    if (near)
        return mur_parse_fail_at(c, n, "unknown %s '%s' (did you mean '%s'?)", what, word, near);
    char list[512] = "";
    size_t len = 0;
    for (int i = 0; names[i] && len < sizeof list - 40; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", names[i]);
    return mur_parse_fail_at(c, n, "unknown %s '%s' (expected one of: %s)", what, word, list);
}

/* ---- node access -------------------------------------------------------- */

yaml_node_t *mur_parse_node(ctx *c, int id)
{
    if (--c->budget < 0)
        return NULL;
    return yaml_document_get_node(c->doc, id);
}

const char *mur_parse_scalar(const yaml_node_t *n) { return mur_yaml_scalar(n); }

int mur_parse_need_type(ctx *c, const yaml_node_t *n, yaml_node_type_t t, const char *key)
{
    static const char *const names[] = {"nothing", "a value", "a list", "a mapping"};
    if (!n)
        return mur_parse_fail_at(c, NULL, "scene is too large or too deeply aliased");
    if (n->type != t) {
        const char *got = n->type <= YAML_MAPPING_NODE ? names[n->type] : "?";
        return mur_parse_fail_at(c, n, "'%s' must be %s, not %s", key, names[t], got);
    }
    return 0;
}

int mur_parse_each_pair(ctx *c, yaml_node_t *map, const char *what, const char *const *allowed,
                     pair_fn fn, void *arg)
{
    int rc = mur_parse_need_type(c, map, YAML_MAPPING_NODE, what);
    if (rc)
        return rc;
    for (yaml_node_pair_t *it = map->data.mapping.pairs.start; it < map->data.mapping.pairs.top;
         it++) {
        pair p = {NULL, mur_parse_node(c, it->key), mur_parse_node(c, it->value)};
        if (!p.k || !p.v)
            return mur_parse_fail_at(c, map, "scene is too large or too deeply aliased");
        p.key = mur_parse_scalar(p.k);
        if (!p.key)
            return mur_parse_fail_at(c, p.k, "keys in '%s' must be plain names", what);
        for (yaml_node_pair_t *jt = map->data.mapping.pairs.start; jt < it; jt++) {
            const char *other = mur_parse_scalar(yaml_document_get_node(c->doc, jt->key));
            if (other && strcmp(other, p.key) == 0)
                return mur_parse_fail_at(c, p.k, "'%s' is given twice in '%s'", p.key, what);
        }
        if (allowed) {
            int ok = 0;
            for (int i = 0; allowed[i] && !ok; i++)
                ok = strcmp(allowed[i], p.key) == 0;
            if (!ok)
                return mur_parse_unknown(c, p.k, "key", p.key, allowed);
        }
        if (fn && (rc = fn(c, &p, arg)))
            return rc;
    }
    return 0;
}

yaml_node_t *mur_parse_lookup(ctx *c, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *it = map->data.mapping.pairs.start; it < map->data.mapping.pairs.top;
         it++) {
        const char *k = mur_parse_scalar(yaml_document_get_node(c->doc, it->key));
        if (k && strcmp(k, key) == 0)
            return mur_parse_node(c, it->value);
    }
    return NULL;
}

/* ---- values ------------------------------------------------------------- */

int mur_parse_double(const char *s, double *out)
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

int mur_parse_number(ctx *c, const yaml_node_t *n, const char *key, double lo, double hi,
                  double *out)
{
    const char *s = mur_parse_scalar(n);
    double v;
    if (!s || mur_parse_double(s, &v))
        return mur_parse_fail_at(c, n, "'%s' must be a number%s%s%s", key, s ? ", not '" : "",
                       s ? s : "", s ? "'" : "");
    if (v < lo || v > hi)
        return mur_parse_fail_at(c, n, "'%s' = %.10g is out of range [%.10g, %.10g]", key, v, lo, hi);
    *out = v;
    return 0;
}

int mur_parse_integer(ctx *c, const yaml_node_t *n, const char *key, double lo, double hi,
                   int *out)
{
    double v = 0;
    int rc = mur_parse_number(c, n, key, lo, hi, &v);
    if (rc)
        return rc;
    if (v != floor(v))
        return mur_parse_fail_at(c, n, "'%s' must be a whole number, not %g", key, v);
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
    if (mur_parse_double(buf, &v) || !isfinite(v * scale))
        return MUR_EINPUT;
    *seconds = v * scale;
    return 0;
}

/* A time: `12s`, `1.5s`, `900t` (ticks) or a bare number of seconds. */
int mur_parse_time_value(ctx *c, const yaml_node_t *n, const char *key, double lo, double hi,
                      double *out)
{
    const char *s = mur_parse_scalar(n);
    double v;
    if (!s || mur_time_parse(s, c->tps, &v))
        return mur_parse_fail_at(c, n, "'%s' must be a time like 12s, 1.5s or 900t%s%s%s", key,
                       s ? ", not '" : "", s ? s : "", s ? "'" : "");
    if (v < lo || v > hi)
        return mur_parse_fail_at(c, n, "'%s' = %gs is out of range [%gs, %gs]", key, v, lo, hi);
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

int mur_parse_colour(ctx *c, const yaml_node_t *n, const char *key, mur_rgba *out)
{
    const char *s = mur_parse_scalar(n);
    size_t len = s ? strlen(s) : 0;
    /* An unquoted #... is a YAML comment, which leaves an empty value. */
    if (!s || !*s)
        return mur_parse_fail_at(c, n, "'%s' must be a colour \"#rrggbb\" or \"#rrggbbaa\" (quote it: # starts a YAML comment)", key);
    if (s[0] != '#' || (len != 7 && len != 9))
        return mur_parse_fail_at(c, n, "'%s': '%s' is not a colour: expected \"#\" and 6 or 8 hex digits (\"#rrggbb\" or \"#rrggbbaa\")",
                       key, s);
    double ch[4] = {0, 0, 0, 1};
    for (size_t i = 0; i + 1 < len; i += 2) {
        int hi = hexval(s[1 + i]), lo = hexval(s[2 + i]);
        if (hi < 0 || lo < 0)
            return mur_parse_fail_at(c, n, "'%s': '%s' is not a hex colour", key, s);
        ch[i / 2] = (hi * 16 + lo) / 255.0;
    }
    *out = (mur_rgba){ch[0], ch[1], ch[2], ch[3]};
    return 0;
}

int mur_parse_choice(ctx *c, const yaml_node_t *n, const char *key, const char *const *names,
                  int *out)
{
    const char *s = mur_parse_scalar(n);
    if (!s)
        return mur_parse_fail_at(c, n, "'%s' must be one of its names", key);
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], s) == 0) {
            *out = i;
            return 0;
        }
    char what[96];
    snprintf(what, sizeof what, "value for '%s'", key);
    return mur_parse_unknown(c, n, what, s, names);
}

/* Reads a text of at most max characters (UTF-8 code points): every text a
 * scene holds is drawn, printed or used as a name, and a screen or a column
 * has room for only so much; an alias repeated a thousand times must not
 * make `check` print gigabytes. */
/* A control character (YAML's "\e", "\r") in a caption, a title or a
 * condition's name would reach a subtitle file, a table or a terminal as
 * it is: a CR LF in a caption makes extra .srt cues, an ESC drives a
 * terminal. Line breaks and tabs are text. 0, or the error at n. */
int mur_parse_printable(ctx *c, const yaml_node_t *n, const char *key, const char *s)
{
    for (const unsigned char *u = (const unsigned char *)s; *u; u++)
        if ((*u < 0x20 && *u != '\n' && *u != '\t') || *u == 0x7f)
            return mur_parse_fail_at(c, n, "'%s' holds the control character \\x%02x: text is mur_parse_printable (a line break is \\n)",
                           key, *u);
    return 0;
}

int mur_parse_text(ctx *c, const yaml_node_t *n, const char *key, size_t max, char **out)
{
    const char *s = mur_parse_scalar(n);
    if (!s)
        return mur_parse_fail_at(c, n, "'%s' must be text", key);
    int rc = mur_parse_printable(c, n, key, s);
    if (rc)
        return rc;
    size_t chars = 0;
    for (const unsigned char *u = (const unsigned char *)s; *u; u++)
        chars += (*u & 0xC0) != 0x80;
    if (chars > max)
        return mur_parse_fail_at(c, n, "'%s' is %zu characters long; at most %zu fit", key, chars, max);
    mur_free(*out);
    if (!(*out = mur_strdup(s)))
        return mur_parse_oom(c);
    return 0;
}

int mur_parse_numbers(ctx *c, yaml_node_t *n, const char *key, const char *shape, int count, double lo,
                      double hi, double *out)
{
    if (n->type != YAML_SEQUENCE_NODE || n->data.sequence.items.top - n->data.sequence.items.start != count)
        return mur_parse_fail_at(c, n, "'%s' is %s", key, shape);
    for (int k = 0; k < count; k++) {
        yaml_node_t *a = mur_parse_node(c, n->data.sequence.items.start[k]);
        if (!a)
            return mur_parse_fail_at(c, n, "'%s' is %s", key, shape);
        int rc = mur_parse_number(c, a, key, lo, hi, &out[k]);
        if (rc)
            return rc;
    }
    return 0;
}

int mur_parse_number_pair(ctx *c, yaml_node_t *n, const char *key, const char *shape, double lo, double hi,
                          double out[2])
{
    return mur_parse_numbers(c, n, key, shape, 2, lo, hi, out);
}
