/* Worker pool: a generation counter under one mutex wakes the workers for
 * each job; a done counter wakes the caller. Jobs are large (a whole tick's
 * boids), so one lock round-trip per job is negligible.
 *
 * A job is cut into blocks that threads take from an atomic counter rather
 * than one fixed share each: a flock's cost per boid follows its local
 * density, so equal shares leave the thread with the dense half of the
 * world working alone. */
#include "pool.h"

#include "murmur/alloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

struct mur_pool {
    int threads;
    pthread_t *workers;
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    unsigned long generation;  /* bumped for every job */
    int pending;               /* workers still busy with the current job */
    int quit;
    mur_pool_fn fn;
    void *ctx;
    int n;
    int block;                 /* items a block */
    atomic_int next;           /* next block to take */
};

/* Take blocks until none is left. */
static void run_blocks(mur_pool *p)
{
    for (;;) {
        long begin = (long)atomic_fetch_add(&p->next, 1) * p->block;
        if (begin >= p->n)
            return;
        long end = begin + p->block < p->n ? begin + p->block : p->n;
        p->fn(p->ctx, (int)begin, (int)end);
    }
}

static void *worker_main(void *arg)
{
    mur_pool *p = arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->generation == seen)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->quit)
            break;
        seen = p->generation;
        pthread_mutex_unlock(&p->lock);
        run_blocks(p);
        pthread_mutex_lock(&p->lock);
        if (--p->pending == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int mur_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (n > 256 ? 256 : (int)n);
}

mur_pool *mur_pool_create(int threads)
{
    if (threads < 1)
        threads = 1;
    mur_pool *p = mur_calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->threads = threads;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    p->workers = mur_calloc((size_t)threads, sizeof *p->workers);
    if (!p->workers)
        goto fail;
    p->threads = 1; /* only started workers are joined on failure */
    for (int i = 1; i < threads; i++) {
        if (pthread_create(&p->workers[i], NULL, worker_main, p) != 0)
            goto fail;
        p->threads = i + 1;
    }
    p->threads = threads;
    return p;
fail:
    mur_pool_destroy(p);
    return NULL;
}

void mur_pool_destroy(mur_pool *p)
{
    if (!p)
        return;
    if (p->workers) {
        pthread_mutex_lock(&p->lock);
        p->quit = 1;
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
        for (int i = 1; i < p->threads; i++)
            if (p->workers[i])
                pthread_join(p->workers[i], NULL);
        mur_free(p->workers);
    }
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    mur_free(p);
}

int mur_pool_threads(const mur_pool *p) { return p ? p->threads : 1; }

void mur_pool_run(mur_pool *p, mur_pool_fn fn, void *ctx, int n)
{
    if (!p || p->threads == 1 || n < 2 * p->threads) {
        if (n > 0)
            fn(ctx, 0, n);
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->fn = fn;
    p->ctx = ctx;
    p->n = n;
    /* 16 blocks a thread: fine enough to even out, coarse enough that the
     * counter is not contended. */
    p->block = (n + 16 * p->threads - 1) / (16 * p->threads);
    atomic_store(&p->next, 0);
    p->pending = p->threads - 1;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    run_blocks(p);
    pthread_mutex_lock(&p->lock);
    while (p->pending > 0)
        pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}
