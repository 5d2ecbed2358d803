/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-scratch.c: host memory for the intermediates of CPU devices.
 *
 * A CPU device's buffers are host memory, and every byte of a new
 * allocation is zeroed by the kernel on first touch, page by page.  A
 * filter's intermediate of 256 MiB (4096x4096 RGBA float) written for
 * the first time cost more than the filter's arithmetic
 * (docs/notebook/performance-2026.md, "After the context's host blocks
 * and the CPU forms (bc3aab0..7eaf2bb)").  So the intermediates of CPU
 * devices live in host memory the context keeps between runs (up to a
 * quarter of the device's global memory, beyond which blocks are freed
 * when given back), in blocks of whole 2 MiB pages with transparent huge
 * pages asked for (one fault per 2 MiB rather than per 4 KiB where the
 * kernel grants them).
 * The graph wraps a block with CL_MEM_USE_HOST_PTR and gives it back when
 * the run ends, after the queues are idle. */
#define _DEFAULT_SOURCE /* madvise */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "clfx-array.h"
#include "clfx-context.h"

#define HUGE_PAGE ((size_t) 2 << 20)

static size_t
scratch_cap (const ClfxContext *ctx)
{
  return (size_t) (ctx->device.global_mem / 4);
}

void *
clfx_scratch_take (ClfxContext *ctx, size_t bytes)
{
  size_t       size = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
  ClfxScratch *best = NULL;
  void        *ptr;

  if (ctx->tuning.scratch_off || bytes == 0)
    return NULL;
  /* The smallest free block that holds it, if it wastes at most half. */
  for (int i = 0; i < ctx->n_scratch; i++)
    {
      ClfxScratch *s = &ctx->scratch[i];
      if (! s->busy && s->bytes >= size && s->bytes / 2 <= size
          && (! best || s->bytes < best->bytes))
        best = s;
    }
  if (best)
    {
      best->busy = true;
      return best->ptr;
    }
  if (! clfx_array_reserve (&ctx->scratch, &ctx->cap_scratch,
                            ctx->n_scratch + 1, sizeof *ctx->scratch)
      || ! (ptr = aligned_alloc (HUGE_PAGE, size)))
    return NULL;
#ifdef MADV_HUGEPAGE
  /* Advice only: without huge pages the block works as well. */
  (void) madvise (ptr, size, MADV_HUGEPAGE);
#endif
  ctx->scratch[ctx->n_scratch++] = (ClfxScratch) { ptr, size, true };
  return ptr;
}

void
clfx_scratch_give (ClfxContext *ctx, void *ptr)
{
  size_t kept = 0;
  int    at = -1;

  for (int i = 0; i < ctx->n_scratch; i++)
    {
      if (ctx->scratch[i].ptr == ptr)
        at = i;
      else
        kept += ctx->scratch[i].bytes;
    }
  if (at < 0)
    return;
  if (kept + ctx->scratch[at].bytes <= scratch_cap (ctx))
    {
      ctx->scratch[at].busy = false;
      return;
    }
  free (ptr);
  ctx->scratch[at] = ctx->scratch[--ctx->n_scratch];
}

void
clfx_scratch_free_all (ClfxContext *ctx)
{
  for (int i = 0; i < ctx->n_scratch; i++)
    free (ctx->scratch[i].ptr);
  free (ctx->scratch);
  ctx->scratch = NULL;
  ctx->n_scratch = ctx->cap_scratch = 0;
}
