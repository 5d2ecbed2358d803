/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-graph.c: what a variant's OpenCL path calls: checked launches of
 * named kernels, intermediates, tables and probes. */
#include "clfx-graph-private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clfx-array.h"

/* ---- plans ------------------------------------------------------------- */

bool
clfx_plan_premultiplies (bool mixes, const ClfxImage *src)
{
  /* Straight alpha is weighed in only where pixels mix; a variant that
   * copies texels passes them bit for bit. */
  return mixes && src->straight_alpha
         && (src->channels == 2 || src->channels == 4);
}

bool
clfx_plan_decodes (bool mixes, const ClfxImage *src)
{
  return mixes && src->transfer == CLFX_TRC_SRGB;
}

bool
clfx_plan_make (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
                ClfxError *error)
{
  const ClfxVariant *v = clfx_params_variant (p);

  memset (plan, 0, sizeof *plan);
  if (! v)
    return clfx_error_set (error, CLFX_ERR_INVALID, "no variant selected");
  if (! clfx_params_check (p, error) || ! v->plan (p, src, plan, error))
    {
      clfx_plan_clear (plan);
      return false;
    }
  if (plan->width < 1 || plan->height < 1)
    {
      clfx_plan_clear (plan);
      return clfx_error_set (error, CLFX_ERR_INVALID,
                             "the result would be %dx%d", plan->width,
                             plan->height);
    }
  plan->premultiply = ! plan->straight
                      && clfx_plan_premultiplies (plan->mixes, src);
  plan->decode = clfx_plan_decodes (plan->mixes, src);
  return true;
}

void
clfx_plan_clear (ClfxPlan *plan)
{
  if (plan->free_state && plan->state)
    plan->free_state (plan->state);
  memset (plan, 0, sizeof *plan);
}

bool
clfx_plan_give_stats (ClfxPlan *plan, const ClfxVariant *v,
                      const ClfxStats *stats, ClfxError *error)
{
  if (! v->take_stats)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "%s has no whole-image statistics to take",
                           v->name);
  return v->take_stats (plan, stats, error);
}

void
clfx_plan_source_rect (const ClfxVariant *v, const ClfxPlan *plan,
                       const ClfxImage *src, const ClfxRect *out,
                       ClfxRect *in)
{
  if (v->source_rect)
    {
      v->source_rect (plan, src, out, in);
      return;
    }
  in->x = out->x - plan->halo[0];
  in->y = out->y - plan->halo[1];
  in->width = out->width + plan->halo[0] + plan->halo[2];
  in->height = out->height + plan->halo[1] + plan->halo[3];
}

bool
clfx_plan_read_rect (const ClfxParams *p, const ClfxImage *header,
                     const ClfxRect *out, ClfxRect *read, ClfxError *error)
{
  ClfxPlan plan;
  int      x0, y0, x1, y1;

  if (! clfx_plan_make (p, header, &plan, error))
    return false;
  x0 = out->x - (plan.halo[0] > 0 ? plan.halo[0] : 0);
  y0 = out->y - (plan.halo[1] > 0 ? plan.halo[1] : 0);
  x1 = out->x + out->width + (plan.halo[2] > 0 ? plan.halo[2] : 0);
  y1 = out->y + out->height + (plan.halo[3] > 0 ? plan.halo[3] : 0);
  x0 = x0 < 0 ? 0 : x0;
  y0 = y0 < 0 ? 0 : y0;
  x1 = x1 > header->width ? header->width : x1;
  y1 = y1 > header->height ? header->height : y1;
  if (plan.whole_image_stats)
    {
      x0 = y0 = 0;
      x1 = header->width;
      y1 = header->height;
    }
  clfx_plan_clear (&plan);
  *read = (ClfxRect) { x0, y0, x1 - x0, y1 - y0 };
  return true;
}

/* ---- the graph ------------------------------------------------------------ */

size_t
clfx_context_budget (const ClfxContext *ctx)
{
  if (ctx->tuning.budget)
    return ctx->tuning.budget;
  return (size_t) (ctx->device.global_mem / 2);
}

