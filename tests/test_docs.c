/* The user documentation against the code: docs/scenes.md describes every
 * key the loader accepts (mur_scene_key_at, read from the loader's own key
 * lists), and its settings table is the settings table; docs/model.md names
 * every setting and metric, and its preset table is presets.c's. A key, a
 * range, a default or a preset value changed in the code without the docs
 * fails here, with the line the docs should have.
 *
 * The generated tables, to paste after a deliberate change, are printed by
 * a tool, not a test: ./build/tools/murmur-doc-tables (tools/doc_tables.c,
 * the same rows: tools/doc_rows.h). */
#define _XOPEN_SOURCE 700   /* nftw */
#include <ctype.h>
#include <dirent.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "murmur/metrics.h"
#include "murmur/presets.h"
#include "murmur/scene.h"

static char *doc(const char *path)
{
    char *text = test_slurp(path, NULL);
    CHECK(text != NULL, "cannot read %s (tests run from the source tree)", path);
    return text;
}

/* `word`, in backticks, somewhere in text. */
static int names(const char *text, const char *word)
{
    char quoted[128];
    snprintf(quoted, sizeof quoted, "`%s`", word);
    return strstr(text, quoted) != NULL;
}

#include "doc_rows.h"

/* A scene holding only the key at path, with value `~`: "look.boid.shape"
 * gives {look: {boid: {shape: ~}}}, "timeline[].at" {timeline: [{at: ~}]}.
 * suffix is appended to the last key (to misspell it). */
static void scene_with(const char *path, const char *suffix, char *out, size_t size)
{
    char segs[8][64];
    int n = 0;
    for (const char *p = path; *p && n < 8; n++) {
        size_t len = strcspn(p, ".");
        snprintf(segs[n], sizeof segs[n], "%.*s", (int)len, p);
        p += len + (p[len] == '.');
    }
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        size_t sl = strlen(segs[i]);
        int list = sl > 2 && !strcmp(segs[i] + sl - 2, "[]");
        len += (size_t)snprintf(out + len, size - len, "{%.*s%s: %s", (int)(list ? sl - 2 : sl),
                                segs[i], i == n - 1 ? suffix : "", list ? "[" : "");
    }
    len += (size_t)snprintf(out + len, size - len, "~");
    for (int i = n - 1; i >= 0; i--) {
        size_t sl = strlen(segs[i]);
        int list = sl > 2 && !strcmp(segs[i] + sl - 2, "[]");
        len += (size_t)snprintf(out + len, size - len, "%s}", list ? "]" : "");
    }
}

/* The key listing is the loader's: each listed path is a key the loader
 * knows where the path puts it (its value may be wrong, its name is not),
 * and the same path misspelt is refused by name. */
TEST(every_listed_key_is_a_key_the_loader_accepts)
{
    char path[64], text[512];
    int n = 0;
    for (; !mur_scene_key_at(n, path, sizeof path); n++) {
        const char *last = strrchr(path, '.');
        last = last ? last + 1 : path;
        char unknown[128], misspelt[128];
        snprintf(unknown, sizeof unknown, " '%s' (", last);
        snprintf(misspelt, sizeof misspelt, "'%szz'", last);
        mur_error err = {{0}};
        mur_scene *s = NULL;
        scene_with(path, "", text, sizeof text);
        mur_scene_parse(&s, "t.yaml", text, strlen(text), &err);
        CHECK(s || !strstr(err.msg, unknown), "%s: %s refused by name: %s", path, text, err.msg);
        mur_scene_destroy(s);
        s = NULL;
        scene_with(path, "zz", text, sizeof text);
        int rc = mur_scene_parse(&s, "t.yaml", text, strlen(text), &err);
        CHECK(rc && strstr(err.msg, misspelt), "%s: %s not refused by name: %s", path, text,
              rc ? err.msg : "(loaded)");
        mur_scene_destroy(s);
    }
    CHECK(n > 80, "only %d keys listed", n);
    CHECK(mur_scene_key_at(-1, path, sizeof path) == 1, "key -1 listed");
    CHECK(mur_scene_key_at(n, path, sizeof path) == 1, "past the last key: not 1 (-1 would be MUR_ERUN)");
    double t;
    CHECK(mur_time_parse("soon", 60, &t) == MUR_EINPUT, "not a time: MUR_EINPUT, not -1 (MUR_ERUN)");
}

