/* The presets of docs/model.md and the table of model settings.
 *
 * Values docs/model.md calls "chosen here" are not published for that
 * variant; everything else is the variant's own and must not drift. */
#include "murmur/presets.h"

#include <string.h>

_Static_assert(sizeof(mur_boundary) == sizeof(int), "enum settings are stored as int");
_Static_assert(sizeof(mur_update) == sizeof(int), "enum settings are stored as int");

/* World size for the variants that run "on any screen": chosen here. */
#define SCREEN_W 640.0
#define SCREEN_H 360.0

#define LAB                                                                        \
    {.count = 220, .width = 480, .height = 320, .boundary = MUR_BOUNDARY_WRAP,     \
     .margin = 40, .separation = 1.4, .alignment = 1.0, .cohesion = 0.9,           \
     .separation_radius = 20, .alignment_radius = 46, .cohesion_radius = 46,       \
     .separation_falloff = 0, .separation_softening = 0.01,                        \
     .alignment_mode = MUR_ALIGN_RELATIVE, .combine = MUR_COMBINE_NORMALIZE,       \
     .gain_separation = 0.13, .gain_alignment = 0.09, .gain_cohesion = 0.05,       \
     .max_force = 0, .max_speed = 2.6, .min_speed = 0,                             \
     .speed_rule = MUR_SPEED_CONSTANT, .noise = 0, .fov = 360,                     \
     .update = MUR_UPDATE_SEQUENTIAL, .init_speed_min = 2, .init_speed_max = 2}

#define REYNOLDS                                                                   \
    {.count = 200, .width = SCREEN_W, .height = SCREEN_H,                          \
     .boundary = MUR_BOUNDARY_WRAP, .margin = 40, .separation = 1.6,               \
     .alignment = 1.0, .cohesion = 0.9, .separation_radius = 25,                   \
     .alignment_radius = 60, .cohesion_radius = 60, .separation_falloff = 2,       \
     .separation_softening = 0, .alignment_mode = MUR_ALIGN_HEADING,               \
     .combine = MUR_COMBINE_STEER, .gain_separation = 1, .gain_alignment = 1,      \
     .gain_cohesion = 1, .max_force = 0.256, .max_speed = 3.2, .min_speed = 1.6,   \
     .speed_rule = MUR_SPEED_CLAMP, .noise = 0, .fov = 360,                        \
     .update = MUR_UPDATE_SYNC, .init_speed_min = 1.6, .init_speed_max = 3.2}

#define WRKSPC                                                                     \
    {.count = 160, .width = 480, .height = 320, .boundary = MUR_BOUNDARY_WRAP,     \
     .margin = 30, .separation = 1.5, .alignment = 1.0, .cohesion = 0.9,           \
     .separation_radius = 12, .alignment_radius = 40, .cohesion_radius = 40,       \
     .separation_falloff = 1, .separation_softening = 0,                           \
     .alignment_mode = MUR_ALIGN_HEADING, .combine = MUR_COMBINE_NORMALIZE,        \
     .gain_separation = 1, .gain_alignment = 1, .gain_cohesion = 1,                \
     .max_force = 0.06, .max_speed = 2.4, .min_speed = 1.2,                        \
     .speed_rule = MUR_SPEED_CLAMP, .noise = 0, .fov = 360,                        \
     .update = MUR_UPDATE_SYNC, .init_speed_min = 2, .init_speed_max = 2}

#define RADII                                                                      \
    {.count = 120, .width = SCREEN_W, .height = SCREEN_H,                          \
     .boundary = MUR_BOUNDARY_WRAP, .margin = 40, .separation = 1.35,              \
     .alignment = 0.85, .cohesion = 0.65, .separation_radius = 18,                 \
     .alignment_radius = 42, .cohesion_radius = 52, .separation_falloff = 1,       \
     .separation_softening = 0, .alignment_mode = MUR_ALIGN_HEADING,               \
     .combine = MUR_COMBINE_STEER, .gain_separation = 1, .gain_alignment = 1,      \
     .gain_cohesion = 1, .max_force = 0.05, .max_speed = 2.2, .min_speed = 0.5,    \
     .speed_rule = MUR_SPEED_CLAMP, .noise = 0, .fov = 360,                        \
     .update = MUR_UPDATE_SYNC, .init_speed_min = 1.5, .init_speed_max = 1.5}

