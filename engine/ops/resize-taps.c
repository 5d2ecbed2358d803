/* SPDX-License-Identifier: GPL-3.0-or-later */
/* resize-taps.c: the resize variant's tap tables, which its plan builds
 * and both paths read: each result pixel's first source texel and its
 * weights along an axis (cubic and lanczos3 widened by the shrink factor
 * so a downscale is antialiased, linear as the sampler's weights summed
 * over its supersamples), and the source texels that a range of result
 * pixels reads (its footprint). */
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/clfx-common.h"
#include "../clfx-parallel.h"
#include "resize-private.h"

/* ---- the tap tables ------------------------------------------------------ */

void
resize_axis_free (ResizeAxis *a)
{
  free (a->start);
  free (a->weights);
  free (a->weights_t);
}

static bool
axis_alloc (ResizeAxis *a, int dst, ClfxError *error)
{
  a->start = malloc ((size_t) dst * sizeof *a->start);
  a->weights = calloc ((size_t) dst * (size_t) a->ntaps, sizeof (float));
  a->weights_t = malloc ((size_t) dst * (size_t) a->ntaps * sizeof (float));
  if (! a->start || ! a->weights || ! a->weights_t)
    return clfx_error_set (error, CLFX_ERR_NOMEM,
                           "out of memory for filter tables");
  return true;
}

/* Drops the leading and trailing taps that weigh 0 for every result
 * pixel (the tables are built on a footprint that is a little wider than
 * the kernel's support: a 2x linear shrink has 2 taps per axis, not 4;
 * cubic's end taps fall on its zeros).  Sums lose only +0 terms. */
static void
axis_trim (ResizeAxis *a, int dst)
{
  int lead = a->ntaps, trail = a->ntaps, n;

  for (int d = 0; d < dst; d++)
    {
      const float *w = a->weights + (size_t) d * (size_t) a->ntaps;
      int          l = 0, t = 0;
      if (a->start[d] == INT_MIN)
        continue;
      while (l < a->ntaps && w[l] == 0.0f)
        l++;
      while (t < a->ntaps - l && w[a->ntaps - 1 - t] == 0.0f)
        t++;
      lead = l < lead ? l : lead;
      trail = t < trail ? t : trail;
    }
  n = a->ntaps - lead - trail;
  if (lead + trail == 0 || n < 1)
    return;
  for (int d = 0; d < dst; d++)
    {
      memmove (a->weights + (size_t) d * (size_t) n,
               a->weights + (size_t) d * (size_t) a->ntaps + lead,
               (size_t) n * sizeof (float));
      if (a->start[d] != INT_MIN)
        a->start[d] += lead;
    }
  a->ntaps = n;
}

/* Tap-major copy of the weights (k * n + d), as the kernels read them. */
static void
axis_transpose (ResizeAxis *a, int dst)
{
  axis_trim (a, dst);
  for (int d = 0; d < dst; d++)
    for (int k = 0; k < a->ntaps; k++)
      a->weights_t[(size_t) k * (size_t) dst + (size_t) d]
        = a->weights[(size_t) d * (size_t) a->ntaps + (size_t) k];
}

/* cubic and lanczos3: taps widened by the shrink factor. */
typedef struct
{
  ResizeAxis        *a;
  const ResizeState *st;
  int                src, dst, chunks;
  double             radius, fs;
  atomic_bool        failed;
} TapJob;

/* The taps of the result pixels of chunks [c0, c1): each pixel's weights
 * depend on its position only, so lanczos3's table, whose two sines a tap
 * on one thread took half of a GPU's whole run, is made in four chunks on
 * as many threads; a thread per core was no faster (starting them cost as
 * much as they saved).  Cubic's polynomial is cheaper than starting a
 * thread.  docs/notebook/performance-2026.md, "The engine on the NVIDIA
 * H200: wall time against the transfers". */
static void
kernel_taps_rows (void *data, int c0, int c1)
{
  TapJob     *job = data;
  ResizeAxis *a = job->a;
  double     *wd = malloc ((size_t) a->ntaps * sizeof *wd);
  int         d0 = (int) ((long long) job->dst * c0 / job->chunks);
  int         d1 = (int) ((long long) job->dst * c1 / job->chunks);

  if (! wd)
    {
      atomic_store (&job->failed, true);
      return;
    }
  for (int d = d0; d < d1; d++)
    {
      float  s = clfx_resize_pos (d, a->scale, a->offset);
      float  u = s * (float) job->src;
      double centre = (double) u - 0.5, sum = 0.0;
      int    first = (int) ceil (centre - job->radius);
      float *w = a->weights + (size_t) d * (size_t) a->ntaps;

      if (job->st->guard && (u < 0.0f || u >= (float) job->src))
        {
          a->start[d] = INT_MIN;
          continue;
        }
      a->start[d] = first;
      for (int k = 0; k < a->ntaps; k++)
        {
          double t = ((double) (first + k) - centre) / job->fs;
          wd[k] = job->st->filter == CLFX_RESAMPLE_CUBIC
                    ? clfx_cubic_weight ((float) t)
                    : clfx_lanczos3_weight ((float) t);
          sum += wd[k];
        }
      for (int k = 0; k < a->ntaps; k++)
        w[k] = (float) (wd[k] / sum);
    }
  free (wd);
}