/* Every key of a sequence file is in docs/scenes.md's "Sequences". */
TEST(scenes_doc_describes_every_sequence_key)
{
    char *text = doc("docs/scenes.md");
    if (!text)
        return;
    const char *sec = strstr(text, "### Sequences");
    CHECK(sec, "docs/scenes.md has no Sequences section");
    char path[64];
    int n = 0;
    for (; sec && !mur_sequence_key_at(n, path, sizeof path); n++)
        CHECK(names(sec, path), "docs/scenes.md's Sequences does not describe `%s`", path);
    CHECK(n >= 15, "only %d sequence keys", n);
    free(text);
}

TEST(scenes_doc_describes_every_key)
{
    char *text = doc("docs/scenes.md");
    if (!text)
        return;
    char path[64];
    for (int i = 0; !mur_scene_key_at(i, path, sizeof path); i++)
        CHECK(names(text, path), "docs/scenes.md does not describe `%s`", path);
    free(text);
}

/* The settings table in the docs is the settings table: every range, type,
 * default and meaning, for world and flock alike. */
TEST(scenes_doc_settings_rows_match_the_settings_table)
{
    char *text = doc("docs/scenes.md");
    if (!text)
        return;
    char path[64], row[768];
    int rows = 0;
    for (int i = 0; !mur_scene_key_at(i, path, sizeof path); i++) {
        const mur_setting *st = setting_of(path);
        if (!st)
            continue;
        setting_row(st, path, row, sizeof row);
        CHECK(strstr(text, row) != NULL, "docs/scenes.md lacks the row\n%s", row);
        rows++;
    }
    CHECK(rows == mur_setting_count(), "%d settings rows for %d settings", rows, mur_setting_count());
    for (int k = 0; k < MUR_METRIC_COUNT; k++)
        CHECK(names(text, mur_metric_name(k)), "docs/scenes.md does not name metric `%s`",
              mur_metric_name(k));
    for (int i = 0; i < mur_preset_count(); i++)
        CHECK(names(text, mur_preset_at(i)->name), "docs/scenes.md does not name preset `%s`",
              mur_preset_at(i)->name);
    free(text);
}

TEST(model_doc_describes_every_setting_metric_and_preset)
{
    char *text = doc("docs/model.md");
    if (!text)
        return;
    for (int i = 0; i < mur_setting_count(); i++)
        CHECK(names(text, mur_setting_at(i)->name), "docs/model.md does not name setting `%s`",
              mur_setting_at(i)->name);
    for (int k = 0; k < MUR_METRIC_COUNT; k++) {
        const mur_metric_info *m = mur_metric_info_at(k);
        char heading[96];
        snprintf(heading, sizeof heading, "### `%s`", m->name);
        CHECK(strstr(text, heading) != NULL, "docs/model.md has no section %s", heading);
    }
    char row[512], extra[4][512];
    for (int i = 0; i < mur_setting_count(); i++) {
        preset_row(mur_setting_at(i), row, sizeof row);
        CHECK(strstr(text, row) != NULL, "docs/model.md lacks the preset row\n%s", row);
    }
    preset_extra_rows(extra);
    for (int r = 0; r < 4; r++)
        CHECK(strstr(text, extra[r]) != NULL, "docs/model.md lacks the preset row\n%s", extra[r]);
    for (int i = 0; i < mur_preset_count(); i++) {
        char heading[96];
        snprintf(heading, sizeof heading, "### `%s`", mur_preset_at(i)->name);
        CHECK(strstr(text, heading) != NULL, "docs/model.md has no section %s", heading);
    }
    free(text);
}

/* Every YAML example of the docs is a scene that loads: an example that
 * drifts from the loader teaches an error. */
