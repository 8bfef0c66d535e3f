/* A 3D world in a scene (docs/scenes.md `world`, `predators`): its keys,
 * predators' heights from keyframes and expressions, the flock that a
 * scene of it runs, and every refusal with its line and column. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "scene_util.h"
#include "murmur/flock.h"
#include "murmur/presets.h"

TEST(a_3d_world_scene_has_its_box)
{
    mur_scene *s = scene_of("model: wrkspc\nworld: {dimensions: 3, width: 300, height: 200, depth: 150}\n");
    REQUIRE(s, "not loaded");
    CHECK(s->params.dimensions == 3 && s->params.depth == 150, "dimensions %d depth %g",
          s->params.dimensions, s->params.depth);
    mur_scene_destroy(s);
    s = scene_of("model: wrkspc\nworld: {dimensions: 3, width: 300, height: 200}\n");
    REQUIRE(s, "not loaded");
    CHECK(s->params.depth == 200, "no depth: as deep as high, got %g", s->params.depth);
    mur_scene_destroy(s);
    s = scene_of("model: vicsek\nworld: {dimensions: 3, density: 8}\nflock: {count: 1000}\n");
    REQUIRE(s, "not loaded");
    CHECK(fabs(s->params.depth - 5) < 1e-12 && fabs(s->params.width - 5) < 1e-12,
          "density 8 of 1000: a cube of 5, got %g x %g", s->params.width, s->params.depth);
    mur_scene_destroy(s);
}

TEST(predators_fly_at_the_heights_their_keyframes_and_expressions_give)
{
    mur_scene *s = scene_of("model: wrkspc\nworld: {dimensions: 3, width: 300, height: 200, depth: 100}\n"
                            "predators:\n"
                            "  - {path: [[0s, 0, 0, 0], [2s, 100, 60, 80]], interpolate: linear}\n"
                            "  - {x: \"W/2\", y: \"H/2\", z: \"D*t/4\"}\n"
                            "  - {x: \"1\", y: \"2\"}\n");
    REQUIRE(s, "not loaded");
    mur_predator p[4];
    int n = mur_scene_predators_at(s, 1.0, p, 4);
    REQUIRE(n == 3, "%d predators", n);
    CHECK(fabs(p[0].x - 50) < 1e-12 && fabs(p[0].y - 30) < 1e-12 && fabs(p[0].z - 40) < 1e-12,
          "keyframes at 1s: (%g, %g, %g)", p[0].x, p[0].y, p[0].z);
    CHECK(fabs(p[1].z - 25) < 1e-12, "D*t/4 at 1s: %g", p[1].z);
    CHECK(p[2].z == 50, "no z: half the depth, got %g", p[2].z);
    mur_scene_destroy(s);
}

TEST(a_predator_above_a_boid_pushes_it_down)
{
    mur_params p = mur_preset_find("wrkspc")->params;
    p.dimensions = 3;
    p.depth = 200;
    p.count = 2;
    p.boundary = MUR_BOUNDARY_OPEN;
    mur_flock *f = NULL;
    mur_error err;
    REQUIRE(!mur_flock_create(&f, &p, 1, &err), "%s", err.msg);
    double x[2] = {100, 400}, y[2] = {100, 300}, z[2] = {100, 100}, v[2] = {0, 0}, vx[2] = {1, 1};
    REQUIRE(!mur_flock_set_state3(f, 2, x, y, z, vx, v, v, &err), "%s", err.msg);
    mur_predator pr = {.x = 100, .y = 100, .z = 120, .radius = 50, .strength = 0.5};
    mur_flock_set_predators(f, &pr, 1);
    REQUIRE(!mur_flock_step(f), "step");
    CHECK(mur_flock_vz(f)[0] < 0, "the boid below it: vz %g", mur_flock_vz(f)[0]);
    CHECK(mur_flock_vz(f)[1] == 0, "the far one: vz %g", mur_flock_vz(f)[1]);
    mur_flock_destroy(f);
}

TEST(bad_3d_scenes_are_refused_at_their_line)
{
    /* the 3D camera's newer keys: depth of field, views, wrap, follow */
    expect_refusal("model: wrkspc\nworld: {dimensions: 3, width: 100, height: 100, depth: 100}\ncamera:\n  focus: 50\n", "t.yaml:4:3", "needs 'aperture'");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3, width: 100, height: 100, depth: 100}\ncamera:\n  mode: orthographic\n  height: 50\n  aperture: 1\n", "t.yaml:6:3", "perspective camera");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3, width: 100, height: 100, depth: 100}\ncamera:\n  aperture: 1\n  focus: -2\n", "t.yaml:5:10", "lies above 0");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3, width: 100, height: 100, depth: 100}\ncamera:\n  views: [top, top]\n", "t.yaml:4:16", "'top' twice");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3, width: 100, height: 100, depth: 100}\ncamera:\n  views: [top, bottom]\n", "t.yaml:4:16", "perspective, top, front, side");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3, width: 100, height: 100, depth: 100}\ncamera:\n  follow: {predator: 0}\n", "t.yaml:4:22", "follows predator 0, but the scene has 0");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3, width: 100, height: 100, depth: 100, boundary: open}\n"
                   "camera:\n  wrap: nearest\n", "t.yaml:4:3", "boundary is open");
    expect_refusal("model: wrkspc\nworld: {dimensions: 4}\n", "t.yaml:2:21", "dimensions");
    expect_refusal("model: wrkspc\nworld: {depth: 100}\n", "t.yaml:2:16", "dimensions: 3");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3, depth: 0}\n", "t.yaml:2:31", "at least 1");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3, depth: -5}\n", "t.yaml:2:31", "depth");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3, density: 4, depth: 5}\n", "t.yaml:2:43",
                   "not both");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3}\nflock:\n  start: {disc: {center: [1, 1], radius: 5}}\n",
                   "t.yaml:4:17", "region of the plane");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3}\nflock:\n  start: tracks.csv\n", "t.yaml:4:10",
                   "saved state");
    expect_refusal("model: wrkspc\nflock:\n  start: {ball: {center: [1, 1, 1], radius: 5}}\n", "t.yaml:3:17",
                   "3D world");
    expect_refusal("model: wrkspc\nflock:\n  start: {box: {x: 0, y: 0, z: 0, width: 5, height: 5}}\n",
                   "t.yaml:3:32", "3D world");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3, depth: 100}\nflock:\n  start: {box: {x: 0, y: 0, width: 5, height: 5}}\n",
                   "t.yaml:4:16", "z, width, height and depth");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3, depth: 100}\nflock:\n  start: {slab: {bottom: 50, top: 40}}\n",
                   "t.yaml:4:35", "above its bottom");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3, depth: 100}\nflock:\n  start: {ball: {center: [50, 50, 95], radius: 10}}\n",
                   "t.yaml:4:17", "outside the world");
    expect_refusal("model: wrkspc\npredators:\n  - {x: \"1\", y: \"2\", z: \"3\"}\n", "t.yaml:3:25",
                   "3D world");
    expect_refusal("model: wrkspc\npredators:\n  - {path: [[0s, 1, 2, 3]]}\n", "t.yaml:3:13", "3D world");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3}\npredators:\n  - {path: [[0s, 1, 2, 3, 4]]}\n",
                   "t.yaml:4:13", "[time, x, y, z]");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3}\npredators:\n  - {x: \"1\", y: \"2\", z: \"1/0\"}\n",
                   "t.yaml:4:", "'z'");
    expect_refusal("model: wrkspc\nworld: {dimensions: 3}\nexperiment:\n  twin: {shift: [1, 2, 3, 4]}\n",
                   "t.yaml:4:17", "half-box or [dx, dy] or [dx, dy, dz]");
}

