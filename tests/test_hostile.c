/* Hostile inputs at the doors opened for recorded flocks, saved states,
 * shards and chunks (issue 34's audit): each class answers as the README
 * promises, exit 2 within a moment, one line naming the file, memory
 * bounded, nothing left beside an output, no control character reaching a
 * terminal or a subtitle file. The HDF5 files are built with HDF5's C API
 * here; a reader that regressed to following a pipe would block, so every
 * command runs under timeout(1), which turns a hang into a failure (exit
 * 124) rather than a test that never ends. */
#define _DEFAULT_SOURCE   /* wait4: a child's own peak memory */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hdf5.h>

#include "cli_util.h"
#include "harness.h"
#include "murmur/error.h"
#include "murmur/video.h"

/* Peak memory (kB) a child may reach refusing a file: murmur's own
 * (code, libraries, a scene) is about 45 MB. */
#define PEAK_KB (160 * 1024)

/* murmur ARGS, killed after 60 s: a hang fails its case, not the run. */
static int run(const char *args, char *err, size_t n)
{
    return murmur_within(60, args, err, n);
}

static int lines_of(const char *text)
{
    int n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n;
}

/* murmur a1 a2 a3 (NULL-ended) in a child, stderr into err; its exit
 * status, and its peak resident memory in kB (wait4's ru_maxrss, the
 * child's own) into *peak. */
