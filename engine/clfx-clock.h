/* clfx-clock.h: the host's monotonic clock in milliseconds. */
#ifndef CLFX_CLOCK_H
#define CLFX_CLOCK_H

#include <time.h>

static inline double
clfx_now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec * 1e-6;
}

#endif
