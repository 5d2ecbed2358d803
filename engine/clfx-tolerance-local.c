/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-tolerance-local.c: a tolerance's absolute bound per result pixel,
 * from the largest value among the source texels that pixel reads (see
 * clfx-tolerance.h for why). */
#include "clfx-graph.h"

#include <math.h>
#include <stdlib.h>

#include "clfx-parallel.h"
#include "../kernels/clfx-common.h"

/* The source texels one result column (or row) reads along an axis,
 * clipped to the image; whole: the whole line (a repeat or mirror reaches
 * around the image, so the texels read sit at its other end). */
typedef struct
{
  int  lo, hi;
  bool whole;
} Span;

/* The spans of the n result positions along one axis of a source line of
 * `size` texels; false when the clipped spans are not monotone (then
 * line_max scans each span). */
static bool
axis_spans (const ClfxVariant *v, const ClfxPlan *plan, const ClfxImage *src,
            bool x_axis, int n, int size, Span *sp)
{
  bool wraps = plan->addressing == CLFX_ADDR_REPEAT
               || plan->addressing == CLFX_ADDR_MIRRORED;
  bool monotone = true;
  int  last_lo = 0, last_hi = 0;

  for (int i = 0; i < n; i++)
    {
      ClfxRect out = { x_axis ? i : 0, x_axis ? 0 : i, 1, 1 }, in;
      int      lo, hi;

      clfx_plan_source_rect (v, plan, src, &out, &in);
      lo = x_axis ? in.x : in.y;
      hi = lo + (x_axis ? in.width : in.height) - 1;
      sp[i].whole = wraps && (lo < 0 || hi >= size);
      /* Clamped modes read the edge texel (or 0, the border) outside. */
      lo = lo < 0 ? 0 : lo >= size ? size - 1 : lo;
      hi = hi < lo ? lo : hi >= size ? size - 1 : hi;
      sp[i].lo = lo;
      sp[i].hi = hi;
      if (sp[i].whole)
        continue;
      if (lo < last_lo || hi < last_hi)
        monotone = false;
      last_lo = lo;
      last_hi = hi;
    }
  return monotone;
}

/* out[i * stride] = the largest line[k * lstride] over span i: a sliding
 * maximum (a deque of decreasing values) when the spans move forward
 * only, each span scanned otherwise. */
static void
line_max (const float *line, size_t lstride, int size, const Span *sp,
          int n, bool monotone, int *dq, float *out, size_t stride)
{
  float all = -1.0f; /* the whole line's, once a span needs it */
  int   head = 0, tail = 0, next = 0;

  for (int i = 0; i < n; i++)
    {
      float m = 0.0f;

      if (sp[i].whole)
        {
          if (all < 0.0f)
            {
              all = 0.0f;
              for (int k = 0; k < size; k++)
                all = fmaxf (all, line[k * lstride]);
            }
          m = all;
        }
      else if (! monotone)
        for (int k = sp[i].lo; k <= sp[i].hi; k++)
          m = fmaxf (m, line[k * lstride]);
      else
        {
          for (; next <= sp[i].hi; next++)
            {
              while (tail > head
                     && line[dq[tail - 1] * lstride] <= line[next * lstride])
                tail--;
              dq[tail++] = next;
            }
          while (dq[head] < sp[i].lo)
            head++;
          m = line[dq[head] * lstride];
        }
      out[i * stride] = m;
    }
}

typedef struct
{
  const ClfxImage *src;
  const Span      *sx, *sy;
  bool             mono_x, mono_y;
  int              out_w, out_h;
  float           *rows; /* src->height x out_w */
  ClfxImage       *map;
  const ClfxTolerance *tol;
  double           fixed;
  bool             failed;
} Job;

/* The largest |value| a kernel may read at a texel: stored or decoded
 * (whichever is larger: the variant's own measure is one of them), colour
 * times alpha where alpha exceeds 1 (premultiplied reads).  NaN and Inf
 * are left out, as the variants' magnitudes leave them out. */