bool
clfx_context_source_buffer (const ClfxContext *ctx)
{
  if (ctx->tuning.source != CLFX_SOURCE_AUTO)
    return ctx->tuning.source == CLFX_SOURCE_BUFFER;
  /* On PoCL an image read is a call through a format switch, a buffer
   * load vectorizes (docs/notebook/performance-2026.md, "PoCL on the
   * development machine: clfx against OpenCV's cv2.resize"). */
  return strcmp (ctx->device.type, "cpu") == 0;
}

void
clfx_graph_init (ClfxGraph *g, ClfxContext *ctx, const ClfxParams *p,
                 const ClfxPlan *plan, const ClfxImage *src,
                 const ClfxImage *dst, bool gray_in_rgba, bool src_buffer,
                 ClfxProbes *probes)
{
  int rows = ctx->tuning.rows_per_item;

  memset (g, 0, sizeof *g);
  g->ctx = ctx;
  g->variant = clfx_params_variant (p);
  g->params = p;
  g->plan = plan;
  g->src = src;
  g->dst = dst;
  g->probes = probes;
  g->pass = -1;
  g->src_buffer = src_buffer;
  g->src_lut = src_buffer && plan->decode && plan->srgb_tables
               && dst->depth == CLFX_DEPTH_U16;
  /* On a GPU, 4 rows a work-item lift the 8-bit copy, which one row
   * leaves bound by the scheduling of work-groups, but slow the float
   * copy, whose 16-byte pixels already keep the memory system busy
   * (docs/notebook/performance-2026.md, "What limits each number"). */
  if (! rows)
    rows = clfx_image_pixel_size (dst) >= 16 ? 1 : 4;
  g->rows_per_item = rows;
  /* 8-bit sRGB results without the tables: through the hardware's ex2
   * and lg2 where clfx_device_native_encode says so, else the
   * full-precision pair. */
  bool native_encode = plan->decode && ! plan->srgb_tables
                       && dst->depth == CLFX_DEPTH_U8
                       && clfx_device_native_encode (&ctx->device);
  snprintf (g->options, sizeof g->options,
            "-DCLFX_DEPTH=%d -DCLFX_CHANNELS=%d -DCLFX_GA_IN_RGBA=%d "
            "-DCLFX_ROWS_PER_ITEM=%d -DCLFX_SRGB=%d -DCLFX_PREMUL=%d "
            "-DCLFX_SRC_BUFFER=%d -DCLFX_SRGB_TABLES=%d "
            "-DCLFX_NATIVE_ENCODE=%d",
            (int) dst->depth, dst->channels,
            gray_in_rgba && dst->channels == 2 ? 1 : 0, rows,
            plan->decode ? 1 : 0,
            plan->premultiply ? 1 : 0, src_buffer ? 1 : 0,
            plan->srgb_tables ? 1 : 0, native_encode ? 1 : 0);
}

void
clfx_graph_release (ClfxGraph *g)
{
  /* Host blocks go back to the context only once no queued command can
   * touch them: a run that failed may have left commands behind.  Plain
   * calls, as at every teardown (nobody to tell; an injected fault counts
   * the calls of runs).  Should a queue not finish, the blocks stay
   * taken: a later run must not get memory a lost command may write. */
  bool idle = g->n_scratch == 0
              || (clFinish (g->ctx->queue) == CL_SUCCESS
                  && clFinish (g->ctx->upload_queue) == CL_SUCCESS
                  && clFinish (g->ctx->download_queue) == CL_SUCCESS);

  for (int i = 0; i < g->n_mems; i++)
    if (g->mems[i].mem)
      clReleaseMemObject (g->mems[i].mem);
  for (int i = 0; i < g->n_retired; i++)
    clReleaseMemObject (g->retired[i]);
  for (int i = 0; idle && i < g->n_scratch; i++)
    clfx_scratch_give (g->ctx, g->scratch[i]);
  free (g->mems);
  free (g->retired);
  free (g->scratch);
  g->mems = NULL;
  g->retired = NULL;
  g->scratch = NULL;
  g->n_mems = g->cap_mems = g->n_retired = g->cap_retired = 0;
  g->n_scratch = g->cap_scratch = 0;
}

/* Intermediates of a CPU device from 1 MiB up come from the context's
 * host blocks (clfx-scratch.c says why); smaller ones, other devices and
 * a pool that is off or out of memory leave the allocation to the
 * driver (NULL). */
