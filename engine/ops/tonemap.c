/* tonemap.c: the tonemap family's global operators (docs/TONEMAP.md,
 * kernels/tonemap.cl): reinhard02 (pfstmo's photographic operator),
 * reinhard05 (gegl:reinhard05), drago03 (pfstmo's adaptive logarithm) and
 * aces (Hill's fit of the ACES RRT + sRGB ODT).
 *
 * Every operator works on linear light with straight alpha, which it
 * keeps.  Colour is cleaned first (NaN and negative values are 0, +Inf is
 * the image's largest finite colour value; the report counts each), then
 * multiplied by 2^exposure; luminance is babl's Y of linear sRGB, as
 * GEGL's operators use.  The statistics (log-average, mean, min and max
 * of Y, the mean of each channel) are reductions on the device chained to
 * the map by events, no host round trip in between; they and each
 * operator's constants are probes, compared with this file's reference on
 * their own.
 *
 * Where the published operators give NaN, clfx defines the result: a black
 * image (max Y = 0) maps to black; a pixel of Y = 0 maps to 0 (reinhard02,
 * drago03; pfstmo divides 0 by 0); reinhard05's k is kept >= 0 and a
 * photoreceptor whose denominator is 0 gives 0; its range normalisation is
 * skipped when the range is flat.
 *
 * The reference computes everything in double from the stored texels, with
 * sequential sums: independent of the device's blocks, trees and float
 * constants. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/clfx-common.h"
#include "../clfx-sampler-ref.h"
#include "../clfx-tolerance.h"
#include "clfx-params.h"
#include "fattal-ref.h"

/* The reference's U, read before U names the unit roundoff. */
static inline const double *
fattal_u (const ClfxFattalRef *r)
{
  return r->U;
}

/* The float unit roundoff, 2^-24, in the bounds below. */
#define U CLFX_FLOAT_EPS

const ClfxChoice clfx_durand02_filter_choices[] = {
  { "nearest", CLFX_N_ ("Nearest (trilinear in the kernel, exact weights)") },
  { "linear", CLFX_N_ ("Linear (the sampler's trilinear filter)") },
  { NULL, NULL }
};

/* kernels/tonemap.cl's block and final reduction sizes. */
#define TM_BW    64
#define TM_BH    32
#define TM_FINAL 256
/* ... and its histograms' bins: half octaves from 2^lo, under and over
 * bins first and last (tm_hist_bin). */
#define TM_HB_LO (-20)
#define TM_HB_N  82
#define TM_HA_LO (-16)
#define TM_HA_N  42
/* kernels/tonemap.cl's CPU form (tm_scan_v, tm_stats_v, tm_range_v,
 * tm_map_v), taken where the source is a buffer (CPU devices): pixels of
 * a row per work-item, and rows per work-item of tm_map_v. */
#define TM_V        8
#define TM_MAP_ROWS 16
/* tm_splat_v's z cells per work-item, at most (durand02's gz is at most
 * 122: range-sigma >= 0.05). */
#define TM_SPLAT_Z  128

/* babl's Y row for linear sRGB (D50-adapted). */
static const double Y_ROW[3] = { 0.2224879400, 0.7169038389, 0.0606082572 };

/* Each operator's log-average offset: pfstmo's reinhard02 1e-5, GEGL's
 * reinhard05 2.3e-5, pfstmo's drago03 1e-4. */
static const double LOG_EPS[CLFX_N_TONEMAP] = { 1e-5, 2.3e-5, 1e-4, 1e-5,
                                                 1e-5, 1e-5 };

typedef struct
{
  int    op;       /* CLFX_TONEMAP_* */
  float  scale;    /* 2^exposure, as the device multiplies */
  bool   scan;     /* float or half source: values to clean may exist */
  /* reinhard05 on linear float RGBA: on CPU devices, in one piece, the
   * range pass keeps its colour in the result for the map
   * (tm_range_keep_v, tm_map_kept_v). */
  bool   keep;
  double a1, a2, a3; /* the operator's arguments (see tm_params) */
  double noise;      /* fattal02: the noise floor (0 given: 0.1 alpha) */
  /* durand02: the grid's cell side in pixels, its size in cells, and how
   * it is sliced. */
  int    cell, gx, gy, gz;
  bool   linear;
  /* fattal02: the reference's solve, kept for the tolerance and the
   * probes (the same image; computed once). */
  struct FattalCache *fat;
  /* The result's bound in linear light (linear_bound), for the image it
   * was computed on: the tolerance, the after histogram and reinhard05's
   * range probe all need it, and it runs the operator several times. */
  ClfxTolerance lin;
  const ClfxImage *lin_src;
} State;

typedef struct FattalCache
{
  const ClfxImage *src;
  ClfxFattalRef    r;
  double          *Y;         /* per pixel, as ref_read gives it */
  double          *s;         /* per pixel: max over channels of (c / Y)^sat */
  double           du;        /* the accepted distance of U (fattal_bound) */
  double           du_est;    /* the emulated rounding's distance */
  double           max_h;     /* max |H| */
} FattalCache;

static void
fattal_cache_free (FattalCache *c)
{
  if (! c)
    return;
  clfx_fattal_ref_free (&c->r);
  free (c->Y);
  free (c->s);
  free (c);
}

static void
state_free (void *data)
{
  State *st = data;

  fattal_cache_free (st->fat);
  free (data);
}

static bool
tonemap_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
              ClfxError *error)
{
  const ClfxTonemapParams *tp = CLFX_PARAMS_OF (p, ClfxTonemapParams);
  State                   *st;

  /* Ranges start at 0 for the dialog's sake; these must not be 0. */
  if (tp->op == CLFX_TONEMAP_REINHARD02 && tp->reinhard02.key < 0.001)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "reinhard02: key %g: it must be at least 0.001",
                           tp->reinhard02.key);
  if (tp->op == CLFX_TONEMAP_DRAGO03 && tp->drago03.bias < 0.01)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "drago03: bias %g: it must be at least 0.01",
                           tp->drago03.bias);
  if (tp->op == CLFX_TONEMAP_DURAND02 && tp->durand02.range_sigma < 0.05)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "durand02: range-sigma %g: it must be at least "
                           "0.05", tp->durand02.range_sigma);
  if (tp->op == CLFX_TONEMAP_FATTAL02 && tp->fattal02.alpha < 0.001)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "fattal02: alpha %g: it must be at least 0.001",
                           tp->fattal02.alpha);
  if (! (st = calloc (1, sizeof *st)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = st;
  plan->free_state = state_free;
  st->op = tp->op;
  st->scale = (float) exp2 (tp->exposure);
  st->scan = src->depth == CLFX_DEPTH_FLOAT || src->depth == CLFX_DEPTH_HALF;
  st->keep = tp->op == CLFX_TONEMAP_REINHARD05
             && src->depth == CLFX_DEPTH_FLOAT && src->channels == 4
             && ! clfx_plan_decodes (true, src);
  switch (tp->op)
    {
    case CLFX_TONEMAP_REINHARD02:
      st->a1 = tp->reinhard02.key;
      st->a2 = tp->reinhard02.white_point;
      break;
    case CLFX_TONEMAP_REINHARD05:
      st->a1 = tp->reinhard05.brightness;
      st->a2 = tp->reinhard05.chromatic;
      st->a3 = tp->reinhard05.light;
      break;
    case CLFX_TONEMAP_DRAGO03:
      st->a1 = tp->drago03.bias;
      break;
    case CLFX_TONEMAP_DURAND02:
      {
        int side = src->width > src->height ? src->width : src->height;
        st->a1 = tp->durand02.range_sigma;
        st->a2 = tp->durand02.contrast;
        st->a3 = tp->durand02.detail;
        st->linear = tp->durand02.sampler_filter == 1;
        st->cell = (int) lround (tp->durand02.spatial_sigma * side);
        st->cell = st->cell < 1 ? 1 : st->cell;
        st->gx = (src->width + st->cell - 1) / st->cell;
        st->gy = (src->height + st->cell - 1) / st->cell;
        /* L spans at most 6 decades (the floor): z in [0, 6 / sigma]. */
        st->gz = (int) floor (6.0 / tp->durand02.range_sigma) + 2;
        /* 2048: the smallest 3D image side OpenCL lets a device have. */
        if (st->gx > 2048 || st->gy > 2048 || st->gz > 2048)
          return clfx_error_set (error, CLFX_ERR_INVALID,
                                 "durand02: spatial-sigma %g makes a grid "
                                 "of %dx%d cells on this %dx%d image, more "
                                 "than 2048 a side: raise spatial-sigma",
                                 tp->durand02.spatial_sigma, st->gx, st->gy,
                                 src->width, src->height);
      }
      break;
    case CLFX_TONEMAP_FATTAL02:
      st->a1 = tp->fattal02.alpha;
      st->a2 = tp->fattal02.beta;
      st->a3 = tp->fattal02.saturation;
      st->noise = tp->fattal02.noise > 0.0 ? tp->fattal02.noise
                                           : 0.1 * tp->fattal02.alpha;
      break;
    default:
      break;
    }
  plan->width = src->width;
  plan->height = src->height;
  plan->addressing = CLFX_ADDR_CLAMP_TO_EDGE;
  /* Pointwise after the statistics, which need every pixel first; aces
   * has none, but on float and half data the cleaning's largest finite
   * value is one. */
  plan->whole_image_stats = tp->op != CLFX_TONEMAP_ACES || st->scan;
  /* The global operators gather their statistics tile by tile when the
   * image is tiled (blocks of TM_BW x TM_BH at fixed places: the tiled
   * result is the one-piece result bit for bit); durand02's grid needs
   * the whole image at once, and fattal02's Poisson equation too. */
  if (tp->op != CLFX_TONEMAP_DURAND02 && tp->op != CLFX_TONEMAP_FATTAL02)
    {
      plan->stats_passes = (st->scan ? 1 : 0)
                           + (tp->op != CLFX_TONEMAP_ACES ? 1 : 0)
                           + (tp->op == CLFX_TONEMAP_REINHARD05 ? 1 : 0);
      plan->stats_align[0] = TM_BW;
      plan->stats_align[1] = TM_BH;
      /* The statistics read the source, then tm_map_v maps each pixel
       * where it reads it: the result can go over the source. */
      plan->in_place = true;
    }
  plan->mixes = true;
  plan->straight = true;
  plan->premultiply = false;
  /* durand02's linear filter: the sampler's where the framework takes it
   * (GPUs' texture units, CLFX_SAMPLER), else the same trilinear computed
   * in the kernels with exact weights, nearest's arithmetic (durand_cl). */
  plan->sampler_ok = tp->op == CLFX_TONEMAP_DURAND02 && st->linear;
  plan->decode = clfx_plan_decodes (true, src);
  plan->bytes_per_pixel = 0;
  /* The partials: 32 bytes per block of TM_BW x TM_BH. */
  plan->bytes_fixed = 32 * ((size_t) (src->width + TM_BW - 1) / TM_BW)
                        * ((size_t) (src->height + TM_BH - 1) / TM_BH)
                      + 4096;
  if (tp->op == CLFX_TONEMAP_DURAND02)
    {
      /* The log luminance per pixel; two grids and the 3D image. */
      plan->bytes_per_pixel = 4;
      plan->bytes_fixed += (3 * 16 + 8 * (size_t) ((st->cell + 7) / 8))
                           * (size_t) st->gx * (size_t) st->gy
                           * (size_t) st->gz;
    }
  if (tp->op == CLFX_TONEMAP_FATTAL02)
    /* H, the gradient, Phi, the right side and U at full size; the
     * pyramid and the coarser grids add a third of each. */
    plan->bytes_per_pixel = 4 * 5 + 4 * 5 / 3 + 1;
  return true;
}

/* ---- OpenCL ---------------------------------------------------------------- */

/* A histogram's counts on the device, set to 0 where a pass starts (its
 * first tile or band, or the one piece) and added to by every one after. */
static cl_mem
hist_buffer (ClfxGraph *g, const char *name, int n, ClfxError *error)
{
  static const cl_uint zero = 0;
  cl_mem               h = clfx_graph_buffer (g, name, 4 * (size_t) n, error);

  if (h && clfx_graph_tile_index (g) == 0
      && ! clfx_graph_fill (g, h, &zero, sizeof zero, 4 * (size_t) n, error))
    return NULL;
  return h;
}

/* The log luminance of every pixel into out: durand02's L (tm_dlog) or
 * fattal02's H (fat_h); on CPU devices TM_V pixels of a row a work-item
 * (tm_log_y_v, either). */
static bool
log_y (ClfxGraph *g, const State *st, cl_mem scan, cl_mem prm, cl_mem out,
       ClfxError *error)
{
  const ClfxPlan *plan = clfx_graph_plan (g);
  size_t          w = (size_t) plan->width, h = (size_t) plan->height;
  int             fattal = st->op == CLFX_TONEMAP_FATTAL02;
  ClfxLaunch      l = { fattal ? "fat_h" : "tm_dlog", NULL, NULL, 2,
                        { w, h }, { 0, 0 } };

  if (clfx_graph_source_is_buffer (g))
    {
      l.kernel = "tm_log_y_v";
      l.global[0] = (w + TM_V - 1) / TM_V;
      return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_INT (plan->width),
                          CLFX_INT (plan->height), CLFX_ARG (scan),
                          CLFX_FLOAT (st->scale), CLFX_ARG (prm),
                          CLFX_ARG (out), CLFX_INT (fattal));
    }
  return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_INT (plan->width),
                      CLFX_INT (plan->height), CLFX_ARG (scan),
                      CLFX_FLOAT (st->scale), CLFX_ARG (prm), CLFX_ARG (out));
}

