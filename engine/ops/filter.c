/* filter.c: the filter family's variants, with GEGL 0.4.62's semantics
 * (docs/FILTERS.md).
 *
 * gaussian: gegl:gaussian-blur.  Horizontal then vertical, each axis with
 *   its own method: FIR (the sampled Gaussian, ceil (6.5 sigma) taps made
 *   odd) or IIR (Young and van Vliet's recursion with Triggs and Sdika's
 *   boundary); auto takes FIR below sigma 1 and IIR from 1, as GEGL does.
 * box: gegl:box-blur as the mean of the (2 radius + 1)^2 window (GEGL's
 *   float running sums drift; docs/FILTERS.md).  CPU devices run sums in
 *   double that restart at fixed places (BOX_RUN).
 * sobel: gegl:edge-sobel, centred on the pixel (GEGL's is not), on
 *   straight colour as GEGL's RGBA float.
 *
 * Both work in linear light on premultiplied alpha (GEGL's RaGaBaA float)
 * and compose the shared blocks: the source with its halo into a float
 * image, separable convolution, store.  The IIR reads whole lines, so an
 * IIR axis makes the run one piece.
 *
 * The CPU references are independent of the device plan: FIR as a direct
 * 2-D sum in double (two double passes where the kernel is larger than
 * 32 x 32 taps), the box as a double sum over each window, the IIR in
 * double. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/clfx-common.h"
#include "../blocks/clfx-blocks.h"
#include "../clfx-tolerance.h"
#include "clfx-params.h"
#include "filter-common.h"
#include "../blocks/gauss.h"

#define FILTER "filter"

/* ---- the plan ------------------------------------------------------------ */

typedef ClfxGaussAxis Axis;

/* The box's running sums (CPU devices with cl_khr_fp64): each starts
 * afresh, a plain sum of its window, at every BOX_RUN-th pixel of the
 * whole image along its axis (filter.cl's).  From radius BOX_RUNS_FROM:
 * below it PoCL sums the taps as fast (filter.cl says by how much). */
#define BOX_RUN 32
#define BOX_RUNS_FROM 8

typedef struct
{
  int  variant;
  bool edge_zero; /* addressing clamp: transparent outside */
  bool renorm;    /* addressing none: outside taps left out (read as 0 and
                   * the weights of those inside renormalised) */
  int  sobel;     /* sobel: bit 0 horizontal, 1 vertical, 2 keep-sign */
  bool linear;    /* sampler-filter linear: tap pairs through the sampler */
  bool runs;      /* box: running sums where the device takes them */
  int  ox, oy;    /* the source's origin in the whole image */
  cl_float2 *px, *py; /* linear: each axis's (offset, weight) pairs */
  int  mx, my;
  Axis x, y;
} State;

static void
state_free (void *data)
{
  State *st = data;

  clfx_gauss_axis_clear (&st->x);
  clfx_gauss_axis_clear (&st->y);
  free (st->px);
  free (st->py);
  free (st);
}

