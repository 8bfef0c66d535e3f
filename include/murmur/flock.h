/* murmur: the flock, the one parameterised model of docs/model.md.
 *
 * A flock is N boids in structure-of-arrays form (x, y, vx, vy: 32 bytes a
 * boid) in a W x H world. mur_flock_step advances one tick. Settings may change
 * between ticks and take effect on the next one; the boid count may change in
 * place. Same params + seed => the same trajectories on any thread count. */
#ifndef MURMUR_FLOCK_H
#define MURMUR_FLOCK_H

#include "murmur/export.h"

#include <signal.h>
#include <stdint.h>
#include "murmur/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/// wrap (torus), reflect or avoid walls, or open: an unbounded plane (nothing wraps or reflects).
typedef enum { MUR_BOUNDARY_WRAP, MUR_BOUNDARY_REFLECT, MUR_BOUNDARY_AVOID, MUR_BOUNDARY_OPEN } mur_boundary;
typedef enum { MUR_ALIGN_HEADING, MUR_ALIGN_RELATIVE } mur_align_mode;
typedef enum { MUR_COMBINE_NORMALIZE, MUR_COMBINE_STEER } mur_combine;
typedef enum { MUR_SPEED_CLAMP, MUR_SPEED_CONSTANT } mur_speed_rule;
typedef enum { MUR_UPDATE_SYNC, MUR_UPDATE_SEQUENTIAL } mur_update;

/// The model family's three choices (docs/model.md "Model families"; the
/// kinds' table is src/core/family.c, murmur/family.h).
/// adaptive, starling and fly are model: starling's three parts (3D only, chosen together).
typedef enum { MUR_NEIGHBOURS_METRIC, MUR_NEIGHBOURS_TOPOLOGICAL, MUR_NEIGHBOURS_ADAPTIVE } mur_neighbours;
typedef enum {
    MUR_INTERACTION_REYNOLDS, MUR_INTERACTION_VICSEK, MUR_INTERACTION_COUZIN, MUR_INTERACTION_STARLING
} mur_interaction;
typedef enum { MUR_MOTION_STEER, MUR_MOTION_TURN, MUR_MOTION_SET, MUR_MOTION_FLY } mur_motion;

/// Hard limits checked before anything is allocated.
/// pi, to double precision: the one definition every module uses.
#define MUR_PI 3.14159265358979323846

#define MUR_MAX_BOIDS 4000000
#define MUR_MAX_WORLD 1.0e7
#define MUR_MAX_PREDATORS 64

/// The largest `noise`. The kick is noise x max_speed in a random
/// direction, added to a velocity of at most max_speed: past 10 the new
/// heading is the kick's own to within asin(1/10) = 5.7 degrees every tick,
/// so the flock keeps no memory of its heading and a larger value changes
/// nothing a metric can tell (docs/scenes.md, flock.noise).
#define MUR_NOISE_MAX 10

/// The layout of mur_params this header declares, carried in its `version`
/// field and checked by every call that takes a mur_params
/// (mur_params_validate, so mur_flock_create and mur_flock_set_params):
/// a preset's params carry it, and mur_params_init gives a set that does.
#define MUR_PARAMS_VERSION 1

