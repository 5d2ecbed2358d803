/* SPDX-License-Identifier: GPL-3.0-or-later */
/* durand02.c: the tonemap family's durand02 (docs/TONEMAP.md,
 * kernels/durand02.cl): Durand and Dorsey's base and detail, the base a
 * bilateral grid's slice of the log luminance, after the family's
 * statistics (tonemap-common.c).  log10 out = (B - max B) c + detail (L -
 * B), c = contrast / (max B - min B); colour times out / Y.  The grid
 * needs the whole image at once: in tiles, L is whole, made by a pass
 * over the tiles (tm_plan_fields), and the result the one-piece run's.
 *
 * The reference (durand_ref) computes the grid in double from the stored
 * texels and carries, cell by cell, what the device's float sums, blurs
 * and slice may differ by. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/durand02-shapes.h"
#include "clfx-params.h"
#include "tonemap-common.h"

/* The float unit roundoff, 2^-24, in the bounds below. */
#define U CLFX_FLOAT_EPS

const ClfxChoice clfx_durand02_filter_choices[] = {
  { "nearest", CLFX_N_ ("Nearest (trilinear in the kernel, exact weights)") },
  { "linear", CLFX_N_ ("Linear (the sampler's trilinear filter)") },
  { NULL, NULL }
};

typedef struct
{
  TmState tm;
  double  range_sigma, contrast, detail;
  /* The grid's cell side in pixels, its size in cells, and how it is
   * sliced (sampler-filter linear). */
  int     cell, gx, gy, gz;
  bool    linear;
} DurandState;

/* ---- OpenCL ---------------------------------------------------------------- */

static bool
durand_params (ClfxGraph *g, const TmState *st, cl_mem stats, float n,
               cl_mem prm, ClfxError *error)
{
  const DurandState *ds = (const DurandState *) st;
  ClfxLaunch         one = TM_ONE ("durand_params");

  return CLFX_LAUNCH (g, &one, error, CLFX_ARG (stats), CLFX_FLOAT (n),
                      CLFX_FLOAT ((float) ds->range_sigma),
                      CLFX_FLOAT ((float) ds->contrast),
                      CLFX_FLOAT ((float) ds->detail), CLFX_ARG (prm));
}

/* The graph after the field: where whole (one piece, or the first tile)
 * the grid (splat, three blurs) and the base's range; the grid as a 3D
 * image; the map of the current piece. */
