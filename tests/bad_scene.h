/* The check of a bad scene that tests of the CLI share: written to the
 * scratch directory, rendered, it must exit 2 naming "file:LINE:" and the
 * expected words on stderr, with no output file. */
#ifndef MURMUR_TEST_BAD_SCENE_H
#define MURMUR_TEST_BAD_SCENE_H

#include <unistd.h>

#include "cli_util.h"
#include "harness.h"

/* A bad scene exits 2 with "file:LINE:" and the expected words on stderr. */
static inline void expect_bad(const char *name, const char *text, const char *where, const char *words)
{
    const char *path = scratch_path(name);
    write_file(path, text);
    char args[512], err[4096], want[512];
    snprintf(args, sizeof args, "render %s -o %s -q", path, scratch_path("bad.mp4"));
    int st = murmur(args, err, sizeof err);
    CHECK(st == 2, "%s: exit %d, want 2 (stderr: %s)", name, st, err);
    snprintf(want, sizeof want, "%s:%s", path, where);
    CHECK(strstr(err, want) != NULL, "%s: stderr lacks '%s': %s", name, want, err);
    CHECK(strstr(err, words) != NULL, "%s: stderr lacks '%s': %s", name, words, err);
    CHECK(access(scratch_path("bad.mp4"), F_OK) != 0, "%s: an output file was written", name);
}

#endif