/// Every setting of docs/model.md. Distances in world units, speeds in units/tick.
/// Start from a preset's (`mur_preset_find("wrkspc")->params`) or from
/// mur_params_init, never from zeros: a set without its version is refused.
typedef struct mur_params {
    unsigned version;             ///< MUR_PARAMS_VERSION
    int count;                    ///< number of boids, 0..MUR_MAX_BOIDS
    double width, height;         ///< world size in world units (usually screen pixels)
    mur_boundary boundary;        ///< wrap (torus), reflect or avoid
    double margin;                ///< avoid: width of the turning band at each wall
    double separation;            ///< separation weight (usually 1-2)
    double alignment;             ///< alignment weight
    double cohesion;              ///< cohesion weight
    double separation_radius;     ///< R_sep
    double alignment_radius;      ///< R_ali
    double cohesion_radius;       ///< R_coh
    int separation_falloff;       ///< k in {0, 1, 2}: weight 1/d^k
    double separation_softening;  ///< e added to |d| before weighting (usually 0)
    mur_align_mode alignment_mode;///< heading: mean v_j; relative: mean v_j - v_i
    mur_combine combine;          ///< normalize (weighted unit vectors) or steer (Reynolds)
    double gain_separation;       ///< per-rule fixed gain g (normalize only; usually 1)
    double gain_alignment;
    double gain_cohesion;
    double max_force;             ///< clamp on |a| per tick (0 = none)
    double max_speed;             ///< units per tick
    double min_speed;             ///< units per tick (clamp rule only)
    mur_speed_rule speed_rule;    ///< clamp to [min, max] or constant max
    double noise;                 ///< random acceleration as a fraction of max_speed (0 to MUR_NOISE_MAX)
    double fov;                   ///< field of view in degrees, 0..360 (360 = all round)
    mur_update update;            ///< sync (snapshot) or sequential (in place, index order)
    double init_speed_min;        ///< initial speed drawn uniformly from [min, max]
    double init_speed_max;
    /* The model family (docs/model.md "Model families"); the Reynolds
     * family above is metric x reynolds x steer, the zero values. */
    double density;               ///< boids per unit area: a square world of side sqrt(count / density) (0: width x height)
    mur_neighbours neighbours;    ///< metric (a radius per rule) or topological (the k nearest)
    int topological_k;            ///< topological: k, 1 .. count - 1
    double topological_radius;    ///< topological: only those within it (> 0; MUR_MAX_WORLD: no cap)
    mur_interaction interaction;  ///< reynolds | vicsek | couzin
    double orientation_width;     ///< couzin: r_o - r_r, world units
    double attraction_width;      ///< couzin: r_a - r_o, world units
    mur_motion motion;            ///< steer | turn | set
    double turn_rate;             ///< turn: degrees a second (> 0)
    double dt;                    ///< turn: seconds a tick (> 0)
    /* Space (docs/model.md "Three dimensions"): the plane, or a box of
     * width x height x depth whose third axis z is up. */
    int dimensions;               ///< 2 (the plane) or 3; fixed for a flock's life
    double depth;                 ///< 3D: the world's extent along z, world units (> 0; unused in 2D)
    /* model: starling (docs/model.md "starling", after StarDisplay): metres,
     * seconds, kilograms and newtons; 0 in every other preset. */
    double topological_range;     ///< adaptive: n_topo, the neighbours the search radius seeks
    double neighbour_lerp;        ///< adaptive: how far R moves toward its new value a reaction
    double max_radius;            ///< adaptive: the search radius's top, m
    double reaction_time;         ///< starling: mean seconds between reactions
    double reaction_spread;       ///< starling: each interval within +- this fraction of it
    double hard_core;             ///< starling: the smootherstep's inner edge, m
    int separation_neighbours;    ///< starling: most neighbours separation takes (nearest first)
    double separation_weight;     ///< starling: forward and side, head frame
    double separation_up;         ///< starling: up, head frame
    double alignment_weight;
    double bank_alignment;        ///< starling: weight of the neighbours' bank
    double cohesion_weight;       ///< starling: forward and side, head frame
    double cohesion_up;           ///< starling: up, head frame
    double cohesion_blind_angle;  ///< starling: full rear blind angle for cohesion, degrees
    double random_weight;         ///< starling: random force, N a second since the last reaction
    double roost_x, roost_y;      ///< starling: the roost's centre, m
    double roost_radius;          ///< starling: the roost disc's radius, m
    double roost_weight;          ///< starling: N a metre outside the disc
    double reflect_angle;         ///< starling: degrees; turned back when heading out by less
    double altitude;              ///< starling: the preferred height, m
    double altitude_weight;       ///< starling: N a metre from it (at most 10 m counted)
    double body_mass;             ///< fly: kg
    double cruise_speed;          ///< fly: m/s
    double speed_control;         ///< fly: 1/s
    double drag_lift;             ///< fly: Cd / Cl
    double max_lift;              ///< fly: N
    double roll_rate;             ///< fly: banking gain, rad/(N s)
    double pitch_rate;            ///< fly: pitching gain, rad/(N s)
    double roll_out;              ///< fly: rolling back toward level, 1/s (w_beta_out)
    double max_roll;              ///< fly: the most a bird rolls from level, degrees (180: unbounded)
    /* model: starling's escape and its copying (docs/model.md "Escapes and
     * waves", after StarDisplay's Zig and IncurNeighborPanic); escape_radius
     * 0, the default, turns both off. */
    double escape_radius;         ///< escape: a predator this near (m) starts a zig; 0 = off
    double escape_force;          ///< escape: the zig's side force, N
    double escape_away;           ///< escape: seconds of the force away from the predator
    double escape_back;           ///< escape: seconds of the force back, after the away
    double escape_time;           ///< escape: seconds from a zig's start until it can start again
    int copy_neighbours;          ///< escape: how many nearest neighbours a bird watches (0: no copying)
    double copy_latency;          ///< escape: seconds from a neighbour's zig until a bird copies it
} mur_params;

