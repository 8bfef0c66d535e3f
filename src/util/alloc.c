/* The allocator hook of alloc.h. One pointer, read on every allocation and
 * written only by mur_allocator_set (before any other call, by contract),
 * so a relaxed atomic load is all the hot path pays. */
#include "murmur/alloc.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void *libc_realloc(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, size);
}

static mur_allocator host;   /* a copy of the host's, when one is set */
static _Atomic(const mur_allocator *) current;

static void *call(void *ptr, size_t size)
{
    const mur_allocator *a = atomic_load_explicit(&current, memory_order_acquire);
    return a ? a->realloc(a->ctx, ptr, size) : libc_realloc(NULL, ptr, size);
}

int mur_allocator_set(const mur_allocator *a, mur_error *err)
{
    if (!a) {
        atomic_store_explicit(&current, NULL, memory_order_release);
        return MUR_OK;
    }
    if (!MUR_VERSION_OK(a->version, MUR_ALLOCATOR_VERSION, MUR_ALLOCATOR_VERSION) || !a->realloc)
        return mur_error_set(err, MUR_EINPUT, "allocator version %u (this murmur takes %d) or no realloc",
                             a->version, MUR_ALLOCATOR_VERSION);
    host = *a;
    atomic_store_explicit(&current, &host, memory_order_release);
    return MUR_OK;
}

/* A request of 0 bytes gets 1, as glibc's malloc(0) gets a unique pointer:
 * callers that size arrays by a count of 0 must not see "out of memory". */
void *mur_malloc(size_t n) { return call(NULL, n ? n : 1); }

void *mur_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    size_t bytes = n && size ? n * size : 1;
    void *p = call(NULL, bytes);
    if (p)
        memset(p, 0, bytes);
    return p;
}

void *mur_realloc(void *ptr, size_t n) { return call(ptr, n ? n : 1); }

void mur_free(void *ptr)
{
    if (ptr)
        call(ptr, 0);
}

char *mur_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = call(NULL, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

char *mur_strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *d = call(NULL, len + 1);
    if (d) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}