/* Whether every result pixel of the axis has the first's weights (whole
 * shrink factors put every pixel's centre at the same place among its
 * taps, so their weights are computed from the same numbers). */
static bool
axis_uniform (const ResizeAxis *a, int dst)
{
  for (int d = 1; d < dst; d++)
    if (memcmp (a->weights, a->weights + (size_t) d * (size_t) a->ntaps,
                (size_t) a->ntaps * sizeof (float)))
      return false;
  return true;
}

static bool
axis_kernel_taps (ResizeAxis *a, int src, int dst, const ResizeState *st,
                  ClfxError *error)
{
  double f = a->texels_per_px;
  double support = st->filter == CLFX_RESAMPLE_CUBIC ? 2.0 : 3.0;
  double fs = f > 1.0 ? f : 1.0; /* widen the kernel when shrinking */
  int    chunks = st->filter == CLFX_RESAMPLE_LANCZOS3 && dst >= 64 ? 4 : 1;
  TapJob job = { a, st, src, dst, chunks, support * fs, fs, false };

  a->ntaps = (int) ceil (2.0 * job.radius) + 1;
  if (! axis_alloc (a, dst, error))
    return false;
  if (chunks == 1)
    kernel_taps_rows (&job, 0, 1);
  else
    clfx_parallel_rows (chunks, kernel_taps_rows, &job);
  if (atomic_load (&job.failed))
    return clfx_error_set (error, CLFX_ERR_NOMEM,
                           "out of memory for filter tables");
  for (int d = 0; d < dst; d++)
    {
      const float *w = a->weights + (size_t) d * (size_t) a->ntaps;
      double       abs_sum = 0.0;
      if (a->start[d] == INT_MIN)
        continue;
      for (int k = 0; k < a->ntaps; k++)
        abs_sum += fabs ((double) w[k]);
      if (abs_sum > a->weight_abs_sum)
        a->weight_abs_sum = abs_sum;
    }
  axis_transpose (a, dst);
  a->uniform = axis_uniform (a, dst);
  return true;
}

/* linear as a separable filter: the spec's CLK_FILTER_LINEAR weights
 * (1 - a, a) of each supersample, computed with the sample kernel's own
 * float arithmetic and summed over the supersamples, scaled by 1 / nsub.
 * The kernels for CPU devices run linear through these tables (see
 * resize_cl); the others sample directly. */
static bool
axis_linear_taps (ResizeAxis *a, int src, int dst, const ResizeState *st,
                  ClfxError *error)
{
  float unit = st->normalized ? (float) src : 1.0f;
  float inv = (float) (1.0 / (double) a->nsub);

  /* Supersamples lie `step` apart: their footprint spans at most
   * (nsub - 1) * step + 2 texels. */
  a->ntaps = a->nsub == 1 ? 2
                          : (int) ceil ((double) (a->nsub - 1) * a->step
                                        * unit) + 3;
  if (! axis_alloc (a, dst, error))
    return false;
  for (int d = 0; d < dst; d++)
    {
      float  s = clfx_resize_pos (d, a->scale, a->offset);
      float  b = st->normalized ? s : s * (float) src;
      float  lim = st->normalized ? 1.0f : (float) src;
      float *w = a->weights + (size_t) d * (size_t) a->ntaps;
      int    first = INT_MAX;
      double abs_sum = 0.0;

      if (st->guard && (b < 0.0f || b >= lim))
        {
          a->start[d] = INT_MIN;
          continue;
        }
      for (int i = 0; i < a->nsub; i++)
        {
          float c = b + (a->first + (float) i * a->step);
          float u = st->normalized ? c * (float) src : c;
          int   i0 = (int) floorf (u - 0.5f);
          first = i0 < first ? i0 : first;
        }
      a->start[d] = first;
      for (int i = 0; i < a->nsub; i++)
        {
          float c = b + (a->first + (float) i * a->step);
          float u = st->normalized ? c * (float) src : c;
          float fu = u - 0.5f, iu = floorf (fu), f = fu - iu;
          int   k = (int) iu - first;
          if (k < 0 || k + 1 >= a->ntaps)
            return clfx_error_set (error, CLFX_ERR_INVALID,
                                   "linear taps out of their table");
          w[k] += (1.0f - f) * inv;
          w[k + 1] += f * inv;
        }
      for (int k = 0; k < a->ntaps; k++)
        abs_sum += fabs ((double) w[k]);
      if (abs_sum > a->weight_abs_sum)
        a->weight_abs_sum = abs_sum;
    }
  axis_transpose (a, dst);
  return true;
}

