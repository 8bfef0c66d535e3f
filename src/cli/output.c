/* Every command's outputs checked before it computes: a table that cannot
 * be written is said in a moment, not after minutes of runs. out/ (the
 * default folder, not committed) is made on demand whether or not -o names
 * it; any other missing folder is the user's to make, or the plan's. */
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "murmur/file.h"

int mur_cli_output_ready(const char *path, mur_error *err)
{
    if (!path || !strcmp(path, "-"))   /* none, or standard output */
        return MUR_OK;
    if (strncmp(path, "out/", 4) == 0)
        mkdir("out", 0777);
    return mur_file_check_output(path, err);
}

int mur_cli_outputs_ready(const char *const *paths, int n, mur_error *err)
{
    int rc = MUR_OK;
    for (int i = 0; i < n && !rc; i++)
        rc = mur_cli_output_ready(paths[i], err);
    return rc;
}