static bool
durand_cl (ClfxGraph *g, const TmState *st, bool whole, cl_mem scan,
           cl_mem prm, ClfxError *error)
{
  const DurandState *ds = (const DurandState *) st;
  const ClfxPlan *plan = clfx_graph_plan (g);
  const ClfxTile *t = clfx_graph_tile (g);
  int             w = plan->width, h = plan->height;
  size_t          cells = (size_t) ds->gx * ds->gy * ds->gz;
  size_t          nbx = (size_t) (w + TM_BW - 1) / TM_BW;
  size_t          nby = (size_t) (h + TM_BH - 1) / TM_BH;
  int             nb = (int) (nbx * nby);
  /* TM_CHUNK rows of a cell per work-item. */
  int             chunks = (ds->cell + TM_CHUNK - 1) / TM_CHUNK;
  ClfxLaunch      splat = { "durand_splat", NULL, NULL, 2,
                            { (size_t) ds->gz,
                              (size_t) ds->gx * (size_t) ds->gy
                                * (size_t) chunks },
                            { (size_t) ds->gz, 1 } };
  ClfxLaunch      sum = { "durand_splat_sum", NULL, NULL, 1, { cells, 1 },
                          { 0, 0 } };
  ClfxLaunch      blur = { "durand_blur", NULL, NULL, 1, { cells, 1 },
                           { 0, 0 } };
  ClfxLaunch      range = { "durand_range", NULL, NULL, 2,
                            { nbx * TM_BW, nby }, { TM_BW, 1 } };
  ClfxLaunch      final = { "tm_range_final", NULL, NULL, 1, { TM_FINAL, 1 },
                            { TM_FINAL, 1 } };
  ClfxLaunch      map = { "durand_map", NULL, NULL, 2,
                          { (size_t) t->out.width, (size_t) t->out.height },
                          { 0, 0 } };
  cl_int4         dims = { { ds->gx, ds->gy, ds->gz, 0 } };
  cl_mem          L, g0, g1, img, partials, part, hist;
  cl_sampler      smp;
  /* The linear filter through the sampler (hw), or the trilinear from
   * nearest reads.  CPU devices: the splat a work-item per cell and
   * chunk; without the sampler, the range and the map eight pixels of a
   * row a work-item, the base's cells read from the grid's buffer (wide;
   * kernels/durand02.cl).  The framework never gives the sampler to a
   * source in buffers, so on CPU devices the linear filter takes that
   * form too: PoCL's sampler is software, and took most of the range and
   * the map's time. */
  bool            hw = ds->linear && plan->use_sampler;
  bool            cpu = clfx_graph_source_is_buffer (g);
  bool            wide = cpu && ! hw;

  /* A group holds one cell's z work-items: past the device's group limit
   * (a very small range sigma) the splat runs them in several groups.  On
   * CPU devices a work-item takes every z of its cell and chunk
   * (durand_splat_v), the same partials. */
  if ((size_t) ds->gz > clfx_graph_device (g)->max_work_group)
    splat.local[0] = 0;
  if (cpu && ds->gz <= TM_SPLAT_Z)
    {
      splat.kernel = "durand_splat_v";
      splat.dims = 1;
      splat.global[0] = splat.global[1];
      splat.global[1] = 1;
      splat.local[0] = 0;
    }
  if (wide)
    {
      range.kernel = "durand_range_v";
      range.global[0] = nbx * (TM_BW / TM_V);
      range.local[0] = TM_BW / TM_V;
      map.kernel = "durand_map_v";
      map.global[0] = ((size_t) t->out.width + TM_V - 1) / TM_V;
      map.global[1] = ((size_t) t->out.height + TM_MAP_ROWS - 1)
                      / TM_MAP_ROWS;
    }
  if (! (L = tm_field_buffer (g, st, error))
      || ! (g0 = clfx_graph_buffer (g, "grid", 16 * cells, error))
      || ! (part = clfx_graph_buffer (g, "grid chunks",
                                      8 * cells * (size_t) chunks, error))
      || ! (g1 = clfx_graph_buffer (g, "grid blurred", 16 * cells, error))
      || ! (partials = clfx_graph_buffer (g, "base partials",
                                          8 * (size_t) nb, error))
      || ! (smp = clfx_graph_sampler_for (g, false, CLFX_ADDR_CLAMP_TO_EDGE,
                                          hw, error)))
    return false;
  if (whole
      && (! CLFX_LAUNCH (g, &splat, error, CLFX_ARG (L), CLFX_INT (w),
                        CLFX_INT (h), CLFX_INT (ds->cell), CLFX_INT (ds->gx),
                        CLFX_INT (ds->gy), CLFX_INT (ds->gz),
                        CLFX_INT (chunks), CLFX_ARG (prm), CLFX_ARG (part))
          || ! CLFX_LAUNCH (g, &sum, error, CLFX_ARG (part),
                            CLFX_INT (ds->gx), CLFX_INT (ds->gy),
                            CLFX_INT (ds->gz), CLFX_INT (chunks),
                            CLFX_ARG (g0))))
    return false;
  for (int axis = 0; whole && axis < 3; axis++)
    {
      cl_mem in = axis % 2 ? g1 : g0, out = axis % 2 ? g0 : g1;
      if (! CLFX_LAUNCH (g, &blur, error, CLFX_ARG (in), CLFX_ARG (out),
                         CLFX_INT (ds->gx), CLFX_INT (ds->gy),
                         CLFX_INT (ds->gz), CLFX_INT (axis)))
        return false;
    }
  /* Three passes: the blurred grid is in g1. */
  if (plan->given_stats)
    {
      /* The base's range comes with the statistics; the slice is still
       * the map's. */
      if (! wide
          && ! (img = clfx_graph_image3d (g, "grid image", g1, ds->gx, ds->gy,
                                          ds->gz, error)))
        return false;
      if (whole && ! tm_given_range_cl (g, &ds->tm, error))
        return false;
    }
  else if (wide)
    {
      /* The grid as it is: no image to make. */
      if (whole && ! CLFX_LAUNCH (g, &range, error, CLFX_ARG (L), CLFX_INT (w),
                         CLFX_INT (h), CLFX_ARG (g1), CLFX_INT (ds->cell),
                         CLFX_ARG (dims), CLFX_ARG (prm),
                         CLFX_ARG (partials), CLFX_LOCAL (8 * TM_BW / TM_V)))
        return false;
    }
  else if (! (img = clfx_graph_image3d (g, "grid image", g1, ds->gx, ds->gy,
                                        ds->gz, error))
           || (whole && ! CLFX_LAUNCH (g, &range, error, CLFX_ARG (L), CLFX_INT (w),
                             CLFX_INT (h), CLFX_ARG (img), CLFX_ARG (smp),
                             CLFX_INT (hw), CLFX_INT (ds->cell),
                             CLFX_ARG (dims), CLFX_ARG (prm),
                             CLFX_ARG (partials), CLFX_LOCAL (8 * TM_BW))))
    return false;
  if ((whole && ! plan->given_stats
       && ! CLFX_LAUNCH (g, &final, error, CLFX_ARG (partials),
                         CLFX_INT (nb), CLFX_ARG (prm),
                         CLFX_LOCAL (8 * TM_FINAL)))
      || ! (hist = tm_hist_buffer (g, "histogram after", TM_HA_N, error)))
    return false;
  if (wide)
    return CLFX_LAUNCH (g, &map, error, CLFX_SRC, CLFX_DST, CLFX_ARG (scan),
                        CLFX_FLOAT (ds->tm.scale), CLFX_ARG (L), CLFX_INT (w),
                        CLFX_ARG (g1), CLFX_INT (ds->cell), CLFX_ARG (dims),
                        CLFX_ARG (prm), CLFX_ARG (hist),
                        CLFX_LOCAL (4 * TM_HA_N));
  return CLFX_LAUNCH (g, &map, error, CLFX_SRC, CLFX_DST, CLFX_ARG (scan),
                      CLFX_FLOAT (ds->tm.scale), CLFX_ARG (img),
                      CLFX_ARG (smp), CLFX_INT (hw), CLFX_INT (ds->cell),
                      CLFX_ARG (dims), CLFX_ARG (prm), CLFX_ARG (hist),
                      CLFX_LOCAL (4 * TM_HA_N));
}

