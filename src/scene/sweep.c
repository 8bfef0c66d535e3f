/* experiment.sweep: a parameter grid, written as the values of each setting
 * and expanded into ordinary conditions, one per point of the grid.
 *
 *   sweep: {noise: {linspace: [0, 0.3, 13]}, alignment: {values: [0.5, 1]}}
 *
 * is 13 x 2 conditions named "noise=0,alignment=0.5", "noise=0,alignment=1",
 * "noise=0.025,alignment=0.5", ...: the first setting varies slowest, as
 * nested loops written in the sweep's order would. Settings under `coupled`
 * move together (one dimension of the grid, equal numbers of values).
 * Expanding at load time means stats, series, panels, `--condition` and
 * traces run a grid point like any condition; the scene keeps only which
 * settings were swept, for the outputs' columns and the figure's axes.
 *
 * Every count is bounded before anything is allocated from it: at most
 * MUR_SCENE_MAX_GRID values per setting and conditions in all. */
#include "sweep.h"
#include "murmur/alloc.h"
#include "yamlnode.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    yaml_document_t *doc;
    const char *file;
    mur_error *err;
} rd;

/* One swept setting: its values, in order, and its grid dimension. */
typedef struct {
    const mur_setting *st;
    double v[MUR_SCENE_MAX_GRID];
    int n;
    int dim;
    int log;          /* from logspace */
    int exact;        /* names need every digit: two values agree to 6 */
} axis;

__attribute__((format(printf, 3, 4)))
static int fail(rd *r, const yaml_node_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = mur_yaml_fail(r->err, r->file, n, fmt, ap);
    va_end(ap);
    return rc;
}

static const char *scalar(const yaml_node_t *n) { return mur_yaml_scalar(n); }

static yaml_node_t *item(rd *r, const yaml_node_t *seq, int i)
{
    return yaml_document_get_node(r->doc, seq->data.sequence.items.start[i]);
}

static int items(const yaml_node_t *seq)
{
    return (int)(seq->data.sequence.items.top - seq->data.sequence.items.start);
}

static int number(rd *r, const yaml_node_t *n, const char *key, double *out)
{
    const char *s = scalar(n);
    char *end = NULL;
    errno = 0;
    double v = s && *s ? strtod(s, &end) : 0;
    if (!s || !*s || *end || errno == ERANGE || !isfinite(v))
        return fail(r, n, "'%s' takes numbers, not '%s'", key, s ? s : "a list or mapping");
    *out = v;
    return 0;
}

/* A value of setting st at node n (for messages): in its range, whole for
 * a whole-number setting. */
static int in_range(rd *r, const yaml_node_t *n, const mur_setting *st, double v)
{
    if (v < st->min || v > st->max)
        return fail(r, n, "%s = %.10g is out of range [%.10g, %.10g]", st->name, v, st->min, st->max);
    if (st->type == MUR_SETTING_INT && v != floor(v))
        return fail(r, n, "%s must be a whole number, not %.10g", st->name, v);
    return 0;
}

/* `values: [a, b, ...]` (a choice's names for a choice). */
static int read_values(rd *r, const yaml_node_t *list, axis *a)
{
    if (list->type != YAML_SEQUENCE_NODE)
        return fail(r, list, "'values' must be a list like [0.5, 1]");
    int n = items(list);
    if (n < 1)
        return fail(r, list, "a sweep of zero values: 'values' needs at least one");
    if (n > MUR_SCENE_MAX_GRID)
        return fail(r, list, "%d values for %s; at most %d", n, a->st->name, MUR_SCENE_MAX_GRID);
    for (int i = 0; i < n; i++) {
        yaml_node_t *x = item(r, list, i);
        const char *s = scalar(x);
        int rc = 0;
        if (!x)
            return fail(r, list, "scene is too large or too deeply aliased");
        if (a->st->type == MUR_SETTING_ENUM) {
            int k = 0;
            while (s && a->st->choices[k] && strcmp(a->st->choices[k], s))
                k++;
            if (!s || !a->st->choices[k])
                return fail(r, x, "'%s' is not a value of %s", s ? s : "?", a->st->name);
            a->v[i] = k;
        } else if ((rc = number(r, x, "values", &a->v[i])) || (rc = in_range(r, x, a->st, a->v[i]))) {
            return rc;
        }
        for (int j = 0; j < i; j++)
            if (a->v[j] == a->v[i])
                return fail(r, x, "%s takes the value '%s' twice", a->st->name, s);
    }
    a->n = n;
    return 0;
}

