/* The scene loader's private interface (src/scene/parse_*.c, scene.c): the
 * walk's context, a mapping's pairs, the settings a section changes, the
 * YAML toolkit (parse_yaml.c) and what each section's file offers the
 * others. Every key table is declared once, in its section's file, and
 * listed by mur_scene_key_at (scene.c) for the docs test. */
#ifndef MURMUR_SCENE_PARSE_H
#define MURMUR_SCENE_PARSE_H

#include "murmur/scene.h"
#include "yamlnode.h"

#include <stdarg.h>
#include <yaml.h>

#define WALK_BUDGET 200000  /* node visits per file */

/* What a scene holds beyond the public mur_scene, whose layout libmurmur
 * 0.2's callers are compiled against: mur_scene_parse allocates it right
 * after the scene (scene.c), so only a scene it made has one (a mur_scene
 * copied by value, as camera.c's, must not be asked). */
typedef struct mur_scene_more {
    double twin_shift_z;   /* experiment.twin.shift's dz (a 3D world's [dx, dy, dz]), world units */
} mur_scene_more;
mur_scene_more *mur_scene_more_of(mur_scene *s);
const mur_scene_more *mur_scene_more_of_const(const mur_scene *s);
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
    yaml_node_t *camera;  /* the camera section (a 3D camera is checked once it is all read) */
    yaml_node_t *focus, *aperture, *wrap; /* camera.focus, .aperture and .wrap (checked once the camera is read) */
    yaml_node_t *fov, *height;  /* the first camera.fov and camera.height, section or timeline (one lens or the other) */
} ctx;
typedef struct {
    const char *key;
    yaml_node_t *k, *v;
} pair;
/* Iterate a mapping: for each pair, check the key is one of `allowed` (NULL
 * terminated; NULL list = any key) and unique. Calls fn with each pair. */
/* Called with each pair of a mapping (mur_parse_each_pair). */
typedef int (*pair_fn)(ctx *c, pair *p, void *arg);
typedef struct {
    mur_change *list;   /* growing list of changes (NULL: write params directly) */
    int n, cap;
    mur_params *p;      /* params to write when list is NULL */
    int ramp;           /* only numeric settings may ramp */
    mur_cue *cue;       /* a timeline entry's: camera.* keys go to its camera list */
} changes;

/* parse_yaml.c */
__attribute__((format(printf, 3, 4)))
int mur_parse_fail_at(ctx *c, const yaml_node_t *n, const char *fmt, ...);
int mur_parse_oom(ctx *c);
const char *mur_parse_nearest(const char *word, const char *const *names);
int mur_parse_unknown(ctx *c, const yaml_node_t *n, const char *what, const char *word,
                   const char *const *names);
yaml_node_t *mur_parse_node(ctx *c, int id);
const char *mur_parse_scalar(const yaml_node_t *n);
int mur_parse_need_type(ctx *c, const yaml_node_t *n, yaml_node_type_t t, const char *key);
int mur_parse_each_pair(ctx *c, yaml_node_t *map, const char *what, const char *const *allowed,
                     pair_fn fn, void *arg);
yaml_node_t *mur_parse_lookup(ctx *c, yaml_node_t *map, const char *key);
int mur_parse_double(const char *s, double *out);
int mur_parse_number(ctx *c, const yaml_node_t *n, const char *key, double lo, double hi,
                  double *out);
/* A pair [a, b] of numbers in [lo, hi] at n (a point, a range); shape
 * names it in the message ("a point [x, y]"). */
int mur_parse_number_pair(ctx *c, yaml_node_t *n, const char *key, const char *shape, double lo, double hi,
                          double out[2]);
/* The same for a list of exactly `count` numbers ([x, y, z]: count 3). */
int mur_parse_numbers(ctx *c, yaml_node_t *n, const char *key, const char *shape, int count, double lo,
                      double hi, double *out);
int mur_parse_integer(ctx *c, const yaml_node_t *n, const char *key, double lo, double hi,
                   int *out);
int mur_parse_time_value(ctx *c, const yaml_node_t *n, const char *key, double lo, double hi,
                      double *out);
int mur_parse_colour(ctx *c, const yaml_node_t *n, const char *key, mur_rgba *out);
int mur_parse_choice(ctx *c, const yaml_node_t *n, const char *key, const char *const *names,
                  int *out);
int mur_parse_printable(ctx *c, const yaml_node_t *n, const char *key, const char *s);
int mur_parse_text(ctx *c, const yaml_node_t *n, const char *key, size_t max, char **out);

/* parse_world.c */
extern const char *const mur_parse_world_keys[];
int mur_parse_world_pair(ctx *c, pair *p, void *arg);
/* After the world section: density and a size exclude each other. */
int mur_parse_world_finish(ctx *c, yaml_node_t *map);
/* The model family's keys (parse_family.c): neighbours' short form, and
 * after the flock section, no kind's key under another kind. */