/* ---- CPU reference ------------------------------------------------------------ */

/* The constants, as durand_params makes them in float: L = log10 (max
 * (Y, floor)), the floor 6 decades below max Y and at least FLT_MIN. */
static void
durand_ref_params (const DurandState *ds, TmRef *r)
{
  double *p = r->prm;

  tm_ref_params_begin (r);
  p[0] = log10 (r->max_y) - 6.0;
  p[1] = fmax (r->max_y * 1e-6, FLT_MIN);
  p[2] = 1.0 / ds->range_sigma;
  p[3] = ds->contrast;
  p[4] = ds->detail;
}

/* A grid cell: the sums of w L and w, the sums of w |L| and of the pixels
 * that reach it (for the bound), and the bounds on the device's sums. */
typedef struct
{
  double sl, sw, abs_l, cnt, el, ew;
} Cell;

/* The reference's base at every pixel, and what the device's may differ
 * by (kernels/durand02.cl, docs/TONEMAP.md):
 *  - L: Y's 8 u and the read's eta relative, log10's 3 ulp (6 u |L|) and
 *    the floor's: dL = (10 u + eta) / ln 10 + 6 u max |L|; the splat's
 *    weight f = zf - floor (zf) moves by df = dL / sigma + 4 u (zf + 1);
 *  - a cell's sums, compensated over each chunk of rows and then over
 *    the chunks: 6 u of their absolute sums, plus df per
 *    pixel (times max |L| in sum w L) and dL per unit weight in sum w L;
 *  - each blur pass: its five terms (5 u of the blurred absolute sums),
 *    the bounds carried through the same (positive) weights;
 *  - the slice: the eight corners' bounds under the same weights, 12 u of
 *    the absolute sums for the float weights and products, the position's
 *    error in z (dL / sigma times the corners' spread), and with the
 *    hardware filter of a GPU 3 x 2^-9 of the corners' spread (its 8-bit
 *    weights; a CPU device's filter computes in float: the 12 u);
 *  - B = sum w L / sum w: (e_L + |B| e_w) / w + 3 u |B|. */
