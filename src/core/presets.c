/* The presets of docs/model.md and the table of model settings.
 *
 * Values docs/model.md calls "chosen here" are not published for that
 * variant; everything else is the variant's own and must not drift. */
#include "murmur/presets.h"

#include <math.h>
#include <string.h>

#include "family.h"

_Static_assert(sizeof(mur_boundary) == sizeof(int), "enum settings are stored as int");
_Static_assert(sizeof(mur_update) == sizeof(int), "enum settings are stored as int");
_Static_assert(sizeof(mur_neighbours) == sizeof(int) && sizeof(mur_interaction) == sizeof(int) &&
                   sizeof(mur_motion) == sizeof(int),
               "enum settings are stored as int");

/* World size for the variants that run "on any screen": chosen here. */
#define SCREEN_W 640.0
#define SCREEN_H 360.0

#define LAB                                                                        \
    {.version = MUR_PARAMS_VERSION,                                                \
     .count = 220, .width = 480, .height = 320, .boundary = MUR_BOUNDARY_WRAP,     \
     .margin = 40, .separation = 1.4, .alignment = 1.0, .cohesion = 0.9,           \
     .separation_radius = 20, .alignment_radius = 46, .cohesion_radius = 46,       \
     .separation_falloff = 0, .separation_softening = 0.01,                        \
     .alignment_mode = MUR_ALIGN_RELATIVE, .combine = MUR_COMBINE_NORMALIZE,       \
     .gain_separation = 0.13, .gain_alignment = 0.09, .gain_cohesion = 0.05,       \
     .max_force = 0, .max_speed = 2.6, .min_speed = 0,                             \
     .speed_rule = MUR_SPEED_CONSTANT, .noise = 0, .fov = 360,                     \
     .update = MUR_UPDATE_SEQUENTIAL, .init_speed_min = 2, .init_speed_max = 2, \
     MUR_FAMILY_DEFAULTS}

#define REYNOLDS                                                                   \
    {.version = MUR_PARAMS_VERSION,                                                \
     .count = 200, .width = SCREEN_W, .height = SCREEN_H,                          \
     .boundary = MUR_BOUNDARY_WRAP, .margin = 40, .separation = 1.6,               \
     .alignment = 1.0, .cohesion = 0.9, .separation_radius = 25,                   \
     .alignment_radius = 60, .cohesion_radius = 60, .separation_falloff = 2,       \
     .separation_softening = 0, .alignment_mode = MUR_ALIGN_HEADING,               \
     .combine = MUR_COMBINE_STEER, .gain_separation = 1, .gain_alignment = 1,      \
     .gain_cohesion = 1, .max_force = 0.256, .max_speed = 3.2, .min_speed = 1.6,   \
     .speed_rule = MUR_SPEED_CLAMP, .noise = 0, .fov = 360,                        \
     .update = MUR_UPDATE_SYNC, .init_speed_min = 1.6, .init_speed_max = 3.2, \
     MUR_FAMILY_DEFAULTS}

#define WRKSPC_WITH(...)                                                                 \
    {.version = MUR_PARAMS_VERSION,                                                \
     .count = 160, .width = 480, .height = 320, .boundary = MUR_BOUNDARY_WRAP,     \
     .margin = 30, .separation = 1.5, .alignment = 1.0, .cohesion = 0.9,           \
     .separation_radius = 12, .alignment_radius = 40, .cohesion_radius = 40,       \
     .separation_falloff = 1, .separation_softening = 0,                           \
     .alignment_mode = MUR_ALIGN_HEADING, .combine = MUR_COMBINE_NORMALIZE,        \
     .gain_separation = 1, .gain_alignment = 1, .gain_cohesion = 1,                \
     .max_force = 0.06, .max_speed = 2.4, .min_speed = 1.2,                        \
     .speed_rule = MUR_SPEED_CLAMP, .noise = 0, .fov = 360,                        \
     .update = MUR_UPDATE_SYNC, .init_speed_min = 2, .init_speed_max = 2, \
     MUR_FAMILY_DEFAULTS, __VA_ARGS__}
#define WRKSPC WRKSPC_WITH(.count = 160)

