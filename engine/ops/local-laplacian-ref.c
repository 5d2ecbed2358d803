/* SPDX-License-Identifier: GPL-3.0-or-later */
/* local-laplacian-ref.c: local-laplacian in double on the CPU
 * (docs/TONEMAP.md's "local-laplacian"; the step numbers below are its).
 *
 * Pyramids are kept as planes: a rectangle of one level, indexed by the
 * level's own coordinates, so that the fast form (whole levels) and the
 * direct form (the window one coefficient reads) share down and up.
 * Both clamp to the level's edge, never to the window's: the window of
 * a level is made from exactly the pixels of the finer level its down
 * reads (see window_of), so a value in a window is the value the whole
 * level has there, bit for bit.
 *
 * Readings of the definition where it leaves a choice:
 * - step 7's factor 10^(L' - L) is formed in double, where it cannot
 *   overflow (|L' - L| stays far below 300), so durand02's fallback for a
 *   float factor (colour / Y times 10^L') is not needed; it equals the
 *   factor only where Y >= floor (L = log10 Y), and the factor, which
 *   keeps pixels below the floor as they were when L' = L, is taken
 *   everywhere.  Results above FLT_MAX saturate there (the family's
 *   finite results).
 * - samples below 2 (other than 0, which means the device's K) would
 *   leave K = 1 with a range to cover: refused. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/local-laplacian-shapes.h"
#include "local-laplacian-ref.h"

#define MAX_LEVELS 33   /* N <= 31 for sides below 2^31, levels 0..N */

/* babl's luminance of linear sRGB (D50-adapted primaries), as the other
 * tone mappers read it (tonemap-common.c). */
static const double Y_ROW[3] = { 0.2224879400, 0.7169038389, 0.0606082572 };

/* [1 4 6 4 1] / 16, exact in binary. */
static const double A5[5] = { 0.0625, 0.25, 0.375, 0.25, 0.0625 };

typedef struct
{
  int x0, y0, w, h;
} Rect;

/* A rectangle r of a level whose sides are lw x lh. */
typedef struct
{
  double *v;
  Rect    r;
  int     lw, lh;
} Plane;

#define AT(P, x, y) \
  ((P)->v[(size_t) ((y) - (P)->r.y0) * (P)->r.w + ((x) - (P)->r.x0)])