/* The box: 2 radius + 1 equal taps. */
static bool
axis_box (Axis *a, int radius, ClfxError *error)
{
  a->n = 2 * radius + 1;
  if (! (a->k = malloc ((size_t) a->n * sizeof *a->k)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory for taps");
  for (int i = 0; i < a->n; i++)
    a->k[i] = (float) (1.0 / (double) a->n);
  return true;
}

bool
clfx_filter_edges_ok (int addressing, const char *variant, ClfxError *error)
{
  if (addressing != CLFX_ADDR_NONE)
    return true;
  return clfx_error_set (error, CLFX_ERR_INVALID,
                         "edge handling none (outside taps left out) is not "
                         "available for %s yet: use clamp-to-edge, clamp, "
                         "repeat or mirrored-repeat",
                         variant);
}

bool
clfx_filter_nearest_ok (int sampler_filter, const char *variant,
                        ClfxError *error)
{
  if (sampler_filter == 0)
    return true;
  return clfx_error_set (error, CLFX_ERR_INVALID,
                         "sampler-filter linear reads two taps with one "
                         "fetch, which only the FIR gaussian and box do: "
                         "%s takes sampler-filter nearest",
                         variant);
}

double
clfx_filter_max_abs (const ClfxImage *src, double *min_alpha)
{
  int    ai = src->channels == 4 ? 3 : src->channels == 2 ? 1 : -1;
  double max_abs = 0.0, lo = 1.0;

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      for (int c = 0; c < src->channels; c++)
        {
          double v = fabs (clfx_image_get_linear (src, x, y, c));
          if (! isfinite (v))
            continue;
          max_abs = v > max_abs ? v : max_abs;
          if (c == ai && v < lo)
            lo = v;
        }
  if (min_alpha)
    *min_alpha = lo;
  return max_abs;
}

/* An axis's taps in pairs for the sampler's linear filter: taps i and
 * i + 1 (weights a, b) are one fetch at i + b / (a + b) weighted a + b;
 * an odd last tap is a fetch at its texel.  (offset, weight) pairs. */
static cl_float2 *
linear_pairs (const Axis *a, int *m)
{
  cl_float2 *p;

  *m = (a->n + 1) / 2;
  if (! (p = malloc ((size_t) *m * sizeof *p)))
    return NULL;
  for (int j = 0; j < *m; j++)
    {
      int    i = 2 * j;
      double w = a->k[i] + (i + 1 < a->n ? (double) a->k[i + 1] : 0.0);
      p[j].s[0] = i + 1 < a->n && w != 0.0
                    ? (float) (i + (double) a->k[i + 1] / w)
                    : (float) i;
      p[j].s[1] = (float) w;
    }
  return p;
}

static bool
filter_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
             ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  State                  *st;
  bool                    ok;

  bool                    none = fp->addressing == CLFX_ADDR_NONE;

  if (none && fp->filter == CLFX_FILTER_SOBEL)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "sobel takes differences, whose weights cannot "
                           "be renormalised: edge handling none (outside "
                           "taps left out) is for the blurs; use "
                           "clamp-to-edge, clamp, repeat or "
                           "mirrored-repeat");
  if (! (st = calloc (1, sizeof *st)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = st;
  plan->free_state = state_free;
  st->variant = fp->filter;
  st->edge_zero = fp->addressing == CLFX_ADDR_CLAMP;
  if (fp->filter == CLFX_FILTER_SOBEL)
    {
      /* A 3 x 3 stencil; GEGL's edge-sobel works on straight RGBA. */
      st->sobel = (fp->horizontal ? 1 : 0) | (fp->vertical ? 2 : 0)
                  | (fp->keep_sign ? 4 : 0);
      st->x.n = st->y.n = 3;
      plan->straight = true;
      ok = clfx_filter_nearest_ok (fp->sampler_filter, "sobel", error);
    }
  else if (fp->filter == CLFX_FILTER_BOX)
    ok = axis_box (&st->x, fp->radius, error)
         && axis_box (&st->y, fp->radius, error);
  else
    ok = clfx_gauss_axis (&st->x, fp->std_dev_x, fp->method, error)
         && clfx_gauss_axis (&st->y, fp->std_dev_y, fp->method, error);
  if (! ok)
    return false;
  if ((st->x.iir || st->y.iir) && fp->addressing != CLFX_ADDR_CLAMP_TO_EDGE
      && fp->addressing != CLFX_ADDR_CLAMP)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "the IIR gaussian (sigma 1 and more with method "
                           "auto) handles edges as clamp-to-edge or clamp, "
                           "as GEGL's does: use method fir for repeat, "
                           "mirrored-repeat or none");
  if ((st->x.iir || st->y.iir) && fp->sampler_filter)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "the IIR gaussian (sigma 1 and more with method "
                           "auto) reads no taps: sampler-filter linear needs "
                           "method fir");
  st->linear = fp->sampler_filter == 1;
  /* The pairs once per run, not per tile. */
  if (st->linear
      && (! (st->px = linear_pairs (&st->x, &st->mx))
          || ! (st->py = linear_pairs (&st->y, &st->my))))
    return clfx_error_set (error, CLFX_ERR_NOMEM,
                           "out of memory for tap pairs");
  plan->width = src->width;
  plan->height = src->height;
  /* none: the taps outside read 0 (clamp's border) and the result is
   * divided by the weight of the taps inside, per axis (the window is a
   * product of two intervals, so that is the 2-D renormalisation). */
  st->renorm = none;
  plan->addressing = none ? CLFX_ADDR_CLAMP : fp->addressing;
  plan->mixes = true;
  plan->premultiply = ! plan->straight && clfx_plan_premultiplies (true, src);
  plan->decode = clfx_plan_decodes (true, src);
  plan->halo[0] = plan->halo[2] = clfx_gauss_half (&st->x);
  plan->halo[1] = plan->halo[3] = clfx_gauss_half (&st->y);
  /* A run's results read back to its start, at most BOX_RUN - 1 before
   * them: the halo is the most any rectangle reads (box_source_rect gives
   * what one does).  GPUs sum the taps and read less. */
  st->runs = fp->filter == CLFX_FILTER_BOX && ! st->linear
             && fp->radius >= BOX_RUNS_FROM;
  st->ox = src->origin_x;
  st->oy = src->origin_y;
  if (st->runs)
    {
      plan->halo[0] += BOX_RUN - 1;
      plan->halo[1] += BOX_RUN - 1;
    }
  /* A recursion along whole lines: one piece (no bands, no tiles). */
  plan->whole_image_stats = st->x.iir || st->y.iir;
  /* Both axes IIR: the rows pass reads a row whole (its forward values)
   * before it writes it, and nothing reads the source after it (CPU
   * devices' bands: the columns' states, then each band's columns read
   * the band's own rows before its rows are stored, bands from the
   * bottom up).  The result can go over the source. */
  plan->in_place = st->x.iir && st->y.iir;
  /* The loaded source, the intermediate and the result as float RGBA,
   * and the IIR's forward values. */
  plan->bytes_per_pixel = 16 * 4;
  plan->bytes_fixed = sizeof (float) * (size_t) (st->x.n + st->y.n);
  return true;
}