/* durand02's graph after the statistics and constants: the log luminance,
 * the grid (splat, three blurs), the grid as a 3D image, the base's range,
 * the map. */
static bool
durand_cl (ClfxGraph *g, const State *st, cl_mem scan, cl_mem prm,
           ClfxError *error)
{
  const ClfxPlan *plan = clfx_graph_plan (g);
  const ClfxTile *t = clfx_graph_tile (g);
  int             w = plan->width, h = plan->height;
  size_t          cells = (size_t) st->gx * st->gy * st->gz;
  size_t          nbx = (size_t) (w + TM_BW - 1) / TM_BW;
  size_t          nby = (size_t) (h + TM_BH - 1) / TM_BH;
  int             nb = (int) (nbx * nby);
  /* kernels/tonemap.cl's TM_CHUNK rows of a cell per work-item. */
  int             chunks = (st->cell + 7) / 8;
  ClfxLaunch      splat = { "tm_splat", NULL, NULL, 2,
                            { (size_t) st->gz,
                              (size_t) st->gx * (size_t) st->gy
                                * (size_t) chunks },
                            { (size_t) st->gz, 1 } };
  ClfxLaunch      sum = { "tm_splat_sum", NULL, NULL, 1, { cells, 1 },
                          { 0, 0 } };
  ClfxLaunch      blur = { "tm_gblur", NULL, NULL, 1, { cells, 1 },
                           { 0, 0 } };
  ClfxLaunch      range = { "tm_drange", NULL, NULL, 2, { nbx * TM_BW, nby },
                            { TM_BW, 1 } };
  ClfxLaunch      final = { "tm_range_final", NULL, NULL, 1, { TM_FINAL, 1 },
                            { TM_FINAL, 1 } };
  ClfxLaunch      map = { "tm_dmap", NULL, NULL, 2,
                          { (size_t) t->out.width, (size_t) t->out.height },
                          { 0, 0 } };
  cl_int4         dims = { { st->gx, st->gy, st->gz, 0 } };
  cl_mem          L, g0, g1, img, partials, part, hist;
  cl_sampler      smp;
  /* The linear filter through the sampler (hw), or the trilinear from
   * nearest reads.  CPU devices: the splat a work-item per cell and
   * chunk; without the sampler, the range and the map eight pixels of a
   * row a work-item, the base's cells read from the grid's buffer (wide;
   * kernels/tonemap.cl).  The framework never gives the sampler to a
   * source in buffers, so on CPU devices the linear filter takes that
   * form too: PoCL's sampler is software, and took some 0.6 and 1.1 s of
   * the range and the map at 4096². */
  bool            hw = st->linear && plan->use_sampler;
  bool            cpu = clfx_graph_source_is_buffer (g);
  bool            wide = cpu && ! hw;

  /* A group holds one cell's z work-items: past the device's group limit
   * (a very small range sigma) the splat runs them in several groups.  On
   * CPU devices a work-item takes every z of its cell and chunk
   * (tm_splat_v), the same partials. */
  if ((size_t) st->gz > clfx_graph_device (g)->max_work_group)
    splat.local[0] = 0;
  if (cpu && st->gz <= TM_SPLAT_Z)
    {
      splat.kernel = "tm_splat_v";
      splat.dims = 1;
      splat.global[0] = splat.global[1];
      splat.global[1] = 1;
      splat.local[0] = 0;
    }
  if (wide)
    {
      range.kernel = "tm_drange_v";
      range.global[0] = nbx * (TM_BW / TM_V);
      range.local[0] = TM_BW / TM_V;
      map.kernel = "tm_dmap_v";
      map.global[0] = ((size_t) t->out.width + TM_V - 1) / TM_V;
      map.global[1] = ((size_t) t->out.height + TM_MAP_ROWS - 1)
                      / TM_MAP_ROWS;
    }
  if (! (L = clfx_graph_buffer (g, "log luminance",
                                4 * (size_t) w * (size_t) h, error))
      || ! (g0 = clfx_graph_buffer (g, "grid", 16 * cells, error))
      || ! (part = clfx_graph_buffer (g, "grid chunks",
                                      8 * cells * (size_t) chunks, error))
      || ! (g1 = clfx_graph_buffer (g, "grid blurred", 16 * cells, error))
      || ! (partials = clfx_graph_buffer (g, "base partials",
                                          8 * (size_t) nb, error))
      || ! (smp = clfx_graph_sampler_for (g, false, CLFX_ADDR_CLAMP_TO_EDGE,
                                          hw, error))
      || ! log_y (g, st, scan, prm, L, error)
      || ! CLFX_LAUNCH (g, &splat, error, CLFX_ARG (L), CLFX_INT (w),
                        CLFX_INT (h), CLFX_INT (st->cell), CLFX_INT (st->gx),
                        CLFX_INT (st->gy), CLFX_INT (st->gz),
                        CLFX_INT (chunks), CLFX_ARG (prm), CLFX_ARG (part))
      || ! CLFX_LAUNCH (g, &sum, error, CLFX_ARG (part), CLFX_INT (st->gx),
                        CLFX_INT (st->gy), CLFX_INT (st->gz),
                        CLFX_INT (chunks), CLFX_ARG (g0)))
    return false;
  for (int axis = 0; axis < 3; axis++)
    {
      cl_mem in = axis % 2 ? g1 : g0, out = axis % 2 ? g0 : g1;
      if (! CLFX_LAUNCH (g, &blur, error, CLFX_ARG (in), CLFX_ARG (out),
                         CLFX_INT (st->gx), CLFX_INT (st->gy),
                         CLFX_INT (st->gz), CLFX_INT (axis)))
        return false;
    }
  /* Three passes: the blurred grid is in g1. */
  if (wide)
    {
      /* The grid as it is: no image to make. */
      if (! CLFX_LAUNCH (g, &range, error, CLFX_ARG (L), CLFX_INT (w),
                         CLFX_INT (h), CLFX_ARG (g1), CLFX_INT (st->cell),
                         CLFX_ARG (dims), CLFX_ARG (prm),
                         CLFX_ARG (partials), CLFX_LOCAL (8 * TM_BW / TM_V)))
        return false;
    }
  else if (! (img = clfx_graph_image3d (g, "grid image", g1, st->gx, st->gy,
                                        st->gz, error))
           || ! CLFX_LAUNCH (g, &range, error, CLFX_ARG (L), CLFX_INT (w),
                             CLFX_INT (h), CLFX_ARG (img), CLFX_ARG (smp),
                             CLFX_INT (hw), CLFX_INT (st->cell),
                             CLFX_ARG (dims), CLFX_ARG (prm),
                             CLFX_ARG (partials), CLFX_LOCAL (8 * TM_BW)))
    return false;
  if (! CLFX_LAUNCH (g, &final, error, CLFX_ARG (partials), CLFX_INT (nb),
                     CLFX_ARG (prm), CLFX_LOCAL (8 * TM_FINAL))
      || ! (hist = hist_buffer (g, "histogram after", TM_HA_N, error)))
    return false;
  if (wide)
    return CLFX_LAUNCH (g, &map, error, CLFX_SRC, CLFX_DST, CLFX_ARG (scan),
                        CLFX_FLOAT (st->scale), CLFX_ARG (L), CLFX_INT (w),
                        CLFX_ARG (g1), CLFX_INT (st->cell), CLFX_ARG (dims),
                        CLFX_ARG (prm), CLFX_ARG (hist),
                        CLFX_LOCAL (4 * TM_HA_N));
  return CLFX_LAUNCH (g, &map, error, CLFX_SRC, CLFX_DST, CLFX_ARG (scan),
                      CLFX_FLOAT (st->scale), CLFX_ARG (img), CLFX_ARG (smp),
                      CLFX_INT (hw), CLFX_INT (st->cell),
                      CLFX_ARG (dims), CLFX_ARG (prm), CLFX_ARG (hist),
                      CLFX_LOCAL (4 * TM_HA_N));
}

/* ---- fattal02 on the device ------------------------------------------------ */

/* docs/TONEMAP.md's sizes: the pyramid's levels (GEGL's rule) and the
 * multigrid's grids, grid m being gw[m] x gh[m]. */
#define FAT_MAX_GRIDS 40

static int
fattal_levels (int w, int h)
{
  int m = w < h ? w : h, n = 0;

  while (m / 2 >= 32)
    {
      n++;
      m /= 2;
    }
  return n > 0 ? n : 1;
}

static int
fattal_grids (int w, int h, int *gw, int *gh)
{
  int n = 0;

  gw[0] = w;
  gh[0] = h;
  while ((gw[n] > 8 || gh[n] > 8) && n + 1 < FAT_MAX_GRIDS)
    {
      gw[n + 1] = (gw[n] + 1) / 2;
      gh[n + 1] = (gh[n] + 1) / 2;
      n++;
    }
  return n + 1;
}

static cl_mem
fat_buffer (ClfxGraph *g, const char *what, int m, int w, int h,
            ClfxError *error)
{
  char name[48];

  snprintf (name, sizeof name, "fattal %s %d", what, m);
  return clfx_graph_buffer (g, name, 4 * (size_t) w * (size_t) h, error);
}

static ClfxLaunch
fat_launch (const char *kernel, int w, int h)
{
  ClfxLaunch l = { kernel, NULL, NULL, 2, { (size_t) w, (size_t) h },
                   { 0, 0 } };
  return l;
}

/* The sum of n floats into f[slot] times mul (kernels/tonemap.cl's
 * fat_sum: fixed chunks, so the same bits every run). */
static bool
fat_sum (ClfxGraph *g, cl_mem v, long n, float mul, cl_mem f, int slot,
         ClfxError *error)
{
  long       groups = (n + 65535) / 65536, chunk;
  /* CPU devices: eight of fat_sum's work-items in one (fat_sum_v). */
  bool       cpu = clfx_graph_source_is_buffer (g);
  size_t     nl = cpu ? 256 / 8 : 256;
  ClfxLaunch part = { cpu ? "fat_sum_v" : "fat_sum", NULL, NULL, 1, { 0, 1 },
                      { nl, 1 } };
  ClfxLaunch final = { "fat_sum_final", NULL, NULL, 1, { 256, 1 },
                       { 256, 1 } };
  cl_mem     partials;

  groups = groups < 1 ? 1 : groups > 4096 ? 4096 : groups;
  chunk = (n + groups - 1) / groups;
  part.global[0] = nl * (size_t) groups;
  return (partials = clfx_graph_buffer (g, "fattal partials", 4 * 4096,
                                        error))
         && CLFX_LAUNCH (g, &part, error, CLFX_ARG (v), CLFX_ARG (n),
                         CLFX_ARG (chunk), CLFX_ARG (partials),
                         CLFX_LOCAL (4 * 256))
         && CLFX_LAUNCH (g, &final, error, CLFX_ARG (partials),
                         CLFX_INT ((int) groups), CLFX_FLOAT (mul),
                         CLFX_ARG (f), CLFX_INT (slot), CLFX_LOCAL (4 * 256));
}

/* The multigrid's grids: U and F of each, their sizes, the last (the
 * coarsest) and its solve's matrix; cpu: the sweeps, restrictions and
 * prolongations in the CPU devices' form (fat_sweep_v, fat_restrict_v,
 * fat_prolong_v: FAT_SWEEP_V cells of a colour, coarse cells or pairs of
 * fine ones a work-item). */
typedef struct
{
  cl_mem u[FAT_MAX_GRIDS], f[FAT_MAX_GRIDS], inverse;
  int    w[FAT_MAX_GRIDS], h[FAT_MAX_GRIDS], last;
  bool   cpu;
} FatGrids;

#define FAT_SWEEP_V 8

/* Grid m + 1 restricted from grid m, and grid m + 1 prolonged onto m: in
 * the CPU devices' form FAT_SWEEP_V coarse cells, 2 FAT_SWEEP_V fine ones
 * a work-item (fat_restrict_v, fat_prolong_v). */
