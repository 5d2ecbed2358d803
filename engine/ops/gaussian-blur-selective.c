/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gaussian-blur-selective.c: the filter family's gaussian-blur-selective
 * variant, gegl:gaussian-blur-selective of GEGL 0.4.62 (docs/FILTERS.md,
 * kernels/gaussian-blur-selective.cl).
 *
 * GEGL's op works in "R'G'B'A float": sRGB-encoded colour, straight
 * alpha.  So the plan neither decodes nor premultiplies (8-bit sRGB data
 * are read as their codes, as GEGL reads them), and a linear source is
 * encoded where it is read and its result decoded where it is stored.
 * Over the square window of side 2 R + 1, R = floor (blur-radius), each
 * texel t weighs g = exp (-(u^2 + v^2) / 2r) (GEGL's table in float;
 * r = blur-radius, not its square) times its alpha, and counts in colour
 * channel b only where |c_b - t_b| <= max-delta, c the centre: the result
 * is the weighted mean of the counted values per channel, the centre's
 * value where none weighs anything, and the centre's alpha.
 *
 * Edges: GEGL reads past the image's edge as its edge texels (abyss
 * clamp): clfx's clamp-to-edge, the family's default; the other edge
 * handlings as `addressing` says, none leaving the taps outside out.
 * GEGL's aux input (differences taken from another image) is not taken:
 * the deltas are the source's own, GEGL's default without aux.
 *
 * The decision |d| <= max-delta is a step: where the exact difference
 * lies within what the device's float arithmetic can move it of the
 * limit, the device may keep or drop the tap.  The limit is max-delta
 * plus 2^-18 (GBS_TIE): ties count, however their floats round; GEGL's
 * go either way (docs/FILTERS.md).  The reference flags
 * those taps and `bounds` gives validation the envelope of the results
 * every choice of them gives; everywhere else the bound is the tolerance's.
 *
 * The CPU reference sums the window directly in double, with the weights
 * and the curve in double, independent of the kernels' float tables. */
#include <float.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/clfx-common.h"
#include "../clfx-parallel.h"
#include "../clfx-sampler-ref.h"
#include "../clfx-tolerance.h"
#include "clfx-params.h"
#include "filter-common.h"
#include "gaussian-blur-selective.h"

/* A difference counts up to max-delta + GBS_TIE (2^-18): a tie, a
 * difference that is max-delta exactly (51 codes at the default 0.2, for
 * 8-bit data), counts whatever ulps its floats carry.  GEGL compares the
 * float difference with the double max-delta, so its ties go either way
 * with the floats babl makes of the codes (its conversion, chosen per
 * process) and with how max-delta was stored (a float 0.2 is above the
 * double); clfx's result is the same however the data and the value
 * arrive.  2^-18 is above every such ulp (the encode's 32 u of values up
 * to 2) and below half a 16-bit code (2^-17), so it changes no other
 * difference of 8- or 16-bit data. */
#define GBS_TIE (1.0 / 262144.0)

typedef struct
{
  int    R;       /* floor (blur-radius) */
  double r;       /* blur-radius */
  double delta;   /* max-delta */
  double lim;     /* max-delta + GBS_TIE: what a difference may reach */
  float  thr;     /* the largest float at or below lim */
  float *g;       /* (2 R + 1)^2 weights, float, rows */
  double *gd;     /* the same in double, for the reference */
  bool   none;    /* edge handling none: taps outside left out */
  bool   encode;  /* linear source: encode on read, decode on store */
  bool   u8;      /* 8-bit source: codes through gbs_codes */
  float  codes[256];
} State;

/* An 8-bit code as a float of GEGL's "R'G'B'A float": k / 255 rounded to
 * float, as babl's reference conversion makes it.  (clfx's own read,
 * k times 1 / 255 in float, differs from it by an ulp on 134 of the 256
 * codes; babl picks its conversion per process by speed, and one of its
 * fast paths gives powers of two an ulp below k / 255.  Differences of
 * whole codes that equal max-delta exactly, 51 codes at 0.2, are decided
 * by those ulps: docs/FILTERS.md.) */
static float
gbs_code (int k)
{
  return (float) (k / 255.0);
}

static void
state_free (void *data)
{
  State *st = data;

  if (st)
    {
      free (st->g);
      free (st->gd);
    }
  free (st);
}

