/* SPDX-License-Identifier: GPL-3.0-or-later */
/* convolve.c: the filter family's convolve variant, GIMP's Convolution
 * Matrix (gegl:convolution-matrix of GEGL 0.4.62; docs/FILTERS.md).
 *
 * The matrix is text: 9, 25 or 49 numbers (3x3, 5x5, 7x7), row by row,
 * applied as a correlation (not flipped): the number in row r, column c
 * weighs the pixel c - n/2 across and r - n/2 down.  GEGL's rules, on
 * straight colour in linear light (its "RGBA float"):
 *   out = sum k v / divisor + offset, alpha included;
 *   normalize: divisor = sum k and offset 0; a negative sum divides by
 *     -sum k with offset 1, a zero sum by 1 with offset 0.5;
 *   alpha-weight: colour sums k c a (not divided by alpha afterwards),
 *     alpha = sum k a / divisor * sum |k| / sum |k a| + offset (offset
 *     alone where sum |k a| is 0);
 *   a divisor of 0 copies the input (GEGL tests the divisor argument, so
 *     also with normalize on).
 * Rings of zeros around the matrix are dropped (GEGL drops the outer ring
 * of a 5x5 matrix): the same sums, a smaller halo.
 *
 * Finite texels give a finite result: the matrix's numbers must be
 * finite in float (refused otherwise), a result past float's range is
 * clamped to +-FLT_MAX, and the kernels make a result whose float sums
 * overflowed again, scaled (kernels/convolve.cl, conv_rescaled).
 *
 * The CPU reference is a direct sum in double over the window fetched
 * through the sampler reference. */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/clfx-common.h"
#include "../../kernels/convolve-shapes.h"
#include "../clfx-sampler-ref.h"
#include "../clfx-tolerance.h"
#include "clfx-params.h"
#include "convolve.h"
#include "filter-common.h"

#define MAX_N 7

typedef struct
{
  int   n;            /* the matrix's side after dropping zero rings */
  float k[MAX_N * MAX_N]; /* row-major, as GEGL keeps it: float */
  float inv_divisor;  /* GEGL's: 1.0 / divisor, as float */
  float offset;
  float abs_sum;      /* sum |k| (GEGL's matrixsum) */
  float abs_rows[2];  /* sum |k| of the even and of the odd rows, in the
                       * kernels' order: their sum |k a| for an opaque
                       * window */
  bool  alpha_weight;
  bool  copy;         /* divisor 0 */
  /* For the kernels' sums made again where they overflowed
   * (conv_rescaled): the exponent of the largest |k| and of the
   * divisor's inverse, the inverse's mantissa, sum |k| scaled as k. */
  int   k_exp, inv_exp;
  float inv_mant, abs_sum_scaled;
} State;

/* Parses the matrix text into m (row-major) and its side; the error names
 * the offending text. */
static bool
parse_matrix (const char *text, double *m, int *side, ClfxError *error)
{
  const char *s = text;
  int         count = 0;

  for (;;)
    {
      char  *end;
      double v;
      while (*s && (isspace ((unsigned char) *s) || *s == ',' || *s == ';'))
        s++;
      if (! *s)
        break;
      v = clfx_strtod (s, &end);
      if (end == s)
        {
          int len = 0;
          while (s[len] && ! isspace ((unsigned char) s[len])
                 && s[len] != ',' && s[len] != ';' && len < 20)
            len++;
          return clfx_error_set (error, CLFX_ERR_INVALID,
                                 "matrix: \"%.*s\" (value %d) is not a "
                                 "number",
                                 len, s, count + 1);
        }
      if (! isfinite (v))
        return clfx_error_set (error, CLFX_ERR_INVALID,
                               "matrix: value %d is not finite",
                               count + 1);
      if (count == MAX_N * MAX_N)
        return clfx_error_set (error, CLFX_ERR_INVALID,
                               "matrix: more than %d values; a matrix has "
                               "9 (3x3), 25 (5x5) or 49 (7x7), row by row",
                               MAX_N * MAX_N);
      m[count++] = v;
      s = end;
    }
  if (count != 9 && count != 25 && count != 49)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "matrix: %d values; a matrix has 9 (3x3), 25 "
                           "(5x5) or 49 (7x7), row by row",
                           count);
  *side = count == 9 ? 3 : count == 25 ? 5 : 7;
  return true;
}

static void
state_free (void *data)
{
  free (data);
}

/* The matrix's numbers as the kernels hold them (float, as GEGL's) must
 * be finite for a result of finite texels to be: each value, sum |k|
 * and the divisor's inverse; refused, naming which, where they are not.
 * Then the exponents conv_rescaled scales by. */