typedef struct
{
  double *L, *B, *dB;   /* per pixel */
  double  bmin, bmax, db_max, dl;
  /* How far the device's max B and min B may lie from bmax and bmin: by
   * the bounds of the pixels that may hold them, not by db_max (a pixel
   * whose slice has little weight anywhere in the image would widen the
   * range's bound at every pixel, more often the larger the image). */
  double  e_bmax, e_bmin;
} DurandRef;

static void
durand_ref_free (DurandRef *d)
{
  free (d->L);
  free (d->B);
  free (d->dB);
}

static void
blur_axis (Cell *in, Cell *out, const DurandState *ds, int axis)
{
  static const double k[5] = { 0.0625, 0.25, 0.375, 0.25, 0.0625 };
  long                step = axis == 0   ? 1
                             : axis == 1 ? ds->gx
                                         : (long) ds->gx * ds->gy;
  int                 len = axis == 0 ? ds->gx : axis == 1 ? ds->gy : ds->gz;
  long                n = (long) ds->gx * ds->gy * ds->gz;

  for (long i = 0; i < n; i++)
    {
      int  at = axis == 0   ? (int) (i % ds->gx)
                : axis == 1 ? (int) ((i / ds->gx) % ds->gy)
                            : (int) (i / ((long) ds->gx * ds->gy));
      Cell c = { 0, 0, 0, 0, 0, 0 };
      for (int t = -2; t <= 2; t++)
        if (at + t >= 0 && at + t < len)
          {
            const Cell *a = &in[i + t * step];
            c.sl += k[t + 2] * a->sl;
            c.sw += k[t + 2] * a->sw;
            c.abs_l += k[t + 2] * a->abs_l;
            c.cnt += k[t + 2] * a->cnt;
            c.el += k[t + 2] * a->el;
            c.ew += k[t + 2] * a->ew;
          }
      c.el += 5.0 * U * c.abs_l;
      c.ew += 5.0 * U * c.sw;
      out[i] = c;
    }
}