static void *
host_block (ClfxGraph *g, size_t bytes)
{
  void *ptr;

  if (! g->ctx->device.host_unified || bytes < ((size_t) 1 << 20)
      || ! clfx_array_reserve (&g->scratch, &g->cap_scratch,
                               g->n_scratch + 1, sizeof *g->scratch)
      || ! (ptr = clfx_scratch_take (g->ctx, bytes)))
    return NULL;
  g->scratch[g->n_scratch++] = ptr;
  return ptr;
}

const ClfxDeviceInfo *
clfx_graph_device (const ClfxGraph *g)
{
  return &g->ctx->device;
}

const ClfxPlan *
clfx_graph_plan (const ClfxGraph *g)
{
  return g->plan;
}

const ClfxTile *
clfx_graph_tile (const ClfxGraph *g)
{
  return &g->tile;
}

int
clfx_graph_pass (const ClfxGraph *g)
{
  return g->pass;
}

int
clfx_graph_tile_index (const ClfxGraph *g)
{
  return g->tile_index;
}

int
clfx_graph_rows_per_item (const ClfxGraph *g)
{
  return g->rows_per_item;
}

bool
clfx_graph_source_is_buffer (const ClfxGraph *g)
{
  return g->src_buffer;
}

bool
clfx_graph_force_two_pass (const ClfxGraph *g)
{
  return g->ctx->tuning.two_pass;
}

size_t
clfx_graph_budget (const ClfxGraph *g)
{
  return clfx_context_budget (g->ctx);
}

bool
clfx_graph_force_fixed_taps (const ClfxGraph *g)
{
  return g->ctx->tuning.fixed_taps;
}

ClfxStripPolicy
clfx_graph_strip_policy (const ClfxGraph *g)
{
  return g->ctx->tuning.strip;
}

int
clfx_graph_strip_rows (const ClfxGraph *g)
{
  return g->ctx->tuning.strip_rows;
}

size_t
clfx_graph_band_bytes (const ClfxGraph *g)
{
  return g->ctx->tuning.band_bytes;
}

cl_sampler
clfx_graph_sampler (ClfxGraph *g, bool normalized, bool linear,
                    ClfxError *error)
{
  return clfx_context_sampler (g->ctx, normalized, g->plan->addressing,
                               linear, error);
}

cl_sampler
clfx_graph_sampler_for (ClfxGraph *g, bool normalized, int addressing,
                        bool linear, ClfxError *error)
{
  return clfx_context_sampler (g->ctx, normalized, addressing, linear, error);
}

bool
clfx_graph_fill (ClfxGraph *g, cl_mem buf, const void *pattern,
                 size_t pattern_size, size_t bytes, ClfxError *error)
{
  CLFX_CHECK (error, fail, "fill", clEnqueueFillBuffer, g->ctx->queue, buf,
              pattern, pattern_size, 0, bytes, 0, NULL, NULL);
  return true;
fail:
  return false;
}

/* ---- launches ------------------------------------------------------------ */

/* Sets argument `index` after checking its size against the kernel's
 * declaration (where the driver reports it). */
static bool
set_arg (const ClfxKernelSlot *k, cl_uint index, size_t size,
         const void *value, ClfxError *error)
{
  if (index >= k->n_args)
    return true; /* counted and reported by the caller */
  if (k->arg_size[index] && value && size != k->arg_size[index])
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "kernel %s: argument %u is declared %s (%zu "
                           "bytes), the launch passes %zu bytes", k->name,
                           index, k->arg_type[index], k->arg_size[index],
                           size);
  CLFX_CHECK (error, fail, k->name, clSetKernelArg, k->kernel, index, size,
              value);
  return true;
fail:
  return false;
}

/* The context's 16-bit sRGB decode table: each code's value on the
 * curve, computed in double and rounded once to float (the CPU reference
 * decodes the same way), made on first use. */
static cl_mem
srgb_u16_lut (ClfxContext *ctx, ClfxError *error)
{
  float *values;
  cl_mem mem;

  if (ctx->srgb_u16_lut)
    return ctx->srgb_u16_lut;
  if (! (values = malloc (65536 * sizeof *values)))
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      return NULL;
    }
  for (int c = 0; c < 65536; c++)
    values[c] = (float) clfx_srgb_to_linear (c / 65535.0);
  CLFX_CREATE (mem, error, fail, "sRGB 16-bit decode table", clCreateBuffer,
               ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
               65536 * sizeof *values, values);
  free (values);
  return ctx->srgb_u16_lut = mem;
