/* SPDX-License-Identifier: GPL-3.0-or-later */
/* first-touch.c: what writing freshly allocated memory costs on this
 * machine, against writing it again, with 4 KiB pages and with
 * transparent huge pages asked for (MADV_HUGEPAGE): the reason CPU
 * devices' intermediates live in host blocks the context keeps
 * (engine/clfx-scratch.c).  Five rounds of: allocate MiB (default 256)
 * aligned to 2 MiB, write every byte, free.
 * usage: cc -O2 tools/first-touch.c -o first-touch && ./first-touch [MiB] */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double
ms_since (const struct timespec *a)
{
  struct timespec b;

  clock_gettime (CLOCK_MONOTONIC, &b);
  return (double) (b.tv_sec - a->tv_sec) * 1e3
         + (double) (b.tv_nsec - a->tv_nsec) / 1e6;
}

int
main (int argc, char **argv)
{
  size_t mib = argc > 1 ? (size_t) strtoul (argv[1], NULL, 10) : 256;
  size_t n = mib << 20;

  if (mib == 0 || mib > ((size_t) 1 << 20))
    {
      fprintf (stderr, "usage: %s [MiB, 1 to 1048576]\n", argv[0]);
      return 2;
    }
  for (int huge = 0; huge < 2; huge++)
    for (int round = 0; round < 5; round++)
      {
        struct timespec t0;
        double          first, again;
        char           *p = aligned_alloc ((size_t) 2 << 20, n);

        if (! p)
          {
            fprintf (stderr, "out of memory for %zu MiB\n", mib);
            return 1;
          }
        if (huge && madvise (p, n, MADV_HUGEPAGE) != 0)
          perror ("madvise");
        clock_gettime (CLOCK_MONOTONIC, &t0);
        memset (p, round + 1, n);
        first = ms_since (&t0);
        clock_gettime (CLOCK_MONOTONIC, &t0);
        memset (p, round + 2, n);
        again = ms_since (&t0);
        printf ("%s pages, round %d: %zu MiB written first %.1f ms, again "
                "%.1f ms\n", huge ? "huge" : "4 KiB", round + 1, mib, first,
                again);
        free (p);
      }
  return 0;
}
