/* resize.c: the resize op, OpenCL launch and CPU reference.
 *
 * Sampling position (normalized) of output pixel d along an axis:
 *   ((d + 0.5) / dst_size - 0.5) / zoom + 0.5
 * zoom 1 fills the output with the source; below 1 the source shrinks in
 * the middle and the addressing mode shows what lies outside it.
 *
 * nearest/linear go through the hardware sampler (resize_sample), with
 * k x k supersampling for linear when one output pixel covers more than two
 * source texels.  cubic/lanczos3 are separable passes whose tap tables are
 * built here and used by both paths, widened by the shrink factor so a
 * downscale is antialiased. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/clfx-common.h"
#include "../clfx-parallel.h"
#include "../clfx-sampler-ref.h"
#include "clfx-ops.h"

enum { P_WIDTH, P_HEIGHT, P_ZOOM_X, P_ZOOM_Y, P_FILTER, P_ADDRESSING,
       P_NORMALIZED, N_PARAMS };

static const ClfxChoice filters[] = {
  { "nearest", CLFX_N_ ("Nearest (sampler)") },
  { "linear", CLFX_N_ ("Linear (sampler)") },
  { "cubic", CLFX_N_ ("Cubic (in kernel)") },
  { "lanczos3", CLFX_N_ ("Lanczos3 (in kernel)") },
  { NULL, NULL }
};

const ClfxChoice clfx_addressing_choices[] = {
  { "clamp-to-edge", CLFX_N_ ("Clamp to edge") },
  { "clamp", CLFX_N_ ("Clamp (border colour)") },
  { "repeat", CLFX_N_ ("Repeat") },
  { "mirrored-repeat", CLFX_N_ ("Mirrored repeat") },
  { "none", CLFX_N_ ("None (kernel guards reads)") },
  { NULL, NULL }
};

static const ClfxParamSpec params[N_PARAMS] = {
  { "width", CLFX_N_ ("_Width"),
    CLFX_N_ ("Output width in pixels"), CLFX_PARAM_INT, 1, 65535,
    1024, NULL, NULL },
  { "height", CLFX_N_ ("Hei_ght"),
    CLFX_N_ ("Output height in pixels"), CLFX_PARAM_INT, 1, 65535,
    1024, NULL, NULL },
  { "zoom-x", CLFX_N_ ("_Zoom X"),
    CLFX_N_ ("Horizontal zoom of the source inside the output (1 = fill; "
             "below 1 shows the addressing mode)"),
    CLFX_PARAM_DOUBLE, 0.01, 100, 1, NULL, NULL },
  { "zoom-y", CLFX_N_ ("Zoom _Y"),
    CLFX_N_ ("Vertical zoom of the source inside the output"),
    CLFX_PARAM_DOUBLE, 0.01, 100, 1, NULL, NULL },
  { "filter", CLFX_N_ ("_Filter"),
    CLFX_N_ ("Resampling filter"), CLFX_PARAM_CHOICE, 0, 3, 1,
    filters, NULL },
  { "addressing", CLFX_N_ ("_Addressing"),
    CLFX_N_ ("Sampler addressing mode (outside the source)"),
    CLFX_PARAM_CHOICE, 0, 4, 0, clfx_addressing_choices, NULL },
  { "normalized-coords", CLFX_N_ ("_Normalized coordinates"),
    CLFX_N_ ("Sampler uses normalized coordinates (required by repeat "
             "and mirrored-repeat)"),
    CLFX_PARAM_BOOL, 0, 1, 1, NULL, NULL },
};

/* ---- the plan both paths share ----------------------------------------- */

typedef struct
{
  float  scale, offset;  /* clfx_resize_pos */
  double texels_per_px;  /* source texels under one output pixel */
  int    nsub;           /* linear supersamples on this axis */
  float  first, step;    /* their offsets, in sampler coordinate units */
  float  inv_size;       /* 1 / source size, for texel centres */
  int    ntaps;          /* cubic/lanczos: taps per output pixel */
  int   *start;          /* first tap, INT_MIN = outside (guard) */
  float *weights;        /* ntaps per output pixel, normalized to sum 1 */
  double weight_abs_sum; /* max over pixels of sum |w| (tolerance) */
} Axis;

typedef struct
{
  int  filter, addressing;
  bool normalized, guard;
  bool premul; /* straight alpha and a filter that mixes texels */
  Axis x, y;
} Plan;

static void
plan_free (Plan *pl)
{
  free (pl->x.start);
  free (pl->x.weights);
  free (pl->y.start);
  free (pl->y.weights);
}