fail:
  free (values);
  return NULL;
}

static int
count_args (const ClfxArg *args, int n)
{
  int total = 0;

  for (int i = 0; i < n; i++)
    total += args[i].kind == CLFX_ARG_SRC   ? 5
             : args[i].kind == CLFX_ARG_DST ? 4
                                            : 1;
  return total;
}

static bool
set_args (ClfxGraph *g, const ClfxKernelSlot *k, const ClfxArg *args,
          int n_args, ClfxError *error)
{
  cl_int4 rect = { { g->tile.out.x, g->tile.out.y, g->tile.out.width,
                     g->tile.out.height } };
  cl_uint i = 0;
  int     given = count_args (args, n_args);
  bool    ok = true;

  if ((cl_uint) given != k->n_args)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "kernel %s takes %u arguments, the launch passes "
                           "%d", k->name, k->n_args, given);
  for (int a = 0; ok && a < n_args; a++)
    switch (args[a].kind)
      {
      case CLFX_ARG_VALUE:
        ok = set_arg (k, i++, args[a].size, args[a].value, error);
        break;
      case CLFX_ARG_LOCAL:
        if (k->arg_type[i][0] && strcmp (k->arg_type[i], "__local") != 0)
          return clfx_error_set (error, CLFX_ERR_INVALID,
                                 "kernel %s: argument %u is %s, the launch "
                                 "passes local memory", k->name, i,
                                 k->arg_type[i]);
        ok = set_arg (k, i++, args[a].size, NULL, error);
        break;
      case CLFX_ARG_SRC:
        {
          cl_mem lut = g->src_lut ? srgb_u16_lut (g->ctx, error) : NULL;
          ok = (lut || ! g->src_lut)
               && set_arg (k, i, sizeof g->src_mem, &g->src_mem, error)
               && set_arg (k, i + 1, sizeof g->src_view, &g->src_view,
                           error)
               && set_arg (k, i + 2, sizeof g->src_flags, &g->src_flags,
                           error)
               && set_arg (k, i + 3, sizeof g->src_pitch, &g->src_pitch,
                           error)
               && set_arg (k, i + 4, sizeof lut, lut ? &lut : NULL, error);
          i += 5;
        }
        break;
      case CLFX_ARG_DST:
        ok = set_arg (k, i, sizeof g->dst_mem, &g->dst_mem, error)
             && set_arg (k, i + 1, sizeof g->dst_offset, &g->dst_offset,
                         error)
             && set_arg (k, i + 2, sizeof g->dst_pitch, &g->dst_pitch, error)
             && set_arg (k, i + 3, sizeof rect, &rect, error);
        i += 4;
        break;
      }
  return ok;
}

bool
clfx_graph_launch (ClfxGraph *g, const ClfxLaunch *l, const ClfxArg *args,
                   int n_args, ClfxError *error)
{
  const ClfxKernelSlot *k;
  char                  options[512];
  size_t                local[2], global[2];
  cl_event              ev = NULL;
  int                   dims = l->dims == 1 ? 1 : 2;

  snprintf (options, sizeof options, "%s%s%s", g->options,
            l->options ? " " : "", l->options ? l->options : "");
  k = clfx_context_kernel (g->ctx, l->program ? l->program
                                              : g->variant->program,
                           options, l->kernel, error);
  if (! k || ! set_args (g, k, args, n_args, error))
    return false;
  if (k->reqd[0])
    {
      local[0] = k->reqd[0];
      local[1] = k->reqd[1];
    }
  else if (l->local[0])
    {
      local[0] = l->local[0];
      local[1] = dims == 2 ? l->local[1] : 1;
    }
  else if (dims == 1)
    {
      local[0] = k->work_group_max >= 256 ? 256 : k->work_group_max;
      local[1] = 1;
    }
  else
    {
      /* 16 x 16 where the kernel allows it, else the largest square. */
      size_t side = 16;
      while (side > 1 && side * side > k->work_group_max)
        side /= 2;
      local[0] = local[1] = side;
    }
  for (int d = 0; d < dims; d++)
    {
      size_t n = l->global[d] ? l->global[d] : 1;
      global[d] = (n + local[d] - 1) / local[d] * local[d];
    }
  CLFX_CHECK (error, fail, l->kernel, clEnqueueNDRangeKernel, g->ctx->queue,
              k->kernel, (cl_uint) dims, NULL, global, local, 0, NULL, &ev);
  return clfx_context_track (g->ctx, ev, CLFX_EV_KERNEL, l->kernel, error);
fail:
  return false;
}