/* engine: "square, any": 600 x 600 chosen here. */
#define ENGINE_WITH(...)                                                           \
    {.count = 120, .width = 600, .height = 600, .boundary = MUR_BOUNDARY_WRAP,     \
     .margin = 40, .separation = 1.5, .alignment = 1.0, .cohesion = 1.0,           \
     .separation_radius = 25, .alignment_radius = 50, .cohesion_radius = 50,       \
     .separation_falloff = 1, .separation_softening = 0,                           \
     .alignment_mode = MUR_ALIGN_HEADING, .combine = MUR_COMBINE_STEER,            \
     .gain_separation = 1, .gain_alignment = 1, .gain_cohesion = 1,                \
     .max_force = 0.05, .max_speed = 2.5, .min_speed = 0.25,                       \
     .speed_rule = MUR_SPEED_CLAMP, .noise = 0.02, .fov = 360,                     \
     .update = MUR_UPDATE_SYNC, .init_speed_min = 1.5, .init_speed_max = 1.5,      \
     __VA_ARGS__}

/* Designated initialisers may repeat a member; the last one wins (C17 6.7.9p19),
 * which is exactly "like engine, but". GCC warns with -Woverride-init, which
 * -Wextra enables, so it is silenced for this table only. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
static const mur_preset presets[] = {
    {"lab", "turn-only rules, in-place sequential update, constant speed",
     LAB, {0, 0, 130, 0.8, 0}, NULL, NULL},
    {"reynolds", "classic steering (Reynolds 1987), 1/d^2 separation",
     REYNOLDS, {0, 0, 100, 0.5, 0}, NULL, NULL},
    {"wrkspc", "normalised weighted rules, one perception radius, knockout demos",
     WRKSPC, {0, 0, 80, 0.5, 0}, NULL, NULL},
    {"radii", "steering with one radius per question: 18 / 42 / 52",
     RADII, {0, 0, 120, 0.3, 1}, NULL, NULL},
    {"engine", "steering with a little noise, square world",
     ENGINE_WITH(.count = 120), {0, 0, 80, 0.6, 0}, NULL, NULL},
    {"engine-school", "tight school: strong cohesion, separation and alignment",
     ENGINE_WITH(.count = 200, .cohesion = 3, .separation = 2.0, .alignment = 1.5,
                 .noise = 0.01),
     {0, 0, 80, 0.6, 0}, NULL, NULL},
    {"engine-swarm", "chaotic swarm: weak alignment and cohesion, five times the noise",
     ENGINE_WITH(.count = 150, .alignment = 0.3, .cohesion = 0.3, .noise = 0.1),
     {0, 0, 80, 0.6, 0}, NULL, NULL},
    {"engine-blindspot", "engine with a 160 degree blind spot (fov 200)",
     ENGINE_WITH(.fov = 200), {0, 0, 80, 0.6, 0}, NULL, NULL},
    {"engine-predator", "engine with a scripted flee predator circling the world",
     ENGINE_WITH(.count = 120), {0, 0, 80, 0.6, 0},
     "W/2 + 0.3*W*cos(2*PI*t/12)", "H/2 + 0.3*H*sin(2*PI*t/8)"},
};
#pragma GCC diagnostic pop

int mur_preset_count(void) { return (int)(sizeof presets / sizeof presets[0]); }

const mur_preset *mur_preset_at(int i)
{
    return i >= 0 && i < mur_preset_count() ? &presets[i] : NULL;
}

const mur_preset *mur_preset_find(const char *name)
{
    for (int i = 0; i < mur_preset_count(); i++)
        if (strcmp(presets[i].name, name) == 0)
            return &presets[i];
    return NULL;
}

static const char *const boundary_names[] = {"wrap", "reflect", "avoid", NULL};
static const char *const align_names[] = {"heading", "relative", NULL};
static const char *const combine_names[] = {"normalize", "steer", NULL};
static const char *const speed_names[] = {"clamp", "constant", NULL};
static const char *const update_names[] = {"sync", "sequential", NULL};

#define OFF(f) offsetof(mur_params, f)
#define REAL(n, f, lo, hi, h) {n, MUR_SETTING_REAL, OFF(f), lo, hi, NULL, h}
#define INT(n, f, lo, hi, h) {n, MUR_SETTING_INT, OFF(f), lo, hi, NULL, h}
#define ENUM(n, f, c, h) {n, MUR_SETTING_ENUM, OFF(f), 0, 0, c, h}

/* Ranges are generous but finite: a scene may explore, never overflow. */
static const mur_setting settings[] = {
    INT("count", count, 0, MUR_MAX_BOIDS, "number of boids"),
    REAL("width", width, 1, MUR_MAX_WORLD, "world width, world units"),
    REAL("height", height, 1, MUR_MAX_WORLD, "world height, world units"),
    ENUM("boundary", boundary, boundary_names, "wrap (torus) | reflect | avoid"),
    REAL("margin", margin, 0, MUR_MAX_WORLD, "avoid: turning band at each wall, world units"),
    REAL("separation", separation, 0, 100, "separation weight"),
    REAL("alignment", alignment, 0, 100, "alignment weight"),
    REAL("cohesion", cohesion, 0, 100, "cohesion weight"),
    REAL("separation_radius", separation_radius, 0, 1e6, "R_sep, world units"),
    REAL("alignment_radius", alignment_radius, 0, 1e6, "R_ali, world units"),
    REAL("cohesion_radius", cohesion_radius, 0, 1e6, "R_coh, world units"),
    INT("separation_falloff", separation_falloff, 0, 2, "k: separation weighted by 1/d^k"),
    REAL("separation_softening", separation_softening, 0, 1e3, "e added to |d|, world units"),
    ENUM("alignment_mode", alignment_mode, align_names, "heading | relative (minus own velocity)"),
    ENUM("combine", combine, combine_names, "normalize | steer (Reynolds)"),
    REAL("gain_separation", gain_separation, 0, 100, "normalize: fixed gain of separation"),
    REAL("gain_alignment", gain_alignment, 0, 100, "normalize: fixed gain of alignment"),
    REAL("gain_cohesion", gain_cohesion, 0, 100, "normalize: fixed gain of cohesion"),
    REAL("max_force", max_force, 0, 1e3, "clamp on acceleration, units/tick^2 (0 = none)"),
    REAL("max_speed", max_speed, 0, 1e4, "units/tick"),
    REAL("min_speed", min_speed, 0, 1e4, "units/tick (clamp rule)"),
    ENUM("speed_rule", speed_rule, speed_names, "clamp | constant"),
    REAL("noise", noise, 0, MUR_NOISE_MAX, "random acceleration, fraction of max_speed per tick"),
    REAL("fov", fov, 0, 360, "field of view, degrees (360 = no blind spot)"),
    ENUM("update", update, update_names, "sync | sequential"),
    REAL("init_speed_min", init_speed_min, 0, 1e4, "initial speed, lower bound, units/tick"),
    REAL("init_speed_max", init_speed_max, 0, 1e4, "initial speed, upper bound, units/tick"),
};

