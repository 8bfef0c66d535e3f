/* The allocator hook (alloc.h), as a host uses it: count every allocation,
 * and fail the k-th. For every k along a scene load and a short render,
 * the failure must end in a clean error (no crash), and everything murmur
 * allocated must be freed again (the count of live blocks returns to 0; the
 * sanitizer build checks the rest). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "murmur/alloc.h"
#include "murmur/session.h"

static atomic_long calls;     /* allocations asked for (not frees) */
static atomic_long live;      /* blocks allocated and not yet freed */
static atomic_long fail_at;   /* the call that fails (1-based); 0: none */

static void *counting(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    if (size == 0) {
        if (ptr)
            atomic_fetch_sub(&live, 1);
        free(ptr);
        return NULL;
    }
    long n = atomic_fetch_add(&calls, 1) + 1;
    if (n == atomic_load(&fail_at))
        return NULL;
    void *p = realloc(ptr, size);
    if (p && !ptr)
        atomic_fetch_add(&live, 1);
    return p;
}

static const char scene[] =
    "model: wrkspc\nseed: 5\nflock: {count: 40}\n"
    "video: {width: 96, height: 64, fps: 10, duration: 0.3s, warmup: 5t}\n"
    "look:\n  trails: {length: 8, fade: true}\n  boid: {color: cluster}\n"
    "  overlays: [params, clock, {readout: [order, clusters]}, {plot: {metric: order}}]\n"
    "timeline:\n  - {at: 0s, caption: \"all rules\"}\n"
    "  - {at: 0.1s, set: {alignment: 0}}\n"
    "predators:\n  - {mode: flee, x: \"10 + 20*t\", y: \"30\"}\n";

/* A scene load, a session and a render of three frames to a PNG sequence.
 * Returns the first failure's code (or MUR_OK) and frees everything. */
static int one_run(const char *dir, mur_error *err)
{
    mur_scene *s = NULL;
    mur_session *ss = NULL;
    mur_session_opts so = MUR_SESSION_OPTS_INIT;
    so.threads = 1;
    char pattern[256];
    snprintf(pattern, sizeof pattern, "%s/%%03d.png", dir);
    mur_render_opts ro = MUR_RENDER_OPTS_INIT;
    ro.path = pattern;
    int rc = mur_scene_parse(&s, "alloc.yaml", scene, sizeof scene - 1, err);
    if (!rc)
        rc = mur_session_create(&ss, s, &so, err);
    if (!rc)
        rc = mur_session_render(ss, &ro, NULL, err);
    mur_session_destroy(ss);
    mur_scene_destroy(s);
    return rc;
}

TEST(every_failed_allocation_ends_in_a_clean_error_and_frees_the_rest)
{
    char dir[] = "/tmp/murmur-alloc-XXXXXX";
    REQUIRE(mkdtemp(dir), "mkdtemp");
    mur_allocator a = {MUR_ALLOCATOR_VERSION, counting, NULL};
    mur_error err = {{0}};
    REQUIRE(mur_allocator_set(&a, &err) == MUR_OK, "%s", err.msg);
    int rc = one_run(dir, &err);
    long total = atomic_load(&calls);
    CHECK(rc == MUR_OK, "the run without failures: %s", err.msg);
    /* 84 when written: the loader, session, renderer and PNG writer all allocate here */
    CHECK(total > 60, "only %ld allocations went through the hook", total);
    CHECK(atomic_load(&live) == 0, "%ld blocks left after a whole run", atomic_load(&live));
    int clean = 0;
    for (long k = 1; k <= total; k++) {
        atomic_store(&calls, 0);
        atomic_store(&live, 0);
        atomic_store(&fail_at, k);
        memset(&err, 0, sizeof err);
        rc = one_run(dir, &err);
        CHECK(rc == MUR_OK || (rc == MUR_ERUN && err.msg[0]),
              "allocation %ld of %ld failed: code %d, '%s'", k, total, rc, err.msg);
        CHECK(atomic_load(&live) == 0, "allocation %ld failed: %ld blocks never freed", k,
              atomic_load(&live));
        clean += rc == MUR_ERUN;
    }
    atomic_store(&fail_at, 0);
    mur_allocator_set(NULL, &err);
    CHECK(clean > total / 2, "only %d of %ld failures were reported", clean, total);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0, "cleanup");
}

TEST(an_allocator_of_another_version_is_refused)
{
    mur_allocator a = {MUR_ALLOCATOR_VERSION + 1, counting, NULL};
    mur_error err = {{0}};
    CHECK(mur_allocator_set(&a, &err) == MUR_EINPUT && strstr(err.msg, "version"), "%s", err.msg);
    mur_allocator b = {MUR_ALLOCATOR_VERSION, NULL, NULL};
    CHECK(mur_allocator_set(&b, &err) == MUR_EINPUT, "no realloc accepted");
}
