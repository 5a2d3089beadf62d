/* The running state; see env.h. */
#include "jobs/env.h"

uint64_t sl_env_random(sl_env *env) {
  /* xorshift64* */
  uint64_t x = env->rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  env->rng = x;
  return x * 0x2545F4914F6CDD1DULL;
}