/* ---- OpenCL ---------------------------------------------------------------- */

/* Work-group shapes of filter_conv_h (FH_W x FH_R, FHP results each) and
 * filter_conv_v (lanes x lanes, FPER results each), and the results per
 * work-item of the other forms (FV): filter.cl. */
#define FH_W 128
#define FH_R 2
#define FHP 2
#define F_LANES 16
#define FPER 4
#define FV 8
/* filter_sobel_l's group (SOBEL_W x SOBEL_R work-items, SOBEL_Q rows
 * each): filter.cl. */
#define SOBEL_W 32
#define SOBEL_R 8
#define SOBEL_Q 4

static size_t
round_up (size_t n, size_t m)
{
  return (n + m - 1) / m * m;
}

/* The start of the run that holds position v of a source whose first
 * pixel is at o in the whole image: the multiple of BOX_RUN at or below
 * v + o, in the source's coordinates (v may be negative: a halo). */
static int
run_start (int v, int o)
{
  int a = v + o;

  return (a >= 0 ? a / BOX_RUN : -((-a + BOX_RUN - 1) / BOX_RUN)) * BOX_RUN
         - o;
}

/* What the result rectangle out reads: back to its first run's start and
 * the radius before it where the box runs sums, else the taps' halo. */
static void
box_source_rect (const ClfxPlan *plan, const ClfxImage *src,
                 const ClfxRect *out, ClfxRect *in)
{
  const State *st = plan->state;
  int          r = st->x.n / 2;

  (void) src;
  in->x = (st->runs ? run_start (out->x, st->ox) : out->x) - r;
  in->y = (st->runs ? run_start (out->y, st->oy) : out->y) - r;
  in->width = out->x + out->width + r - in->x;
  in->height = out->y + out->height + r - in->y;
}

/* Results per work-item and row of filter_box_vr: a strip of BV pixels. */
#define BV 16

/* The box on CPU devices: running sums along the rows (filter_box_hr, a
 * work-item per run and row) into a float4 buffer that holds the rows
 * from the first run's window on (rows iw texels apart, whole double16
 * lines for the columns), then down the columns (filter_box_vr, a
 * work-item per strip of BV columns and run). */
