/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mantiuk06-ref.c: gegl:mantiuk06 in double on the CPU (docs/TONEMAP.md,
 * "mantiuk06"; docs of the definition: GEGL 0.4.62's
 * operations/common/mantiuk06.c, a port of pfstmo).
 *
 * The steps, each a function below: clip and log10 of babl's luminance;
 * the gradient pyramid of log Y; gradients to the transducer's response
 * and back, scaled by the contrast factor; the weights C and the
 * divergence sum b; conjugate gradients on A x = b, where A walks the
 * whole pyramid; the percentile renormalisation and the colour.
 *
 * Where GEGL's arithmetic departs from what its comments intend (the
 * upsampling's dy written dx in one weight, the percentile's swapped
 * interpolation weights), this follows GEGL: the reference is of the
 * operator GIMP runs, and each such place says so. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/mantiuk06-shapes.h"
#include "../../kernels/mantiuk06-tables.h"
#include "mantiuk06-ref.h"

#define MIN_SIDE   3      /* a pyramid level needs both sides >= 3 */
#define MAX_LEVELS 32
#define TAB_N      M06_TAB_N

/* babl's luminance of linear sRGB (D50-adapted primaries), as the other
 * tone mappers read it (tonemap-common.c). */
static const double Y_ROW[3] = { 0.2224879400, 0.7169038389, 0.0606082572 };

/* The transducer (kernels/mantiuk06-tables.h). */
static const double W_TAB[TAB_N] = { M06_W_TABLE };
static const double R_TAB[TAB_N] = { M06_R_TABLE };

/* Piecewise linear through (in[i], out[i]), in increasing; held at both
 * ends. */
static double
lookup (const double *in, const double *out, double v)
{
  if (v < in[0])
    return out[0];
  for (int j = 1; j < TAB_N; j++)
    if (v < in[j])
      return out[j - 1] + (out[j] - out[j - 1])
                          * (v - in[j - 1]) / (in[j] - in[j - 1]);
  return out[TAB_N - 1];
}

typedef struct
{
  int     w, h;
  double *gx, *gy;
} Level;

typedef struct
{
  int   n;
  Level l[MAX_LEVELS];
} Pyramid;

static void
pyramid_free (Pyramid *p)
{
  for (int k = 0; k < p->n; k++)
    {
      free (p->l[k].gx);
      free (p->l[k].gy);
    }
  p->n = 0;
}

/* Levels while both sides are >= 3, each side halved (rounded down). */
static bool
pyramid_alloc (Pyramid *p, int w, int h)
{
  p->n = 0;
  while (w >= MIN_SIDE && h >= MIN_SIDE && p->n < MAX_LEVELS)
    {
      Level *l = &p->l[p->n++];

      l->w = w;
      l->h = h;
      l->gx = malloc ((size_t) w * h * sizeof (double));
      l->gy = malloc ((size_t) w * h * sizeof (double));
      if (! l->gx || ! l->gy)
        {
          pyramid_free (p);
          return false;
        }
      w /= 2;
      h /= 2;
    }
  return true;
}

/* Area average onto (iw / 2) x (ih / 2): each coarse pixel integrates the
 * fine pixels it covers, the partly covered first and last in each
 * direction by the fraction that shows. */
static void
downsample (const double *in, int iw, int ih, double *out)
{
  int    ow = iw / 2, oh = ih / 2;
  double dx = (double) iw / ow, dy = (double) ih / oh;

  for (int y = 0; y < oh; y++)
    {
      int    y1 = y * ih / oh, y2 = (y + 1) * ih / oh;
      double fy1 = (y1 + 1) - y * dy, fy2 = (y + 1) * dy - y2;

      for (int x = 0; x < ow; x++)
        {
          int    x1 = x * iw / ow, x2 = (x + 1) * iw / ow;
          double fx1 = (x1 + 1) - x * dx, fx2 = (x + 1) * dx - x2;
          double s = 0.0;

          for (int i = y1; i <= y2 && i < ih; i++)
            {
              double fy = i == y1 ? fy1 : i == y2 ? fy2 : 1.0;

              for (int j = x1; j <= x2 && j < iw; j++)
                {
                  double fx = j == x1 ? fx1 : j == x2 ? fx2 : 1.0;

                  s += in[(size_t) i * iw + j] * fx * fy;
                }
            }
          out[(size_t) y * ow + x] = s / (dx * dy);
        }
    }
}

