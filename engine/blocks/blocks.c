/* SPDX-License-Identifier: GPL-3.0-or-later */
/* blocks.c: the building blocks on the device (kernels/blocks.cl), their
 * CPU references, and the internal family "blocks" that runs each one on
 * a source so that the parity tests and clfx-bench can reach it. */
#include "clfx-blocks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/clfx-common.h"
#include "../clfx-tolerance.h"

#define BLOCKS "blocks"

static ClfxLaunch
launch2 (const char *kernel, int w, int h)
{
  ClfxLaunch l = { kernel, NULL, BLOCKS, 2, { (size_t) w, (size_t) h },
                   { 0, 0 } };
  return l;
}

/* ---- on the device ------------------------------------------------------- */

cl_mem
clfx_block_load (ClfxGraph *g, const char *name, const ClfxRect *rect,
                 ClfxError *error)
{
  cl_mem     out = clfx_graph_image (g, name, rect->width, rect->height,
                                     error);
  cl_int4    r = { { rect->x, rect->y, rect->width, rect->height } };
  ClfxLaunch l = launch2 ("block_load", rect->width, rect->height);

  if (! out || ! CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_ARG (out),
                              CLFX_ARG (r)))
    return NULL;
  return out;
}

bool
clfx_block_store (ClfxGraph *g, cl_mem img, int origin_x, int origin_y,
                  ClfxError *error)
{
  const ClfxTile *t = clfx_graph_tile (g);
  cl_int2         origin = { { origin_x, origin_y } };
  ClfxLaunch      l = launch2 ("block_store", t->out.width, t->out.height);

  return CLFX_LAUNCH (g, &l, error, CLFX_ARG (img), CLFX_ARG (origin),
                      CLFX_DST);
}

cl_mem
clfx_block_sepconv (ClfxGraph *g, const char *name, cl_mem in, int w, int h,
                    const float *kx, int nx, const float *ky, int ny,
                    ClfxError *error)
{
  char       inter_name[64], kx_name[64], ky_name[64];
  cl_mem     inter, out, bx, by;
  ClfxLaunch lh = launch2 ("block_sepconv_h", w, h + ny - 1);
  ClfxLaunch lv = launch2 ("block_sepconv_v", w, h);

  snprintf (inter_name, sizeof inter_name, "%s rows", name);
  snprintf (kx_name, sizeof kx_name, "%s kx", name);
  snprintf (ky_name, sizeof ky_name, "%s ky", name);
  if (! (inter = clfx_graph_image (g, inter_name, w, h + ny - 1, error))
      || ! (out = clfx_graph_image (g, name, w, h, error))
      || ! (bx = clfx_graph_upload (g, kx_name, kx, sizeof *kx * (size_t) nx,
                                    error))
      || ! (by = clfx_graph_upload (g, ky_name, ky, sizeof *ky * (size_t) ny,
                                    error)))
    return NULL;
  if (! CLFX_LAUNCH (g, &lh, error, CLFX_ARG (in), CLFX_ARG (inter),
                     CLFX_ARG (bx), CLFX_INT (nx), CLFX_INT (w),
                     CLFX_INT (h + ny - 1))
      || ! CLFX_LAUNCH (g, &lv, error, CLFX_ARG (inter), CLFX_ARG (out),
                        CLFX_ARG (by), CLFX_INT (ny), CLFX_INT (w),
                        CLFX_INT (h)))
    return NULL;
  return out;
}

/* Work-groups of the reduction's first stage, and their size (both
 * powers of two; the second stage reduces the groups in one group). */
#define REDUCE_GROUPS 64
#define REDUCE_LOCAL 64

cl_mem
clfx_block_reduce (ClfxGraph *g, const char *name, cl_mem in, int w, int h,
                   ClfxError *error)
{
  char       partial_name[64];
  cl_mem     partials, out;
  size_t     slot = 4 * 4 * sizeof (cl_float);
  ClfxLaunch l1 = { "block_reduce_partial", NULL, BLOCKS, 1,
                    { REDUCE_GROUPS * REDUCE_LOCAL, 1 }, { REDUCE_LOCAL, 1 } };
  ClfxLaunch l2 = { "block_reduce_final", NULL, BLOCKS, 1,
                    { REDUCE_GROUPS, 1 }, { REDUCE_GROUPS, 1 } };

  snprintf (partial_name, sizeof partial_name, "%s partials", name);
  if (! (partials = clfx_graph_buffer (g, partial_name,
                                       REDUCE_GROUPS * slot, error))
      || ! (out = clfx_graph_buffer (g, name, slot, error)))
    return NULL;
  if (! CLFX_LAUNCH (g, &l1, error, CLFX_ARG (in), CLFX_INT (w), CLFX_INT (h),
                     CLFX_ARG (partials),
                     CLFX_LOCAL (REDUCE_LOCAL * slot))
      || ! CLFX_LAUNCH (g, &l2, error, CLFX_ARG (partials),
                        CLFX_INT (REDUCE_GROUPS), CLFX_ARG (out),
                        CLFX_LOCAL (REDUCE_GROUPS * slot)))
    return NULL;
  return out;
}