/* `range: [start, stop, step]` (stop included when it falls on the grid),
 * `linspace: [first, last, n]`, `logspace: [first, last, n]` (n values
 * from first to last at a constant ratio). */
static int read_spaced(rd *r, const char *kind, const yaml_node_t *list, axis *a)
{
    if (a->st->type == MUR_SETTING_ENUM)
        return fail(r, list, "%s is a choice: sweep it with 'values'", a->st->name);
    if (list->type != YAML_SEQUENCE_NODE || items(list) != 3)
        return fail(r, list, "'%s' takes three numbers [%s]", kind,
                    !strcmp(kind, "range") ? "start, stop, step" : "first, last, count");
    double x[3];
    for (int i = 0; i < 3; i++) {
        int rc = number(r, item(r, list, i), kind, &x[i]);
        if (rc)
            return rc;
    }
    double count;
    if (!strcmp(kind, "range")) {
        if (!(x[2] > 0))
            return fail(r, list, "'range' needs a step above 0, not %.10g", x[2]);
        count = x[1] < x[0] ? 0 : floor((x[1] - x[0]) / x[2] + 1e-9) + 1;
    } else {
        if (x[2] != floor(x[2]))
            return fail(r, list, "'%s' needs a whole count of values, not %.10g", kind, x[2]);
        count = x[2];
        if (!strcmp(kind, "logspace") && !(x[0] > 0 && x[1] > 0))
            return fail(r, list, "'logspace' needs both ends above 0 (a constant ratio), not [%.10g, %.10g]",
                        x[0], x[1]);
    }
    if (count < 1)
        return fail(r, list, "a sweep of zero values: '%s' [%.10g, %.10g, %.10g] gives none", kind, x[0], x[1], x[2]);
    if (count > MUR_SCENE_MAX_GRID)
        return fail(r, list, "'%s' gives %.6g values; at most %d", kind, count, MUR_SCENE_MAX_GRID);
    a->n = (int)count;
    a->log = !strcmp(kind, "logspace");
    for (int i = 0; i < a->n; i++) {
        double t = a->n > 1 ? (double)i / (a->n - 1) : 0;
        double v = !strcmp(kind, "range") ? x[0] + i * x[2]
                 : a->log ? x[0] * pow(x[1] / x[0], t) : x[0] + (x[1] - x[0]) * t;
        if (i == a->n - 1 && strcmp(kind, "range"))
            v = x[1];   /* the last value is the end exactly, not within rounding */
        /* 12 significant digits: linspace's 0.3 * 2/12 is 0.049999999999999996,
         * and the 0.05 a scene would write (and the name says) is another
         * flock; rounded, a grid point is exactly the scene a user writes. */
        char text[32];
        snprintf(text, sizeof text, "%.12g", v);
        v = strtod(text, NULL);
        a->v[i] = v;
        int rc = in_range(r, list, a->st, v);
        if (rc)
            return rc;
        if (i > 0 && a->v[i] == a->v[i - 1])
            return fail(r, list, "'%s' [%.10g, %.10g, %.10g] gives %.10g twice", kind, x[0], x[1], x[2], v);
    }
    return 0;
}

/* The settings a sweep may vary: a condition's (the flock's settings; the
 * world's size and boundary are the scene's). */
static const mur_setting *sweepable(const char *name)
{
    static const char *const world[] = {"width", "height", "boundary", "margin"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(name, world[i]))
            return NULL;
    return mur_setting_find(name);
}