static bool
axis_setup (Axis *a, int src, int dst, double zoom, const Plan *pl,
            ClfxError *error)
{
  double f = (double) src / ((double) dst * zoom);

  memset (a, 0, sizeof *a);
  a->scale = (float) (1.0 / ((double) dst * zoom));
  a->offset = (float) (0.5 - 0.5 / zoom);
  a->texels_per_px = f;
  a->inv_size = (float) (1.0 / (double) src);
  a->nsub = 1;
  if (pl->filter == CLFX_FILTER_LINEAR && f > 2.0)
    {
      /* One bilinear sample spans two texels; ceil (f / 2) of them spread
       * evenly across the pixel's footprint cover it without gaps. */
      double step = f / ceil (f / 2.0);
      double unit = pl->normalized ? 1.0 / (double) src : 1.0;
      a->nsub = (int) ceil (f / 2.0);
      a->step = (float) (step * unit);
      a->first = (float) ((0.5 * step - 0.5 * f) * unit);
    }
  if (pl->filter == CLFX_FILTER_CUBIC || pl->filter == CLFX_FILTER_LANCZOS3)
    {
      double support = pl->filter == CLFX_FILTER_CUBIC ? 2.0 : 3.0;
      double fs = f > 1.0 ? f : 1.0; /* widen the kernel when shrinking */
      double radius = support * fs;

      double *wd;

      a->ntaps = (int) ceil (2.0 * radius) + 1;
      a->start = malloc ((size_t) dst * sizeof *a->start);
      a->weights = calloc ((size_t) dst * (size_t) a->ntaps, sizeof (float));
      wd = malloc ((size_t) a->ntaps * sizeof *wd);
      if (! a->start || ! a->weights || ! wd)
        {
          free (wd);
          return clfx_error_set (error, CLFX_ERR_NOMEM,
                                 "out of memory for filter tables");
        }
      for (int d = 0; d < dst; d++)
        {
          float   s = clfx_resize_pos (d, a->scale, a->offset);
          float   u = s * (float) src;
          double  centre = (double) u - 0.5, sum = 0.0, abs_sum = 0.0;
          int     first = (int) ceil (centre - radius);
          float  *w = a->weights + (size_t) d * (size_t) a->ntaps;

          if (pl->guard && (u < 0.0f || u >= (float) src))
            {
              a->start[d] = INT_MIN;
              continue;
            }
          a->start[d] = first;
          for (int k = 0; k < a->ntaps; k++)
            {
              double t = ((double) (first + k) - centre) / fs;
              wd[k] = pl->filter == CLFX_FILTER_CUBIC
                        ? clfx_cubic_weight ((float) t)
                        : clfx_lanczos3_weight ((float) t);
              sum += wd[k];
            }
          for (int k = 0; k < a->ntaps; k++)
            {
              w[k] = (float) (wd[k] / sum);
              abs_sum += fabs ((double) w[k]);
            }
          if (abs_sum > a->weight_abs_sum)
            a->weight_abs_sum = abs_sum;
        }
      free (wd);
    }
  return true;
}

static bool
plan_make (Plan *pl, const ClfxImage *src, const ClfxImage *dst,
           const ClfxParams *p, ClfxError *error)
{
  memset (pl, 0, sizeof *pl);
  pl->filter = p->v[P_FILTER].i;
  pl->addressing = p->v[P_ADDRESSING].i;
  pl->normalized = p->v[P_NORMALIZED].b;
  pl->guard = pl->addressing == CLFX_ADDR_NONE;
  /* Nearest copies texels and never averages them (no supersampling):
   * straight colour passes untouched, bit for bit. */
  pl->premul = src->straight_alpha
               && (src->channels == 2 || src->channels == 4)
               && pl->filter != CLFX_FILTER_NEAREST;
  if (! clfx_sampler_check (pl->normalized, pl->addressing, error))
    return false;
  if (! axis_setup (&pl->x, src->width, dst->width, p->v[P_ZOOM_X].d, pl,
                    error)
      || ! axis_setup (&pl->y, src->height, dst->height, p->v[P_ZOOM_Y].d, pl,
                       error))
    {
      plan_free (pl);
      return false;
    }
  return true;
}

static bool
resize_prepare (const ClfxParams *p, const ClfxImage *src, int *dst_w,
                int *dst_h, ClfxError *error)
{
  (void) src;
  if (! clfx_params_check (&clfx_op_resize, p, error)
      || ! clfx_sampler_check (p->v[P_NORMALIZED].b, p->v[P_ADDRESSING].i,
                               error))
    return false;
  *dst_w = p->v[P_WIDTH].i;
  *dst_h = p->v[P_HEIGHT].i;
  return true;
}

/* ---- CPU reference ------------------------------------------------------- */

typedef struct
{
  const ClfxImage *src;
  ClfxImage       *dst;
  ClfxImage       *inter;
  const Plan      *pl;
  float            jx, jy; /* added to the sampler coordinate (bounds) */
} Job;

/* Nearest reads of the source at texel centres, premultiplied as the
 * kernels' src_texel() reads them. */
static ClfxSamplerDesc
tap_sampler (const Plan *pl)
{
  return (ClfxSamplerDesc) { pl->normalized, pl->addressing, false,
                             pl->premul };
}

static void
texel_centre (const ClfxImage *img, ClfxSamplerDesc s, int i, int j,
              float inv_w, float inv_h, float out[4])
{
  float cx = (float) i + 0.5f, cy = (float) j + 0.5f;
  if (s.normalized)
    {
      cx *= inv_w;
      cy *= inv_h;
    }
  clfx_ref_read (img, s, cx, cy, out);
}