static bool
launch_box (ClfxGraph *g, const State *st, ClfxError *error)
{
  const ClfxTile *t = clfx_graph_tile (g);
  const ClfxPlan *plan = clfx_graph_plan (g);
  int             w = t->out.width, h = t->out.height, r = st->y.n / 2;
  int             x0 = run_start (t->out.x, st->ox);
  int             y0 = run_start (t->out.y, st->oy);
  int             iy0 = y0 - r, ih = t->out.y + h + r - iy0;
  int             iw = (w + 3) / 4 * 4;
  cl_int4         rect = { { t->out.x, iy0, w, ih } };
  cl_int4         renorm = { { st->renorm, plan->width, plan->height, 0 } };
  cl_mem          inter, kx, ky;
  ClfxLaunch      l_h = { "filter_box_hr", NULL, NULL, 2,
                          { (size_t) ((t->out.x + w - 1 - x0) / BOX_RUN + 1),
                            ((size_t) ih + 3) / 4 },
                          { 0, 0 } };
  ClfxLaunch      l_v = { "filter_box_vr", NULL, NULL, 2,
                          { ((size_t) w + BV - 1) / BV,
                            (size_t) ((t->out.y + h - 1 - y0) / BOX_RUN
                                      + 1) },
                          { 0, 0 } };

  return (inter = clfx_graph_buffer (g, "rows",
                                     (size_t) iw * (size_t) ih * 16, error))
         && (kx = clfx_graph_table (g, "taps x", st->x.k,
                                    sizeof (float) * (size_t) st->x.n,
                                    error))
         && (ky = clfx_graph_table (g, "taps y", st->y.k,
                                    sizeof (float) * (size_t) st->y.n,
                                    error))
         && CLFX_LAUNCH (g, &l_h, error, CLFX_SRC, CLFX_ARG (inter),
                         CLFX_INT (iw), CLFX_ARG (rect), CLFX_INT (x0),
                         CLFX_FLOAT (st->x.k[0]), CLFX_INT (st->x.n))
         && CLFX_LAUNCH (g, &l_v, error, CLFX_ARG (inter), CLFX_INT (w),
                         CLFX_INT (iw), CLFX_INT (iy0), CLFX_INT (y0),
                         CLFX_DST,
                         CLFX_FLOAT (st->y.k[0]), CLFX_INT (st->y.n),
                         CLFX_ARG (renorm), CLFX_ARG (kx), CLFX_ARG (ky));
}

/* Both FIR axes in two passes straight from the source to the result
 * (filter.cl), the taps' texels through local memory where the device
 * reads images (GPUs) and they fit; CPU devices read their buffers
 * directly (the _hv and _vv kernels), where a work-group's copy is only a
 * copy.  One launch with the intermediate kept on chip was slower on
 * both (docs/PERFORMANCE.md, "the FIR's two passes in one launch,
 * tried"). */