#define RADII                                                                      \
    {.version = MUR_PARAMS_VERSION,                                                \
     .count = 120, .width = SCREEN_W, .height = SCREEN_H,                          \
     .boundary = MUR_BOUNDARY_WRAP, .margin = 40, .separation = 1.35,              \
     .alignment = 0.85, .cohesion = 0.65, .separation_radius = 18,                 \
     .alignment_radius = 42, .cohesion_radius = 52, .separation_falloff = 1,       \
     .separation_softening = 0, .alignment_mode = MUR_ALIGN_HEADING,               \
     .combine = MUR_COMBINE_STEER, .gain_separation = 1, .gain_alignment = 1,      \
     .gain_cohesion = 1, .max_force = 0.05, .max_speed = 2.2, .min_speed = 0.5,    \
     .speed_rule = MUR_SPEED_CLAMP, .noise = 0, .fov = 360,                        \
     .update = MUR_UPDATE_SYNC, .init_speed_min = 1.5, .init_speed_max = 1.5, \
     MUR_FAMILY_DEFAULTS}

/* engine: "square, any": 600 x 600 chosen here. */
#define ENGINE_WITH(...)                                                           \
    {.version = MUR_PARAMS_VERSION,                                                \
     .count = 120, .width = 600, .height = 600, .boundary = MUR_BOUNDARY_WRAP,     \
     .margin = 40, .separation = 1.5, .alignment = 1.0, .cohesion = 1.0,           \
     .separation_radius = 25, .alignment_radius = 50, .cohesion_radius = 50,       \
     .separation_falloff = 1, .separation_softening = 0,                           \
     .alignment_mode = MUR_ALIGN_HEADING, .combine = MUR_COMBINE_STEER,            \
     .gain_separation = 1, .gain_alignment = 1, .gain_cohesion = 1,                \
     .max_force = 0.05, .max_speed = 2.5, .min_speed = 0.25,                       \
     .speed_rule = MUR_SPEED_CLAMP, .noise = 0.02, .fov = 360,                     \
     .update = MUR_UPDATE_SYNC, .init_speed_min = 1.5, .init_speed_max = 1.5,      \
     MUR_FAMILY_DEFAULTS, __VA_ARGS__}

/* Vicsek et al. 1995: v0 = 0.03, r = 1, density 4 (their Fig. 2a), the
 * heading set to the neighbours' mean each tick. count 400 (a side of 10)
 * and eta = 0.5 (ordered) are chosen here. */
#define VICSEK                                                                     \
    {.version = MUR_PARAMS_VERSION,                                                \
     .count = 400, .width = 10, .height = 10, .boundary = MUR_BOUNDARY_WRAP,       \
     .margin = 0, .separation = 0, .alignment = 1, .cohesion = 0,                 \
     .separation_radius = 0, .alignment_radius = 1, .cohesion_radius = 1,         \
     .separation_falloff = 0, .separation_softening = 0,                          \
     .alignment_mode = MUR_ALIGN_HEADING, .combine = MUR_COMBINE_NORMALIZE,       \
     .gain_separation = 1, .gain_alignment = 1, .gain_cohesion = 1,               \
     .max_force = 0, .max_speed = 0.03, .min_speed = 0,                           \
     .speed_rule = MUR_SPEED_CONSTANT, .noise = 0.5, .fov = 360,                  \
     .update = MUR_UPDATE_SYNC, .init_speed_min = 0.03, .init_speed_max = 0.03,   \
     MUR_FAMILY_DEFAULTS, .density = 4, .interaction = MUR_INTERACTION_VICSEK,    \
     .motion = MUR_MOTION_SET}

/* Couzin et al. 2002: r_r = 1, attraction width 14, fov 270, 40 degrees a
 * second, s = 3 (0.3 a tick of 0.1 s), sigma = 0.05, open space. The start
 * is a disc of radius 0.8 sqrt(N) (the open world's start fills a disc of
 * the world's area: density N / (pi (0.8 sqrt N)^2) = 1 / (0.64 pi)).
 * orientation_width 2 (a torus) is chosen here; the cluster metrics' radius
 * (cohesion_radius) is r_a. */