static bool
finite_arithmetic (State *st, const double *m, int side, int cut,
                   bool normalize, ClfxError *error)
{
  float top = 0.0f;
  int   e;

  for (int r = 0; r < st->n; r++)
    for (int c = 0; c < st->n; c++)
      if (! isfinite (st->k[r * st->n + c]))
        return clfx_error_set (error, CLFX_ERR_INVALID,
                               "matrix: value %d (%g) is beyond float's "
                               "range (%g), in which the matrix is applied",
                               (r + cut) * side + c + cut + 1,
                               m[(r + cut) * side + c + cut], FLT_MAX);
  if (! isfinite (st->abs_sum))
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "matrix: the sum of its values' magnitudes is "
                           "beyond float's range (%g)", FLT_MAX);
  if (! st->copy && ! isfinite (st->inv_divisor))
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           normalize ? "matrix: its sum is too close to 0 "
                                       "to divide by in float (normalize)"
                                     : "divisor: too close to 0 to divide "
                                       "by in float");
  for (int i = 0; i < st->n * st->n; i++)
    top = fmaxf (top, fabsf (st->k[i]));
  /* 2^k_exp just above the largest |k|, so that k 2^-k_exp < 1. */
  st->k_exp = 0;
  if (top > 0.0f)
    frexpf (top, &st->k_exp);
  st->inv_mant = frexpf (st->inv_divisor, &e);
  st->inv_exp = e;
  st->abs_sum_scaled = 0.0f;
  for (int i = 0; i < st->n * st->n; i++)
    st->abs_sum_scaled += fabsf (ldexpf (st->k[i], -st->k_exp));
  return true;
}

static bool
convolve_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
               ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  double                  m[MAX_N * MAX_N];
  int                     side = 0, cut = 0;
  float                   divisor = (float) fp->convolve.divisor;
  float                   offset = (float) fp->convolve.offset;
  State                  *st;

  if (! clfx_filter_edges_ok (fp->addressing, "convolve", error))
    return false;
  if (! clfx_filter_nearest_ok (fp->sampler_filter, "convolve", error))
    return false;
  if (! parse_matrix (fp->convolve.matrix, m, &side, error))
    return false;
  /* Zero rings: the sums stay the same without them. */
  for (;;)
    {
      int  a = cut, b = side - 1 - cut;
      bool zero = b > a;
      for (int i = a; zero && i <= b; i++)
        zero = m[a * side + i] == 0.0 && m[b * side + i] == 0.0
               && m[i * side + a] == 0.0 && m[i * side + b] == 0.0;
      if (! zero)
        break;
      cut++;
    }
  if (! (st = calloc (1, sizeof *st)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = st;
  plan->free_state = state_free;
  st->n = side - 2 * cut;
  for (int r = 0; r < st->n; r++)
    for (int c = 0; c < st->n; c++)
      st->k[r * st->n + c] = (float) m[(r + cut) * side + c + cut];
  if (fp->convolve.normalize)
    {
      /* GEGL's normalisation, its float sum. */
      float sum = 0.0f;
      for (int i = 0; i < st->n * st->n; i++)
        sum += st->k[i];
      divisor = sum > 0.0f ? sum : sum < 0.0f ? -sum : 1.0f;
      offset = sum > 0.0f ? 0.0f : sum < 0.0f ? 1.0f : 0.5f;
    }
  st->inv_divisor = (float) (1.0 / (double) divisor);
  st->offset = offset;
  for (int i = 0; i < st->n * st->n; i++)
    {
      st->abs_sum += fabsf (st->k[i]);
      st->abs_rows[i / st->n % 2] += fabsf (st->k[i]);
    }
  st->alpha_weight = fp->convolve.alpha_weight;
  st->copy = fp->convolve.divisor == 0.0;
  if (! finite_arithmetic (st, m, side, cut, fp->convolve.normalize, error))
    return false;
  plan->width = src->width;
  plan->height = src->height;
  plan->addressing = fp->addressing;
  plan->mixes = true;
  plan->straight = true;
  plan->premultiply = false;
  plan->decode = clfx_plan_decodes (true, src);
  for (int i = 0; i < 4; i++)
    plan->halo[i] = st->n / 2;
  plan->bytes_per_pixel = 0;
  plan->bytes_fixed = sizeof st->k;
  return true;
}

static size_t
round_up (size_t n, size_t m)
{
  return (n + m - 1) / m * m;
}

static bool
convolve_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const State    *st = clfx_graph_plan (g)->state;
  const ClfxTile *t = clfx_graph_tile (g);
  size_t          w = (size_t) t->out.width, h = (size_t) t->out.height;
  /* GPUs through local memory (CONV_T x CONV_T groups); CPU devices (and
   * any device reading a buffer) CONV_V results of a row per work-item,
   * straight from the source. */
  bool            local = ! clfx_graph_source_is_buffer (g)
                          && clfx_graph_device (g)->max_work_group >= 256;
  cl_float4       par = { { st->inv_divisor, st->offset, st->abs_sum,
                            st->abs_rows[0] + st->abs_rows[1] } };
  cl_float4       scaled = { { st->inv_mant, st->abs_sum_scaled, 0.0f,
                               0.0f } };
  cl_int2         exps = { { st->k_exp, st->inv_exp } };
  cl_mem          k;
  ClfxLaunch      l = { local ? "convolve_l" : "convolve_v",
                        NULL,
                        NULL,
                        2,
                        { local ? round_up (w, CONV_T)
                                : (w + CONV_V - 1) / CONV_V,
                          local ? round_up (h, CONV_T) : h },
                        { local ? CONV_T : 0, local ? CONV_T : 0 } };

  (void) p;
  return (k = clfx_graph_table (g, "matrix", st->k,
                                sizeof (float) * (size_t) (st->n * st->n),
                                error))
         && CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_DST, CLFX_ARG (k),
                         CLFX_INT (st->n), CLFX_ARG (par),
                         CLFX_ARG (scaled), CLFX_ARG (exps),
                         CLFX_INT (st->alpha_weight), CLFX_INT (st->copy));
}