/// The world size a parameter set means: with density > 0, width = height =
/// sqrt(count / density) (at least 1), and in 3D a cube of side
/// cbrt(count / density) (density per unit volume); otherwise p is left as it is.
MUR_API void mur_params_resolve(mur_params *p);

/// The default model's settings (MUR_PRESET_DEFAULT of presets.h, the
/// preset a scene without `model:` takes) into *out, version set: the start
/// of a set built field by field, from C or through a foreign-function layer.
MUR_API void mur_params_init(mur_params *out);

/// Whether p is the Reynolds family (metric x reynolds x steer), which the
/// original demos' arithmetic steps.
MUR_API int mur_params_reynolds(const mur_params *p);

/// A predator (flee) or attractor at a point. Used only while active.
typedef struct mur_predator {
    double x, y;       ///< position in world units
    double radius;     ///< R: no effect at or beyond it
    double strength;   ///< f: peak acceleration at the centre, units/tick^2
    int attract;       ///< 0 = boids flee, 1 = boids are attracted
    double burst;      ///< flee: a boid within R may go this many times max_speed while it
                       ///< flees (1.5: half again as fast); 0 or 1 = no burst
    int hunting;       ///< 1: it moves on its own, pursuing (mur_hunt_step), not along a script
    double z;          ///< 3D: its height (unused in 2D)
    int tag;           ///< 1 + its place in the scene's `predators` list (0: untagged): how a
                       ///< drawing tells one from another (mur_look.predator_looks); the flock ignores it
} mur_predator;

/// What a hunting predator pursues (scene `predators[].pursue`).
typedef enum { MUR_PURSUE_NONE, MUR_PURSUE_NEAREST, MUR_PURSUE_CENTRE, MUR_PURSUE_LARGEST } mur_pursue;

/// The rule vectors of one boid at the current state, as the step computes them.
typedef struct mur_rules {
    double sep[2], ali[2], coh[2];   ///< raw rule vectors S, A, C (docs/model.md step 2)
    double sep_a[2], ali_a[2], coh_a[2]; ///< each rule's contribution to a (after weights)
    double accel[2];                 ///< combined, clamped acceleration before predators/noise
    int n_sep, n_ali, n_coh;         ///< neighbour counts per rule
} mur_rules;

/// Where a group of the starting flock is placed (docs/scenes.md `flock.start`).
/// disc and ring are regions of the plane; ball and slab of a 3D world; box
/// and uniform of either (a box in 3D has a z and a depth too).
typedef enum {
    MUR_REGION_UNIFORM, MUR_REGION_DISC, MUR_REGION_BOX, MUR_REGION_RING, MUR_REGION_BALL, MUR_REGION_SLAB
} mur_region;

/// Most groups of a starting flock.
#define MUR_MAX_GROUPS 32

/// One group of the starting flock: how many boids, where, heading where, how fast.
typedef struct mur_start_group {
    int count;                   ///< boids of the group (the counts add up to the flock's)
    mur_region region;
    double cx, cy, radius;       ///< disc: centre and radius; ring: centre and middle radius
    double band;                 ///< ring: width of the band around radius
    double x, y, w, h;           ///< box: corner (smallest x, y) and size
    int heading_random;          ///< 1: each boid a uniform random heading
    double heading, spread;      ///< else degrees (0 = +x, 90 = +y), each boid within +- spread / 2
    double speed_min, speed_max; ///< speed drawn uniformly; speed_min < 0: the flock's init_speed
    /* 3D: a ball's centre height (with cx, cy and radius), a box's lowest z
     * and depth (with x, y, w, h), a slab's lowest z and thickness */
    double cz, z, d;
} mur_start_group;

typedef struct mur_flock mur_flock;

/// Check a parameter set against the model's ranges; 0 or MUR_EINPUT naming the setting.
MUR_API int mur_params_validate(const mur_params *p, mur_error *err);

/// Create a flock of p->count boids drawn from the PRNG seeded by seed
/// (positions uniform, headings uniform, speed in [init_speed_min, init_speed_max]).
/// The caller owns *out and frees it with mur_flock_destroy.
MUR_API int mur_flock_create(mur_flock **out, const mur_params *p, uint64_t seed, mur_error *err);

/// Free a flock; NULL is fine.
MUR_API void mur_flock_destroy(mur_flock *f);

/// Replace the settings from the next tick on. A count change adds boids drawn
/// from the flock's PRNG or drops boids from the end; the others are untouched.
MUR_API int mur_flock_set_params(mur_flock *f, const mur_params *p, mur_error *err);

/// Current settings (owned by the flock).
MUR_API const mur_params *mur_flock_params(const mur_flock *f);