static ClfxLaunch
fat_restrict_launch (const FatGrids *gr, int m)
{
  return gr->cpu ? fat_launch ("fat_restrict_v",
                               (gr->w[m + 1] + FAT_SWEEP_V - 1) / FAT_SWEEP_V,
                               gr->h[m + 1])
                 : fat_launch ("fat_restrict", gr->w[m + 1], gr->h[m + 1]);
}

static ClfxLaunch
fat_prolong_launch (const FatGrids *gr, int m)
{
  return gr->cpu ? fat_launch ("fat_prolong_v",
                               (gr->w[m] + 2 * FAT_SWEEP_V - 1)
                                 / (2 * FAT_SWEEP_V),
                               gr->h[m])
                 : fat_launch ("fat_prolong", gr->w[m], gr->h[m]);
}

/* The coarsest solve's B = (A - J / n)^-1 for a w x h grid (n = w h <= 64,
 * A the unit-weight operator of docs/TONEMAP.md, J all ones), by Gauss-
 * Jordan elimination with partial pivoting in double.  A - J / n is
 * negative definite (A's null space, the constants, moves to -1), so no
 * pivot is 0; B applied to a mean-free F is A's pseudo-inverse: the
 * mean-free solution of A U = F. */
static bool
fat_coarse_inverse (int w, int h, float *out, ClfxError *error)
{
  int     n = w * h, c2 = 2 * n;
  double *m = malloc (sizeof (double) * (size_t) n * (size_t) c2);

  if (! m)
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
#define M(i, j) m[(size_t) (i) * (size_t) c2 + (size_t) (j)]
  for (int i = 0; i < n; i++)
    {
      int x = i % w, y = i / w;
      for (int j = 0; j < c2; j++)
        M (i, j) = j < n ? -1.0 / n : (j - n == i ? 1.0 : 0.0);
      M (i, i) -= (x > 0) + (x + 1 < w) + (y > 0) + (y + 1 < h);
      if (x > 0)
        M (i, i - 1) += 1.0;
      if (x + 1 < w)
        M (i, i + 1) += 1.0;
      if (y > 0)
        M (i, i - w) += 1.0;
      if (y + 1 < h)
        M (i, i + w) += 1.0;
    }
  for (int c = 0; c < n; c++)
    {
      int    p = c;
      double d;
      for (int r = c + 1; r < n; r++)
        if (fabs (M (r, c)) > fabs (M (p, c)))
          p = r;
      for (int j = 0; j < c2 && p != c; j++)
        {
          double t = M (c, j);
          M (c, j) = M (p, j);
          M (p, j) = t;
        }
      d = M (c, c);
      for (int j = 0; j < c2; j++)
        M (c, j) /= d;
      for (int r = 0; r < n; r++)
        if (r != c && M (r, c) != 0.0)
          {
            double k = M (r, c);
            for (int j = 0; j < c2; j++)
              M (r, j) -= k * M (c, j);
          }
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      out[i * n + j] = (float) M (i, n + j);
#undef M
  free (m);
  return true;
}

/* A V-cycle at grid m (docs/TONEMAP.md); zero: U (m) starts at 0 (its
 * first half sweep then reads no neighbour and sets the other half). */
static bool
fat_vcycle (ClfxGraph *g, const FatGrids *gr, int m, bool zero,
            ClfxError *error)
{
  ClfxLaunch    coarse = { "fat_coarse", NULL, NULL, 1, { 64, 1 },
                           { 64, 1 } };
  const cl_mem *Us = gr->u, *Fs = gr->f;
  const int    *gw = gr->w, *gh = gr->h;

  if (m == gr->last)
    return CLFX_LAUNCH (g, &coarse, error, CLFX_ARG (Us[m]), CLFX_ARG (Fs[m]),
                        CLFX_INT (gw[m]), CLFX_INT (gh[m]),
                        CLFX_ARG (gr->inverse));
  {
    ClfxLaunch sweep
      = gr->cpu ? fat_launch ("fat_sweep_v",
                              ((gw[m] + 1) / 2 + FAT_SWEEP_V - 1)
                                / FAT_SWEEP_V,
                              gh[m])
                : fat_launch ("fat_sweep", (gw[m] + 1) / 2, gh[m]);
    ClfxLaunch restr = fat_restrict_launch (gr, m);
    ClfxLaunch prolong = fat_prolong_launch (gr, m);

    for (int k = 0; k < 4; k++)
      if (! CLFX_LAUNCH (g, &sweep, error, CLFX_ARG (Us[m]), CLFX_ARG (Fs[m]),
                         CLFX_INT (gw[m]), CLFX_INT (gh[m]), CLFX_INT (k % 2),
                         CLFX_INT (zero && k == 0)))
        return false;
    if (! CLFX_LAUNCH (g, &restr, error, CLFX_ARG (Us[m]), CLFX_ARG (Fs[m]),
                       CLFX_INT (gw[m]), CLFX_INT (gh[m]), CLFX_INT (1),
                       CLFX_ARG (Fs[m + 1]), CLFX_INT (gw[m + 1]),
                       CLFX_INT (gh[m + 1])))
      return false;
    if (! fat_vcycle (g, gr, m + 1, true, error))
      return false;
    if (! CLFX_LAUNCH (g, &prolong, error, CLFX_ARG (Us[m + 1]),
                       CLFX_INT (gw[m + 1]), CLFX_INT (gh[m + 1]),
                       CLFX_ARG (Us[m]), CLFX_INT (gw[m]), CLFX_INT (gh[m]),
                       CLFX_INT (1)))
      return false;
    for (int k = 0; k < 4; k++)
      if (! CLFX_LAUNCH (g, &sweep, error, CLFX_ARG (Us[m]), CLFX_ARG (Fs[m]),
                         CLFX_INT (gw[m]), CLFX_INT (gh[m]), CLFX_INT (k % 2),
                         CLFX_INT (0)))
        return false;
  }
  return true;
}

/* fattal02's graph after the statistics and constants: H, the pyramid,
 * the gradients and their averages, Phi, the divergence, the full
 * multigrid, U's mean, the percentiles, the map. */
static bool
fattal_cl (ClfxGraph *g, const State *st, cl_mem scan, cl_mem prm,
           ClfxError *error)
{
  const ClfxPlan *plan = clfx_graph_plan (g);
  const ClfxTile *t = clfx_graph_tile (g);
  int             w = plan->width, h = plan->height;
  int             levels = fattal_levels (w, h);
  FatGrids        gr;
  int             grids = fattal_grids (w, h, gr.w, gr.h);
  int            *gw = gr.w, *gh = gr.h, last = gr.last = grids - 1;
  long            n = (long) w * h;
  cl_mem          P[32], G[32], Phi[32], *Us = gr.u, *Fs = gr.f;
  cl_mem          f, hist, sel;
  float           inverse[64 * 64];
  /* CPU devices: H (log_y), the gradients, Phi, the divergence and the
   * map eight pixels of a row a work-item, the map in TM_MAP_ROWS rows
   * (fat_grad_v, fat_phi_v, fat_div_v, fat_map_v), and the multigrid's
   * forms (FatGrids). */
  bool            cpu = gr.cpu = clfx_graph_source_is_buffer (g);
  ClfxLaunch      div
    = cpu ? fat_launch ("fat_div_v", (w + TM_V - 1) / TM_V, h)
          : fat_launch ("fat_div", w, h);
  ClfxLaunch      map
    = cpu ? fat_launch ("fat_map_v", (t->out.width + TM_V - 1) / TM_V,
                        (t->out.height + TM_MAP_ROWS - 1) / TM_MAP_ROWS)
          : fat_launch ("fat_map", t->out.width, t->out.height);
  ClfxLaunch      center = { "fat_center", NULL, NULL, 1, { (size_t) n, 1 },
                             { 0, 0 } };
  static const cl_uint zero = 0;

  if (! (f = clfx_graph_buffer (g, "fattal parameters", 4 * 64, error)))
    return false;
  /* 1-3: H, the pyramid, each level's gradient and its mean. */
  for (int k = 0; k < levels; k++)
    if (! (P[k] = fat_buffer (g, "pyramid", k, w >> k, h >> k, error))
        || ! (G[k] = fat_buffer (g, "gradient", k, w >> k, h >> k, error))
        || ! (Phi[k] = fat_buffer (g, "phi", k, w >> k, h >> k, error)))
      return false;
  if (! log_y (g, st, scan, prm, P[0], error))
    return false;
  for (int k = 0; k < levels; k++)
    {
      int        wk = w >> k, hk = h >> k;
      ClfxLaunch down = cpu ? fat_launch ("fat_down_v",
                                          (wk / 2 + TM_V - 1) / TM_V, hk / 2)
                            : fat_launch ("fat_down", wk / 2, hk / 2);
      ClfxLaunch grad = cpu ? fat_launch ("fat_grad_v",
                                          (wk + TM_V - 1) / TM_V, hk)
                            : fat_launch ("fat_grad", wk, hk);
      if ((k + 1 < levels
           && ! CLFX_LAUNCH (g, &down, error, CLFX_ARG (P[k]), CLFX_INT (wk),
                             CLFX_INT (hk), CLFX_ARG (P[k + 1]),
                             CLFX_INT (wk / 2), CLFX_INT (hk / 2)))
          || ! CLFX_LAUNCH (g, &grad, error, CLFX_ARG (P[k]), CLFX_INT (wk),
                            CLFX_INT (hk), CLFX_FLOAT (ldexpf (1.0f, -k - 1)),
                            CLFX_ARG (G[k]))
          || ! fat_sum (g, G[k], (long) wk * hk, (float) (1.0 / wk / hk), f,
                        8 + k, error))
        return false;
    }
  /* 4: Phi, coarse to fine. */
  for (int k = levels - 1; k >= 0; k--)
    {
      int        wk = w >> k, hk = h >> k, top = k == levels - 1;
      ClfxLaunch phi = cpu ? fat_launch ("fat_phi_v", (wk + TM_V - 1) / TM_V,
                                         hk)
                           : fat_launch ("fat_phi", wk, hk);
      cl_mem     c = top ? G[k] : Phi[k + 1];
      if (! CLFX_LAUNCH (g, &phi, error, CLFX_ARG (G[k]), CLFX_INT (wk),
                         CLFX_INT (hk), CLFX_ARG (c),
                         CLFX_INT (top ? 1 : w >> (k + 1)),
                         CLFX_INT (top ? 1 : h >> (k + 1)), CLFX_INT (top),
                         CLFX_ARG (f), CLFX_INT (k),
                         CLFX_FLOAT ((float) st->a1),
                         CLFX_FLOAT ((float) st->a2),
                         CLFX_FLOAT ((float) st->noise), CLFX_ARG (Phi[k])))
        return false;
    }
  /* 5, 6: the divergence into F (0), the full multigrid. */
  for (int m = 0; m < grids; m++)
    if (! (Us[m] = fat_buffer (g, "u", m, gw[m], gh[m], error))
        || ! (Fs[m] = fat_buffer (g, "rhs", m, gw[m], gh[m], error)))
      return false;
  {
    size_t cells = (size_t) gw[last] * (size_t) gh[last];
    if (! fat_coarse_inverse (gw[last], gh[last], inverse, error)
        || ! (gr.inverse = clfx_graph_table (g, "fattal coarsest inverse",
                                             inverse,
                                             sizeof (float) * cells * cells,
                                             error)))
      return false;
  }
  if (! CLFX_LAUNCH (g, &div, error, CLFX_ARG (P[0]), CLFX_ARG (Phi[0]),
                     CLFX_INT (w), CLFX_INT (h), CLFX_ARG (Fs[0])))
    return false;
  for (int m = 0; m < last; m++)
    {
      ClfxLaunch restr = fat_restrict_launch (&gr, m);
      if (! CLFX_LAUNCH (g, &restr, error, CLFX_ARG (Fs[m]), CLFX_ARG (Fs[m]),
                         CLFX_INT (gw[m]), CLFX_INT (gh[m]), CLFX_INT (0),
                         CLFX_ARG (Fs[m + 1]), CLFX_INT (gw[m + 1]),
                         CLFX_INT (gh[m + 1])))
        return false;
    }
  if (! fat_vcycle (g, &gr, last, false, error))
    return false;
  for (int m = last - 1; m >= 0; m--)
    {
      ClfxLaunch prolong = fat_prolong_launch (&gr, m);
      if (! CLFX_LAUNCH (g, &prolong, error, CLFX_ARG (Us[m + 1]),
                         CLFX_INT (gw[m + 1]), CLFX_INT (gh[m + 1]),
                         CLFX_ARG (Us[m]), CLFX_INT (gw[m]), CLFX_INT (gh[m]),
                         CLFX_INT (0))
          || ! fat_vcycle (g, &gr, m, false, error)
          || ! fat_vcycle (g, &gr, m, false, error))
        return false;
    }
  /* 6, 7: U minus its mean; the percentiles by radix selection. */
  if (! fat_sum (g, Us[0], n, (float) (1.0 / (double) n), f, 0, error)
      || ! CLFX_LAUNCH (g, &center, error, CLFX_ARG (Us[0]), CLFX_ARG (n),
                        CLFX_ARG (f))
      || ! (hist = clfx_graph_buffer (g, "fattal histogram", 4 * 2 * 2048,
                                      error))
      || ! (sel = clfx_graph_buffer (g, "fattal selection", 16, error)))
    return false;
  {
    static const int known[3] = { 0, 11, 22 }, shift[3] = { 21, 10, 0 };
    long       groups = (n + 65535) / 65536, chunk;
    cl_uint    rlo = (cl_uint) floor (0.001 * (double) n);
    cl_uint    rhi = (cl_uint) floor (0.995 * (double) n);
    ClfxLaunch hl = { "fat_hist", NULL, NULL, 1, { 0, 1 }, { 256, 1 } };
    ClfxLaunch sl = { "fat_select", NULL, NULL, 1, { 256, 1 }, { 256, 1 } };

    groups = groups < 1 ? 1 : groups > 1024 ? 1024 : groups;
    chunk = (n + groups - 1) / groups;
    hl.global[0] = 256 * (size_t) groups;
    /* CPU devices: a work-item a group, no atomics (fat_hist_v). */
    if (cpu)
      {
        hl.kernel = "fat_hist_v";
        hl.global[0] = (size_t) groups;
        hl.local[0] = 1;
      }
    for (int pass = 0; pass < 3; pass++)
      if (! clfx_graph_fill (g, hist, &zero, sizeof zero, 4 * 2 * 2048, error)
          || ! CLFX_LAUNCH (g, &hl, error, CLFX_ARG (Us[0]), CLFX_ARG (n),
                            CLFX_ARG (chunk), CLFX_ARG (sel),
                            CLFX_INT (known[pass]), CLFX_INT (shift[pass]),
                            CLFX_ARG (hist), CLFX_LOCAL (4 * 2 * 2048))
          || ! CLFX_LAUNCH (g, &sl, error, CLFX_ARG (hist), CLFX_ARG (sel),
                            CLFX_INT (known[pass]), CLFX_INT (shift[pass]),
                            CLFX_ARG (rlo), CLFX_ARG (rhi), CLFX_ARG (f),
                            CLFX_LOCAL (4 * 2 * 256)))
        return false;
  }
  return (hist = hist_buffer (g, "histogram after", TM_HA_N, error))
         && CLFX_LAUNCH (g, &map, error, CLFX_SRC, CLFX_DST, CLFX_ARG (scan),
                         CLFX_FLOAT (st->scale), CLFX_ARG (Us[0]),
                         CLFX_INT (w), CLFX_ARG (prm), CLFX_ARG (f),
                         CLFX_FLOAT ((float) st->a3), CLFX_ARG (hist),
                         CLFX_LOCAL (4 * TM_HA_N))
         && clfx_graph_probe_at (g, "gradient averages", f, 8, levels, error)
         && clfx_graph_probe_at (g, "L at 0.1 %, 99.5 %", f, 1, 2, error);
}

/* The stages of the pipeline before the map, in order: each gathers
 * partials over a rectangle of the image (its blocks at fixed image
 * positions) and then ends with one reduction of all partials.  In one
 * piece a stage's part runs on the whole image and its end follows; in
 * tiles, pass k runs stage k's part on every tile, and the first tile of
 * the next pass ends stage k first. */
enum { STAGE_SCAN, STAGE_STATS, STAGE_RANGE };

static int
stages (const State *st, int *list)
{
  int n = 0;

  if (st->scan)
    list[n++] = STAGE_SCAN;
  if (st->op != CLFX_TONEMAP_ACES)
    list[n++] = STAGE_STATS;
  if (st->op == CLFX_TONEMAP_REINHARD05)
    list[n++] = STAGE_RANGE;
  return n;
}

/* The stage's buffers, by name (kept on the device across tiles). */
static cl_mem
scan_buffer (ClfxGraph *g, const State *st, ClfxError *error)
{
  static const cl_uint zero4[4] = { 0, 0, 0, 0 };

  return st->scan ? clfx_graph_buffer (g, "scan", 16, error)
                  : clfx_graph_table (g, "no scan", zero4, sizeof zero4,
                                      error);
}

static cl_mem
params_buffer (ClfxGraph *g, const State *st, ClfxError *error)
{
  static const cl_float zero16[16] = { 0 };

  return st->op == CLFX_TONEMAP_ACES
           ? clfx_graph_table (g, "no parameters", zero16, sizeof zero16,
                               error)
           : clfx_graph_buffer (g, "parameters", 64, error);
}

/* Stage `stage` over rect r.  keep: reinhard05's range pass stores its
 * colour (tm_range_keep_v). */
static bool
stage_part (ClfxGraph *g, const State *st, int stage, const ClfxRect *r,
            bool keep, ClfxError *error)
{
  const ClfxPlan *plan = clfx_graph_plan (g);
  int             nbx = (plan->width + TM_BW - 1) / TM_BW;
  int             nb = nbx * ((plan->height + TM_BH - 1) / TM_BH);
  static const size_t part[] = { 16, 32, 8 };
  static const char *const kernel[] = { "tm_scan", "tm_stats", "tm_range" };
  static const char *const kernel_v[] = { "tm_scan_v", "tm_stats_v",
                                          "tm_range_v" };
  static const char *const name[] = { "scan partials", "stats partials",
                                      "range partials" };
  /* CPU devices: TM_V columns per work-item (tm_scan_v, ...). */
  bool            v = clfx_graph_source_is_buffer (g);
  size_t          lw = v ? TM_BW / TM_V : TM_BW;
  ClfxLaunch      l = { v ? kernel_v[stage] : kernel[stage], NULL, NULL, 2,
                        { (size_t) (r->width + TM_BW - 1) / TM_BW * lw,
                          (size_t) (r->height + TM_BH - 1) / TM_BH },
                        { lw, 1 } };
  cl_int4         rect = { { r->x, r->y, r->x + r->width,
                             r->y + r->height } };
  cl_mem          partials, scan = NULL, prm = NULL;

  if (! (partials = clfx_graph_buffer (g, name[stage],
                                       part[stage] * (size_t) nb, error)))
    return false;
  if (stage == STAGE_SCAN)
    return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_ARG (rect),
                        CLFX_INT (nbx), CLFX_ARG (partials),
                        CLFX_LOCAL (16 * lw));
  if (! (scan = scan_buffer (g, st, error)))
    return false;
  if (stage == STAGE_STATS)
    {
      cl_mem hist = hist_buffer (g, "histogram before", TM_HB_N, error);
      return hist
             && CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_ARG (rect),
                             CLFX_INT (nbx), CLFX_ARG (scan),
                             CLFX_FLOAT (st->scale),
                             CLFX_FLOAT ((float) LOG_EPS[st->op]),
                             /* an entry per column in either form */
                             CLFX_ARG (partials), CLFX_LOCAL (32 * TM_BW),
                             CLFX_ARG (hist), CLFX_LOCAL (4 * TM_HB_N));
    }
  if (! (prm = params_buffer (g, st, error)))
    return false;
  if (keep)
    {
      l.kernel = "tm_range_keep_v";
      return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_ARG (rect),
                          CLFX_INT (nbx), CLFX_ARG (scan),
                          CLFX_FLOAT (st->scale), CLFX_ARG (prm),
                          CLFX_ARG (partials), CLFX_LOCAL (8 * lw),
                          CLFX_DST);
    }
  return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_ARG (rect),
                      CLFX_INT (nbx), CLFX_ARG (scan),
                      CLFX_FLOAT (st->scale), CLFX_ARG (prm),
                      CLFX_ARG (partials), CLFX_LOCAL (8 * lw));
}