bool
resize_axis_setup (ResizeAxis *a, int src, int dst, double zoom,
                   const ResizeState *st, ClfxError *error)
{
  double f = (double) src / ((double) dst * zoom);

  memset (a, 0, sizeof *a);
  a->scale = (float) (1.0 / ((double) dst * zoom));
  a->offset = (float) (0.5 - 0.5 / zoom);
  a->texels_per_px = f;
  a->inv_size = (float) (1.0 / (double) src);
  a->size = src;
  a->nsub = 1;
  if (st->filter == CLFX_RESAMPLE_LINEAR && f > 2.0)
    {
      /* One bilinear sample spans two texels; ceil (f / 2) of them spread
       * evenly across the pixel's footprint cover it without gaps. */
      double step = f / ceil (f / 2.0);
      double unit = st->normalized ? 1.0 / (double) src : 1.0;
      a->nsub = (int) ceil (f / 2.0);
      a->step = (float) (step * unit);
      a->first = (float) ((0.5 * step - 0.5 * f) * unit);
    }
  if (st->filter == CLFX_RESAMPLE_LINEAR)
    return axis_linear_taps (a, src, dst, st, error);
  if (st->filter == CLFX_RESAMPLE_CUBIC
      || st->filter == CLFX_RESAMPLE_LANCZOS3)
    return axis_kernel_taps (a, src, dst, st, error);
  return true;
}

/* ---- footprints -------------------------------------------------------- */

/* Texels [*lo, *hi] (before addressing) that the sample kernel may read
 * for result pixels [d0, d1) of an axis, with a texel to spare on each
 * side for float rounding. */
static void
sample_span (const ResizeAxis *a, const ResizeState *st, int d0, int d1,
             int *lo, int *hi)
{
  double unit = st->normalized ? (double) a->size : 1.0;
  double u0 = (double) clfx_resize_pos (d0, a->scale, a->offset) * a->size
              + (double) a->first * unit;
  double u1 = (double) clfx_resize_pos (d1 - 1, a->scale, a->offset)
                * a->size
              + ((double) a->first + (double) (a->nsub - 1) * a->step) * unit;
  double back = st->filter == CLFX_RESAMPLE_LINEAR ? 0.5 : 0.0;

  *lo = (int) floor (u0 - back) - 1;
  *hi = (int) floor (u1 - back) + (st->filter == CLFX_RESAMPLE_LINEAR ? 1 : 0)
        + 1;
}

/* Taps [*lo, *hi] of result pixels [d0, d1); false when all are outside
 * (guard). */
bool
resize_tap_span (const ResizeAxis *a, int d0, int d1, int *lo, int *hi)
{
  *lo = INT_MAX;
  *hi = INT_MIN;
  for (int d = d0; d < d1; d++)
    if (a->start[d] != INT_MIN)
      {
        *lo = a->start[d] < *lo ? a->start[d] : *lo;
        *hi = a->start[d] + a->ntaps - 1 > *hi ? a->start[d] + a->ntaps - 1
                                                : *hi;
      }
  return *lo <= *hi;
}

/* Every texel any kernel form reads: the tables' taps (zero weights
 * included: 0 x a texel read outside a tile would be NaN, not 0) and, for
 * nearest and linear, a texel to spare on each side of the samples (the
 * sampler's fixed-point coordinates may reach one texel further). */
void
resize_axis_span (const ResizeAxis *a, const ResizeState *st, int d0,
                  int d1, int *lo, int *hi)
{
  int  tlo, thi;
  bool taps = a->ntaps && resize_tap_span (a, d0, d1, &tlo, &thi);

  if (st->filter == CLFX_RESAMPLE_NEAREST
      || st->filter == CLFX_RESAMPLE_LINEAR)
    {
      sample_span (a, st, d0, d1, lo, hi);
      if (taps)
        {
          *lo = tlo < *lo ? tlo : *lo;
          *hi = thi > *hi ? thi : *hi;
        }
    }
  else if (taps)
    {
      *lo = tlo;
      *hi = thi;
    }
  else
    *lo = *hi = 0;
}
