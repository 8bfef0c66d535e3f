/* Predators and attractors (`predators:`): their paths (keyframes) or
 * expressions of t (libavutil's evaluator, names checked), and their times. */
#include "parse.h"
#include "murmur/limits.h"
#include "murmur/alloc.h"

#include <libavutil/eval.h>
#include <libavutil/log.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mur_parse_expr_names[] = {"t", "W", "H", "D", NULL};

/* The names an expression may use. libavutil's evaluator also offers
 * while(), root() and taylor() (loops a file could make endless or
 * exponential), st(), ld() and random() (state kept inside the parsed
 * expression between evaluations, so a predator's position would depend on
 * how often it was asked, breaking "a pure function of time"), time() (the
 * wall clock) and print() (writes to stderr); gcd() and bit operations cast
 * any double to an integer. Only the pure, bounded functions below pass. */
static const char *const expr_allowed[] = {
    "t", "W", "H", "D", "PI", "E", "PHI",
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
    "exp", "log", "pow", "sqrt", "hypot", "abs", "sgn", "floor", "ceil", "trunc", "round",
    "mod", "min", "max", "clip", "between", "lerp", "if", "ifnot", "not", "eq", "gt", "gte",
    "lt", "lte", "isnan", "isinf", "squish", "gauss", NULL};

/* SI suffixes av_strtod reads after a mur_parse_number ("2k" = 2000). */
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
        const char *near = mur_parse_nearest(word, expr_allowed);
        return mur_parse_fail_at(c, n, "'%s' expression: '%s' is not a variable or function it may use%s%s%s "
                             "(variables: t, W, H, D; constants PI, E; pure functions like sin, cos, "
                             "min, max, if; no while, st/ld, random or time)",
                       key, word, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    next:;
    }
    return 0;
}

static int expression(ctx *c, yaml_node_t *n, const char *key, char **src, void **eval)
{
    int rc = mur_parse_need_type(c, n, YAML_SCALAR_NODE, key);
    if (rc || (rc = mur_parse_text(c, n, key, MUR_SCENE_MAX_EXPRESSION, src)))
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
    int err = av_expr_parse(&e, *src, mur_parse_expr_names, NULL, NULL, NULL, NULL, AV_LOG_TRACE + 64, NULL);
    if (err < 0 || !e)
        return mur_parse_fail_at(c, n, "'%s': cannot parse expression '%s' (variables: t, W, H, D; functions like sin, cos; constant PI)",
                       key, *src);
    *eval = e;
    return 0;
}

