/* SPDX-License-Identifier: GPL-3.0-or-later */
/* srgb-error: how far the kernels' sRGB curve (kernels/clfx-srgb.h, the
 * engine's embedded copy) lies from the curve computed in double, on one
 * OpenCL device, in ulp of the exact value; beside it the same formula
 * through powr, whose 16 ulp the engine's tolerance states.
 *
 * usage: clfx-srgb-error [DEVICE]   (clfx-bench's device names; default
 * auto).  Decoded: every 16-bit code (k / 65535).  Encoded: 2^22 values
 * evenly in [0, 1) and 4096 in [1, 65); the native encode
 * (clfx_srgb_encode_native, which the engine uses for 8-bit results on
 * NVIDIA devices, and which counts in the exit status there) over
 * [0, 1]. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clfx-device.h"
#include "clfx-error.h"
#include "clfx-host-image.h"
#include "clfx-program.h"

#define CHECK(call, ...)                                                     \
  do                                                                         \
    {                                                                        \
      cl_int status_ = call (__VA_ARGS__);                                   \
      if (status_ != CL_SUCCESS)                                             \
        {                                                                    \
          fprintf (stderr, "clfx-srgb-error: %s: %s (line %d)\n", #call,     \
                   clfx_cl_error_name (status_), __LINE__);                  \
          exit (1);                                                          \
        }                                                                    \
    }                                                                        \
  while (0)

#define CREATED(what, status)                                                \
  do                                                                         \
    if ((status) != CL_SUCCESS)                                              \
      {                                                                      \
        fprintf (stderr, "clfx-srgb-error: %s: %s (line %d)\n", what,        \
                 clfx_cl_error_name (status), __LINE__);                     \
        exit (1);                                                            \
      }                                                                      \
  while (0)

static const char test_kernel[]
  = "inline float dec_powr (float v) { return v <= 0.04045f ? v / 12.92f\n"
    "  : powr ((v + 0.055f) / 1.055f, 2.4f); }\n"
    "inline float enc_powr (float v) { return v <= 0.0031308f ? v * 12.92f\n"
    "  : 1.055f * powr (v, 1.0f / 2.4f) - 0.055f; }\n"
    "__kernel void curve (__global const float *in, __global float *out,\n"
    "                     int n)\n"
    "{\n"
    "  int i = get_global_id (0);\n"
    "  if (i >= n) return;\n"
    "  float v = in[i];\n"
    "  out[5 * i] = clfx_srgb_decode (v);\n"
    "  out[5 * i + 1] = dec_powr (v);\n"
    "  out[5 * i + 2] = clfx_srgb_encode (v);\n"
    "  out[5 * i + 3] = enc_powr (v);\n"
    "  out[5 * i + 4] = clfx_srgb_encode_native (v);\n"
    "}\n";

static double
ulp_of (double exact)
{
  float f = (float) fabs (exact);
  return (double) nextafterf (f, INFINITY) - (double) f;
}

int
main (int argc, char **argv)
{
  const char           *request = argc > 1 ? argv[1] : "auto";
  ClfxDeviceList        list;
  const ClfxDeviceInfo *dev;
  ClfxError             e = { 0 };
  /* The curve with its includes, as the engine assembles programs. */
  char                 *curve = clfx_kernel_source ("clfx-srgb.h", &e);
  int                   n_dec = 65536, n = 65536 + (1 << 22) + 4096, m = 0;
  float                *in = malloc ((size_t) n * sizeof *in);
  float                *out = malloc ((size_t) n * 5 * sizeof *out);
  char                 *src;
  double                worst[5] = { 0 }, native_abs = 0.0;
  float                 at[5] = { 0 };

  if (! curve)
    return fprintf (stderr, "clfx-srgb-error: %s\n", e.message), 1;
  if (! in || ! out)
    return fprintf (stderr, "clfx-srgb-error: out of memory\n"), 1;
  if (! clfx_device_list (&list, &e)
      || ! clfx_device_select (&list, request, &dev, &e) || ! dev)
    return fprintf (stderr, "clfx-srgb-error: %s\n",
                    dev || e.message[0] ? e.message : "no OpenCL device"), 1;
  /* The program: the curve, then the test kernel. */
  src = malloc (strlen (curve) + sizeof test_kernel);
  if (! src)
    return fprintf (stderr, "clfx-srgb-error: out of memory\n"), 1;
  strcpy (src, curve);
  strcat (src, test_kernel);

  for (int i = 0; i < n_dec; i++)
    in[m++] = (float) i / 65535.0f;
  for (int i = 0; i < 1 << 22; i++)
    in[m++] = (float) i / (float) (1 << 22);
  for (int i = 0; i < 4096; i++)
    in[m++] = 1.0f + (float) i / 64.0f;

  cl_int           status;
  cl_context       ctx = clCreateContext (NULL, 1, &dev->id, NULL, NULL,
                                          &status);
  CREATED ("clCreateContext", status);
  cl_command_queue q = clCreateCommandQueue (ctx, dev->id, 0, &status);
  CREATED ("clCreateCommandQueue", status);
  const char      *text = src;
  cl_program       prog = clCreateProgramWithSource (ctx, 1, &text, NULL,
                                                     &status);
  CREATED ("clCreateProgramWithSource", status);
  status = clBuildProgram (prog, 1, &dev->id, "-cl-std=CL1.2", NULL, NULL);
  if (status != CL_SUCCESS)
    {
      char log[8192] = "";
      clGetProgramBuildInfo (prog, dev->id, CL_PROGRAM_BUILD_LOG, sizeof log,
                             log, NULL);
      fprintf (stderr, "clfx-srgb-error: clBuildProgram: %s\n%s\n",
               clfx_cl_error_name (status), log);
      return 1;
    }
  cl_kernel k = clCreateKernel (prog, "curve", &status);
  CREATED ("clCreateKernel", status);
  cl_mem bin = clCreateBuffer (ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               (size_t) n * sizeof *in, in, &status);
  CREATED ("clCreateBuffer (in)", status);
  cl_mem bout = clCreateBuffer (ctx, CL_MEM_WRITE_ONLY,
                                (size_t) n * 5 * sizeof *out, NULL, &status);
  CREATED ("clCreateBuffer (out)", status);
  size_t global = (size_t) n;
  CHECK (clSetKernelArg, k, 0, sizeof bin, &bin);
  CHECK (clSetKernelArg, k, 1, sizeof bout, &bout);
  CHECK (clSetKernelArg, k, 2, sizeof n, &n);
  CHECK (clEnqueueNDRangeKernel, q, k, 1, NULL, &global, NULL, 0, NULL,
         NULL);
  CHECK (clEnqueueReadBuffer, q, bout, CL_TRUE, 0,
         (size_t) n * 5 * sizeof *out, out, 0, NULL, NULL);

  for (int i = 0; i < n; i++)
    {
      double v = in[i];
      double dec = clfx_srgb_to_linear (v), enc = clfx_linear_to_srgb (v);
      for (int t = 0; t < 5; t++)
        {
          double exact = t < 2 ? dec : enc;
          /* The native encode makes 8-bit codes: only [0, 1] matters. */
          if ((t < 2 && i >= n_dec) || (t == 4 && v > 1.0) || exact == 0.0)
            continue;
          double d = fabs ((double) out[5 * i + t] - exact);
          double err = d / ulp_of (exact);
          if (t == 4 && d > native_abs)
            native_abs = d;
          if (err > worst[t])
            {
              worst[t] = err;
              at[t] = in[i];
            }
        }
    }
  /* The native encode counts where the engine uses it. */
  bool native_used = clfx_device_native_encode (dev);
  printf ("device %s\n", dev->name);
  printf ("decode, every 16-bit code: kernels %.2f ulp (worst at %g), powr "
          "%.2f ulp\n", worst[0], at[0], worst[1]);
  printf ("encode, [0, 65): kernels %.2f ulp (worst at %g), powr %.2f ulp\n",
          worst[2], at[2], worst[3]);
  printf ("encode through native_exp2/native_log2 (8-bit results on "
          "NVIDIA), [0, 1]: %.2f ulp (worst at %g), at most %.3g\n",
          worst[4], at[4], native_abs);
  clReleaseMemObject (bin);
  clReleaseMemObject (bout);
  clReleaseKernel (k);
  clReleaseProgram (prog);
  clReleaseCommandQueue (q);
  clReleaseContext (ctx);
  clfx_device_list_free (&list);
  free (src);
  free (curve);
  free (in);
  free (out);
  return worst[0] <= 16.0 && worst[2] <= 16.0
             && (! native_used || worst[4] <= 16.0)
           ? 0
           : 2;
}