/* From (ow / 2) x (oh / 2) onto ow x oh: the bilinear weights of the
 * coarse pixels under each fine one, times the area ratio.  GEGL's last
 * weight takes the vertical extent as sy + dx (not dy): the same where
 * both sides are even, not where one side is odd; kept. */
static void
upsample (const double *in, int ow, int oh, double *out)
{
  int    iw = ow / 2, ih = oh / 2;
  double dx = (double) iw / ow, dy = (double) ih / oh;
  double f = 1.0 / (dx * dy);

  for (int y = 0; y < oh; y++)
    {
      double sy = y * dy;
      int    y1 = y * ih / oh, y2 = (y + 1) * ih / oh;

      if (y2 > ih - 1)
        y2 = ih - 1;
      for (int x = 0; x < ow; x++)
        {
          double sx = x * dx;
          int    x1 = x * iw / ow, x2 = (x + 1) * iw / ow;
          double ax, bx, ay, by, by_dx;

          if (x2 > iw - 1)
            x2 = iw - 1;
          ax = (x1 + 1) - sx;
          bx = sx + dx - (x1 + 1);
          ay = (y1 + 1) - sy;
          by = sy + dy - (y1 + 1);
          by_dx = sy + dx - (y1 + 1);
          out[(size_t) y * ow + x]
            = (ax * ay * in[(size_t) y1 * iw + x1]
               + ax * by * in[(size_t) y2 * iw + x1]
               + bx * ay * in[(size_t) y1 * iw + x2]
               + bx * by_dx * in[(size_t) y2 * iw + x2]) * f;
        }
    }
}

/* Forward differences; 0 in the last column (gx) and last row (gy). */
static void
gradient (const double *v, int w, int h, double *gx, double *gy)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        size_t i = (size_t) y * w + x;

        gx[i] = x == w - 1 ? 0.0 : v[i + 1] - v[i];
        gy[i] = y == h - 1 ? 0.0 : v[i + w] - v[i];
      }
}

/* The gradients of every level of v's pyramid (v: level 0's size).  a and
 * b: scratch of level 1's size at least. */
static void
pyramid_gradients (Pyramid *p, const double *v, double *a, double *b)
{
  const double *cur = v;

  gradient (v, p->l[0].w, p->l[0].h, p->l[0].gx, p->l[0].gy);
  for (int k = 1; k < p->n; k++)
    {
      double *next = (k & 1) ? a : b;

      downsample (cur, p->l[k - 1].w, p->l[k - 1].h, next);
      gradient (next, p->l[k].w, p->l[k].h, p->l[k].gx, p->l[k].gy);
      cur = next;
    }
}

/* acc += div (gx, gy), the backward differences that mirror gradient():
 * the first column and row take gx and gy alone. */
static void
add_divergence (const Level *l, double *acc)
{
  for (int y = 0; y < l->h; y++)
    for (int x = 0; x < l->w; x++)
      {
        size_t i = (size_t) y * l->w + x;

        acc[i] += (x == 0 ? l->gx[i] : l->gx[i] - l->gx[i - 1])
                  + (y == 0 ? l->gy[i] : l->gy[i] - l->gy[i - l->w]);
      }
}

/* out = the coarsest level's divergence, upsampled and added to the next
 * finer level's, up to level 0.  tmp: level 0's size. */
static void
divergence_sum (const Pyramid *p, double *out, double *tmp)
{
  int     k = p->n - 1;
  /* Alternate buffers so that level 0's sum lands in out. */
  double *cur = (k & 1) ? tmp : out, *other = (k & 1) ? out : tmp;

  memset (cur, 0, (size_t) p->l[k].w * p->l[k].h * sizeof (double));
  add_divergence (&p->l[k], cur);
  for (k--; k >= 0; k--)
    {
      double *t;

      upsample (cur, p->l[k].w, p->l[k].h, other);
      add_divergence (&p->l[k], other);
      t = cur;
      cur = other;
      other = t;
    }
}

static void
scale_by (Pyramid *p, const Pyramid *C)
{
  for (int k = 0; k < p->n; k++)
    for (size_t i = 0; i < (size_t) p->l[k].w * p->l[k].h; i++)
      {
        p->l[k].gx[i] *= C->l[k].gx[i];
        p->l[k].gy[i] *= C->l[k].gy[i];
      }
}

typedef struct
{
  Pyramid px;                 /* the gradients of the vector multiplied */
  const Pyramid *C;
  double *a, *b, *tmp;        /* scratch */
  double *prev;               /* x before the last update (may be NULL) */
  bool    emulate;            /* stored values rounded to float */
} Operator;

