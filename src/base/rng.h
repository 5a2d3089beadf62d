/*
 * rng.h — the pseudo-random generator behind every seeded choice of sluice:
 * xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift
 * generators, scrambled"), a 64-bit state that is never 0 and one multiply
 * a draw. Each user keeps a state of its own (fault rules, --latency aws,
 * --delays realistic, request ids, the simulator's clients and keys), so
 * one kind of draw never shifts another and a seed reproduces a run. Not
 * for anything secret.
 */
#ifndef SL_BASE_RNG_H
#define SL_BASE_RNG_H

#include <stdint.h>

/* The next 64 bits; the high bits are the better ones (use >> to narrow). */
static inline uint64_t sl_rng_next(uint64_t *s) {
  uint64_t x = *s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *s = x;
  return x * 0x2545F4914F6CDD1DULL;
}

/* A double in [0, 1), from the top 53 bits. */
static inline double sl_rng_unit(uint64_t *s) { return (double)(sl_rng_next(s) >> 11) * 0x1.0p-53; }

#endif