#define COUZIN                                                                     \
    {.version = MUR_PARAMS_VERSION,                                                  \
     .count = 100, .width = 14.179630807244127, .height = 14.179630807244127,        \
     .boundary = MUR_BOUNDARY_OPEN,                                                \
     .margin = 0, .separation = 0, .alignment = 1, .cohesion = 1,                 \
     .separation_radius = 1, .alignment_radius = 17, .cohesion_radius = 17,       \
     .separation_falloff = 0, .separation_softening = 0,                          \
     .alignment_mode = MUR_ALIGN_HEADING, .combine = MUR_COMBINE_NORMALIZE,       \
     .gain_separation = 1, .gain_alignment = 1, .gain_cohesion = 1,               \
     .max_force = 0, .max_speed = 0.3, .min_speed = 0,                            \
     .speed_rule = MUR_SPEED_CONSTANT, .noise = 0.05, .fov = 270,                 \
     .update = MUR_UPDATE_SYNC, .init_speed_min = 0.3, .init_speed_max = 0.3,     \
     MUR_FAMILY_DEFAULTS, .density = 1 / (0.64 * MUR_PI),                         \
     .interaction = MUR_INTERACTION_COUZIN, .orientation_width = 2,               \
     .attraction_width = 14, .motion = MUR_MOTION_TURN}

/* model: starling, StarDisplay's (docs/model.md "starling"): metres and
 * seconds, a tick of dt = 0.005 s (StarDisplay's integration step), so
 * max_speed 20 m/s is 0.1 m a tick and min_speed 0.1 m/s is 0.0005. The
 * published values are config_plos.ini's and Table 1's (Hemelrijk and
 * Hildenbrandt 2011): roost_weight 0.01 N/m is Table 1's horizontal
 * w_RoostH (config_plos.ini's 0.2 turned flocks over at the edge),
 * altitude_weight 0.01 N/m config_plos.ini's vertical (0.2 x 0.05; Table
 * 1's 0.2 flattens a flock to a 2 m sheet), roll_out 1/s Table 1's
 * w_beta_out. Chosen here: the world (a 300 m square over the roost, 200 m
 * deep, open), count 2000, the altitude 100 m (StarDisplay's Lua
 * starling), max_lift 1 N and bank_alignment 0 (its Lua starling),
 * separation_radius 2 m (its Lua starling's separationStep edge; Table
 * 1's 4 m with the smootherstep spaces birds 2.3 m apart, past the
 * field's 0.68-1.51 m), separation_neighbours 7, speed_control 1/s
 * (accelerationOneOverTau), hard_core 0.2 m (minRadius) as the
 * smootherstep's inner edge, max_roll 80 degrees. The escape (off:
 * escape_radius 0) takes StarDisplay's Lua Zig (evasion.lua): a side
 * force of 1 N for 0.25 s away and 0.3 s back, a zig every 2 s at most;
 * copy_latency 0.05 s is Table 1's reaction time; copy_neighbours 7 is
 * chosen (Hemelrijk et al. 2015: two to seven neighbours give the
 * empirical wave speed). */
#define STARLING                                                                   \
    {.version = MUR_PARAMS_VERSION,                                                \
     .count = 2000, .width = 300, .height = 300, .boundary = MUR_BOUNDARY_OPEN,    \
     .margin = 0, .separation = 0, .alignment = 0, .cohesion = 0,                 \
     .separation_radius = 2, .alignment_radius = 4, .cohesion_radius = 4,         \
     .separation_falloff = 0, .separation_softening = 0,                          \
     .alignment_mode = MUR_ALIGN_HEADING, .combine = MUR_COMBINE_NORMALIZE,       \
     .gain_separation = 1, .gain_alignment = 1, .gain_cohesion = 1,               \
     .max_force = 0, .max_speed = 0.1, .min_speed = 0.0005,                       \
     .speed_rule = MUR_SPEED_CLAMP, .noise = 0, .fov = 360,                       \
     .update = MUR_UPDATE_SYNC, .init_speed_min = 0.05, .init_speed_max = 0.05,   \
     MUR_FAMILY_DEFAULTS, .dt = 0.005, .dimensions = 3, .depth = 200,             \
     .neighbours = MUR_NEIGHBOURS_ADAPTIVE, .interaction = MUR_INTERACTION_STARLING, \
     .motion = MUR_MOTION_FLY, .topological_range = 6.5, .neighbour_lerp = 0.1,   \
     .max_radius = 50, .reaction_time = 0.05, .reaction_spread = 0.25,            \
     .hard_core = 0.2, .separation_neighbours = 7, .separation_weight = 1,        \
     .separation_up = 1, .alignment_weight = 0.5, .bank_alignment = 0,            \
     .cohesion_weight = 1, .cohesion_up = 1, .cohesion_blind_angle = 45,          \
     .random_weight = 0.01, .roost_x = 150, .roost_y = 150, .roost_radius = 150,  \
     .roost_weight = 0.01, .reflect_angle = 120, .altitude = 100,                  \
     .altitude_weight = 0.01, .body_mass = 0.08, .cruise_speed = 10,              \
     .speed_control = 1, .drag_lift = 0.303, .max_lift = 1, .roll_rate = 10,      \
     .pitch_rate = 0, .roll_out = 1, .max_roll = 80, .escape_radius = 0,         \
     .escape_force = 1, .escape_away = 0.25, .escape_back = 0.3,                  \
     .escape_time = 2, .copy_neighbours = 7, .copy_latency = 0.05}

