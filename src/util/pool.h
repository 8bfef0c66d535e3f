/* A fixed pool of worker threads for data-parallel loops.
 *
 * mur_pool_run splits [0, n) into contiguous blocks that the threads take
 * in turn, and waits for all of them. Blocks never change what is computed,
 * only who computes it, so callers that write disjoint outputs stay
 * bit-identical for any thread count. */
#ifndef MURMUR_POOL_H
#define MURMUR_POOL_H

typedef struct mur_pool mur_pool;

/// Body of a parallel loop: handle items [begin, end).
typedef void (*mur_pool_fn)(void *ctx, int begin, int end);

/// Start threads - 1 workers (the caller is the last one). NULL on failure.
mur_pool *mur_pool_create(int threads);

/// Stop and join the workers; NULL is fine.
void mur_pool_destroy(mur_pool *pool);

/// Number of threads including the caller.
int mur_pool_threads(const mur_pool *pool);

/// Run fn over [0, n) on all threads; returns when every chunk is done.
void mur_pool_run(mur_pool *pool, mur_pool_fn fn, void *ctx, int n);

/// Number of online cores (at least 1).
int mur_cpu_count(void);

#endif