static bool
stage_end (ClfxGraph *g, const State *st, int stage, ClfxError *error)
{
  const ClfxPlan *plan = clfx_graph_plan (g);
  int             w = plan->width, h = plan->height;
  int             nb = ((w + TM_BW - 1) / TM_BW) * ((h + TM_BH - 1) / TM_BH);
  ClfxLaunch      final = { NULL, NULL, NULL, 1, { TM_FINAL, 1 },
                            { TM_FINAL, 1 } };
  ClfxLaunch      one = { "tm_params", NULL, NULL, 1, { 1, 1 }, { 1, 1 } };
  cl_mem          partials, out, stats, prm;

  switch (stage)
    {
    case STAGE_SCAN:
      final.kernel = "tm_scan_final";
      return (partials = clfx_graph_buffer (g, "scan partials",
                                            16 * (size_t) nb, error))
             && (out = scan_buffer (g, st, error))
             && CLFX_LAUNCH (g, &final, error, CLFX_ARG (partials),
                             CLFX_INT (nb), CLFX_ARG (out),
                             CLFX_LOCAL (16 * TM_FINAL));
    case STAGE_STATS:
      final.kernel = "tm_stats_final";
      return (partials = clfx_graph_buffer (g, "stats partials",
                                            32 * (size_t) nb, error))
             && (stats = clfx_graph_buffer (g, "stats", 32, error))
             && (prm = params_buffer (g, st, error))
             && CLFX_LAUNCH (g, &final, error, CLFX_ARG (partials),
                             CLFX_INT (nb), CLFX_ARG (stats),
                             CLFX_LOCAL (32 * TM_FINAL))
             && CLFX_LAUNCH (g, &one, error, CLFX_ARG (stats),
                             CLFX_INT (st->op),
                             CLFX_FLOAT ((float) ((double) w * h)),
                             CLFX_FLOAT ((float) st->a1),
                             CLFX_FLOAT ((float) st->a2),
                             CLFX_FLOAT ((float) st->a3), CLFX_ARG (prm));
    default:
      final.kernel = "tm_range_final";
      return (partials = clfx_graph_buffer (g, "range partials",
                                            8 * (size_t) nb, error))
             && (prm = params_buffer (g, st, error))
             && CLFX_LAUNCH (g, &final, error, CLFX_ARG (partials),
                             CLFX_INT (nb), CLFX_ARG (prm),
                             CLFX_LOCAL (8 * TM_FINAL));
    }
}

/* The scan and the statistics in one pass over the whole image
 * (tm_scan_stats_v, CPU devices), then, after the scan's final reduction,
 * the statistics of the blocks holding +Inf (tm_stats_redo_v, the same
 * arguments), which need the image's largest finite value; each stage
 * ended. */
static bool
scan_stats (ClfxGraph *g, const State *st, ClfxError *error)
{
  const ClfxPlan *plan = clfx_graph_plan (g);
  int             nbx = (plan->width + TM_BW - 1) / TM_BW;
  int             nb = nbx * ((plan->height + TM_BH - 1) / TM_BH);
  ClfxLaunch      l = { NULL, NULL, NULL, 2,
                        { (size_t) nbx * (TM_BW / TM_V),
                          (size_t) ((plan->height + TM_BH - 1) / TM_BH) },
                        { TM_BW / TM_V, 1 } };
  cl_int4         rect = { { 0, 0, plan->width, plan->height } };
  cl_mem          scan, blocks, partials, hist;

  if (! (scan = scan_buffer (g, st, error))
      || ! (blocks = clfx_graph_buffer (g, "scan partials", 16 * (size_t) nb,
                                        error))
      || ! (partials = clfx_graph_buffer (g, "stats partials",
                                          32 * (size_t) nb, error))
      || ! (hist = hist_buffer (g, "histogram before", TM_HB_N, error)))
    return false;
  for (int redo = 0; redo < 2; redo++)
    {
      l.kernel = redo ? "tm_stats_redo_v" : "tm_scan_stats_v";
      if (! CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_ARG (rect),
                         CLFX_INT (nbx), CLFX_ARG (scan), CLFX_ARG (blocks),
                         CLFX_LOCAL (16 * (TM_BW / TM_V)),
                         CLFX_FLOAT (st->scale),
                         CLFX_FLOAT ((float) LOG_EPS[st->op]),
                         CLFX_ARG (partials), CLFX_LOCAL (32 * TM_BW),
                         CLFX_ARG (hist), CLFX_LOCAL (4 * TM_HB_N))
          || (! redo && ! stage_end (g, st, STAGE_SCAN, error)))
        return false;
    }
  return stage_end (g, st, STAGE_STATS, error);
}

