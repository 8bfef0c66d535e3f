/* `murmur check` and `murmur presets`: print what a scene or preset
 * resolves to, from the same settings table the loader reads. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "murmur/metrics.h"
#include "murmur/scene.h"

static int is_world_key(const char *name)
{
    return !strcmp(name, "width") || !strcmp(name, "height") || !strcmp(name, "boundary") ||
           !strcmp(name, "margin");
}

static void print_value(FILE *fp, const mur_setting *st, const mur_params *p)
{
    if (st->type == MUR_SETTING_ENUM)
        fprintf(fp, "%s", mur_setting_choice(st, p));
    else
        fprintf(fp, "%.10g", mur_setting_get(st, p));
}

/* The flock settings as YAML a user can paste into a scene. */
static void print_params_yaml(FILE *fp, const char *model, const mur_params *p)
{
    fprintf(fp, "model: %s\nworld: {width: %.10g, height: %.10g, boundary: ", model, p->width,
            p->height);
    print_value(fp, mur_setting_find("boundary"), p);
    fprintf(fp, "}\nflock:\n");
    for (int i = 0; i < mur_setting_count(); i++) {
        const mur_setting *st = mur_setting_at(i);
        if (is_world_key(st->name))
            continue;
        int pad = 22 - (int)strlen(st->name);
        fprintf(fp, "  %s: %*s", st->name, pad > 0 ? pad : 0, "");
        print_value(fp, st, p);
        fprintf(fp, "   # %s\n", st->help);
    }
}

int mur_cmd_presets(const mur_cli_opts *o)
{
    if (!o->scene) {
        for (int i = 0; i < mur_preset_count(); i++) {
            const mur_preset *p = mur_preset_at(i);
            printf("%-18s %4d boids  %s\n", p->name, p->params.count, p->summary);
        }
        printf("\n`murmur presets NAME` prints one as YAML to paste into a scene.\n");
        return 0;
    }
    const mur_preset *p = mur_preset_find(o->scene);
    if (!p)
        return mur_cli_usage_error("no preset named '%s' (murmur presets lists them)", o->scene);
    printf("# %s: %s\n", p->name, p->summary);
    print_params_yaml(stdout, p->name, &p->params);
    if (p->predator_x)
        printf("predators:\n  - mode: %s\n    radius: %g\n    strength: %g\n    x: \"%s\"\n    y: \"%s\"\n",
               p->predator.attract ? "attract" : "flee", p->predator.radius, p->predator.strength,
               p->predator_x, p->predator_y);
    return 0;
}

static void print_changes(const char *verb, const mur_change *c, int n)
{
    for (int i = 0; i < n; i++) {
        mur_params tmp = {0};
        mur_setting_put(c[i].setting, &tmp, c[i].value);
        printf("%s %s ", verb, c[i].setting->name);
        print_value(stdout, c[i].setting, &tmp);
        printf(";  ");
    }
}

int mur_cmd_check(const mur_cli_opts *o)
{
    mur_error err = {{0}};
    mur_scene *s = NULL;
    int rc = mur_scene_load(&s, o->scene, &err);
    if (rc)
        return mur_cli_report(rc, &err);
    printf("%s: ok\n", s->path);
    if (s->title)
        printf("title: %s\n", s->title);
    printf("seed: %llu\n", (unsigned long long)s->seed);
    print_params_yaml(stdout, s->preset->name, &s->params);
    printf("video: %dx%d, %g fps, %g ticks/s, %gs (%ld frames, %.0f ticks), warm-up %.0f ticks, quality %d\n",
           s->width, s->height, s->fps, s->tps, s->duration, mur_scene_frames(s),
           s->duration * s->tps, s->warmup, s->quality);
    printf("output: %s\n", s->output);
    if (s->ncues) {
        printf("timeline:\n  %-9s %-6s %s\n", "time", "line", "what");
        for (int i = 0; i < s->ncues; i++) {
            const mur_cue *q = &s->cues[i];
            printf("  %-9.3g %-6d ", q->at, q->line);
            print_changes("set", q->set, q->nset);
            if (q->nramp) {
                print_changes("ramp", q->ramp, q->nramp);
                printf("over %gs (%s);  ", q->over, mur_ease_name(q->ease));
            }
            if (q->caption)
                printf("caption \"%s\" for %gs;  ", q->caption, q->caption_for);
            if (q->event)
                printf("event %s", mur_event_name(q->event));
            printf("\n");
        }
    }
    for (int i = 0; i < s->npredators; i++) {
        const mur_script_predator *p = &s->predators[i];
        printf("predator %d: %s, radius %g, strength %g, %s", i, p->attract ? "attract" : "flee",
               p->radius, p->strength, p->path ? "path" : "expressions");
        if (p->path)
            printf(" of %d keys (%s)", p->npath, p->smooth ? "smooth" : "linear");
        else
            printf(" x=%s y=%s", p->x_expr, p->y_expr);
        if (isfinite(p->from) || isfinite(p->until))
            printf(", from %gs until %gs", p->from, p->until);
        printf("\n");
    }
    if (s->nconditions > 1 || s->conditions[0].nset) {
        printf("experiment: %d runs x %d ticks; metrics:", s->runs, s->ticks);
        for (int k = 0; k < s->nmetrics; k++)
            printf(" %s", mur_metric_names[s->metrics[k]]);
        printf("\n");
        for (int i = 0; i < s->nconditions; i++) {
            printf("  %-16s ", s->conditions[i].name);
            print_changes("set", s->conditions[i].set, s->conditions[i].nset);
            printf("\n");
        }
    }
    mur_scene_destroy(s);
    return 0;
}