TEST(every_yaml_example_in_the_docs_loads)
{
    static const char *const docs[] = {"docs/scenes.md", "docs/model.md"};
    int examples = 0;
    for (int d = 0; d < 2; d++) {
        char *text = doc(docs[d]);
        if (!text)
            continue;
        for (char *p = text; (p = strstr(p, "```yaml\n"));) {
            p += 8;
            char *end = strstr(p, "```");
            if (!end) {
                CHECK(0, "%s: unterminated yaml block", docs[d]);
                break;
            }
            *end = 0;
            mur_error err = {{0}};
            mur_scene *s = NULL;
            /* a sequence's example names scenes of scenes/, as a sequence file there does,
             * and an image overlay's an image of scenes/data/, as scenes/image.yaml does */
            const char *name = strstr(p, "\nsequence:") || strstr(p, "image: {file:") ? "scenes/docs-example.yaml"
                             : docs[d];
            mur_scene_parse(&s, name, p, strlen(p), &err);
            CHECK(s != NULL, "%s: example does not load: %s\n%s", docs[d], err.msg, p);
            mur_scene_destroy(s);
            examples++;
            p = end + 3;
        }
        free(text);
    }
    CHECK(examples >= 10, "only %d yaml examples", examples);
}

/* noise's range is the model's (MUR_NOISE_MAX, flock.h), and scenes.md
 * gives its reason: the heading within asin(1/max) of the kick's. */
TEST(noise_range_comes_from_the_model_with_its_reason_in_the_docs)
{
    const mur_setting *st = mur_setting_find("noise");
    REQUIRE(st, "no noise setting");
    CHECK(st->max == MUR_NOISE_MAX && st->min == 0, "noise %g to %g, model's %d", st->min, st->max, MUR_NOISE_MAX);
    char *text = doc("docs/scenes.md");
    if (!text)
        return;
    char want[128];
    snprintf(want, sizeof want, "`noise` stops at %d because of what it is in the model", MUR_NOISE_MAX);
    CHECK(strstr(text, want) != NULL, "docs/scenes.md lacks \"%s\"", want);
    snprintf(want, sizeof want, "asin(1/%d) = %.1f degrees", MUR_NOISE_MAX, asin(1.0 / MUR_NOISE_MAX) * 180 / 3.14159265358979323846);
    CHECK(strstr(text, want) != NULL, "docs/scenes.md lacks \"%s\"", want);
    free(text);
}

/* Where knockouts are explained (docs/scenes.md, before "### sweep"), the
 * docs say why a formed noiseless flock keeps its heading without
 * alignment, and name the test that shows it, which exists (issue 31). */
TEST(knockouts_say_why_a_formed_noiseless_flock_keeps_its_heading)
{
    char *text = doc("docs/scenes.md"), *test = doc("tests/test_flock.c");
    if (!text || !test) {
        free(text);
        free(test);
        return;
    }
    const char *name = "a_formed_noiseless_flock_keeps_its_heading_without_alignment";
    const char *sweep = strstr(text, "### sweep"), *at = strstr(text, name);
    const char *why = strstr(text, "never which way they head");
    CHECK(at && sweep && at < sweep, "docs/scenes.md does not name %s before its sweep section", name);
    CHECK(why && why < sweep, "docs/scenes.md does not say why the heading is kept");
    char decl[128];
    snprintf(decl, sizeof decl, "TEST(%s)", name);
    CHECK(strstr(test, decl) != NULL, "tests/test_flock.c has no %s", decl);
    free(text);
    free(test);
}

/* ---- the public headers' comments ------------------------------------------ */

/* The names (mur_..., MUR_...) of text into a list, separated by spaces, in
 * comments (comments 1) or in code (0). A name followed by * or ending in
 * _ (mur_scene_*, MUR_SUBTITLES_*) is a family, not a symbol: left out. */