static bool
durand_ref (const ClfxImage *src, const ClfxPlan *plan, double scale,
            const TmRef *r, bool gpu_filter, DurandRef *d, ClfxError *error)
{
  const DurandState *ds = plan->state;
  const double      *p = r->prm;
  long               npx = (long) src->width * src->height;
  long               n = (long) ds->gx * ds->gy * ds->gz;
  Cell              *g0 = calloc ((size_t) n, sizeof *g0);
  Cell              *g1 = calloc ((size_t) n, sizeof *g1);
  double             labs = 0.0, df, eta;

  memset (d, 0, sizeof *d);
  d->L = malloc ((size_t) npx * sizeof *d->L);
  d->B = malloc ((size_t) npx * sizeof *d->B);
  d->dB = malloc ((size_t) npx * sizeof *d->dB);
  if (! g0 || ! g1 || ! d->L || ! d->B || ! d->dB)
    {
      free (g0);
      free (g1);
      durand_ref_free (d);
      return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
    }
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double v[4];
        tm_ref_read (src, plan, r, x, y, scale, v);
        d->L[(long) y * src->width + x]
          = log10 (fmax (tm_ref_luminance (v), p[1]));
        labs = fmax (labs, fabs (d->L[(long) y * src->width + x]));
      }
  eta = tm_read_eta (plan, src);
  d->dl = (10.0 * U + eta) / log (10.0) + 6.0 * U * labs;
  df = d->dl * p[2] + 4.0 * U * (6.0 * p[2] + 2.0);
  /* The splat, one pixel at a time into its two cells. */
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double l = d->L[(long) y * src->width + x];
        double zf = (l - p[0]) * p[2], z0 = floor (zf), f = zf - z0;
        long   base = (long) (y / ds->cell) * ds->gx + x / ds->cell;
        for (int k = 0; k < 2; k++)
          {
            int    z = (int) z0 + k;
            double wgt = k ? f : 1.0 - f;
            Cell  *c;
            if (z < 0 || z >= ds->gz)
              continue;
            c = &g0[(long) z * ds->gx * ds->gy + base];
            c->sl += wgt * l;
            c->sw += wgt;
            c->abs_l += wgt * fabs (l);
            c->cnt += 1.0;
          }
      }
  for (long i = 0; i < n; i++)
    {
      Cell *c = &g0[i];
      c->el = 6.0 * U * c->abs_l + df * c->cnt * labs + d->dl * c->sw;
      c->ew = 6.0 * U * c->sw + df * c->cnt;
    }
  blur_axis (g0, g1, ds, 0);
  blur_axis (g1, g0, ds, 1);
  blur_axis (g0, g1, ds, 2);
  d->bmin = INFINITY;
  d->bmax = -INFINITY;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        long   at = (long) y * src->width + x;
        double l = d->L[at];
        double ax = (x + 0.5) / ds->cell - 0.5;
        double ay = (y + 0.5) / ds->cell - 0.5;
        double az = (l - p[0]) * p[2];
        double x0 = floor (ax), y0 = floor (ay), z0 = floor (az);
        double tx = ax - x0, ty = ay - y0, tz = az - z0;
        Cell   s = { 0, 0, 0, 0, 0, 0 };
        double lo_l = INFINITY, hi_l = -INFINITY, lo_w = INFINITY,
               hi_w = -INFINITY, b;
        for (int k = 0; k < 8; k++)
          {
            int    i = (int) x0 + (k & 1), j = (int) y0 + ((k >> 1) & 1);
            int    z = (int) z0 + ((k >> 2) & 1);
            double t = ((k & 1) ? tx : 1.0 - tx) * ((k & 2) ? ty : 1.0 - ty)
                       * ((k & 4) ? tz : 1.0 - tz);
            const Cell *c;
            i = i < 0 ? 0 : i >= ds->gx ? ds->gx - 1 : i;
            j = j < 0 ? 0 : j >= ds->gy ? ds->gy - 1 : j;
            z = z < 0 ? 0 : z >= ds->gz ? ds->gz - 1 : z;
            c = &g1[((long) z * ds->gy + j) * ds->gx + i];
            s.sl += t * c->sl;
            s.sw += t * c->sw;
            s.abs_l += t * c->abs_l;
            s.el += t * c->el;
            s.ew += t * c->ew;
            lo_l = fmin (lo_l, c->sl);
            hi_l = fmax (hi_l, c->sl);
            lo_w = fmin (lo_w, c->sw);
            hi_w = fmax (hi_w, c->sw);
          }
        s.el += 12.0 * U * s.abs_l + d->dl * p[2] * (hi_l - lo_l);
        s.ew += 12.0 * U * s.sw + d->dl * p[2] * (hi_w - lo_w);
        if (gpu_filter)
          {
            s.el += 3.0 / 512.0 * (hi_l - lo_l);
            s.ew += 3.0 / 512.0 * (hi_w - lo_w);
          }
        b = s.sw > 0.0 ? s.sl / s.sw : l;
        d->B[at] = b;
        /* Where the device's weight may reach 0, its base is L itself. */
        d->dB[at] = s.sw > s.ew ? (s.el + fabs (b) * s.ew) / (s.sw - s.ew)
                                    + 3.0 * U * fabs (b)
                                : fabs (b - l) + d->dl;
        d->bmin = fmin (d->bmin, b);
        d->bmax = fmax (d->bmax, b);
        d->db_max = fmax (d->db_max, d->dB[at]);
      }
  {
    double hi_up = -INFINITY, hi_dn = -INFINITY, lo_up = INFINITY,
           lo_dn = INFINITY;
    for (long i = 0; i < npx; i++)
      {
        hi_up = fmax (hi_up, d->B[i] + d->dB[i]);
        hi_dn = fmax (hi_dn, d->B[i] - d->dB[i]);
        lo_up = fmin (lo_up, d->B[i] + d->dB[i]);
        lo_dn = fmin (lo_dn, d->B[i] - d->dB[i]);
      }
    d->e_bmax = npx ? fmax (hi_up - d->bmax, d->bmax - hi_dn) : 0.0;
    d->e_bmin = npx ? fmax (d->bmin - lo_dn, lo_up - d->bmin) : 0.0;
  }
  free (g0);
  free (g1);
  return true;
}

