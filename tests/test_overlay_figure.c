/* The figure overlay (src/render/overlay_figure.c, src/scene/parse_figure.c,
 * src/data/series_csv.c): the curve's points are (the setting, the metric)
 * of the observed ticks, its reference is read from a series CSV at load,
 * bad input names its line, and frames are the same on any thread count. */
#include "harness.h"
#include "cli_util.h"
#include "scene_util.h"
#include "render/internal.h"
#include "murmur/alloc.h"
#include "murmur/presets.h"
#include "murmur/render.h"

#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* A noise ramp by hand: tick t has noise t / 1000. Every tick's point is
 * (its noise, its order); past 4096 points every other one goes. */
TEST(the_curve_follows_the_setting_tick_by_tick)
{
    mur_scene *s = scene_of("seed: 3\nmodel: vicsek\nworld: {density: 4}\nflock: {count: 40, noise: 0}\n"
                            "look: {overlays: [clock, {figure: {x: noise, y: order}}]}\n"
                            "timeline: [{at: 1s, ramp: {noise: 5}, over: 10s}]\n");
    REQUIRE(s, "scene");
    const mur_look *lk = mur_scene_look(s);
    const mur_overlay *o = &lk->overlays[1];
    CHECK(o->kind == MUR_OVERLAY_FIGURE && o->setting == mur_setting_find("noise") && o->metric == 0,
          "the figure's x and y");
    CHECK(o->x_range[0] == 0 && o->x_range[1] == 5 && o->y_range[0] == 0 && o->y_range[1] == 1,
          "axes [%g, %g] x [%g, %g]", o->x_range[0], o->x_range[1], o->y_range[0], o->y_range[1]);
    mur_flock *f = NULL;
    mur_renderer *r = NULL;
    mur_error err = {{0}};
    REQUIRE(!mur_flock_create(&f, &s->params, 1, &err) && !mur_renderer_create(&r, lk, 320, 240, &err),
            "%s", err.msg);
    mur_params p = s->params;
    double order[5001];
    for (long t = 1; t <= 5000; t++) {
        p.noise = t / 1000.0;
        REQUIRE(!mur_flock_set_params(f, &p, &err), "%s", err.msg);
        mur_flock_step(f);
        order[t] = mur_metrics_order(mur_flock_count(f), mur_flock_vx(f), mur_flock_vy(f));
        mur_renderer_observe(r, 0, f, t);
        const mur_series *ser = &r->panels[0].series[1];
        if (t == 4000) {   /* every tick so far */
            CHECK(ser->filled == 4000 && ser->stride == 1, "%d points, stride %d", ser->filled, ser->stride);
            int bad = 0;
            for (int i = 0; i < ser->filled; i++)
                bad += ser->t[i] != (i + 1) / 1000.0 || ser->v[i] != order[i + 1];
            CHECK(bad == 0, "%d of the points are not (noise, order) of their tick", bad);
        }
    }
    const mur_series *ser = &r->panels[0].series[1];   /* thinned: ticks 2, 4, ..., 5000 */
    CHECK(ser->stride == 2 && ser->filled == 2500, "%d points, stride %d", ser->filled, ser->stride);
    int bad = 0;
    for (int i = 0; i < ser->filled; i++)
        bad += ser->t[i] != 2 * (i + 1) / 1000.0 || ser->v[i] != order[2 * (i + 1)];
    CHECK(bad == 0, "%d of the thinned points are not (noise, order) of their tick", bad);
    /* and a frame with all that draws */
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 320, 240);
    cairo_t *cr = cairo_create(img);
    const mur_flock *fl[1] = {f};
    CHECK(!mur_renderer_draw(r, cr, fl, 1, 83.0, &err), "draw: %s", err.msg);
    cairo_destroy(cr);
    cairo_surface_destroy(img);
    mur_renderer_destroy(r);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

#define RAMP "timeline: [{at: 1s, ramp: {noise: 2}, over: 2s}]\n"

TEST(a_reference_series_is_read_beside_the_scene)
{
    write_file(scratch_path("ref.csv"), "tick,order,order_median,noise\n0,0.1,0.5,0\n1,0.2,0.6,1\n2,0.3,0.7,2\n");
    write_file(scratch_path("ref2.csv"), "condition,tick,order,noise\na,0,0.1,0\na,1,0.2,1\nb,0,0.3,0\nb,1,0.4,1\n");
    char text[512];
    snprintf(text, sizeof text, "model: vicsek\nflock: {count: 20}\nlook: {overlays: [{figure: {x: noise, y: order, "
             "reference: ref.csv}}, {figure: {x: noise, y: order, reference: ref2.csv, x_range: [0, 4]}}]}\n" RAMP);
    const char *scene = scratch_path("fig.yaml");
    write_file(scene, text);
    mur_scene *s = NULL;
    mur_error err = {{0}};
    REQUIRE(!mur_scene_load(&s, scene, &err), "%s", err.msg);
    const mur_overlay *o = &s->look.overlays[0];
    CHECK(o->nref == 3 && o->ref_x[2] == 2 && o->ref_y[0] == 0.5 && o->ref_y[2] == 0.7,
          "the median column, %d points", o->nref);
    o = &s->look.overlays[1];   /* two conditions: a break between them */
    CHECK(o->nref == 5 && isnan(o->ref_x[2]) && o->ref_y[4] == 0.4 && o->x_range[1] == 4,
          "two conditions, %d points", o->nref);
    mur_scene_destroy(s);
}