/* Designated initialisers may repeat a member; the last one wins (C17 6.7.9p19),
 * which is exactly "like engine, but". GCC warns with -Woverride-init, which
 * -Wextra enables, so it is silenced for this table only. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
static const mur_preset presets[] = {
    {"lab", "turn-only rules, in-place sequential update, constant speed",
     LAB, {0, 0, 130, 0.8, 0, 0, 0, 0, 0}, NULL, NULL},
    {"reynolds", "classic steering (Reynolds 1987), 1/d^2 separation",
     REYNOLDS, {0, 0, 100, 0.5, 0, 0, 0, 0, 0}, NULL, NULL},
    {"wrkspc", "normalised weighted rules, one perception radius, knockout demos",
     WRKSPC, {0, 0, 80, 0.5, 0, 0, 0, 0, 0}, NULL, NULL},
    {"radii", "steering with one radius per question: 18 / 42 / 52",
     RADII, {0, 0, 120, 0.3, 1, 0, 0, 0, 0}, NULL, NULL},
    {"engine", "steering with a little noise, square world",
     ENGINE_WITH(.count = 120), {0, 0, 80, 0.6, 0, 0, 0, 0, 0}, NULL, NULL},
    {"engine-school", "tight school: strong cohesion, separation and alignment",
     ENGINE_WITH(.count = 200, .cohesion = 3, .separation = 2.0, .alignment = 1.5,
                 .noise = 0.01),
     {0, 0, 80, 0.6, 0, 0, 0, 0, 0}, NULL, NULL},
    {"engine-swarm", "chaotic swarm: weak alignment and cohesion, five times the noise",
     ENGINE_WITH(.count = 150, .alignment = 0.3, .cohesion = 0.3, .noise = 0.1),
     {0, 0, 80, 0.6, 0, 0, 0, 0, 0}, NULL, NULL},
    {"engine-blindspot", "engine with a 160 degree blind spot (fov 200)",
     ENGINE_WITH(.fov = 200), {0, 0, 80, 0.6, 0, 0, 0, 0, 0}, NULL, NULL},
    {"engine-predator", "engine with a scripted flee predator circling the world",
     ENGINE_WITH(.count = 120), {0, 0, 80, 0.6, 0, 0, 0, 0, 0},
     "W/2 + 0.3*W*cos(2*PI*t/12)", "H/2 + 0.3*H*sin(2*PI*t/8)"},
    {"vicsek", "Vicsek et al. 1995: heading set to the neighbours' mean plus uniform noise eta",
     VICSEK, {0, 0, 2, 0.01, 0, 0, 0, 0, 0}, NULL, NULL},
    {"couzin", "Couzin et al. 2002: repulsion, orientation and attraction zones, open space",
     COUZIN, {0, 0, 6, 0.1, 0, 0, 0, 0, 0}, NULL, NULL},
    /* topological: alignment 1.5 and max_force 0.02 (wrkspc's 1.0 and 0.06)
     * chosen so its order matches the metric preset's: 3 (2D: 4) runs of
     * 3,000 ticks, the mean of the last 1,000, order 0.985 in 3D and 0.994 in
     * 2D against wrkspc's 0.979 and 0.991 (with wrkspc's values 0.848 and
     * 0.983). A gentler turn keeps the 7-neighbour groups from scattering
     * apart in heading; it does not join them (docs/model.md). */
    {"topological", "wrkspc's rules on each boid's 7 nearest (Ballerini et al. 2008)",
     WRKSPC_WITH(.neighbours = MUR_NEIGHBOURS_TOPOLOGICAL, .alignment = 1.5, .max_force = 0.02),
     {0, 0, 80, 0.5, 0, 0, 0, 0, 0},
     NULL, NULL},
    {"starling", "StarDisplay's starlings (Hemelrijk and Hildenbrandt 2011): banking flight over a roost, 3D",
     STARLING, {0, 0, 20, 0.0005, 0, 1.5, 0, 0, 0}, NULL, NULL},
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