/* The probes, once every stage has ended. */
static bool
record_probes (ClfxGraph *g, const State *st, ClfxError *error)
{
  cl_mem scan, stats, prm, hist;

  if (st->scan
      && (! (scan = scan_buffer (g, st, error))
          || ! clfx_graph_probe_counts (g, "cleaned: NaN, negative, +Inf",
                                        scan, 3, error)
          || ! clfx_graph_probe_at (g, "largest finite value", scan, 3, 1,
                                    error)))
    return false;
  if (st->op == CLFX_TONEMAP_ACES)
    return true;
  if (! (stats = clfx_graph_buffer (g, "stats", 32, error))
      || ! (hist = clfx_graph_buffer (g, "histogram before", 4 * TM_HB_N,
                                      error))
      || ! clfx_graph_probe_counts (g, "log2 Y histogram, before", hist,
                                    TM_HB_N, error)
      || ! (prm = params_buffer (g, st, error))
      || ! clfx_graph_probe_at (g, "log-average, mean Y", prm, 8, 2, error)
      || ! clfx_graph_probe_at (g, "min Y, max Y", stats, 5, 2, error))
    return false;
  switch (st->op)
    {
    case CLFX_TONEMAP_REINHARD02:
      return clfx_graph_probe_at (g, "scale a, white", prm, 0, 3, error);
    case CLFX_TONEMAP_REINHARD05:
      return clfx_graph_probe_at (g, "f, contrast m, key k", prm, 0, 3,
                                  error)
             && clfx_graph_probe_at (g, "range", prm, 12, 2, error);
    case CLFX_TONEMAP_DURAND02:
      return clfx_graph_probe_at (g, "base range (log10)", prm, 12, 2,
                                  error);
    case CLFX_TONEMAP_FATTAL02:
      return true; /* fattal_cl records its own */
    default:
      return clfx_graph_probe_at (g, "1/Lavg, 1/max Y, 1/log10, exponent",
                                  prm, 0, 4, error);
    }
}

/* Pass `pass` of the tiled statistics over the current tile. */
static bool
tonemap_stats_cl (ClfxGraph *g, const ClfxParams *p, int pass,
                  ClfxError *error)
{
  const State *st = clfx_graph_plan (g)->state;
  int          list[3], n = stages (st, list);

  (void) p;
  if (pass < 0 || pass >= n)
    return clfx_error_set (error, CLFX_ERR_INVALID, "tonemap: no pass %d",
                           pass);
  if (pass > 0 && clfx_graph_tile_index (g) == 0
      && ! stage_end (g, st, list[pass - 1], error))
    return false;
  return stage_part (g, st, list[pass], &clfx_graph_tile (g)->out, false,
                     error);
}

static bool
tonemap_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const ClfxPlan *plan = clfx_graph_plan (g);
  const State    *st = plan->state;
  const ClfxTile *t = clfx_graph_tile (g);
  ClfxRect        whole = { 0, 0, plan->width, plan->height };
  int             list[3], n = stages (st, list), pass = clfx_graph_pass (g);
  /* CPU devices: TM_V pixels of a row in TM_MAP_ROWS rows per work-item
   * (tm_map_v). */
  bool            v = clfx_graph_source_is_buffer (g);
  /* reinhard05's colour kept from the range pass (State.keep) where the
   * range pass runs here, over the result's whole rect. */
  bool            keep = st->keep && v && pass < 0 && t->out.x == 0
                         && t->out.y == 0 && t->out.width == plan->width
                         && t->out.height == plan->height;
  ClfxLaunch      map = { keep ? "tm_map_kept_v" : v ? "tm_map_v" : "tm_map",
                          NULL, NULL, 2,
                          { v ? ((size_t) t->out.width + TM_V - 1) / TM_V
                              : (size_t) t->out.width,
                            v ? ((size_t) t->out.height + TM_MAP_ROWS - 1)
                                  / TM_MAP_ROWS
                              : (size_t) t->out.height },
                          { 0, 0 } };
  cl_mem          scan, prm, hist;

  (void) p;
  if (pass < 0)
    {
      int k = 0;
      /* CPU devices in one piece: the scan and the statistics in one pass
       * (scan_stats). */
      if (v && n > 1 && list[0] == STAGE_SCAN && list[1] == STAGE_STATS)
        {
          if (! scan_stats (g, st, error))
            return false;
          k = 2;
        }
      for (; k < n; k++)
        if (! stage_part (g, st, list[k], &whole, keep, error)
            || ! stage_end (g, st, list[k], error))
          return false;
    }
  else if (clfx_graph_tile_index (g) == 0 && n > 0
           && ! stage_end (g, st, list[n - 1], error))
    return false;
  if (! (scan = scan_buffer (g, st, error))
      || ! (prm = params_buffer (g, st, error)))
    return false;
  if (st->op == CLFX_TONEMAP_DURAND02)
    {
      if (! durand_cl (g, st, scan, prm, error))
        return false;
    }
  else if (st->op == CLFX_TONEMAP_FATTAL02)
    {
      if (! fattal_cl (g, st, scan, prm, error))
        return false;
    }
  else if (! (hist = hist_buffer (g, "histogram after", TM_HA_N, error))
           || ! CLFX_LAUNCH (g, &map, error, CLFX_SRC, CLFX_DST,
                             CLFX_ARG (scan), CLFX_FLOAT (st->scale),
                             CLFX_INT (st->op), CLFX_ARG (prm),
                             CLFX_ARG (hist), CLFX_LOCAL (4 * TM_HA_N)))
    return false;
  /* The after histogram adds up tile by tile: recorded after each tile,
   * the last record holds them all. */
  if (! (hist = clfx_graph_buffer (g, "histogram after", 4 * TM_HA_N, error))
      || ! clfx_graph_probe_counts (g, "log2 Y histogram, after", hist,
                                    TM_HA_N, error))
    return false;
  return pass >= 0 && clfx_graph_tile_index (g) > 0
           ? true
           : record_probes (g, st, error);
}

/* ---- CPU reference ------------------------------------------------------------ */

typedef struct
{
  double largest;         /* the largest finite colour value (>= 0) */
  double counts[3];       /* NaN, negative, +Inf */
  double sum_y, sum_log, sum_abs_log, sum_c[3], min_y, max_y, n;
  double prm[16];         /* as tm_params, in double */
} Ref;

static double
clean1 (double v, double m)
{
  return isnan (v) ? 0.0 : v < 0.0 ? 0.0 : isinf (v) ? m : v;
}

/* A texel as tm_read gives it: RGBA in linear light, cleaned, exposed. */
static void
ref_read (const ClfxImage *src, const ClfxPlan *plan, const Ref *r, int x,
          int y, double scale, double out[4])
{
  float t[4];
  int   alpha = src->channels == 4 ? 3 : 1;

  clfx_ref_texel (src, x, y, t);
  for (int c = 0; c < 4; c++)
    {
      bool colour = src->channels == 4 ? c < 3 : c == 0;
      if (colour)
        {
          out[c] = clean1 (t[c], r->largest);
          if (plan->decode)
            out[c] = clfx_srgb_to_linear (out[c]);
          /* kernels/tonemap.cl's TM_CAP: products stay finite. */
          out[c] = fmin (out[c] * scale, (double) 1e30f);
        }
      else
        out[c] = t[c];
    }
  out[alpha] = isnan (t[alpha]) ? 0.0 : fmin (fmax (t[alpha], 0.0), 1.0);
  if (src->channels < 4)
    {
      double a = src->channels == 2 ? out[1] : 1.0;
      out[1] = out[2] = out[0];
      out[3] = a;
    }
}

static double
luminance (const double v[4])
{
  return Y_ROW[0] * v[0] + Y_ROW[1] * v[1] + Y_ROW[2] * v[2];
}

static void
ref_r05 (const double v[4], double Y, const double *p, double c[3])
{
  for (int k = 0; k < 3; k++)
    {
      double il = p[6] * v[k] + (1.0 - p[6]) * Y;
      double ia = p[7] * il + (1.0 - p[7]) * p[3 + k];
      double d = v[k] + pow (p[0] * ia, p[1]);
      c[k] = d > 0.0 ? v[k] / d : 0.0;
    }
}

static void
ref_aces (double c[3])
{
  static const double in[3][3] = { { 0.59719, 0.35458, 0.04823 },
                                   { 0.07600, 0.90834, 0.01566 },
                                   { 0.02840, 0.13383, 0.83777 } };
  static const double out[3][3] = { { 1.60475, -0.53108, -0.07367 },
                                    { -0.10208, 1.10813, -0.00605 },
                                    { -0.00327, -0.07276, 1.07602 } };
  double v[3];

  for (int i = 0; i < 3; i++)
    {
      double a = in[i][0] * c[0] + in[i][1] * c[1] + in[i][2] * c[2];
      a = fmin (a, 1e18);
      v[i] = (a * (a + 0.0245786) - 0.000090537)
             / (a * (0.983729 * a + 0.4329510) + 0.238081);
    }
  for (int i = 0; i < 3; i++)
    c[i] = fmin (fmax (out[i][0] * v[0] + out[i][1] * v[1]
                         + out[i][2] * v[2],
                       0.0),
                 1.0);
}

static void
ref_map (int op, const double *p, double v[4])
{
  double Y = luminance (v), c[3] = { v[0], v[1], v[2] };

  if (op == CLFX_TONEMAP_ACES)
    ref_aces (c);
  else if (p[15] != 0.0)
    c[0] = c[1] = c[2] = 0.0;
  else if (op == CLFX_TONEMAP_REINHARD02)
    {
      double L = p[0] * Y;
      double ld = L * (1.0 + L * p[1]) / (1.0 + L);
      for (int k = 0; k < 3; k++)
        c[k] = Y > 0.0 ? v[k] * ld / Y : 0.0;
    }
  else if (op == CLFX_TONEMAP_REINHARD05)
    {
      if (Y > 0.0)
        ref_r05 (v, Y, p, c);
      else
        c[0] = c[1] = c[2] = 0.0;
      for (int k = 0; k < 3 && p[14] > 0.0; k++)
        c[k] = (c[k] - p[12]) * p[14];
    }
  else
    {
      double yw = Y * p[0];
      double ld = log (yw + 1.0) / log (2.0 + 8.0 * pow (Y * p[1], p[3]))
                  * p[2];
      for (int k = 0; k < 3; k++)
        c[k] = Y > 0.0 ? v[k] * ld / Y : 0.0;
    }
  v[0] = c[0];
  v[1] = c[1];
  v[2] = c[2];
}

static void
ref_params (const State *st, Ref *r)
{
  double  lavg = exp (r->sum_log / r->n), mean = r->sum_y / r->n;
  double *p = r->prm;

  memset (r->prm, 0, sizeof r->prm);
  p[8] = lavg;
  p[9] = mean;
  p[15] = r->max_y > 0.0 ? 0.0 : 1.0;
  if (st->op == CLFX_TONEMAP_REINHARD02)
    {
      double a = st->a1 / lavg, white = st->a2 > 0.0 ? st->a2 : a * r->max_y;
      p[0] = a;
      p[1] = white > 0.0 ? 1.0 / (white * white) : 0.0;
      p[2] = white;
    }
  else if (st->op == CLFX_TONEMAP_REINHARD05)
    {
      double lmax = log (r->max_y), den = lmax - log (2.3e-5 + r->min_y);
      double k = den != 0.0 ? (lmax - r->sum_log / r->n) / den : 0.0;
      k = k > 0.0 ? k : 0.0;
      p[0] = exp (-st->a1);
      p[1] = 0.3 + 0.7 * pow (k, 1.4);
      p[2] = k;
      for (int c = 0; c < 3; c++)
        p[3 + c] = st->a2 * (r->sum_c[c] / r->n) + (1.0 - st->a2) * mean;
      p[6] = st->a2;
      p[7] = st->a3;
    }
  else if (st->op == CLFX_TONEMAP_DURAND02)
    {
      p[0] = log10 (r->max_y) - 6.0;
      p[1] = r->max_y * 1e-6;
      p[2] = 1.0 / st->a1;
      p[3] = st->a2;
      p[4] = st->a3;
    }
  else if (st->op == CLFX_TONEMAP_DRAGO03)
    {
      p[0] = 1.0 / lavg;
      p[1] = r->max_y > 0.0 ? 1.0 / r->max_y : 0.0;
      p[2] = 1.0 / log10 (r->max_y / lavg + 1.0);
      p[3] = log (st->a1) / log (0.5);
    }
}

/* The reference's statistics, constants and range (reinhard05). */
static void
ref_collect (const ClfxImage *src, const ClfxPlan *plan, double scale,
             Ref *r)
{
  const State *st = plan->state;

  memset (r, 0, sizeof *r);
  for (int y = 0; st->scan && y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        float t[4];
        clfx_ref_texel (src, x, y, t);
        for (int c = 0; c < (src->channels == 4 ? 3 : 1); c++)
          {
            if (isnan (t[c]))
              r->counts[0]++;
            else if (t[c] < 0.0f)
              r->counts[1]++;
            else if (isinf (t[c]))
              r->counts[2]++;
            else
              r->largest = fmax (r->largest, t[c]);
          }
      }
  r->n = (double) src->width * src->height;
  r->min_y = INFINITY;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double v[4], Y, l;
        ref_read (src, plan, r, x, y, scale, v);
        Y = luminance (v);
        l = log (LOG_EPS[st->op] + Y);
        r->sum_y += Y;
        r->sum_log += l;
        r->sum_abs_log += fabs (l);
        for (int c = 0; c < 3; c++)
          r->sum_c[c] += v[c];
        r->min_y = fmin (r->min_y, Y);
        r->max_y = fmax (r->max_y, Y);
      }
  ref_params (st, r);
}