static void names_in(const char *text, int comments, char **list, size_t *len, size_t *cap)
{
    int in_line = 0, in_block = 0;
    for (const char *p = text; *p; p++) {
        if (!in_line && !in_block && p[0] == '/' && p[1] == '/') {
            in_line = 1;
        } else if (!in_line && !in_block && p[0] == '/' && p[1] == '*') {
            in_block = 1;
            p++;
            continue;
        } else if (in_line && *p == '\n') {
            in_line = 0;
        } else if (in_block && p[0] == '*' && p[1] == '/') {
            in_block = 0;
            p++;
            continue;
        }
        int here = (in_line || in_block) == comments;
        if (!here || (strncmp(p, "mur_", 4) && strncmp(p, "MUR_", 4)) ||
            (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
            continue;
        size_t n = 0;
        while (isalnum((unsigned char)p[n]) || p[n] == '_')
            n++;
        if (p[n - 1] != '_' && p[n] != '*') {
            if (*len + n + 3 > *cap) {
                *cap = (*len + n + 3) * 2;
                *list = realloc(*list, *cap);
            }
            (*list)[(*len)++] = ' ';
            memcpy(*list + *len, p, n);
            *len += n;
            (*list)[(*len)++] = ' ';
            (*list)[*len] = 0;
        }
        p += n - 1;
    }
}

static char *code_names;
static size_t code_len, code_cap;

static int collect_code(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    size_t n = strlen(path);
    if (flag == FTW_F && n > 2 && path[n - 2] == '.' && (path[n - 1] == 'c' || path[n - 1] == 'h')) {
        char *text = test_slurp(path, NULL);
        if (text)
            names_in(text, 0, &code_names, &code_len, &code_cap);
        free(text);
    }
    return 0;
}

/* A public header's comment that names a mur_ or MUR_ symbol names one that
 * exists: declared or defined in the headers' or the sources' code (comments
 * named mur_metric_names, which never was). */
TEST(header_comments_name_only_symbols_that_exist)
{
    code_len = 0;
    REQUIRE(nftw("include/murmur", collect_code, 16, FTW_PHYS) == 0 && nftw("src", collect_code, 16, FTW_PHYS) == 0,
            "cannot read include/ and src/ (tests run from the source tree)");
    REQUIRE(code_names && strstr(code_names, " mur_flock_create "), "no names read from the code");
    DIR *d = opendir("include/murmur");
    REQUIRE(d, "include/murmur");
    int headers = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 3 || strcmp(e->d_name + n - 2, ".h"))
            continue;
        char path[512];
        snprintf(path, sizeof path, "include/murmur/%s", e->d_name);
        char *text = test_slurp(path, NULL), *said = NULL;
        size_t len = 0, cap = 0;
        if (text)
            names_in(text, 1, &said, &len, &cap);
        for (char *w = said ? strtok(said, " ") : NULL; w; w = strtok(NULL, " ")) {
            char key[128];
            snprintf(key, sizeof key, " %s ", w);
            CHECK(strstr(code_names, key), "%s: a comment names %s, which nothing declares or defines", path, w);
        }
        free(said);
        free(text);
        headers++;
    }
    closedir(d);
    CHECK(headers > 15, "only %d headers", headers);
    free(code_names);
    code_names = NULL;
}

/* docs/scenes.md's example of `murmur check`'s 3D lines is what check
 * prints for scenes/views3d.yaml: the block after the sentence naming it,
 * line for line, in check's output in that order. */
TEST(scenes_doc_shows_checks_3d_lines_as_check_prints_them)
{
    char *text = doc("docs/scenes.md");
    if (!text)
        return;
    const char *at = strstr(text, "`murmur check scenes/views3d.yaml` prints");
    const char *open = at ? strstr(at, "```text\n") : NULL;
    const char *close = open ? strstr(open + 8, "```") : NULL;
    CHECK(close != NULL, "docs/scenes.md has no ```text block after \"`murmur check scenes/views3d.yaml` prints\"");
    char out[16384], cmd[512];
    size_t got = 0;
    snprintf(cmd, sizeof cmd, "%s check scenes/views3d.yaml 2>&1", MURMUR_EXE);
    FILE *p = close ? popen(cmd, "r") : NULL;
    if (p) {
        got = fread(out, 1, sizeof out - 1, p);
        CHECK(pclose(p) == 0, "check scenes/views3d.yaml does not exit 0");
    }
    out[got] = 0;
    if (close) {
        size_t n = (size_t)(close - (open + 8));
        char *want = malloc(n + 1);
        memcpy(want, open + 8, n);
        want[n] = 0;
        CHECK(n > 0 && strstr(out, want) != NULL, "docs/scenes.md shows\n%s\n  check prints\n%s", want, out);
        /* each is one of check's whole lines, not a piece of one */
        const char *line = strstr(out, want);
        CHECK(!line || line == out || line[-1] == '\n', "the example starts inside a line of check's output");
        free(want);
    }
    free(text);
}
