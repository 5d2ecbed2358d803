/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-faults.c: every OpenCL error path, driven by CLFX_DEV's fault, and the
 * graph's argument checks.
 *
 * For every checked call a run makes (the engine lists them: a clean run
 * first records their names and counts), each occurrence of the call is
 * made to fail with CL_OUT_OF_RESOURCES (of a call made more than 8 times,
 * the first two, the middle one and the last two).  With an explicit device the run must fail with a
 * message naming the call and the error, leave the result empty and the
 * source untouched; with device "auto" it must fall back to the CPU path,
 * say why, and still produce the reference result.  That for every way a
 * run can go: one band in host memory, streamed bands through staging, the
 * two-pass multi-kernel graph, tiles.  Run under AddressSanitizer in CI,
 * so a leak on any of these paths fails the build. */
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

/* CLFX_DEV's switches of the way of running under test, and the same with
 * a fault spec added. */
static const char *dev_base = "";

static void
set_fault (const char *spec)
{
  char dev[256];

  snprintf (dev, sizeof dev, "%s%sfault=%s", dev_base, dev_base[0] ? "," : "",
            spec);
  setenv ("CLFX_DEV", dev, 1);
}

static void
clear_fault (void)
{
  setenv ("CLFX_DEV", dev_base, 1);
}

static void
run_with_fault (const char *call, long nth, const char *fault,
                const char *what, const ClfxParams *p, const ClfxImage *src,
                const ClfxImage *src_copy, const ClfxImage *expect)
{
  ClfxRunOptions explicit_dev = { device_name, false, 64, NULL, false, false };
  ClfxRunOptions auto_dev = { "auto", false, 64, NULL, false, false };
  ClfxRunResult  r;
  ClfxImage      dst;
  ClfxError      e = { 0 };
  bool           ok;
  char           spec[128];

  if (strcmp (call, "clGetDeviceIDs") == 0)
    snprintf (spec, sizeof spec, "%s=%s@%d", call, fault,
              device_platform + 1);
  else
    snprintf (spec, sizeof spec, "%s=%s@%ld", call, fault, nth);
  set_fault (spec);

  clfx_fault_reset ();
  ok = clfx_run (p, src, &dst, &explicit_dev, &r, &e);
  tap_ok (! ok && strstr (e.message, call) && strstr (e.message, fault)
            && dst.data == NULL && same_image (src, src_copy)
            && clfx_maps_open () == 0,
          "%s: %s@%ld failing with %s is reported, the source untouched, "
          "no buffer left mapped (%ld): %s", what, call, nth, fault,
          clfx_maps_open (), e.message);
  clfx_run_result_clear (&r);
  if (ok)
    clfx_host_image_free (&dst);

  memset (&e, 0, sizeof e);
  clfx_fault_reset ();
  ok = clfx_run (p, src, &dst, &auto_dev, &r, &e);
  /* With several platforms, auto may also go on to another platform's
   * device when one platform's device list fails; it must say which. */
  tap_ok (ok && same_image (&dst, expect)
            && ((strstr (r.fallback, call) && r.path == CLFX_PATH_FALLBACK)
                || (! strcmp (call, "clGetDeviceIDs")
                    && r.path == CLFX_PATH_OPENCL
                    && r.device.platform_index != device_platform)),
          "%s: with device auto, %s@%ld failing falls back to the CPU and "
          "says so (%s)", what, call, nth, ok ? r.fallback : e.message);
  if (ok && r.path == CLFX_PATH_FALLBACK)
    {
      char *json = clfx_report_json (p, src, &auto_dev, &r, NULL);
      tap_ok (json && strstr (json, "\"fallback\":\"OpenCL failed")
                && strstr (json, "\"platform\":\"CPU reference\""),
              "%s: the report names the fallback and the CPU path as the "
              "device", what);
      free (json);
    }
  clfx_run_result_clear (&r);
  if (ok)
    clfx_host_image_free (&dst);
  clear_fault ();
  clfx_fault_reset ();
}