/* A given base range (ClfxPlan.stats) in place of the image's: the
 * device's is the same, rounded to float. */
static void
durand_given_range (const ClfxPlan *plan, DurandRef *d)
{
  if (! plan->given_stats)
    return;
  d->bmin = plan->stats.range[0];
  d->bmax = plan->stats.range[1];
  d->e_bmin = U * fabs (d->bmin);
  d->e_bmax = U * fabs (d->bmax);
}

/* log10 of the result's luminance over the pixel's, and its bound. */
static double
durand_log_out (const DurandRef *d, const double *p, long at, double *dlo)
{
  double range = d->bmax - d->bmin;
  bool   flat = range <= TM_FLAT_BASE;
  double c = flat ? 0.0 : p[3] / range;
  double dc = flat ? 0.0 : c * ((d->e_bmax + d->e_bmin) / range + 3.0 * U);
  double l = d->L[at], b = d->B[at];
  double lo = (b - d->bmax) * c + p[4] * (l - b);

  if (dlo)
    {
      *dlo = c * (d->dB[at] + d->e_bmax) + fabs (b - d->bmax) * dc
             + p[4] * (d->dl + d->dB[at])
             + 4.0 * U * (fabs (b - d->bmax) * c + p[4] * fabs (l - b)
                          + fabs (lo));
      /* The device's range, within e_bmax + e_bmin of this one, may be on
       * the threshold's other side: its (B - max B) c is then anything
       * from 0 to -contrast. */
      if (fabs (range - TM_FLAT_BASE) <= d->e_bmax + d->e_bmin)
        *dlo += p[3];
    }
  return lo;
}

/* durand02's bound in linear light: the base's bound carried through the
 * map: log10 out moves by c (dB + e_bmax) + |B - max B| dc + detail (dL +
 * dB) (durand_log_out), the result by ln 10 times that, plus exp10's 3
 * ulp, Y's 8 u, a division and a product: 22 u, and the read's eta twice
 * (colour, Y).  It depends on the device (its filter's weights): made
 * each time. */