/* One `setting: spec` into a new axis of dimension dim. */
static int read_axis(rd *r, yaml_node_t *k, yaml_node_t *spec, int dim, axis *a)
{
    const char *name = scalar(k);
    if (!name || !(a->st = sweepable(name)))
        return fail(r, k, "'%s' is not a flock setting a sweep can vary (docs/scenes.md#flock)",
                    name ? name : "?");
    a->dim = dim;
    if (spec->type == YAML_SEQUENCE_NODE)
        return read_values(r, spec, a);   /* a bare list: its values */
    if (spec->type != YAML_MAPPING_NODE ||
        spec->data.mapping.pairs.top - spec->data.mapping.pairs.start != 1)
        return fail(r, spec, "%s needs one of values: [...], range: [start, stop, step], "
                             "linspace: [first, last, n] or logspace: [first, last, n]", name);
    yaml_node_pair_t *p = spec->data.mapping.pairs.start;
    yaml_node_t *kk = yaml_document_get_node(r->doc, p->key), *v = yaml_document_get_node(r->doc, p->value);
    const char *kind = scalar(kk);
    if (!kind || !v)
        return fail(r, spec, "%s needs values, range, linspace or logspace", name);
    if (!strcmp(kind, "values"))
        return read_values(r, v, a);
    if (!strcmp(kind, "range") || !strcmp(kind, "linspace") || !strcmp(kind, "logspace"))
        return read_spaced(r, kind, v, a);
    return fail(r, kk, "unknown key '%s' (expected one of: values, range, linspace, logspace)", kind);
}

/* Every axis of the sweep mapping n; `coupled` holds axes of one dimension. */
static int read_axes(rd *r, yaml_node_t *n, axis *ax, int *nax, int *ndims)
{
    if (n->type != YAML_MAPPING_NODE || n->data.mapping.pairs.top == n->data.mapping.pairs.start)
        return fail(r, n, "'sweep' must be a mapping of settings to their values, like "
                          "{noise: {linspace: [0, 0.3, 13]}}");
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(r->doc, p->key), *v = yaml_document_get_node(r->doc, p->value);
        if (!k || !v)
            return fail(r, n, "scene is too large or too deeply aliased");
        int coupled = scalar(k) && !strcmp(scalar(k), "coupled");
        if (coupled && (v->type != YAML_MAPPING_NODE || v->data.mapping.pairs.top == v->data.mapping.pairs.start))
            return fail(r, v, "'coupled' must be a mapping of settings that move together, "
                              "like {alignment: [0.5, 1], cohesion: [0.45, 0.9]}");
        yaml_node_pair_t *q = coupled ? v->data.mapping.pairs.start : p;
        yaml_node_pair_t *end = coupled ? v->data.mapping.pairs.top : p + 1;
        int first = *nax;
        for (; q < end; q++) {
            yaml_node_t *qk = yaml_document_get_node(r->doc, q->key), *qv = yaml_document_get_node(r->doc, q->value);
            if (!qk || !qv)
                return fail(r, n, "scene is too large or too deeply aliased");
            if (*nax == MUR_SCENE_MAX_SWEEP)
                return fail(r, qk, "a sweep varies at most %d settings", MUR_SCENE_MAX_SWEEP);
            int rc = read_axis(r, qk, qv, *ndims, &ax[*nax]);
            if (rc)
                return rc;
            for (int j = 0; j < *nax; j++)
                if (ax[j].st == ax[*nax].st)
                    return fail(r, qk, "%s is swept twice", ax[j].st->name);
            if (ax[*nax].n != ax[first].n)
                return fail(r, qk, "coupled settings move together, so need as many values each: "
                                   "%s has %d, %s %d", ax[first].st->name, ax[first].n, ax[*nax].st->name,
                            ax[*nax].n);
            (*nax)++;
        }
        (*ndims)++;
    }
    return 0;
}

/* Value i of axis a as a condition's name shows it: a choice's name, or
 * 6 significant digits (every digit when two values share those). */
static void value_text(const axis *a, int i, char *buf, size_t n)
{
    if (a->st->type == MUR_SETTING_ENUM)
        snprintf(buf, n, "%s", a->st->choices[(int)a->v[i]]);
    else if (a->exact)
        mur_number_format(buf, n, a->v[i]);
    else
        snprintf(buf, n, "%.6g", a->v[i]);
}

