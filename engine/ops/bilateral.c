/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bilateral.c: the filter family's bilateral variant, GEGL 0.4.62's
 * bilateral-filter (docs/FILTERS.md, kernels/bilateral.cl).
 *
 * GEGL's op works in "RGBA float": linear light, straight alpha, so the
 * plan decodes sRGB and does not premultiply.  Over the square window of
 * side 2 floor (r) + 1 centred on the pixel (r = blur-radius; below 1 the
 * window is the pixel itself, a copy), each texel weighs
 * exp (-(du^2 + dv^2) / 2r) exp (-|dRGB|^2 p) (p = edge-preservation;
 * the difference to the centre over straight R, G, B, alpha aside; gray
 * as GEGL's RGBA conversion makes it, R = G = B, so 3 dY^2), and the
 * result is the weighted mean of all four channels.
 *
 * Departures: GEGL's CPU path centres the window one pixel up and left
 * when r has a fraction (its window starts at ceil (r), its centre at
 * floor (r)); clfx centres it on the pixel.  GEGL reads outside the image
 * as transparent black (abyss none), clfx as `addressing` says (clamp is
 * GEGL's none).  Non-finite texels: a neighbour with a NaN or infinity
 * weighs 0, a non-finite centre passes through.  Finite texels give a
 * finite result (sums that overflow are made again scaled, in the
 * kernels; the reference's double does not overflow).
 *
 * A window wider than the image along an axis reads its texels many
 * times over; the kernels then sum it folded (kernels/bilateral.cl:
 * each texel once per way the addressing reaches it, with the summed
 * spatial weights of its taps), from the per-axis tables of
 * clfx_filter_fold.
 *
 * The CPU reference sums the window directly in double with exp in
 * double, independent of the device's float tables; a window wider than
 * the image it groups tap by tap on the texel each reads (ref_fold), so
 * that its cost too is bounded by the image. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/bilateral-shapes.h"
#include "../../kernels/clfx-common.h"
#include "../clfx-tolerance.h"
#include "../clfx-sampler-ref.h"
#include "clfx-params.h"
#include "bilateral.h"
#include "filter-common.h"


typedef struct
{
  int      R;      /* floor (blur-radius); 0 below 1 (a copy) */
  double   r;      /* blur-radius */
  double   p;      /* edge-preservation */
  float   *ws;     /* 2 R + 1 spatial weights per axis, float */
  bool     none;   /* edge handling none: outside taps left out */
  int      mode;   /* the edge handling, CLFX_ADDR_* */
  /* The window is wider than the image along an axis (2 R + 1 above its
   * side): the kernels sum it folded, from these tables. */
  bool     folded;
  ClfxFold fx, fy;
} State;

static void
state_free (void *data)
{
  State *st = data;

  free (st->ws);
  clfx_filter_fold_clear (&st->fx);
  clfx_filter_fold_clear (&st->fy);
  free (st);
}

static bool
bilateral_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
                ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  State                  *st;
  int                     n;

  if (! clfx_filter_nearest_ok (fp->sampler_filter, "bilateral", error))
    return false;
  if (! (st = calloc (1, sizeof *st)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = st;
  plan->free_state = state_free;
  st->r = fp->bilateral.blur_radius;
  st->p = fp->bilateral.edge_preservation;
  st->R = st->r < 1.0 ? 0 : (int) floor (st->r);
  n = 2 * st->R + 1;
  if (! (st->ws = malloc ((size_t) n * sizeof *st->ws)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  /* GEGL's spatial weight in double, rounded to float as GEGL stores it
   * (one axis: the window's weight is the product of two). */
  for (int k = 0; k < n; k++)
    {
      double d = (double) (k - st->R);
      st->ws[k] = st->R ? (float) exp (-0.5 * d * d / st->r) : 1.0f;
    }
  plan->width = src->width;
  plan->height = src->height;
  /* none: the kernels leave the outside taps out themselves (they read
   * them as NaN, which weighs nothing); the texels fetched there are
   * never used. */
  st->none = fp->addressing == CLFX_ADDR_NONE;
  st->mode = fp->addressing;
  plan->addressing = st->none ? CLFX_ADDR_CLAMP_TO_EDGE : fp->addressing;
  plan->mixes = true;
  plan->straight = true;
  plan->premultiply = false;
  plan->decode = clfx_plan_decodes (true, src);
  plan->halo[0] = plan->halo[1] = plan->halo[2] = plan->halo[3] = st->R;
  /* No intermediates: the kernel reads the source and stores the result. */
  plan->bytes_per_pixel = 0;
  plan->bytes_fixed = sizeof (float) * (size_t) n;
  st->folded = n > src->width || n > src->height;
  if (st->folded)
    {
      if (! clfx_filter_fold (&st->fx, st->ws, n, src->width, st->mode,
                              error)
          || ! clfx_filter_fold (&st->fy, st->ws, n, src->height, st->mode,
                                 error))
        return false;
      plan->halo[0] = plan->halo[2] = clfx_filter_fold_halo (n, src->width);
      plan->halo[1] = plan->halo[3] = clfx_filter_fold_halo (n,
                                                             src->height);
      plan->bytes_fixed += 2 * sizeof (float) * (size_t) n
                           + (sizeof (cl_int2) + sizeof (cl_float4))
                               * (size_t) (src->width + src->height);
    }
  return true;
}

/* ---- OpenCL ---------------------------------------------------------------- */

/* A window wider than the image, folded (bilateral_f): a result per
 * work-item, on every device (its window holds at most the image's
 * texels, twice over across a mirror). */
static bool
bilateral_folded_cl (ClfxGraph *g, ClfxError *error)
{
  const State    *st = clfx_graph_plan (g)->state;
  const ClfxTile *t = clfx_graph_tile (g);
  size_t          m = (size_t) (2 * st->R + 1);
  ClfxLaunch      l = { "bilateral_f", NULL, NULL, 2,
                        { (size_t) t->out.width, (size_t) t->out.height },
                        { 0, 0 } };
  cl_mem          tx, ty, rx, ry, ex, ey;

  return (tx = clfx_graph_table (g, "fold weights x", st->fx.tab,
                                 m * sizeof (float), error))
         && (ty = clfx_graph_table (g, "fold weights y", st->fy.tab,
                                    m * sizeof (float), error))
         && (rx = clfx_graph_table (g, "fold ranges x", st->fx.range,
                                    (size_t) st->fx.side * sizeof (cl_int2),
                                    error))
         && (ry = clfx_graph_table (g, "fold ranges y", st->fy.range,
                                    (size_t) st->fy.side * sizeof (cl_int2),
                                    error))
         && (ex = clfx_graph_table (g, "fold edges x", st->fx.edge,
                                    (size_t) st->fx.side
                                      * sizeof (cl_float4),
                                    error))
         && (ey = clfx_graph_table (g, "fold edges y", st->fy.edge,
                                    (size_t) st->fy.side
                                      * sizeof (cl_float4),
                                    error))
         && CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_DST, CLFX_ARG (tx),
                         CLFX_ARG (ty), CLFX_ARG (rx), CLFX_ARG (ry),
                         CLFX_ARG (ex), CLFX_ARG (ey), CLFX_INT (st->R),
                         CLFX_FLOAT ((float) st->p), CLFX_INT (st->none),
                         CLFX_INT (st->mode == CLFX_ADDR_CLAMP));
}

static bool
bilateral_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const State          *st = clfx_graph_plan (g)->state;
  const ClfxTile       *t = clfx_graph_tile (g);
  const ClfxDeviceInfo *dev = clfx_graph_device (g);
  size_t                w = (size_t) t->out.width, h = (size_t) t->out.height;
  size_t                span = (size_t) (BIL_T + 2 * st->R);
  size_t                lbytes = span * span * 16;
  /* GPUs: the group's texels through local memory where they fit (radius
   * up to 19 in 48 KiB); CPU devices, and larger windows, read the source
   * directly (there a tap costs its own read whatever the form). */
  bool                  local = ! clfx_graph_source_is_buffer (g)
                                && lbytes + 1024 <= dev->local_mem
                                && dev->max_work_group >= BIL_T * BIL_T;
  /* CPU devices up to radius BIL_VR: BIL_V results per work-item. */
  bool                  lanes = ! local && st->R <= BIL_VR
                                && ! strcmp (dev->type, "cpu");
  ClfxLaunch            l = { local   ? "bilateral_l"
                              : lanes ? "bilateral_v"
                                      : "bilateral_d",
                              NULL,
                              NULL,
                              2,
                              { local   ? (w + BIL_T - 1) / BIL_T * BIL_T
                                : lanes ? (w + BIL_V - 1) / BIL_V
                                        : w,
                                local ? (h + BIL_T - 1) / BIL_T * BIL_T : h },
                              { local ? BIL_T : 0, local ? BIL_T : 0 } };
  cl_mem                ws;

  (void) p;
  if (st->folded)
    return bilateral_folded_cl (g, error);
  if (! (ws = clfx_graph_table (g, "spatial weights", st->ws,
                                sizeof (float) * (size_t) (2 * st->R + 1),
                                error)))
    return false;
  if (local)
    return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_DST, CLFX_ARG (ws),
                        CLFX_INT (st->R), CLFX_FLOAT ((float) st->p),
                        CLFX_LOCAL (lbytes), CLFX_INT (st->none));
  return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_DST, CLFX_ARG (ws),
                      CLFX_INT (st->R), CLFX_FLOAT ((float) st->p),
                      CLFX_INT (st->none));
}

/* ---- CPU reference ------------------------------------------------------------ */

static bool
finite4 (const float v[4])
{
  return isfinite (v[0]) && isfinite (v[1]) && isfinite (v[2])
         && isfinite (v[3]);
}

/* One tap of the reference: texel t with spatial weight ws into num and
 * den (a texel that is not finite weighs nothing). */
static void
ref_tap (const State *st, bool gray, const float c[4], const float t[4],
         double ws, double num[4], double *den)
{
  double d2 = 0.0, wgt = ws;

  if (! finite4 (t))
    return;
  for (int k = 0; k < (gray ? 1 : 3); k++)
    d2 += ((double) t[k] - c[k]) * ((double) t[k] - c[k]);
  if (gray)
    d2 *= 3.0;
  if (st->p > 0.0)
    wgt *= exp (-d2 * st->p);
  for (int k = 0; k < 4; k++)
    num[k] += wgt * t[k];
  *den += wgt;
}

/* A window wider than the image, its taps along one axis grouped by the
 * texel each reads: for position x of n, the texel indices (-1: clamp's
 * transparent texel outside) into idx and the sums of their taps'
 * spatial weights exp (-u^2 / 2r) into w; their number.  slot (n + 1
 * entries, -1) finds a texel's group and is left as it was found. */
static int
ref_fold (const State *st, int x, int n, int *slot, int *idx, double *w)
{
  int count = 0;

  for (int u = -st->R; u <= st->R; u++)
    {
      int i, k;

      if (st->none && (x + u < 0 || x + u >= n))
        continue;
      i = clfx_address (x + u, n, st->mode);
      if ((k = slot[i + 1]) < 0)
        {
          k = slot[i + 1] = count++;
          idx[k] = i;
          w[k] = 0.0;
        }
      w[k] += exp (-0.5 * (double) u * u / st->r);
    }
  for (int k = 0; k < count; k++)
    slot[idx[k] + 1] = -1;
  return count;
}

/* The reference's folded sums for (x, y) with centre c: each texel the
 * window reads once, with the product of its two axes' summed weights. */
static void
ref_folded (const State *st, const ClfxImage *src, ClfxSamplerDesc s,
            bool gray, int x, int y, const float c[4], int *slots,
            int *idx, double *w, double num[4], double *den)
{
  int    *sx = slots, *sy = slots + src->width + 1;
  int     m = 2 * st->R + 1;
  int    *ix = idx, *iy = idx + m;
  double *wx = w, *wy = w + m;
  int     nx = ref_fold (st, x, src->width, sx, ix, wx);
  int     ny = ref_fold (st, y, src->height, sy, iy, wy);
  float   t[4];

  for (int l = 0; l < ny; l++)
    for (int k = 0; k < nx; k++)
      {
        /* Outside: what a tap there reads (clamp's border colour). */
        clfx_ref_fetch (src, s, ix[k] < 0 || iy[l] < 0 ? -1 : ix[k],
                        ix[k] < 0 || iy[l] < 0 ? -1 : iy[l], t);
        ref_tap (st, gray, c, t, wx[k] * wy[l], num, den);
      }
}

static bool
bilateral_cpu (const ClfxParams *p, const ClfxPlan *plan,
               const ClfxImage *src, ClfxImage *dst, ClfxProbes *probes,
               ClfxError *error)
{
  const State    *st = plan->state;
  ClfxSamplerDesc s = { true, plan->addressing, false, false, plan->decode };
  bool            gray = src->channels < 4;
  int             m = 2 * st->R + 1;
  int            *slots = NULL, *idx = NULL;
  double         *w = NULL;

  (void) p;
  (void) probes;
  if (st->folded
      && (! (slots = malloc ((size_t) (src->width + src->height + 2)
                             * sizeof *slots))
          || ! (idx = malloc (2 * (size_t) m * sizeof *idx))
          || ! (w = malloc (2 * (size_t) m * sizeof *w))))
    {
      free (slots);
      free (idx);
      return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
    }
  for (int i = 0; st->folded && i < src->width + src->height + 2; i++)
    slots[i] = -1;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        float  c[4], t[4], out[4];
        double num[4] = { 0.0, 0.0, 0.0, 0.0 }, den = 0.0;

        clfx_ref_fetch (src, s, x, y, c);
        if (! finite4 (c))
          {
            clfx_ref_store (dst, x, y, c, false, plan->decode);
            continue;
          }
        if (st->folded)
          ref_folded (st, src, s, gray, x, y, c, slots, idx, w, num, &den);
        else
          for (int v = -st->R; v <= st->R; v++)
            for (int u = -st->R; u <= st->R; u++)
              {
                if (st->none
                    && (x + u < 0 || y + v < 0 || x + u >= src->width
                        || y + v >= src->height))
                  continue;
                clfx_ref_fetch (src, s, x + u, y + v, t);
                ref_tap (st, gray, c, t,
                         st->R ? exp (-0.5 * (double) (u * u + v * v)
                                      / st->r)
                               : 1.0,
                         num, &den);
              }
        for (int k = 0; k < 4; k++)
          out[k] = clfx_filter_ref_float (num[k] / den);
        clfx_ref_store (dst, x, y, out, false, plan->decode);
      }
  free (slots);
  free (idx);
  free (w);
  return true;
}

/* ---- tolerance ---------------------------------------------------------------- */

/* With exact weights w_i and the device's w_i (1 + e_i), the normalised
 * sum moves by sum w_i e_i (t_i - out) / sum w_i (1 + e_i): at most
 * 2 max|t| sum |w_i e_i| (the centre's weight is exactly 1, so the
 * denominator is at least 1).  The weight's errors, relative: the float
 * table (0.5 u each axis), the products (0.5 u each), exp (3 ulp, 6 u);
 * and absolute, as the argument x = |d|^2 p carries a relative error of
 * about 4 u (d, squares, sum, times p, p as float): w x 4u <= s (4u / e)
 * (x e^-x <= 1/e), s the spatial weight; a texel read off by eta moves x
 * by up to 4 eta sqrt (3 p x), so w by s 4 eta sqrt (3p) sqrt (x) e^-x
 * <= s 2.97 eta sqrt (p).  Both are summed over the window's spatial
 * weights S = (sum ws)^2.  Then the texels' own error (eta beyond the read
 * conversion, where powr decodes), the two n-term float sums (numerator,
 * denominator) and the division. */
static void
bilateral_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                     const ClfxDeviceInfo *dev, const ClfxImage *src,
                     const ClfxImage *dst, ClfxTolerance *tol)
{
  const State *st = plan->state;
  double       max_abs = clfx_filter_max_abs (src, NULL), S = 0.0;
  double       eta, rel, abs_w;
  int          n = (2 * st->R + 1) * (2 * st->R + 1);
  /* Clamp's transparent texel outside, folded, weighs Ox (Iy + Oy) +
   * Ix Oy: three more roundings of its spatial weight. */
  double       rel_u = st->folded && st->mode == CLFX_ADDR_CLAMP ? 10.0 : 8.0;

  (void) p;
  (void) dev;
  /* Folded, a window has as many terms as its widest row of offsets
   * times its tallest column, and clamp's transparent texel. */
  if (st->folded)
    n = clfx_filter_fold_terms (&st->fx) * clfx_filter_fold_terms (&st->fy)
        + (st->mode == CLFX_ADDR_CLAMP);
  for (int k = 0; k <= 2 * st->R; k++)
    S += (double) st->ws[k];
  S *= S;
  /* The texels' read error that reaches the range weight: none for float
   * and half data read as they are, 1.5 ulp for the unorm conversion,
   * powr's 16 ulp where sRGB is decoded by the formula (8-bit data
   * through the exact tables: the unorm conversion's). */
  if (plan->decode && ! (plan->srgb_tables && src->depth == CLFX_DEPTH_U8))
    eta = 16.0;
  else if (src->depth == CLFX_DEPTH_U8 || src->depth == CLFX_DEPTH_U16)
    eta = 1.5;
  else
    eta = 0.0;
  eta *= 2.0 * CLFX_FLOAT_EPS * max_abs;
  rel = rel_u * CLFX_FLOAT_EPS;
  abs_w = S * (4.0 * CLFX_FLOAT_EPS / 2.718281828459045
               + 2.97 * eta * sqrt (st->p));
  clfx_tol_init (tol);
  /* Each term grows with the window's values (eta with them too: a
   * square of them scales by less than its first power). */
  clfx_tol_magnitude (tol, max_abs, 2.0 * max_abs);
  clfx_tol_read (tol, max_abs);
  clfx_tol_scaled (tol, 2.0 * max_abs * (rel + abs_w));
  clfx_tol_clause (tol, "weights: %g u relative (float tables, products, "
                   "exp 3 ulp) + S (4u/e + 2.97 eta sqrt p) absolute, S %.3g, "
                   "eta %.2g, times 2 max|v|",
                   rel_u, S, eta);
  if (plan->decode && ! (plan->srgb_tables && src->depth == CLFX_DEPTH_U8))
    {
      clfx_tol_scaled (tol, eta);
      clfx_tol_clause (tol, "texels decoded by powr: eta in the mean");
    }
  clfx_tol_sum (tol, "numerator and denominator", 2 * n + 1, 1.0, max_abs);
  if (plan->decode)
    clfx_tol_srgb (tol, dst->depth, plan->srgb_tables);
  clfx_tol_store (tol, dst->depth, false);
}

static const char *const uses_bilateral[] = { "filter", "blur-radius",
                                              "edge-preservation",
                                              "addressing", NULL };

const ClfxVariant clfx_variant_bilateral
  = { "bilateral",
      "bilateral",
      CLFX_N_ ("Bilateral filter (GEGL's bilateral-filter, centred)"),
      uses_bilateral,
      bilateral_plan,
      NULL,
      bilateral_cl,
      bilateral_cpu,
      bilateral_tolerance,
      NULL,
      NULL,
      NULL,
      CLFX_BILATERAL_PLACE,
      NULL,
      NULL };
