/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-device.h: OpenCL platform/device enumeration and selection. */
#ifndef CLFX_DEVICE_H
#define CLFX_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "clfx-cl.h"
#include "clfx-error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Everything the Diagnostics tab, the report and the logs say about a
 * device comes from this one struct. */
typedef struct
{
  cl_platform_id platform;
  cl_device_id   id;
  int            platform_index;
  int            device_index;

  char platform_name[128];
  char platform_vendor[128];
  char platform_version[128];
  char name[128];
  char vendor[128];
  char version[128];     /* CL_DEVICE_VERSION */
  char driver[128];      /* CL_DRIVER_VERSION */
  char c_version[128];   /* CL_DEVICE_OPENCL_C_VERSION */
  const char *type;      /* "gpu", "cpu", "accelerator", "other" */

  cl_uint  compute_units;
  cl_uint  clock_mhz;
  cl_ulong global_mem;
  cl_ulong max_alloc;
  cl_ulong local_mem;
  size_t   image2d_max_width;
  size_t   image2d_max_height;
  size_t   max_work_group;
  bool     image_support;
  bool     fp16;
  bool     fp64;
  bool     host_unified; /* CL_DEVICE_HOST_UNIFIED_MEMORY: a CPU device */
  bool     usable;
  char     skip_reason[160]; /* why it is not usable; empty when usable */
} ClfxDeviceInfo;

typedef struct
{
  ClfxDeviceInfo *devices;
  size_t          n_devices;
  /* Platforms that could not be queried, one line each (may be empty). */
  char            notes[1024];
} ClfxDeviceList;

/* Enumerates every platform and device.  Devices without image support are
 * listed with usable = false and the reason.  No OpenCL at all (no ICD) is
 * not an error: the list is simply empty and notes says why. */
bool clfx_device_list (ClfxDeviceList *list, ClfxError *error);
void clfx_device_list_free (ClfxDeviceList *list);

/* The device request of the PDB and clfx-bench:
 *   "auto"      the first usable GPU, else the first usable device;
 *   "reference" the pure CPU path (returns true with *out = NULL);
 *   a number N  the device [N] of the list, whether or not names repeat;
 *   otherwise   a case-insensitive substring of the platform name, the
 *               platform vendor or the device name; the first usable match.
 * Fails with CLFX_ERR_NO_DEVICE naming what exists when nothing matches. */
bool clfx_device_select (const ClfxDeviceList *list, const char *request,
                         const ClfxDeviceInfo **out, ClfxError *error);

bool clfx_device_is_reference (const char *request);

/* Whether 8-bit sRGB results on this device are encoded through
 * native_exp2/native_log2 (kernels/clfx-srgb.h, clfx_srgb_encode_native),
 * where the exact tables are not used: NVIDIA's, whose accuracy
 * clfx-srgb-error measured within the tolerance's 16 ulp. */
bool clfx_device_native_encode (const ClfxDeviceInfo *d);

#ifdef __cplusplus
}
#endif

#endif