void mur_params_init(mur_params *out) { *out = mur_preset_find(MUR_PRESET_DEFAULT)->params; }

static const char *const boundary_names[] = {"wrap", "reflect", "avoid", "open", NULL};
static const char *const neighbours_names[] = {"metric", "topological", "adaptive", NULL};
static const char *const interaction_names[] = {"reynolds", "vicsek", "couzin", "starling", NULL};
static const char *const motion_names[] = {"steer", "turn", "set", "fly", NULL};
static const char *const align_names[] = {"heading", "relative", NULL};
static const char *const combine_names[] = {"normalize", "steer", NULL};
static const char *const speed_names[] = {"clamp", "constant", NULL};
static const char *const update_names[] = {"sync", "sequential", NULL};

#define OFF(f) offsetof(mur_params, f)
#define REAL(n, f, lo, hi, h) {n, MUR_SETTING_REAL, OFF(f), lo, hi, NULL, h, NULL}
#define INT(n, f, lo, hi, h) {n, MUR_SETTING_INT, OFF(f), lo, hi, NULL, h, NULL}
#define ENUM(n, f, c, h) {n, MUR_SETTING_ENUM, OFF(f), 0, 0, c, h, NULL}
/* A setting of one kind of the family (family.c): meaningful, printed and
 * accepted in a scene only while that kind is chosen. */
#define KREAL(n, f, lo, hi, h, k) {n, MUR_SETTING_REAL, OFF(f), lo, hi, NULL, h, k}
#define KINT(n, f, lo, hi, h, k) {n, MUR_SETTING_INT, OFF(f), lo, hi, NULL, h, k}
#define KENUM(n, f, c, h, k) {n, MUR_SETTING_ENUM, OFF(f), 0, 0, c, h, k}