static bool
launch_conv (ClfxGraph *g, const State *st, ClfxError *error)
{
  const ClfxTile       *t = clfx_graph_tile (g);
  const ClfxDeviceInfo *dev = clfx_graph_device (g);
  int                   w = t->out.width, h = t->out.height;
  int                   ih = h + st->y.n - 1;
  /* filter_conv_h's row: span texels in FHP phases of ph each. */
  int                   span = FH_W * FHP + st->x.n - 1;
  int                   ph = (span + FHP - 1) / FHP;
  size_t                lh = (size_t) ph * FHP * FH_R * 16;
  size_t                lv = (size_t) (F_LANES * FPER + st->y.n - 1)
                             * F_LANES * 16;
  bool                  local = ! clfx_graph_source_is_buffer (g)
                                && lh + 1024 <= dev->local_mem
                                && lv + 1024 <= dev->local_mem
                                && dev->max_work_group >= 256;
  cl_int4               rect = { { t->out.x, t->out.y - st->y.n / 2, w,
                                   ih } };
  const ClfxPlan       *plan = clfx_graph_plan (g);
  cl_int4               renorm = { { st->renorm, plan->width, plan->height,
                                     0 } };
  cl_mem                inter, kx, ky;
  ClfxLaunch            l_h = { local ? "filter_conv_h" : "filter_conv_hv",
                                NULL, NULL, 2,
                                { local ? round_up ((size_t) (w + FHP - 1)
                                                      / FHP,
                                                    FH_W)
                                        : ((size_t) w + FV - 1) / FV,
                                  local ? round_up ((size_t) ih, FH_R)
                                        : (size_t) ih },
                                { local ? FH_W : 0, local ? FH_R : 0 } };
  ClfxLaunch            l_v = { "filter_conv_v", NULL, NULL, 2,
                                { round_up ((size_t) w, F_LANES),
                                  round_up ((size_t) (h + FPER - 1) / FPER,
                                            F_LANES) },
                                { F_LANES, F_LANES } };
  ClfxLaunch            l_vv = { "filter_conv_vv", NULL, NULL, 2,
                                 { ((size_t) w + FV - 1) / FV, (size_t) h },
                                 { 0, 0 } };

  /* The box's running sums are in double: devices without it sum the
   * taps. */
  if (! local && st->runs && dev->fp64)
    return launch_box (g, st, error);
  if (! (inter = clfx_graph_buffer (g, "rows", (size_t) w * (size_t) ih * 16,
                                    error))
      || ! (kx = clfx_graph_table (g, "taps x", st->x.k,
                                   sizeof (float) * (size_t) st->x.n, error))
      || ! (ky = clfx_graph_table (g, "taps y", st->y.k,
                                   sizeof (float) * (size_t) st->y.n, error)))
    return false;
  if (local)
    return CLFX_LAUNCH (g, &l_h, error, CLFX_SRC, CLFX_ARG (inter),
                        CLFX_ARG (rect), CLFX_ARG (kx), CLFX_INT (st->x.n),
                        CLFX_LOCAL (lh))
           && CLFX_LAUNCH (g, &l_v, error, CLFX_ARG (inter), CLFX_INT (w),
                           CLFX_INT (ih), CLFX_DST, CLFX_ARG (ky),
                           CLFX_INT (st->y.n), CLFX_LOCAL (lv),
                           CLFX_ARG (renorm), CLFX_ARG (kx),
                           CLFX_INT (st->x.n));
  return CLFX_LAUNCH (g, &l_h, error, CLFX_SRC, CLFX_ARG (inter),
                      CLFX_ARG (rect), CLFX_ARG (kx), CLFX_INT (st->x.n))
         && CLFX_LAUNCH (g, &l_vv, error, CLFX_ARG (inter), CLFX_INT (w),
                         CLFX_DST, CLFX_ARG (ky), CLFX_INT (st->y.n),
                         CLFX_ARG (renorm), CLFX_ARG (kx), CLFX_INT (st->x.n));
}

/* sampler-filter linear: the source with its halo into a float image (the
 * addressing applied there), then each axis's tap pairs through the
 * sampler's linear filter (filter_lin_h, filter_lin_v). */
static bool
launch_linear (ClfxGraph *g, const State *st, ClfxError *error)
{
  const ClfxTile *t = clfx_graph_tile (g);
  const ClfxPlan *plan = clfx_graph_plan (g);
  int             w = t->out.width, h = t->out.height;
  int             ih = h + st->y.n - 1;
  cl_int4         renorm = { { st->renorm, plan->width, plan->height, 0 } };
  cl_mem          img, inter, bx, by, kx, ky;
  cl_sampler      smp;
  ClfxLaunch      lh = { "filter_lin_h", NULL, NULL, 2,
                         { (size_t) w, (size_t) ih }, { 0, 0 } };
  ClfxLaunch      lv = { "filter_lin_v", NULL, NULL, 2,
                         { (size_t) w, (size_t) h }, { 0, 0 } };

  return (smp = clfx_graph_sampler_for (g, false, CLFX_ADDR_CLAMP_TO_EDGE,
                                        true, error))
         && (img = clfx_block_load (g, "source", &t->in, error))
         && (inter = clfx_graph_image (g, "rows", w, ih, error))
         && (bx = clfx_graph_table (g, "pairs x", st->px,
                                    sizeof *st->px * (size_t) st->mx, error))
         && (by = clfx_graph_table (g, "pairs y", st->py,
                                    sizeof *st->py * (size_t) st->my, error))
         && (kx = clfx_graph_table (g, "taps x", st->x.k,
                                    sizeof (float) * (size_t) st->x.n, error))
         && (ky = clfx_graph_table (g, "taps y", st->y.k,
                                    sizeof (float) * (size_t) st->y.n, error))
         && CLFX_LAUNCH (g, &lh, error, CLFX_ARG (img), CLFX_ARG (smp),
                         CLFX_ARG (inter), CLFX_ARG (bx), CLFX_INT (st->mx),
                         CLFX_INT (w), CLFX_INT (ih))
         && CLFX_LAUNCH (g, &lv, error, CLFX_ARG (inter), CLFX_ARG (smp),
                         CLFX_DST, CLFX_ARG (by), CLFX_INT (st->my),
                         CLFX_ARG (renorm), CLFX_ARG (kx), CLFX_INT (st->x.n),
                         CLFX_ARG (ky), CLFX_INT (st->y.n));
}

