/* rng.h: a deterministic generator for the tests' synthetic images
 * (xorshift64): the same numbers on every machine.  Seed rng_state
 * (non-zero) before use. */
#ifndef CLFX_TEST_RNG_H
#define CLFX_TEST_RNG_H

#include <stdint.h>

static uint64_t rng_state;

/* Uniform in [0, 1), 53 bits. */
static inline double
rng_uniform (void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (double) (rng_state >> 11) / 9007199254740992.0;
}

#endif
