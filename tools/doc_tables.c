/* murmur-doc-tables: prints the settings rows of docs/scenes.md and the
 * preset table of docs/model.md, generated from the settings table, to
 * paste after a deliberate change (tests/test_docs.c fails until the docs
 * carry them). A tool, built with the tests: ./build/tools/murmur-doc-tables. */
#include <stdio.h>

#include "doc_rows.h"
#include "murmur/scene.h"

int main(void)
{
    char path[64], row[768], extra[4][512];
    for (int i = 0; !mur_scene_key_at(i, path, sizeof path); i++) {
        const mur_setting *st = setting_of(path);
        if (st) {
            setting_row(st, path, row, sizeof row);
            printf("%s\n", row);
        }
    }
    printf("\n");
    preset_extra_rows(extra);
    printf("%s\n|---|", extra[0]);
    for (int i = 0; i < mur_preset_count(); i++)
        printf("---|");
    printf("\n");
    for (int i = 0; i < mur_setting_count(); i++) {
        preset_row(mur_setting_at(i), row, sizeof row);
        printf("%s\n", row);
    }
    for (int r = 1; r < 4; r++)
        printf("%s\n", extra[r]);
    return ferror(stdout) ? 1 : 0;
}
