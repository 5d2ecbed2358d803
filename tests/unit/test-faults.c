/* test-faults.c: every OpenCL error path, driven by CLFX_FAULT.
 *
 * For each checked call the resize (and copy) path makes, the call is
 * made to fail with CL_OUT_OF_RESOURCES.  With an explicit device the run
 * must fail with a message naming the call and the error, and leave the
 * output empty; with device "auto" it must fall back to the CPU path, say
 * why, and still produce the reference result.  Run under AddressSanitizer
 * in CI, so a leak on any of these paths fails the build. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "../device.h"
#include "clfx-run.h"

/* The test device, named so that it is an explicit request, and its
 * platform's position (clGetDeviceIDs runs once per platform: the fault
 * must hit the call for the test device's platform). */
static char device_name[128];
static int  device_platform;
static bool zero_copy; /* the device works in host memory */
/* The call under test is made only on the zero-copy path: auto may pick a
 * device (a GPU) that never makes it. */
static bool zero_copy_only;

static const char *calls[] = {
  "clGetPlatformIDs", "clGetDeviceIDs", "clGetDeviceInfo", "clCreateContext",
  "clCreateCommandQueue", "clGetSupportedImageFormats", "clCreateSampler",
  "clCreateBuffer", "clEnqueueMapBuffer", "clCreateImage",
  "clEnqueueFillBuffer", "clCreateProgramWithSource",
  "clBuildProgram", "clCreateKernel", "clSetKernelArg",
  "clEnqueueNDRangeKernel", "clFinish",
  "clGetEventInfo", "clGetEventProfilingInfo",
};
/* The calls of each data path (clfx-context.c): through pinned staging,
 * and in place on a device that works in host memory. */
static const char *staged_calls[] = {
  "clEnqueueWriteImage", "clEnqueueReadBuffer",
};
static const char *zero_copy_calls[] = {
  "clSetMemObjectDestructorCallback", "clEnqueueUnmapMemObject",
};

static bool
same_image (const ClfxImage *a, const ClfxImage *b)
{
  size_t row = (size_t) a->width * clfx_image_pixel_size (a);

  if (a->width != b->width || a->height != b->height)
    return false;
  for (int y = 0; y < a->height; y++)
    if (memcmp ((char *) a->data + (size_t) y * a->stride,
                (char *) b->data + (size_t) y * b->stride, row))
      return false;
  return true;
}

static void
run_with_fault (const char *call, const char *fault, const char *op_name,
                const ClfxImage *src, const ClfxImage *expect)
{
  const ClfxOpInfo *op = clfx_op_find (op_name);
  ClfxParams        p;
  ClfxRunOptions    explicit_dev = { device_name, false, 64, NULL };
  ClfxRunOptions    auto_dev = { "auto", false, 64, NULL };
  ClfxRunResult     r;
  ClfxImage         dst;
  ClfxError         e = { 0 };
  bool              ok;
  char              spec[128];

  clfx_params_defaults (op, &p);
  if (op == &clfx_op_resize)
    {
      clfx_params_set (op, &p, "width", "19", &e);
      clfx_params_set (op, &p, "height", "11", &e);
      clfx_params_set (op, &p, "filter", "lanczos3", &e);
    }
  if (strcmp (call, "clGetDeviceIDs") == 0)
    snprintf (spec, sizeof spec, "%s=%s@%d", call, fault,
              device_platform + 1);
  else
    snprintf (spec, sizeof spec, "%s=%s", call, fault);
  setenv ("CLFX_FAULT", spec, 1);

  clfx_fault_reset ();
  ok = clfx_run (op, &p, src, &dst, &explicit_dev, &r, &e);
  tap_ok (! ok && strstr (e.message, call) && strstr (e.message, fault)
            && dst.data == NULL,
          "%s: %s failing with %s is reported: %s", op_name, call, fault,
          e.message);
  clfx_run_result_clear (&r);
  if (ok)
    clfx_host_image_free (&dst);

  memset (&e, 0, sizeof e);
  clfx_fault_reset ();
  ok = clfx_run (op, &p, src, &dst, &auto_dev, &r, &e);
  /* With several platforms, auto may also go on to another platform's
   * device when one platform's device list fails; it must say which. */
  tap_ok (ok && same_image (&dst, expect)
            && ((strstr (r.fallback, call) && ! r.ran_opencl)
                || (! strcmp (call, "clGetDeviceIDs") && r.ran_opencl
                    && r.device.platform_index != device_platform)
                || (zero_copy_only && r.ran_opencl
                    && strcmp (r.device.name, device_name) != 0)),
          "%s: with device auto, %s failing falls back to the CPU and says "
          "so, or runs on another platform or device (%s%s)", op_name, call,
          ok ? r.fallback : e.message, ok && r.ran_opencl ? r.device.name
                                                          : "");
  if (ok && ! r.ran_opencl)
    {
      char *json = clfx_report_json (op, &p, src, &auto_dev, &r, NULL);
      tap_ok (json && strstr (json, "\"fallback\":\"OpenCL failed")
                && strstr (json, "\"platform\":\"CPU reference\""),
              "%s: the report names the fallback and the CPU path as the "
              "device", op_name);
      free (json);
    }
  clfx_run_result_clear (&r);
  if (ok)
    clfx_host_image_free (&dst);
  unsetenv ("CLFX_FAULT");
  clfx_fault_reset ();
}