/* The kernel's guarded_sample(), from nearest reads at texel centres. */
static void
guarded_sample (const ClfxImage *img, const Plan *pl, float u, float v,
                float out[4])
{
  ClfxSamplerDesc s = tap_sampler (pl);
  int             w = img->width, h = img->height;

  if (pl->filter != CLFX_FILTER_LINEAR)
    {
      int i = (int) floorf (u), j = (int) floorf (v);
      i = i < 0 ? 0 : i > w - 1 ? w - 1 : i;
      j = j < 0 ? 0 : j > h - 1 ? h - 1 : j;
      texel_centre (img, s, i, j, pl->x.inv_size, pl->y.inv_size, out);
      return;
    }
  {
    float fu = u - 0.5f, fv = v - 0.5f;
    float iu = floorf (fu), iv = floorf (fv);
    float a = fu - iu, b = fv - iv, t[4][4];
    int   i0 = (int) iu, j0 = (int) iv;
    int   is[2] = { i0, i0 + 1 }, js[2] = { j0, j0 + 1 };

    for (int k = 0; k < 2; k++)
      {
        is[k] = is[k] < 0 ? 0 : is[k] > w - 1 ? w - 1 : is[k];
        js[k] = js[k] < 0 ? 0 : js[k] > h - 1 ? h - 1 : js[k];
      }
    texel_centre (img, s, is[0], js[0], pl->x.inv_size, pl->y.inv_size, t[0]);
    texel_centre (img, s, is[1], js[0], pl->x.inv_size, pl->y.inv_size, t[1]);
    texel_centre (img, s, is[0], js[1], pl->x.inv_size, pl->y.inv_size, t[2]);
    texel_centre (img, s, is[1], js[1], pl->x.inv_size, pl->y.inv_size, t[3]);
    for (int c = 0; c < 4; c++)
      out[c] = clfx_bilerp (t[0][c], t[1][c], t[2][c], t[3][c], a, b);
  }
}

static void
store (ClfxImage *dst, int x, int y, const float v[4])
{
  for (int c = 0; c < dst->channels; c++)
    clfx_image_set (dst, x, y, c, v[c]);
}

/* A result pixel: as clfx_store(), divided by alpha again first when the
 * filter premultiplied (clfx_unpremul in clfx-store.h). */
static void
store_result (ClfxImage *dst, const Plan *pl, int x, int y, float v[4])
{
  int   n = dst->channels == 4 ? 3 : 1;
  float a = v[n];

  for (int c = 0; pl->premul && c < n; c++)
    v[c] = a > 0.0f ? v[c] / a : 0.0f;
  store (dst, x, y, v);
}

static void
cpu_sample_rows (void *data, int y0, int y1)
{
  const Job      *job = data;
  const Plan     *pl = job->pl;
  const ClfxImage *src = job->src;
  ClfxSamplerDesc smp = { pl->normalized, pl->addressing,
                          pl->filter == CLFX_FILTER_LINEAR, pl->premul };
  float inv_count = (float) (1.0 / (double) (pl->x.nsub * pl->y.nsub));

  for (int y = y0; y < y1; y++)
    for (int x = 0; x < job->dst->width; x++)
      {
        float s = clfx_resize_pos (x, pl->x.scale, pl->x.offset);
        float t = clfx_resize_pos (y, pl->y.scale, pl->y.offset);
        float bx = pl->normalized ? s : s * (float) src->width;
        float by = pl->normalized ? t : t * (float) src->height;
        float acc[4] = { 0, 0, 0, 0 };

        if (pl->guard)
          {
            float lx = pl->normalized ? 1.0f : (float) src->width;
            float ly = pl->normalized ? 1.0f : (float) src->height;
            if (bx < 0.0f || bx >= lx || by < 0.0f || by >= ly)
              {
                store_result (job->dst, pl, x, y, acc);
                continue;
              }
          }
        for (int j = 0; j < pl->y.nsub; j++)
          for (int i = 0; i < pl->x.nsub; i++)
            {
              float cx = bx + (pl->x.first + (float) i * pl->x.step);
              float cy = by + (pl->y.first + (float) j * pl->y.step);
              float v[4];
              if (pl->guard)
                guarded_sample (src, pl,
                                pl->normalized ? cx * (float) src->width : cx,
                                pl->normalized ? cy * (float) src->height : cy,
                                v);
              else
                clfx_ref_read (src, smp, cx + job->jx, cy + job->jy, v);
              for (int c = 0; c < 4; c++)
                acc[c] += v[c];
            }
        for (int c = 0; c < 4; c++)
          acc[c] *= inv_count;
        store_result (job->dst, pl, x, y, acc);
      }
}

static void
cpu_filter_h_rows (void *data, int j0, int j1)
{
  const Job      *job = data;
  const Plan     *pl = job->pl;
  const Axis     *ax = &pl->x;
  ClfxSamplerDesc s = tap_sampler (pl);

  for (int j = j0; j < j1; j++)
    for (int x = 0; x < job->inter->width; x++)
      {
        float acc[4] = { 0, 0, 0, 0 };
        if (ax->start[x] != INT_MIN)
          for (int k = 0; k < ax->ntaps; k++)
            {
              float w = ax->weights[(size_t) x * (size_t) ax->ntaps + k];
              int   i = ax->start[x] + k;
              float v[4];
              if (pl->guard)
                i = i < 0 ? 0 : i > job->src->width - 1 ? job->src->width - 1
                                                        : i;
              texel_centre (job->src, s, i, j, ax->inv_size, pl->y.inv_size,
                            v);
              for (int c = 0; c < 4; c++)
                acc[c] += w * v[c];
            }
        store (job->inter, x, j, acc);
      }
}