static void mark_exact(axis *a)
{
    char x[40], y[40];
    for (int i = 0; i < a->n && !a->exact; i++)
        for (int j = 0; j < i && !a->exact; j++) {
            snprintf(x, sizeof x, "%.6g", a->v[i]);
            snprintf(y, sizeof y, "%.6g", a->v[j]);
            a->exact = !strcmp(x, y);
        }
}

/* Condition c of the grid: its index along each dimension, slowest first. */
static void grid_point(const axis *ax, int nax, int ndims, long c, int *at)
{
    for (int d = ndims - 1; d >= 0; d--) {
        int len = 0;
        for (int j = 0; j < nax; j++)
            if (ax[j].dim == d)
                len = ax[j].n;
        at[d] = (int)(c % len);
        c /= len;
    }
}

/* Fill condition q as point c of the grid, checked as a whole flock. */
static int make_condition(rd *r, const mur_scene *s, yaml_node_t *where, const axis *ax, int nax, int ndims,
                          long c, mur_condition *q)
{
    int at[MUR_SCENE_MAX_SWEEP];
    grid_point(ax, nax, ndims, c, at);
    char name[MUR_SCENE_MAX_SWEEP * 100] = "";
    size_t len = 0;
    if (!(q->set = mur_calloc((size_t)nax, sizeof *q->set)))
        return mur_error_set(r->err, MUR_ERUN, "%s: out of memory", r->file);
    for (int j = 0; j < nax; j++) {
        char v[48];
        value_text(&ax[j], at[ax[j].dim], v, sizeof v);
        len += (size_t)snprintf(name + len, sizeof name - len, "%s%s=%s", j ? "," : "", ax[j].st->name, v);
        q->set[j] = (mur_change){ax[j].st, ax[j].v[at[ax[j].dim]]};
    }
    q->nset = nax;
    if (!(q->name = mur_strdup(name)))
        return mur_error_set(r->err, MUR_ERUN, "%s: out of memory", r->file);
    mur_params p = s->params;
    mur_scene_apply(q->set, q->nset, &p);
    mur_error e;
    if (mur_params_validate(&p, &e))
        return fail(r, where, "the sweep's condition %s: %s", name, e.msg);
    return 0;
}

int mur_sweep_load(mur_scene *s, yaml_document_t *doc, yaml_node_t *n, const char *file, mur_error *err)
{
    rd r = {doc, file, err};
    axis *ax = mur_calloc(MUR_SCENE_MAX_SWEEP, sizeof *ax);
    if (!ax)
        return mur_error_set(err, MUR_ERUN, "%s: out of memory", file);
    int nax = 0, ndims = 0;
    int rc = read_axes(&r, n, ax, &nax, &ndims);
    double product = 1;
    for (int d = 0; !rc && d < ndims; d++)
        for (int j = 0; j < nax; j++)
            if (ax[j].dim == d) {
                product *= ax[j].n;
                break;
            }
    if (!rc && product > MUR_SCENE_MAX_GRID)
        rc = fail(&r, n, "the sweep makes %.6g conditions (the product of its values); at most %d",
                  product, MUR_SCENE_MAX_GRID);
    if (!rc && !(s->conditions = mur_calloc((size_t)product, sizeof *s->conditions)))
        rc = mur_error_set(err, MUR_ERUN, "%s: out of memory", file);
    for (int j = 0; !rc && j < nax; j++)
        mark_exact(&ax[j]);
    for (long c = 0; !rc && c < (long)product; c++) {
        s->nconditions++;   /* counted first, so the scene frees a half-made one */
        rc = make_condition(&r, s, n, ax, nax, ndims, c, &s->conditions[c]);
    }
    for (int j = 0; !rc && j < nax; j++) {
        s->sweep[j] = ax[j].st;
        s->sweep_dim[j] = ax[j].dim;
        s->sweep_log[j] = ax[j].log;
    }
    if (!rc)
        s->nsweep = nax;
    mur_free(ax);
    return rc;
}
