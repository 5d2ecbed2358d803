/* SPDX-License-Identifier: GPL-3.0-or-later */
/* resize-ref.c: the resize variant's CPU side: its reference (nearest and
 * linear by the OpenCL C spec's sampler formulas, cubic and lanczos3 as
 * two passes through the tap tables), the bounds a nearest lookup near a
 * texel boundary allows, and the tolerance. */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "../../kernels/clfx-common.h"
#include "../clfx-parallel.h"
#include "../clfx-sampler-ref.h"
#include "../clfx-validate.h"
#include "resize-private.h"

/* ---- CPU reference ------------------------------------------------------- */

typedef struct
{
  const ClfxImage   *src;
  ClfxImage         *dst;
  ClfxImage         *inter;
  const ResizeState *st;
  float              jx, jy; /* added to the sampler coordinate (bounds) */
} Job;

/* Texels as the kernels' clfx_fetch reads them. */
static ClfxSamplerDesc
tap_sampler (const ResizeState *st)
{
  return (ClfxSamplerDesc) { st->normalized, st->addressing, false,
                             st->premul, st->decode };
}

/* The kernel's in-kernel sampling at (u, v) in texels. */
static void
kernel_sample (const ClfxImage *img, const ResizeState *st, float u,
               float v, float out[4])
{
  ClfxSamplerDesc s = tap_sampler (st);

  if (st->filter != CLFX_RESAMPLE_LINEAR)
    {
      clfx_ref_fetch (img, s, (int) floorf (u), (int) floorf (v), out);
      return;
    }
  {
    float fu = u - 0.5f, fv = v - 0.5f;
    float iu = floorf (fu), iv = floorf (fv);
    float a = fu - iu, b = fv - iv, t[4][4];
    int   i0 = (int) iu, j0 = (int) iv;

    clfx_ref_fetch (img, s, i0, j0, t[0]);
    clfx_ref_fetch (img, s, i0 + 1, j0, t[1]);
    clfx_ref_fetch (img, s, i0, j0 + 1, t[2]);
    clfx_ref_fetch (img, s, i0 + 1, j0 + 1, t[3]);
    for (int c = 0; c < 4; c++)
      out[c] = clfx_bilerp (t[0][c], t[1][c], t[2][c], t[3][c], a, b);
  }
}

static void
store_result (ClfxImage *dst, const ResizeState *st, int x, int y,
              float v[4])
{
  clfx_ref_store (dst, x, y, v, st->premul, st->decode);
}

static void
cpu_sample_rows (void *data, int y0, int y1)
{
  const Job         *job = data;
  const ResizeState *st = job->st;
  const ClfxImage   *src = job->src;
  ClfxSamplerDesc    smp = { st->normalized, st->addressing,
                             st->filter == CLFX_RESAMPLE_LINEAR, st->premul,
                             st->decode };
  float inv_count = (float) (1.0 / (double) (st->x.nsub * st->y.nsub));

  for (int y = y0; y < y1; y++)
    for (int x = 0; x < job->dst->width; x++)
      {
        float s = clfx_resize_pos (x, st->x.scale, st->x.offset);
        float t = clfx_resize_pos (y, st->y.scale, st->y.offset);
        float bx = st->normalized ? s : s * (float) src->width;
        float by = st->normalized ? t : t * (float) src->height;
        float acc[4] = { 0, 0, 0, 0 };

        if (st->guard)
          {
            float lx = st->normalized ? 1.0f : (float) src->width;
            float ly = st->normalized ? 1.0f : (float) src->height;
            if (bx < 0.0f || bx >= lx || by < 0.0f || by >= ly)
              {
                store_result (job->dst, st, x, y, acc);
                continue;
              }
          }
        for (int j = 0; j < st->y.nsub; j++)
          for (int i = 0; i < st->x.nsub; i++)
            {
              float cx = bx + (st->x.first + (float) i * st->x.step);
              float cy = by + (st->y.first + (float) j * st->y.step);
              float v[4];
              if (st->guard)
                kernel_sample (src, st,
                               st->normalized ? cx * (float) src->width : cx,
                               st->normalized ? cy * (float) src->height : cy,
                               v);
              else
                /* The spec's own sampler formulas (clfx-sampler-ref.c). */
                clfx_ref_read (src, smp, cx + job->jx, cy + job->jy, v);
              for (int c = 0; c < 4; c++)
                acc[c] += v[c];
            }
        for (int c = 0; c < 4; c++)
          acc[c] *= inv_count;
        store_result (job->dst, st, x, y, acc);
      }
}

