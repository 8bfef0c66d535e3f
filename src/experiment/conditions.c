/* Experiment conditions: the values a sweep gave each (conditions.h, docs/scenes.md `sweep`).
 *
 * A sweep is expanded into ordinary conditions when the scene loads, so
 * everything that runs conditions (stats, series, panels, traces) runs a
 * sweep's grid points with no code of its own; what is left of the sweep
 * is which settings it varies, so outputs can give each a column. */
#include "murmur/experiment.h"

#include <stdio.h>
#include <string.h>

double mur_experiment_condition_value(const mur_experiment *e, int c, const mur_setting *st)
{
    const mur_condition *q = mur_experiment_condition(e, c);
    for (int i = q ? q->nset - 1 : -1; i >= 0; i--)   /* the last change of st wins, as applied */
        if (q->set[i].setting == st)
            return q->set[i].value;
    return mur_setting_get(st, &mur_experiment_scene(e)->params);
}