/// The active predators as last set (n of them into *n); owned by the flock.
MUR_API const mur_predator *mur_flock_predators(const mur_flock *f, int *n);

/// Where a predator at (x, y) pursuing `what` heads now: the nearest boid
/// (nearest image under wrap), the flock's centre (under wrap the circular
/// mean along each axis) or the centre of its largest cluster (boids closer
/// than the cohesion radius joined, as the `largest` metric joins them),
/// into (*tx, *ty). 0, or -1 when the flock is empty (no target; and
/// MUR_ERUN when out of memory for the clusters).
MUR_API int mur_flock_pursue_target(const mur_flock *f, mur_pursue what, double x, double y, double *tx,
                                    double *ty);

/// The same for a 3D flock: where a predator at at (x, y, z) heads now,
/// with distances, centres and clusters in 3D (nearest image along each
/// axis that wraps), into to. 0, or -1 when the flock is empty or 2D (and
/// MUR_ERUN when out of memory for the clusters).
MUR_API int mur_flock_pursue_target3(const mur_flock *f, mur_pursue what, const double at[3], double to[3]);

/// Replace the active predators/attractors (copied; at most MUR_MAX_PREDATORS).
MUR_API void mur_flock_set_predators(mur_flock *f, const mur_predator *p, int n);

/// Load an explicit state (n boids; arrays of n). Sets count to n and tick to 0.
/// A 3D flock refuses it (MUR_EINPUT: a 2D state in a 3D world).
MUR_API int mur_flock_set_state(mur_flock *f, int n, const double *x, const double *y,
                        const double *vx, const double *vy, mur_error *err);

/// The same with the third axis: a 3D flock's state; a 2D flock refuses it.
MUR_API int mur_flock_set_state3(mur_flock *f, int n, const double *x, const double *y,
                                 const double *z, const double *vx, const double *vy,
                                 const double *vz, mur_error *err);

/// Move every boid i by (dx[i], dy[i]) world units (arrays of count), folded
/// back into a wrapping world; velocities, the tick and the PRNG are kept,
/// so the flock steps on exactly as it would have from there (a twin's start).
MUR_API void mur_flock_displace(mur_flock *f, const double *dx, const double *dy);

/// The same with the third axis: boid i also moved by dz[i] world units (a
/// 3D flock; dz NULL, or a 2D flock: as mur_flock_displace).
MUR_API void mur_flock_displace3(mur_flock *f, const double *dx, const double *dy, const double *dz);

/// Show a recorded frame (a replay): n boids with ids[i] (ascending; NULL:
/// boid i is id i) and their state, in place of a step: like set_state, but
/// the tick is kept. The ids are copied; mur_flock_ids returns them until the
/// next set_state or set_frame without ids.
MUR_API int mur_flock_set_frame(mur_flock *f, int n, const int *ids, const double *x,
                                const double *y, const double *vx, const double *vy,
                                mur_error *err);

/// The same with the third axis: a recorded frame of a 3D world (a 2D flock refuses it).
MUR_API int mur_flock_set_frame3(mur_flock *f, int n, const int *ids, const double *x,
                                 const double *y, const double *z, const double *vx,
                                 const double *vy, const double *vz, mur_error *err);

/// Ids of the boids of a recorded frame (ascending, length count), or NULL
/// for the model's own boids, whose id is their index.
MUR_API const int *mur_flock_ids(const mur_flock *f);

/// The row (index into the state arrays) of the boid with this id: the id
/// itself for the model's own boids, the id's place in a recorded frame's
/// ids on a replay; -1 when no boid has it now.
MUR_API int mur_flock_row(const mur_flock *f, int id);

/// Set the tick counter, which the noise and scatter draws are keyed on: a
/// flock restored from a saved state continues the saved run's draws.
MUR_API void mur_flock_set_tick(mur_flock *f, uint64_t tick);

/// The stream that draws added boids (4 words of xoshiro256** state), to save
/// and restore with a state, so boids added later are those of the saved run.
MUR_API void mur_flock_stream(const mur_flock *f, uint64_t state[4]);
MUR_API void mur_flock_set_stream(mur_flock *f, const uint64_t state[4]);

/// Shape the starting flock: n groups (at most MUR_MAX_GROUPS; their counts
/// add up to the flock's count) placed in order, boid 0 first, each drawn
/// from the seed's stream; then redraw the flock from the seed as a reset
/// does (a reset draws the groups again; n = 0: uniform over the world, as
/// created). Boids the count adds later are drawn uniform over the world.
MUR_API int mur_flock_set_start(mur_flock *f, const mur_start_group *g, int n, mur_error *err);