static void
cpu_filter_v_rows (void *data, int y0, int y1)
{
  const Job      *job = data;
  const Plan     *pl = job->pl;
  const Axis     *ay = &pl->y;
  ClfxSamplerDesc s = tap_sampler (pl);
  float           inv_w = (float) (1.0 / (double) job->inter->width);

  s.premultiply = false; /* the intermediate is premultiplied already */

  for (int y = y0; y < y1; y++)
    for (int x = 0; x < job->dst->width; x++)
      {
        float acc[4] = { 0, 0, 0, 0 };
        if (ay->start[y] != INT_MIN)
          for (int k = 0; k < ay->ntaps; k++)
            {
              float w = ay->weights[(size_t) y * (size_t) ay->ntaps + k];
              int   j = ay->start[y] + k;
              float v[4];
              if (pl->guard)
                j = j < 0 ? 0 : j > job->inter->height - 1
                                  ? job->inter->height - 1 : j;
              texel_centre (job->inter, s, x, j, inv_w, ay->inv_size, v);
              for (int c = 0; c < 4; c++)
                acc[c] += w * v[c];
            }
        store_result (job->dst, pl, x, y, acc);
      }
}

static bool
resize_cpu (const ClfxImage *src, ClfxImage *dst, const ClfxParams *p,
            ClfxError *error)
{
  Plan      pl;
  ClfxImage inter = { 0 };
  Job       job = { src, dst, &inter, &pl, 0.0f, 0.0f };
  bool      ok = false;

  if (! plan_make (&pl, src, dst, p, error))
    return false;
  if (pl.filter == CLFX_FILTER_NEAREST || pl.filter == CLFX_FILTER_LINEAR)
    {
      clfx_parallel_rows (dst->height, cpu_sample_rows, &job);
      ok = true;
      goto out;
    }
  /* Same intermediate as the kernels: float RGBA, dst width x src height. */
  if (! clfx_host_image_alloc (&inter, dst->width, src->height, 4,
                               CLFX_DEPTH_FLOAT, error))
    goto out;
  clfx_parallel_rows (src->height, cpu_filter_h_rows, &job);
  clfx_parallel_rows (dst->height, cpu_filter_v_rows, &job);
  ok = true;
out:
  clfx_host_image_free (&inter);
  plan_free (&pl);
  return ok;
}

/* Where a nearest sample lies within 2^-8 texel of a texel boundary, the
 * device may pick either texel: GPU texture units resolve the coordinate
 * in fixed point with 8 fractional bits (the H200 picks the neighbour on
 * 0.9% of the pixels of a 3000-texel-wide normalized lookup, always right
 * at a boundary).  The envelope is the min and max over the reference and
 * the four samples moved by +-2^-8 texel on each axis. */
static bool
resize_cpu_bounds (const ClfxImage *src, const ClfxImage *ref, ClfxImage *lo,
                   ClfxImage *hi, const ClfxParams *p, ClfxError *error)
{
  static const float jit[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 },
                                   { -1, -1 } };
  Plan      pl;
  ClfxImage tmp = { 0 };
  Job       job = { src, lo, NULL, &pl, 0.0f, 0.0f };
  bool      ok = false;

  if (! plan_make (&pl, src, lo, p, error))
    return false;
  /* Both bounds start at the reference: everywhere but near a texel
   * boundary of a sampler nearest lookup, only it is allowed. */
  memcpy (lo->data, ref->data, ref->stride * (size_t) ref->height);
  memcpy (hi->data, ref->data, ref->stride * (size_t) ref->height);
  if (pl.filter != CLFX_FILTER_NEAREST || pl.guard)
    {
      ok = true; /* exact: in-kernel filters read texel centres only */
      goto out;
    }
  if (! clfx_host_image_alloc (&tmp, lo->width, lo->height, lo->channels,
                               lo->depth, error))
    goto out;
  job.dst = &tmp;
  for (int k = 0; k < 4; k++)
    {
      float ux = 1.0f / 256.0f, uy = 1.0f / 256.0f;
      if (pl.normalized)
        {
          ux /= (float) src->width;
          uy /= (float) src->height;
        }
      job.jx = jit[k][0] * ux;
      job.jy = jit[k][1] * uy;
      clfx_parallel_rows (tmp.height, cpu_sample_rows, &job);
      for (int y = 0; y < tmp.height; y++)
        for (int x = 0; x < tmp.width; x++)
          for (int c = 0; c < tmp.channels; c++)
            {
              float v = clfx_image_get (&tmp, x, y, c);
              if (v < clfx_image_get (lo, x, y, c))
                clfx_image_set (lo, x, y, c, v);
              if (v > clfx_image_get (hi, x, y, c))
                clfx_image_set (hi, x, y, c, v);
            }
    }
  ok = true;
