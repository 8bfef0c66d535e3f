/* libFuzzer target for recorded flocks' CSV (built and run by .ci/fuzz).
 *
 * A replay file is untrusted input, as a scene is: any bytes must give a
 * recording or an error naming its line, never a crash, a leak, undefined
 * behaviour, a hang or a huge allocation. The bytes are written to a file
 * that a fixed scene replays (the loader reads recordings from files), and
 * a recording that loads is stepped through by the driver, so the frames
 * the reader built are shown to a flock too. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "murmur/scene.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char scene[] = "model: wrkspc\n"
                            "world: {width: 200, height: 100, boundary: wrap}\n"
                            "flock: {replay: fuzz-replay.csv}\n"
                            "video: {width: 64, height: 32, duration: 40t, ticks_per_second: 30}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *name;
    if (fuzz_input_file("replay", "fuzz-replay.csv", data, size, &name))
        return 0;
    mur_scene *s = NULL;
    mur_error err;
    if (mur_scene_parse(&s, name, scene, sizeof scene - 1, &err) != 0)
        return 0;
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
    return 0;
}