static int path(ctx *c, yaml_node_t *seq, mur_script_predator *pr)
{
    int rc = mur_parse_need_type(c, seq, YAML_SEQUENCE_NODE, "path");
    if (rc)
        return rc;
    long n = seq->data.sequence.items.top - seq->data.sequence.items.start;
    if (n < 1 || n > MUR_SCENE_MAX_ENTRIES)
        return mur_parse_fail_at(c, seq, "'path' needs 1 to %d keyframes [time, x, y]%s",
                                 MUR_SCENE_MAX_ENTRIES, c->s->params.dimensions == 3 ? " or [time, x, y, z]" : "");
    if (!(pr->path = mur_calloc((size_t)n, sizeof *pr->path)))
        return mur_parse_oom(c);
    for (long i = 0; i < n; i++) {
        yaml_node_t *key = mur_parse_node(c, seq->data.sequence.items.start[i]);
        if ((rc = mur_parse_need_type(c, key, YAML_SEQUENCE_NODE, "path keyframe")))
            return rc;
        long len = key->data.sequence.items.top - key->data.sequence.items.start;
        int three = c->s->params.dimensions == 3;
        if (len == 4 && !three)
            return mur_parse_fail_at(c, key, "a keyframe with z ([time, x, y, z]) needs a 3D world "
                                             "(world.dimensions: 3)");
        if (len != 3 && len != 4)
            return mur_parse_fail_at(c, key, "a path keyframe is [time, x, y]%s",
                                     three ? " or [time, x, y, z]" : "");
        yaml_node_t *t = mur_parse_node(c, key->data.sequence.items.start[0]);
        yaml_node_t *x = mur_parse_node(c, key->data.sequence.items.start[1]);
        yaml_node_t *y = mur_parse_node(c, key->data.sequence.items.start[2]);
        if ((rc = mur_parse_need_type(c, t, YAML_SCALAR_NODE, "time")) ||
            (rc = mur_parse_need_type(c, x, YAML_SCALAR_NODE, "x")) ||
            (rc = mur_parse_need_type(c, y, YAML_SCALAR_NODE, "y")) ||
            (rc = mur_parse_time_value(c, t, "time", 0, MUR_SCENE_MAX_SECONDS, &pr->path[i][0])) ||
            (rc = mur_parse_number(c, x, "x", -MUR_MAX_WORLD, MUR_MAX_WORLD, &pr->path[i][1])) ||
            (rc = mur_parse_number(c, y, "y", -MUR_MAX_WORLD, MUR_MAX_WORLD, &pr->path[i][2])))
            return rc;
        pr->path[i][3] = c->s->params.depth / 2;
        if (len == 4) {
            yaml_node_t *z = mur_parse_node(c, key->data.sequence.items.start[3]);
            if ((rc = mur_parse_need_type(c, z, YAML_SCALAR_NODE, "z")) ||
                (rc = mur_parse_number(c, z, "z", -MUR_MAX_WORLD, MUR_MAX_WORLD, &pr->path[i][3])))
                return rc;
        }
        if (i > 0 && !(pr->path[i][0] > pr->path[i - 1][0]))
            return mur_parse_fail_at(c, t, "path keyframe times must increase");
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
    if (!strcmp(k, "z") && c->s->params.dimensions != 3)
        return mur_parse_fail_at(c, p->v, "'z' is a height: it needs a 3D world (world.dimensions: 3)");
    if (!strcmp(k, "z"))
        return expression(c, p->v, "z", &pr->z_expr, &pr->z_eval);
    if ((rc = mur_parse_need_type(c, p->v, YAML_SCALAR_NODE, k)))
        return rc;
    static const char *const prey[] = {"none", "nearest", "centre", "largest", NULL};
    if (!strcmp(k, "mode")) return mur_parse_choice(c, p->v, k, modes, &pr->attract);
    if (!strcmp(k, "pursue")) return mur_parse_choice(c, p->v, k, prey, (int *)&pr->pursue);
    if (!strcmp(k, "speed")) return mur_parse_number(c, p->v, k, 1e-3, 1e4, &pr->speed);
    if (!strcmp(k, "turn")) return mur_parse_number(c, p->v, k, 0, 180, &pr->turn);
    if (!strcmp(k, "burst")) return mur_parse_number(c, p->v, k, 1, 10, &pr->burst);
    if (!strcmp(k, "interpolate")) return mur_parse_choice(c, p->v, k, interp, &pr->smooth);
    if (!strcmp(k, "color")) {
        pr->look.has_color = 1;
        return mur_parse_colour(c, p->v, k, &pr->look.color);
    }
    if (!strcmp(k, "trail"))
        return mur_parse_time_value(c, p->v, k, 0, MUR_PREDATOR_TRAIL_MAX, &pr->look.trail);
    if (!strcmp(k, "size")) {
        if ((rc = mur_parse_number(c, p->v, k, -MUR_MAX_WORLD, MUR_MAX_WORLD, &pr->look.size)))
            return rc;
        return pr->look.size > 0 ? 0
                                 : mur_parse_fail_at(c, p->v, "'size' = %g: a predator's size lies above 0 (world "
                                                     "units: a 2D marker's diameter, a 3D falcon's length)",
                                                     pr->look.size);
    }
    if (!strcmp(k, "radius")) return mur_parse_number(c, p->v, k, 0, 1e6, &pr->radius);
    if (!strcmp(k, "strength")) return mur_parse_number(c, p->v, k, 0, 1e3, &pr->strength);
    if (!strcmp(k, "from")) return mur_parse_time_value(c, p->v, k, 0, MUR_SCENE_MAX_SECONDS, &pr->from);
    return mur_parse_time_value(c, p->v, k, 0, MUR_SCENE_MAX_SECONDS, &pr->until);
}

/* An expression that is inf or NaN wherever the predator is active would
 * hide it for the whole video without a word: sample its first ten seconds
 * (after `from`) and refuse it when no sample is a number. */
static int expressions_finite(ctx *c, yaml_node_t *item, const mur_script_predator *pr)
{
    double start = isfinite(pr->from) && pr->from > 0 ? pr->from : 0;
    double end = fmin(pr->until, start + 10);
    for (int axis = 0; axis < 3; axis++) {
        void *e = axis == 2 ? pr->z_eval : axis ? pr->y_eval : pr->x_eval;
        const char *src = axis == 2 ? pr->z_expr : axis ? pr->y_expr : pr->x_expr, *name = "xyz" + axis;
        if (!e)
            continue;   /* no z: half the depth */
        int finite = 0;
        double bad = NAN;
        for (int k = 0; k <= 40 && !finite; k++) {
            double vars[4] = {start + (end - start) * k / 40, c->s->params.width, c->s->params.height,
                              c->s->params.depth};
            double v = av_expr_eval(e, vars, NULL);
            finite = isfinite(v);
            if (k == 0)
                bad = v;
        }
        if (!finite)
            return mur_parse_fail_at(c, mur_parse_lookup(c, item, axis == 2 ? "z" : axis ? "y" : "x"),
                           "'%.1s' = \"%s\" is not a finite number for t in [%gs, %gs] (%g at t = %gs)",
                           name, src, start, end, bad, start);
    }
    return 0;
}

void mur_parse_free_predator(mur_script_predator *pr)
{
    mur_free(pr->path);
    mur_free(pr->x_expr);
    mur_free(pr->y_expr);
    mur_free(pr->z_expr);
    av_expr_free(pr->x_eval);
    av_expr_free(pr->y_eval);
    av_expr_free(pr->z_eval);
}

const char *const mur_parse_predator_keys[] = {"mode", "radius", "strength", "from", "until",
                                            "path", "interpolate", "x", "y", "z", "pursue", "speed",
                                            "turn", "burst", "size", "color", "trail", NULL};

int mur_parse_predators(ctx *c, yaml_node_t *seq)
{
    mur_scene *s = c->s;
    int rc = mur_parse_need_type(c, seq, YAML_SEQUENCE_NODE, "predators");
    if (rc)
        return rc;
    long n = seq->data.sequence.items.top - seq->data.sequence.items.start;
    if (n > MUR_MAX_PREDATORS)
        return mur_parse_fail_at(c, seq, "at most %d predators", MUR_MAX_PREDATORS);
    if (n && !(s->predators = mur_calloc((size_t)n, sizeof *s->predators)))
        return mur_parse_oom(c);
    for (long i = 0; i < n; i++) {
        yaml_node_t *item = mur_parse_node(c, seq->data.sequence.items.start[i]);
        if (!item)
            return mur_parse_fail_at(c, seq, "scene is too large or too deeply aliased");
        mur_script_predator *pr = &s->predators[s->npredators++];
        pr->attract = s->preset->predator.attract;
        pr->radius = s->preset->predator.radius;
        pr->strength = s->preset->predator.strength;
        pr->from = -INFINITY;
        pr->until = INFINITY;
        pr->smooth = 1;
        pr->turn = 6;
        pr->burst = 1;
        if ((rc = mur_parse_each_pair(c, item, "predator", mur_parse_predator_keys, predator_pair, pr)))
            return rc;
        if (pr->pursue && pr->path)   /* a hunter moves itself: x and y say where it starts */
            return mur_parse_fail_at(c, mur_parse_lookup(c, item, "pursue"),
                                     "a predator that follows a 'path' cannot pursue: give 'x' and 'y' "
                                     "(where it starts at 'from') instead of the path");
        yaml_node_t *own = mur_parse_lookup(c, item, "speed") ? mur_parse_lookup(c, item, "speed")
                                                               : mur_parse_lookup(c, item, "turn");
        if (!pr->pursue && own)
            return mur_parse_fail_at(c, own, "'speed' and 'turn' are a hunter's: give 'pursue' too");
        int has_expr = pr->x_expr || pr->y_expr || pr->z_expr;
        if (pr->path && has_expr)
            return mur_parse_fail_at(c, item, "a predator has either a 'path' or 'x'/'y' expressions, not both");
        if (!pr->path && !(pr->x_expr && pr->y_expr))
            return mur_parse_fail_at(c, item, "a predator needs a 'path' of keyframes or both 'x' and 'y'");
        if (pr->until <= pr->from)
            return mur_parse_fail_at(c, item, "predator 'until' must come after 'from'");
        if (has_expr && (rc = expressions_finite(c, item, pr)))
            return rc;
    }
    return 0;
}