out:
  clfx_host_image_free (&tmp);
  plan_free (&pl);
  return ok;
}

/* ---- OpenCL -------------------------------------------------------------- */

#define ARG(k, i, v)                                                          \
  CLFX_CHECK (error, out, name, clSetKernelArg, k, i, sizeof (v), &(v))

static bool
launch_sample (ClfxContext *ctx, const Plan *pl, const ClfxImage *src,
               const ClfxImage *dst, cl_mem img, cl_sampler smp, cl_mem out_buf,
               cl_long offset, cl_long pitch, const char *options,
               ClfxError *error)
{
  const char *name = "resize_sample";
  cl_kernel   k = clfx_context_kernel (ctx, "resize", options, name, error);
  cl_float4   axis = { { pl->x.scale, pl->x.offset, pl->y.scale,
                         pl->y.offset } };
  cl_int2     size = { { src->width, src->height } };
  cl_float2   inv = { { pl->x.inv_size, pl->y.inv_size } };
  cl_int      normalized = pl->normalized, guard = pl->guard;
  cl_int      linear = pl->filter == CLFX_FILTER_LINEAR;
  cl_int2     nsub = { { pl->x.nsub, pl->y.nsub } };
  cl_float4   sub = { { pl->x.first, pl->x.step, pl->y.first, pl->y.step } };
  cl_float    inv_count = (float) (1.0 / (double) (pl->x.nsub * pl->y.nsub));
  cl_int      dw = dst->width, dh = dst->height;
  int         rows = clfx_context_rows_per_item (ctx, dst);
  bool        ok = false;

  if (! k)
    return false;
  ARG (k, 0, img);
  ARG (k, 1, smp);
  ARG (k, 2, out_buf);
  ARG (k, 3, offset);
  ARG (k, 4, pitch);
  ARG (k, 5, dw);
  ARG (k, 6, dh);
  ARG (k, 7, axis);
  ARG (k, 8, size);
  ARG (k, 9, inv);
  ARG (k, 10, normalized);
  ARG (k, 11, guard);
  ARG (k, 12, linear);
  ARG (k, 13, nsub);
  ARG (k, 14, sub);
  ARG (k, 15, inv_count);
  ok = clfx_context_launch (ctx, k, name, (size_t) dw,
                            (size_t) (dh + rows - 1) / (size_t) rows, error);
out:
  clReleaseKernel (k);
  return ok;
}

static cl_mem
table_buffer (ClfxContext *ctx, const void *data, size_t bytes,
              ClfxError *error)
{
  cl_mem buf = NULL;

  CLFX_CREATE (buf, error, out, "filter table", clCreateBuffer, ctx->context,
               CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (void *) data);
out:
  return buf;
}

/* The weights of an axis in the kernels' tap-major order (k * n + d). */
static cl_mem
weights_buffer (ClfxContext *ctx, const Axis *a, int n, ClfxError *error)
{
  size_t count = (size_t) n * (size_t) a->ntaps;
  float *t = malloc (count * sizeof *t);
  cl_mem buf;

  if (! t)
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory for filter tables");
      return NULL;
    }
  for (int d = 0; d < n; d++)
    for (int k = 0; k < a->ntaps; k++)
      t[(size_t) k * (size_t) n + (size_t) d]
        = a->weights[(size_t) d * (size_t) a->ntaps + (size_t) k];
  buf = table_buffer (ctx, t, count * sizeof *t, error);
  free (t);
  return buf;
}

/* The tap tables on the device: first taps and weights of both axes. */
typedef struct
{
  cl_mem sx, wx, sy, wy;
} Tables;

static void
release_mems (cl_mem *mems, int n)
{
  for (int i = 0; i < n; i++)
    if (mems[i])
      clReleaseMemObject (mems[i]);
}

static bool
tables_upload (ClfxContext *ctx, const Plan *pl, int dw, int dh, Tables *t,
               ClfxError *error)
{
  memset (t, 0, sizeof *t);
  return (t->sx = table_buffer (ctx, pl->x.start, sizeof (int) * (size_t) dw,
                                error))
         && (t->wx = weights_buffer (ctx, &pl->x, dw, error))
         && (t->sy = table_buffer (ctx, pl->y.start,
                                   sizeof (int) * (size_t) dh, error))
         && (t->wy = weights_buffer (ctx, &pl->y, dh, error));
}

