/* murmur: the documented PRNG.
 *
 * Two generators, both from Sebastiano Vigna's public-domain designs:
 * - mur_rng: xoshiro256** seeded through splitmix64, a sequential stream for
 *   initial states (one stream per flock, drawn in boid order);
 * - mur_hash3: a counter-based splitmix64 mix of (seed, tick, id), for noise,
 *   so a draw never depends on which thread asked for it. */
#ifndef MURMUR_RNG_H
#define MURMUR_RNG_H

#include "murmur/export.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// xoshiro256** state: 32 bytes.
typedef struct mur_rng {
    uint64_t s[4];
} mur_rng;

/// Seed a stream; any 64-bit seed (0 included) gives a valid state.
MUR_API void mur_rng_seed(mur_rng *rng, uint64_t seed);

/// Next 64 random bits.
MUR_API uint64_t mur_rng_next(mur_rng *rng);

/// Uniform double in [0, 1) with 53 random bits.
MUR_API double mur_rng_uniform(mur_rng *rng);

/// Seed of run k of an ensemble derived from the scene seed (k = 0 gives seed itself).
MUR_API uint64_t mur_rng_derive(uint64_t seed, uint64_t k);

/// Counter-based hash of three words: same inputs, same 64 bits, on any thread.
MUR_API uint64_t mur_hash3(uint64_t seed, uint64_t a, uint64_t b);

/// Map 64 random bits to a double in [0, 1).
/* 2^-53 written as a quotient: C++11 has no hex float literals. */
static inline double mur_u01(uint64_t bits) { return (double)(bits >> 11) * (1.0 / 9007199254740992.0); }

/// Draw `index` of boid `boid` at tick `tick` of the model family's noise
/// (docs/model.md "Model families"): a uniform double in [0, 1) from the
/// counter-based hash, the same on any thread.
MUR_API double mur_noise_u01(uint64_t seed, uint64_t tick, uint64_t boid, unsigned index);

#ifdef __cplusplus
}
#endif

#endif