cl_mem
clfx_block_histogram (ClfxGraph *g, const char *name, cl_mem in, int w, int h,
                      int channel, float lo, float hi, int bins,
                      ClfxError *error)
{
  cl_mem     counts = clfx_graph_buffer (g, name, sizeof (cl_uint)
                                                    * (size_t) bins, error);
  cl_uint    zero = 0;
  ClfxLaunch l = { "block_histogram", NULL, BLOCKS, 1,
                   { REDUCE_GROUPS * REDUCE_LOCAL, 1 }, { REDUCE_LOCAL, 1 } };

  if (! counts
      || ! clfx_graph_fill (g, counts, &zero, sizeof zero,
                            sizeof zero * (size_t) bins, error)
      || ! CLFX_LAUNCH (g, &l, error, CLFX_ARG (in), CLFX_INT (w),
                        CLFX_INT (h), CLFX_INT (channel), CLFX_FLOAT (lo),
                        CLFX_FLOAT ((float) bins / (hi - lo)), CLFX_INT (bins),
                        CLFX_ARG (counts),
                        CLFX_LOCAL (sizeof (cl_uint) * (size_t) bins)))
    return NULL;
  return counts;
}

static cl_mem
pyramid (ClfxGraph *g, const char *kernel, const char *name, cl_mem in,
         int ow, int oh, ClfxError *error)
{
  /* Unnormalized coordinates, clamp-to-edge, linear: never a combination
   * the spec forbids, so the sampler's checks cannot refuse it. */
  cl_sampler smp = clfx_graph_sampler_for (g, false, CLFX_ADDR_CLAMP_TO_EDGE,
                                           true, error);
  cl_mem     out = smp ? clfx_graph_image (g, name, ow, oh, error) : NULL;
  ClfxLaunch l = launch2 (kernel, ow, oh);

  if (! out || ! CLFX_LAUNCH (g, &l, error, CLFX_ARG (in), CLFX_ARG (smp),
                              CLFX_ARG (out), CLFX_INT (ow), CLFX_INT (oh)))
    return NULL;
  return out;
}

cl_mem
clfx_block_pyramid_down (ClfxGraph *g, const char *name, cl_mem in, int w,
                         int h, ClfxError *error)
{
  return pyramid (g, "block_pyramid_down", name, in, (w + 1) / 2,
                  (h + 1) / 2, error);
}

cl_mem
clfx_block_pyramid_up (ClfxGraph *g, const char *name, cl_mem in, int w,
                       int h, ClfxError *error)
{
  return pyramid (g, "block_pyramid_up", name, in, 2 * w, 2 * h, error);
}

/* ---- CPU references ---------------------------------------------------------- */

static bool
float_image (ClfxImage *img, int w, int h, ClfxError *error)
{
  return clfx_host_image_alloc (img, w, h, 4, CLFX_DEPTH_FLOAT, error);
}

static float *
px (const ClfxImage *img, int x, int y)
{
  return (float *) ((char *) img->data + (size_t) y * img->stride
                    + (size_t) x * 16);
}

bool
clfx_ref_block_load (const ClfxImage *src, ClfxSamplerDesc s,
                     const ClfxRect *rect, ClfxImage *out, ClfxError *error)
{
  if (! float_image (out, rect->width, rect->height, error))
    return false;
  for (int y = 0; y < rect->height; y++)
    for (int x = 0; x < rect->width; x++)
      clfx_ref_fetch (src, s, rect->x + x, rect->y + y, px (out, x, y));
  return true;
}

void
clfx_ref_block_store (const ClfxImage *img, int origin_x, int origin_y,
                      ClfxImage *dst, bool premul, bool encode)
{
  for (int y = 0; y < dst->height; y++)
    for (int x = 0; x < dst->width; x++)
      {
        float v[4];
        memcpy (v, px (img, x - origin_x, y - origin_y), sizeof v);
        clfx_ref_store (dst, x, y, v, premul, encode);
      }
}