/* ---- intermediates ------------------------------------------------------- */

static ClfxGraphMem *
find_mem (ClfxGraph *g, const char *name)
{
  for (int i = 0; i < g->n_mems; i++)
    if (strcmp (g->mems[i].name, name) == 0)
      return &g->mems[i];
  return NULL;
}

static ClfxGraphMem *
new_mem (ClfxGraph *g, const char *name, ClfxError *error)
{
  ClfxGraphMem *m = find_mem (g, name);

  if (m)
    {
      if (m->mem)
        {
          if (! clfx_array_reserve (&g->retired, &g->cap_retired,
                                    g->n_retired + 1, sizeof *g->retired))
            {
              clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
              return NULL;
            }
          g->retired[g->n_retired++] = m->mem;
        }
      m->mem = NULL;
      return m;
    }
  if (! clfx_array_reserve (&g->mems, &g->cap_mems, g->n_mems + 1,
                            sizeof *g->mems))
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      return NULL;
    }
  m = &g->mems[g->n_mems++];
  snprintf (m->name, sizeof m->name, "%s", name);
  return m;
}

cl_mem
clfx_graph_image (ClfxGraph *g, const char *name, int width, int height,
                  ClfxError *error)
{
  ClfxGraphMem   *m = find_mem (g, name);
  cl_image_format fmt = { CL_RGBA, CL_FLOAT };
  cl_image_desc   desc = { .image_type = CL_MEM_OBJECT_IMAGE2D };
  cl_mem          mem;
  void           *host;

  width = width > 0 ? width : 1;
  height = height > 0 ? height : 1;
  if (m && m->mem && m->width >= width && m->height >= height)
    return m->mem;
  if (! clfx_context_fits_image (g->ctx, width, height,
                                 (size_t) width * (size_t) height * 16))
    {
      clfx_error_set (error, CLFX_ERR_UNSUPPORTED,
                      "the %dx%d intermediate image '%s' exceeds the "
                      "device's limits", width, height, name);
      return NULL;
    }
  if (! (m = new_mem (g, name, error)))
    return NULL;
  desc.image_width = (size_t) width;
  desc.image_height = (size_t) height;
  host = host_block (g, (size_t) width * (size_t) height * 16);
  CLFX_CREATE (mem, error, fail, name, clCreateImage, g->ctx->context,
               CL_MEM_READ_WRITE | (host ? CL_MEM_USE_HOST_PTR : 0), &fmt,
               &desc, host);
  m->mem = mem;
  m->width = width;
  m->height = height;
  return mem;
fail:
  return NULL;
}

cl_mem
clfx_graph_image3d (ClfxGraph *g, const char *name, cl_mem buf, int width,
                    int height, int depth, ClfxError *error)
{
  ClfxGraphMem   *m = find_mem (g, name);
  cl_image_format fmt = { CL_RGBA, CL_FLOAT };
  cl_image_desc   desc = { .image_type = CL_MEM_OBJECT_IMAGE3D };
  size_t          origin[3] = { 0, 0, 0 };
  size_t          region[3] = { (size_t) width, (size_t) height,
                                (size_t) depth };
  cl_mem          mem = NULL;

  if (width < 1 || height < 1 || depth < 1)
    {
      clfx_error_set (error, CLFX_ERR_INVALID,
                      "the 3D image '%s' is %dx%dx%d", name, width, height,
                      depth);
      return NULL;
    }
  /* Reused only at the same size: the copy fills it whole. */
  if (m && m->mem && m->width == width && m->height == height
      && m->bytes == (size_t) depth)
    mem = m->mem;
  else
    {
      if (! (m = new_mem (g, name, error)))
        return NULL;
      desc.image_width = (size_t) width;
      desc.image_height = (size_t) height;
      desc.image_depth = (size_t) depth;
      CLFX_CREATE (mem, error, fail, name, clCreateImage, g->ctx->context,
                   CL_MEM_READ_ONLY, &fmt, &desc, NULL);
      m->mem = mem;
      m->width = width;
      m->height = height;
      m->bytes = (size_t) depth;
    }
  CLFX_CHECK (error, fail, name, clEnqueueCopyBufferToImage, g->ctx->queue,
              buf, mem, 0, origin, region, 0, NULL, NULL);
  return mem;
fail:
  return NULL;
}

