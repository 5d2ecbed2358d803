/* copy.c: the pass-through op.  Same upload, store and download path as
 * every other op, no arithmetic: its bytes per second are the roofline. */
#include <stdio.h>
#include <string.h>

#include "clfx-ops.h"

static bool
copy_prepare (const ClfxParams *p, const ClfxImage *src, int *dst_w,
              int *dst_h, ClfxError *error)
{
  (void) p;
  (void) error;
  *dst_w = src->width;
  *dst_h = src->height;
  return true;
}

static bool
copy_cl (ClfxContext *ctx, const ClfxImage *src, ClfxImage *dst,
         const ClfxParams *p, ClfxError *error)
{
  const char *name = "copy_image";
  cl_mem      img = NULL, out_buf = NULL;
  cl_kernel   k = NULL;
  cl_long     offset, pitch;
  cl_int      w = dst->width, h = dst->height;
  int         rows = clfx_context_rows_per_item (ctx, dst);
  char        options[128];
  bool        ok = false;

  (void) p;
  if (! (img = clfx_context_upload (ctx, src, error))
      || ! (out_buf = clfx_context_output (ctx, dst, &offset, &pitch, error)))
    goto out;
  clfx_context_store_options (ctx, dst, false, options, sizeof options);
  if (! (k = clfx_context_kernel (ctx, "copy", options, name, error)))
    goto out;
  CLFX_CHECK (error, out, name, clSetKernelArg, k, 0, sizeof img, &img);
  CLFX_CHECK (error, out, name, clSetKernelArg, k, 1, sizeof out_buf,
              &out_buf);
  CLFX_CHECK (error, out, name, clSetKernelArg, k, 2, sizeof offset, &offset);
  CLFX_CHECK (error, out, name, clSetKernelArg, k, 3, sizeof pitch, &pitch);
  CLFX_CHECK (error, out, name, clSetKernelArg, k, 4, sizeof w, &w);
  CLFX_CHECK (error, out, name, clSetKernelArg, k, 5, sizeof h, &h);
  ok = clfx_context_launch (ctx, k, name, (size_t) w,
                            (size_t) (h + rows - 1) / (size_t) rows, error)
       && clfx_context_download (ctx, out_buf, dst, error);
out:
  if (k)
    clReleaseKernel (k);
  if (img)
    clReleaseMemObject (img);
  if (out_buf)
    clReleaseMemObject (out_buf);
  return ok;
}

static bool
copy_cpu (const ClfxImage *src, ClfxImage *dst, const ClfxParams *p,
          ClfxError *error)
{
  (void) p;
  (void) error;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      for (int c = 0; c < src->channels; c++)
        clfx_image_set (dst, x, y, c, clfx_image_get (src, x, y, c));
  return true;
}

static void
copy_tolerance (const ClfxDeviceInfo *dev, const ClfxImage *src,
                const ClfxImage *dst, const ClfxParams *p, ClfxTolerance *tol)
{
  (void) dev;
  (void) src;
  (void) dst;
  (void) p;
  memset (tol, 0, sizeof *tol);
  snprintf (tol->basis, sizeof tol->basis,
            "copy: exact (a read and a store of the same precision)");
}

static const char *
copy_variant (const ClfxParams *p)
{
  (void) p;
  return "copy";
}

const ClfxOpInfo clfx_op_copy = {
  "copy",
  "Pass-through kernel over the image path (the roofline)",
  NULL,
  0,
  copy_prepare,
  copy_cl,
  copy_cpu,
  copy_tolerance,
  NULL,
  copy_variant,
};
