/* The core tests' flock set-up, once: a flock made from params and a seed
 * (or the test stops with the library's message), and stepped for some
 * ticks (or the test stops). Header-only, static: each test is one file. */
#ifndef MURMUR_TESTS_FLOCK_UTIL_H
#define MURMUR_TESTS_FLOCK_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "murmur/flock.h"

static inline mur_flock *make(const mur_params *p, uint64_t seed)
{
    mur_flock *f = NULL;
    mur_error err;
    if (mur_flock_create(&f, p, seed, &err)) {
        fprintf(stderr, "create: %s\n", err.msg);
        abort();
    }
    return f;
}

static inline void step(mur_flock *f, int ticks)
{
    for (int t = 0; t < ticks; t++)
        if (mur_flock_step(f))
            abort();
}

#endif
