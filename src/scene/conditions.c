/* Experiment conditions: finding one by name (`--condition`), and the
 * values a sweep gave each (conditions.h, docs/scenes.md `sweep`).
 *
 * A sweep is expanded into ordinary conditions when the scene loads, so
 * everything that runs conditions (stats, series, panels, traces) runs a
 * sweep's grid points with no code of its own; what is left of the sweep
 * is which settings it varies, so outputs can give each a column. */
#include "murmur/experiment.h"

#include <stdio.h>
#include <string.h>

int mur_experiment_find_condition(const mur_scene *s, const char *name, mur_error *err)
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
    return -1;
}

double mur_experiment_condition_value(const mur_experiment *e, int c, const mur_setting *st)
{
    const mur_condition *q = mur_experiment_condition(e, c);
    for (int i = q ? q->nset - 1 : -1; i >= 0; i--)   /* the last change of st wins, as applied */
        if (q->set[i].setting == st)
            return q->set[i].value;
    return mur_setting_get(st, &mur_experiment_scene(e)->params);
}
