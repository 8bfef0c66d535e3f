/* The atomic writer of murmur/file.h (mur_atomic_*): commit publishes the
 * whole file at its name, abort leaves nothing, a device or pipe is written
 * in place, a dead writer's temporary is swept, and a failed commit says
 * why. Every writer (stills, figures, tables, videos, sequences) relies on
 * these; their own tests check the same through the command line. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "murmur/file.h"

static char dir[64];

/* A fresh empty folder under /tmp for one case. */
static const char *fresh_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/murmur-test-file-XXXXXX");
    return mkdtemp(dir);
}

static const char *in_dir(const char *name)
{
    static char path[8][sizeof dir + 256];
    static int k;
    char *p = path[k++ % 8];
    snprintf(p, sizeof path[0], "%s/%.255s", dir, name);
    return p;
}

/* How many entries the folder has but "." and ".."; their names, joined by
 * spaces in readdir's order, to names (callers expect at most one). */
static int entries(char *names, size_t n)
{
    DIR *d = opendir(dir);
    int count = 0;
    if (names)
        names[0] = '\0';
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (names && strlen(names) + strlen(e->d_name) + 2 < n)
            strcat(strcat(names, names[0] ? " " : ""), e->d_name);
        count++;
    }
    if (d)
        closedir(d);
    return count;
}

static void remove_dir(void)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            remove(in_dir(e->d_name));
    if (d)
        closedir(d);
    rmdir(dir);
}

TEST(commit_publishes_the_whole_file_and_no_temporary)
{
    REQUIRE(fresh_dir(), "mkdtemp: %s", strerror(errno));
    const char *path = in_dir("x.csv");
    mur_atomic a;
    mur_error err = {{0}};
    REQUIRE(mur_atomic_begin(&a, path, 0, &err) == 0, "begin: %s", err.msg);
    char want_tmp[256];
    snprintf(want_tmp, sizeof want_tmp, "%s/.x.csv.part.%ld", dir, (long)getpid());
    CHECK(!a.special && a.tmp && !strcmp(a.tmp, want_tmp), "tmp '%s', want '%s'", a.tmp, want_tmp);
    REQUIRE(mur_atomic_fopen(&a, "w", &err), "fopen: %s", err.msg);
    fputs("a,b\n1,2\n", a.fp);
    char names[256];
    CHECK(access(path, F_OK) != 0, "%s exists before commit", path);
    CHECK(mur_atomic_commit(&a, &err) == 0, "commit: %s", err.msg);
    CHECK(!a.path && !a.tmp && !a.fp, "commit leaves a zeroed");
    char *text = test_slurp(path, NULL);
    CHECK(text && !strcmp(text, "a,b\n1,2\n"), "published '%s'", text ? text : "(none)");
    free(text);
    CHECK(entries(names, sizeof names) == 1 && !strcmp(names, "x.csv"), "folder holds '%s'", names);
    remove_dir();
}

TEST(abort_leaves_nothing_and_is_safe_twice)
{
    REQUIRE(fresh_dir(), "mkdtemp: %s", strerror(errno));
    const char *path = in_dir("x.png");
    mur_atomic a = {0};
    mur_atomic_abort(&a);   /* zeroed: nothing begun */
    mur_error err = {{0}};
    REQUIRE(mur_atomic_begin(&a, path, 0, &err) == 0, "begin: %s", err.msg);
    REQUIRE(mur_atomic_fopen(&a, "wb", &err), "fopen: %s", err.msg);
    fputs("half a file", a.fp);
    fflush(a.fp);
    char names[256];
    CHECK(entries(NULL, 0) == 1, "the temporary is on disk while written");
    mur_atomic_abort(&a);
    mur_atomic_abort(&a);
    CHECK(entries(names, sizeof names) == 0, "abort left '%s'", names);
    remove_dir();
}

/* A pipe with a reader: what is written arrives through it, and it is
 * still a pipe after commit (renaming over it would have replaced it). */
TEST(special_file_is_written_in_place)
{
    REQUIRE(fresh_dir(), "mkdtemp: %s", strerror(errno));
    const char *fifo = in_dir("pipe.csv");
    REQUIRE(mkfifo(fifo, 0600) == 0, "mkfifo: %s", strerror(errno));
    int rd = open(fifo, O_RDONLY | O_NONBLOCK);   /* a reader, so the writer's open does not wait */
    REQUIRE(rd >= 0, "open fifo: %s", strerror(errno));
    mur_atomic a;
    mur_error err = {{0}};
    REQUIRE(mur_atomic_begin(&a, fifo, 0, &err) == 0, "begin: %s", err.msg);
    CHECK(a.special && !strcmp(a.tmp, fifo), "special %d, tmp '%s'", a.special, a.tmp);
    REQUIRE(mur_atomic_fopen(&a, "w", &err), "fopen: %s", err.msg);
    fputs("through the pipe", a.fp);
    CHECK(mur_atomic_commit(&a, &err) == 0, "commit: %s", err.msg);
    char got[64] = "";
    ssize_t n = read(rd, got, sizeof got - 1);
    CHECK(n == 16 && !memcmp(got, "through the pipe", 16), "read %zd bytes: '%.*s'", n,
          n > 0 ? (int)n : 0, got);
    close(rd);
    struct stat sb;
    CHECK(stat(fifo, &sb) == 0 && S_ISFIFO(sb.st_mode), "the pipe was replaced");
    CHECK(entries(NULL, 0) == 1, "a temporary was left beside the pipe");
    remove_dir();
}