/* A camera ramp is checked at every frame's time and where it comes
 * nearest a bad pose between two frames (30 fps: frames 1/30 s apart),
 * and refused at its entry's line. */
TEST(a_camera_ramp_through_a_bad_pose_between_frames_is_refused_at_its_line)
{
#define WORLD3 "model: wrkspc\nworld: {dimensions: 3, width: 200, height: 200, depth: 100}\nvideo: {fps: 30}\n"
#define RAMP(from, to, target, ease)                                                                         \
    WORLD3 "camera: {position: " from ", target: " target "}\ntimeline:\n  - at: 1s\n"                       \
           "    ramp: {camera.position: " to "}\n    over: 1s\n    ease: " ease "\n"
    /* the position passes the target at 1.5175s, between frames 45 and 46 */
    expect_refusal(RAMP("[100, -100, 50]", "[100, 300, 50]", "[100, 107, 50]", "linear"), "t.yaml:6:5",
                   "target equals its position");
    expect_refusal(RAMP("[100, -100, 50]", "[100, 300, 50]", "[100, 107, 50]", "smooth"), "t.yaml:6:5",
                   "target equals its position");
    /* the view turns straight up (along up) at about 1.483s */
    expect_refusal(RAMP("[100, 90, 0]", "[100, 110.7, 0]", "[100, 100, 50]", "linear"), "t.yaml:6:5",
                   "parallel to its view");
    /* a target a billionth of the world's size from the position is on it */
    expect_refusal(WORLD3 "camera: {position: [100, 100, 50], target: [100.0000001, 100, 50]}\n", "t.yaml:4:44",
                   "target equals its position");
    /* passing a thousandth beside the target, across the view: a camera that turns round, not a bad one */
    mur_scene *s = scene_of(RAMP("[100, -100, 50]", "[100, 300, 50]", "[100.001, 107, 50]", "linear"));
    CHECK(s != NULL, "a ramp that passes beside the target is refused");
    mur_scene_destroy(s);
#undef RAMP
#undef WORLD3
}