bool
clfx_ref_sepconv (const ClfxImage *in, int w, int h, const float *kx, int nx,
                  const float *ky, int ny, ClfxImage *out, ClfxError *error)
{
  if (! float_image (out, w, h, error))
    return false;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double acc[4] = { 0, 0, 0, 0 };
        for (int j = 0; j < ny; j++)
          for (int i = 0; i < nx; i++)
            {
              const float *v = px (in, x + i, y + j);
              double       wgt = (double) kx[i] * (double) ky[j];
              for (int c = 0; c < 4; c++)
                acc[c] += wgt * v[c];
            }
        for (int c = 0; c < 4; c++)
          px (out, x, y)[c] = (float) acc[c];
      }
  return true;
}

void
clfx_ref_reduce (const ClfxImage *in, double stats[16], double abs_sum[4],
                 double log_abs[4])
{
  for (int c = 0; c < 4; c++)
    {
      stats[c] = 0.0;
      stats[4 + c] = INFINITY;
      stats[8 + c] = -INFINITY;
      stats[12 + c] = 0.0;
      abs_sum[c] = log_abs[c] = 0.0;
    }
  for (int y = 0; y < in->height; y++)
    for (int x = 0; x < in->width; x++)
      for (int c = 0; c < 4; c++)
        {
          double v = px (in, x, y)[c];
          double l = log (1e-6 + (v > 0.0 ? v : 0.0));
          stats[c] += v;
          stats[4 + c] = v < stats[4 + c] ? v : stats[4 + c];
          stats[8 + c] = v > stats[8 + c] ? v : stats[8 + c];
          stats[12 + c] += l;
          abs_sum[c] += fabs (v);
          log_abs[c] += fabs (l);
        }
}

static int
bin_of (float v, float lo, float scale, int bins)
{
  float f = (v - lo) * scale;
  int   b;

  if (isnan (f))
    return -1;
  b = (int) floorf (f);
  return b < 0 ? 0 : b > bins - 1 ? bins - 1 : b;
}

void
clfx_ref_histogram (const ClfxImage *in, int channel, float lo, float hi,
                    int bins, double *counts, double *ambiguous)
{
  float scale = (float) bins / (hi - lo);

  memset (counts, 0, sizeof *counts * (size_t) bins);
  *ambiguous = 0;
  for (int y = 0; y < in->height; y++)
    for (int x = 0; x < in->width; x++)
      {
        float v = px (in, x, y)[channel];
        int   b = bin_of (v, lo, scale, bins);
        float up = v, down = v;
        if (b < 0)
          continue;
        counts[b] += 1.0;
        for (int k = 0; k < 4; k++)
          {
            up = nextafterf (up, INFINITY);
            down = nextafterf (down, -INFINITY);
          }
        if (bin_of (up, lo, scale, bins) != b
            || bin_of (down, lo, scale, bins) != b)
          *ambiguous += 1.0;
      }
}

/* Texel (i, j) clamped to the edge, as the sampler's clamp-to-edge. */
static const float *
edge (const ClfxImage *img, int i, int j)
{
  i = i < 0 ? 0 : i >= img->width ? img->width - 1 : i;
  j = j < 0 ? 0 : j >= img->height ? img->height - 1 : j;
  return px (img, i, j);
}

bool
clfx_ref_pyramid_down (const ClfxImage *in, ClfxImage *out, ClfxError *error)
{
  if (! float_image (out, (in->width + 1) / 2, (in->height + 1) / 2, error))
    return false;
  for (int y = 0; y < out->height; y++)
    for (int x = 0; x < out->width; x++)
      for (int c = 0; c < 4; c++)
        px (out, x, y)[c]
          = (float) (0.25 * ((double) edge (in, 2 * x, 2 * y)[c]
                             + edge (in, 2 * x + 1, 2 * y)[c]
                             + edge (in, 2 * x, 2 * y + 1)[c]
                             + edge (in, 2 * x + 1, 2 * y + 1)[c]));
  return true;
}