static float
texel_magnitude (const ClfxImage *img, int x, int y)
{
  int    ai = img->channels == 4 ? 3 : img->channels == 2 ? 1 : -1;
  double a = ai >= 0 ? fabs ((double) clfx_image_get (img, x, y, ai)) : 1.0;
  double m = 0.0;

  for (int c = 0; c < img->channels; c++)
    {
      double v = fmax (fabs ((double) clfx_image_get (img, x, y, c)),
                       fabs ((double) clfx_image_get_linear (img, x, y, c)));
      if (c != ai && isfinite (a) && a > 1.0)
        v *= a;
      if (isfinite (v) && v > m)
        m = v;
    }
  return (float) fmin (m, 3.0e38);
}

static void
rows_job (void *data, int y0, int y1)
{
  Job   *j = data;
  int    w = j->src->width;
  float *line = malloc ((size_t) w * sizeof *line);
  int   *dq = malloc ((size_t) w * sizeof *dq);

  if (! line || ! dq)
    j->failed = true;
  for (int y = y0; line && dq && y < y1; y++)
    {
      for (int x = 0; x < w; x++)
        line[x] = texel_magnitude (j->src, x, y);
      line_max (line, 1, w, j->sx, j->out_w, j->mono_x, dq,
                j->rows + (size_t) y * j->out_w, 1);
    }
  free (line);
  free (dq);
}

/* Rounds a bound up to the next float: the map must not tighten it. */
static float
float_up (double v)
{
  float f = (float) v;

  return (double) f < v ? nextafterf (f, INFINITY) : f;
}

static void
columns_job (void *data, int x0, int x1)
{
  Job                 *j = data;
  const ClfxTolerance *t = j->tol;
  int                  h = j->src->height;
  float               *m = malloc ((size_t) j->out_h * sizeof *m);
  int                 *dq = malloc ((size_t) h * sizeof *dq);

  if (! m || ! dq)
    j->failed = true;
  for (int x = x0; m && dq && x < x1; x++)
    {
      line_max (j->rows + x, (size_t) j->out_w, h, j->sy, j->out_h,
                j->mono_y, dq, m, 1);
      for (int y = 0; y < j->out_h; y++)
        {
          double sm = fmin (1.0, m[y] / t->magnitude);
          double sr = t->range > 0 ? fmin (1.0, 2.0 * m[y] / t->range) : 1.0;
          clfx_image_set (j->map, x, y, 0,
                          float_up (j->fixed + t->abs_mag * sm
                                    + t->abs_range * sr));
        }
    }
  free (m);
  free (dq);
}

bool
clfx_tol_local_map (const ClfxVariant *v, const ClfxPlan *plan,
                    const ClfxImage *src, const ClfxTolerance *tol,
                    ClfxImage *map, bool *made, ClfxError *error)
{
  Job   j = { 0 };
  Span *sx = NULL, *sy = NULL;
  bool  ok = false;

  *made = false;
  /* Nothing to scale, or every pixel reads the whole image. */
  if (! (tol->magnitude > 0.0) || plan->whole_image_stats
      || tol->abs_mag + tol->abs_range <= 0.0 || src->width < 1
      || src->height < 1 || plan->width < 1 || plan->height < 1)
    return true;
  j.src = src;
  j.tol = tol;
  j.out_w = plan->width;
  j.out_h = plan->height;
  j.map = map;
  j.fixed = fmax (0.0, tol->abs_tol - tol->abs_mag - tol->abs_range);
  sx = malloc ((size_t) j.out_w * sizeof *sx);
  sy = malloc ((size_t) j.out_h * sizeof *sy);
  j.rows = malloc ((size_t) src->height * (size_t) j.out_w * sizeof *j.rows);
  if (! sx || ! sy || ! j.rows)
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory for the "
                      "per-pixel tolerance (%dx%d)", j.out_w, src->height);
      goto out;
    }
  if (! clfx_host_image_alloc (map, j.out_w, j.out_h, 1, CLFX_DEPTH_FLOAT,
                               error))
    goto out;
  j.sx = sx;
  j.sy = sy;
  j.mono_x = axis_spans (v, plan, src, true, j.out_w, src->width, sx);
  j.mono_y = axis_spans (v, plan, src, false, j.out_h, src->height, sy);
  clfx_parallel_rows (src->height, rows_job, &j);
  if (! j.failed)
    clfx_parallel_rows (j.out_w, columns_job, &j);
  if (j.failed)
    {
      clfx_host_image_free (map);
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory for the "
                      "per-pixel tolerance");
      goto out;
    }
  *made = true;
  ok = true;
out:
  free (sx);
  free (sy);
  free (j.rows);
  return ok;
}
