/* Provenance that pins the inputs (docs/data.md#provenance): every file a
 * run read (the scene, a replay, a saved state, a condition's replay) is
 * named with its SHA-256, the same hex sha256sum prints, in the text
 * provenance and the JSON's "inputs"; the build's commit when it knows one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli_util.h"
#include "harness.h"

/* `sha256sum path`'s line, "HEX  PATH", into out (without the newline). */
static int sha256sum(const char *path, char *out, size_t n)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "sha256sum '%s'", path);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    int ok = fgets(out, (int)n, p) != NULL;
    pclose(p);
    out[strcspn(out, "\n")] = 0;
    return ok && strlen(out) > 66 ? 0 : -1;
}

/* The sha256sum line of path is a line of the text, and its hex is path's
 * "sha256" in the JSON text json (when given). */
static void named_by_hash(const char *text, const char *json, const char *path)
{
    char want[700], line[720];
    REQUIRE(sha256sum(path, want, sizeof want) == 0, "sha256sum %s", path);
    snprintf(line, sizeof line, "\n%s\n", want);
    CHECK(strstr(text, line), "%s: no line '%s' in the provenance:\n%.900s", path, want, text);
    if (json) {
        json_object *root = json_tokener_parse(json), *prov, *inputs;
        REQUIRE(root, "the JSON does not parse:\n%.900s", json);
        if (!json_object_object_get_ex(root, "provenance", &prov))
            prov = root;
        int found = 0;
        if (json_object_object_get_ex(prov, "inputs", &inputs))
            for (size_t i = 0; i < json_object_array_length(inputs); i++) {
                json_object *in = json_object_array_get_idx(inputs, i), *p, *h;
                found |= json_object_object_get_ex(in, "path", &p) && json_object_object_get_ex(in, "sha256", &h) &&
                         !strcmp(json_object_get_string(p), path) && !strncmp(json_object_get_string(h), want, 64) &&
                         strlen(json_object_get_string(h)) == 64;
            }
        CHECK(found, "no {path: %s, sha256: %.64s} in the JSON provenance's inputs:\n%.900s", path, want, json);
        json_object_put(root);
    }
}

static char *run_and_read(const char *args, const char *path)
{
    char err[4096];
    int rc = murmur(args, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "  murmur %s: exit %d: %s\n", args, rc, err);
        return NULL;
    }
    return test_slurp(path, NULL);
}

TEST(provenance_names_every_input_by_its_sha256)
{
    /* a saved state, a replay CSV and a condition's replay beside the scenes */
    char dir[256], args[2048], state[300], tracks[300], other[300], a[300], b[300];
    snprintf(dir, sizeof dir, "%s", scratch_path("inputs"));
    snprintf(args, sizeof args, "mkdir -p %s", dir);
    REQUIRE(system(args) == 0, "mkdir");
    snprintf(state, sizeof state, "%s/formed.h5", dir);
    snprintf(tracks, sizeof tracks, "%s/tracks.csv", dir);
    snprintf(other, sizeof other, "%s/other.csv", dir);
    snprintf(a, sizeof a, "%s/a.yaml", dir);
    snprintf(b, sizeof b, "%s/b.yaml", dir);
    const char *head = "seed: 4\nmodel: wrkspc\nworld: {width: 200, height: 200}\n";
    char text[1024];
    snprintf(text, sizeof text, "%sflock: {count: 30}\nvideo: {duration: 1s}\n", head);
    write_file(a, text);
    snprintf(args, sizeof args, "trace %s -q --at 10t -o %s", a, state);
    char *unused = run_and_read(args, state);
    REQUIRE(unused, "the saved state");
    free(unused);
    write_file(tracks, "frame,id,x,y\n0,1,10,10\n0,2,20,15\n1,1,11,10\n1,2,21,16\n2,1,12,11\n2,2,22,16\n");
    write_file(other, "frame,id,x,y\n0,1,50,50\n1,1,51,50\n2,1,52,51\n");
    snprintf(text, sizeof text,
             "%sflock: {replay: tracks.csv}\nvideo: {duration: 1s}\n"
             "experiment: {runs: 1, ticks: 2, conditions: {tracked: {}, other: {replay: other.csv}}}\n", head);
    write_file(a, text);
    snprintf(text, sizeof text, "%sflock: {start: formed.h5}\nexperiment: {runs: 2, ticks: 5}\n", head);
    write_file(b, text);

    snprintf(args, sizeof args, "stats %s -q -o %s/a.csv", a, dir);
    char csv[320], json[320];
    snprintf(csv, sizeof csv, "%s/a.csv.provenance.txt", dir);
    char *ta = run_and_read(args, csv);
    snprintf(args, sizeof args, "stats %s -q -o %s/a.json", a, dir);
    snprintf(json, sizeof json, "%s/a.json", dir);
    char *ja = run_and_read(args, json);
    REQUIRE(ta && ja, "stats of a.yaml");
    named_by_hash(ta, ja, a);
    named_by_hash(ta, ja, tracks);
    named_by_hash(ta, ja, other);
    snprintf(args, sizeof args, "stats %s -q -o %s/b.csv", b, dir);
    snprintf(csv, sizeof csv, "%s/b.csv.provenance.txt", dir);
    char *tb = run_and_read(args, csv);
    REQUIRE(tb, "stats of b.yaml");
    named_by_hash(tb, NULL, b);
    named_by_hash(tb, NULL, state);
    CHECK(!strstr(tb, tracks), "b.yaml read no replay:\n%.600s", tb);
    /* the build: a commit (40 hex digits, +dirty when the tree had changes)
     * where the build knew one, and in the JSON as a string or null */
    const char *build = strstr(ta, "\nbuild: ");
    CHECK(!build || strspn(build + 8, "0123456789abcdef") == 40, "build line: %.60s", build);
    CHECK(strstr(ja, build ? "\"build\": \"" : "\"build\": null"), "JSON build: %.300s", ja);
    free(ta);
    free(ja);
    free(tb);
}
