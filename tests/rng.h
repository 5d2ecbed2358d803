/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rng.h: a deterministic generator for the tests' synthetic images
 * (xorshift64): the same numbers on every machine.  rng_seed before
 * use. */
#ifndef CLFX_TEST_RNG_H
#define CLFX_TEST_RNG_H

#include <stdint.h>

static uint64_t rng_state;

/* Any seed, 0 included, gives a non-zero state. */
static inline void
rng_seed (uint64_t seed)
{
  rng_state = seed * 2654435761u + 1;
}

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