int mur_setting_count(void) { return (int)(sizeof settings / sizeof settings[0]); }

const mur_setting *mur_setting_at(int i)
{
    return i >= 0 && i < mur_setting_count() ? &settings[i] : NULL;
}

const mur_setting *mur_setting_find(const char *name)
{
    for (int i = 0; i < mur_setting_count(); i++)
        if (strcmp(settings[i].name, name) == 0)
            return &settings[i];
    return NULL;
}

double mur_setting_get(const mur_setting *s, const mur_params *p)
{
    const char *base = (const char *)p + s->offset;
    if (s->type == MUR_SETTING_REAL)
        return *(const double *)(const void *)base;
    return *(const int *)(const void *)base;
}

void mur_setting_put(const mur_setting *s, mur_params *p, double v)
{
    char *base = (char *)p + s->offset;
    if (s->type == MUR_SETTING_REAL)
        *(double *)(void *)base = v;
    else
        *(int *)(void *)base = (int)(v < 0 ? v - 0.5 : v + 0.5);
}

const char *mur_setting_choice(const mur_setting *s, const mur_params *p)
{
    if (s->type != MUR_SETTING_ENUM)
        return NULL;
    int v = (int)mur_setting_get(s, p);
    for (int i = 0; s->choices[i]; i++)
        if (i == v)
            return s->choices[i];
    return "?";
}