static void
durand_bound (const ClfxParams *p, const ClfxPlan *plan,
              const ClfxDeviceInfo *dev, const ClfxImage *src,
              ClfxTolerance *tol)
{
  const DurandState *ds = plan->state;
  double       scale = exp2 (CLFX_PARAMS_OF (p, ClfxTonemapParams)->exposure);
  TmRef        r;
  DurandRef    d;
  ClfxError    e = { 0 };
  double       worst = 0.0, eta;
  /* The hardware's blend weights where a GPU's sampler filtered (a CPU
   * device's sampler, and the kernels, weigh in float). */
  bool         gpu = ds->linear && plan->use_sampler
                     && (! dev || ! strcmp (dev->type, "gpu"));

  clfx_tol_init (tol);
  tm_ref_stats (src, plan, scale, &r);
  durand_ref_params (ds, &r);
  if (! durand_ref (src, plan, scale, &r, gpu, &d, &e))
    {
      /* Out of memory: validation then accepts nothing but exact. */
      clfx_tol_clause (tol, "durand02's bound: %s", e.message);
      return;
    }
  durand_given_range (plan, &d);
  for (long i = 0; i < (long) src->width * src->height; i++)
    {
      double dlo;
      durand_log_out (&d, r.prm, i, &dlo);
      worst = fmax (worst, dlo);
    }
  eta = tm_read_eta (plan, src);
  tol->rel_tol += log (10.0) * worst + 22.0 * U + 2.0 * eta;
  clfx_tol_clause (tol, "durand02: the base within %.3g (log10; %s), the "
                   "log luminance within %.3g, log10 out within %.3g, times "
                   "ln 10, + 22 u relative", d.db_max,
                   gpu ? "the GPU's 8-bit trilinear weights"
                       : "trilinear weights in float",
                   d.dl, worst);
  durand_ref_free (&d);
}

typedef struct
{
  const DurandRef *d;
  int              width;
} DurandPixels;

/* log10 out = (B - max B) c + detail (L - B); colour times out / Y (0
 * where Y = 0 or the image is black). */
static void
durand_pixel (const void *data, const TmRef *r, int x, int y, double v[4])
{
  const DurandPixels *dp = data;
  double              Y = tm_ref_luminance (v);
  double              k = Y > 0.0 && r->prm[TM_P_BLACK] == 0.0
                            ? pow (10.0, durand_log_out (dp->d, r->prm,
                                                         (long) y * dp->width
                                                           + x,
                                                         NULL))
                                / Y
                            : 0.0;

  for (int c = 0; c < 3; c++)
    v[c] *= k;
}

static bool
durand_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
            ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const DurandState *ds = plan->state;
  double        scale = exp2 (CLFX_PARAMS_OF (p, ClfxTonemapParams)->exposure);
  TmRef         r;
  DurandRef     d = { 0 };
  DurandPixels  dp = { &d, src->width };
  TmRefHists    h;
  ClfxTolerance lin;
  bool          ok = true;

  memset (&h, 0, sizeof h);
  tm_ref_stats (src, plan, scale, &r);
  durand_ref_params (ds, &r);
  if (! durand_ref (src, plan, scale, &r, ds->linear, &d, error))
    return false;
  durand_given_range (plan, &d);
  r.prm[TM_P_RANGE_LO] = d.bmin;
  r.prm[TM_P_RANGE_HI] = d.bmax;
  /* The result's bound in linear light, for the after histogram. */
  if (probes)
    durand_bound (p, plan, NULL, src, &lin);
  tm_ref_run (plan, src, dst, scale, &r, durand_pixel, &dp,
              probes ? &lin : NULL, &h);
  if (probes
      && ! clfx_probes_add (probes, "base range (log10)",
                            r.prm + TM_P_RANGE_LO, 2, true,
                            fmax (d.e_bmin, d.e_bmax), 0.0,
                            "the base's bound (durand_ref): the log "
                            "luminance, the grid's sums and blurs, the "
                            "slice"))
    ok = false;
  durand_ref_free (&d);
  if (ok && probes)
    ok = tm_ref_probes (&ds->tm, &r, &h, probes);
  if (! ok)
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  return true;
}