static bool
launch_filter (ClfxContext *ctx, const Plan *pl, const ClfxImage *src,
               const ClfxImage *dst, cl_mem img, cl_sampler smp,
               cl_mem out_buf, cl_long offset, cl_long pitch,
               const char *options, ClfxError *error)
{
  const char     *name = "resize_filter_h";
  cl_kernel       kh = NULL, kv = NULL;
  cl_mem          inter = NULL;
  Tables          t = { 0 };
  cl_image_format fmt;
  cl_image_desc   desc = { .image_type = CL_MEM_OBJECT_IMAGE2D,
                           .image_width = (size_t) dst->width,
                           .image_height = (size_t) src->height };
  cl_int          normalized = pl->normalized, guard = pl->guard;
  cl_int          dw = dst->width, dh = dst->height;
  cl_int          ntx = pl->x.ntaps, nty = pl->y.ntaps;
  cl_int2         size_src = { { src->width, src->height } };
  cl_int2         size_inter = { { dst->width, src->height } };
  cl_float2       inv_src = { { pl->x.inv_size, pl->y.inv_size } };
  cl_float2       inv_inter = { { (float) (1.0 / (double) dst->width),
                                  pl->y.inv_size } };
  bool            ok = false;

  if (! clfx_context_image_format (ctx, dst->width, src->height, 4,
                                   CLFX_DEPTH_FLOAT, &fmt, error))
    return false;
  CLFX_CREATE (inter, error, out, "intermediate image", clCreateImage,
               ctx->context, CL_MEM_READ_WRITE, &fmt, &desc, NULL);
  if (! tables_upload (ctx, pl, dw, dh, &t, error))
    goto out;

  if (! (kh = clfx_context_kernel (ctx, "resize", options, name, error)))
    goto out;
  ARG (kh, 0, img);
  ARG (kh, 1, smp);
  ARG (kh, 2, inter);
  ARG (kh, 3, t.sx);
  ARG (kh, 4, t.wx);
  ARG (kh, 5, ntx);
  ARG (kh, 6, dw);
  ARG (kh, 7, size_src);
  ARG (kh, 8, inv_src);
  ARG (kh, 9, normalized);
  ARG (kh, 10, guard);
  if (! clfx_context_launch (ctx, kh, name, (size_t) dw,
                             (size_t) src->height, error))
    goto out;

  name = "resize_filter_v";
  if (! (kv = clfx_context_kernel (ctx, "resize", options, name, error)))
    goto out;
  ARG (kv, 0, inter);
  ARG (kv, 1, smp);
  ARG (kv, 2, out_buf);
  ARG (kv, 3, offset);
  ARG (kv, 4, pitch);
  ARG (kv, 5, t.sy);
  ARG (kv, 6, t.wy);
  ARG (kv, 7, nty);
  ARG (kv, 8, dw);
  ARG (kv, 9, dh);
  ARG (kv, 10, size_inter);
  ARG (kv, 11, inv_inter);
  ARG (kv, 12, normalized);
  ARG (kv, 13, guard);
  ok = clfx_context_launch (ctx, kv, name, (size_t) dw, (size_t) dh, error);
out:
  /* Releasing is safe while commands are queued: OpenCL keeps the objects
   * alive until the commands that use them complete. */
  if (kh)
    clReleaseKernel (kh);
  if (kv)
    clReleaseKernel (kv);
  release_mems ((cl_mem[]) { inter, t.sx, t.wx, t.sy, t.wy }, 5);
  return ok;
}

/* The source footprint of runs of `run` outputs along an axis: the
 * largest one (returned, in texels) and, when `origins` is given, where
 * each run's starts (its smallest first tap; 0 for runs wholly outside). */
static int
axis_tiles (const Axis *a, int n, int run, int *origins)
{
  int span = a->ntaps;

  for (int d0 = 0; d0 < n; d0 += run)
    {
      int lo = INT_MAX, hi = INT_MIN;
      for (int d = d0; d < d0 + run && d < n; d++)
        if (a->start[d] != INT_MIN)
          {
            lo = a->start[d] < lo ? a->start[d] : lo;
            hi = a->start[d] > hi ? a->start[d] : hi;
          }
      if (lo != INT_MAX && hi - lo + a->ntaps > span)
        span = hi - lo + a->ntaps;
      if (origins)
        origins[d0 / run] = lo != INT_MAX ? lo : 0;
    }
  return span;
}

/* How many 16-row bands a tile of the tiled kernel covers (each work-item
 * then makes that many outputs, which amortizes the tile's load and
 * barriers), 0 when even one band does not fit in local memory. */
static int
tile_bands (const ClfxContext *ctx, const Plan *pl, int dw, int dh,
            size_t *local_bytes)
{
  const char *env = getenv ("CLFX_RESIZE_TWO_PASS");
  int         span_w = axis_tiles (&pl->x, dw, 16, NULL);

  /* CLFX_RESIZE_TWO_PASS=1 forces the two-pass kernels (tests cover both
   * paths on devices with lots of local memory). */
  if ((env && *env == '1') || ctx->device.max_work_group < 256)
    return 0;
  for (int bands = 4; bands >= 1; bands /= 2)
    {
      size_t span_h = (size_t) axis_tiles (&pl->y, dh, 16 * bands, NULL);
      size_t bytes = ((size_t) span_w * span_h + 16 * span_h) * 16;
      /* More bands than the output has rows only wastes work-items. */
      if (bands > 1 && 16 * bands > dh)
        continue;
      if (bytes + 1024 <= ctx->device.local_mem)
        {
          *local_bytes = bytes;
          return bands;
        }
    }
  return 0;
}

