/* Stopping long work: a stop flag (what the CLI's SIGINT/SIGTERM handler
 * raises) ends a tick, a warm-up, a seek and a drawing with MUR_EINTR
 * after a bounded amount of work, counted in ticks rather than timed; and
 * murmur, sent SIGINT in the middle of such work, exits 130 without
 * leaving a file. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_util.h"
#include "harness.h"
#include "scene_util.h"
#include "murmur/experiment.h"
#include "murmur/metrics.h"
#include "murmur/render.h"
#include "murmur/scene.h"

/* Entries of the scratch directory whose name starts with prefix. */
static int entries_starting(const char *prefix)
{
    DIR *d = opendir(scratch());
    int n = 0;
    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d));)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* ---- the library ---------------------------------------------------------------------- */

TEST(a_tick_with_the_flag_raised_moves_nothing)
{
    mur_scene *s = scene_of("model: wrkspc\nflock: {count: 20000}\n");
    REQUIRE(s, "scene");
    mur_flock *f = NULL;
    mur_error err = {{0}};
    REQUIRE(mur_flock_create(&f, &s->params, 1, &err) == 0, "%s", err.msg);
    volatile sig_atomic_t stop = 0;
    mur_flock_set_stop(f, &stop);
    CHECK(mur_flock_step(f) == MUR_OK, "a tick with the flag down was stopped");
    int n = mur_flock_count(f);
    double *before = malloc(4 * (size_t)n * sizeof *before);
    REQUIRE(before, "memory");
    memcpy(before, mur_flock_x(f), (size_t)n * sizeof *before);
    memcpy(before + n, mur_flock_vy(f), (size_t)n * sizeof *before);
    stop = 1;
    CHECK(mur_flock_step(f) == MUR_EINTR, "a tick with the flag up ran");
    CHECK(mur_flock_tick(f) == 1, "tick %llu, want 1 (the stopped one not counted)",
          (unsigned long long)mur_flock_tick(f));
    CHECK(memcmp(before, mur_flock_x(f), (size_t)n * sizeof *before) == 0 &&
              memcmp(before + n, mur_flock_vy(f), (size_t)n * sizeof *before) == 0,
          "a stopped sync tick moved boids");
    /* the same on worker threads, and for sequential ticks (which stop
     * part-way, so only the code is checked) */
    CHECK(mur_flock_set_threads(f, 2, &err) == 0, "%s", err.msg);
    CHECK(mur_flock_step(f) == MUR_EINTR, "a threaded tick with the flag up ran");
    mur_params p = *mur_flock_params(f);
    p.update = MUR_UPDATE_SEQUENTIAL;
    CHECK(mur_flock_set_params(f, &p, &err) == 0, "%s", err.msg);
    CHECK(mur_flock_step(f) == MUR_EINTR, "a sequential tick with the flag up ran");
    stop = 0;
    CHECK(mur_flock_step(f) == MUR_OK, "the flag lowered: the tick still stopped");
    free(before);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* Metrics (cluster colours, readouts, plots, every tick of a series) of a
 * big flock stop too: 4,000,000 boids in a sparse world took 12 s. */
TEST(metrics_with_the_flag_raised_stop_and_say_so)
{
    mur_scene *s = scene_of("model: wrkspc\nflock: {count: 20000}\n");
    REQUIRE(s, "scene");
    mur_flock *f = NULL;
    mur_error err = {{0}};
    REQUIRE(mur_flock_create(&f, &s->params, 1, &err) == 0, "%s", err.msg);
    mur_metrics_ctx *mc = mur_metrics_ctx_create();
    REQUIRE(mc, "memory");
    volatile sig_atomic_t stop = 0;
    mur_metrics_ctx_set_stop(mc, &stop);
    mur_metrics m;
    CHECK(mur_metrics_compute(mc, f, &m) == MUR_OK, "metrics with the flag down failed");
    stop = 1;
    CHECK(mur_metrics_compute(mc, f, &m) == MUR_EINTR, "metrics with the flag up ran to the end");
    mur_metrics_ctx_destroy(mc);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* A warm-up of 600,000 ticks, stopped before it starts: no tick runs. */
TEST(a_raised_flag_ends_the_warm_up_before_any_tick)
{
    mur_scene *s = scene_of("model: wrkspc\nflock: {count: 50}\nvideo: {duration: 1s, warmup: 10000s}\n");
    REQUIRE(s, "scene");
    mur_flock *f = NULL;
    mur_error err = {{0}};
    REQUIRE(mur_flock_create(&f, &s->params, 1, &err) == 0, "%s", err.msg);
    volatile sig_atomic_t stop = 1;
    mur_driver *d = NULL;
    REQUIRE(mur_driver_create(&d, &err) == 0, "%s", err.msg);
    mur_driver_set_stop(d, &stop);
    int rc = mur_driver_start(d, s, f, &s->params, &err);
    CHECK(rc == MUR_EINTR, "warm-up returned %d, want MUR_EINTR: %s", rc, err.msg);
    CHECK(mur_flock_tick(f) == 0, "%llu warm-up ticks ran after the flag was raised",
          (unsigned long long)mur_flock_tick(f));
    CHECK(strstr(err.msg, "warm-up") != NULL, "message: %s", err.msg);
    mur_driver_destroy(d);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* Raises the flag once the driver has reached tick `at`. */
typedef struct {
    volatile sig_atomic_t *stop;
    long at, last;
} raiser;

static void raise_at(void *ctx, const mur_flock *f, long tick)
{
    (void)f;
    raiser *r = ctx;
    r->last = tick;
    if (tick >= r->at)
        *r->stop = 1;
}

/* A seek to tick 1,000,000 (as `still --at` and `render --from` do) with
 * the flag raised at tick 25: not one tick more runs. */
TEST(a_seek_stops_at_the_tick_the_flag_went_up)
{
    mur_scene *s = scene_of("model: wrkspc\nflock: {count: 50}\nvideo: {duration: 9000s, warmup: 1s}\n");
    REQUIRE(s, "scene");
    mur_flock *f = NULL;
    mur_error err = {{0}};
    REQUIRE(mur_flock_create(&f, &s->params, 1, &err) == 0, "%s", err.msg);
    volatile sig_atomic_t stop = 0;
    raiser r = {&stop, 25, 0};
    mur_driver *d = NULL;
    REQUIRE(mur_driver_create(&d, &err) == 0, "%s", err.msg);
    mur_driver_set_stop(d, &stop);
    mur_driver_set_on_tick(d, raise_at, &r);
    REQUIRE(mur_driver_start(d, s, f, &s->params, &err) == 0, "%s", err.msg);
    uint64_t warm = mur_flock_tick(f);
    int rc = mur_driver_run_to(d, 1000000, &err);
    CHECK(rc == MUR_EINTR, "seek returned %d, want MUR_EINTR", rc);
    CHECK(r.last == 25 && mur_driver_tick(d) == 25,
          "the seek went on to tick %ld (driver at %ld), flag raised at 25", r.last, mur_driver_tick(d));
    CHECK(mur_flock_tick(f) == warm + 25, "the flock ran %llu ticks, want 25",
          (unsigned long long)(mur_flock_tick(f) - warm));
    mur_driver_destroy(d);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* A renderer told to stop draws nothing and writes no still, in any
 * format, and leaves no temporary file beside it. */
TEST(a_raised_flag_stops_drawing_and_writes_no_still)
{
    mur_scene *s = scene_of("model: wrkspc\nflock: {count: 20000}\n"
                            "video: {width: 320, height: 200}\n"
                            "look: {boid: {color: \"#ffffff\"}, trails: {length: 4}}\n");
    REQUIRE(s, "scene");
    mur_flock *f = NULL;
    mur_renderer *r = NULL;
    mur_error err = {{0}};
    REQUIRE(mur_flock_create(&f, &s->params, 1, &err) == 0, "%s", err.msg);
    REQUIRE(mur_renderer_create(&r, mur_scene_look(s), 320, 200, &err) == 0, "%s", err.msg);
    for (long t = 1; t <= 5; t++) {
        mur_flock_step(f);
        mur_renderer_observe(r, 0, f, t);
    }
    volatile sig_atomic_t stop = 0;
    mur_renderer_set_stop(r, &stop);
    const mur_flock *const fl[1] = {f};
    const uint8_t *px = NULL;
    int stride = 0;
    CHECK(mur_renderer_draw_image(r, fl, 1, 0, &px, &stride, &err) == 0, "%s", err.msg);
    stop = 1;
    px = NULL;
    CHECK(mur_renderer_draw_image(r, fl, 1, 0, &px, &stride, &err) == MUR_EINTR,
          "a draw with the flag up returned %s", err.msg);
    CHECK(px == NULL, "a stopped draw handed out its pixels");
    const char *names[] = {"stopped.png", "stopped.pdf", "stopped.svg"};
    for (int i = 0; i < 3; i++) {
        int rc = mur_renderer_write_still(r, fl, 1, 0, scratch_path(names[i]), &err);
        CHECK(rc == MUR_EINTR, "%s: returned %d (%s), want MUR_EINTR", names[i], rc, err.msg);
    }
    CHECK(entries_starting("stopped.") == 0, "a stopped still left a file behind");
    mur_renderer_destroy(r);
    mur_flock_destroy(f);
    mur_scene_destroy(s);
}

/* ---- the command line ----------------------------------------------------------------- */

/* How long murmur may take to answer SIGINT before the test gives up on
 * it: a guard against a hang, far above the milliseconds it takes. */
#define GUARD_MS 60000

/* Threads of process pid (/proc), or -1. */
static int threads_of(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
    FILE *fp = fopen(path, "r");
    int n = -1;
    if (!fp)
        return -1;
    while (fgets(line, sizeof line, fp))
        if (!strncmp(line, "Threads:", 8))
            n = atoi(line + 8);
    fclose(fp);
    return n;
}

/* Starts murmur with argv (argv[0] is MURMUR_EXE), stdout to /dev/null,
 * stderr into a pipe whose reading end goes to *errfd. The pid, or -1. */
static pid_t spawn(const char *const *argv, int *errfd)
{
    int pipefd[2];
    if (pipe(pipefd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], 2);
        close(pipefd[0]);
        close(pipefd[1]);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        execv(MURMUR_EXE, (char *const *)argv);
        _exit(127);
    }
    close(pipefd[1]);
    if (pid < 0) {
        close(pipefd[0]);
        return -1;
    }
    *errfd = pipefd[0];
    return pid;
}

/* Collects murmur's stderr from errfd into err (n bytes) until it closes
 * it (it exits), within the guard, and reaps it: 0 with its wait status in
 * *st, or -1 when it did not end in time (it is then killed). */
static int collect(pid_t pid, int errfd, char *err, size_t n, int *st)
{
    struct pollfd pe = {errfd, POLLIN, 0};
    size_t got = 0;
    int left = GUARD_MS, open_ = 1;
    while (open_ && left > 0) {
        int r = poll(&pe, 1, 100);
        left -= 100;
        if (r <= 0)
            continue;
        char buf[512];
        ssize_t k = read(errfd, buf, sizeof buf);
        if (k <= 0) {
            open_ = 0;
            break;
        }
        size_t c = (size_t)k < n - 1 - got ? (size_t)k : n - 1 - got;
        memcpy(err + got, buf, c);
        got += c;
    }
    err[got] = 0;
    close(errfd);
    if (open_)
        kill(pid, SIGKILL);
    while (waitpid(pid, st, 0) < 0 && errno == EINTR)
        ;
    return open_ ? -1 : 0;
}

/* Runs `murmur CMD FIFO ARGS...` with the scene fed through a FIFO:
 * murmur installs its signal handlers before it opens the scene, so once
 * it has opened the FIFO a SIGINT reaches the handler, never the default
 * action. The scene is written; when threads > 1, the test then waits
 * until murmur runs that many threads (an experiment's workers have
 * started their runs); then SIGINT is sent and murmur waited for; its
 * stderr lands in err. The exit status, 1000 + a signal that ended it, or
 * -1 when it did not end within GUARD_MS (it is then killed). */
static int interrupted_run(const char *name, const char *scene, const char *const *args, int threads,
                           char *err, size_t n)
{
    const char *fifo = scratch_path(name);
    unlink(fifo);
    if (mkfifo(fifo, 0600) != 0)
        return -2;
    const char *argv[16] = {MURMUR_EXE, args[0], fifo};
    int argc = 3;
    for (int i = 1; args[i] && argc < 15; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;
    int errfd;
    pid_t pid = spawn(argv, &errfd);
    if (pid < 0)
        return -2;
    /* Wait for murmur to open the FIFO: a non-blocking open for writing
     * fails with ENXIO until a reader has it open. */
    int fd = -1, waited = 0;
    struct pollfd pe = {errfd, POLLIN, 0};
    while ((fd = open(fifo, O_WRONLY | O_NONBLOCK)) < 0 && errno == ENXIO && waited < GUARD_MS) {
        if (poll(&pe, 1, 5) > 0)
            break;   /* murmur wrote or exited before opening its scene */
        waited += 5;
    }
    if (fd >= 0) {
        fcntl(fd, F_SETFL, 0);
        size_t len = strlen(scene);
        ssize_t w = write(fd, scene, len);
        close(fd);
        for (waited = 0; threads > 1 && threads_of(pid) < threads && waited < GUARD_MS; waited += 5)
            if (poll(&pe, 1, 5) > 0)
                break;   /* murmur wrote or exited */
        if (w == (ssize_t)len)
            kill(pid, SIGINT);
    }
    /* stderr until murmur closes it (it exits), within the guard */
    int st, rc = collect(pid, errfd, err, n, &st);
    unlink(fifo);
    if (rc)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 1000 + WTERMSIG(st) : -1;
}

/* `still --at` a time that takes 400,000 ticks to reach: interrupted, it
 * exits 130 and writes nothing (it used to run to the end and exit 0). */
TEST(sigint_during_a_still_seek_exits_130_and_writes_nothing)
{
    const char *scene = "model: wrkspc\nflock: {count: 600}\n"
                        "video: {width: 160, height: 100, duration: 7000s}\n";
    const char *out = scratch_path("seek.png");
    const char *args[] = {"still", "--at", "6900s", "-o", out, NULL};
    char err[4096];
    int st = interrupted_run("seek.yaml", scene, args, 0, err, sizeof err);
    CHECK(st == 130, "exit %d, want 130 (stderr: %s)", st, err);
    CHECK(strstr(err, "interrupted") != NULL, "stderr: %s", err);
    CHECK(entries_starting("seek.png") == 0, "a still was written after SIGINT");
}

/* A render whose warm-up is 400,000 ticks: interrupted there, exit 130
 * and no file. */
TEST(sigint_during_a_warm_up_exits_130_and_writes_nothing)
{
    const char *scene = "model: wrkspc\nflock: {count: 600}\n"
                        "video: {width: 160, height: 100, duration: 2s, warmup: 7000s}\n";
    const char *out = scratch_path("warm.mp4");
    const char *args[] = {"render", "-o", out, "-q", NULL};
    char err[4096];
    int st = interrupted_run("warm.yaml", scene, args, 0, err, sizeof err);
    CHECK(st == 130, "exit %d, want 130 (stderr: %s)", st, err);
    CHECK(strstr(err, "nothing written") != NULL, "stderr: %s", err);
    CHECK(access(out, F_OK) != 0 && entries_starting(".warm.mp4") == 0,
          "a file was left after SIGINT");
}

/* `stats` runs each run's warm-up (here 12,000,000 ticks) before its
 * ticks, on a worker thread: interrupted once the worker has started, it
 * exits 130 at once rather than after the warm-up. */
TEST(sigint_during_an_experiments_warm_up_exits_130)
{
    const char *scene = "model: wrkspc\nflock: {count: 600}\n"
                        "video: {warmup: 200000s}\n"
                        "experiment: {runs: 1, ticks: 10}\n";
    const char *out = scratch_path("warm.csv");
    const char *args[] = {"stats", "-o", out, "-q", "--threads", "1", NULL};
    char err[4096];
    int st = interrupted_run("warmstats.yaml", scene, args, 2, err, sizeof err);
    CHECK(st == 130, "exit %d, want 130 (stderr: %s)", st, err);
    CHECK(access(out, F_OK) != 0, "%s written after SIGINT", out);
}

/* Runs `murmur ARGS...` (a scene from a regular file), waits until it runs
 * `threads` threads (an experiment's workers have started: the handlers
 * are in place), sends SIGINT and waits for it; stderr into err. The exit
 * status, or -1 when it did not end within GUARD_MS (it is then killed). */
static int interrupted_file_run(const char *const *args, int threads, char *err, size_t n)
{
    const char *argv[16] = {MURMUR_EXE};
    int argc = 1;
    for (int i = 0; args[i] && argc < 15; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;
    int errfd;
    pid_t pid = spawn(argv, &errfd);
    if (pid < 0)
        return -2;
    struct pollfd pe = {errfd, POLLIN, 0};
    for (int waited = 0; threads_of(pid) < threads && waited < GUARD_MS; waited += 5)
        if (poll(&pe, 1, 5) > 0)
            break;   /* murmur wrote or exited */
    kill(pid, SIGINT);
    int st;
    if (collect(pid, errfd, err, n, &st))
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A shard (stats --shard K/N) interrupted while its runs go leaves nothing
 * at its final name, nor a temporary: run again, it runs (issue 13). */
TEST(an_interrupted_shard_leaves_nothing_at_its_name)
{
    const char *scene = scratch_path("slowshard.yaml");
    write_file(scene, "model: wrkspc\nflock: {count: 600}\n"
                      "video: {warmup: 200000s}\n"
                      "experiment: {runs: 2, ticks: 10}\n");
    const char *dir = scratch_path("shards/");
    mkdir(dir, 0700);
    const char *args[] = {"stats", scene, "--shard", "1/2", "-o", dir, "-q", "--threads", "1", NULL};
    char err[4096];
    int st = interrupted_file_run(args, 2, err, sizeof err);
    CHECK(st == 130, "exit %d, want 130 (stderr: %s)", st, err);
    char final[512];
    snprintf(final, sizeof final, "%sslowshard.shard-1-of-2.mur", dir);
    CHECK(access(final, F_OK) != 0, "%s exists after SIGINT", final);
    DIR *d = opendir(dir);
    int entries = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        entries += e->d_name[0] != '.' || strstr(e->d_name, ".part.") != NULL;
    if (d)
        closedir(d);
    CHECK(entries == 0, "%d files left in %s after SIGINT", entries, dir);
}