/// Group of each boid (length count; 255: drawn later, in no group), or NULL
/// when the flock has no groups.
MUR_API const unsigned char *mur_flock_groups(const mur_flock *f);

/// Back to the initial state drawn at creation (count as in the current params).
MUR_API void mur_flock_reset(mur_flock *f);

/// Give every boid a new uniform random heading (the `scatter` event), keeping speeds.
MUR_API void mur_flock_scatter(mur_flock *f);

/// Worker threads for sync ticks (1 = calling thread only; 0 = all cores).
/// The result is bit-identical for every thread count.
MUR_API int mur_flock_set_threads(mur_flock *f, int threads, mur_error *err);

/// Threads a sync tick runs on (the caller included; 1 until set_threads).
MUR_API int mur_flock_threads(const mur_flock *f);

/// Use the O(N^2) reference neighbour loop instead of the grid (tests, bench).
MUR_API void mur_flock_set_brute_force(mur_flock *f, int on);

/// Vector unit for the neighbour filter: 0 = portable C, 1 = SSE2, 2 = AVX2,
/// 3 = AVX-512, capped by what this CPU runs (the default is the best). Every level gives
/// the same bits, as a test checks; brute force always runs portable C.
/// Returns the level set.
MUR_API int mur_flock_set_simd(mur_flock *f, int level);

/// Watch *stop (say, a signal handler's flag; NULL: never) during each tick,
/// every few thousand boids: once it is nonzero, mur_flock_step returns
/// MUR_EINTR within milliseconds. The flag is the caller's; the flock only reads it.
MUR_API void mur_flock_set_stop(mur_flock *f, volatile sig_atomic_t *stop);

/// Advance one tick: MUR_OK, or MUR_EINTR when the stop flag was seen. A
/// stopped sync tick leaves the state as it was (tick not advanced); a
/// stopped sequential one leaves it part-way, fit only for reset or destroy.
MUR_API int mur_flock_step(mur_flock *f);

/// Ticks stepped since creation, reset or set_state.
MUR_API uint64_t mur_flock_tick(const mur_flock *f);

/// Number of boids.
MUR_API int mur_flock_count(const mur_flock *f);

/// State arrays (length count), owned by the flock, valid until the next call
/// that changes the flock.
MUR_API const double *mur_flock_x(const mur_flock *f);
MUR_API const double *mur_flock_y(const mur_flock *f);
MUR_API const double *mur_flock_vx(const mur_flock *f);
MUR_API const double *mur_flock_vy(const mur_flock *f);
/// The world's dimensions: 2 or 3 (params.dimensions).
MUR_API int mur_flock_dimensions(const mur_flock *f);
/// The third axis (up) and its velocity: NULL in a 2D flock, so a 2D caller
/// never reads them and a 3D one (render's view3d) asks for them.
MUR_API const double *mur_flock_z(const mur_flock *f);
MUR_API const double *mur_flock_vz(const mur_flock *f);
/// model: starling's body frames (motion: fly): bird i's unit up vector at
/// 3i, 3i + 1, 3i + 2 (normal to its velocity; level flight has it along
/// +z, a bird banking to turn tilts it toward the turn); NULL for any other
/// motion. Read-only, valid until the next call that changes the flock.
MUR_API const double *mur_flock_up(const mur_flock *f);
/// neighbours: adaptive's search radius of each bird (m) and the neighbours
/// it interacted with at its last reaction; NULL for any other neighbours.
MUR_API const double *mur_flock_search_radius(const mur_flock *f);
MUR_API const int *mur_flock_interacting(const mur_flock *f);

/// Rule vectors of boid i at the current state, computed by the same code the
/// step uses (the source of truth for the one-boid view). A 3D flock's are
/// not given: *out is all zero.
MUR_API void mur_flock_rules(const mur_flock *f, int i, mur_rules *out);

/// Nearest-image offset from (x0, y0) to (x1, y1) under the flock's boundary.
MUR_API void mur_flock_offset(const mur_flock *f, double x0, double y0, double x1, double y1,
                      double *dx, double *dy);

/// The same under the boundary and world of p (for code that holds settings,
/// not a flock, such as the trails).
MUR_API void mur_params_offset(const mur_params *p, double x0, double y0, double x1, double y1,
                       double *dx, double *dy);

/// The same in 3D: the offset d from point a to point b (x, y, z) under p's
/// boundary (wrap: the nearest image along each of the three axes).
MUR_API void mur_params_offset3(const mur_params *p, const double a[3], const double b[3],
                                double d[3]);

#ifdef __cplusplus
}
#endif

#endif