static bool
launch_tile (ClfxContext *ctx, const Plan *pl, const ClfxImage *src,
             const ClfxImage *dst, cl_mem img, cl_sampler smp, cl_mem out_buf,
             cl_long offset, cl_long pitch, const char *options, int bands,
             size_t local_bytes, ClfxError *error)
{
  const char *name = "resize_filter_tile";
  cl_kernel   k = NULL;
  cl_mem      ox = NULL, oy = NULL;
  Tables      t = { 0 };
  cl_int      normalized = pl->normalized, guard = pl->guard;
  cl_int      dw = dst->width, dh = dst->height;
  cl_int      ntx = pl->x.ntaps, nty = pl->y.ntaps;
  cl_int      nb = bands;
  int         n_ox = (dst->width + 15) / 16;
  int         n_oy = (dst->height + 16 * bands - 1) / (16 * bands);
  int        *org_x = malloc ((size_t) n_ox * sizeof (int));
  int        *org_y = malloc ((size_t) n_oy * sizeof (int));
  cl_int      span_w = org_x ? axis_tiles (&pl->x, dst->width, 16, org_x) : 0;
  cl_int      span_h = org_y ? axis_tiles (&pl->y, dst->height, 16 * bands,
                                           org_y) : 0;
  cl_int2     size = { { src->width, src->height } };
  cl_float2   inv = { { pl->x.inv_size, pl->y.inv_size } };
  size_t      tile_bytes = (size_t) span_w * (size_t) span_h * 16;
  bool        ok = false;

  if (! org_x || ! org_y)
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory for tile tables");
      goto out;
    }
  if (! tables_upload (ctx, pl, dw, dh, &t, error)
      || ! (ox = table_buffer (ctx, org_x, sizeof (int) * (size_t) n_ox,
                               error))
      || ! (oy = table_buffer (ctx, org_y, sizeof (int) * (size_t) n_oy,
                               error))
      || ! (k = clfx_context_kernel (ctx, "resize", options, name, error)))
    goto out;
  ARG (k, 0, img);
  ARG (k, 1, smp);
  ARG (k, 2, out_buf);
  ARG (k, 3, offset);
  ARG (k, 4, pitch);
  ARG (k, 5, t.sx);
  ARG (k, 6, t.wx);
  ARG (k, 7, ntx);
  ARG (k, 8, t.sy);
  ARG (k, 9, t.wy);
  ARG (k, 10, nty);
  ARG (k, 11, dw);
  ARG (k, 12, dh);
  ARG (k, 13, size);
  ARG (k, 14, inv);
  ARG (k, 15, normalized);
  ARG (k, 16, guard);
  ARG (k, 17, span_w);
  ARG (k, 18, span_h);
  ARG (k, 19, ox);
  ARG (k, 20, oy);
  ARG (k, 21, nb);
  CLFX_CHECK (error, out, name, clSetKernelArg, k, 22, tile_bytes, NULL);
  CLFX_CHECK (error, out, name, clSetKernelArg, k, 23,
              local_bytes - tile_bytes, NULL);
  ok = clfx_context_launch (ctx, k, name, (size_t) dw,
                            (size_t) n_oy * 16, error);
out:
  if (k)
    clReleaseKernel (k);
  release_mems ((cl_mem[]) { t.sx, t.wx, t.sy, t.wy, ox, oy }, 6);
  free (org_x);
  free (org_y);
  return ok;
}

static bool
resize_cl (ClfxContext *ctx, const ClfxImage *src, ClfxImage *dst,
           const ClfxParams *p, ClfxError *error)
{
  Plan       pl;
  cl_mem     img = NULL, out_buf = NULL;
  cl_sampler smp = NULL;
  cl_long    offset, pitch;
  char       options[128];
  size_t     local_bytes = 0;
  int        bands;
  bool       ok = false;

  if (! plan_make (&pl, src, dst, p, error))
    return false;
  /* Under addressing none the kernel filters from guarded nearest reads,
   * so the sampler itself never interpolates across the edge; for a
   * straight-alpha source it filters premultiplied nearest reads, since
   * the sampler would blend straight colour (resize.cl). */
  smp = clfx_context_sampler (ctx, pl.normalized, pl.addressing,
                              pl.filter == CLFX_FILTER_LINEAR && ! pl.guard
                                && ! pl.premul,
                              error);
  if (! smp || ! (img = clfx_context_upload (ctx, src, error))
      || ! (out_buf = clfx_context_output (ctx, dst, &offset, &pitch, error)))
    goto out;
  clfx_context_store_options (ctx, dst, pl.premul, options, sizeof options);
  if (pl.filter == CLFX_FILTER_NEAREST || pl.filter == CLFX_FILTER_LINEAR)
    ok = launch_sample (ctx, &pl, src, dst, img, smp, out_buf, offset, pitch,
                        options, error);
  else if ((bands = tile_bands (ctx, &pl, dst->width, dst->height,
                                 &local_bytes)))
    ok = launch_tile (ctx, &pl, src, dst, img, smp, out_buf, offset, pitch,
                      options, bands, local_bytes, error);
  else
    ok = launch_filter (ctx, &pl, src, dst, img, smp, out_buf, offset, pitch,
                        options, error);
  ok = ok && clfx_context_download (ctx, out_buf, dst, error);
out:
  if (smp)
    clReleaseSampler (smp);
  if (img)
    clReleaseMemObject (img);
  if (out_buf)
    clReleaseMemObject (out_buf);
  plan_free (&pl);
  return ok;
}

