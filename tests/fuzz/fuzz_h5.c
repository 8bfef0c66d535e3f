/* libFuzzer target for recorded flocks and saved states in HDF5 (built and
 * run by .ci/fuzz): the reader of `flock: {replay: FILE.h5}` and of
 * `flock: {start: FILE.h5}`.
 *
 * An .h5 is untrusted input, as a scene is: any bytes must give a
 * recording or an error naming the file and dataset, never a crash, a
 * leak, undefined behaviour, a hang or a huge allocation, whatever sizes,
 * links or layouts the file declares. HDF5 opens files by name, so the
 * bytes are written to a file that two fixed scenes read, one replaying
 * it, one starting from it; a replay that loads is stepped through, so
 * what the reader built is shown to a flock too, and no HDF5 object may
 * be left open after it. The reading runs in a child process
 * (src/data/recording_isolate.c), where HDF5's own crashes on damaged
 * files end as the file's error: this target checks what murmur makes of
 * the child's answer, and the child's verdict on a handle left open. The
 * fuzzer's coverage stops at the fork, so the seeds matter more. The seeds
 * (tests/fuzz/corpus-h5/) are murmur's own traces and saved states. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include "fuzz_input.h"
#include "murmur/scene.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char replay[] = "model: wrkspc\n"
                             "world: {width: 200, height: 100, boundary: wrap}\n"
                             "flock: {replay: fuzz.h5}\n"
                             "video: {width: 64, height: 32, duration: 40t, ticks_per_second: 30}\n";
static const char start[] = "model: wrkspc\n"
                            "world: {width: 200, height: 100, boundary: wrap}\n"
                            "flock: {start: fuzz.h5}\n"
                            "video: {width: 64, height: 32, duration: 40t, ticks_per_second: 30}\n";

/* Loads text as a scene beside the file and steps a flock through it. */
static void load_and_step(const char *name, const char *text, size_t len)
{
    mur_scene *s = NULL;
    mur_error err;
    if (mur_scene_parse(&s, name, text, len, &err) != 0) {
        /* the reader runs in a child (src/data/recording_isolate.c); a
         * handle it left open comes back as this error */
        if (strstr(err.msg, "internal error"))
            abort();
        return;
    }
    if (s->params.count <= 4096) {
        mur_flock *f = NULL;
        mur_driver *d = NULL;
        if (!mur_flock_create(&f, &s->params, 1, &err) && !mur_driver_create(&d, &err) &&
            !mur_driver_start(d, s, f, &s->params, &err))
            mur_driver_run_to(d, 40, &err);
        mur_driver_destroy(d);
        mur_flock_destroy(f);
    }
    mur_scene_destroy(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *name;
    if (fuzz_input_file("h5", "fuzz.h5", data, size, &name))
        return 0;
    load_and_step(name, replay, sizeof replay - 1);
    load_and_step(name, start, sizeof start - 1);
    /* nothing of HDF5 is opened in this process: the reading is the child's */
    if (H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) != 0)
        abort();
    return 0;
}