/* ---- durand02's reference ------------------------------------------------------ */

/* A grid cell: the sums of w L and w, the sums of w |L| and of the pixels
 * that reach it (for the bound), and the bounds on the device's sums. */
typedef struct
{
  double sl, sw, abs_l, cnt, el, ew;
} Cell;

/* The reference's base at every pixel, and what the device's may differ
 * by (kernels/tonemap.cl, docs/TONEMAP.md):
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
} DurandRef;

static void
durand_ref_free (DurandRef *d)
{
  free (d->L);
  free (d->B);
  free (d->dB);
}

static void
blur_axis (Cell *in, Cell *out, const State *st, int axis)
{
  static const double k[5] = { 0.0625, 0.25, 0.375, 0.25, 0.0625 };
  long                step = axis == 0 ? 1 : axis == 1 ? st->gx
                                                       : (long) st->gx * st->gy;
  int                 len = axis == 0 ? st->gx : axis == 1 ? st->gy : st->gz;
  long                n = (long) st->gx * st->gy * st->gz;

  for (long i = 0; i < n; i++)
    {
      int  at = axis == 0   ? (int) (i % st->gx)
                : axis == 1 ? (int) ((i / st->gx) % st->gy)
                            : (int) (i / ((long) st->gx * st->gy));
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
            const Ref *r, bool gpu_filter, DurandRef *d, ClfxError *error)
{
  const State *st = plan->state;
  const double *p = r->prm;
  long          npx = (long) src->width * src->height;
  long          n = (long) st->gx * st->gy * st->gz;
  Cell         *g0 = calloc ((size_t) n, sizeof *g0);
  Cell         *g1 = calloc ((size_t) n, sizeof *g1);
  double        labs = 0.0, df, eta;

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
        ref_read (src, plan, r, x, y, scale, v);
        d->L[(long) y * src->width + x] = log10 (fmax (luminance (v), p[1]));
        labs = fmax (labs, fabs (d->L[(long) y * src->width + x]));
      }
  if (plan->decode && ! (plan->srgb_tables && src->depth == CLFX_DEPTH_U8))
    eta = 32.0 * U;
  else if (src->depth == CLFX_DEPTH_U8 || src->depth == CLFX_DEPTH_U16)
    eta = 3.0 * U;
  else
    eta = 0.0;
  d->dl = (10.0 * U + eta) / log (10.0) + 6.0 * U * labs;
  df = d->dl * p[2] + 4.0 * U * (6.0 * p[2] + 2.0);
  /* The splat, one pixel at a time into its two cells. */
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double l = d->L[(long) y * src->width + x];
        double zf = (l - p[0]) * p[2], z0 = floor (zf), f = zf - z0;
        long   base = (long) (y / st->cell) * st->gx + x / st->cell;
        for (int k = 0; k < 2; k++)
          {
            int    z = (int) z0 + k;
            double wgt = k ? f : 1.0 - f;
            Cell  *c;
            if (z < 0 || z >= st->gz)
              continue;
            c = &g0[(long) z * st->gx * st->gy + base];
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
  blur_axis (g0, g1, st, 0);
  blur_axis (g1, g0, st, 1);
  blur_axis (g0, g1, st, 2);
  d->bmin = INFINITY;
  d->bmax = -INFINITY;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        long   at = (long) y * src->width + x;
        double l = d->L[at];
        double ax = (x + 0.5) / st->cell - 0.5, ay = (y + 0.5) / st->cell - 0.5;
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
            i = i < 0 ? 0 : i >= st->gx ? st->gx - 1 : i;
            j = j < 0 ? 0 : j >= st->gy ? st->gy - 1 : j;
            z = z < 0 ? 0 : z >= st->gz ? st->gz - 1 : z;
            c = &g1[((long) z * st->gy + j) * st->gx + i];
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
  free (g0);
  free (g1);
  return true;
}

/* log10 of the result's luminance over the pixel's, and its bound. */
static double
durand_log_out (const DurandRef *d, const double *p, long at, double *dlo)
{
  double range = d->bmax - d->bmin;
  double c = range > 0.0 ? p[3] / range : 0.0;
  double dc = range > 0.0 ? c * (2.0 * d->db_max / range + 3.0 * U) : 0.0;
  double l = d->L[at], b = d->B[at];
  double lo = (b - d->bmax) * c + p[4] * (l - b);

  if (dlo)
    *dlo = c * (d->dB[at] + d->db_max) + fabs (b - d->bmax) * dc
           + p[4] * (d->dl + d->dB[at])
           + 4.0 * U * (fabs (b - d->bmax) * c + p[4] * fabs (l - b)
                        + fabs (lo));
  return lo;
}

/* reinhard05's range of the mapped colour over pixels with Y > 0, from
 * the constants in r. */
static void
ref_range (const ClfxImage *src, const ClfxPlan *plan, double scale, Ref *r)
{
  double lo = INFINITY, hi = -INFINITY;

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double v[4], c[3], Y;
        ref_read (src, plan, r, x, y, scale, v);
        if ((Y = luminance (v)) <= 0.0)
          continue;
        ref_r05 (v, Y, r->prm, c);
        for (int k = 0; k < 3; k++)
          {
            lo = fmin (lo, c[k]);
            hi = fmax (hi, c[k]);
          }
      }
  r->prm[12] = lo;
  r->prm[13] = hi;
  r->prm[14] = hi > lo ? 1.0 / (hi - lo) : 0.0;
}

/* The statistics' error bounds (u = 2^-24).  A sum of n non-negative
 * terms goes through a compensated column sum (2 u), a tree of 64 (6 u),
 * a compensated strided sum over the blocks (2 u) and a tree of 256
 * (8 u): 18 u, plus each term's own error (Y: three products and two sums,
 * the exposure's product, the read: 8 u): 26 u of the sum.  The log sum's
 * terms have both signs: 18 u of the sum of |log|, plus each term's own
 * error, ln as log2 times a float ln 2 (log2's 3 ulp: 6 u |ln|, the
 * product's rounding and the constant's: 1.05 u |ln|) and Y's 8 u (8 u
 * absolute after the log): 26 u sum |log| + 8 u n.  A minimum or
 * maximum of Y: 8 u of it. */

/* The largest change of any mapped value when the constants move from
 * base's to q's. */
static double
map_change (const ClfxImage *src, const ClfxPlan *plan, double scale,
            const Ref *base, const Ref *q)
{
  const State *st = plan->state;
  double       worst = 0.0;

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double a[4], b[4];
        ref_read (src, plan, base, x, y, scale, a);
        memcpy (b, a, sizeof b);
        ref_map (st->op, base->prm, a);
        ref_map (st->op, q->prm, b);
        for (int c = 0; c < 3; c++)
          worst = fmax (worst, fabs (a[c] - b[c]));
      }
  return worst;
}

/* reinhard05: q's range from q's constants.  A flat range (every mapped
 * value the same: a gray or one-pixel image) stays flat: the device maps
 * equal inputs to equal values, and a moved constant cannot open it. */
static void
keep_range (const ClfxImage *src, const ClfxPlan *plan, double scale,
            const Ref *base, Ref *q)
{
  if (((const State *) plan->state)->op != CLFX_TONEMAP_REINHARD05)
    return;
  ref_range (src, plan, scale, q);
  if (base->prm[14] == 0.0)
    q->prm[14] = 0.0;
}

/* reinhard05: the largest |ln C| of a colour value C > 0 of a pixel the
 * map gives a photoreceptor (Y > 0), for the power's bound (map_bound). */
static double
largest_log (const ClfxImage *src, const ClfxPlan *plan, double scale,
             const Ref *base)
{
  double worst = 0.0;

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double v[4];
        ref_read (src, plan, base, x, y, scale, v);
        if (luminance (v) <= 0.0)
          continue;
        for (int c = 0; c < 3; c++)
          if (v[c] > 0.0 && isfinite (v[c]))
            worst = fmax (worst, fabs (log (v[c])));
      }
  return worst;
}

/* What the device's map may differ by before its store.  The statistics
 * and constants are moved, one at a time, by their bounds (above; the
 * constants by their own float evaluation: divisions 2.5 ulp, exp and
 * log 3, pow 16) and the largest change of any mapped value is added:
 * first-order propagation through the operator itself.  Then the map's
 * own float arithmetic per pixel, and the texels' read error. */
static void
map_bound (const ClfxPlan *plan, const ClfxImage *src, double scale,
           ClfxTolerance *tol)
{
  const State *st = plan->state;
  Ref          base, q;
  double       stats = 0.0, consts = 0.0, eta;
  /* Relative bounds of the constants' own evaluation, per index. */
  static const double own[CLFX_N_TONEMAP][8] = {
    { 6, 10 },             /* reinhard02: a, 1 / white^2 */
    { 6, 32, 0, 6, 6, 6 }, /* reinhard05: f, m, -, Ig */
    { 5, 5, 20, 20 },      /* drago03 */
    { 0 },                 /* aces */
    { 0 },                 /* durand02: durand_ref bounds it */
    { 0 },                 /* fattal02: fattal_bound */
  };

  clfx_tol_init (tol);
  memset (&base, 0, sizeof base);
  if (st->op != CLFX_TONEMAP_ACES)
    {
      ref_collect (src, plan, scale, &base);
      if (st->op == CLFX_TONEMAP_REINHARD05)
        ref_range (src, plan, scale, &base);
      for (int k = 0; k < 6; k++)
        {
          q = base;
          switch (k)
            {
            case 0:
              q.sum_log += 26.0 * U * q.sum_abs_log + (8.0 + 6.0) * U * q.n;
              break;
            case 1:
              q.sum_y *= 1.0 + 26.0 * U;
              break;
            case 2:
            case 3:
              /* A channel's sum (reinhard05 with chromatic adaptation):
               * all three together, then the largest's alone. */
              if (st->op != CLFX_TONEMAP_REINHARD05 || st->a2 == 0.0)
                continue;
              for (int c = 0; c < 3; c++)
                if (k == 2 || q.sum_c[c] >= fmax (q.sum_c[0],
                                                  fmax (q.sum_c[1],
                                                        q.sum_c[2])))
                  q.sum_c[c] *= 1.0 + 26.0 * U;
              break;
            case 4:
              q.max_y *= 1.0 + (8.0 + 6.0 * fabs (log (fmax (q.max_y,
                                                             1e-300))))
                                 * U;
              break;
            default:
              q.min_y += (2.3e-5 + q.min_y)
                         * (8.0 + 6.0 * fabs (log (2.3e-5 + q.min_y))) * U;
              break;
            }
          ref_params (st, &q);
          keep_range (src, plan, scale, &base, &q);
          stats += map_change (src, plan, scale, &base, &q);
        }
      for (int i = 0; i < 8; i++)
        if (own[st->op][i] > 0.0)
          {
            q = base;
            q.prm[i] *= 1.0 + own[st->op][i] * U;
            keep_range (src, plan, scale, &base, &q);
            consts += map_change (src, plan, scale, &base, &q);
          }
      tol->abs_tol += stats + consts;
      clfx_tol_clause (tol, "statistics moved by their bounds: %.3g; the "
                       "constants by their float evaluation: %.3g "
                       "(first-order, through the operator)",
                       stats, consts);
    }
  /* The texels' read error, relative: the unorm conversion 1.5 ulp, powr
   * 16 ulp where sRGB is decoded by the formula; an operator moves its
   * result by at most 3 times a relative change of its input (reinhard05:
   * the photoreceptor's slope, 1/4, over the range). */
  if (plan->decode && ! (plan->srgb_tables && src->depth == CLFX_DEPTH_U8))
    eta = 32.0 * U;
  else if (src->depth == CLFX_DEPTH_U8 || src->depth == CLFX_DEPTH_U16)
    eta = 3.0 * U;
  else
    eta = 0.0;
  switch (st->op)
    {
    case CLFX_TONEMAP_REINHARD02:
      tol->rel_tol += 30.0 * U + 3.0 * eta;
      clfx_tol_clause (tol, "map: Y 8 u twice, 4 operations, a division: "
                       "30 u relative");
      break;
    case CLFX_TONEMAP_DRAGO03:
      /* t = (Y / max Y)^b as exp2 (b log2 t0): log2 and exp2 3 ulp and
       * the product, 7 u |ln t| + 6 u relative in t; through ln (2 + 8 t)
       * that is at most 8 t (7 u |ln t| + 6 u) / ((2 + 8 t) ln (2 + 8 t)),
       * 17 u (t |ln t| <= 1 / e, t <= 1): inside powr's 32 u over ln 2,
       * which this budget was made with. */
      tol->rel_tol += 80.0 * U + 3.0 * eta;
      clfx_tol_clause (tol, "map: the power (exp2 of a log2) 17 u, log 6 u, "
                       "log1p 4 u, two divisions, Y 8 u: 80 u relative");
      break;
    case CLFX_TONEMAP_REINHARD05:
      {
        /* P = (f Ia)^m as exp2 (m log2 (f Ia)): log2 and exp2 3 ulp and
         * the product, 7 u |ln P| + 6 u relative, and Ia's 8 u times m
         * (<= 1).  C / (C + P) moves by r / (1 + r)^2 of that, r = P / C:
         * with |ln P| <= |ln r| + |ln C|, r |ln r| / (1 + r)^2 <= 0.224
         * and r / (1 + r)^2 <= 1/4, at most 7 u (0.224 + L / 4) + 14 u / 4,
         * L the largest |ln C| of the image; a division and the
         * normalisation's arithmetic 10 u. */
        double s = base.prm[14] > 0.0 ? base.prm[14] : 1.0;
        double L = largest_log (src, plan, scale, &base);
        double e = 7.0 * (0.224 + L / 4.0) + 14.0 / 4.0 + 10.0;
        tol->abs_tol += (e * U + eta) * s;
        tol->rel_tol += 4.0 * U;
        clfx_tol_clause (tol, "map: the power (exp2 of a log2) 7 u |ln P| "
                         "+ 6 u and Ia 8 u into C / (C + P) (r / (1 + r)^2 "
                         "of it, largest |ln C| %.3g), a division: %.3g u, "
                         "times the normalisation %.3g", L, e, s);
      }
      break;
    default:
      tol->abs_tol += 128.0 * U + 3.0 * eta;
      clfx_tol_clause (tol, "map: float constants and two 3 x 3 products "
                       "(5 u of 2.2 x the curve), the curve's cancellation "
                       "near 0.003 (3 u of 1.03 / 0.238): 128 u");
      break;
    }
  if (eta > 0.0)
    clfx_tol_clause (tol, "texels read within %.2g relative, 3x through "
                     "the map", eta);
}