/* A key the camera's lens would read and never use is refused at its
 * line: fov on an orthographic camera, height on a perspective one (in the
 * camera section or on the timeline), focus with an aperture of 0. */
TEST(a_key_the_lens_would_ignore_is_refused_at_its_line)
{
#define WORLD3 "model: wrkspc\nworld: {dimensions: 3, width: 100, height: 100, depth: 100}\n"
    expect_refusal(WORLD3 "camera:\n  mode: orthographic\n  fov: 40\n", "t.yaml:5:3", "perspective camera's field of view");
    expect_refusal(WORLD3 "camera:\n  height: 40\n", "t.yaml:4:3", "orthographic camera's");
    expect_refusal(WORLD3 "timeline:\n  - at: 1s\n    set: {camera.height: 40}\n", "t.yaml:5:11",
                   "orthographic camera's");
    expect_refusal(WORLD3 "timeline:\n  - at: 1s\n    ramp: {camera.fov: 40}\n    over: 1s\ncamera: {mode: orthographic}\n",
                   "t.yaml:5:12", "perspective camera's field of view");
    expect_refusal(WORLD3 "camera:\n  focus: 50\n  aperture: 0\n", "t.yaml:4:3", "needs 'aperture' above 0");
    /* each on its own lens is fine */
    mur_scene *s = scene_of(WORLD3 "camera: {mode: orthographic, height: 40}\ntimeline:\n  - at: 1s\n"
                                   "    ramp: {camera.height: 80}\n    over: 1s\n");
    CHECK(s != NULL, "height on an orthographic camera refused");
    mur_scene_destroy(s);
    s = scene_of(WORLD3 "camera: {fov: 40, aperture: 2, focus: 50}\ntimeline:\n  - at: 1s\n    set: {camera.fov: 30}\n");
    CHECK(s != NULL, "fov and focus on a perspective camera refused");
    mur_scene_destroy(s);
#undef WORLD3
}

/* Messages that say what a value should be, not a bare range or the
 * nearest spelling: a field of view out of its range, a 3D box's side of
 * 0, two regions in one start, a camera key the timeline cannot change. */
TEST(refusals_say_what_the_value_should_be)
{
#define WORLD3 "model: wrkspc\nworld: {dimensions: 3, width: 100, height: 100, depth: 100}\n"
    expect_refusal(WORLD3 "camera: {fov: 1e308}\n", "t.yaml:3:15", "a field of view lies between 0 and 180 degrees");
    expect_refusal(WORLD3 "timeline:\n  - at: 1s\n    set: {camera.fov: -1e300}\n", "t.yaml:5:23",
                   "a field of view lies between 0 and 180 degrees");
    expect_refusal(WORLD3 "flock:\n  start: {box: {x: 0, y: 0, z: 0, width: 10, height: 10, depth: 0}}\n",
                   "t.yaml:4:65", "'depth' = 0: a box's sides must be above 0");
    expect_refusal(WORLD3 "flock:\n  start: {ball: {center: [50, 50, 50], radius: 0}}\n", "t.yaml:4:48",
                   "a ball's radius must be above 0");
    expect_refusal(WORLD3 "flock:\n  start: {ball: {center: [50, 50, 50], radius: 5}, slab: {bottom: 1, top: 2}}\n",
                   "t.yaml:4:58", "'start' has one region (ball and slab here): to start boids in several, list "
                   "them as start: {groups: [...]}");
    expect_refusal(WORLD3 "timeline:\n  - at: 1s\n    set: {camera.up: [0, 1, 0]}\n", "t.yaml:5:11",
                   "'camera.up' is set once, in the scene's camera: section; the timeline may change camera.follow, "
                   "camera.position, camera.target, camera.fov and camera.height");
    expect_refusal("model: wrkspc\ntimeline:\n  - at: 1s\n    set: {camera.smooth: 1}\n", "t.yaml:4:11",
                   "the timeline may change camera.zoom, camera.center, camera.x, camera.y and camera.follow");
#undef WORLD3
}