/* v as stored: rounded to float where the solve emulates a float one. */
static inline double
stored (const Operator *op, double v)
{
  return op->emulate ? (double) (float) v : v;
}

/* out = A x = divergence_sum (C .* gradients of x's pyramid). */
static void
apply_a (Operator *op, const double *x, double *out)
{
  pyramid_gradients (&op->px, x, op->a, op->b);
  scale_by (&op->px, op->C);
  divergence_sum (&op->px, out, op->tmp);
  for (int i = 0; op->emulate && i < op->px.l[0].w * op->px.l[0].h; i++)
    out[i] = stored (op, out[i]);
}

static double
dot (size_t n, const double *u, const double *v)
{
  double s = 0.0;

  for (size_t i = 0; i < n; i++)
    s += u[i] * v[i];
  return s;
}

/* r = b - A x; returns r.r. */
static double
residual (Operator *op, size_t n, const double *b, const double *x,
          double *r)
{
  apply_a (op, x, r);
  for (size_t i = 0; i < n; i++)
    r[i] = stored (op, b[i] - r[i]);
  return dot (n, r, r);
}

/* Conjugate gradients from x, GEGL's safeguard included: a residual that
 * grows more than 3 times running restarts from the best x seen at the
 * start of such a run, and the best x seen is the one kept.  Stops when
 * |r|^2 / |b|^2 < tol^2 after an update, or after itmax iterations. */
static bool
solve (Operator *op, size_t n, const double *b, double *x, int itmax,
       double tol, ClfxMantiuk06Info *info)
{
  double *r = malloc (n * sizeof (double)), *p = malloc (n * sizeof (double));
  double *Ap = malloc (n * sizeof (double));
  double *saved = malloc (n * sizeof (double));
  double  bb = dot (n, b, b), rr, saved_rr, tol2 = tol * tol;
  int     iter = 0, backwards = 0;

  if (! r || ! p || ! Ap || ! saved)
    {
      free (r), free (p), free (Ap), free (saved);
      return false;
    }
  info->resets = 0;
  if (bb == 0.0)
    {
      /* No target gradients: x (flat along every gradient) already
       * solves it; GEGL divides by |b| = 0 here. */
      info->iterations = 0;
      info->residual = 0.0;
      info->converged = true;
      free (r), free (p), free (Ap), free (saved);
      return true;
    }
  rr = residual (op, n, b, x, r);
  memcpy (p, r, n * sizeof (double));
  memcpy (saved, x, n * sizeof (double));
  saved_rr = rr;
  while (iter < itmax)
    {
      double alpha, old_rr;

      iter++;
      apply_a (op, p, Ap);
      alpha = rr / dot (n, p, Ap);
      for (size_t i = 0; i < n; i++)
        r[i] = stored (op, r[i] - alpha * Ap[i]);
      old_rr = rr;
      rr = dot (n, r, r);
      if (rr > old_rr)
        {
          /* x is still the one before this step: keep it if it is the
           * best so far. */
          if (backwards == 0 && old_rr < saved_rr)
            {
              saved_rr = old_rr;
              memcpy (saved, x, n * sizeof (double));
            }
          backwards++;
        }
      else
        backwards = 0;
      if (op->prev)
        memcpy (op->prev, x, n * sizeof (double));
      for (size_t i = 0; i < n; i++)
        x[i] = stored (op, x[i] + alpha * p[i]);
      if (rr / bb < tol2)
        break;
      if (backwards > 3)
        {
          backwards = 0;
          info->resets++;
          memcpy (x, saved, n * sizeof (double));
          rr = residual (op, n, b, x, r);
          saved_rr = rr;
          memcpy (p, r, n * sizeof (double));
        }
      else
        {
          double beta = rr / old_rr;

          for (size_t i = 0; i < n; i++)
            p[i] = stored (op, r[i] + beta * p[i]);
        }
    }
  if (rr > saved_rr)
    {
      rr = saved_rr;
      if (op->prev)
        memcpy (op->prev, x, n * sizeof (double));
      memcpy (x, saved, n * sizeof (double));
    }
  info->iterations = iter;
  info->residual = sqrt (rr / bb);
  info->converged = rr / bb < tol2;
  free (r), free (p), free (Ap), free (saved);
  return true;
}

static int
cmp_double (const void *a, const void *b)
{
  double u = *(const double *) a, v = *(const double *) b;

  return (u > v) - (u < v);
}

/* The value at rank (n - 1) * pct / 100 of sorted s.  GEGL weighs the
 * lower neighbour by the fraction and the upper by its complement (the
 * reverse of interpolation); kept. */