TEST(bad_figures_name_their_line)
{
    const char *head = "model: vicsek\nflock: {count: 20}\nlook:\n  overlays:\n";
    char t[600];
    snprintf(t, sizeof t, "%s    - figure: {x: nois, y: order}\n" RAMP, head);
    expect_refusal(t, "t.yaml:5:19: error", "nois");
    snprintf(t, sizeof t, "%s    - figure: {x: noise, y: ordr}\n" RAMP, head);
    expect_refusal(t, "t.yaml:5:29: error", "ordr");
    snprintf(t, sizeof t, "%s    - figure: {x: alignment, y: order}\n" RAMP, head);
    expect_refusal(t, "t.yaml:5:19: error", "never changes");
    snprintf(t, sizeof t, "%s    - figure: {x: noise}\n" RAMP, head);
    expect_refusal(t, "t.yaml:5:15: error", "names its x");
    snprintf(t, sizeof t, "%s    - figure\n" RAMP, head);
    expect_refusal(t, "t.yaml:5:7: error", "names its x");
    snprintf(t, sizeof t, "%s    - figure: {x: noise, y: order, x_range: [2, 1]}\n" RAMP, head);
    expect_refusal(t, "t.yaml:5:45: error", "low below high");
    snprintf(t, sizeof t, "%s    - figure: {x: noise, y: order, reference: no-such.csv}\n" RAMP, head);
    expect_refusal(t, "t.yaml:5:47: error", "cannot open the reference");
    /* a file without the columns, or with a bad row: the file's line */
    write_file(scratch_path("cols.csv"), "tick,order\n0,1\n");
    write_file(scratch_path("row.csv"), "tick,order,noise\n0,1,0\n1,x,1\n");
    write_file(scratch_path("last.csv"), "tick,order,noise\n0,1,0\n1,x,1");   /* no newline at the end */
    FILE *nul = fopen(scratch_path("nul.csv"), "wb");
    REQUIRE(nul, "nul.csv");
    fwrite("tick,order,noise\n0,1\0 2,0\n", 1, 27, nul);   /* a NUL inside a field of line 2 */
    fclose(nul);
    const char *refs[4][2] = {{"cols.csv", "cols.csv:1: error: a series CSV with a 'noise' column"},
                              {"row.csv", "row.csv:3: error: a value that is not a number"},
                              {"last.csv", "last.csv:3: error: a value that is not a number"},
                              {"nul.csv", "nul.csv:2: error: a field holds a NUL byte"}};
    for (int i = 0; i < 4; i++) {
        snprintf(t, sizeof t, "%s    - figure: {x: noise, y: order, reference: %s}\n" RAMP, head, refs[i][0]);
        const char *scene = scratch_path("bad.yaml");
        write_file(scene, t);
        mur_scene *s = NULL;
        mur_error err = {{0}};
        int rc = mur_scene_load(&s, scene, &err);
        CHECK(rc == MUR_EINPUT && strstr(err.msg, refs[i][1]), "%s gave %s", refs[i][0], rc ? err.msg : "(loaded)");
        mur_scene_destroy(s);
    }
    char args[512], err[2048];   /* the command exits 2 */
    snprintf(t, sizeof t, "%s    - figure: {x: alignment, y: order}\n" RAMP, head);
    write_file(scratch_path("never.yaml"), t);
    snprintf(args, sizeof args, "check %s", scratch_path("never.yaml"));
    CHECK(murmur(args, err, sizeof err) == 2, "check of a figure the timeline never changes: %s", err);
}

TEST(the_example_scene_draws_the_same_frame_on_any_thread_count)
{
    char args[1024], err[2048];
    const char *png[2] = {scratch_path("t1.png"), scratch_path("t2.png")};
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "still scenes/phase-figure.yaml --at 20s --size 640x360 --threads %d -o %s -q",
                 i + 1, png[i]);
        REQUIRE(murmur(args, err, sizeof err) == 0, "%s", err);
    }
    size_t na = 0, nb = 0;
    char *a = test_slurp(png[0], &na), *b = test_slurp(png[1], &nb);
    CHECK(a && b && na == nb && !memcmp(a, b, na), "the frames differ (%zu and %zu bytes)", na, nb);
    free(a);
    free(b);
}

/* A reference that is a pipe is refused at the scene's line without
 * opening it (opening a FIFO would block the loader for good); one that
 * loads is an input the provenance lists by its SHA-256. */
TEST(a_reference_pipe_is_refused_and_a_reference_file_is_an_input)
{
    unlink(scratch_path("ref.fifo"));
    REQUIRE(mkfifo(scratch_path("ref.fifo"), 0644) == 0, "mkfifo");
    const char *scene = scratch_path("fifo.yaml");
    write_file(scene, "model: wrkspc\nflock: {count: 20}\nlook:\n  overlays:\n"
                      "    - figure: {x: noise, y: order, reference: ref.fifo}\n" RAMP);
    mur_scene *s = NULL;
    mur_error err = {{0}};
    int rc = mur_scene_load(&s, scene, &err);
    CHECK(rc == MUR_EINPUT && strstr(err.msg, "fifo.yaml:5:47: error") && strstr(err.msg, "pipe"), "gave %s",
          rc ? err.msg : "(loaded)");
    mur_scene_destroy(s);
    s = NULL;
    REQUIRE(mur_scene_load(&s, "scenes/phase-figure.yaml", &err) == 0, "%s", err.msg);
    char *text = NULL, want[256];
    REQUIRE(mur_scene_provenance(s, s->seed, NULL, &text, &err) == 0, "%s", err.msg);
    REQUIRE(run_tool_output("sha256sum scenes/phase-figure-reference.csv", want, sizeof want) == 0, "sha256sum");
    *strchr(want, '\n') = 0;
    CHECK(strstr(text, want) != NULL, "%s in:\n%s", want, text);
    mur_free(text);
    mur_scene_destroy(s);
}