/* ---- fattal02's reference ---------------------------------------------------- */

/* The read error, relative, of the texels (as map_bound's). */
static double
read_eta (const ClfxPlan *plan, const ClfxImage *src)
{
  if (plan->decode && ! (plan->srgb_tables && src->depth == CLFX_DEPTH_U8))
    return 32.0 * U;
  if (src->depth == CLFX_DEPTH_U8 || src->depth == CLFX_DEPTH_U16)
    return 3.0 * U;
  return 0.0;
}

/* fattal-ref.c's solve of this image, once per plan.  du, the distance
 * the device's U may have from the reference's: the device runs the same
 * steps in float.  An a priori bound on an iterative solver's rounding
 * grows with its levels and sweeps far past what happens, so the
 * reference estimates it the way stochastic arithmetic does (CESTAC):
 * it runs the whole pipeline twice more with every stored value moved at
 * random by up to 4 u of the magnitude of its terms (a float sum of four
 * terms rounds within 3 u of them), and takes 4 times the larger
 * distance from its plain run, plus the read's error carried as H's. */
static const FattalCache *
fattal_compute (const ClfxPlan *plan, const ClfxImage *src, double scale,
                ClfxError *error)
{
  State       *st = plan->state;
  FattalCache *c = st->fat;
  Ref          r;
  long         n = (long) src->width * src->height;
  double       eta = read_eta (plan, src);

  if (c && c->src == src)
    return c;
  fattal_cache_free (c);
  st->fat = NULL;
  if (! (c = calloc (1, sizeof *c)) || ! (c->Y = malloc (n * sizeof *c->Y))
      || ! (c->s = malloc (n * sizeof *c->s)))
    goto nomem;
  ref_collect (src, plan, scale, &r);
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        long   at = (long) y * src->width + x;
        double v[4], Y, m = 0.0;
        ref_read (src, plan, &r, x, y, scale, v);
        Y = luminance (v);
        c->Y[at] = Y;
        for (int k = 0; k < 3 && Y > 0.0; k++)
          m = fmax (m, st->a3 == 0.0 ? 1.0 : pow (v[k] / Y, st->a3));
        c->s[at] = m;
        if (r.max_y > 0.0)
          c->max_h = fmax (c->max_h, fabs (log (100.0 * Y / r.max_y
                                                + 1e-4)));
      }
  if (! clfx_fattal_ref (src->width, src->height, c->Y, st->a1, st->a2,
                         st->noise, &c->r))
    goto nomem;
  for (unsigned seed = 1; seed <= 2; seed++)
    {
      ClfxFattalRef q;
      double        d = 0.0;
      if (! clfx_fattal_ref_perturbed (src->width, src->height, c->Y,
                                       st->a1, st->a2, st->noise, 4.0 * U,
                                       seed, &q))
        goto nomem;
      for (long i = 0; i < n; i++)
        d = fmax (d, fabs (fattal_u (&q)[i] - fattal_u (&c->r)[i]));
      c->du_est = fmax (c->du_est, d);
      clfx_fattal_ref_free (&q);
    }
  c->du = 4.0 * c->du_est + 2.0 * eta;
  c->src = src;
  st->fat = c;
  return c;
nomem:
  fattal_cache_free (c);
  clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  return NULL;
}

/* The result's bound.  L = exp (U) - 1e-4 moves by dL = (L + 1e-4) g,
 * g = e^du - 1 + exp's 3 ulp; dL grows with L, so the value of a rank
 * moves by no more than dL at that value: lo by Dlo = (lo + 1e-4) g, hi
 * by Dhi alike.  Then out = (L - lo) / R, R = hi - lo (at least R' = R -
 * Dlo - Dhi), moves by (dL + Dlo) / R' + out (Dlo + Dhi) / R', which is
 * out (g + (Dlo + Dhi) / R') + ((lo + 1e-4) g + Dlo) / R' since L + 1e-4
 * = out R + lo + 1e-4; the floor at 0 moves an out near 0 by 1e-4 more.
 * Colour is out times s = (c / Y)^saturation: relative, that plus s's own
 * error (Y 8 u and a division; exp2 (s log2 (c / Y)): log2's 3 ulp times
 * |s log2 (c / Y)|, at most 4.1 where s is not tiny since c <= Y /
 * 0.0606, and exp2's 3 ulp: 48 u, and the read's twice; where c / Y is
 * tiny so is s, and the absolute part covers it); absolute, the rest
 * times the largest s. */
static void
fattal_bound (const ClfxPlan *plan, const ClfxImage *src, double scale,
              ClfxTolerance *tol)
{
  ClfxError          e = { 0 };
  const FattalCache *c = fattal_compute (plan, src, scale, &e);
  long               n = (long) src->width * src->height;
  double             g, dlo, dhi, R, smax = 0.0, rel, abs;

  clfx_tol_init (tol);
  if (! c)
    {
      clfx_tol_clause (tol, "fattal02's bound: %s", e.message);
      return;
    }
  for (long i = 0; i < n; i++)
    smax = fmax (smax, c->s[i]);
  g = expm1 (c->du) + 6.0 * U;
  dlo = (c->r.lo + 1e-4) * g;
  dhi = (c->r.hi + 1e-4) * g;
  R = c->r.hi - c->r.lo - dlo - dhi;
  if (n == 1)
    {
      /* One pixel is both percentiles: out is 1 on either side. */
      rel = 0.0;
      abs = 0.0;
    }
  else if (R > 0.0)
    {
      rel = g + (dlo + dhi) / R;
      abs = ((c->r.lo + 1e-4) * g + dlo) / R + 1e-4;
    }
  else
    {
      /* A range within the bounds (a flat image): out may be anything the
       * device's own lo and hi give, the clamp's 1e-4 up to 1. */
      rel = 0.0;
      abs = 1.0;
    }
  tol->abs_tol += abs * smax;
  tol->rel_tol += rel + 48.0 * U + 2.0 * read_eta (plan, src);
  clfx_tol_clause (tol, "fattal02: U within %.3g (4 x %.3g, the "
                   "reference run with float's rounding emulated; the "
                   "multigrid's own algebraic error is %.3g), through exp "
                   "and the percentiles' normalisation (range %.3g): %.3g "
                   "relative, %.3g times the largest (c / Y)^saturation "
                   "%.3g; its own 48 u relative",
                   c->du, c->du_est, c->r.alg_err, c->r.hi - c->r.lo, rel,
                   abs, smax);
}

/* fattal02's probes: each level's average gradient (its pyramid's error:
 * H within 8 u + 3 u |H| and the read, each level's 16-term blur 8 u of
 * |H| more; a difference of two over 2^(k + 1); the mean's sums 30 u),
 * and L at the two percentiles (fattal_bound's D, relative). */
static bool
fattal_probes (const ClfxPlan *plan, const ClfxImage *src, double scale,
               ClfxProbes *probes, ClfxError *error)
{
  const FattalCache *c = fattal_compute (plan, src, scale, error);
  double             lh[2], eh, da = 0.0, g;

  if (! c)
    return false;
  eh = 8.0 * U + read_eta (plan, src) + 3.0 * U * c->max_h;
  for (int k = 0; k < c->r.levels; k++)
    da = fmax (da, 2.0 * ldexp (eh + 8.0 * k * U * c->max_h, -k - 1)
                     + 30.0 * U * c->r.avg[k]);
  lh[0] = c->r.lo;
  lh[1] = c->r.hi;
  g = expm1 (c->du) + 6.0 * U;
  if (! clfx_probes_add (probes, "gradient averages", c->r.avg, c->r.levels,
                         true, da, 0.0, "each level's pyramid: H's error "
                         "and 8 u |H| per level, a difference over 2^(k + "
                         "1), the mean's sums 30 u")
      || ! clfx_probes_add (probes, "L at 0.1 %, 99.5 %", lh, 2, true,
                            1e-4 * g, g, "exp (U) - 1e-4 with U within "
                            "fattal_bound's distance"))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  return true;
}

/* ---- the log-luminance histograms ------------------------------------------ */

/* tm_hist_bin: the bin of Y stored as a float, half octaves read from its
 * exponent and first mantissa bit from 2^lo, under and over bins first and
 * last. */
static int
hist_bin (double Y, int lo, int n)
{
  float    f = (float) Y;
  uint32_t b;
  int      k;

  if (! (f >= ldexpf (1.0f, lo)))
    return 0;
  memcpy (&b, &f, sizeof b);
  k = (int) (b >> 22) - ((127 + lo) << 1);
  return k >= n - 2 ? n - 1 : k + 1;
}

/* Counts Y into h; where the device's Y, within dY of it, may fall into
 * another bin, every bin it may reach counts it as uncertain (amb). */
static void
hist_add (double *h, double *amb, int lo, int n, double Y, double dY)
{
  int b = hist_bin (Y, lo, n), a = hist_bin (Y - dY, lo, n);
  int c = hist_bin (Y + dY, lo, n);

  h[b] += 1.0;
  if (a != b || c != b)
    for (int k = a; k <= c; k++)
      amb[k] += 1.0;
}

static double
hist_slack (const double *amb, int n)
{
  double m = 0.0;

  for (int k = 0; k < n; k++)
    m = fmax (m, amb[k]);
  return m;
}

static void linear_bound (const ClfxParams *p, const ClfxPlan *plan,
                          const ClfxDeviceInfo *dev, const ClfxImage *src,
                          ClfxTolerance *tol);