static bool
gbs_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
          ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  State                  *st;
  int                     n;

  if (! clfx_filter_nearest_ok (fp->sampler_filter, "gaussian-blur-selective",
                                error))
    return false;
  if (! (st = calloc (1, sizeof *st)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = st;
  plan->free_state = state_free;
  st->r = fp->selective.blur_radius;
  st->delta = fp->selective.max_delta;
  st->R = (int) floor (st->r);
  st->lim = st->delta + GBS_TIE;
  st->thr = (float) st->lim;
  if ((double) st->thr > st->lim)
    st->thr = nextafterf (st->thr, -INFINITY);
  n = 2 * st->R + 1;
  if (! (st->g = malloc ((size_t) n * (size_t) n * sizeof *st->g))
      || ! (st->gd = malloc ((size_t) n * (size_t) n * sizeof *st->gd)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  /* GEGL's table: exp in double of -(u^2 + v^2) / 2r, stored as float. */
  for (int v = -st->R; v <= st->R; v++)
    for (int u = -st->R; u <= st->R; u++)
      {
        double e = exp (-0.5 * (double) (u * u + v * v) / st->r);
        st->g[(v + st->R) * n + u + st->R] = (float) e;
        st->gd[(v + st->R) * n + u + st->R] = e;
      }
  st->none = fp->addressing == CLFX_ADDR_NONE;
  st->encode = src->transfer != CLFX_TRC_SRGB;
  st->u8 = src->depth == CLFX_DEPTH_U8;
  for (int k = 0; k < 256; k++)
    st->codes[k] = gbs_code (k);
  plan->width = src->width;
  plan->height = src->height;
  /* none: the loaded texels outside are never summed (the kernel checks
   * each tap's place); clamp-to-edge only fills them. */
  plan->addressing = st->none ? CLFX_ADDR_CLAMP_TO_EDGE : fp->addressing;
  /* The stored values, straight alpha: GEGL's "R'G'B'A float". */
  plan->mixes = false;
  plan->straight = true;
  plan->premultiply = false;
  plan->decode = false;
  plan->halo[0] = plan->halo[1] = plan->halo[2] = plan->halo[3] = st->R;
  /* The loaded piece: float RGBA over the result and its halo. */
  plan->bytes_per_pixel = 16;
  plan->bytes_fixed = sizeof (float) * (size_t) n * (size_t) n
                      + 16 * ((size_t) (2 * st->R)
                                * (size_t) (src->width + src->height)
                              + 4 * (size_t) st->R * (size_t) st->R);
  return true;
}

/* ---- OpenCL ---------------------------------------------------------------- */

static bool
gbs_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const State    *st = clfx_graph_plan (g)->state;
  const ClfxPlan *plan = clfx_graph_plan (g);
  const ClfxTile *t = clfx_graph_tile (g);
  int             w = t->out.width, h = t->out.height, n = 2 * st->R + 1;
  cl_int4         rect = { { t->out.x - st->R, t->out.y - st->R, w + n - 1,
                             h + n - 1 } };
  cl_int2         size = { { plan->width, plan->height } };
  ClfxLaunch      ll = { "gbs_load", NULL, NULL, 2,
                         { (size_t) rect.s[2], (size_t) rect.s[3] },
                         { 0, 0 } };
  ClfxLaunch      lb = { "gbs_blur", NULL, NULL, 2,
                         { (size_t) w, (size_t) h }, { 0, 0 } };
  cl_mem          enc, gt, codes;

  (void) p;
  return (gt = clfx_graph_table (g, "selective weights", st->g,
                                 sizeof (float) * (size_t) n * (size_t) n,
                                 error))
         && (codes = clfx_graph_table (g, "8-bit codes", st->codes,
                                       sizeof st->codes, error))
         && (enc = clfx_graph_buffer (g, "selective texels",
                                      16 * (size_t) rect.s[2]
                                        * (size_t) rect.s[3],
                                      error))
         && CLFX_LAUNCH (g, &ll, error, CLFX_SRC, CLFX_ARG (enc),
                         CLFX_ARG (rect), CLFX_INT (st->encode),
                         CLFX_ARG (codes), CLFX_INT (st->u8))
         && CLFX_LAUNCH (g, &lb, error, CLFX_ARG (enc), CLFX_INT (rect.s[2]),
                         CLFX_ARG (gt), CLFX_INT (st->R),
                         CLFX_FLOAT (st->thr), CLFX_INT (st->none),
                         CLFX_ARG (size), CLFX_INT (st->encode), CLFX_DST);
}

/* ---- CPU reference ------------------------------------------------------------ */

/* A texel as GEGL's "R'G'B'A float" holds it: gray as R = G = B, colour
 * encoded where the source is linear. */
static void
ref_texel (const State *st, const ClfxImage *src, ClfxSamplerDesc s, int i,
           int j, double t[4])
{
  float v[4];

  clfx_ref_fetch (src, s, i, j, v);
  if (src->channels < 4)
    {
      double a = src->channels == 2 ? v[1] : 1.0;
      t[0] = t[1] = t[2] = v[0];
      t[3] = a;
    }
  else
    for (int k = 0; k < 4; k++)
      t[k] = v[k];
  if (st->u8)
    for (int k = 0; k < 4; k++)
      t[k] = gbs_code ((int) lrint (t[k] * 255.0));
  if (st->encode)
    for (int k = 0; k < 3; k++)
      t[k] = clfx_linear_to_srgb (t[k]);
}

/* How far the device's float difference of encoded texels a and b can lie
 * from the exact one: the subtraction's rounding, and each texel's own
 * error where the kernel encodes it (32 u of the value, as the
 * tolerance's) or reads 16-bit codes (1.5 ulp). */
static double
ref_slack (const State *st, const ClfxImage *src, double a, double b)
{
  double m = fmax (fabs (a), fabs (b)), e;

  if (st->encode)
    e = 32.0;
  else if (src->depth == CLFX_DEPTH_U16)
    e = 3.0;
  else
    e = 0.0;
  return (2.0 * e + 2.0) * CLFX_FLOAT_EPS * fmax (m, st->lim) + FLT_MIN;
}

typedef struct
{
  double v, w;
} Tap;

static int
tap_up (const void *a, const void *b)
{
  double x = ((const Tap *) a)->v, y = ((const Tap *) b)->v;

  return (x > y) - (x < y);
}

/* The result at (x, y) into out (RGBA, encoded) and, where some taps are
 * ambiguous, the least and largest result over their choices into lo and
 * hi (the weighted mean over a set of taps is largest with the ambiguous
 * taps of the largest values in it, and smallest with those of the
 * smallest: the top k and bottom k over k).  amb: room for the window's
 * taps. */
static void
ref_pixel (const State *st, const ClfxImage *src, const double *pad, int x,
           int y, double out[4], double lo[4], double hi[4], Tap *amb)
{
  int           pw = src->width + 2 * st->R;
  const double *c = pad + 4 * ((size_t) (y + st->R) * (size_t) pw
                               + (size_t) (x + st->R));
  double num[3] = { 0, 0, 0 }, den[3] = { 0, 0, 0 };
  double bnum[3] = { 0, 0, 0 }, bden[3] = { 0, 0, 0 };
  int    n_amb[3] = { 0, 0, 0 }, side = 2 * st->R + 1;

  for (int v = -st->R; v <= st->R; v++)
    for (int u = -st->R; u <= st->R; u++)
      {
        const double *t = c + 4 * ((ptrdiff_t) v * pw + u);
        double        w;

        if (st->none
            && (x + u < 0 || y + v < 0 || x + u >= src->width
                || y + v >= src->height))
          continue;
        w = st->gd[(v + st->R) * side + u + st->R] * t[3];
        for (int b = 0; b < 3; b++)
          {
            double d = c[b] - t[b];
            bool   kept = ! (d > st->lim || d < -st->lim);
            /* NaN differences are kept (GEGL's test), never ambiguous. */
            bool   near = fabs (fabs (d) - st->lim)
                          <= ref_slack (st, src, c[b], t[b]);

            if (kept)
              {
                num[b] += w * t[b];
                den[b] += w;
              }
            if (near)
              {
                Tap *a = &amb[b * side * side + n_amb[b]++];
                a->v = t[b];
                a->w = w;
              }
            else if (kept)
              {
                bnum[b] += w * t[b];
                bden[b] += w;
              }
          }
      }
  for (int b = 0; b < 3; b++)
    {
      Tap   *a = &amb[b * side * side];
      int    m = n_amb[b];
      double sn, sd;

      out[b] = den[b] != 0.0 ? num[b] / den[b] : c[b];
      lo[b] = hi[b] = out[b];
      if (! m)
        continue;
      qsort (a, (size_t) m, sizeof *a, tap_up);
      /* The bottom k, k = 0 .. m. */
      sn = bnum[b];
      sd = bden[b];
      for (int k = 0; k <= m; k++)
        {
          double r;
          if (k)
            {
              sn += a[k - 1].w * a[k - 1].v;
              sd += a[k - 1].w;
            }
          r = sd != 0.0 ? sn / sd : c[b];
          lo[b] = fmin (lo[b], r);
          hi[b] = fmax (hi[b], r);
        }
      /* The top k. */
      sn = bnum[b];
      sd = bden[b];
      for (int k = 1; k <= m; k++)
        {
          double r;
          sn += a[m - k].w * a[m - k].v;
          sd += a[m - k].w;
          r = sd != 0.0 ? sn / sd : c[b];
          lo[b] = fmin (lo[b], r);
          hi[b] = fmax (hi[b], r);
        }
    }
  out[3] = lo[3] = hi[3] = c[3];
}

/* An encoded RGBA result stored as the image's layout (gray: the first
 * channel, alpha second), decoded where the source is linear. */
static void
ref_put (const State *st, ClfxImage *dst, int x, int y, const double v[4])
{
  float o[4];

  for (int k = 0; k < 3; k++)
    o[k] = clfx_filter_ref_float (st->encode ? clfx_srgb_to_linear (v[k])
                                             : v[k]);
  o[3] = (float) v[3];
  if (dst->channels == 2)
    {
      o[1] = o[3];
      o[2] = 0.0f;
      o[3] = 1.0f;
    }
  else if (dst->channels == 1)
    o[1] = o[2] = 0.0f, o[3] = 1.0f;
  clfx_ref_store (dst, x, y, o, false, false);
}

typedef struct
{
  const State     *st;
  const ClfxImage *src;
  ClfxImage       *out, *lo, *hi;
  ClfxSamplerDesc  s;
  double          *pad;
  bool             nomem;
} Job;

/* The texels the windows read, encoded, the image grown by R on every
 * side with the addressing applied (none: never read there). */
static void
pad_rows (void *data, int y0, int y1)
{
  Job *job = data;
  int  R = job->st->R, pw = job->src->width + 2 * R;

  for (int j = y0; j < y1; j++)
    for (int i = 0; i < pw; i++)
      ref_texel (job->st, job->src, job->s, i - R, j - R,
                 job->pad + 4 * ((size_t) j * (size_t) pw + (size_t) i));
}

static void
gbs_rows (void *data, int y0, int y1)
{
  Job  *job = data;
  int   side = 2 * job->st->R + 1;
  Tap  *amb = malloc (3 * (size_t) side * (size_t) side * sizeof *amb);

  if (! amb)
    {
      job->nomem = true;
      return;
    }
  for (int y = y0; y < y1; y++)
    for (int x = 0; x < job->src->width; x++)
      {
        double o[4], l[4], h[4];

        ref_pixel (job->st, job->src, job->pad, x, y, o, l, h, amb);
        if (job->out)
          ref_put (job->st, job->out, x, y, o);
        if (job->lo)
          {
            ref_put (job->st, job->lo, x, y, l);
            ref_put (job->st, job->hi, x, y, h);
          }
      }
  free (amb);
}

static bool
gbs_each (const ClfxPlan *plan, const ClfxImage *src, ClfxImage *out,
          ClfxImage *lo, ClfxImage *hi, ClfxError *error)
{
  const State *st = plan->state;
  Job          job = { st, src, out, lo, hi,
                       { true, plan->addressing, false, false, false }, NULL,
                       false };
  size_t       pw = (size_t) (src->width + 2 * st->R);
  size_t       ph = (size_t) (src->height + 2 * st->R);

  if (! (job.pad = malloc (4 * pw * ph * sizeof *job.pad)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  clfx_parallel_rows ((int) ph, pad_rows, &job);
  clfx_parallel_rows (src->height, gbs_rows, &job);
  free (job.pad);
  if (job.nomem)
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  return true;
}

static bool
gbs_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
         ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  (void) p;
  (void) probes;
  return gbs_each (plan, src, dst, NULL, NULL, error);
}

static bool
gbs_bounds (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
            const ClfxImage *ref, ClfxImage *lo, ClfxImage *hi,
            ClfxError *error)
{
  (void) p;
  (void) ref;
  return gbs_each (plan, src, NULL, lo, hi, error);
}

/* ---- tolerance ---------------------------------------------------------------- */

/* Away from the decision's threshold (ambiguous taps: bounds), the kept
 * taps are the reference's, and the result is their weighted mean
 * sum w t / sum w, in encoded values up to E (the window's largest
 * |value|, encoded where the kernel encodes).  Weights off by a relative
 * e move the mean by at most 2 e E: the float table and the product with
 * alpha (2 u E).  Each w t (0.5 u E), the n-term numerator and
 * denominator (n u E each, the weights normalised) and the division
 * (2.5 ulp, the spec's).  The texels' own error eta goes through as it
 * is: none for float and half data and for 8-bit codes (the table's
 * floats are the reference's), 1.5 ulp for the 16-bit read conversion,
 * and where the kernel encodes, the curve's: exp2 of log2 within [0, 1]
 * (3 ulp each on arguments up to 8 / 2.4) and powr above (16 ulp), both
 * within 32 u of the value.  All of that is proportional to E.
 *
 * A linear source's result is decoded: an error de at encoded e moves
 * the linear value by decode'(e) de, and decode'(e) e is at most 2.4 V
 * (V = decode (e): the power segment's 2.4 e / (e + 0.055) V, the linear
 * segment's V), so the bound in linear light is 2.4 times the encoded
 * one relative to E, times V, the window's largest linear |value|; and
 * the decode's own 16 ulp, relative.  So every term scales with the
 * window's largest stored |value|, which validation takes per pixel
 * (clfx_tol_magnitude).  Then the store. */
static void
gbs_tolerance (const ClfxParams *p, const ClfxPlan *plan,
               const ClfxDeviceInfo *dev, const ClfxImage *src,
               const ClfxImage *dst, ClfxTolerance *tol)
{
  const State *st = plan->state;
  double       V = 0.0, eta, rel;
  int          n = (2 * st->R + 1) * (2 * st->R + 1);

  (void) p;
  (void) dev;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      for (int c = 0; c < src->channels; c++)
        {
          double v = fabs (clfx_image_get (src, x, y, c));
          if (isfinite (v) && v > V)
            V = v;
        }
  if (st->encode)
    eta = 32.0;
  else if (src->depth == CLFX_DEPTH_U16)
    eta = 3.0;
  else
    eta = 0.0;
  /* Relative to E, in u: texels, weights, products, the two sums, the
   * division. */
  rel = eta + 2.0 + 0.5 + 2.0 * n + 5.0;
  clfx_tol_init (tol);
  clfx_tol_magnitude (tol, V, 2.0 * V);
  clfx_tol_scaled (tol, (st->encode ? 2.4 : 1.0) * rel * CLFX_FLOAT_EPS * V);
  /* Products and sums below FLT_MIN: half a denormal each. */
  tol->abs_tol += (double) (2 * n + 2) * CLFX_FLOAT_DENORM;
  clfx_tol_clause (tol, "%s%.0f u of the largest |value| (texels eta %g u, "
                   "weights 2 u, products 0.5 u, %d-term numerator and "
                   "denominator, division 2.5 ulp)",
                   st->encode ? "decoded from sRGB-encoded sums: 2.4 x " : "",
                   rel, eta, n);
  if (st->encode)
    {
      tol->rel_tol += 32.0 * CLFX_FLOAT_EPS;
      clfx_tol_clause (tol, "the decode's 16 ulp");
    }
  clfx_tol_store (tol, dst->depth, false);
  clfx_tol_clause (tol, "taps within float rounding of max-delta: the "
                   "envelope of their choices (bounds)");
}

static const char *const uses_gbs[] = { "filter", "selective-blur-radius",
                                        "max-delta", "addressing", NULL };

const ClfxVariant clfx_variant_gaussian_blur_selective
  = { "gaussian-blur-selective",
      "gaussian-blur-selective",
      CLFX_N_ ("Selective gaussian blur (GEGL's gaussian-blur-selective)"),
      uses_gbs,
      gbs_plan,
      NULL,
      gbs_cl,
      gbs_cpu,
      gbs_tolerance,
      gbs_bounds,
      clfx_filter_describe,
      NULL,
      CLFX_GAUSSIAN_BLUR_SELECTIVE_PLACE,
      NULL,
      NULL };