/* A temporary of a process that is gone is removed when the same target
 * is begun again; one of a live process (pid 1) is not, nor anything when
 * the caller says it swept the folder itself. */
TEST(stale_temporary_of_a_dead_writer_is_swept)
{
    REQUIRE(fresh_dir(), "mkdtemp: %s", strerror(errno));
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    REQUIRE(child > 0 && waitpid(child, NULL, 0) == child, "fork: %s", strerror(errno));
    char name[64];
    snprintf(name, sizeof name, ".x.json.part.%ld", (long)child);
    const char *stale = in_dir(name), *live = in_dir(".x.json.part.1");
    FILE *fp;
    REQUIRE((fp = fopen(stale, "w")) && !fclose(fp), "create %s", stale);
    REQUIRE((fp = fopen(live, "w")) && !fclose(fp), "create %s", live);
    mur_atomic a;
    mur_error err = {{0}};
    REQUIRE(mur_atomic_begin(&a, in_dir("x.json"), MUR_ATOMIC_SWEPT, &err) == 0, "begin: %s", err.msg);
    mur_atomic_abort(&a);
    CHECK(access(stale, F_OK) == 0, "MUR_ATOMIC_SWEPT swept %s", stale);
    REQUIRE(mur_atomic_begin(&a, in_dir("x.json"), 0, &err) == 0, "begin: %s", err.msg);
    mur_atomic_abort(&a);
    CHECK(access(stale, F_OK) != 0, "%s of dead pid %ld was kept", stale, (long)child);
    CHECK(access(live, F_OK) == 0, "%s of live pid 1 was removed", live);
    remove_dir();
}

/* A rename that fails (a folder at the final name) and a write that fails
 * (/dev/full, written in place) each say which and why, and leave no
 * temporary behind. */
TEST(failed_commit_names_the_reason)
{
    REQUIRE(fresh_dir(), "mkdtemp: %s", strerror(errno));
    const char *path = in_dir("x.svg");
    REQUIRE(mkdir(path, 0700) == 0, "mkdir %s", path);
    mur_atomic a;
    mur_error err = {{0}};
    REQUIRE(mur_atomic_begin(&a, path, 0, &err) == 0, "begin: %s", err.msg);
    REQUIRE(mur_atomic_fopen(&a, "w", &err), "fopen: %s", err.msg);
    fputs("<svg/>", a.fp);
    char want[1024], tmp[256], names[256];
    snprintf(tmp, sizeof tmp, "%s", a.tmp);
    snprintf(want, sizeof want, "cannot rename '%s' to '%s': %s", tmp, path, strerror(EISDIR));
    CHECK(mur_atomic_commit(&a, &err) == MUR_ERUN, "commit over a folder succeeded");
    CHECK(!strcmp(err.msg, want), "message '%s', want '%s'", err.msg, want);
    CHECK(entries(names, sizeof names) == 1 && !strcmp(names, "x.svg"), "folder holds '%s'", names);
    rmdir(path);

    const char *full = in_dir("full.csv");
    REQUIRE(symlink("/dev/full", full) == 0, "symlink: %s", strerror(errno));
    REQUIRE(mur_atomic_begin(&a, full, 0, &err) == 0, "begin: %s", err.msg);
    REQUIRE(mur_atomic_fopen(&a, "w", &err), "fopen: %s", err.msg);
    fputs("1,2\n", a.fp);   /* buffered: the close's flush fails */
    snprintf(want, sizeof want, "cannot write '%s': %s", full, strerror(ENOSPC));
    CHECK(mur_atomic_commit(&a, &err) == MUR_ERUN, "commit to /dev/full succeeded");
    CHECK(!strcmp(err.msg, want), "message '%s', want '%s'", err.msg, want);
    CHECK(entries(names, sizeof names) == 1 && !strcmp(names, "full.csv"), "folder holds '%s'", names);

    /* an error a writer recorded (a Cairo write callback's errno) wins */
    path = in_dir("y.pdf");
    REQUIRE(mur_atomic_begin(&a, path, 0, &err) == 0, "begin: %s", err.msg);
    REQUIRE(mur_atomic_fopen(&a, "wb", &err), "fopen: %s", err.msg);
    a.error = EIO;
    snprintf(want, sizeof want, "cannot write '%s': %s", path, strerror(EIO));
    CHECK(mur_atomic_commit(&a, &err) == MUR_ERUN, "commit after a failed write succeeded");
    CHECK(!strcmp(err.msg, want), "message '%s', want '%s'", err.msg, want);
    CHECK(entries(names, sizeof names) == 1 && !strcmp(names, "full.csv"), "folder holds '%s'", names);
    remove_dir();
}