bool
clfx_ref_pyramid_up (const ClfxImage *in, int w, int h, ClfxImage *out,
                     ClfxError *error)
{
  if (! float_image (out, w, h, error))
    return false;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        /* The texel centre (x + 0.5) / 2 lies a quarter texel from the
         * source texel x / 2's centre: weights 3/4 and 1/4. */
        double u = (x + 0.5) * 0.5 - 0.5, v = (y + 0.5) * 0.5 - 0.5;
        int    i0 = (int) floor (u), j0 = (int) floor (v);
        double a = u - i0, b = v - j0;
        for (int c = 0; c < 4; c++)
          px (out, x, y)[c]
            = (float) ((1 - a) * (1 - b) * edge (in, i0, j0)[c]
                       + a * (1 - b) * edge (in, i0 + 1, j0)[c]
                       + (1 - a) * b * edge (in, i0, j0 + 1)[c]
                       + a * b * edge (in, i0 + 1, j0 + 1)[c]);
      }
  return true;
}

/* ---- the "blocks" family ------------------------------------------------------- */

typedef struct
{
  int block;   /* the variant */
  int radius;  /* sepconv: a Gaussian of sigma radius / 2 */
  int bins;    /* histogram */
  int channel; /* histogram */
} BlocksParams;

enum { B_SEPCONV, B_REDUCE, B_HISTOGRAM, B_PYRAMID };

/* The source as the blocks fetch it on the CPU. */
static ClfxSamplerDesc
fetch_desc (const ClfxPlan *plan, const ClfxImage *src)
{
  (void) src;
  return (ClfxSamplerDesc) { true, plan->addressing, false, plan->premultiply,
                             plan->decode };
}

static int
taps (const BlocksParams *bp, float *k)
{
  int    n = 2 * bp->radius + 1;
  double sigma = bp->radius / 2.0, sum = 0.0, w[2 * 32 + 1];

  for (int i = 0; i < n; i++)
    sum += w[i] = exp (-(double) (i - bp->radius) * (i - bp->radius)
                       / (2.0 * sigma * sigma));
  for (int i = 0; i < n; i++)
    k[i] = (float) (w[i] / sum);
  return n;
}

static bool
blocks_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
             ClfxError *error)
{
  const BlocksParams *bp = CLFX_PARAMS_OF (p, BlocksParams);

  (void) error;
  plan->width = src->width;
  plan->height = src->height;
  plan->addressing = CLFX_ADDR_CLAMP_TO_EDGE;
  plan->mixes = true;
  if (bp->block == B_SEPCONV)
    for (int s = 0; s < 4; s++)
      plan->halo[s] = bp->radius;
  /* Statistics of the whole image, and the pyramid, whose texels depend
   * on their position's parity: one piece. */
  plan->whole_image_stats = bp->block != B_SEPCONV;
  plan->bytes_per_pixel = 16 * 3;
  return true;
}

static bool
blocks_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const BlocksParams *bp = CLFX_PARAMS_OF (p, BlocksParams);
  const ClfxTile     *t = clfx_graph_tile (g);
  ClfxRect            rect = t->in;
  cl_mem              img, out, stats;
  float               k[2 * 32 + 1];
  int                 w = t->out.width, h = t->out.height, n;

  if (bp->block != B_SEPCONV)
    rect = t->out;
  if (! (img = clfx_block_load (g, "source", &rect, error)))
    return false;
  switch (bp->block)
    {
    case B_SEPCONV:
      n = taps (bp, k);
      return (out = clfx_block_sepconv (g, "convolved", img, w, h, k, n, k, n,
                                        error))
             && clfx_block_store (g, out, t->out.x, t->out.y, error);
    case B_REDUCE:
      return (stats = clfx_block_reduce (g, "stats", img, w, h, error))
             && clfx_graph_probe (g, "sum", stats, 4, error)
             && clfx_graph_probe_at (g, "min", stats, 4, 4, error)
             && clfx_graph_probe_at (g, "max", stats, 8, 4, error)
             && clfx_graph_probe_at (g, "log sum", stats, 12, 4, error)
             && clfx_block_store (g, img, t->out.x, t->out.y, error);
    case B_HISTOGRAM:
      return (stats = clfx_block_histogram (g, "histogram", img, w, h,
                                            bp->channel, 0.0f, 1.0f,
                                            bp->bins, error))
             && clfx_graph_probe_counts (g, "histogram", stats, bp->bins,
                                         error)
             && clfx_block_store (g, img, t->out.x, t->out.y, error);
    default:
      return (out = clfx_block_pyramid_down (g, "half", img, w, h, error))
             && (out = clfx_block_pyramid_up (g, "double", out, (w + 1) / 2,
                                              (h + 1) / 2, error))
             && clfx_block_store (g, out, t->out.x, t->out.y, error);
    }
}

