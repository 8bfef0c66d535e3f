/* libFuzzer target for shard files (built and run by .ci/fuzz): what
 * `murmur merge` reads, the bytes of one shard of a fixed scene's stats,
 * series or trace (its rows or its .h5 file).
 *
 * A shard is untrusted input: any bytes must merge or be refused naming
 * the file, never a crash, a leak, undefined behaviour, a hang or a huge
 * allocation, whatever counts and lengths its header declares. A shard
 * ends with a hash of its bytes, which a mutation would almost always
 * break, so the target writes that last line again for the mutated bytes:
 * the fuzzer reaches the header, the records and the merge, not only the
 * hash check. The shard names its scene by path and the merge hashes that
 * file, so the target works in a folder of its own holding the scene (its
 * text below is what made the seeds in tests/fuzz/corpus-merge/:
 * `murmur stats|series|trace fuzz-merge.yaml --shard 1/1 -o x.csv|x.h5`). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "murmur/experiment.h"
#include "murmur/scene.h"
#include "murmur/shard.h"
#include "murmur/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char scene[] = "model: wrkspc\n"
                            "world: {width: 100, height: 100}\n"
                            "video: {width: 64, height: 32, duration: 20t, ticks_per_second: 30}\n"
                            "flock: {count: 6}\n"
                            "experiment: {runs: 2}\n";

#define END_LINE 21   /* "end " 16 hex digits "\n" */

static uint64_t fnv(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

static int setup(void)
{
    static int done;
    if (done)
        return done;
    char dir[96];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/fuzz-merge-%d", tmp ? tmp : "/tmp", (int)getpid());
    mkdir(dir, 0700);
    FILE *fp = NULL;
    if (chdir(dir) == 0 && (fp = fopen("fuzz-merge.yaml", "wb")))
        fwrite(scene, 1, sizeof scene - 1, fp);
    done = fp && fclose(fp) == 0 ? 1 : -1;
    return done;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (setup() < 0)
        return 0;
    const char *path = "fuzz.shard-1-of-1.mur";
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return 0;
    fwrite(data, 1, size, fp);
    if (size >= END_LINE && !memcmp(data + size - END_LINE, "end ", 4)) {
        fseek(fp, (long)(size - END_LINE), SEEK_SET);
        fprintf(fp, "end %016llx\n", (unsigned long long)fnv(data, size - END_LINE));
    }
    fclose(fp);
    mur_shard_info in;
    mur_error err;
    if (mur_shard_read_info(path, &in, &err))
        return 0;
    mur_scene *s = NULL;
    if (!strcmp(in.scene, "fuzz-merge.yaml") &&
        !mur_scene_parse(&s, "fuzz-merge.yaml", scene, sizeof scene - 1, &err)) {
        const char *paths[] = {path};
        if (!strcmp(in.command, "trace")) {
            mur_trace_merge(s, paths, 1, strncmp(in.trace, "h5", 2) ? "merged.csv" : "merged.h5", &err);
        } else {
            mur_experiment *e = NULL;
            if (!mur_experiment_merge(&e, s, paths, 1, &err))
                mur_experiment_destroy(e);
        }
    }
    mur_scene_destroy(s);
    mur_shard_info_free(&in);
    return 0;
}