static bool
filter_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const State    *st = clfx_graph_plan (g)->state;
  const ClfxTile *t = clfx_graph_tile (g);
  int             w = t->out.width, h = t->out.height;
  cl_mem          img, out;

  (void) p;
  if (st->variant == CLFX_FILTER_SOBEL)
    {
      /* GPUs through a local tile of results; CPU devices read their
       * buffers directly. */
      bool       local = ! clfx_graph_source_is_buffer (g)
                         && clfx_graph_device (g)->max_work_group >= 256;
      ClfxLaunch l = { local ? "filter_sobel_l" : "filter_sobel", NULL,
                       NULL, 2,
                       { local ? round_up ((size_t) w, SOBEL_W)
                               : (size_t) w,
                         local ? round_up ((size_t) h, SOBEL_R * SOBEL_Q)
                                   / SOBEL_Q
                               : (size_t) h },
                       { local ? SOBEL_W : 0, local ? SOBEL_R : 0 } };
      return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_DST,
                          CLFX_INT (st->sobel));
    }
  if (st->linear)
    return launch_linear (g, st, error);
  if (! st->x.iir && ! st->y.iir)
    return launch_conv (g, st, error);
  if (st->x.iir && st->y.iir)
    return clfx_gauss_iir_both (g, &st->x, &st->y, st->edge_zero, NULL, 0.0f,
                                error);
  /* One FIR axis and one IIR: through float images. */
  out = (img = clfx_block_load (g, "source", &t->in, error))
          ? clfx_gauss_blur (g, "filtered", &st->x, &st->y, img, w, h,
                             st->edge_zero, error)
          : NULL;
  return out && clfx_block_store (g, out, t->out.x, t->out.y, error);
}

/* ---- CPU reference ------------------------------------------------------------ */

/* The box along one axis of the double image d (dw x dh RGBA) in place:
 * the exact mean of n values, a double sum over the window, shrinking
 * that axis by n - 1. */
