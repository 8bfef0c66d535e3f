/* HDF5 traces read in a child process (recording.h).
 *
 * HDF5 1.10 is not hardened against damaged files: a forged address in a
 * group's B-tree makes H5Lexists copy from a null pointer, and other
 * forgeries make it loop. Those are the library's, not murmur's, but a
 * scene naming such a file must still end in an error naming it, exit 2,
 * not a crash or a hang. So the reader (recording_h5.c) runs in a forked
 * child: it reads the file as before, then writes the recording it built,
 * or its error, down a pipe, and the parent rebuilds the recording from
 * the bytes. A child that dies (a signal, an exit without its answer) or
 * spends more than MUR_H5_CHILD_CPU seconds of CPU time is the file's
 * error. The child writes nothing to the terminal (its standard error is
 * /dev/null) and ends with _exit: no atexit handler, no stdio buffer of
 * the parent's is run or flushed twice.
 *
 * The answer is the child's own memory layout sent to its own parent (the
 * same binary), so it is raw native values: a header, then the arrays,
 * then an end mark that says the child finished writing. */
#include "recording.h"
#include "murmur/alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* CPU seconds the child may take: reading the largest replay murmur
 * holds (10,000,000 positions) takes a few (fuzz_h5 allows 45 s an input). */
#define MUR_H5_CHILD_CPU 30

#define ANSWER_MAGIC 0x6d75724835726563ULL   /* "murH5rec" */
#define ANSWER_END 0x656e64616e737772ULL     /* "endanswr" */

typedef struct {
    uint64_t magic;
    int32_t rc;
    int32_t has_recording;
    long nframes, rows;
    int32_t max_n, has_state;
    int32_t dimension, pad;
    uint64_t flock_tick, stream[4], seed;
    char msg[sizeof ((mur_error *)0)->msg];
} answer_head;

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

/* The arrays of r in the order both sides walk them. */
typedef struct {
    void **at;
    size_t size;
} field;

static size_t fields_of(mur_recording *r, long nframes, long rows, field f[9], size_t n[9])
{
    field all[] = {{(void **)&r->tick, sizeof(long)}, {(void **)&r->first, sizeof(long)},
                   {(void **)&r->id, sizeof(int)},    {(void **)&r->x, sizeof(double)},
                   {(void **)&r->y, sizeof(double)},  {(void **)&r->vx, sizeof(double)},
                   {(void **)&r->vy, sizeof(double)}, {(void **)&r->z, sizeof(double)},
                   {(void **)&r->vz, sizeof(double)}};
    size_t count[] = {(size_t)nframes, (size_t)nframes + 1, (size_t)rows, (size_t)rows,
                      (size_t)rows,    (size_t)rows,        (size_t)rows, (size_t)rows,
                      (size_t)rows};
    size_t k = r->dimension == 3 ? 9 : 7;   /* a 3D world's z and vz too */
    for (size_t i = 0; i < k; i++) {
        f[i] = all[i];
        n[i] = count[i];
    }
    return k;
}

/* In the child: read, answer, end. */
static void child(int fd, const char *path, const char *shown, long tick, int all, const mur_params *p)
{
    struct rlimit cpu = {MUR_H5_CHILD_CPU, MUR_H5_CHILD_CPU + 5};
    setrlimit(RLIMIT_CPU, &cpu);
    /* the answer is the child's only voice: what a crash would print (a
     * sanitizer's report in a checked build) is not murmur's message */
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, STDERR_FILENO);
        close(null);
    }
    mur_recording *r = NULL;
    mur_error err = {{0}};
    answer_head h;
    memset(&h, 0, sizeof h);   /* padding too: every byte sent is set */
    h.magic = ANSWER_MAGIC;
    h.rc = mur_recording_read_h5_here(&r, path, shown, tick, all, p, &err);
    /* every handle the reader opened is closed: a forgotten one is
     * murmur's bug, said as such (fuzz_h5 aborts on it) */
    ssize_t open_objects = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);
    if (open_objects > 0)
        h.rc = mur_error_set(&err, MUR_ERUN, "%s: internal error: the HDF5 reader left %zd objects open",
                             shown, open_objects);
    memcpy(h.msg, err.msg, sizeof h.msg);
    if (!h.rc && r) {
        h.has_recording = 1;
        h.nframes = r->nframes;
        h.rows = r->first[r->nframes];
        h.max_n = r->max_n;
        h.has_state = r->has_state;
        h.dimension = r->dimension;
        h.flock_tick = r->flock_tick;
        memcpy(h.stream, r->stream, sizeof h.stream);
        h.seed = r->seed;
    }
    int ok = write_all(fd, &h, sizeof h) == 0;
    if (ok && h.has_recording) {
        field f[9];
        size_t n[9], k = fields_of(r, h.nframes, h.rows, f, n);
        for (size_t i = 0; ok && i < k; i++)
            ok = write_all(fd, *f[i].at, n[i] * f[i].size) == 0;
    }
    uint64_t end = ANSWER_END;
    ok = ok && write_all(fd, &end, sizeof end) == 0;
    close(fd);
    _exit(ok ? 0 : 1);
}