static bool
probe4 (ClfxProbes *probes, const char *name, const double *v, double abs_tol,
        double rel_tol, const char *basis)
{
  return ! probes || clfx_probes_add (probes, name, v, 4, true, abs_tol,
                                      rel_tol, basis);
}

static bool
reduce_probes (ClfxProbes *probes, const ClfxImage *img, bool powr_decode)
{
  /* Each value's read conversion (1.5 ulp), or the decode through powr
   * (16 ulp) where the device computes the sRGB curve. */
  double value_rel = (powr_decode ? 40.0 : 4.0) * CLFX_FLOAT_EPS;
  double stats[16], abs_sum[4], log_abs[4], sum_tol = 0, log_tol = 0;
  double n = (double) img->width * img->height;
  /* Each work-item sums its share sequentially, then two trees of 6
   * levels: n / 4096 + 12 terms deep. */
  double depth = ceil (n / (REDUCE_GROUPS * REDUCE_LOCAL)) + 12;
  char   basis[200];

  clfx_ref_reduce (img, stats, abs_sum, log_abs);
  for (int c = 0; c < 4; c++)
    {
      sum_tol = fmax (sum_tol, (depth + 4) * CLFX_FLOAT_EPS * abs_sum[c]);
      /* log within 3 ulp per term, and each term's read conversion. */
      log_tol = fmax (log_tol, (depth + 6) * CLFX_FLOAT_EPS * log_abs[c]
                                 + value_rel * n);
      sum_tol = fmax (sum_tol, (depth + 4) * CLFX_FLOAT_EPS * abs_sum[c]
                                 + value_rel * abs_sum[c]);
    }
  snprintf (basis, sizeof basis, "float sums %g terms deep (n u sum|v|) "
            "and the values' read conversion", depth);
  return probe4 (probes, "sum", stats, sum_tol, 0, basis)
         && probe4 (probes, "min", stats + 4, 0, value_rel,
                    "the values' read conversion or decode (min is exact)")
         && probe4 (probes, "max", stats + 8, 0, value_rel,
                    "the values' read conversion or decode (max is exact)")
         && probe4 (probes, "log sum", stats + 12, log_tol, 0,
                    "log within 3 ulp per term, float sums");
}

static bool
blocks_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
            ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const BlocksParams *bp = CLFX_PARAMS_OF (p, BlocksParams);
  ClfxSamplerDesc     s = fetch_desc (plan, src);
  bool                encode = plan->decode;
  ClfxRect            whole = { 0, 0, src->width, src->height };
  ClfxRect            halo = { -bp->radius, -bp->radius,
                               src->width + 2 * bp->radius,
                               src->height + 2 * bp->radius };
  ClfxImage           img = { 0 }, out = { 0 }, half = { 0 };
  float               k[2 * 32 + 1];
  bool                ok = false;
  int                 n;

  if (! clfx_ref_block_load (src, s, bp->block == B_SEPCONV ? &halo : &whole,
                             &img, error))
    return false;
  switch (bp->block)
    {
    case B_SEPCONV:
      n = taps (bp, k);
      if (! clfx_ref_sepconv (&img, src->width, src->height, k, n, k, n, &out,
                              error))
        goto out;
      clfx_ref_block_store (&out, 0, 0, dst, plan->premultiply, encode);
      break;
    case B_REDUCE:
      if (! reduce_probes (probes, &img,
                           encode && ! (plan->srgb_tables
                                        && src->depth == CLFX_DEPTH_U8)))
        goto nomem;
      clfx_ref_block_store (&img, 0, 0, dst, plan->premultiply, encode);
      break;
    case B_HISTOGRAM:
      {
        double *counts = calloc ((size_t) bp->bins, sizeof *counts);
        double  ambiguous;
        bool    added;
        if (! counts)
          goto nomem;
        clfx_ref_histogram (&img, bp->channel, 0.0f, 1.0f, bp->bins, counts,
                            &ambiguous);
        added = ! probes
                || clfx_probes_add (probes, "histogram", counts, bp->bins,
                                    true, ambiguous, 0,
                                    "values within 4 ulp of a bin edge may "
                                    "fall either side");
        free (counts);
        if (! added)
          goto nomem;
        clfx_ref_block_store (&img, 0, 0, dst, plan->premultiply, encode);
      }
      break;
    default:
      if (! clfx_ref_pyramid_down (&img, &half, error)
          || ! clfx_ref_pyramid_up (&half, src->width, src->height, &out,
                                    error))
        goto out;
      clfx_ref_block_store (&out, 0, 0, dst, plan->premultiply, encode);
      break;
    }
  ok = true;
  goto out;