static bool
ref_mean_axis (double **d, int *dw, int *dh, int n, bool vertical,
               ClfxError *error)
{
  int     w = *dw, h = *dh;
  int     ow = vertical ? w : w - n + 1, oh = vertical ? h - n + 1 : h;
  double *out;

  if (! (out = calloc ((size_t) ow * (size_t) oh * 4, sizeof *out)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  for (int y = 0; y < oh; y++)
    for (int x = 0; x < ow; x++)
      for (int c = 0; c < 4; c++)
        {
          double acc = 0.0;
          for (int i = 0; i < n; i++)
            acc += vertical ? (*d)[((size_t) (y + i) * w + x) * 4 + c]
                            : (*d)[((size_t) y * w + x + i) * 4 + c];
          acc /= n;
          out[((size_t) y * ow + x) * 4 + c] = acc;
        }
  free (*d);
  *d = out;
  *dw = ow;
  *dh = oh;
  return true;
}

/* GEGL's Sobel in double, centred. */
static void
ref_sobel (const ClfxImage *src, ClfxSamplerDesc s, int mode, ClfxImage *dst,
           bool encode)
{
  int colour = src->channels == 4 ? 3 : 1;

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        float  p[3][3][4], out[4];
        for (int j = 0; j < 3; j++)
          for (int i = 0; i < 3; i++)
            clfx_ref_fetch (src, s, x + i - 1, y + j - 1, p[j][i]);
        for (int c = 0; c < colour; c++)
          {
            double h = 0.0, v = 0.0, g;
            if (mode & 1)
              h = -(double) p[0][0][c] + p[0][2][c] - 2.0 * p[1][0][c]
                  + 2.0 * p[1][2][c] - p[2][0][c] + p[2][2][c];
            if (mode & 2)
              v = (double) p[0][0][c] + 2.0 * p[0][1][c] + p[0][2][c]
                  - p[2][0][c] - 2.0 * p[2][1][c] - p[2][2][c];
            if ((mode & 3) == 3)
              g = sqrt (h * h + v * v) / sqrt (32.0);
            else if (mode & 4)
              g = 0.5 + (h + v) / 8.0;
            else
              g = fabs (h + v) / 4.0;
            out[c] = (float) g;
          }
        for (int c = colour; c < 4; c++)
          out[c] = p[1][1][c];
        clfx_ref_store (dst, x, y, out, false, encode);
      }
}

/* The weight of an axis's taps inside 0..size - 1 for the result at pos
 * (addressing none), in double. */
static double
inside_weight (const Axis *a, int pos, int size)
{
  double w = 0.0;

  for (int i = 0; i < a->n; i++)
    if (pos - a->n / 2 + i >= 0 && pos - a->n / 2 + i < size)
      w += (double) a->k[i];
  return w;
}

/* Edge handling none on the reference's float result: each pixel over
 * the weight of its taps inside the image. */
static void
ref_renorm (ClfxImage *out, const State *st)
{
  for (int y = 0; y < out->height; y++)
    for (int x = 0; x < out->width; x++)
      {
        double w = inside_weight (&st->x, x, out->width)
                   * inside_weight (&st->y, y, out->height);
        for (int c = 0; c < 4; c++)
          clfx_image_set (out, x, y, c, (float) (clfx_image_get (out, x, y, c)
                                                 / w));
      }
}

static bool
filter_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
            ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const State    *st = plan->state;
  ClfxSamplerDesc s = { true, plan->addressing, false, plan->premultiply,
                        plan->decode };
  int             hx = clfx_gauss_half (&st->x), hy = clfx_gauss_half (&st->y);
  ClfxRect        rect = { -hx, -hy, src->width + 2 * hx,
                           src->height + 2 * hy };
  ClfxImage       img = { 0 }, out = { 0 };
  bool            box = st->variant == CLFX_FILTER_BOX, ok = false;
  double         *d = NULL;
  int             dw = rect.width, dh = rect.height;

  (void) p;
  (void) probes;
  if (st->variant == CLFX_FILTER_SOBEL)
    {
      ref_sobel (src, s, st->sobel, dst, plan->decode);
      return true;
    }
  if (! clfx_ref_block_load (src, s, &rect, &img, error))
    return false;
  /* Small FIR kernels: the direct 2-D sum (independent of the device's two
   * passes); larger ones and the IIR: one axis after the other, in
   * double. */
  if (! box && ! st->x.iir && ! st->y.iir && st->x.n * st->y.n <= 1024)
    {
      ok = clfx_ref_sepconv (&img, src->width, src->height, st->x.k, st->x.n,
                             st->y.k, st->y.n, &out, error);
      if (ok && st->renorm)
        ref_renorm (&out, st);
      if (ok)
        clfx_ref_block_store (&out, 0, 0, dst, plan->premultiply,
                              plan->decode);
      goto done;
    }
  if (! (d = malloc ((size_t) dw * (size_t) dh * 4 * sizeof *d)))
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      goto done;
    }
  for (int y = 0; y < dh; y++)
    for (int x = 0; x < dw; x++)
      for (int c = 0; c < 4; c++)
        d[((size_t) y * dw + x) * 4 + c]
          = ((const float *) ((const char *) img.data + (size_t) y * img.stride))
              [x * 4 + c];
  if (box ? ! ref_mean_axis (&d, &dw, &dh, st->x.n, false, error)
              || ! ref_mean_axis (&d, &dw, &dh, st->y.n, true, error)
          : ! clfx_gauss_ref (&d, &dw, &dh, &st->x, &st->y, st->edge_zero,
                              error))
    goto done;
  if (! clfx_host_image_alloc (&out, dw, dh, 4, CLFX_DEPTH_FLOAT, error))
    goto done;
  for (int y = 0; y < dh; y++)
    for (int x = 0; x < dw; x++)
      for (int c = 0; c < 4; c++)
        clfx_image_set (&out, x, y, c, (float) d[((size_t) y * dw + x) * 4 + c]);
  if (st->renorm)
    ref_renorm (&out, st);
  clfx_ref_block_store (&out, 0, 0, dst, plan->premultiply, plan->decode);
  ok = true;
done:
  free (d);
  clfx_host_image_free (&img);
  clfx_host_image_free (&out);
  return ok;
}

/* ---- tolerance ---------------------------------------------------------------- */