static void
cpu_filter_h_rows (void *data, int j0, int j1)
{
  const Job         *job = data;
  const ResizeState *st = job->st;
  const ResizeAxis  *ax = &st->x;
  ClfxSamplerDesc    s = tap_sampler (st);

  for (int j = j0; j < j1; j++)
    for (int x = 0; x < job->inter->width; x++)
      {
        float acc[4] = { 0, 0, 0, 0 };
        if (ax->start[x] != INT_MIN)
          for (int k = 0; k < ax->ntaps; k++)
            {
              float w = ax->weights[(size_t) x * (size_t) ax->ntaps + k];
              float v[4];
              clfx_ref_fetch (job->src, s, ax->start[x] + k, j, v);
              for (int c = 0; c < 4; c++)
                acc[c] += w * v[c];
            }
        for (int c = 0; c < 4; c++)
          clfx_image_set (job->inter, x, j, c, acc[c]);
      }
}

static void
cpu_filter_v_rows (void *data, int y0, int y1)
{
  const Job         *job = data;
  const ResizeState *st = job->st;
  const ResizeAxis  *ay = &st->y;
  int                h = job->inter->height;

  for (int y = y0; y < y1; y++)
    for (int x = 0; x < job->dst->width; x++)
      {
        float acc[4] = { 0, 0, 0, 0 };
        if (ay->start[y] != INT_MIN)
          for (int k = 0; k < ay->ntaps; k++)
            {
              float w = ay->weights[(size_t) y * (size_t) ay->ntaps + k];
              /* The intermediate holds rows as the source's addressing
               * gives them (its rows are source rows). */
              int   j = clfx_address (ay->start[y] + k, h,
                                      st->addressing == CLFX_ADDR_NONE
                                        ? CLFX_ADDR_CLAMP_TO_EDGE
                                        : st->addressing);
              for (int c = 0; c < 4; c++)
                acc[c] += w * (j < 0 ? 0.0f
                                     : clfx_image_get (job->inter, x, j, c));
            }
        store_result (job->dst, st, x, y, acc);
      }
}

bool
resize_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
            ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const ResizeState *st = plan->state;
  ClfxImage          inter = { 0 };
  Job                job = { src, dst, &inter, st, 0.0f, 0.0f };

  (void) p;
  (void) probes;
  if (st->filter == CLFX_RESAMPLE_NEAREST
      || st->filter == CLFX_RESAMPLE_LINEAR)
    {
      clfx_parallel_rows (dst->height, cpu_sample_rows, &job);
      return true;
    }
  /* Float RGBA, result width x source height. */
  if (! clfx_host_image_alloc (&inter, dst->width, src->height, 4,
                               CLFX_DEPTH_FLOAT, error))
    return false;
  clfx_parallel_rows (src->height, cpu_filter_h_rows, &job);
  clfx_parallel_rows (dst->height, cpu_filter_v_rows, &job);
  clfx_host_image_free (&inter);
  return true;
}

/* Where a nearest sample lies within 2^-8 texel of a texel boundary, the
 * device may pick either texel: GPU texture units resolve the coordinate
 * in fixed point with 8 fractional bits (the H200 picks the neighbour on
 * 0.9% of the pixels of a 3000-texel-wide normalized lookup, always right
 * at a boundary), and the in-kernel path wraps the coordinate after
 * flooring it rather than before.  The envelope is the min and max over
 * the reference and the four samples moved by +-2^-8 texel on each axis. */
bool
resize_bounds (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
               const ClfxImage *ref, ClfxImage *lo, ClfxImage *hi,
               ClfxError *error)
{
  static const float jit[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 },
                                   { -1, -1 } };
  const ResizeState *st = plan->state;
  ClfxImage          tmp = { 0 };
  Job                job = { src, lo, NULL, st, 0.0f, 0.0f };

  (void) p;
  /* Both bounds start at the reference: everywhere but near a texel
   * boundary of a nearest lookup, only it is allowed. */
  memcpy (lo->data, ref->data, ref->stride * (size_t) ref->height);
  memcpy (hi->data, ref->data, ref->stride * (size_t) ref->height);
  if (st->filter != CLFX_RESAMPLE_NEAREST || st->guard)
    return true; /* exact: the other paths read texel centres only */
  if (! clfx_host_image_alloc (&tmp, lo->width, lo->height, lo->channels,
                               lo->depth, error))
    return false;
  tmp.transfer = lo->transfer;
  job.dst = &tmp;
  for (int k = 0; k < 4; k++)
    {
      float ux = 1.0f / 256.0f, uy = 1.0f / 256.0f;
      if (st->normalized)
        {
          ux /= (float) src->width;
          uy /= (float) src->height;
        }
      job.jx = jit[k][0] * ux;
      job.jy = jit[k][1] * uy;
      clfx_parallel_rows (tmp.height, cpu_sample_rows, &job);
      clfx_validate_widen (lo, hi, &tmp);
    }
  clfx_host_image_free (&tmp);
  return true;
}