cl_mem
clfx_graph_buffer (ClfxGraph *g, const char *name, size_t bytes,
                   ClfxError *error)
{
  ClfxGraphMem *m = find_mem (g, name);
  cl_mem        mem;
  void         *host;

  if (m && m->mem && m->bytes >= bytes)
    return m->mem;
  if (! (m = new_mem (g, name, error)))
    return NULL;
  host = host_block (g, bytes);
  CLFX_CREATE (mem, error, fail, name, clCreateBuffer, g->ctx->context,
               CL_MEM_READ_WRITE | (host ? CL_MEM_USE_HOST_PTR : 0),
               bytes ? bytes : 1, host);
  m->mem = mem;
  m->bytes = bytes;
  return mem;
fail:
  return NULL;
}

bool
clfx_graph_result_is_float4 (const ClfxGraph *g)
{
  return g->dst && g->dst->depth == CLFX_DEPTH_FLOAT && g->dst->channels == 4;
}

cl_mem
clfx_graph_result_float4 (const ClfxGraph *g, int width, int height)
{
  const ClfxImage *d = g->dst;

  return g->dst_mem && clfx_graph_result_is_float4 (g)
             && d->width == width && d->height == height
             && g->tile.out.x == 0 && g->tile.out.y == 0
             && g->tile.out.width == width && g->tile.out.height == height
             && g->dst_offset == 0
             && g->dst_pitch == (cl_long) width * 16
           ? g->dst_mem
           : NULL;
}

/* A read-only buffer holding a copy of data, made under name. */
static cl_mem
copied_buffer (ClfxGraph *g, const char *name, const void *data,
               size_t bytes, bool table, ClfxError *error)
{
  ClfxGraphMem *m = new_mem (g, name, error);
  cl_mem        mem;

  if (! m)
    return NULL;
  CLFX_CREATE (mem, error, fail, name, clCreateBuffer, g->ctx->context,
               CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes ? bytes : 4,
               (void *) data);
  m->mem = mem;
  m->bytes = bytes;
  m->table = table;
  return mem;
fail:
  return NULL;
}

cl_mem
clfx_graph_table (ClfxGraph *g, const char *name, const void *data,
                  size_t bytes, ClfxError *error)
{
  ClfxGraphMem *m = find_mem (g, name);

  if (m && m->mem && m->table)
    return m->mem;
  return copied_buffer (g, name, data, bytes, true, error);
}

cl_mem
clfx_graph_upload (ClfxGraph *g, const char *name, const void *data,
                   size_t bytes, ClfxError *error)
{
  return copied_buffer (g, name, data, bytes, false, error);
}

/* ---- probes ---------------------------------------------------------------- */

static ClfxProbe *
probe_slot (ClfxProbes *probes, const char *name)
{
  ClfxProbe *grown;

  for (int i = 0; i < probes->n; i++)
    if (strcmp (probes->probes[i].name, name) == 0)
      return &probes->probes[i];
  grown = realloc (probes->probes, (size_t) (probes->n + 1) * sizeof *grown);
  if (! grown)
    return NULL;
  probes->probes = grown;
  memset (&grown[probes->n], 0, sizeof *grown);
  snprintf (grown[probes->n].name, sizeof grown[probes->n].name, "%s", name);
  return &grown[probes->n++];
}

static bool
probe_values (ClfxProbe *pr, const double *values, int n, bool reference)
{
  double **side = reference ? &pr->reference : &pr->device;
  double  *copy;

  if (n < 0 || n > CLFX_MAX_PROBE_VALUES
      || ! (copy = malloc ((size_t) (n ? n : 1) * sizeof *copy)))
    return false;
  memcpy (copy, values, (size_t) n * sizeof *copy);
  free (*side);
  *side = copy;
  *(reference ? &pr->n_reference : &pr->n_device) = n;
  return true;
}

