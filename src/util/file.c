/* Temporary names, atomic writes, stale-temporary cleanup and folder locks
 * for every writer (videos, frame sequences, stills, figures, tables): see
 * include/murmur/file.h.
 *
 * Removing a stale temporary must never race a live writer: a name is only
 * removed when it is exactly ".<stem>.part.<pid>" for a stem the caller
 * accepts, pid is written as the writer writes it (decimal, no sign, no
 * leading zero), and the kernel says no such process exists. A pid reused
 * by an unrelated process keeps its file (the safe mistake). */
#include "murmur/file.h"
#include "murmur/alloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOCK_NAME ".murmur.lock"
#define LOCK_TRIES 100   /* a lock file replaced under us this often: give up */

char *mur_file_temp_name(const char *path, const char *suffix)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    int dirlen = (int)(base - path);
    long pid = (long)getpid();
    int n = snprintf(NULL, 0, "%.*s.%s%s.part.%ld", dirlen, path, base, suffix, pid);
    char *tmp = n < 0 ? NULL : mur_malloc((size_t)n + 1);
    if (tmp)
        snprintf(tmp, (size_t)n + 1, "%.*s.%s%s.part.%ld", dirlen, path, base, suffix, pid);
    return tmp;
}

/* The pid of text as mur_file_temp_name writes one, or 0 when text is not
 * exactly that. */
static long parse_pid(const char *text)
{
    long pid = 0;
    if (text[0] < '1' || text[0] > '9')
        return 0;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9' || pid > (INT_MAX - 9) / 10)
            return 0;
        pid = pid * 10 + (*p - '0');
    }
    return pid;
}

/* Only ESRCH proves a process gone; EPERM means it lives under another user. */
static int process_gone(long pid)
{
    return pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

int mur_file_sweep(const char *dir, mur_file_stem_match match, void *ctx)
{
    DIR *d = opendir(dir && dir[0] ? dir : ".");
    int removed = 0;
    if (!d)
        return 0;
    char stem[NAME_MAX + 1];
    for (struct dirent *e; (e = readdir(d));) {
        const char *name = e->d_name, *part = NULL;
        if (name[0] != '.')
            continue;
        for (const char *p = strstr(name, ".part."); p; p = strstr(p + 1, ".part."))
            part = p;   /* the last one: a stem may hold ".part." itself */
        if (!part || part == name)
            continue;
        long pid = parse_pid(part + 6);
        size_t n = (size_t)(part - name) - 1;
        if (!pid || n == 0 || n > NAME_MAX)
            continue;
        memcpy(stem, name + 1, n);
        stem[n] = '\0';
        struct stat sb;
        if (!match(stem, ctx) || !process_gone(pid) ||
            fstatat(dirfd(d), name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode))
            continue;
        removed += unlinkat(dirfd(d), name, 0) == 0;
    }
    closedir(d);
    return removed;
}

typedef struct {
    const char *base, *suffix;
} temp_target;

static int is_target(const char *stem, void *ctx)
{
    const temp_target *t = ctx;
    size_t nb = strlen(t->base);
    return strncmp(stem, t->base, nb) == 0 && strcmp(stem + nb, t->suffix) == 0;
}

int mur_file_sweep_temps(const char *path, const char *suffix)
{
    const char *slash = strrchr(path, '/');
    temp_target t = {slash ? slash + 1 : path, suffix};
    if (!t.base[0])
        return 0;
    char *dir = slash ? mur_strndup(path, (size_t)(slash - path) + 1) : NULL;   /* keeps "/" itself */
    if (slash && !dir)
        return 0;
    int n = mur_file_sweep(dir, is_target, &t);
    mur_free(dir);
    return n;
}

/* What a file that is not a regular one is, for a message. */
static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a pipe" : S_ISCHR(m) || S_ISBLK(m) ? "a device"
         : S_ISSOCK(m) ? "a socket" : "not a file";
}

int mur_file_check_input(const char *path, long long max_bytes, char *why, size_t n)
{
    struct stat st;
    if (stat(path, &st) != 0)
        snprintf(why, n, "cannot be read: %s", strerror(errno));
    else if (!S_ISREG(st.st_mode))
        snprintf(why, n, "is %s, not a regular file", kind_of(st.st_mode));
    else if (max_bytes > 0 && (long long)st.st_size > max_bytes)
        snprintf(why, n, "is %lld bytes, more than such a file may have (%lld)", (long long)st.st_size, max_bytes);
    else
        return 0;
    return -1;
}

int mur_file_is_special(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode);
}

/* errno's answer for a file written into folder dir (a copy of path's
 * folder part): 0 when it exists, is a folder and takes new files. */
static int folder_refuses(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? mur_strndup(path, slash > path ? (size_t)(slash - path) : 1) : mur_strdup(".");
    struct stat sb;
    int e = !dir ? ENOMEM : stat(dir, &sb) != 0 ? errno : !S_ISDIR(sb.st_mode) ? ENOTDIR
          : access(dir, W_OK | X_OK) != 0 ? errno : 0;
    mur_free(dir);
    return e;
}