static inline int
clampi (int v, int lo, int hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

int
clfx_local_laplacian_levels (int w, int h)
{
  int n = 0;

  while (w > 1 || h > 1)
    {
      w = (w + 1) / 2;
      h = (h + 1) / 2;
      n++;
    }
  return n;
}

void
clfx_local_laplacian_level_size (int w, int h, int l, int *lw, int *lh)
{
  for (; l > 0; l--)
    {
      w = (w + 1) / 2;
      h = (h + 1) / 2;
    }
  *lw = w;
  *lh = h;
}

double
clfx_local_laplacian_remap (double i, double g, double alpha, double beta,
                            double sigma)
{
  double d = i - g, ad = fabs (d);
  double e = ad <= sigma ? d : copysign (sigma + beta * (ad - sigma), d);

  return g + e + (alpha - 1.0) * d * exp (-d * d / (2.0 * sigma * sigma));
}

static Plane
whole (double *v, int lw, int lh)
{
  Plane p = { v, { 0, 0, lw, lh }, lw, lh };

  return p;
}

/* out (its r given) = down (in) on out->r; in->r must hold every pixel
 * that reads (window_of).  Separable: along x into tmp (in->r.h rows of
 * out->r.w), then along y.  */
static void
down_plane (const Plane *in, Plane *out, double *tmp)
{
  const Rect *ri = &in->r, *ro = &out->r;

  out->lw = (in->lw + 1) / 2;
  out->lh = (in->lh + 1) / 2;
  for (int y = ri->y0; y < ri->y0 + ri->h; y++)
    for (int x = ro->x0; x < ro->x0 + ro->w; x++)
      {
        double s = 0.0;

        for (int i = 0; i < 5; i++)
          s += A5[i] * AT (in, clampi (2 * x + i - 2, 0, in->lw - 1), y);
        tmp[(size_t) (y - ri->y0) * ro->w + (x - ro->x0)] = s;
      }
  for (int y = ro->y0; y < ro->y0 + ro->h; y++)
    for (int x = ro->x0; x < ro->x0 + ro->w; x++)
      {
        double s = 0.0;

        for (int j = 0; j < 5; j++)
          s += A5[j] * tmp[(size_t) (clampi (2 * y + j - 2, 0, in->lh - 1)
                                     - ri->y0) * ro->w + (x - ro->x0)];
        AT (out, x, y) = s;
      }
}

/* up's taps along one axis at fine coordinate x, the coarse level n
 * long: 2m -> (m-1, m, m+1) / 8 as 1 6 1; 2m+1 -> (m, m+1) / 2. */
static int
up_taps (int x, int n, int idx[3], double wt[3])
{
  int m = x >> 1;

  if (x & 1)
    {
      idx[0] = clampi (m, 0, n - 1);
      idx[1] = clampi (m + 1, 0, n - 1);
      wt[0] = wt[1] = 0.5;
      return 2;
    }
  idx[0] = clampi (m - 1, 0, n - 1);
  idx[1] = clampi (m, 0, n - 1);
  idx[2] = clampi (m + 1, 0, n - 1);
  wt[0] = wt[2] = 0.125;
  wt[1] = 0.75;
  return 3;
}

/* up (c) at (x, y) of the finer level. */
static double
up_at (const Plane *c, int x, int y)
{
  int    ix[3], iy[3], nx, ny;
  double wx[3], wy[3], s = 0.0;

  nx = up_taps (x, c->lw, ix, wx);
  ny = up_taps (y, c->lh, iy, wy);
  for (int j = 0; j < ny; j++)
    {
      double r = 0.0;

      for (int i = 0; i < nx; i++)
        r += wx[i] * AT (c, ix[i], iy[j]);
      s += wy[j] * r;
    }
  return s;
}

bool
clfx_local_laplacian_down (int w, int h, const double *in, double *out)
{
  double *tmp = malloc ((size_t) h * ((w + 1) / 2) * sizeof (double));
  Plane   pi = whole ((double *) in, w, h);
  Plane   po = whole (out, (w + 1) / 2, (h + 1) / 2);

  if (! tmp)
    return false;
  down_plane (&pi, &po, tmp);
  free (tmp);
  return true;
}

void
clfx_local_laplacian_up (int w, int h, const double *in, double *out)
{
  Plane c = whole ((double *) in, (w + 1) / 2, (h + 1) / 2);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      out[(size_t) y * w + x] = up_at (&c, x, y);
}

/* ---- pyramids ---------------------------------------------------------- */

typedef struct
{
  int    n;                 /* N: levels 0..N */
  Plane  l[MAX_LEVELS];
  double *block;
} Pyramid;

/* The levels of a w x h image in one block (values unset). */
static bool
pyramid_alloc (Pyramid *p, int w, int h)
{
  size_t total = 0, at = 0;

  p->n = clfx_local_laplacian_levels (w, h);
  for (int l = 0; l <= p->n; l++)
    {
      int lw, lh;

      clfx_local_laplacian_level_size (w, h, l, &lw, &lh);
      p->l[l] = whole (NULL, lw, lh);
      total += (size_t) lw * lh;
    }
  if (! (p->block = malloc (total * sizeof (double))))
    return false;
  for (int l = 0; l <= p->n; l++)
    {
      p->l[l].v = p->block + at;
      at += (size_t) p->l[l].lw * p->l[l].lh;
    }
  return true;
}

/* The Gaussian pyramid of v (step 4).  tmp: h * ceil(w / 2). */
static void
pyramid_gauss (Pyramid *p, const double *v, double *tmp)
{
  memcpy (p->l[0].v, v, (size_t) p->l[0].lw * p->l[0].lh * sizeof (double));
  for (int l = 0; l < p->n; l++)
    down_plane (&p->l[l], &p->l[l + 1], tmp);
}

/* Step 6: R_l = O_l + up (R_{l+1}) in place, down to level 0. */
static void
pyramid_collapse (Pyramid *p)
{
  for (int l = p->n - 1; l >= 0; l--)
    {
      Plane *o = &p->l[l];

      for (int y = 0; y < o->lh; y++)
        for (int x = 0; x < o->lw; x++)
          AT (o, x, y) += up_at (&p->l[l + 1], x, y);
    }
}

int
clfx_local_laplacian_samples (double edge)
{
  double k = 1.0 + ceil (LL_DECADES / edge);

  return k > LL_KMAX ? LL_KMAX : k < 2.0 ? 2 : (int) k;
}

static bool
params_ok (int w, int h, const ClfxLocalLaplacianRefParams *p)
{
  return w >= 1 && h >= 1
         && (size_t) w * h <= SIZE_MAX / (8 * sizeof (double))
         && p->edge > 0.0 && isfinite (p->edge)
         && p->detail >= 0.0 && isfinite (p->detail)
         && p->range_compression >= 0.0 && p->range_compression <= 1.0
         && (p->samples == 0 || p->samples >= 2);
}

static bool
log_args_ok (int w, int h, const ClfxLocalLaplacianRefParams *p,
             double l_min, double l_max)
{
  return params_ok (w, h, p) && isfinite (l_min) && isfinite (l_max)
         && l_min <= l_max;
}

static void
set_info (ClfxLocalLaplacianInfo *info, int levels, int samples,
          double l_min, double l_max, double step)
{
  if (! info)
    return;
  info->levels = levels;
  info->samples = samples;
  info->l_min = l_min;
  info->l_max = l_max;
  info->step = step;
}

/* ---- the fast form ----------------------------------------------------- */

/* Step 5's weight of sample k for the coefficient whose clamped g is g. */
static double
sample_weight (double g, double l_min, double step, int K, int k)
{
  double t, f;
  int    j;

  if (K == 1)
    return 1.0;
  t = (g - l_min) / step;
  j = (int) floor (t);
  if (j > K - 2)
    j = K - 2;
  f = t - j;
  return k == j ? 1.0 - f : k == j + 1 ? f : 0.0;
}

bool
clfx_local_laplacian_ref_log (int w, int h, const double *L, double *out,
                              const ClfxLocalLaplacianRefParams *p,
                              double l_min, double l_max,
                              ClfxLocalLaplacianInfo *info)
{
  size_t  n = (size_t) w * h;
  double  range = l_max - l_min, step = 0.0;
  double  alpha, beta, sigma;
  int     K = 1;
  Pyramid G = { 0 }, O = { 0 };
  double *cur = NULL, *nxt = NULL, *tmp = NULL;
  bool    ok = false;

  if (! p || ! log_args_ok (w, h, p, l_min, l_max))
    return false;
  alpha = p->detail;
  beta = 1.0 - p->range_compression;
  sigma = p->edge;

  /* Step 2 (an empty range: one sample, as K equal ones would give). */
  if (range > 0.0)
    {
      K = p->samples ? p->samples : clfx_local_laplacian_samples (sigma);
      step = range / (K - 1);
    }

  if (! pyramid_alloc (&G, w, h) || ! pyramid_alloc (&O, w, h)
      || ! (cur = malloc (n * sizeof (double)))
      || ! (nxt = malloc ((n / 2 + 1) * sizeof (double)))
      || ! (tmp = malloc ((size_t) h * ((w + 1) / 2) * sizeof (double))))
    goto done;
  pyramid_gauss (&G, L, tmp);
  for (int l = 0; l < O.n; l++)
    memset (O.l[l].v, 0, (size_t) O.l[l].lw * O.l[l].lh * sizeof (double));
  memcpy (O.l[O.n].v, G.l[G.n].v,
          (size_t) G.l[G.n].lw * G.l[G.n].lh * sizeof (double));

  /* Steps 3 and 5, one sample at a time: r_k (L), its Gaussian levels
   * two at a time, each Laplacian coefficient added to O with its
   * weight where that is not 0. */
  for (int k = 0; k < K; k++)
    {
      double g_k = l_min + k * step;
      Plane  a = whole (cur, w, h), b;

      for (size_t i = 0; i < n; i++)
        cur[i] = clfx_local_laplacian_remap (L[i], g_k, alpha, beta, sigma);
      for (int l = 0; l < G.n; l++)
        {
          Plane *gl = &G.l[l], *ol = &O.l[l];

          b = whole (a.v == cur ? nxt : cur, G.l[l + 1].lw, G.l[l + 1].lh);
          down_plane (&a, &b, tmp);
          for (int y = 0; y < gl->lh; y++)
            for (int x = 0; x < gl->lw; x++)
              {
                double g = fmin (fmax (AT (gl, x, y), l_min), l_max);
                double wt = sample_weight (g, l_min, step, K, k);

                if (wt != 0.0)
                  AT (ol, x, y) += wt * (AT (&a, x, y) - up_at (&b, x, y));
              }
          a = b;
        }
    }

  /* Step 6. */
  pyramid_collapse (&O);
  memcpy (out, O.l[0].v, n * sizeof (double));
  set_info (info, G.n, K, l_min, l_max, step);
  ok = true;

done:
  free (G.block);
  free (O.block);
  free (cur);
  free (nxt);
  free (tmp);
  return ok;
}

/* ---- the direct form --------------------------------------------------- */

/* The windows of levels 0..l+1 that coefficient (x, y) of level l reads:
 * up's taps at level l+1, then at each finer level k the pixels down
 * reads for level k+1's window.  Clamping is monotone, so the clamped
 * taps of a run of coordinates are a run again: [clamp (2 x0 - 2),
 * clamp (2 x1 + 2)] holds them all and nothing else; level l's window
 * holds (x, y) itself. */
static void
window_of (const Pyramid *G, int l, int x, int y, Rect *win)
{
  const Plane *c = &G->l[l + 1];
  int x0 = clampi ((x >> 1) - 1, 0, c->lw - 1);
  int x1 = clampi ((x >> 1) + 1, 0, c->lw - 1);
  int y0 = clampi ((y >> 1) - 1, 0, c->lh - 1);
  int y1 = clampi ((y >> 1) + 1, 0, c->lh - 1);

  for (int k = l + 1; k >= 0; k--)
    {
      Rect r = { x0, y0, x1 - x0 + 1, y1 - y0 + 1 };

      win[k] = r;
      if (k == 0)
        break;
      x0 = clampi (2 * x0 - 2, 0, G->l[k - 1].lw - 1);
      x1 = clampi (2 * x1 + 2, 0, G->l[k - 1].lw - 1);
      y0 = clampi (2 * y0 - 2, 0, G->l[k - 1].lh - 1);
      y1 = clampi (2 * y1 + 2, 0, G->l[k - 1].lh - 1);
    }
}

bool
clfx_local_laplacian_direct_log (int w, int h, const double *L, double *out,
                                 const ClfxLocalLaplacianRefParams *p,
                                 double l_min, double l_max,
                                 ClfxLocalLaplacianInfo *info)
{
  size_t  n = (size_t) w * h;
  double  alpha, beta, sigma;
  Pyramid G = { 0 }, O = { 0 };
  double *buf[2] = { NULL, NULL }, *tmp = NULL;
  Rect    win[MAX_LEVELS];
  bool    ok = false;

  if (! p || ! log_args_ok (w, h, p, l_min, l_max))
    return false;
  alpha = p->detail;
  beta = 1.0 - p->range_compression;
  sigma = p->edge;
  if (! pyramid_alloc (&G, w, h) || ! pyramid_alloc (&O, w, h)
      || ! (buf[0] = malloc (n * sizeof (double)))
      || ! (buf[1] = malloc (n * sizeof (double)))
      || ! (tmp = malloc (n * sizeof (double))))
    goto done;
  pyramid_gauss (&G, L, tmp);
  memcpy (O.l[O.n].v, G.l[G.n].v,
          (size_t) G.l[G.n].lw * G.l[G.n].lh * sizeof (double));

  for (int l = 0; l < G.n; l++)
    for (int y = 0; y < G.l[l].lh; y++)
      for (int x = 0; x < G.l[l].lw; x++)
        {
          double g = AT (&G.l[l], x, y);
          Plane  a, b;

          /* r_g (L) on level 0's window, its Gaussian levels on theirs
           * up to l + 1; the coefficient is G_l - up (G_{l+1}) there. */
          window_of (&G, l, x, y, win);
          a = whole (buf[0], w, h);
          a.r = win[0];
          for (int yy = a.r.y0; yy < a.r.y0 + a.r.h; yy++)
            for (int xx = a.r.x0; xx < a.r.x0 + a.r.w; xx++)
              AT (&a, xx, yy)
                = clfx_local_laplacian_remap (L[(size_t) yy * w + xx], g,
                                              alpha, beta, sigma);
          b = a;
          for (int k = 1; k <= l + 1; k++)
            {
              Plane c = whole (buf[k & 1], 0, 0);

              c.r = win[k];
              down_plane (&b, &c, tmp);
              a = b;
              b = c;
            }
          AT (&O.l[l], x, y) = AT (&a, x, y) - up_at (&b, x, y);
        }

  pyramid_collapse (&O);
  memcpy (out, O.l[0].v, n * sizeof (double));
  set_info (info, G.n, 0, l_min, l_max, 0.0);
  ok = true;

done:
  free (G.block);
  free (O.block);
  free (buf[0]);
  free (buf[1]);
  free (tmp);
  return ok;
}

/* ---- steps 1 and 7 ----------------------------------------------------- */

static float
saturated (double v)
{
  return v >= FLT_MAX ? FLT_MAX : (float) v;
}

bool
clfx_local_laplacian_ref (int w, int h, const double *in, float *out,
                          const ClfxLocalLaplacianRefParams *p,
                          ClfxLocalLaplacianInfo *info)
{
  size_t  n = (size_t) w * h;
  double *L = NULL, *Lo = NULL;
  double  ymax = 0.0, floor_y, l_min = INFINITY, l_max = -INFINITY;
  bool    ok = false;

  if (! p || ! params_ok (w, h, p))
    return false;
  if (! (L = malloc (n * sizeof (double)))
      || ! (Lo = malloc (n * sizeof (double))))
    goto done;

  /* Step 1. */
  for (size_t i = 0; i < n; i++)
    {
      L[i] = Y_ROW[0] * in[4 * i] + Y_ROW[1] * in[4 * i + 1]
             + Y_ROW[2] * in[4 * i + 2];
      ymax = fmax (ymax, L[i]);
    }
  if (! (ymax > 0.0))
    {
      for (size_t i = 0; i < n; i++)
        {
          out[4 * i] = out[4 * i + 1] = out[4 * i + 2] = 0.0f;
          out[4 * i + 3] = (float) in[4 * i + 3];
        }
      set_info (info, clfx_local_laplacian_levels (w, h), 0, 0.0, 0.0, 0.0);
      ok = true;
      goto done;
    }
  floor_y = fmax (ymax * 1e-6, FLT_MIN);
  for (size_t i = 0; i < n; i++)
    {
      L[i] = log10 (fmax (L[i], floor_y));
      l_min = fmin (l_min, L[i]);
      l_max = fmax (l_max, L[i]);
    }

  /* Steps 2 to 6. */
  if (! (p->direct
           ? clfx_local_laplacian_direct_log (w, h, L, Lo, p, l_min, l_max, info)
           : clfx_local_laplacian_ref_log (w, h, L, Lo, p, l_min, l_max, info)))
    goto done;

  /* Step 7: colour times 10^(L' - L); black stays black. */
  for (size_t i = 0; i < n; i++)
    {
      const double *c = in + 4 * i;
      bool          black = c[0] == 0.0 && c[1] == 0.0 && c[2] == 0.0;
      double        k = black ? 0.0 : pow (10.0, Lo[i] - L[i]);

      for (int ch = 0; ch < 3; ch++)
        out[4 * i + ch] = saturated (c[ch] * k);
      out[4 * i + 3] = (float) c[3];
    }
  ok = true;

done:
  free (L);
  free (Lo);
  return ok;
}