/* In the parent: the recording from the child's answer; MUR_OK with *out,
 * the child's own error, or -1 when the answer is cut short. */
static int receive(int fd, const char *shown, mur_recording **out, int *rc, mur_error *err)
{
    answer_head h;
    if (read_all(fd, &h, sizeof h) || h.magic != ANSWER_MAGIC)
        return -1;
    h.msg[sizeof h.msg - 1] = '\0';
    mur_recording *r = NULL;
    if (h.has_recording) {
        if (h.nframes < 0 || h.rows < 0 || h.nframes > MUR_REPLAY_MAX_ROWS || h.rows > MUR_REPLAY_MAX_ROWS ||
            (h.dimension != 0 && h.dimension != 2 && h.dimension != 3))
            return -1;
        if (!(r = mur_calloc(1, sizeof *r)) || !(r->path = mur_strdup(shown))) {
            mur_recording_destroy(r);
            *rc = mur_error_set(err, MUR_ERUN, "out of memory reading '%s'", shown);
            return 0;
        }
        r->dimension = h.dimension;
        field f[9];
        size_t n[9], k = fields_of(r, h.nframes, h.rows, f, n);
        for (size_t i = 0; i < k; i++)
            if (!(*f[i].at = mur_malloc(n[i] ? n[i] * f[i].size : 1)) || read_all(fd, *f[i].at, n[i] * f[i].size)) {
                int short_read = *f[i].at != NULL;
                mur_recording_destroy(r);
                if (short_read)
                    return -1;
                *rc = mur_error_set(err, MUR_ERUN, "out of memory reading '%s'", shown);
                return 0;
            }
        r->nframes = h.nframes;
        r->max_n = h.max_n;
        r->has_state = h.has_state;
        r->flock_tick = h.flock_tick;
        memcpy(r->stream, h.stream, sizeof r->stream);
        r->seed = h.seed;
    }
    uint64_t end = 0;
    if (read_all(fd, &end, sizeof end) || end != ANSWER_END) {
        mur_recording_destroy(r);
        return -1;
    }
    *rc = h.rc;
    if (h.rc)
        mur_error_set(err, h.rc, "%s", h.msg);
    *out = r;
    return 0;
}

/* What became of a child that did not answer, for the message. */
static void describe_end(pid_t pid, char *why, size_t n)
{
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    if (w < 0)
        snprintf(why, n, "ended without an answer");
    else if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL))
        snprintf(why, n, "kept it busy past %d s of CPU time", MUR_H5_CHILD_CPU);
    else if (WIFSIGNALED(status))
        snprintf(why, n, "crashed on it (signal %d)", WTERMSIG(status));
    else
        snprintf(why, n, "stopped without an answer (exit status %d)", WEXITSTATUS(status));
}

int mur_recording_read_h5(mur_recording **out, const char *path, const char *shown, long tick,
                          int all, const mur_params *p, mur_error *err)
{
    *out = NULL;
    int fds[2];
    if (pipe(fds) < 0)
        return mur_error_set(err, MUR_ERUN, "%s: cannot read it: no pipe to a reader (%s)", shown,
                             strerror(errno));
    fflush(NULL);   /* nothing buffered is written twice by the child */
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        return mur_error_set(err, MUR_ERUN, "%s: cannot read it: no process for a reader (%s)", shown,
                             strerror(e));
    }
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], path, shown, tick, all, p);
    }
    close(fds[1]);
    int rc = MUR_OK;
    int answered = receive(fds[0], shown, out, &rc, err) == 0;
    close(fds[0]);
    if (answered) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        return rc;
    }
    char why[96];   /* a child still writing meets the closed pipe and ends */
    describe_end(pid, why, sizeof why);
    return mur_error_set(err, MUR_EINPUT,
                         "%s: error: HDF5 %s: the file is damaged or not a trace murmur can read", shown, why);
}