/* GEGL's arithmetic in double, on the canonical texels turned RGBA. */
static bool
convolve_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
              ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const State    *st = plan->state;
  ClfxSamplerDesc s = { true, plan->addressing, false, false, plan->decode };
  int             n = st->n, h0 = n / 2;
  int             ai = src->channels == 4 ? 3 : src->channels == 2 ? 1 : -1;

  (void) p;
  (void) probes;
  (void) error;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double sum[4] = { 0, 0, 0, 0 }, asum = 0.0;
        float  v[4], out[4] = { 0, 0, 0, 1 };
        for (int r = 0; r < n; r++)
          for (int c = 0; c < n; c++)
            {
              double k = st->copy ? (r == h0 && c == h0) : st->k[r * n + c];
              double a;
              clfx_ref_fetch (src, s, x - h0 + c, y - h0 + r, v);
              a = ai < 0 ? 1.0 : v[ai];
              for (int ch = 0; ch < 3; ch++)
                sum[ch] += k * v[ch == 0 || ai != 3 ? 0 : ch]
                           * (st->alpha_weight && ! st->copy ? a : 1.0);
              sum[3] += k * a;
              asum += fabs (k * a);
            }
        if (! st->copy)
          {
            for (int ch = 0; ch < 3; ch++)
              sum[ch] = sum[ch] * st->inv_divisor + st->offset;
            if (! st->alpha_weight)
              sum[3] = sum[3] * st->inv_divisor + st->offset;
            else
              sum[3] = asum > 0.0 ? sum[3] * st->inv_divisor * st->abs_sum
                                      / asum
                                      + st->offset
                                  : st->offset;
          }
        /* Back to the canonical layout. */
        out[0] = clfx_filter_ref_float (sum[0]);
        if (ai == 3)
          for (int ch = 1; ch < 4; ch++)
            out[ch] = clfx_filter_ref_float (sum[ch]);
        else if (ai == 1)
          out[1] = clfx_filter_ref_float (sum[3]);
        clfx_ref_store (dst, x, y, out, false, plan->decode);
      }
  return true;
}

static void
convolve_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                    const ClfxDeviceInfo *dev, const ClfxImage *src,
                    const ClfxImage *dst, ClfxTolerance *tol)
{
  const State *st = plan->state;
  double       max_abs = clfx_filter_max_abs (src, NULL);
  double       gain = (double) st->abs_sum * fabs ((double) st->inv_divisor);

  (void) p;
  (void) dev;
  clfx_tol_init (tol);
  clfx_tol_magnitude (tol, max_abs, 2.0 * max_abs);
  clfx_tol_read (tol, max_abs);
  if (st->copy)
    clfx_tol_clause (tol, "divisor 0: a copy");
  else
    /* n^2 products (two roundings each with alpha weighting) summed in
     * float, then the divisor, the alpha ratio (two more roundings: sum
     * |k a| is at least the smallest alpha times sum |k| away from 0,
     * so the ratio's rounding stays relative) and the offset. */
    {
      /* Values of at least 1 count (alpha, the offset): the bound for
       * values up to max (max|v|, 1) is that for max|v| (which grows with
       * the window's values) plus that for 1 (which does not). */
      double w = gain + fabs ((double) st->offset);
      int    terms = st->n * st->n + 5;
      clfx_tol_sum (tol, "the window's float sum, the divisor, the offset",
                    terms, w, max_abs);
      tol->abs_tol += (double) terms * CLFX_FLOAT_EPS * w;
      clfx_tol_clause (tol, "the same for values up to 1");
    }
  if (plan->decode)
    clfx_tol_srgb (tol, dst->depth, plan->srgb_tables);
  clfx_tol_store (tol, dst->depth, false);
}

static const char *const uses_convolve[] = { "filter", "matrix", "divisor",
                                             "offset", "normalize",
                                             "alpha-weight", "addressing",
                                             NULL };

const ClfxVariant clfx_variant_convolve
  = { "convolve", "convolve",
      CLFX_N_ ("Convolution matrix (GIMP's Convolution Matrix: 3x3, 5x5 or "
               "7x7, not flipped)"),
      uses_convolve, convolve_plan, NULL, convolve_cl, convolve_cpu,
      convolve_tolerance, NULL, NULL, NULL, CLFX_CONVOLVE_PLACE,
      NULL, NULL };