static int run_peak(const char *const *argv, long *peak, char *err, size_t n)
{
    const char *errfile = scratch_path("peak-stderr.txt");
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 2);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        alarm(60);   /* a hang ends as a failure */
        execv(MURMUR_EXE, (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    if (pid < 0 || wait4(pid, &st, 0, &ru) != pid)
        return -1;
    *peak = ru.ru_maxrss;
    err[0] = 0;
    FILE *fp = fopen(errfile, "r");
    if (fp) {
        size_t got = fread(err, 1, n - 1, fp);
        err[got] = 0;
        fclose(fp);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A scene in the scratch folder whose flock is `flock` (a replay or a start). */
static const char *scene_with(const char *name, const char *flock)
{
    static char paths[4][256];   /* scratch_path's buffers rotate: our own */
    static int k;
    char text[512];
    snprintf(text, sizeof text,
             "model: wrkspc\nworld: {width: 100, height: 100}\nvideo: {duration: 1s}\nflock: %s\n", flock);
    char *path = paths[k++ % 4];
    snprintf(path, 256, "%s", scratch_path(name));
    write_file(path, text);
    return path;
}

/* ---- the crash ------------------------------------------------------------ */

TEST(trace_without_an_output_exits_2_saying_o_is_needed)
{
    const char *scene = scene_with("plain.yaml", "{count: 10}");
    static const char *const extra[] = {"", " --shard 1/2"};
    for (int i = 0; i < 2; i++) {
        char args[512], err[2048];
        snprintf(args, sizeof args, "trace %s -q%s", scene, extra[i]);
        int rc = run(args, err, sizeof err);
        CHECK(rc == 2 && strstr(err, "trace needs -o OUT.csv or -o OUT.h5"), "trace%s: exit %d: %s", extra[i], rc,
              err);
    }
}

/* ---- HDF5 indirections ------------------------------------------------------ */

/* A trace file of T steps of N boids (positions in the world, velocities
 * 1, 0) whose particles/flock/position/value is made by `value` (NULL: a
 * plain dataset); returns the file, open for more, or -1. */
typedef hid_t (*make_value)(hid_t group, hsize_t T, hsize_t N);

static hid_t plain_value(hid_t g, hsize_t T, hsize_t N)
{
    hsize_t dims[3] = {T, N, 2};
    hid_t sp = H5Screate_simple(3, dims, NULL);
    hid_t d = H5Dcreate2(g, "value", H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    double *v = calloc((size_t)(T * N * 2 + 1), sizeof *v);
    for (hsize_t i = 0; i < T * N * 2; i++)
        v[i] = 10 + (double)(i % 50);
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    free(v);
    H5Sclose(sp);
    return d;
}

static hid_t make_trace(const char *path, hsize_t T, hsize_t N, make_value value)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t g = H5Gcreate2(f, "particles/flock/position", lcpl, H5P_DEFAULT, H5P_DEFAULT);
    hid_t d = (value ? value : plain_value)(g, T, N);
    hsize_t tdims[1] = {T};
    hid_t sp = H5Screate_simple(1, tdims, NULL);
    hid_t st = H5Dcreate2(g, "step", H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int64_t steps[8];
    for (int i = 0; i < 8; i++)
        steps[i] = i;
    if (T <= 8)
        H5Dwrite(st, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, steps);
    H5Dclose(st);
    H5Sclose(sp);
    if (d >= 0)
        H5Dclose(d);
    H5Gclose(g);
    H5Pclose(lcpl);
    return f;
}

static hid_t virtual_value(hid_t g, hsize_t T, hsize_t N)
{
    hsize_t dims[3] = {T, N, 2};
    hid_t sp = H5Screate_simple(3, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_virtual(dcpl, sp, "missing-source.h5", "/data", sp);
    hid_t d = H5Dcreate2(g, "value", H5T_IEEE_F64LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Pclose(dcpl);
    H5Sclose(sp);
    return d;
}

static hid_t external_value(hid_t g, hsize_t T, hsize_t N)
{
    hsize_t dims[3] = {T, N, 2};
    hid_t sp = H5Screate_simple(3, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_external(dcpl, scratch_path("raw.fifo"), 0, (hsize_t)(T * N * 2 * 8));
    hid_t d = H5Dcreate2(g, "value", H5T_IEEE_F64LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Pclose(dcpl);
    H5Sclose(sp);
    return d;
}

/* `check` of a scene replaying (and one starting from) file: exit 2 and
 * both messages saying `says`. */
static void refused_both_ways(const char *file, const char *says)
{
    static const char *const how[] = {"{replay: %s}", "{start: %s}"};
    for (int i = 0; i < 2; i++) {
        char flock[256], args[512], err[2048];
        snprintf(flock, sizeof flock, how[i], file);
        snprintf(args, sizeof args, "check %s -q", scene_with("h5.yaml", flock));
        int rc = run(args, err, sizeof err);
        CHECK(rc == 2 && strstr(err, file) && strstr(err, says) && lines_of(err) == 1, "%s %s: exit %d: %s",
              i ? "start" : "replay", file, rc, err);
    }
}

TEST(an_h5_external_link_is_refused_without_following_it)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    unlink(scratch_path("elsewhere.h5"));
    REQUIRE(mkfifo(scratch_path("elsewhere.h5"), 0644) == 0, "mkfifo");
    hid_t f = H5Fcreate(scratch_path("elink.h5"), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    REQUIRE(f >= 0 && H5Lcreate_external(scratch_path("elsewhere.h5"), "/particles", f, "particles", H5P_DEFAULT,
                                         H5P_DEFAULT) >= 0, "the link");
    H5Fclose(f);
    refused_both_ways("elink.h5", "particles: an external link to another file");
}

TEST(an_h5_soft_link_is_refused_even_one_that_loops)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fcreate(scratch_path("slink.h5"), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t g = f >= 0 ? H5Gcreate2(f, "particles", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    REQUIRE(g >= 0 && H5Lcreate_soft("/particles/flock", g, "flock", H5P_DEFAULT, H5P_DEFAULT) >= 0, "the link");
    H5Gclose(g);
    H5Fclose(f);
    refused_both_ways("slink.h5", "particles/flock: a soft link");
}

TEST(an_h5_virtual_dataset_is_refused_its_source_missing_or_not)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = make_trace(scratch_path("vds.h5"), 2, 3, virtual_value);
    REQUIRE(f >= 0, "the file");
    H5Fclose(f);
    refused_both_ways("vds.h5", "particles/flock/position/value: a virtual dataset");
}

TEST(an_h5_dataset_stored_in_an_external_pipe_is_refused)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    unlink(scratch_path("raw.fifo"));
    REQUIRE(mkfifo(scratch_path("raw.fifo"), 0644) == 0, "mkfifo");
    hid_t f = make_trace(scratch_path("ext.h5"), 2, 3, external_value);
    REQUIRE(f >= 0, "the file");
    H5Fclose(f);
    refused_both_ways("ext.h5", "particles/flock/position/value: its values are stored in external files");
}

/* position/value [T][N][2] chunked, never written: sizes HDF5 keeps as
 * numbers, costing nothing until read. */
static hid_t declared_value(hid_t g, hsize_t T, hsize_t N)
{
    hsize_t dims[3] = {T, N, 2}, max[3] = {H5S_UNLIMITED, N, 2}, chunk[3] = {1, N ? N : 1, 2};
    hid_t sp = H5Screate_simple(3, dims, max), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 3, chunk);
    hid_t d = H5Dcreate2(g, "value", H5T_IEEE_F64LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Pclose(dcpl);
    H5Sclose(sp);
    return d;
}

/* The step dataset made again, chunked and declared T long. */
static void declared_steps(hid_t f, hsize_t T)
{
    H5Ldelete(f, "particles/flock/position/step", H5P_DEFAULT);
    hsize_t dims[1] = {T}, max[1] = {H5S_UNLIMITED}, chunk[1] = {1024};
    hid_t sp = H5Screate_simple(1, dims, max), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, chunk);
    hid_t d = H5Dcreate2(f, "particles/flock/position/step", H5T_STD_I64LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(sp);
}

TEST(an_h5_s_declared_sizes_are_refused_before_they_cost)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    /* no boids and 50 million steps: 50 million reads if followed */
    hid_t f = make_trace(scratch_path("empty50m.h5"), 50000000, 0, declared_value);
    REQUIRE(f >= 0, "the file");
    declared_steps(f, 50000000);
    H5Fclose(f);
    char args[512], err[2048];
    long peak = 0;
    snprintf(args, sizeof args, "check %s -q", scene_with("e50m.yaml", "{replay: empty50m.h5}"));
    int rc = run(args, err, sizeof err);
    CHECK(rc == 2 && strstr(err, "empty50m.h5: error: particles/flock/position/value: 50000000 steps of 0 boids"),
          "exit %d: %s", rc, err);
    /* 2^40 steps declared, a start at a tick it does not hold: a refusal
     * (exit 2), not "out of memory" (exit 1) from a copy of its steps */
    f = make_trace(scratch_path("huge.h5"), (hsize_t)1 << 40, 3, declared_value);
    REQUIRE(f >= 0, "the file");
    declared_steps(f, (hsize_t)1 << 40);
    H5Fclose(f);
    const char *scene = scene_with("huge.yaml", "{start: {file: huge.h5, tick: 99999999}}");
    const char *argv[] = {MURMUR_EXE, "check", scene, "-q", NULL};
    rc = run_peak(argv, &peak, err, sizeof err);
    CHECK(rc == 2 && strstr(err, "huge.h5: error: particles/flock/position/step: no step 99999999") &&
              peak < PEAK_KB, "exit %d, %ld kB: %s", rc, peak, err);
}

/* ---- FIFOs ------------------------------------------------------------------- */

/* FNV-1a 64, as shard files end with. */
static uint64_t fnv(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

/* A shard of a small experiment (scratch exp.yaml), written by murmur:
 * its path, or NULL. */
static const char *a_shard(const char *command)
{
    write_file(scratch_path("exp.yaml"), "model: wrkspc\nworld: {width: 100, height: 100}\n"
                                         "video: {duration: 1s}\nflock: {count: 12}\nexperiment: {runs: 2}\n");
    char args[512], err[2048];
    snprintf(args, sizeof args, "%s %s --shard 1/1 -o %s -q", command, scratch_path("exp.yaml"),
             scratch_path("exp.csv"));
    if (run(args, err, sizeof err) != 0) {
        fprintf(stderr, "  the shard: %s\n", err);
        return NULL;
    }
    return scratch_path("exp.shard-1-of-1.mur");
}

/* The shard at from, its header line `key: old` made `key: value`, with
 * its end line's hash made right again, into to. 0, or -1. */
static int forge(const char *from, const char *to, const char *key, const char *value)
{
    size_t n;
    char *d = test_slurp(from, &n);
    char line[128];
    snprintf(line, sizeof line, "\n%s: ", key);
    char *at = d ? strstr(d, line) : NULL;
    if (!at || n < 21) {
        free(d);
        return -1;
    }
    char *eol = strchr(at + 1, '\n');
    size_t head = (size_t)(at - d) + strlen(line), rest = n - (size_t)(eol - d) - 21;
    unsigned char *out = malloc(n + strlen(value) + 64);
    size_t k = 0;
    memcpy(out, d, head);
    k = head;
    memcpy(out + k, value, strlen(value));
    k += strlen(value);
    memcpy(out + k, eol, rest);
    k += rest;
    k += (size_t)sprintf((char *)out + k, "end %016llx\n", (unsigned long long)fnv(out, k));
    FILE *fp = fopen(to, "wb");
    int ok = fp && fwrite(out, 1, k, fp) == k;
    if (fp)
        fclose(fp);
    free(out);
    free(d);
    return ok ? 0 : -1;
}

TEST(every_reader_refuses_a_pipe_at_once_naming_it)
{
    char fifo[256];
    snprintf(fifo, sizeof fifo, "%s", scratch_path("pipe.any"));
    unlink(fifo);
    REQUIRE(mkfifo(fifo, 0644) == 0, "mkfifo");
    const char *shard = a_shard("stats");
    REQUIRE(shard, "a shard");
    REQUIRE(forge(shard, scratch_path("piped.mur"), "scene", fifo) == 0, "forging");
    char args[3][512];
    snprintf(args[0], sizeof args[0], "merge %s -o %s -q", fifo, scratch_path("m.csv"));
    snprintf(args[1], sizeof args[1], "merge %s -o %s -q", scratch_path("piped.mur"), scratch_path("m.csv"));
    snprintf(args[2], sizeof args[2], "join %s -o %s -q", fifo, scratch_path("j.mp4"));
    static const char *const says[] = {"not a murmur shard file: it is a pipe, not a regular file",
                                       "a shard of the scene", "it is a pipe, not a regular file"};
    for (int i = 0; i < 3; i++) {
        char err[2048];
        int rc = run(args[i], err, sizeof err);
        CHECK(rc == 2 && strstr(err, says[i]) && strstr(err, i == 1 ? "piped.mur" : "pipe.any") &&
                  lines_of(err) == 1, "%s: exit %d: %s", args[i], rc, err);
    }
    /* a replay: the reader that already did, through the same function */
    char a[512], err[2048];
    snprintf(a, sizeof a, "check %s -q", scene_with("fifo.yaml", "{replay: pipe.any}"));
    int rc = run(a, err, sizeof err);
    CHECK(rc == 2 && strstr(err, "pipe.any' is a pipe, not a regular file"), "replay: exit %d: %s", rc, err);
}

/* ---- memory ---------------------------------------------------------------------- */

/* A file of text, then zeros to size bytes (a sparse file). */
static void sparse(const char *path, const char *text, off_t size)
{
    write_file(path, text);
    REQUIRE(truncate(path, size) == 0, "truncate %s", path);
}

TEST(huge_inputs_are_refused_within_bounded_memory)
{
    static const struct {
        const char *text;
        off_t size;
        const char *says;
    } csv[] = {
        {"", (off_t)2 << 30, "big.csv:1: error: a line longer than 65536 bytes"},
        {"frame,id,x,y\n", (off_t)1 << 30, "big.csv:2: error: a line longer than 65536 bytes"},
        {"frame,id,x,y\n0,1,\"2", 1 << 20, "big.csv:2: error: a line longer than 65536 bytes"},
    };
    const char *scene = scene_with("big.yaml", "{replay: big.csv}");
    for (size_t i = 0; i < sizeof csv / sizeof csv[0]; i++) {
        sparse(scratch_path("big.csv"), csv[i].text, csv[i].size);
        const char *argv[] = {MURMUR_EXE, "check", scene, "-q", NULL};
        char err[2048];
        long peak = 0;
        int rc = run_peak(argv, &peak, err, sizeof err);
        CHECK(rc == 2 && strstr(err, csv[i].says) && peak < PEAK_KB, "case %zu: exit %d, peak %ld kB: %s", i, rc, peak,
              err);
    }
    /* a line of real digits, 8 MiB, no newline: refused at its first 64 kB */
    FILE *fp = fopen(scratch_path("big.csv"), "w");
    REQUIRE(fp, "big.csv");
    fputs("frame,id,x,y\n", fp);
    for (int i = 0; i < 8 << 20; i++)
        fputc('1', fp);
    fclose(fp);
    const char *argv[] = {MURMUR_EXE, "check", scene, "-q", NULL};
    char err[2048];
    long peak = 0;
    int rc = run_peak(argv, &peak, err, sizeof err);
    CHECK(rc == 2 && strstr(err, "big.csv:2: error: a line longer") && peak < PEAK_KB, "digits: exit %d, %ld kB: %s",
          rc, peak, err);
    /* a shard whose header claims 400 million records, made 8 GiB by
     * zeros: refused by its numbers, before any table of them */
    const char *shard = a_shard("trace");
    REQUIRE(shard, "a shard");
    REQUIRE(forge(shard, scratch_path("huge.mur"), "jobs", "400000000") == 0, "forging");
    REQUIRE(truncate(scratch_path("huge.mur"), (off_t)8 << 30) == 0, "truncate");
    const char *margv[] = {MURMUR_EXE, "merge", scratch_path("huge.mur"), "-o", scratch_path("m.csv"), "-q", NULL};
    rc = run_peak(margv, &peak, err, sizeof err);
    CHECK(rc == 2 && strstr(err, "huge.mur: damaged shard (400000000 records of 1 runs)") && peak < PEAK_KB,
          "shard: exit %d, %ld kB: %s", rc, peak, err);
    unlink(scratch_path("huge.mur"));
    unlink(scratch_path("big.csv"));
}

/* ---- injection ------------------------------------------------------------------- */

TEST(control_characters_from_a_file_are_escaped_in_messages)
{
    write_file(scratch_path("esc.csv"), "frame,id,x,y\n0,1,\"\033]0;owned\007\033[2J\",3\n");
    char args[512], err[2048];
    snprintf(args, sizeof args, "check %s -q", scene_with("esc.yaml", "{replay: esc.csv}"));
    int rc = run(args, err, sizeof err);
    CHECK(rc == 2 && strstr(err, "esc.csv:2: error: x = '\\x1b]0;owned\\x07\\x1b[2J' is not a number") &&
              !strchr(err, '\033') && !strchr(err, '\007'), "exit %d: %s", rc, err);
    /* a condition's name, printed in the stats table, holds none either */
    CHECK(check_refuses("cond.yaml", "model: wrkspc\nexperiment:\n  conditions: {\"a\\e]0;x\": {}, b: {}}\n",
                        "cond.yaml:3:16:", "'condition name' holds the control character \\x1b", err, sizeof err),
          "%s", err);
    /* the one function every message goes through */
    mur_error e;
    mur_error_set(&e, MUR_EINPUT, "a %s b", "\r\n\t\x7f");
    CHECK(!strcmp(e.msg, "a \\x0d\\x0a\\x09\\x7f b"), "%s", e.msg);
}

TEST(captions_cannot_make_extra_subtitle_cues)
{
    /* a control character is refused at its line (YAML's \e and \r) */
    static const char *const texts[] = {"\"\\e]0;owned\\e[2J\"", "\"one\\r\\n\\r\\ntwo\""};
    for (int i = 0; i < 2; i++) {
        char yaml[512], err[2048];
        snprintf(yaml, sizeof yaml, "model: wrkspc\nvideo: {duration: 2s}\ntimeline:\n  - {at: 0s, caption: %s}\n",
                 texts[i]);
        CHECK(check_refuses("cap.yaml", yaml, "cap.yaml:4:23:", i ? "holds the control character \\x0d"
                                                                   : "holds the control character \\x1b",
                            err, sizeof err),
              "%s", err);
    }
    /* blank lines (spaces only too) never reach a sidecar, nor "-->" a .vtt */
    mur_video_text cues[2] = {{0}};
    cues[0].start = 0;
    cues[0].end = 1;
    cues[0].text = "one\n \n\ntwo";
    cues[1].start = 1;
    cues[1].end = 2;
    cues[1].text = "2\n00:00:05.000 --> 00:00:09.000";
    static const char *const names[] = {"cues.srt", "cues.vtt"};
    for (int i = 0; i < 2; i++) {
        mur_error e;
        REQUIRE(mur_subtitles_write(scratch_path(names[i]), cues, 2, &e) == 0, "%s", e.msg);
        char *t = test_slurp(scratch_path(names[i]), NULL);
        REQUIRE(t, "read");
        int blocks = 0;
        for (char *p = strstr(t, "\n\n"); p; p = strstr(p + 2, "\n\n"))
            blocks++;
        CHECK(blocks == 2 + i && strstr(t, "one\ntwo\n") && (!i || strstr(t, "00:00:05.000 --&gt; 00:00:09.000")),
              "%s: %d blank lines: %s", names[i], blocks, t);
        free(t);
    }
}

/* ---- outputs beside a directory ---------------------------------------------------- */

static int part_files_in(const char *dir)
{
    char cmd[512], out[256];
    snprintf(cmd, sizeof cmd, "ls -a %s | grep -c '\\.part\\.' || true", dir);
    run_tool_output(cmd, out, sizeof out);
    return atoi(out);
}

TEST(an_output_that_is_a_directory_is_refused_before_the_work)
{
    const char *shard = a_shard("stats");
    REQUIRE(shard, "a shard");
    const char *m = scratch_path("outdir.csv"), *j = scratch_path("outdir.mp4");
    mkdir(m, 0755);
    mkdir(j, 0755);
    char args[3][512];
    snprintf(args[0], sizeof args[0], "merge %s -o %s -q", shard, m);
    /* the chunks need not exist: the output is checked first */
    snprintf(args[1], sizeof args[1], "join %s -o %s -q", scratch_path("no-chunk.mp4"), j);
    snprintf(args[2], sizeof args[2], "trace %s -o %s -q", scratch_path("exp.yaml"), scratch_path("outdir.csv"));
    for (int i = 0; i < 3; i++) {
        char err[2048];
        int rc = run(args[i], err, sizeof err);
        CHECK(rc == 2 && strstr(err, i == 1 ? "outdir.mp4' is a directory" : "outdir.csv' is a directory") &&
                  lines_of(err) == 1, "%s: exit %d: %s", args[i], rc, err);
    }
    CHECK(part_files_in(scratch()) == 0, "a part file was left");
}

/* ---- messages naming their file ----------------------------------------------------- */

TEST(each_refusal_names_its_file)
{
#define CSV_CASE(text, says) {text, sizeof text - 1, says}
    static const struct {
        const char *csv;
        size_t len;
        const char *says;
    } cases[] = {
        CSV_CASE("frame,id,x,y\n0,1,\"2\0005\",3\n", "m.csv:2: error: a field holds a NUL byte"),
        CSV_CASE("frame,id,x,y\n0,1,\"2\n5\",3\n", "m.csv:3: error: x = '2\\x0a5' is not a number"),
    };
    const char *scene = scene_with("m.yaml", "{replay: m.csv}");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FILE *fp = fopen(scratch_path("m.csv"), "wb");
        REQUIRE(fp, "m.csv");
        fwrite(cases[i].csv, 1, cases[i].len, fp);
        fclose(fp);
        char args[512], err[2048];
        snprintf(args, sizeof args, "check %s -q", scene);
        int rc = run(args, err, sizeof err);
        CHECK(rc == 2 && strstr(err, cases[i].says) && lines_of(err) == 1, "case %zu: exit %d: %s", i, rc, err);
    }
    /* 10,000 columns: refused for what it is, not called empty */
    FILE *fp = fopen(scratch_path("m.csv"), "w");
    REQUIRE(fp, "m.csv");
    fputs("frame,id,x,y", fp);
    for (int i = 0; i < 10000; i++)
        fprintf(fp, ",c%d", i);
    fputc('\n', fp);
    fclose(fp);
    char args[512], err[2048];
    snprintf(args, sizeof args, "check %s -q", scene);
    int rc = run(args, err, sizeof err);
    CHECK(rc == 2 && strstr(err, "m.csv:1: error: a header of more than 1024 columns"), "columns: exit %d: %s", rc,
          err);
    /* a forged shard asking for more than can be kept */
    const char *shard = a_shard("series");
    REQUIRE(shard, "a shard");
    REQUIRE(forge(shard, scratch_path("greedy1.mur"), "ticks", "10000000") == 0 &&
                forge(scratch_path("greedy1.mur"), scratch_path("greedy.mur"), "runs", "100000") == 0, "forging");
    snprintf(args, sizeof args, "merge %s -o %s -q", scratch_path("greedy.mur"), scratch_path("g.csv"));
    rc = run(args, err, sizeof err);
    CHECK(rc == 2 && strstr(err, "greedy.mur: ") && strstr(err, "is too much to keep"), "shard: exit %d: %s", rc,
          err);
}

/* A file HDF5 1.10 itself crashes on (found by fuzz_h5: a compact dataset
 * declaring more bytes than it stores, which H5Dread copies past): the
 * reading runs in a child, so it is the file's error, exit 2, one line. */
TEST(an_h5_file_the_library_crashes_on_is_the_files_error)
{
    FILE *in = fopen("tests/data/hdf5-damaged-compact.h5", "rb"), *out = fopen(scratch_path("damaged.h5"), "wb");
    REQUIRE(in && out, "the damaged file and its copy");
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    fclose(in);
    fclose(out);
    refused_both_ways("damaged.h5", "the file is damaged or not a trace murmur can read");
}