int mur_parse_neighbours_value(ctx *c, pair *p, changes *ch);
int mur_parse_kinds_keys(ctx *c, yaml_node_t *map);
int mur_parse_kinds_elsewhere(ctx *c, yaml_node_t *root);

/* parse_flock.c */
const char **mur_parse_setting_names(const char *names[128]);
int mur_parse_add_change(ctx *c, changes *ch, const mur_setting *s, double v);
int mur_parse_setting_value(ctx *c, const yaml_node_t *n, const mur_setting *s, changes *ch);
extern const char *const mur_parse_rule_names[];
int mur_parse_one_setting(ctx *c, pair *p, void *arg);
int mur_parse_settings_map(ctx *c, yaml_node_t *map, const char *what, changes *ch);
int mur_parse_params_ok(ctx *c, const mur_params *p, const yaml_node_t *where);
extern const char *const mur_parse_source_keys[];
extern const char *const mur_parse_start_keys[];
/* path as written in scene `scene`: relative to the scene's folder (a copy; NULL: out of memory) */
char *mur_parse_beside_scene(const char *scene, const char *path);
/* The text of key at n, a file's path, beside the scene (*out, the caller's); 0 or the error. */
int mur_parse_file_beside(ctx *c, yaml_node_t *n, const char *key, char **out);
int mur_parse_recording(ctx *c, yaml_node_t *n, const char *key, long tick, mur_recording **out);
extern const char *const mur_parse_disc_keys[];
extern const char *const mur_parse_ring_keys[];
extern const char *const mur_parse_box_keys[];
extern const char *const mur_parse_ball_keys[];
extern const char *const mur_parse_slab_keys[];
extern const char *const mur_parse_shape_keys[];
extern const char *const mur_parse_groups_key[];
extern const char *const mur_parse_group_keys[];
int mur_parse_flock_pair(ctx *c, pair *p, void *arg);
int mur_parse_flock_source(ctx *c, yaml_node_t *map);
int mur_parse_replay_ok(ctx *c, yaml_node_t *root, yaml_node_t *video);

/* parse_video.c */
int mur_parse_video_pair(ctx *c, pair *p, void *arg);
extern const char *const mur_parse_video_keys[];

/* parse_look.c */
int mur_parse_metric_name(ctx *c, yaml_node_t *n, const char *key, int *out);
int mur_parse_boid_named(ctx *c, yaml_node_t *v, const char *what, int *out);
extern const char *const mur_parse_plot_keys[];
extern const char *const mur_parse_watch_keys[];
extern const char *const mur_parse_boid_keys[];
extern const char *const mur_parse_trail_keys[];
extern const char *const mur_parse_sky_keys[];
int mur_parse_look_pair(ctx *c, pair *p, void *arg);
extern const char *const mur_parse_look_keys[];

/* parse_image.c: the image overlay (look.overlays[].image) */
extern const char *const mur_parse_image_keys[];
int mur_parse_image(ctx *c, yaml_node_t *v, mur_overlay *o);
void mur_parse_free_overlays(mur_look *lk);
/* parse_figure.c */
extern const char *const mur_parse_figure_keys[];
int mur_parse_figure(ctx *c, yaml_node_t *v, mur_overlay *o);
void mur_parse_figure_free(mur_overlay *o);
/* Once the timeline is read: each figure's setting is one it changes; its x axis. */
int mur_parse_figure_finish(ctx *c);

/* parse_camera.c */
extern const char *const mur_parse_camera_keys[];
extern const char *const mur_parse_follow_keys[];
int mur_parse_camera_section(ctx *c, yaml_node_t *map);
int mur_parse_camera_change(ctx *c, pair *p, changes *ch);
int mur_parse_camera_finish(ctx *c);

/* parse_timeline.c */
extern const char *const mur_parse_ease_names[];
extern const char *const mur_parse_event_names[];
extern const char *const mur_parse_caption_keys[];
extern const char *const mur_parse_title_keys[];
void mur_parse_free_cue(mur_cue *q);
int mur_parse_timeline_valid(ctx *c, const mur_params *base, const char *condition);
extern const char *const mur_parse_cue_keys[];
int mur_parse_timeline(ctx *c, yaml_node_t *seq);

/* parse_predators.c */
extern const char *const mur_parse_expr_names[];
void mur_parse_free_predator(mur_script_predator *pr);
extern const char *const mur_parse_predator_keys[];
int mur_parse_predators(ctx *c, yaml_node_t *seq);

/* parse_experiment.c */
extern const char *const mur_parse_twin_keys[];
extern const char *const mur_parse_measure_keys[];
int mur_parse_experiment_pair(ctx *c, pair *p, void *arg);
int mur_parse_layout_pair(ctx *c, pair *p, void *arg);
int mur_parse_baseline(ctx *c);
extern const char *const mur_parse_exp_keys[];
extern const char *const mur_parse_layout_keys[];

#endif