/* Ranges are generous but finite: a scene may explore, never overflow. */
static const mur_setting settings[] = {
    INT("count", count, 0, MUR_MAX_BOIDS, "number of boids"),
    REAL("width", width, 1, MUR_MAX_WORLD, "world width, world units"),
    REAL("height", height, 1, MUR_MAX_WORLD, "world height, world units"),
    ENUM("boundary", boundary, boundary_names, "wrap (torus) | reflect | avoid | open (unbounded plane)"),
    REAL("margin", margin, 0, MUR_MAX_WORLD, "avoid: turning band at each wall, world units"),
    KREAL("separation", separation, 0, 100, "separation weight", "reynolds"),
    KREAL("alignment", alignment, 0, 100, "alignment weight", "reynolds"),
    KREAL("cohesion", cohesion, 0, 100, "cohesion weight", "reynolds"),
    REAL("separation_radius", separation_radius, 0, 1e6, "R_sep, world units"),
    REAL("alignment_radius", alignment_radius, 0, 1e6, "R_ali, world units"),
    REAL("cohesion_radius", cohesion_radius, 0, 1e6, "R_coh, world units"),
    KINT("separation_falloff", separation_falloff, 0, 2, "k: separation weighted by 1/d^k", "reynolds"),
    KREAL("separation_softening", separation_softening, 0, 1e3, "e added to |d|, world units", "reynolds"),
    KENUM("alignment_mode", alignment_mode, align_names, "heading | relative (minus own velocity)", "reynolds"),
    KENUM("combine", combine, combine_names, "normalize | steer (Reynolds)", "reynolds"),
    KREAL("gain_separation", gain_separation, 0, 100, "normalize: fixed gain of separation", "reynolds"),
    KREAL("gain_alignment", gain_alignment, 0, 100, "normalize: fixed gain of alignment", "reynolds"),
    KREAL("gain_cohesion", gain_cohesion, 0, 100, "normalize: fixed gain of cohesion", "reynolds"),
    KREAL("max_force", max_force, 0, 1e3, "clamp on acceleration, units/tick^2 (0 = none)", "steer"),
    REAL("max_speed", max_speed, 0, 1e4, "units/tick"),
    KREAL("min_speed", min_speed, 0, 1e4, "units/tick (clamp rule; fly: its least speed)", "steer"),
    KENUM("speed_rule", speed_rule, speed_names, "clamp | constant", "steer"),
    REAL("noise", noise, 0, MUR_NOISE_MAX, "random acceleration, fraction of max_speed per tick"),
    REAL("fov", fov, 0, 360, "field of view, degrees (360 = no blind spot)"),
    ENUM("update", update, update_names, "sync | sequential"),
    REAL("init_speed_min", init_speed_min, 0, 1e4, "initial speed, lower bound, units/tick"),
    REAL("init_speed_max", init_speed_max, 0, 1e4, "initial speed, upper bound, units/tick"),
    REAL("density", density, 0, 1e6, "boids per unit area: a square world of side sqrt(count / density) (0: width x height)"),
    ENUM("neighbours", neighbours, neighbours_names, "metric (a radius per rule) | topological (the k nearest) | adaptive (starling)"),
    KINT("topological_k", topological_k, 1, MUR_MAX_BOIDS, "topological: k nearest, below count", "topological"),
    KREAL("topological_radius", topological_radius, 0, MUR_MAX_WORLD, "topological: only those closer, world units (> 0)", "topological"),
    ENUM("interaction", interaction, interaction_names, "reynolds | vicsek | couzin | starling"),
    KREAL("orientation_width", orientation_width, 0, 1e6, "couzin: r_o - r_r, world units", "couzin"),
    KREAL("attraction_width", attraction_width, 0, 1e6, "couzin: r_a - r_o, world units", "couzin"),
    ENUM("motion", motion, motion_names, "steer | turn | set | fly"),
    KREAL("turn_rate", turn_rate, 0, 1e6, "turn: most the heading turns, degrees a second (> 0)", "turn"),
    KREAL("dt", dt, 0, 1e3, "turn, fly: seconds a tick (> 0)", "turn"),
    INT("dimensions", dimensions, 2, 3, "2 (the plane) or 3 (a box; z is up)"),
    REAL("depth", depth, 0, MUR_MAX_WORLD, "3D: world depth along z (up), world units (>= 1)"),
    /* model: starling (docs/model.md "starling"): SI units */
    KREAL("topological_range", topological_range, 0, MUR_MAX_K, "adaptive: n_topo, the neighbours R seeks (> 0)", "adaptive"),
    KREAL("neighbour_lerp", neighbour_lerp, 0, 1, "adaptive: R's step toward its new value a reaction", "adaptive"),
    KREAL("max_radius", max_radius, 0, 1e4, "adaptive: the search radius's top, m (> 0)", "adaptive"),
    KREAL("reaction_time", reaction_time, 0, 100, "starling: mean seconds between reactions (> 0)", "starling"),
    KREAL("reaction_spread", reaction_spread, 0, 1, "starling: each interval within +- this fraction (< 1)", "starling"),
    KREAL("hard_core", hard_core, 0, 1e3, "starling: the smootherstep's inner edge, m", "starling"),
    KINT("separation_neighbours", separation_neighbours, 0, MUR_MAX_K, "starling: most neighbours separation takes, nearest first", "starling"),
    KREAL("separation_weight", separation_weight, 0, 1e3, "starling: separation, forward and side (head frame)", "starling"),
    KREAL("separation_up", separation_up, 0, 1e3, "starling: separation's up factor (head frame)", "starling"),
    KREAL("alignment_weight", alignment_weight, 0, 1e3, "starling: alignment, N", "starling"),
    KREAL("bank_alignment", bank_alignment, 0, 1e3, "starling: toward the neighbours' bank, N", "starling"),
    KREAL("cohesion_weight", cohesion_weight, 0, 1e3, "starling: cohesion, forward and side (head frame)", "starling"),
    KREAL("cohesion_up", cohesion_up, 0, 1e3, "starling: cohesion's up factor (head frame)", "starling"),
    KREAL("cohesion_blind_angle", cohesion_blind_angle, 0, 360, "starling: cohesion's rear blind angle, degrees", "starling"),
    KREAL("random_weight", random_weight, 0, 1e3, "starling: random force, N a second since the last reaction", "starling"),
    KREAL("roost_x", roost_x, -MUR_MAX_WORLD, MUR_MAX_WORLD, "starling: the roost's centre, x, m", "starling"),
    KREAL("roost_y", roost_y, -MUR_MAX_WORLD, MUR_MAX_WORLD, "starling: the roost's centre, y, m", "starling"),
    KREAL("roost_radius", roost_radius, 0, MUR_MAX_WORLD, "starling: the roost disc's radius, m", "starling"),
    KREAL("roost_weight", roost_weight, 0, 1e3, "starling: N a metre outside the roost", "starling"),
    KREAL("reflect_angle", reflect_angle, 0, 180, "starling: the roost turns a bird heading out by less, degrees", "starling"),
    KREAL("altitude", altitude, -MUR_MAX_WORLD, MUR_MAX_WORLD, "starling: the preferred height, m", "starling"),
    KREAL("altitude_weight", altitude_weight, 0, 1e3, "starling: N a metre from it (10 m at most)", "starling"),
    KREAL("body_mass", body_mass, 0, 1e3, "fly: kg (> 0)", "fly"),
    KREAL("cruise_speed", cruise_speed, 0, 1e4, "fly: m/s, where lift equals weight (> 0)", "fly"),
    KREAL("speed_control", speed_control, 0, 1e3, "fly: 1/s, the pull toward cruise_speed", "fly"),
    KREAL("drag_lift", drag_lift, 0, 100, "fly: Cd / Cl", "fly"),
    KREAL("max_lift", max_lift, 0, 1e4, "fly: most lift, N", "fly"),
    KREAL("roll_rate", roll_rate, 0, 1e4, "fly: banking, rad a second a newton", "fly"),
    KREAL("pitch_rate", pitch_rate, 0, 1e4, "fly: pitching, rad a second a newton", "fly"),
    KREAL("roll_out", roll_out, 0, 1e4, "fly: rolling back toward level, 1/s", "fly"),
    KREAL("max_roll", max_roll, 0, 180, "fly: the most a bird rolls from level, degrees", "fly"),
    /* model: starling's escape (docs/model.md "Escapes and waves") */
    KREAL("escape_radius", escape_radius, 0, 1e4, "escape: a predator this near starts a zig, m (0: off)", "starling"),
    KREAL("escape_force", escape_force, 0, 1e3, "escape: the zig's side force, N", "starling"),
    KREAL("escape_away", escape_away, 0, 100, "escape: seconds of the force away from the predator", "starling"),
    KREAL("escape_back", escape_back, 0, 100, "escape: seconds of the force back", "starling"),
    KREAL("escape_time", escape_time, 0, 1e3, "escape: seconds from a zig's start until another (>= away + back)", "starling"),
    KINT("copy_neighbours", copy_neighbours, 0, 20, "escape: the nearest neighbours a bird watches (0: no copying)", "starling"),
    KREAL("copy_latency", copy_latency, 0, 100, "escape: seconds from a neighbour's zig until it is copied", "starling"),
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
    /* A size given replaces a density; a density (and a count under one)
     * sizes the world, so a sweep over count keeps the density. */
    if (s->offset == OFF(width) || s->offset == OFF(height))
        p->density = 0;
    mur_params_resolve(p);
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

int mur_setting_active(const mur_setting *s, const mur_params *p)
{
    /* fly steps dt seconds a tick (turn's dt) and keeps min_speed (steer's) */
    if (p->motion == MUR_MOTION_FLY && (s->offset == OFF(dt) || s->offset == OFF(min_speed)))
        return 1;
    return !s->kind || mur_kind_chosen(s->kind, p);
}

int mur_setting_shown(const mur_setting *s, const mur_params *p)
{
    if (!mur_setting_active(s, p))
        return 0;
    if (!strcmp(s->name, "dimensions") || !strcmp(s->name, "depth"))
        return p->dimensions == 3;   /* a 2D listing is as it always was */
    static const char *const family[] = {"density", "neighbours", "interaction", "motion", NULL};
    for (int i = 0; family[i]; i++)
        if (!strcmp(s->name, family[i]))
            return !mur_params_reynolds(p) || p->density > 0;
    return 1;
}