/* Whether the nth of count calls of one name gets a fault of its own:
 * every one of a call made up to 8 times a run (each map, unmap, image,
 * buffer, build...), and the first two, the middle one and the last two
 * of a call made more often (a launch or an argument per kernel: the same
 * site each time, so later ones find the same objects to release). */
static bool
fault_index (long nth, long count)
{
  return count <= 8 || nth <= 2 || nth == count / 2 || nth >= count - 1;
}

/* One way of running: its CLFX_DEV switches, then a fault in every call a
 * clean run of it makes (fault_index says which of a frequent call). */
static void
fault_every_call (const char *what, const char *dev, const ClfxParams *p,
                  const ClfxImage *src)
{
  ClfxRunOptions opt = { device_name, false, 64, NULL, false, false };
  ClfxRunResult  r;
  ClfxImage      expect, dst, src_copy;
  ClfxError      e = { 0 };
  char           calls[64][48];
  long           counts[64];
  int            n = 0;
  bool           ok;

  dev_base = dev;
  clear_fault ();
  clfx_fault_reset ();
  ok = clfx_run (p, src, &dst, &opt, &r, &e);
  n = clfx_fault_calls (calls, counts, 64);
  tap_ok (ok && n > 10 && r.timings.pieces >= 1,
          "%s: a clean run makes %d checked calls in %d %s%s%s", what, n,
          r.timings.pieces, r.timings.tiled ? "tiles" : "bands",
          ok ? "" : ": ", ok ? "" : e.message);
  clfx_run_result_clear (&r);
  if (! ok)
    goto out;
  clfx_host_image_alloc (&expect, dst.width, dst.height, dst.channels,
                         dst.depth, &e);
  expect.transfer = src->transfer;
  expect.straight_alpha = src->straight_alpha;
  clfx_reference_into (p, src, &expect, &e);
  clfx_host_image_free (&dst);
  clfx_host_image_alloc (&src_copy, src->width, src->height, src->channels,
                         src->depth, &e);
  memcpy (src_copy.data, src->data, src->stride * (size_t) src->height);
  for (int i = 0; i < n; i++)
    for (long k = 1; k <= counts[i]; k++)
      if (fault_index (k, counts[i])
          && (k == 1 || strcmp (calls[i], "clGetDeviceIDs") != 0))
        run_with_fault (calls[i], k, "CL_OUT_OF_RESOURCES", what, p, src,
                        &src_copy, &expect);
  clfx_host_image_free (&expect);
  clfx_host_image_free (&src_copy);
out:
  dev_base = "";
  clear_fault ();
}

/* ---- the graph's argument checks --------------------------------------- */

typedef struct
{
  int mode;
} BadParams;

static const ClfxParamGroup bad_groups[] = { { "main", "Main" } };
static const ClfxParamSpec  bad_rows[] = {
  CLFX_PARAM_INT_ROW (BadParams, mode, "mode", "Mode", "Which mistake", 0, 3,
                      0, 0, 3, CLFX_UNIT_NONE, 0),
};

static bool
bad_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
          ClfxError *error)
{
  (void) p;
  (void) error;
  plan->width = src->width;
  plan->height = src->height;
  return true;
}

/* resize_filter_v takes (image2d_t, 4 result arguments, int *, float *,
 * int, int, int): ten arguments. */
