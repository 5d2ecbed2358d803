/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-parallel.c: a fork-join over rows with pthreads.  The reference
 * paths are the yardstick the GPU is compared with, so they should use the
 * whole CPU rather than one core. */
#define _POSIX_C_SOURCE 200809L
#include "clfx-parallel.h"
#include "clfx-tuning.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct
{
  void (*fn) (void *, int, int);
  void *data;
  int   y0, y1;
} Slice;

static void *
run_slice (void *arg)
{
  Slice *s = arg;
  s->fn (s->data, s->y0, s->y1);
  return NULL;
}

/* Threads to use: $CLFX_THREADS, else the online CPUs; read once. */
static long           thread_count;
static pthread_once_t thread_once = PTHREAD_ONCE_INIT;

static void
read_thread_count (void)
{
  thread_count = clfx_config_threads ();
}

void
clfx_parallel_rows (int rows, void (*fn) (void *data, int y0, int y1),
                    void *data)
{
  long        n;
  pthread_t   tid[64];
  Slice       slice[64];
  bool        joined[64] = { false };

  pthread_once (&thread_once, read_thread_count);
  n = thread_count;
  if (n < 1)
    n = 1;
  if (n > 64)
    n = 64;
  if (n > rows)
    n = rows > 0 ? rows : 1;
  for (int t = 0; t < n; t++)
    {
      slice[t].fn = fn;
      slice[t].data = data;
      slice[t].y0 = (int) ((long) rows * t / n);
      slice[t].y1 = (int) ((long) rows * (t + 1) / n);
    }
  /* Slice 0 runs on this thread; a slice whose thread cannot start runs
   * here too, so the result never depends on thread creation. */
  for (int t = 1; t < n; t++)
    {
      joined[t] = pthread_create (&tid[t], NULL, run_slice, &slice[t]) == 0;
      if (! joined[t])
        run_slice (&slice[t]);
    }
  run_slice (&slice[0]);
  for (int t = 1; t < n; t++)
    if (joined[t])
      pthread_join (tid[t], NULL);
}

typedef struct
{
  char       *dst;
  const char *src;
  size_t      dst_stride, src_stride, row_bytes;
} CopyJob;

static void
copy_slice (void *data, int y0, int y1)
{
  const CopyJob *j = data;

  for (int y = y0; y < y1; y++)
    memcpy (j->dst + (size_t) y * j->dst_stride,
            j->src + (size_t) y * j->src_stride, j->row_bytes);
}

void
clfx_parallel_copy_rows (void *dst, size_t dst_stride, const void *src,
                         size_t src_stride, size_t row_bytes, int rows)
{
  CopyJob job = { dst, src, dst_stride, src_stride, row_bytes };

  /* Small images are not worth a thread start. */
  if (row_bytes * (size_t) rows < ((size_t) 4 << 20))
    copy_slice (&job, 0, rows);
  else
    clfx_parallel_rows (rows, copy_slice, &job);
}