/* ---- tolerance ----------------------------------------------------------- */

/* Largest |value| and the value range of the source in linear light,
 * over its channels. */
static void
value_range (const ClfxImage *img, bool decode, double *max_abs,
             double *range)
{
  double lo = INFINITY, hi = -INFINITY, m = 0.0;

  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      for (int c = 0; c < img->channels; c++)
        {
          double v = decode ? clfx_image_get_linear (img, x, y, c)
                            : clfx_image_get (img, x, y, c);
          if (! isfinite (v))
            continue;
          lo = v < lo ? v : lo;
          hi = v > hi ? v : hi;
          m = fabs (v) > m ? fabs (v) : m;
        }
  /* The CLAMP border (0) is a texel value too. */
  lo = lo < 0.0 ? lo : 0.0;
  hi = hi > 0.0 ? hi : 0.0;
  *max_abs = m;
  *range = hi - lo;
}

void
resize_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                  const ClfxDeviceInfo *dev, const ClfxImage *src,
                  const ClfxImage *dst, ClfxTolerance *tol)
{
  const ResizeState *st = plan->state;
  double             max_abs, range;

  (void) p;
  (void) dev;
  value_range (src, st->decode, &max_abs, &range);
  clfx_tol_init (tol);
  /* Every term below grows with the values read (source_rect's texels). */
  clfx_tol_magnitude (tol, max_abs, range);
  switch (st->filter)
    {
    case CLFX_RESAMPLE_NEAREST:
      /* Nearest picks a texel; only the read conversion differs, and
       * either texel within 2^-8 texel of a boundary (resize_bounds). */
      clfx_tol_clause (tol, "nearest: either texel within 2^-8 texel of a "
                       "boundary (coordinate precision)");
      clfx_tol_read (tol, max_abs);
      break;
    case CLFX_RESAMPLE_LINEAR:
      if (plan->use_sampler)
        clfx_tol_sampler_linear (tol, range);
      else
        {
          int n = st->x.nsub * st->y.nsub;
          clfx_tol_clause (tol, "linear in the kernel: the spec's "
                           "CLK_FILTER_LINEAR formula on fetched texels, "
                           "direct or as a separable filter");
          clfx_tol_sum (tol, "bilinear", 4, 1.0, max_abs);
          /* The separable form sums each axis's taps, then the rows. */
          clfx_tol_sum (tol, "separable passes",
                        2 * (st->x.ntaps + st->y.ntaps + 3),
                        st->x.weight_abs_sum * st->y.weight_abs_sum,
                        max_abs);
          if (n > 1)
            clfx_tol_sum (tol, "supersamples", n, 1.0, max_abs);
          if (st->addressing == CLFX_ADDR_REPEAT
              || st->addressing == CLFX_ADDR_MIRRORED)
            {
              /* The spec wraps the coordinate before it finds the weights,
               * the kernel after: the weights differ by a few ulp of the
               * coordinate in texels. */
              double n_tex = src->width > src->height ? src->width
                                                      : src->height;
              clfx_tol_ranged (tol, 8.0 * n_tex * CLFX_FLOAT_EPS * range);
              clfx_tol_clause (tol, "weights of a wrapped coordinate: 8 x "
                               "size x u x texel range");
            }
          clfx_tol_read (tol, max_abs);
        }
      break;
    default:
      {
        /* n-term float sums in two passes, plus the read conversion. */
        int nx = st->x.ntaps, ny = st->y.ntaps;
        clfx_tol_sum (tol, "cubic/lanczos3 two passes", 2 * (nx + ny + 3),
                      st->x.weight_abs_sum * st->y.weight_abs_sum, max_abs);
      }
      break;
    }
  if (st->decode)
    clfx_tol_srgb (tol, dst->depth, plan->srgb_tables);
  clfx_tol_store (tol, dst->depth, st->filter == CLFX_RESAMPLE_NEAREST);
}
