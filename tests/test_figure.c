/* Figures from plain data (murmur/plot.h's mur_figure), with no experiment:
 * a stats and an effects figure drawn from tables written here; what is
 * not figure data is refused; plot.h and plot.c know no experiment. */
#include "murmur/plot.h"

#if defined(MURMUR_EXPERIMENT_H) || defined(MURMUR_SCENE_H)
#error "murmur/plot.h includes an experiment or scene header"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/metrics.h"

static const mur_figure_condition conditions[2] = {{"all", NULL, 0, {0}}, {"no-cohesion", "no cohesion", 1, {1, 0, 0}}};

static mur_figure table(const int *metrics, const mur_summary *sum, const mur_effect *eff)
{
    mur_figure f = {.version = MUR_FIGURE_VERSION, .title = "plain", .provenance = "made by test_figure",
                    .nconditions = 2, .conditions = conditions, .runs = 5, .ticks = 100, .tps = 30,
                    .metrics = metrics, .nmetrics = 1, .summary = sum, .baseline = 0, .effects = eff,
                    .effect_level = 95};
    return f;
}

static long size_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

TEST(stats_and_effects_figures_are_drawn_from_tables)
{
    const int metrics[1] = {mur_metric_find("order")};
    const mur_summary sum[2] = {{0.9, 0.8, 0.95, 0.88, 5}, {0.3, 0.1, 0.5, 0.31, 5}};
    const mur_effect eff[2] = {{0, 0, 0, 5}, {-0.6, -0.7, -0.4, 5}};
    mur_figure f = table(metrics, sum, eff);
    mur_error err = {{0}};
    CHECK(mur_plot_stats(scratch_path("s.png"), &f, &err) == MUR_OK, "%s", err.msg);
    CHECK(size_of(scratch_path("s.png")) > 1000, "no stats figure");
    CHECK(mur_plot_effects(scratch_path("e.svg"), &f, &err) == MUR_OK, "%s", err.msg);
    CHECK(size_of(scratch_path("e.svg")) > 1000, "no effects figure");
}

TEST(what_is_not_figure_data_is_refused)
{
    const int metrics[1] = {0};
    const mur_summary sum[2] = {{0}};
    mur_figure f = table(metrics, sum, NULL);
    mur_error err = {{0}};
    f.version = MUR_FIGURE_VERSION + 1;
    CHECK(mur_plot_stats(scratch_path("v.png"), &f, &err) == MUR_EINPUT && size_of(scratch_path("v.png")) < 0,
          "a later version drawn");
    f = table(metrics, sum, NULL);
    CHECK(mur_plot_effects(scratch_path("n.png"), &f, &err) == MUR_EINPUT, "effects without effects drawn");
    CHECK(mur_plot_divergence(scratch_path("d.png"), &f, &err) == MUR_EINPUT && strstr(err.msg, "twin"),
          "a divergence without a twin drawn: %s", err.msg);
    CHECK(mur_plot_series(scratch_path("r.png"), &f, &err) == MUR_EINPUT, "a series without samples drawn");
    f.nmetrics = 0;
    CHECK(mur_plot_stats(scratch_path("m.png"), &f, &err) == MUR_EINPUT, "a figure of no metric drawn");
}

/* The figures' source reads no experiment or scene, wherever the house keeps it. */
TEST(the_figures_source_includes_no_experiment_or_scene_header)
{
    static const char *const places[] = {"src/figure/plot.c", "src/render/plot.c"};
    static const char *const banned[] = {"murmur/scene.h", "murmur/experiment.h", "murmur/twin.h",
                                         "murmur/shard.h", "murmur/variant.h", "murmur/figure_data.h"};
    FILE *fp = NULL;
    for (size_t i = 0; i < 2 && !fp; i++)
        fp = fopen(places[i], "rb");
    CHECK(fp, "no plot.c in src/figure or src/render");
    if (!fp)
        return;
    static char text[1 << 18];
    size_t n = fread(text, 1, sizeof text - 1, fp);
    text[n] = '\0';
    fclose(fp);
    for (size_t j = 0; j < sizeof banned / sizeof *banned; j++)
        CHECK(!strstr(text, banned[j]), "plot.c includes %s", banned[j]);
}
