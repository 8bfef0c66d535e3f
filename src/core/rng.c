/* The documented PRNG: xoshiro256** (Blackman & Vigna 2018) for streams,
 * splitmix64 for seeding and for counter-based hashing. Both are tiny, fast,
 * public domain and pass BigCrush; neither depends on libc's rand(). */
#include "murmur/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void mur_rng_seed(mur_rng *rng, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&x);
}

uint64_t mur_rng_next(mur_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double mur_rng_uniform(mur_rng *rng) { return mur_u01(mur_rng_next(rng)); }

uint64_t mur_rng_derive(uint64_t seed, uint64_t k)
{
    if (k == 0)
        return seed;
    uint64_t x = seed ^ (k * 0xd1342543de82ef95ULL);
    return splitmix64(&x);
}

uint64_t mur_hash3(uint64_t seed, uint64_t a, uint64_t b)
{
    /* Three rounds of splitmix64 chained through the inputs: each word is
     * mixed in fully before the next, so (a, b) and (b, a) differ. */
    uint64_t x = seed;
    uint64_t h = splitmix64(&x);
    x = h ^ a;
    h = splitmix64(&x);
    x = h ^ b;
    return splitmix64(&x);
}

/* "family" in ASCII: a salt of its own, so these draws never repeat the
 * Reynolds noise's or the scatter's; the draw index goes into the top
 * byte. */
#define SALT_FAMILY 0x66616d696c79ULL

double mur_noise_u01(uint64_t seed, uint64_t tick, uint64_t boid, unsigned index)
{
    return mur_u01(mur_hash3(seed ^ SALT_FAMILY ^ ((uint64_t)index << 56), tick, boid));
}
