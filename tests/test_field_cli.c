/* The field's measures through the murmur binary: `stats --correlation`
 * and `--distribution` (their CSV against the library's C(r) and per-boid
 * values of the same flock, the same bytes on any thread count, figures
 * that show data), a two-parameter sweep's heatmap, --plot-provenance's
 * footer, the field's metrics as series columns only when named, and bad
 * input exiting 2 with nothing written. */
#include <cairo.h>
#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <unistd.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/metrics.h"
#include "murmur/plot.h"
#include "murmur/scene.h"

/* 80 wrkspc boids, no timeline: run 0 is the scene's seed stepped. */
#define FIELD_SCENE                                                                 \
    "title: field\nseed: 5\nmodel: wrkspc\nworld: {width: 300, height: 200, boundary: wrap}\n" \
    "flock: {count: 80}\nvideo: {duration: 2s}\n"

static const char *scene_file(const char *name, const char *text)
{
    static char paths[4][256];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, 256, "%s", scratch_path(name));
    write_file(p, text);
    return p;
}

/* Run 0's flock after `ticks` ticks, made as the experiment makes it. */
static mur_flock *run_zero(const char *text, long ticks, mur_scene **out)
{
    mur_error err;
    mur_scene *s = NULL;
    mur_flock *f = NULL;
    if (mur_scene_parse(&s, "t.yaml", text, strlen(text), &err) || mur_flock_create(&f, &s->params, s->seed, &err)) {
        fprintf(stderr, "run_zero: %s\n", err.msg);
        abort();
    }
    for (long t = 0; t < ticks; t++)
        mur_flock_step(f);
    *out = s;
    return f;
}

/* Splits a CSV line (no quoting needed here) into fields, in place. */
static int fields(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        p = strchr(p, ',');
        if (!p)
            break;
        *p++ = 0;
    }
    return n;
}

/* `murmur stats` of the scene text with one field option into a CSV (its
 * body, checked to start with header; the caller frees it), and the same
 * scene's flock stepped as far in the library (into *f and *s). */
static char *stats_csv(const char *text, const char *name, const char *option, const char *header,
                       mur_flock **f, mur_scene **s)
{
    char file[64];
    snprintf(file, sizeof file, "%s.yaml", name);
    const char *scene = scene_file(file, text);
    snprintf(file, sizeof file, "%s.csv", name);
    const char *csv = scratch_path(file);
    char args[1024], err[4096];
    snprintf(args, sizeof args, "stats %s --runs 1 --ticks 60 %s -q -o %s", scene, option, csv);
    int rc = murmur(args, err, sizeof err);
    CHECK(rc == 0, "%s: %s", args, err);
    char *body = rc == 0 ? test_slurp(csv, NULL) : NULL;
    CHECK(rc != 0 || body, "no %s", csv);
    if (body && strncmp(body, header, strlen(header)) != 0) {
        CHECK(0, "header: %.60s", body);
        free(body);
        body = NULL;
    }
    *f = body ? run_zero(text, 60, s) : NULL;
    return body;   /* NULL: a failure is counted */
}

