/* murmur: the allocator every allocation of the library goes through.
 *
 * A host may hand murmur an allocator of its own (as Lua's lua_Alloc lets a
 * host do) to count, limit or fail allocations; tests use it to fail the
 * k-th allocation and check that each failure ends in a clean error. It is
 * the library's one process-wide setting: set it before any other murmur
 * call, and not again while murmur objects exist (memory must be freed by
 * the allocator that gave it). The libraries murmur uses (Cairo, libav,
 * libyaml) allocate with their own allocators. */
#ifndef MURMUR_ALLOC_H
#define MURMUR_ALLOC_H

#include <stddef.h>

#include "murmur/error.h"
#include "murmur/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The version of mur_allocator this header describes.
#define MUR_ALLOCATOR_VERSION 1

/// A host's allocator.
typedef struct mur_allocator {
    unsigned version;  ///< MUR_ALLOCATOR_VERSION
    /// realloc's contract: ptr NULL allocates, size 0 frees (returns NULL),
    /// otherwise resizes; NULL on failure leaves ptr untouched. Must be
    /// safe to call from several threads at once.
    void *(*realloc)(void *ctx, void *ptr, size_t size);
    void *ctx;         ///< passed back to realloc
} mur_allocator;

/// Use a (copied) for every later allocation; NULL restores the C library's.
/// MUR_EINPUT when a has another version or no realloc.
MUR_API int mur_allocator_set(const mur_allocator *a, mur_error *err);

/// malloc through the allocator; NULL on failure. 0 bytes is 1 (a unique pointer).
MUR_API void *mur_malloc(size_t n);

/// n x size zeroed bytes; NULL on failure or when n x size overflows.
MUR_API void *mur_calloc(size_t n, size_t size);

/// realloc through the allocator: NULL on failure, ptr then still valid.
/// Size 0 is 1: use mur_free to free.
MUR_API void *mur_realloc(void *ptr, size_t n);

/// Free memory from the functions above; NULL is fine.
MUR_API void mur_free(void *ptr);

/// A copy of s (NULL on failure); free it with mur_free.
MUR_API char *mur_strdup(const char *s);

/// A copy of at most n bytes of s, NUL-terminated (NULL on failure).
MUR_API char *mur_strndup(const char *s, size_t n);

#ifdef __cplusplus
}
#endif

#endif