static bool
tonemap_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
             ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const State *st = plan->state;
  double       scale = exp2 (CLFX_PARAMS_OF (p, ClfxTonemapParams)->exposure);
  Ref          r;
  bool         ok = true;

  DurandRef    d = { 0 };
  const FattalCache *fat = NULL;
  double       hb[TM_HB_N] = { 0 }, hb_amb[TM_HB_N] = { 0 };
  double       ha[TM_HA_N] = { 0 }, ha_amb[TM_HA_N] = { 0 };
  double       eta_y = 8.0 * U + read_eta (plan, src);
  ClfxTolerance lin;

  ref_collect (src, plan, scale, &r);
  if (st->op == CLFX_TONEMAP_REINHARD05)
    ref_range (src, plan, scale, &r);
  if (st->op == CLFX_TONEMAP_DURAND02)
    {
      if (! durand_ref (src, plan, scale, &r, st->linear, &d, error))
        return false;
      r.prm[12] = d.bmin;
      r.prm[13] = d.bmax;
    }
  /* The result's bound in linear light, for the after histogram. */
  if (probes)
    linear_bound (p, plan, NULL, src, &lin);
  if (st->op == CLFX_TONEMAP_FATTAL02
      && (! (fat = fattal_compute (plan, src, scale, error))
          || (probes && ! fattal_probes (plan, src, scale, probes, error))))
    return false;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double v[4];
        float  out[4];
        ref_read (src, plan, &r, x, y, scale, v);
        if (probes)
          hist_add (hb, hb_amb, TM_HB_LO, TM_HB_N, luminance (v),
                    eta_y * luminance (v));
        if (st->op == CLFX_TONEMAP_FATTAL02)
          {
            /* colour out (c / Y)^saturation, 0 where Y = 0. */
            long   at = (long) y * src->width + x;
            double Y = luminance (v);
            for (int c = 0; c < 3; c++)
              v[c] = Y > 0.0 && r.prm[15] == 0.0
                       ? fat->r.out[at]
                           * (st->a3 == 0.0 ? 1.0 : pow (v[c] / Y, st->a3))
                       : 0.0;
          }
        else if (st->op == CLFX_TONEMAP_DURAND02)
          {
            /* log10 out = (B - max B) c + detail (L - B); colour times
             * out / Y (0 where Y = 0 or the image is black). */
            double Y = luminance (v);
            double k = Y > 0.0 && r.prm[15] == 0.0
                         ? pow (10.0, durand_log_out (&d, r.prm,
                                                      (long) y * src->width
                                                        + x,
                                                      NULL))
                             / Y
                         : 0.0;
            for (int c = 0; c < 3; c++)
              v[c] *= k;
          }
        else
          ref_map (st->op, r.prm, v);
        if (probes)
          {
            /* The device's result luminance: within the result's bound
             * in linear light (Y's row sums to 1) and Y's own 8 u. */
            double Ya = luminance (v);
            hist_add (ha, ha_amb, TM_HA_LO, TM_HA_N, Ya,
                      1.0000001 * (lin.abs_tol
                                   + (lin.rel_tol + 8.0 * U) * fabs (Ya)));
          }
        if (src->channels == 4)
          for (int c = 0; c < 4; c++)
            out[c] = (float) v[c];
        else
          {
            out[0] = (float) v[0];
            out[1] = src->channels == 2 ? (float) v[3] : 0.0f;
            out[2] = 0.0f;
            out[3] = 1.0f;
          }
        clfx_ref_store (dst, x, y, out, false, plan->decode);
      }
  if (st->op == CLFX_TONEMAP_DURAND02 && probes
      && ! clfx_probes_add (probes, "base range (log10)", r.prm + 12, 2, true,
                            d.db_max, 0.0, "the base's bound (durand_ref): "
                            "the log luminance, the grid's sums and blurs, "
                            "the slice"))
    ok = false;
  durand_ref_free (&d);
  if (! ok)
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  if (! probes)
    return true;
  if (! clfx_probes_add (probes, "log2 Y histogram, after", ha, TM_HA_N,
                         true, hist_slack (ha_amb, TM_HA_N), 0.0,
                         "counts of the result's Y in half octaves; a pixel "
                         "within the result's bound of a bin's edge may "
                         "fall on either side")
      || (st->op != CLFX_TONEMAP_ACES
          && ! clfx_probes_add (probes, "log2 Y histogram, before", hb,
                                TM_HB_N, true, hist_slack (hb_amb, TM_HB_N),
                                0.0, "counts of Y in half octaves; a pixel "
                                "within Y's 8 u (and the read's error) of a "
                                "bin's edge may fall on either side")))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  {
    /* The log-average moves by the log sum's bound over n (in the
     * exponent) and exp's 3 ulp; the mean by 26 u. */
    double dlog = (26.0 * U * r.sum_abs_log + 8.0 * U * r.n) / r.n;
    double lum[2] = { r.prm[8], r.prm[9] }, mm[2] = { r.min_y, r.max_y };
    double rel = dlog + 6.0 * U + 26.0 * U;
    if (st->scan)
      ok = clfx_probes_add (probes, "cleaned: NaN, negative, +Inf",
                            r.counts, 3, true, 0.0, 0.0, "counts: exact")
           && clfx_probes_add (probes, "largest finite value", &r.largest, 1,
                               true, 0.0, 0.0, "a maximum of stored values: "
                               "exact");
    if (ok && st->op != CLFX_TONEMAP_ACES)
      ok = clfx_probes_add (probes, "log-average, mean Y", lum, 2, true, 0.0,
                            rel, "compensated block sums and trees: 26 u "
                            "of a sum, 26 u sum |log| + 8 u n of the log sum, "
                            "exp 3 ulp")
           && clfx_probes_add (probes, "min Y, max Y", mm, 2, true, 0.0,
                               8.0 * U, "Y of one pixel: 8 u");
    /* The constants: each one's inputs' bounds times its sensitivity to
     * them (at most 2 for a and white, the log-average and the maximum
     * entering once each), and its own float evaluation. */
    if (ok && st->op == CLFX_TONEMAP_REINHARD02)
      ok = clfx_probes_add (probes, "scale a, white", r.prm, 3, true, 0.0,
                            2.0 * (rel + 8.0 * U) + 8.0 * U,
                            "a = key / Lavg, white = a max Y: 2 (stats) + "
                            "8 u");
    else if (ok && st->op == CLFX_TONEMAP_REINHARD05)
      {
        /* k = (ln Lmax - Llog) / (ln Lmax - ln (eps + Lmin)): the
         * numerator moves by dlog + 8 u + log's 6 u |ln Lmax|, the
         * denominator by 16 u + 6 u (|ln Lmax| + |ln (eps + Lmin)|);
         * m = 0.3 + 0.7 k^1.4 moves by 0.98 k^0.4 dk + pow's 32 u. */
        double lmax = fabs (log (r.max_y)), lmin = fabs (log (2.3e-5
                                                              + r.min_y));
        double num = fabs (log (r.max_y) - r.sum_log / r.n);
        double den = fabs (log (r.max_y) - log (2.3e-5 + r.min_y));
        double dk = den > 0.0 ? (dlog + 8.0 * U + 6.0 * U * lmax) / den
                                  + num * (16.0 * U + 6.0 * U * (lmax + lmin))
                                      / (den * den)
                              : 0.0;
        double k = r.prm[2], dm = 0.98 * pow (k, 0.4) * dk + 32.0 * U;
        double tol3[3] = { 6.0 * U * r.prm[0], dm, dk + 4.0 * U * k };
        ok = clfx_probes_add (probes, "f, contrast m, key k", r.prm, 3, true,
                              fmax (fmax (tol3[0], tol3[1]), tol3[2]), 0.0,
                              "k: the log sum's and log's bounds over its "
                              "denominator; m: 0.98 k^0.4 dk + pow 32 u");
      }
    else if (ok && st->op == CLFX_TONEMAP_DRAGO03)
      ok = clfx_probes_add (probes, "1/Lavg, 1/max Y, 1/log10, exponent",
                            r.prm, 4, true, 0.0, 2.0 * (rel + 8.0 * U)
                                                   + 24.0 * U,
                            "from the log-average and max Y: 2 (stats) + "
                            "log10, log and divisions 24 u");
  }
  if (! ok)
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  if (st->op == CLFX_TONEMAP_REINHARD05)
    {
      /* The range is a min and max of mapped colour: bounded as each
       * mapped value is (map_bound, before the store). */
      ClfxTolerance t;
      linear_bound (p, plan, NULL, src, &t);
      if (! clfx_probes_add (probes, "range", r.prm + 12, 2, true,
                             t.abs_tol, t.rel_tol, t.basis))
        return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
    }
  return true;
}

/* ---- tolerance ---------------------------------------------------------------- */

/* durand02: the base's bound carried through the map: log10 out moves by
 * c (dB + dB max) + |B - max B| dc + detail (dL + dB) (durand_log_out),
 * the result by ln 10 times that, plus exp10's 3 ulp, Y's 8 u, a division
 * and a product: 22 u, and the read's eta twice (colour, Y). */
static void
durand_bound (const ClfxPlan *plan, const ClfxImage *src, double scale,
              const ClfxDeviceInfo *dev, ClfxTolerance *tol)
{
  const State *st = plan->state;
  Ref          r;
  DurandRef    d;
  ClfxError    e = { 0 };
  double       worst = 0.0, eta;
  /* The hardware's blend weights where a GPU's sampler filtered (a CPU
   * device's sampler, and the kernels, weigh in float). */
  bool         gpu = st->linear && plan->use_sampler
                     && (! dev || ! strcmp (dev->type, "gpu"));

  clfx_tol_init (tol);
  ref_collect (src, plan, scale, &r);
  if (! durand_ref (src, plan, scale, &r, gpu, &d, &e))
    {
      /* Out of memory: validation then accepts nothing but exact. */
      clfx_tol_clause (tol, "durand02's bound: %s", e.message);
      return;
    }
  for (long i = 0; i < (long) src->width * src->height; i++)
    {
      double dlo;
      durand_log_out (&d, r.prm, i, &dlo);
      worst = fmax (worst, dlo);
    }
  eta = 0.0;
  if (plan->decode && ! (plan->srgb_tables && src->depth == CLFX_DEPTH_U8))
    eta = 32.0 * U;
  else if (src->depth == CLFX_DEPTH_U8 || src->depth == CLFX_DEPTH_U16)
    eta = 3.0 * U;
  tol->rel_tol += log (10.0) * worst + 22.0 * U + 2.0 * eta;
  clfx_tol_clause (tol, "durand02: the base within %.3g (log10; %s), the "
                   "log luminance within %.3g, log10 out within %.3g, times "
                   "ln 10, + 22 u relative", d.db_max,
                   gpu ? "the GPU's 8-bit trilinear weights"
                       : "trilinear weights in float",
                   d.dl, worst);
  durand_ref_free (&d);
}

/* The result's bound in linear light, before the encoding and the store. */
static void
linear_bound (const ClfxParams *p, const ClfxPlan *plan,
              const ClfxDeviceInfo *dev, const ClfxImage *src,
              ClfxTolerance *tol)
{
  State *st = plan->state;
  double scale = exp2 (CLFX_PARAMS_OF (p, ClfxTonemapParams)->exposure);

  /* durand02's bound depends on the device (its filter's weights). */
  if (st->lin_src == src && st->op != CLFX_TONEMAP_DURAND02)
    {
      *tol = st->lin;
      return;
    }
  if (st->op == CLFX_TONEMAP_DURAND02)
    durand_bound (plan, src, scale, dev, tol);
  else if (st->op == CLFX_TONEMAP_FATTAL02)
    fattal_bound (plan, src, scale, tol);
  else
    map_bound (plan, src, scale, tol);
  st->lin = *tol;
  st->lin_src = src;
}

static void
tonemap_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                   const ClfxDeviceInfo *dev, const ClfxImage *src,
                   const ClfxImage *dst, ClfxTolerance *tol)
{
  linear_bound (p, plan, dev, src, tol);
  if (plan->decode)
    clfx_tol_srgb (tol, dst->depth, plan->srgb_tables);
  clfx_tol_store (tol, dst->depth, false);
}

static const char *
tonemap_describe (const ClfxParams *p)
{
  return clfx_param_get_nick (p, clfx_family_param (p->family, "operator"));
}

static const char *const uses_r02[] = { "operator", "exposure", "key",
                                        "white-point", NULL };
static const char *const uses_r05[] = { "operator", "exposure", "brightness",
                                        "chromatic", "light", NULL };
static const char *const uses_drago[] = { "operator", "exposure", "bias",
                                          NULL };
static const char *const uses_aces[] = { "operator", "exposure", NULL };
static const char *const uses_fattal[] = { "operator", "exposure", "alpha",
                                           "beta", "saturation", "noise",
                                           NULL };
static const char *const uses_durand[] = { "operator", "exposure", "contrast",
                                           "detail", "spatial-sigma",
                                           "range-sigma", "sampler-filter",
                                           NULL };

#define VARIANT(id, blurb, uses)                                             \
  { id, "tonemap", blurb, uses, tonemap_plan, NULL, tonemap_cl, tonemap_cpu, \
    tonemap_tolerance, NULL, tonemap_describe, tonemap_stats_cl }
const ClfxVariant clfx_variant_reinhard02
  = VARIANT ("reinhard02",
             CLFX_N_ ("Reinhard 2002 photographic (pfstmo's, global)"),
             uses_r02);
const ClfxVariant clfx_variant_reinhard05
  = VARIANT ("reinhard05", CLFX_N_ ("Reinhard 2005 (gegl:reinhard05)"),
             uses_r05);
const ClfxVariant clfx_variant_drago03
  = VARIANT ("drago03", CLFX_N_ ("Drago 2003 adaptive logarithm (pfstmo's)"),
             uses_drago);
const ClfxVariant clfx_variant_aces
  = VARIANT ("aces",
             CLFX_N_ ("ACES filmic (Hill's fit of the RRT + sRGB ODT)"),
             uses_aces);
const ClfxVariant clfx_variant_durand02
  = VARIANT ("durand02",
             CLFX_N_ ("Durand 2002 base and detail (a bilateral grid)"),
             uses_durand);
const ClfxVariant clfx_variant_fattal02
  = VARIANT ("fattal02",
             CLFX_N_ ("Fattal 2002 gradient domain (gegl:fattal02's, a "
                      "multigrid Poisson solve)"),
             uses_fattal);
#undef VARIANT
