/* The names of shapes, colour modes and overlays (murmur/look.h): one table
 * each, which the loader's choices, its key table, `murmur check` and the
 * timeline's show and hide all read, so none can lag behind the enums. */
#include "murmur/look.h"

#include <stddef.h>

const char *const mur_shape_names[] = {"arrow", "triangle", "dot", "density", NULL};
const char *const mur_color_mode_names[] = {"fixed", "heading", "speed", "neighbours", "cluster", "group", NULL};
const char *const mur_overlay_names[] = {"readout", "plot", "watch", "params", "clock", "state", "image", "figure", NULL};

/* The enums' sizes, checked against the tables at compile time. */
_Static_assert(sizeof mur_shape_names / sizeof *mur_shape_names == MUR_SHAPE_DENSITY + 2, "a shape without a name");
_Static_assert(sizeof mur_color_mode_names / sizeof *mur_color_mode_names == MUR_COLOR_GROUP + 2,
               "a colour mode without a name");
_Static_assert(sizeof mur_overlay_names / sizeof *mur_overlay_names == MUR_LOOK_PREDATORS + 1,
               "an overlay without a name");