nomem:
  clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory for probes");
out:
  clfx_host_image_free (&img);
  clfx_host_image_free (&out);
  clfx_host_image_free (&half);
  return ok;
}

static void
blocks_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                  const ClfxDeviceInfo *dev, const ClfxImage *src,
                  const ClfxImage *dst, ClfxTolerance *tol)
{
  const BlocksParams *bp = CLFX_PARAMS_OF (p, BlocksParams);
  double              max_abs = 0;
  float               k[2 * 32 + 1];
  int                 n = taps (bp, k);

  (void) dev;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      for (int c = 0; c < src->channels; c++)
        max_abs = fmax (max_abs, fabs (clfx_image_get_linear (src, x, y, c)));
  clfx_tol_init (tol);
  clfx_tol_read (tol, max_abs);
  if (bp->block == B_SEPCONV)
    clfx_tol_sum (tol, "separable passes", 2 * n, 1.0, max_abs);
  if (bp->block == B_PYRAMID)
    clfx_tol_sum (tol, "pyramid: two 4-tap blends (weights 1/2, 1/4, 3/4 "
                  "exact in the sampler's 8 fractional bits)", 8, 1.0,
                  max_abs);
  if (plan->decode)
    clfx_tol_srgb (tol, dst->depth, plan->srgb_tables);
  clfx_tol_store (tol, dst->depth, false);
}

static const char *const uses_sepconv[] = { "block", "radius", NULL };
static const char *const uses_plain[] = { "block", NULL };
static const char *const uses_histogram[] = { "block", "bins", "channel",
                                              NULL };

#define VARIANT(id, blurb, uses)                                             \
  { id, BLOCKS, blurb, uses, blocks_plan, NULL, blocks_cl, blocks_cpu,       \
    blocks_tolerance, NULL, NULL, NULL, { NULL, NULL, NULL, NULL }, NULL,    \
    NULL }
static const ClfxVariant v_sepconv
  = VARIANT ("sepconv", "Separable convolution (a Gaussian)", uses_sepconv);
static const ClfxVariant v_reduce
  = VARIANT ("reduce", "Sum, min, max, log sum (probes)", uses_plain);
static const ClfxVariant v_histogram
  = VARIANT ("histogram", "Histogram of one channel (a probe)",
             uses_histogram);
static const ClfxVariant v_pyramid
  = VARIANT ("pyramid", "Pyramid down then up through the sampler",
             uses_plain);
#undef VARIANT

static const ClfxVariant *const block_variants[] = {
  &v_sepconv, &v_reduce, &v_histogram, &v_pyramid
};
static const ClfxChoice block_choices[] = {
  { "sepconv", "Separable convolution" },
  { "reduce", "Reduction" },
  { "histogram", "Histogram" },
  { "pyramid", "Pyramid" },
  { NULL, NULL }
};
static const ClfxParamGroup block_groups[] = { { "block", "Block" } };

#define B BlocksParams
static const ClfxParamSpec block_params[] = {
  CLFX_PARAM_CHOICE_ROW (B, block, "block", "_Block", "Which block",
                         block_choices, B_SEPCONV, 0),
  CLFX_PARAM_INT_ROW (B, radius, "radius", "_Radius",
                      "Convolution radius (sigma is half of it)", 1, 32, 3,
                      1, 32, CLFX_UNIT_DISTANCE, 0),
  CLFX_PARAM_INT_ROW (B, bins, "bins", "_Bins", "Histogram bins over [0, 1)",
                      2, 4096, 64, 2, 256, CLFX_UNIT_NONE, 0),
  CLFX_PARAM_INT_ROW (B, channel, "channel", "_Channel",
                      "Histogram channel (0 red or gray, 3 alpha)", 0, 3, 0,
                      0, 3, CLFX_UNIT_NONE, 0),
};
#undef B
_Static_assert (sizeof (BlocksParams) <= CLFX_PARAMS_BYTES,
                "BlocksParams fits ClfxParams");

const ClfxFamily clfx_family_blocks = {
  "blocks",
  NULL,
  NULL,
  NULL,
  "The shared building blocks, each against its CPU reference",
  NULL,
  NULL,
  CLFX_APPLY_SHADOW,
  block_params,
  (int) (sizeof block_params / sizeof block_params[0]),
  block_groups,
  1,
  sizeof (BlocksParams),
  0,
  block_variants,
  4,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
};
