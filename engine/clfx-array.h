/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-array.h: growing arrays, so that no record is ever dropped for
 * want of a fixed slot. */
#ifndef CLFX_ARRAY_H
#define CLFX_ARRAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Makes room for `need` elements of `size` bytes in *array (capacity
 * *cap); new elements are zeroed.  False, with *array unchanged, when
 * memory runs out. */
static inline bool
clfx_array_reserve (void *array, int *cap, int need, size_t size)
{
  void **a = (void **) array;
  int    n = *cap ? *cap : 8;
  void  *grown;

  if (need <= *cap)
    return true;
  while (n < need)
    {
      if (n > INT32_MAX / 2)
        return false;
      n *= 2;
    }
  if ((size_t) n > SIZE_MAX / size || ! (grown = realloc (*a, (size_t) n * size)))
    return false;
  memset ((char *) grown + (size_t) *cap * size, 0,
          (size_t) (n - *cap) * size);
  *a = grown;
  *cap = n;
  return true;
}

#endif
