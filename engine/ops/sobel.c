/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sobel.c: the filter family's sobel variant, gegl:edge-sobel of GEGL
 * 0.4.62 (docs/FILTERS.md), centred on the pixel (GEGL's is not), per
 * colour channel on straight colour in linear light (GEGL's RGBA float:
 * alpha does not weigh the colour), alpha the centre pixel's.  A 3 x 3
 * stencil (kernels/sobel.cl); edge handling none is refused: a
 * difference's weights cannot be renormalised.
 *
 * The CPU reference: GEGL's sums in double.  Finite texels give a finite
 * result: past float's range it is clamped to +-FLT_MAX, and the kernels
 * sum the texels again scaled where their float sums overflow. */
#include <math.h>
#include <stdlib.h>

#include "../../kernels/clfx-common.h"
#include "../../kernels/sobel-shapes.h"
#include "../clfx-tolerance.h"
#include "clfx-params.h"
#include "filter-common.h"
#include "sobel.h"

typedef struct
{
  int mode; /* bit 0 horizontal, 1 vertical, 2 keep-sign */
} State;

static bool
sobel_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
            ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  State                  *st;

  if (fp->addressing == CLFX_ADDR_NONE)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "sobel takes differences, whose weights cannot "
                           "be renormalised: edge handling none (outside "
                           "taps left out) is for the blurs; use "
                           "clamp-to-edge, clamp, repeat or "
                           "mirrored-repeat");
  if (! (st = calloc (1, sizeof *st)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = st;
  plan->free_state = free;
  st->mode = (fp->sobel.horizontal ? 1 : 0) | (fp->sobel.vertical ? 2 : 0)
             | (fp->sobel.keep_sign ? 4 : 0);
  if (! clfx_filter_nearest_ok (fp->sampler_filter, "sobel", error))
    return false;
  plan->width = src->width;
  plan->height = src->height;
  plan->addressing = fp->addressing;
  plan->mixes = true;
  /* GEGL's edge-sobel works on straight RGBA. */
  plan->straight = true;
  plan->premultiply = false;
  plan->decode = clfx_plan_decodes (true, src);
  plan->halo[0] = plan->halo[1] = plan->halo[2] = plan->halo[3] = 1;
  /* The memory the blurs plan with, for their 3 x 3 taps (the stencil
   * itself keeps no intermediates). */
  plan->bytes_per_pixel = 16 * 4;
  plan->bytes_fixed = sizeof (float) * 6;
  return true;
}

static size_t
round_up (size_t n, size_t m)
{
  return (n + m - 1) / m * m;
}

static bool
sobel_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const State    *st = clfx_graph_plan (g)->state;
  const ClfxTile *t = clfx_graph_tile (g);
  size_t          w = (size_t) t->out.width, h = (size_t) t->out.height;
  /* GPUs through a local tile of results; CPU devices read their buffers
   * directly. */
  bool            local = ! clfx_graph_source_is_buffer (g)
                          && clfx_graph_device (g)->max_work_group >= 256;
  ClfxLaunch      l = { local ? "filter_sobel_l" : "filter_sobel", NULL,
                        NULL, 2,
                        { local ? round_up (w, SOBEL_W) : w,
                          local ? round_up (h, SOBEL_R * SOBEL_Q) / SOBEL_Q
                                : h },
                        { local ? SOBEL_W : 0, local ? SOBEL_R : 0 } };

  (void) p;
  return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_DST, CLFX_INT (st->mode));
}

/* GEGL's Sobel in double, centred. */
static bool
sobel_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
           ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const State    *st = plan->state;
  ClfxSamplerDesc s = { true, plan->addressing, false, plan->premultiply,
                        plan->decode };
  int             colour = src->channels == 4 ? 3 : 1, mode = st->mode;

  (void) p;
  (void) probes;
  (void) error;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        float  px[3][3][4], out[4];
        for (int j = 0; j < 3; j++)
          for (int i = 0; i < 3; i++)
            clfx_ref_fetch (src, s, x + i - 1, y + j - 1, px[j][i]);
        for (int c = 0; c < colour; c++)
          {
            double h = 0.0, v = 0.0, g;
            if (mode & 1)
              h = -(double) px[0][0][c] + px[0][2][c] - 2.0 * px[1][0][c]
                  + 2.0 * px[1][2][c] - px[2][0][c] + px[2][2][c];
            if (mode & 2)
              v = (double) px[0][0][c] + 2.0 * px[0][1][c] + px[0][2][c]
                  - px[2][0][c] - 2.0 * px[2][1][c] - px[2][2][c];
            if ((mode & 3) == 3)
              g = sqrt (h * h + v * v) / sqrt (32.0);
            else if (mode & 4)
              g = 0.5 + (h + v) / 8.0;
            else
              g = fabs (h + v) / 4.0;
            out[c] = clfx_filter_ref_float (g);
          }
        for (int c = colour; c < 4; c++)
          out[c] = px[1][1][c];
        clfx_ref_store (dst, x, y, out, false, plan->decode);
      }
  return true;
}

static void
sobel_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                 const ClfxDeviceInfo *dev, const ClfxImage *src,
                 const ClfxImage *dst, ClfxTolerance *tol)
{
  double max_abs = clfx_filter_max_abs (src, NULL);

  (void) p;
  (void) dev;
  clfx_tol_init (tol);
  /* A result reads its 3 x 3 window only. */
  clfx_tol_magnitude (tol, max_abs, 2.0 * max_abs);
  clfx_tol_read (tol, max_abs);
  /* Two 6-term sums of weights up to 2 (sum |w| 8), scaled by at most
   * 1/4, and hypot (OpenCL C: 4 ulp) of up to twice the range, or in
   * float's normal range the square root of the squares' sum: the
   * squares and their sum 1.5 ulp, halved by the root, plus the root's
   * own 3 ulp (OpenCL C), under the same 4. */
  clfx_tol_sum (tol, "Sobel: two 6-term sums, then the scale", 13,
                8.0 / 4.0, max_abs);
  clfx_tol_builtin (tol, "hypot, or the root of the squares' sum", 4.0,
                    2.0 * max_abs);
  if (plan->decode)
    clfx_tol_srgb (tol, dst->depth, plan->srgb_tables);
  clfx_tol_store (tol, dst->depth, false);
}

static const char *const uses_sobel[] = { "filter", "horizontal", "vertical",
                                          "keep-sign", "addressing", NULL };

const ClfxVariant clfx_variant_sobel
  = { "sobel", "sobel", CLFX_N_ ("Sobel edges (GEGL's edge-sobel, centred)"),
      uses_sobel, sobel_plan, NULL, sobel_cl, sobel_cpu, sobel_tolerance,
      NULL, clfx_filter_describe, NULL, CLFX_SOBEL_PLACE, NULL, NULL };
