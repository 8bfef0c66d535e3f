/* Worker pool: a generation counter under one mutex wakes the workers for
 * each job; a done counter wakes the caller. Jobs are large (a whole tick's
 * boids), so one lock round-trip per job is negligible. */
#include "pool.h"

#include <pthread.h>
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
};

typedef struct {
    mur_pool *pool;
    int index;
} worker_arg;

static void run_chunk(mur_pool *p, int index)
{
    long begin = (long)p->n * index / p->threads;
    long end = (long)p->n * (index + 1) / p->threads;
    if (begin < end)
        p->fn(p->ctx, (int)begin, (int)end);
}

static void *worker_main(void *arg)
{
    worker_arg a = *(worker_arg *)arg;
    free(arg);
    mur_pool *p = a.pool;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->generation == seen)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->quit)
            break;
        seen = p->generation;
        pthread_mutex_unlock(&p->lock);
        run_chunk(p, a.index);
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
    mur_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->threads = threads;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    p->workers = calloc((size_t)threads, sizeof *p->workers);
    if (!p->workers)
        goto fail;
    p->threads = 1; /* only started workers are joined on failure */
    for (int i = 1; i < threads; i++) {
        worker_arg *a = malloc(sizeof *a);
        if (!a)
            goto fail;
        a->pool = p;
        a->index = i;
        if (pthread_create(&p->workers[i], NULL, worker_main, a) != 0) {
            free(a);
            goto fail;
        }
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
        free(p->workers);
    }
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    free(p);
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
    p->pending = p->threads - 1;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    run_chunk(p, 0);
    pthread_mutex_lock(&p->lock);
    while (p->pending > 0)
        pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}