static void
durand_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                  const ClfxDeviceInfo *dev, const ClfxImage *src,
                  const ClfxImage *dst, ClfxTolerance *tol)
{
  durand_bound (p, plan, dev, src, tol);
  tm_tol_encode (plan, dst, tol);
}

/* ---- the variant ----------------------------------------------------------- */

static const TmProbe durand_probes[] = {
  { "base range (log10)", TM_P_RANGE_LO, 2 }, { NULL, 0, 0 }
};

static bool
durand_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
             ClfxError *error)
{
  const ClfxDurand02Params *dp
    = &CLFX_PARAMS_OF (p, ClfxTonemapParams)->durand02;
  int                       side = src->width > src->height ? src->width
                                                            : src->height;
  DurandState              *ds;

  /* Ranges start at 0 for the dialog's sake; this must not be 0. */
  if (dp->range_sigma < 0.05)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "durand02: range-sigma %g: it must be at least "
                           "0.05", dp->range_sigma);
  if (! (ds = calloc (1, sizeof *ds)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = ds;
  plan->free_state = free;
  ds->tm.stats = true;
  ds->tm.log_eps = 1e-5;
  ds->tm.params = durand_params;
  ds->tm.probes = durand_probes;
  ds->tm.range_probe = durand_probes[0].name;
  ds->tm.field_kernel = "durand_log";
  ds->tm.field_kernel_v = "durand_log_v";
  ds->tm.field_name = "log luminance";
  ds->tm.local = durand_cl;
  ds->range_sigma = dp->range_sigma;
  ds->contrast = dp->contrast;
  ds->detail = dp->detail;
  ds->linear = dp->sampler_filter == 1;
  ds->cell = (int) lround (dp->spatial_sigma * side);
  ds->cell = ds->cell < 1 ? 1 : ds->cell;
  ds->gx = (src->width + ds->cell - 1) / ds->cell;
  ds->gy = (src->height + ds->cell - 1) / ds->cell;
  /* L spans at most 6 decades (the floor): z in [0, 6 / sigma]. */
  ds->gz = (int) floor (6.0 / dp->range_sigma) + 2;
  /* 2048: the smallest 3D image side OpenCL lets a device have. */
  if (ds->gx > 2048 || ds->gy > 2048 || ds->gz > 2048)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "durand02: spatial-sigma %g makes a grid "
                           "of %dx%d cells on this %dx%d image, more "
                           "than 2048 a side: raise spatial-sigma",
                           dp->spatial_sigma, ds->gx, ds->gy, src->width,
                           src->height);
  tm_plan_common (p, src, plan, &ds->tm);
  /* The grid needs the whole image at once: in tiles L is whole. */
  tm_plan_fields (plan, &ds->tm);
  /* The linear filter: the sampler's where the framework takes it (GPUs'
   * texture units, CLFX_DEV sampler), else the same trilinear computed in the
   * kernels with exact weights, nearest's arithmetic (durand_cl). */
  plan->sampler_ok = ds->linear;
  /* The log luminance per pixel (whole in tiles too); two grids and the
   * 3D image. */
  plan->bytes_per_image_pixel = 4;
  plan->bytes_fixed += (3 * 16 + 8 * (size_t) ((ds->cell + TM_CHUNK - 1)
                                                / TM_CHUNK))
                       * (size_t) ds->gx * (size_t) ds->gy * (size_t) ds->gz;
  return true;
}

static const char *const uses_durand[] = { "operator", "exposure", "contrast",
                                           "detail", "spatial-sigma",
                                           "range-sigma", "sampler-filter",
                                           NULL };

const ClfxVariant clfx_variant_durand02 = {
  "durand02", "durand02",
  CLFX_N_ ("Durand 2002 base and detail (a bilateral grid)"), uses_durand,
  durand_plan, NULL, tm_local_run_cl, durand_cpu, durand_tolerance, NULL,
  tm_describe, tm_field_stats_cl, CLFX_DURAND02_PLACE, tm_take_stats,
  tm_stats_of
};