static bool
bad_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const BadParams *bp = CLFX_PARAMS_OF (p, BadParams);
  cl_mem           inter = clfx_graph_image (g, "inter", 4, 4, error);
  cl_mem           table = clfx_graph_buffer (g, "table", 64, error);
  cl_long          wide = 3;
  ClfxLaunch       l = { "resize_filter_v", NULL, NULL, 2, { 4, 4 }, { 0, 0 } };

  if (! inter || ! table)
    return false;
  switch (bp->mode)
    {
    case 0: /* one argument short */
      return CLFX_LAUNCH (g, &l, error, CLFX_ARG (inter), CLFX_DST,
                          CLFX_ARG (table), CLFX_ARG (table), CLFX_INT (1),
                          CLFX_INT (1));
    case 1: /* a long where the kernel declares an int */
      return CLFX_LAUNCH (g, &l, error, CLFX_ARG (inter), CLFX_DST,
                          CLFX_ARG (table), CLFX_ARG (table), CLFX_ARG (wide),
                          CLFX_INT (1), CLFX_INT (0));
    case 2: /* local memory where the kernel declares a pointer */
      return CLFX_LAUNCH (g, &l, error, CLFX_ARG (inter), CLFX_DST,
                          CLFX_LOCAL (64), CLFX_ARG (table), CLFX_INT (1),
                          CLFX_INT (1), CLFX_INT (0));
    default: /* a kernel the program does not have */
      l.kernel = "resize_no_such_kernel";
      return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_DST);
    }
}

static bool
bad_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
         ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  (void) p;
  (void) plan;
  (void) probes;
  (void) error;
  memcpy (dst->data, src->data, src->stride * (size_t) src->height);
  return true;
}

static void
bad_tolerance (const ClfxParams *p, const ClfxPlan *plan,
               const ClfxDeviceInfo *dev, const ClfxImage *src,
               const ClfxImage *dst, ClfxTolerance *tol)
{
  (void) p;
  (void) plan;
  (void) dev;
  (void) src;
  (void) dst;
  clfx_tol_init (tol);
}

static const ClfxVariant bad_variant = {
  "bad", "resize", "launches with wrong arguments", NULL, bad_plan, NULL,
  bad_cl, bad_cpu, bad_tolerance, NULL, NULL, NULL, { NULL, NULL, NULL, NULL },
  NULL, NULL,
};
static const ClfxVariant *const bad_variants[] = { &bad_variant };
static const ClfxFamily bad_family = {
  "bad", NULL, NULL, NULL, "test family", NULL, NULL, CLFX_APPLY_SHADOW,
  bad_rows, 1, bad_groups, 1, sizeof (BadParams), -1, bad_variants, 1,
  NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

static void
argument_checks (const ClfxImage *src)
{
  static const struct
  {
    const char *mode, *expect, *what;
  } cases[] = {
    { "0", "takes 10 arguments, the launch passes 9",
      "a launch one argument short" },
    { "1", "argument 7 is declared int (4 bytes), the launch passes 8",
      "a long where the kernel declares an int" },
    { "2", "argument 5 is", "local memory where a pointer is declared" },
    { "3", "resize_no_such_kernel", "a kernel that does not exist" },
  };

  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      ClfxRunOptions opt = { device_name, false, 0, NULL, false, false };
      ClfxParams     p;
      ClfxRunResult  r;
      ClfxImage      dst;
      ClfxError      e = { 0 };
      bool           ok;

      clfx_params_defaults (&bad_family, &p);
      clfx_params_set (&p, "mode", cases[i].mode, &e);
      ok = clfx_run (&p, src, &dst, &opt, &r, &e);
      tap_ok (! ok && strstr (e.message, cases[i].expect)
                && (i == 3 || strstr (e.message, "resize_filter_v")),
              "graph argument check: %s is refused before the launch: %s",
              cases[i].what, e.message);
      clfx_run_result_clear (&r);
      if (ok)
        clfx_host_image_free (&dst);
    }
}