static double
percentile (const double *s, size_t n, double pct)
{
  double t = (n - 1) * pct * 0.01, d = t - floor (t);

  return s[(size_t) floor (t)] * d + s[(size_t) ceil (t)] * (1.0 - d);
}

/* t = (x - l_min) / (l_max - l_min) per pixel (1 where the result is
 * flat), its percentiles into info. */
static bool
normalise (size_t n, const double *x, double *t, ClfxMantiuk06Info *info)
{
  double *sorted = malloc (n * sizeof (double));
  double  range;

  if (! sorted)
    return false;
  memcpy (sorted, x, n * sizeof (double));
  qsort (sorted, n, sizeof (double), cmp_double);
  info->l_min = percentile (sorted, n, 0.1);
  info->l_max = percentile (sorted, n, 99.9);
  free (sorted);
  range = info->l_max - info->l_min;
  /* A flat result takes the top of the range.  GEGL divides 0 by 0
   * there, or (sides not halving evenly, whose area averages of a
   * constant differ from it by rounding) stretches that rounding over
   * the display range; so would a float solve's rounding (M06_FLAT). */
  for (size_t i = 0; i < n; i++)
    t[i] = ! M06_IS_FLAT (info->l_min, info->l_max)
             ? (x[i] - info->l_min) / range
             : 1.0;
  return true;
}

bool
clfx_mantiuk06_ref (int w, int h, const float *in, float *out,
                    const ClfxMantiuk06RefParams *prm, ClfxMantiuk06Info *info)
{
  size_t  n = (size_t) w * h;
  double *d = malloc ((n ? n : 1) * 4 * sizeof (double));
  bool    ok;

  if (! d)
    return false;
  for (size_t i = 0; i < 4 * n; i++)
    d[i] = in[i];
  ok = clfx_mantiuk06_ref_d (w, h, d, out, prm, info, NULL);
  free (d);
  return ok;
}