int mur_file_check_output(const char *path, mur_error *err)
{
    struct stat sb;
    int e;
    if (path && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return mur_error_set(err, MUR_EINPUT, "'%s' is a directory: give the output a file name", path);
    if (!path || !*path)
        e = ENOENT;
    else if (stat(path, &sb) == 0)
        e = !S_ISREG(sb.st_mode) ? (access(path, W_OK) != 0 ? errno : 0)   /* written in place */
          : folder_refuses(path);
    else
        e = errno == ENOENT ? folder_refuses(path) : errno;   /* ENOTDIR: a file in the way */
    return e ? mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", path ? path : "", strerror(e)) : MUR_OK;
}

int mur_atomic_begin(mur_atomic *a, const char *path, unsigned flags, mur_error *err)
{
    memset(a, 0, sizeof *a);
    a->special = mur_file_is_special(path);
    if (!a->special && !(flags & MUR_ATOMIC_SWEPT))
        mur_file_sweep_temps(path, "");   /* left by a killed murmur */
    if (!(a->path = mur_strdup(path)) ||
        !(a->tmp = a->special ? mur_strdup(path) : mur_file_temp_name(path, ""))) {
        mur_atomic_abort(a);
        return mur_error_set(err, MUR_ERUN, "out of memory writing '%s'", path);
    }
    return MUR_OK;
}

FILE *mur_atomic_fopen(mur_atomic *a, const char *mode, mur_error *err)
{
    if (!(a->fp = fopen(a->tmp, mode)))
        mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", a->path, strerror(errno));
    return a->fp;
}

int mur_atomic_commit(mur_atomic *a, mur_error *err)
{
    int e = a->error, rc = MUR_OK;
    if (a->fp) {
        /* After a write that failed, the stream's next flush (fclose's)
         * fails the same way and says why; EIO only if it does not. */
        int bad = ferror(a->fp);
        if (fclose(a->fp) != 0 && !e)
            e = errno;
        a->fp = NULL;
        if (bad && !e)
            e = EIO;
    }
    if (e)
        rc = mur_error_set(err, MUR_ERUN, "cannot write '%s': %s", a->path, strerror(e));
    else if (!a->special && rename(a->tmp, a->path) != 0)
        rc = mur_error_set(err, MUR_ERUN, "cannot rename '%s' to '%s': %s", a->tmp, a->path,
                           strerror(errno));
    if (rc) {
        mur_atomic_abort(a);
        return rc;
    }
    mur_free(a->path);
    mur_free(a->tmp);
    memset(a, 0, sizeof *a);
    return MUR_OK;
}

void mur_atomic_abort(mur_atomic *a)
{
    if (a->fp)
        fclose(a->fp);
    if (a->tmp && !a->special)
        remove(a->tmp);
    mur_free(a->path);
    mur_free(a->tmp);
    memset(a, 0, sizeof *a);
}

static char *lock_path(const char *dir)
{
    const char *d = dir && dir[0] ? dir : ".";
    char *p = mur_malloc(strlen(d) + sizeof LOCK_NAME + 1);
    if (p)
        sprintf(p, "%s/%s", d, LOCK_NAME);
    return p;
}

/* The pid a holder wrote into its lock file, or 0. */
static long read_holder(int fd)
{
    char text[32];
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    if (n <= 0)
        return 0;
    text[n] = '\0';
    text[strcspn(text, "\n")] = '\0';
    return parse_pid(text);
}

int mur_file_lock_dir(const char *dir, long *holder)
{
    char *path = lock_path(dir);
    int fd = -1, e = ENOMEM;
    *holder = 0;
    if (!path)
        goto done;
    /* The file may be removed by a holder that finishes between our open
     * and our flock: then the lock we got is on a name nobody else will
     * open, and we try again on the new file. */
    for (int tries = 0; tries < LOCK_TRIES; tries++) {
        if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644)) < 0) {
            e = errno;
            goto done;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            e = errno;
            if (e == EWOULDBLOCK)
                *holder = read_holder(fd);
            close(fd);
            fd = -1;
            goto done;
        }
        struct stat a, b;
        if (fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
            char text[32];
            int n = snprintf(text, sizeof text, "%ld\n", (long)getpid());
            if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)n, 0) != n) {
                e = errno;
                unlink(path);
                close(fd);
                fd = -1;
            }
            goto done;
        }
        close(fd);
        fd = -1;
    }
    e = EAGAIN;
done:
    mur_free(path);
    if (fd < 0)
        errno = e;
    return fd;
}

void mur_file_unlock_dir(const char *dir, int fd)
{
    if (fd < 0)
        return;
    /* Unlinked while still held, so no one can lock the old file after us
     * and believe it owns the folder. */
    char *path = lock_path(dir);
    if (path)
        unlink(path);
    mur_free(path);
    close(fd);
}

int mur_file_write_text(const char *path, const char *text, mur_error *err)
{
    mur_atomic a;
    int rc = mur_atomic_begin(&a, path, 0, err);
    FILE *fp = rc ? NULL : mur_atomic_fopen(&a, "w", err);
    if (!fp) {
        mur_atomic_abort(&a);
        return rc ? rc : MUR_ERUN;
    }
    fputs(text, fp);
    return mur_atomic_commit(&a, err);
}

int mur_file_is_hdf5(const char *path)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    if (!dot || (slash && dot < slash))
        return 0;
    return !strcmp(dot, ".h5") || !strcmp(dot, ".hdf5") || !strcmp(dot, ".h5md");
}