/* ---- tolerance ----------------------------------------------------------- */

/* Largest |value| and the value range of the source, over its channels. */
static void
value_range (const ClfxImage *img, double *max_abs, double *range)
{
  double lo = INFINITY, hi = -INFINITY, m = 0.0;

  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      for (int c = 0; c < img->channels; c++)
        {
          double v = clfx_image_get (img, x, y, c);
          if (! isfinite (v))
            continue;
          lo = v < lo ? v : lo;
          hi = v > hi ? v : hi;
          m = fabs (v) > m ? fabs (v) : m;
        }
  /* The CLAMP border (0) is a texel value too. */
  lo = lo < 0.0 ? lo : 0.0;
  hi = hi > 0.0 ? hi : 0.0;
  *max_abs = m;
  *range = hi - lo;
}

static void
resize_tolerance (const ClfxDeviceInfo *dev, const ClfxImage *src,
                  const ClfxImage *dst, const ClfxParams *p,
                  ClfxTolerance *tol)
{
  static const double quantum[CLFX_N_DEPTHS] = { 1.0 / 255.0, 1.0 / 65535.0,
                                                 0.0, 0.0 };
  const double eps = 1.0 / 16777216.0; /* 2^-24: float rounding */
  int          filter = p->v[P_FILTER].i;
  bool         guard = p->v[P_ADDRESSING].i == CLFX_ADDR_NONE;
  double       max_abs, range, path;
  const char  *why;
  Plan         pl;

  (void) dev;
  value_range (src, &max_abs, &range);
  memset (tol, 0, sizeof *tol);
  if (filter == CLFX_FILTER_NEAREST)
    {
      /* Nearest picks a texel; only the read conversion differs (unorm to
       * float within 1.5 ulp, OpenCL C spec 8.3.1.1), plus averaging. */
      path = 4.0 * eps * max_abs;
      why = "nearest: texel read conversion (1.5 ulp); either texel within "
            "2^-8 texel of a boundary (sampler coordinate precision)";
    }
  else if (filter == CLFX_FILTER_LINEAR && ! guard)
    {
      /* The spec leaves the sampler's filtering precision open; GPU
       * texture units blend with 8-bit fractional weights (CUDA C
       * Programming Guide, "Linear Filtering": 9-bit fixed point, 8
       * fractional bits), an error of up to 2^-8 of the texel difference
       * per axis, 2 axes.  Straight alpha is filtered in the kernel, from
       * weights computed in float from an unwrapped coordinate where the
       * spec wraps it first (repeat, mirrored-repeat): held to the same
       * bound, which covers that too. */
      path = 2.0 * range / 256.0 + 4.0 * eps * max_abs;
      why = src->straight_alpha && src->channels > 1
              ? "linear (in kernel on premultiplied texels): 2 x 2^-8 x "
                "texel range, as the sampler"
              : "linear (sampler): 2 x 2^-8 x texel range, hardware weight "
                "precision";
    }
  else if (filter == CLFX_FILTER_LINEAR)
    {
      path = 8.0 * eps * max_abs;
      why = "linear (in kernel, addressing none): float rounding of 4 taps";
    }
  else
    {
      /* n-term float sums (Higham: n * 2^-24 * sum |w v|) in two passes,
       * plus the read conversion. */
      ClfxImage shape = *dst;
      ClfxError ignore = { 0 };
      double    nx = 1, ny = 1, wx = 1.3, wy = 1.3;
      if (plan_make (&pl, src, &shape, p, &ignore))
        {
          nx = pl.x.ntaps;
          ny = pl.y.ntaps;
          wx = pl.x.weight_abs_sum;
          wy = pl.y.weight_abs_sum;
          plan_free (&pl);
        }
      path = 2.0 * (nx + ny + 3.0) * eps * wx * wy * max_abs;
      why = "cubic/lanczos3: float summation bound over both passes";
    }
  tol->abs_tol = path;
  /* Integer outputs: two float results a hair apart can round to
   * neighbouring codes, unless the path is exact. */
  if (filter != CLFX_FILTER_NEAREST)
    tol->abs_tol += quantum[dst->depth];
  if (dst->depth == CLFX_DEPTH_HALF)
    {
      tol->rel_tol = 1.0 / 1024.0; /* one binary16 ulp */
      tol->abs_tol += 1.0 / 16777216.0;
    }
  snprintf (tol->basis, sizeof tol->basis, "%s%s", why,
            dst->depth == CLFX_DEPTH_FLOAT ? ""
            : dst->depth == CLFX_DEPTH_HALF ? "; + 1 half ulp (rounding)"
            : filter == CLFX_FILTER_NEAREST ? ""
                                            : "; + 1 output code (rounding)");
}

static const char *
resize_variant (const ClfxParams *p)
{
  return filters[p->v[P_FILTER].i].nick;
}

const ClfxOpInfo clfx_op_resize = {
  "resize",
  "Resize through the OpenCL sampler: nearest, linear, cubic, lanczos3",
  params,
  N_PARAMS,
  resize_prepare,
  resize_cl,
  resize_cpu,
  resize_tolerance,
  resize_cpu_bounds,
  resize_variant,
};
