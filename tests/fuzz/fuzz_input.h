/* What the file-reading fuzz targets share: the input written to a file
 * in a folder of this process's own (TMPDIR, else /tmp), so a scene beside
 * it can name it; the folder is made once. */
#ifndef MURMUR_FUZZ_INPUT_H
#define MURMUR_FUZZ_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes data to DIR/file, DIR being "TMPDIR/fuzz-TAG-PID"; sets *scene
 * to DIR/scene.yaml (the name a scene parsed beside it takes). 0, or -1
 * when the file cannot be written. */
static int fuzz_input_file(const char *tag, const char *file, const uint8_t *data, size_t size,
                           const char **scene)
{
    static char dir[64], name[96];
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/fuzz-%s-%d", tmp ? tmp : "/tmp", tag, (int)getpid());
        mkdir(dir, 0700);
        snprintf(name, sizeof name, "%s/scene.yaml", dir);
    }
    *scene = name;
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return -1;
    fwrite(data, 1, size, fp);
    fclose(fp);
    return 0;
}

#endif
