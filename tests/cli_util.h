/* Helpers for tests that run the murmur binary: a scratch directory, scene
 * files written from strings, and a runner that captures stderr. */
#ifndef MURMUR_TEST_CLI_UTIL_H
#define MURMUR_TEST_CLI_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* A fresh directory under /tmp for this process (created once). */
static inline const char *scratch(void)
{
    static char dir[64];
    if (!dir[0]) {
        strcpy(dir, "/tmp/murmur-cli-XXXXXX");
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            abort();
        }
    }
    return dir;
}

/* Path of name inside the scratch directory (static buffer rotation of 8). */
static inline const char *scratch_path(const char *name)
{
    static char bufs[8][256];
    static int k;
    char *b = bufs[k++ % 8];
    snprintf(b, 256, "%s/%s", scratch(), name);
    return b;
}

static inline void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    if (!fp) {
        perror(path);
        abort();
    }
    fputs(text, fp);
    fclose(fp);
}

/* Run `murmur ARGS` with stdout/stderr captured, killed after `seconds`
 * when that is above 0 (a test of a hang fails rather than waits); returns
 * the exit status (124 when killed, timeout's own; -1 when it cannot run)
 * and leaves stderr's text in err (n bytes). */
static inline int murmur_within(int seconds, const char *args, char *err, size_t n)
{
    const char *errfile = scratch_path("stderr.txt");
    char limit[32] = "", cmd[2300];
    if (seconds > 0)
        snprintf(limit, sizeof limit, "timeout %d ", seconds);
    snprintf(cmd, sizeof cmd, "%s%s %s >%s.out 2>%s", limit, MURMUR_EXE, args, errfile, errfile);
    int st = system(cmd);
    if (err && n) {
        err[0] = 0;
        FILE *fp = fopen(errfile, "r");
        if (fp) {
            size_t got = fread(err, 1, n - 1, fp);
            err[got] = 0;
            fclose(fp);
        }
    }
    return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

/* murmur_within without a limit. */
static inline int murmur(const char *args, char *err, size_t n)
{
    return murmur_within(0, args, err, n);
}

/* `murmur check` of a scene file holding yaml (written to scratch name):
 * 1 when it exits 2 with an error naming `where` (":line:col:") and saying
 * `says`; else 0, with the exit status and stderr in err (n bytes). */
static inline int check_refuses(const char *name, const char *yaml, const char *where,
                                const char *says, char *err, size_t n)
{
    const char *path = scratch_path(name);
    write_file(path, yaml);
    char args[1024];
    snprintf(args, sizeof args, "check %s", path);
    int rc = murmur(args, err, n);
    if (rc == 2 && strstr(err, where) && strstr(err, says) && strstr(err, "error:"))
        return 1;
    char why[64];
    snprintf(why, sizeof why, "exit %d: ", rc);
    size_t w = strlen(why), e = strlen(err);
    if (w + e + 1 <= n) {
        memmove(err + w, err, e + 1);
        memcpy(err, why, w);
    }
    return 0;
}

/* Run a shell command (a tool like pdfinfo), its output into out (n bytes,
 * NUL-terminated); its exit status as pclose gives it. */
static inline int run_tool_output(const char *cmd, char *out, size_t n)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t got = fread(out, 1, n - 1, p);
    out[got] = 0;
    return pclose(p);
}

#endif