TEST(correlation_csv_is_the_libraries_c_of_the_same_flock)
{
    const char *text = FIELD_SCENE "experiment: {measure: {correlation_bin: 8, correlation_range: 120}}\n";
    mur_scene *s;
    mur_flock *f;
    char *body = stats_csv(text, "corr", "--correlation", "condition,r,median,p10,p90,runs,pairs\n", &f, &s);
    if (!body)
        return;
    mur_metrics_ctx *mc = mur_metrics_ctx_create();
    double c[15], pairs[15];
    REQUIRE(mc && mur_metrics_correlation(mc, f, 8, 15, c, pairs) == 0, "correlation");
    int k = 0;
    for (char *line = strchr(body, '\n') + 1; *line; k++) {
        char *end = strchr(line, '\n'), *fl[8] = {0};
        *end = 0;
        int n = fields(line, fl, 8);
        REQUIRE(n == 7 && k < 15, "row %d: %d fields", k, n);
        CHECK(!strcmp(fl[0], "all") && strtod(fl[1], NULL) == (k + 0.5) * 8, "row %d: %s at r %s", k, fl[0], fl[1]);
        double med = *fl[2] ? strtod(fl[2], NULL) : NAN;
        CHECK((isnan(c[k]) && isnan(med)) || med == c[k], "bin %d: CSV %s, library %.17g", k, fl[2], c[k]);
        CHECK(strtod(fl[6], NULL) == pairs[k], "bin %d: %s pairs, library %.0f", k, fl[6], pairs[k]);
        line = end + 1;
    }
    CHECK(k == 15, "%d bins, want 15 (120 / 8)", k);
    CHECK(c[0] > 0.1 && c[0] > c[14], "near boids correlate more than far ones: C %.3g near, %.3g far", c[0], c[14]);
    free(body);
    mur_metrics_ctx_destroy(mc);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

TEST(anisotropy_csv_is_the_libraries_gamma_of_the_same_flock)
{
    const char *text = FIELD_SCENE;
    mur_scene *s;
    mur_flock *f;
    char *body = stats_csv(text, "aniso", "--anisotropy", "condition,n,median,p10,p90,runs\n", &f, &s);
    if (!body)
        return;
    mur_metrics_ctx *mc = mur_metrics_ctx_create();
    double g[MUR_ANISOTROPY_N];
    REQUIRE(mc && mur_metrics_anisotropy(mc, f, g) == 0, "anisotropy");
    int k = 0;
    for (char *line = strchr(body, '\n') + 1; *line; k++) {
        char *end = strchr(line, '\n'), *fl[8] = {0};
        *end = 0;
        int n = fields(line, fl, 8);
        REQUIRE(n == 6 && k < MUR_ANISOTROPY_N, "row %d: %d fields", k, n);
        double med = *fl[2] ? strtod(fl[2], NULL) : NAN;
        CHECK(atoi(fl[1]) == k + 1 && ((isnan(g[k]) && isnan(med)) || med == g[k]), "n %s: CSV %s, library %.17g",
              fl[1], fl[2], g[k]);
        line = end + 1;
    }
    CHECK(k == MUR_ANISOTROPY_N, "%d ranks, want %d", k, MUR_ANISOTROPY_N);
    char args[1024], err[4096];
    snprintf(args, sizeof args, "stats %s --anisotropy --bin 2 -o %s", scene_file("aniso.yaml", text),
             scratch_path("no.csv"));
    CHECK(murmur(args, err, sizeof err) == 2 && access(scratch_path("no.csv"), F_OK) != 0, "--bin: %s", err);
    free(body);
    mur_metrics_ctx_destroy(mc);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

TEST(correlation_and_distribution_are_the_same_bytes_on_one_and_three_threads)
{
    const char *scene = scene_file("threads.yaml", FIELD_SCENE);
    const char *opts[2] = {"--correlation", "--distribution nearest"};
    for (int i = 0; i < 2; i++) {
        char args[1024], err[4096];
        for (int t = 0; t < 2; t++) {
            snprintf(args, sizeof args, "stats %s --runs 5 --ticks 40 %s --threads %d -q -o %s", scene, opts[i],
                     t ? 3 : 1, scratch_path(t ? "t3.csv" : "t1.csv"));
            REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
        }
        char *a = test_slurp(scratch_path("t1.csv"), NULL), *b = test_slurp(scratch_path("t3.csv"), NULL);
        CHECK(a && b && !strcmp(a, b), "%s differs between 1 and 3 threads", opts[i]);
        free(a);
        free(b);
    }
}

TEST(a_distributions_counts_are_every_boid_and_its_density_sums_to_one)
{
    const char *scene = scene_file("dist.yaml", FIELD_SCENE);
    char args[1024], err[4096];
    snprintf(args, sizeof args, "stats %s --runs 3 --ticks 30 --distribution neighbours -q -o %s", scene,
             scratch_path("d.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    char *body = test_slurp(scratch_path("d.csv"), NULL);
    REQUIRE(body && strstr(body, "condition,quantity,low,high,count,density,median,p10,p90,runs\n") == body,
            "header: %.80s", body ? body : "");
    double count = 0, mass = 0;
    int rows = 0;
    for (char *line = strchr(body, '\n') + 1; *line; rows++) {
        char *end = strchr(line, '\n'), *fl[12] = {0};
        *end = 0;
        REQUIRE(fields(line, fl, 12) == 10 && !strcmp(fl[1], "neighbours"), "row %d", rows);
        double lo = strtod(fl[2], NULL), hi = strtod(fl[3], NULL);
        CHECK(hi - lo == 1 && lo == rows - 0.5, "whole numbers: bin %d is [%g, %g)", rows, lo, hi);
        count += strtod(fl[4], NULL);
        mass += strtod(fl[5], NULL) * (hi - lo);
        line = end + 1;
    }
    CHECK(count == 3 * 80, "the bins hold %.0f boids, want 3 runs x 80", count);
    CHECK(fabs(mass - 1) < 1e-12, "the density sums to %.17g", mass);
    free(body);
}

/* Width and height of a PNG, and whether a strongly coloured pixel is in it. */
static int png_size(const char *path, int *w, int *h, int *coloured)
{
    cairo_surface_t *img = cairo_image_surface_create_from_png(path);
    if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(img);
        return -1;
    }
    *w = cairo_image_surface_get_width(img);
    *h = cairo_image_surface_get_height(img);
    const uint8_t *d = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    *coloured = 0;
    for (int y = 0; y < *h && !*coloured; y++)
        for (int x = 0; x < *w; x++) {
            uint32_t px = *(const uint32_t *)(const void *)(d + (size_t)y * stride + 4 * (size_t)x);
            int r = (px >> 16) & 255, g = (px >> 8) & 255, b = px & 255;
            int mx = r > g ? (r > b ? r : b) : (g > b ? g : b), mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
            *coloured |= mx - mn > 100;
        }
    cairo_surface_destroy(img);
    return 0;
}

TEST(figures_of_the_field_show_data_and_the_provenance_footer_adds_a_line)
{
    const char *sweep = scene_file("sweep.yaml", FIELD_SCENE "experiment:\n  runs: 2\n  ticks: 20\n  sweep:\n"
                                                             "    noise: [0, 0.1, 0.2]\n    alignment: [0, 0.5, 1]\n"
                                                             "  metrics: [order, rotation]\n");
    const char *plain = scene_file("plain.yaml", FIELD_SCENE);
    static const struct {
        const char *what, *png;
        int scene;   /* 0: the sweep, 1: the plain scene */
    } figs[] = {
        {"--plot", "heat.png", 0},
        {"--correlation --plot", "corr.png", 1},
        {"--distribution speed --plot", "dist.png", 1},
    };
    for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++) {
        char args[1024], err[4096];
        int w[2], h[2], col[2];
        for (int foot = 0; foot < 2; foot++) {
            snprintf(args, sizeof args, "stats %s --runs 2 --ticks 20 -q %s %s %s", figs[i].scene ? plain : sweep,
                     figs[i].what, scratch_path(figs[i].png), foot ? "--plot-provenance" : "");
            REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
            REQUIRE(png_size(scratch_path(figs[i].png), &w[foot], &h[foot], &col[foot]) == 0, "%s", figs[i].png);
        }
        CHECK(w[0] == (int)ceil(MUR_PLOT_WIDTH * MUR_PLOT_DPI / 72) && col[0], "%s: %d px wide, coloured %d",
              figs[i].png, w[0], col[0]);
        CHECK(h[1] - h[0] >= 40 && h[1] - h[0] <= 43, "%s: the footer adds %d px, want 10 pt", figs[i].png,
              h[1] - h[0]);
    }
    /* the sweep's heatmap: a row of panels per metric, taller than one */
    int w, h1, h2, col;
    char args[1024], err[4096];
    png_size(scratch_path("heat.png"), &w, &h2, &col);
    write_file(scratch_path("one.yaml"), FIELD_SCENE "experiment:\n  runs: 2\n  ticks: 20\n  sweep:\n"
                                                     "    noise: [0, 0.1, 0.2]\n    alignment: [0, 0.5, 1]\n"
                                                     "  metrics: [order]\n");
    snprintf(args, sizeof args, "stats %s -q --plot %s", scratch_path("one.yaml"), scratch_path("one.png"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    png_size(scratch_path("one.png"), &w, &h1, &col);
    CHECK(h1 > 300 && h2 > 2 * h1 - 60, "heatmap rows: one metric %d px, two %d px (footer: one line)", h1, h2);
}

TEST(the_fields_metrics_are_series_columns_only_when_named)
{
    const char *plain = scene_file("s1.yaml", FIELD_SCENE);
    const char *named = scene_file("s2.yaml", FIELD_SCENE "experiment: {metrics: [order, rotation, elongation]}\n");
    char args[1024], err[4096];
    snprintf(args, sizeof args, "series %s --ticks 5 -q -o %s", plain, scratch_path("s1.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    snprintf(args, sizeof args, "series %s --ticks 5 -q -o %s", named, scratch_path("s2.csv"));
    REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
    char *a = test_slurp(scratch_path("s1.csv"), NULL), *b = test_slurp(scratch_path("s2.csv"), NULL);
    REQUIRE(a && b, "series files");
    CHECK(!strncmp(a, "tick,order,nearest,neighbours,clusters,largest,milling,state\n", 61), "default header: %.80s",
          a);
    CHECK(!strncmp(b, "tick,order,nearest,neighbours,clusters,largest,milling,rotation,elongation,state\n", 81),
          "named header: %.90s", b);
    free(a);
    free(b);
}

TEST(bad_field_input_exits_2_and_writes_nothing)
{
    const char *scene = scene_file("bad.yaml", FIELD_SCENE);
    static const struct {
        const char *args, *says;
    } cases[] = {
        {"--correlation --bin 0", "above 0"},
        {"--correlation --bin -2", "above 0"},
        {"--correlation --bin wide", "above 0"},
        {"--distribution nearest --bin 0", "zero width"},
        {"--distribution heading", "nearest, neighbours, speed"},
        {"--bin 3", "--correlation or --distribution"},
        {"--correlation --distribution nearest", "give one"},
        {"--correlation --json", "--json"},
        {"--correlation --runs-out r.csv", "--runs-out"},
        {"--correlation --bin 0.001", "bins"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[1024], err[4096];
        unlink(scratch_path("bad.csv"));
        snprintf(args, sizeof args, "stats %s --runs 2 --ticks 5 %s -o %s", scene, cases[i].args,
                 scratch_path("bad.csv"));
        CHECK(murmur(args, err, sizeof err) == 2 && strstr(err, cases[i].says), "%s: %s", cases[i].args, err);
        CHECK(access(scratch_path("bad.csv"), F_OK) != 0, "%s wrote its CSV", cases[i].args);
    }
    char err[4096];
    CHECK(check_refuses("zero-bin.yaml", FIELD_SCENE "experiment:\n  measure: {correlation_bin: 0}\n", ":8:30:",
                        "out of range", err, sizeof err),
          "correlation_bin 0: %s", err);
    CHECK(check_refuses("many-bins.yaml",
                        FIELD_SCENE "experiment:\n  measure: {correlation_bin: 0.01, correlation_range: 100}\n",
                        ":8:30:", "more than 4096 bins", err, sizeof err),
          "too many bins: %s", err);
}

TEST(a_traces_observables_are_the_default_set_or_the_readouts_field_measures)
{
    /* no readout: the six metrics of old, each once, and no field measure;
     * a readout of the field's measures: those */
    static const struct {
        const char *look;
        const char *have[6], *lack[3];
    } cases[] = {
        {"", {"order", "nearest", "neighbours", "clusters", "largest", "milling"},
         {"rotation", "correlation_length", "elongation"}},
        {"look: {overlays: [{readout: [rotation, correlation_length, elongation]}]}\n",
         {"rotation", "correlation_length", "elongation", NULL, NULL, NULL}, {"order", "nearest", "milling"}},
    };
    for (int i = 0; i < 2; i++) {
        char text[1024], args[1024], err[4096];
        snprintf(text, sizeof text, FIELD_SCENE "%s", cases[i].look);
        const char *scene = scene_file("obs.yaml", text), *h5 = scratch_path("obs.h5");
        snprintf(args, sizeof args, "trace %s --ticks 3 -q -o %s", scene, h5);
        REQUIRE(murmur(args, err, sizeof err) == 0, "%s: %s", args, err);
        hid_t f = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
        REQUIRE(f >= 0, "%s", h5);
        for (int k = 0; k < 6 && cases[i].have[k]; k++) {
            char path[96];
            snprintf(path, sizeof path, "observables/%s", cases[i].have[k]);
            CHECK(H5Lexists(f, "observables", H5P_DEFAULT) > 0 && H5Lexists(f, path, H5P_DEFAULT) > 0,
                  "case %d: no %s", i, path);
        }
        for (int k = 0; k < 3; k++) {
            char path[96];
            snprintf(path, sizeof path, "observables/%s", cases[i].lack[k]);
            CHECK(H5Lexists(f, path, H5P_DEFAULT) <= 0, "case %d: %s traced", i, path);
        }
        H5Fclose(f);
    }
}