bool
clfx_probes_add (ClfxProbes *probes, const char *name, const double *values,
                 int n, bool reference, double abs_tol, double rel_tol,
                 const char *basis)
{
  ClfxProbe *pr = probe_slot (probes, name);

  if (! pr || ! probe_values (pr, values, n, reference))
    return false;
  if (reference)
    {
      pr->abs_tol = abs_tol;
      pr->rel_tol = rel_tol;
      snprintf (pr->basis, sizeof pr->basis, "%s", basis ? basis : "");
    }
  return true;
}

static void
compare_probe (ClfxProbe *pr)
{
  pr->mismatches = 0;
  pr->max_abs = 0;
  pr->worst = 0;
  pr->passed = pr->device && pr->reference
               && pr->n_device == pr->n_reference;
  for (int i = 0; pr->passed && i < pr->n_device; i++)
    {
      double e = pr->reference[i], a = pr->device[i], d = fabs (a - e);
      bool   ok = (isnan (e) && isnan (a)) || (isinf (e) && a == e)
                  || d <= pr->abs_tol + pr->rel_tol * fabs (e);
      if (! (d <= pr->max_abs))
        {
          pr->max_abs = isnan (d) ? INFINITY : d;
          pr->worst = i;
        }
      if (! ok)
        pr->mismatches++;
    }
  if (pr->mismatches)
    pr->passed = false;
}

bool
clfx_probes_compare (ClfxProbes *probes)
{
  bool all = true;

  for (int i = 0; i < probes->n; i++)
    {
      compare_probe (&probes->probes[i]);
      all = all && probes->probes[i].passed;
    }
  return all;
}

void
clfx_probes_clear (ClfxProbes *probes)
{
  for (int i = 0; i < probes->n; i++)
    {
      free (probes->probes[i].device);
      free (probes->probes[i].reference);
    }
  free (probes->probes);
  probes->probes = NULL;
  probes->n = 0;
}

/* Reads n 4-byte values from buf (from value `offset` on), floats or
 * unsigned ints, and records them as the device's side of probe `name`. */
static bool
probe_read (ClfxGraph *g, const char *name, cl_mem buf, int offset, int n,
            bool counts, ClfxError *error)
{
  cl_float *f = NULL;
  double   *d = NULL;
  bool      ok = false;

  if (! g->probes)
    return true;
  if (n < 0 || n > CLFX_MAX_PROBE_VALUES || offset < 0)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "probe %s: %d values (at most %d)", name, n,
                           CLFX_MAX_PROBE_VALUES);
  f = malloc ((size_t) (n ? n : 1) * sizeof *f);
  d = malloc ((size_t) (n ? n : 1) * sizeof *d);
  if (! f || ! d)
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory for probe %s",
                      name);
      goto out;
    }
  CLFX_CHECK (error, out, name, clEnqueueReadBuffer, g->ctx->queue, buf,
              CL_TRUE, (size_t) offset * sizeof *f, (size_t) n * sizeof *f,
              f, 0, NULL, NULL);
  for (int i = 0; i < n; i++)
    {
      cl_uint u;
      memcpy (&u, &f[i], sizeof u);
      d[i] = counts ? (double) u : (double) f[i];
    }
  if (! clfx_probes_add (g->probes, name, d, n, false, 0, 0, NULL))
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "cannot record probe %s", name);
      goto out;
    }
  ok = true;
out:
  free (f);
  free (d);
  return ok;
}

bool
clfx_graph_read (ClfxGraph *g, const char *what, cl_mem buf, size_t offset,
                 size_t bytes, void *dest, ClfxError *error)
{
  bool ok = false;

  CLFX_CHECK (error, out, what, clEnqueueReadBuffer, g->ctx->queue, buf,
              CL_TRUE, offset, bytes, dest, 0, NULL, NULL);
  ok = true;
out:
  return ok;
}

bool
clfx_graph_probe (ClfxGraph *g, const char *name, cl_mem buf, int n,
                  ClfxError *error)
{
  return probe_read (g, name, buf, 0, n, false, error);
}

bool
clfx_graph_probe_at (ClfxGraph *g, const char *name, cl_mem buf, int offset,
                     int n, ClfxError *error)
{
  return probe_read (g, name, buf, offset, n, false, error);
}

bool
clfx_graph_probe_counts (ClfxGraph *g, const char *name, cl_mem buf, int n,
                         ClfxError *error)
{
  return probe_read (g, name, buf, 0, n, true, error);
}