int
main (void)
{
  static const char *const plain = "";
  static const char *const staged = "zero-copy=off,band-bytes=300";
  static const char *const two_pass = "resize-two-pass=1,zero-copy=off";
  static const char *const tiles = "tile=7x5";
  static const char *const images = "source=image";
  static const char *const image_tiles = "source=image,tile=7x5";
  ClfxDeviceList list;
  int            skip = 0;
  ClfxContext   *ctx = test_context (&list, &skip);
  ClfxImage      src;
  ClfxError      e = { 0 };
  ClfxParams     lanczos, linear, copy, iir, fir, r05, durand,
                 fattal;

  if (! ctx)
    return skip;
  snprintf (device_name, sizeof device_name, "%s", ctx->device.name);
  device_platform = ctx->device.platform_index;
  clfx_context_free (ctx);
  clfx_device_list_free (&list);
  /* Builds must really happen for the build-call faults to fire. */
  setenv ("CLFX_CACHE_DIR", "off", 1);

  clfx_host_image_alloc (&src, 23, 17, 4, CLFX_DEPTH_U8, &e);
  clfx_host_image_synthetic (&src, 5);
  src.transfer = CLFX_TRC_SRGB;
  src.straight_alpha = true;
  clfx_params_defaults (&clfx_family_resize, &lanczos);
  clfx_params_set (&lanczos, "width", "19", &e);
  clfx_params_set (&lanczos, "height", "11", &e);
  linear = lanczos;
  clfx_params_set (&lanczos, "filter", "lanczos3", &e);
  clfx_params_set (&linear, "filter", "linear", &e);
  clfx_params_set (&linear, "addressing", "mirrored-repeat", &e);
  clfx_params_defaults (&clfx_family_copy, &copy);
  /* The filter family's graphs: the IIR (a buffer, tables, two lines of
   * launches) and the FIR through the separable block. */
  clfx_params_defaults (&clfx_family_filter, &iir);
  clfx_params_set (&iir, "std-dev-x", "2", &e);
  fir = iir;
  clfx_params_set (&fir, "method", "fir", &e);

  fault_every_call ("lanczos3, one band", plain, &lanczos, &src);
  fault_every_call ("lanczos3, staged bands", staged, &lanczos, &src);
  fault_every_call ("lanczos3, two-pass graph", two_pass, &lanczos, &src);
  {
    /* Another layout and depth through the two-pass graph: 16-bit gray
     * with straight alpha, cubic. */
    ClfxImage  ga;
    ClfxParams cubic = lanczos;

    clfx_params_set (&cubic, "filter", "cubic", &e);
    clfx_host_image_alloc (&ga, 23, 17, 2, CLFX_DEPTH_U16, &e);
    clfx_host_image_synthetic (&ga, 7);
    ga.transfer = CLFX_TRC_SRGB;
    ga.straight_alpha = true;
    fault_every_call ("cubic u16 gray+alpha, two-pass graph", two_pass,
                      &cubic, &ga);
    clfx_host_image_free (&ga);
  }
  fault_every_call ("lanczos3, tiles", tiles, &lanczos, &src);
  fault_every_call ("linear, staged bands", staged, &linear, &src);
  fault_every_call ("copy, tiles", tiles, &copy, &src);
  fault_every_call ("lanczos3, images in host memory", images, &lanczos,
                    &src);
  fault_every_call ("linear, image tiles", image_tiles, &linear, &src);
  fault_every_call ("gaussian IIR, staged", staged, &iir, &src);
  fault_every_call ("gaussian FIR, tiles", tiles, &fir, &src);
  /* The tonemap family's graphs: statistics, constants and a range chained
   * on the device (reinhard05); durand02's grid, its blurs and the copy
   * into a 3D image; fattal02's pyramid, multigrid and selection. */
  clfx_params_defaults (&clfx_family_tonemap, &r05);
  durand = r05;
  clfx_params_set (&durand, "operator", "durand02", &e);
  clfx_params_set (&durand, "sampler-filter", "linear", &e);
  fault_every_call ("reinhard05, staged", staged, &r05, &src);
  fault_every_call ("reinhard05, statistics over tiles", tiles, &r05, &src);
  fault_every_call ("durand02, one piece", plain, &durand, &src);
  fattal = r05;
  clfx_params_set (&fattal, "operator", "fattal02", &e);
  fault_every_call ("fattal02, one piece", plain, &fattal, &src);
  /* Other codes, and a fault on the third call of a kind: the failure is
   * in the middle of the run, after earlier objects were made (they must
   * be released). */
  {
    ClfxImage expect, src_copy;
    clfx_host_image_alloc (&expect, 19, 11, 4, CLFX_DEPTH_U8, &e);
    expect.transfer = CLFX_TRC_SRGB;
    expect.straight_alpha = true;
    clfx_reference_into (&lanczos, &src, &expect, &e);
    clfx_host_image_alloc (&src_copy, 23, 17, 4, CLFX_DEPTH_U8, &e);
    memcpy (src_copy.data, src.data, src.stride * 17);
    run_with_fault ("clEnqueueNDRangeKernel", 1, "CL_INVALID_WORK_GROUP_SIZE",
                    "lanczos3", &lanczos, &src, &src_copy, &expect);
    run_with_fault ("clCreateBuffer", 1, "CL_MEM_OBJECT_ALLOCATION_FAILURE",
                    "lanczos3", &lanczos, &src, &src_copy, &expect);
    clfx_host_image_free (&expect);
    clfx_host_image_free (&src_copy);
  }
  set_fault ("clCreateBuffer=CL_OUT_OF_RESOURCES@3");
  clfx_fault_reset ();
  {
    ClfxRunOptions o = { device_name, false, 0, NULL, false, false };
    ClfxRunResult  r;
    ClfxImage      dst;
    memset (&e, 0, sizeof e);
    tap_ok (! clfx_run (&lanczos, &src, &dst, &o, &r, &e)
              && strstr (e.message, "clCreateBuffer")
              && strstr (e.message, "CL_OUT_OF_RESOURCES")
              && strstr (e.message, ".c:"),
            "the third clCreateBuffer failing names the call and the site: "
            "%s", e.message);
    clfx_run_result_clear (&r);
  }
  clear_fault ();
  clfx_fault_reset ();

  /* A context shared by several runs: kept while they succeed, freed and
   * forgotten when one fails on it (the next run starts afresh). */
  {
    ClfxContext   *shared = NULL, *first;
    ClfxRunOptions o = { device_name, false, 0, &shared, false, false };
    ClfxRunResult  r;
    ClfxImage      dst, expect;
    bool           ok;

    clfx_host_image_alloc (&expect, 19, 11, 4, CLFX_DEPTH_U8, &e);
    expect.transfer = CLFX_TRC_SRGB;
    expect.straight_alpha = true;
    clfx_reference_into (&lanczos, &src, &expect, &e);
    ok = clfx_run (&lanczos, &src, &dst, &o, &r, &e)
         && same_image (&dst, &expect) && shared != NULL;
    first = shared;
    if (ok)
      clfx_host_image_free (&dst);
    clfx_run_result_clear (&r);
    ok = ok && clfx_run (&lanczos, &src, &dst, &o, &r, &e)
         && same_image (&dst, &expect) && shared == first;
    tap_ok (ok, "a shared context is made once and used by the next run");
    if (ok)
      clfx_host_image_free (&dst);
    clfx_run_result_clear (&r);
    set_fault ("clEnqueueNDRangeKernel=CL_OUT_OF_RESOURCES");
    clfx_fault_reset ();
    memset (&e, 0, sizeof e);
    ok = clfx_run (&lanczos, &src, &dst, &o, &r, &e);
    tap_ok (! ok && shared == NULL && strstr (e.message, "clEnqueueNDRange"),
            "a run that fails on the shared context frees it: %s",
            e.message);
    clfx_run_result_clear (&r);
    clear_fault ();
    clfx_fault_reset ();
    clfx_context_free (shared);
    clfx_host_image_free (&expect);
  }

  argument_checks (&src);

  tap_ok (strcmp (clfx_cl_error_name (-54), "CL_INVALID_WORK_GROUP_SIZE") == 0
            && strcmp (clfx_cl_error_name (-5), "CL_OUT_OF_RESOURCES") == 0
            && strcmp (clfx_cl_error_name (12345), "CL_UNKNOWN_ERROR") == 0,
          "error codes have their symbolic names");

  clfx_host_image_free (&src);
  return tap_done ();
}