int
main (void)
{
  ClfxDeviceList list;
  int            skip = 0;
  ClfxContext   *ctx = test_context (&list, &skip);
  ClfxImage      src, expect_resize, expect_copy;
  ClfxError      e = { 0 };
  ClfxParams     p;

  if (! ctx)
    return skip;
  snprintf (device_name, sizeof device_name, "%s", ctx->device.name);
  device_platform = ctx->device.platform_index;
  zero_copy = ctx->zero_copy;
  clfx_context_free (ctx);
  clfx_device_list_free (&list);
  /* Builds must really happen for the build-call faults to fire. */
  setenv ("CLFX_CACHE_DIR", "off", 1);

  clfx_host_image_alloc (&src, 23, 17, 4, CLFX_DEPTH_U8, &e);
  clfx_host_image_synthetic (&src, 5);
  clfx_params_defaults (&clfx_op_resize, &p);
  clfx_params_set (&clfx_op_resize, &p, "width", "19", &e);
  clfx_params_set (&clfx_op_resize, &p, "height", "11", &e);
  clfx_params_set (&clfx_op_resize, &p, "filter", "lanczos3", &e);
  clfx_host_image_alloc (&expect_resize, 19, 11, 4, CLFX_DEPTH_U8, &e);
  clfx_op_resize.run_cpu (&src, &expect_resize, &p, &e);
  clfx_host_image_alloc (&expect_copy, 23, 17, 4, CLFX_DEPTH_U8, &e);
  clfx_op_copy.run_cpu (&src, &expect_copy, &p, &e);

  /* Every call on the staged path (forced on a CPU device too), then on
   * the zero-copy path where the device has one. */
  setenv ("CLFX_ZERO_COPY", "off", 1);
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
    run_with_fault (calls[i], "CL_OUT_OF_RESOURCES", "resize", &src,
                    &expect_resize);
  for (size_t i = 0; i < sizeof staged_calls / sizeof staged_calls[0]; i++)
    run_with_fault (staged_calls[i], "CL_OUT_OF_RESOURCES", "resize", &src,
                    &expect_resize);
  unsetenv ("CLFX_ZERO_COPY");
  if (zero_copy)
    {
      const char *more[] = { "clCreateBuffer", "clCreateImage",
                             "clEnqueueMapBuffer" };
      for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        run_with_fault (more[i], "CL_OUT_OF_RESOURCES", "resize", &src,
                        &expect_resize);
      zero_copy_only = true;
      for (size_t i = 0; i < sizeof zero_copy_calls / sizeof zero_copy_calls[0];
           i++)
        run_with_fault (zero_copy_calls[i], "CL_OUT_OF_RESOURCES", "resize",
                        &src, &expect_resize);
      zero_copy_only = false;
    }
  else
    tap_diag ("the device copies through staging: no zero-copy path to "
              "test");
  /* Other codes and the copy path, which has its own checked calls. */
  run_with_fault ("clEnqueueNDRangeKernel", "CL_INVALID_WORK_GROUP_SIZE",
                  "copy", &src, &expect_copy);
  run_with_fault ("clCreateImage", "CL_MEM_OBJECT_ALLOCATION_FAILURE", "copy",
                  &src, &expect_copy);
  run_with_fault ("clSetKernelArg", "CL_INVALID_ARG_SIZE", "copy", &src,
                  &expect_copy);

  /* A fault on the second call of a kind: the failure is in the middle of
   * the op, after earlier objects were made (they must be released). */
  setenv ("CLFX_FAULT", "clCreateBuffer=CL_OUT_OF_RESOURCES@3", 1);
  clfx_fault_reset ();
  {
    ClfxRunOptions o = { device_name, false, 0, NULL };
    ClfxRunResult  r;
    ClfxImage      dst;
    memset (&e, 0, sizeof e);
    tap_ok (! clfx_run (&clfx_op_resize, &p, &src, &dst, &o, &r, &e)
              && strstr (e.message, "clCreateBuffer")
              && strstr (e.message, "CL_OUT_OF_RESOURCES")
              && strstr (e.message, ".c:"),
            "the third clCreateBuffer failing names the call and the site: "
            "%s", e.message);
    clfx_run_result_clear (&r);
  }
  unsetenv ("CLFX_FAULT");
  clfx_fault_reset ();

  /* A context shared by several runs: kept while they succeed, freed and
   * forgotten when one fails on it (the next run starts afresh). */
  {
    ClfxContext   *shared = NULL, *first;
    ClfxRunOptions o = { device_name, false, 0, &shared };
    ClfxRunResult  r;
    ClfxImage      dst;
    bool           ok;

    ok = clfx_run (&clfx_op_resize, &p, &src, &dst, &o, &r, &e)
         && same_image (&dst, &expect_resize) && shared != NULL;
    first = shared;
    if (ok)
      clfx_host_image_free (&dst);
    clfx_run_result_clear (&r);
    ok = ok && clfx_run (&clfx_op_resize, &p, &src, &dst, &o, &r, &e)
         && same_image (&dst, &expect_resize) && shared == first;
    tap_ok (ok, "a shared context is made once and used by the next run");
    if (ok)
      clfx_host_image_free (&dst);
    clfx_run_result_clear (&r);
    setenv ("CLFX_FAULT", "clEnqueueNDRangeKernel=CL_OUT_OF_RESOURCES", 1);
    clfx_fault_reset ();
    memset (&e, 0, sizeof e);
    ok = clfx_run (&clfx_op_resize, &p, &src, &dst, &o, &r, &e);
    tap_ok (! ok && shared == NULL && strstr (e.message, "clEnqueueNDRange"),
            "a run that fails on the shared context frees it: %s",
            e.message);
    clfx_run_result_clear (&r);
    unsetenv ("CLFX_FAULT");
    clfx_fault_reset ();
    clfx_context_free (shared);
  }

  tap_ok (strcmp (clfx_cl_error_name (-54), "CL_INVALID_WORK_GROUP_SIZE") == 0
            && strcmp (clfx_cl_error_name (-5), "CL_OUT_OF_RESOURCES") == 0
            && strcmp (clfx_cl_error_name (12345), "CL_UNKNOWN_ERROR") == 0,
          "error codes have their symbolic names");

  clfx_host_image_free (&src);
  clfx_host_image_free (&expect_resize);
  clfx_host_image_free (&expect_copy);
  return tap_done ();
}