static void
filter_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                  const ClfxDeviceInfo *dev, const ClfxImage *src,
                  const ClfxImage *dst, ClfxTolerance *tol)
{
  const State *st = plan->state;
  double       max_abs = clfx_filter_max_abs (src, NULL);

  (void) p;
  (void) dev;
  clfx_tol_init (tol);
  /* A FIR, box or Sobel result reads its halo only; an IIR pass carries
   * every value of its row or column into each pixel. */
  if (! st->x.iir && ! st->y.iir)
    clfx_tol_magnitude (tol, max_abs, 2.0 * max_abs);
  clfx_tol_read (tol, max_abs);
  if (st->variant == CLFX_FILTER_SOBEL)
    {
      /* Two 6-term sums of weights up to 2 (sum |w| 8), scaled by at most
       * 1/4, and hypot (OpenCL C: 4 ulp) of up to twice the range, or in
       * float's normal range the square root of the squares' sum: the
       * squares and their sum 1.5 ulp, halved by the root, plus the
       * root's own 3 ulp (OpenCL C), under the same 4. */
      clfx_tol_sum (tol, "Sobel: two 6-term sums, then the scale", 13,
                    8.0 / 4.0, max_abs);
      clfx_tol_builtin (tol, "hypot, or the root of the squares' sum", 4.0,
                        2.0 * max_abs);
      if (plan->decode)
        clfx_tol_srgb (tol, dst->depth, plan->srgb_tables);
      clfx_tol_store (tol, dst->depth, false);
      return;
    }
  if (st->renorm)
    {
      /* The sums' bounds grow by one over the smallest weight inside (a
       * corner's), plus the division and the reference's rounding. */
      ClfxTolerance blur;
      double        wx = 1.0, wy = 1.0;
      for (int x = 0; x < src->width; x++)
        wx = fmin (wx, inside_weight (&st->x, x, src->width));
      for (int y = 0; y < src->height; y++)
        wy = fmin (wy, inside_weight (&st->y, y, src->height));
      clfx_tol_init (&blur);
      clfx_gauss_tolerance (&blur, &st->x, &st->y, max_abs);
      clfx_tol_scaled (tol, blur.abs_tol / (wx * wy));
      clfx_tol_clause (tol, "edge handling none: the sums' float error "
                            "(%.3g) over the smallest weight inside (%.3g)",
                       blur.abs_tol, wx * wy);
      clfx_tol_sum (tol, "the renormalisation", 4, 1.0, max_abs);
    }
  else
    clfx_gauss_tolerance (tol, &st->x, &st->y, max_abs);
  if (st->linear)
    /* Each pair's blend weight as the hardware holds it: the spec leaves
     * its precision open, GPUs keep 8 fractional bits (texel values
     * between -max and max). */
    clfx_tol_sampler_linear (tol, 2.0 * max_abs);
  if (plan->decode)
    clfx_tol_srgb (tol, dst->depth, plan->srgb_tables);
  clfx_tol_store (tol, dst->depth, false);
}

const char *
clfx_filter_describe (const ClfxParams *p)
{
  return clfx_param_get_nick (p, clfx_family_param (p->family, "filter"));
}

static const char *const uses_gaussian[] = { "filter", "std-dev-x",
                                             "std-dev-y", "method",
                                             "addressing", "sampler-filter",
                                             NULL };
static const char *const uses_box[] = { "filter", "radius", "addressing",
                                        "sampler-filter", NULL };
static const char *const uses_sobel[] = { "filter", "horizontal", "vertical",
                                          "keep-sign", "addressing", NULL };

#define VARIANT(id, blurb, uses, rect)                                       \
  { id, FILTER, blurb, uses, filter_plan, rect, filter_cl, filter_cpu,       \
    filter_tolerance, NULL, clfx_filter_describe, NULL }
const ClfxVariant clfx_variant_gaussian
  = VARIANT ("gaussian",
             CLFX_N_ ("Gaussian blur (GEGL's gaussian-blur: FIR below sigma "
                      "1, IIR from 1)"),
             uses_gaussian, NULL);
const ClfxVariant clfx_variant_box
  = VARIANT ("box", CLFX_N_ ("Box blur (the mean of a square window)"),
             uses_box, box_source_rect);
const ClfxVariant clfx_variant_sobel
  = VARIANT ("sobel", CLFX_N_ ("Sobel edges (GEGL's edge-sobel, centred)"),
             uses_sobel, NULL);
#undef VARIANT