bool
clfx_mantiuk06_ref_d (int w, int h, const double *in, float *out,
                      const ClfxMantiuk06RefParams *prm, ClfxMantiuk06Info *info,
                      double *t_out)
{
  ClfxMantiuk06Info dummy;
  size_t   n = (size_t) w * h;
  int      itmax = prm->itmax > 0 ? prm->itmax : CLFX_MANTIUK06_ITMAX;
  double   tol = prm->tol > 0.0 ? prm->tol : CLFX_MANTIUK06_TOL;
  double   detail = prm->detail > 0.0 ? prm->detail : 1.0;
  double   ymax = -INFINITY, clip;
  double  *Y = NULL, *rgb = NULL, *b = NULL, *tmp = NULL, *t = NULL;
  double  *a1 = NULL, *a2 = NULL, *t2 = NULL;
  Pyramid  G = { 0 }, C = { 0 };
  Operator op = { 0 };
  bool     ok = false;

  if (! info)
    info = &dummy;
  memset (info, 0, sizeof *info);
  if (! (prm->contrast > 0.0))
    return false;
  if (w < MIN_SIDE || h < MIN_SIDE)
    {
      for (size_t i = 0; i < 4 * n; i++)
        out[i] = (float) in[i];
      if (t_out)
        for (size_t i = 0; i < n; i++)
          t_out[i] = 1.0;
      return true;
    }

  Y = malloc (n * sizeof (double));
  rgb = malloc (n * 4 * sizeof (double));
  b = malloc (n * sizeof (double));
  tmp = malloc (n * sizeof (double));
  t = malloc (n * sizeof (double));
  a1 = malloc ((n / 4 + 1) * sizeof (double));
  a2 = malloc ((n / 4 + 1) * sizeof (double));
  if (! Y || ! rgb || ! b || ! tmp || ! t || ! a1 || ! a2
      || ! pyramid_alloc (&G, w, h) || ! pyramid_alloc (&C, w, h)
      || ! pyramid_alloc (&op.px, w, h))
    goto done;
  info->levels = G.n;

  /* Step 1: Y, clipped with every channel (alpha too) at 1e-7 of the
   * largest Y; colour over Y; log10 Y. */
  for (size_t i = 0; i < n; i++)
    {
      Y[i] = Y_ROW[0] * in[4 * i] + Y_ROW[1] * in[4 * i + 1]
             + Y_ROW[2] * in[4 * i + 2];
      if (Y[i] > ymax)
        ymax = Y[i];
    }
  clip = 1e-7 * ymax;
  if (! (clip > 0.0))
    {
      /* Nothing above 0: GEGL takes log10 0 and gives NaN; black here. */
      for (size_t i = 0; i < n; i++)
        {
          out[4 * i] = out[4 * i + 1] = out[4 * i + 2] = 0.0f;
          out[4 * i + 3] = (float) in[4 * i + 3];
          if (t_out)
            t_out[i] = 1.0;
        }
      ok = true;
      goto done;
    }
  for (size_t i = 0; i < n; i++)
    {
      for (int c = 0; c < 4; c++)
        rgb[4 * i + c] = in[4 * i + c] < clip ? clip : in[4 * i + c];
      if (Y[i] < clip)
        Y[i] = clip;
      for (int c = 0; c < 3; c++)
        rgb[4 * i + c] /= Y[i];
      Y[i] = log10 (Y[i]);
    }

  /* Step 2: the gradient pyramid of log10 Y. */
  pyramid_gradients (&G, Y, a1, a2);

  /* Step 3: G -> W = 10^(d |G|) - 1 -> response R, times contrast, -> W
   * -> G = log10 (W + 1) / d, the sign carried through. */
  for (int k = 0; k < G.n; k++)
    for (int dir = 0; dir < 2; dir++)
      {
        double *g = dir ? G.l[k].gy : G.l[k].gx;

        for (size_t i = 0; i < (size_t) G.l[k].w * G.l[k].h; i++)
          {
            double s = g[i] < 0.0 ? -1.0 : 1.0;
            double R = lookup (W_TAB, R_TAB,
                               pow (10.0, detail * fabs (g[i])) - 1.0)
                       * prm->contrast;

            g[i] = s * log10 (lookup (R_TAB, W_TAB, R) + 1.0) / detail;
          }
      }

  /* Step 4: the weights of the target gradients, C = 1 / (a
   * max (|G|, 0.001)^b); b = the divergence sum of C G. */
  for (int k = 0; k < G.n; k++)
    for (size_t i = 0; i < (size_t) G.l[k].w * G.l[k].h; i++)
      {
        C.l[k].gx[i] = 1.0 / (0.038737 * pow (fmax (0.001, fabs (G.l[k].gx[i])),
                                              0.537756));
        C.l[k].gy[i] = 1.0 / (0.038737 * pow (fmax (0.001, fabs (G.l[k].gy[i])),
                                              0.537756));
      }
  scale_by (&G, &C);
  divergence_sum (&G, b, tmp);

  /* Step 5: A x = b by conjugate gradients, from x = log10 Y. */
  op.C = &C;
  op.a = a1;
  op.b = a2;
  op.tmp = tmp;
  op.emulate = prm->emulate_float;
  if (! (op.prev = malloc (n * sizeof (double)))
      || ! (t2 = malloc (n * sizeof (double))))
    goto done;
  memcpy (op.prev, Y, n * sizeof (double));
  if (op.emulate)
    {
      for (int k = 0; k < C.n; k++)
        for (size_t i = 0; i < (size_t) C.l[k].w * C.l[k].h; i++)
          {
            C.l[k].gx[i] = stored (&op, C.l[k].gx[i]);
            C.l[k].gy[i] = stored (&op, C.l[k].gy[i]);
          }
      for (size_t i = 0; i < n; i++)
        {
          b[i] = stored (&op, b[i]);
          Y[i] = stored (&op, Y[i]);
        }
    }
  if (! solve (&op, n, b, Y, itmax, tol, info))
    goto done;

  /* Step 6: the 0.1 % and 99.9 % points of x map to 10^-2.3 and 1; colour
   * = (colour / Y)^saturation times that. */
  {
    ClfxMantiuk06Info before = *info;

    if (! normalise (n, op.prev, t2, &before) || ! normalise (n, Y, t, info))
      goto done;
    for (size_t i = 0; i < n; i++)
      info->step_error = fmax (info->step_error, fabs (t[i] - t2[i]));
  }
  for (size_t i = 0; i < n; i++)
    {
      double L = pow (10.0, t[i] * 2.3 - 2.3);

      for (int c = 0; c < 3; c++)
        out[4 * i + c] = (float) (pow (rgb[4 * i + c], prm->saturation) * L);
      out[4 * i + 3] = (float) rgb[4 * i + 3];
    }
  if (t_out)
    memcpy (t_out, t, n * sizeof (double));
  ok = true;

done:
  pyramid_free (&G);
  pyramid_free (&C);
  pyramid_free (&op.px);
  free (Y), free (rgb), free (b), free (tmp), free (a1), free (a2);
  free (t), free (t2), free (op.prev);
  return ok;
}
