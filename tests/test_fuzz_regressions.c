/* The render fuzzer's path without clang or libFuzzer: its target
 * (tests/fuzz/fuzz_render.c) is compiled in here and given the inputs kept
 * in tests/fuzz/. Every regression input must go through it (under the
 * sanitizer build of the suite: without a report), and every seed of the
 * render corpus must get through every step (loaded, stepped, drawn, its
 * still and its one-frame video written), so the fuzzer keeps starting
 * from scenes that reach the whole path. */
#include "fuzz/fuzz_render.c"

#include <dirent.h>

#include "harness.h"

/* Runs the target on every file of folder; returns how many, and counts
 * in *whole those that got through every step. */
static int run_folder(const char *folder, int *whole, int must_be_whole)
{
    static int ready;
    if (!ready && !LLVMFuzzerInitialize(NULL, NULL))
        ready = 1;
    DIR *d = opendir(folder);
    if (!d)
        return 0;
    int files = 0;
    *whole = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
        size_t len;
        char *text = test_slurp(path, &len);
        CHECK(text, "%s: cannot read it", path);
        if (!text)
            continue;
        LLVMFuzzerTestOneInput((const uint8_t *)text, len);
        files++;
        if (!failed_step)
            ++*whole;
        else
            CHECK(!must_be_whole, "%s: stops at the %s step", path, failed_step);
        free(text);
    }
    closedir(d);
    return files;
}

TEST(render_seeds_reach_every_step)
{
    int whole;
    int files = run_folder("tests/fuzz/corpus-render", &whole, 1);
    CHECK(files >= 10 && whole == files, "%d of %d seeds got through", whole, files);
}

TEST(regressions_go_through_the_render_path)
{
    int whole;
    int files = run_folder("tests/fuzz/regressions", &whole, 0);
    CHECK(files > 0, "no regression inputs");
}

TEST(a_seed_that_stops_is_seen)
{
    /* The check above could not fail if a scene that does not load still
     * counted as whole. */
    static const char bad[] = "flock: {count: -1}\n";
    LLVMFuzzerTestOneInput((const uint8_t *)bad, sizeof bad - 1);
    CHECK(failed_step && !strcmp(failed_step, "load"), "failed step %s", failed_step ? failed_step : "none");
    static const char good[] = "video: {width: 64, height: 48, duration: 1s, output: out/x.png.d/%03d.png}\n";
    LLVMFuzzerTestOneInput((const uint8_t *)good, sizeof good - 1);
    CHECK(!failed_step, "failed step %s", failed_step ? failed_step : "none");
}
