/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-device.c: enumerate platforms and devices, record what they can do,
 * pick one by request. */
#define _POSIX_C_SOURCE 200809L
#include "clfx-device.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
platform_str (cl_platform_id p, cl_platform_info what, char *buf, size_t n)
{
  buf[0] = '\0';
  if (clGetPlatformInfo (p, what, n, buf, NULL) != CL_SUCCESS)
    snprintf (buf, n, "?");
  buf[n - 1] = '\0';
}

static bool
device_query (ClfxDeviceInfo *d, ClfxError *error)
{
  cl_device_type type = 0;
  cl_bool        images = CL_FALSE;
  char           ext[8192];

#define STR(what, field)                                                     \
  CLFX_CHECK (error, fail, #what, clGetDeviceInfo, d->id, what,              \
              sizeof d->field, d->field, NULL);                              \
  d->field[sizeof d->field - 1] = '\0'
#define VAL(what, field)                                                     \
  CLFX_CHECK (error, fail, #what, clGetDeviceInfo, d->id, what,              \
              sizeof d->field, &d->field, NULL)

  STR (CL_DEVICE_NAME, name);
  STR (CL_DEVICE_VENDOR, vendor);
  STR (CL_DEVICE_VERSION, version);
  STR (CL_DRIVER_VERSION, driver);
  STR (CL_DEVICE_OPENCL_C_VERSION, c_version);
  VAL (CL_DEVICE_MAX_COMPUTE_UNITS, compute_units);
  VAL (CL_DEVICE_MAX_CLOCK_FREQUENCY, clock_mhz);
  VAL (CL_DEVICE_GLOBAL_MEM_SIZE, global_mem);
  VAL (CL_DEVICE_MAX_MEM_ALLOC_SIZE, max_alloc);
  VAL (CL_DEVICE_LOCAL_MEM_SIZE, local_mem);
  VAL (CL_DEVICE_MAX_WORK_GROUP_SIZE, max_work_group);
  CLFX_CHECK (error, fail, "CL_DEVICE_TYPE", clGetDeviceInfo, d->id,
              CL_DEVICE_TYPE, sizeof type, &type, NULL);
  CLFX_CHECK (error, fail, "CL_DEVICE_IMAGE_SUPPORT", clGetDeviceInfo, d->id,
              CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
#undef STR
#undef VAL
  d->image_support = images == CL_TRUE;
  if (d->image_support)
    {
      CLFX_CHECK (error, fail, "CL_DEVICE_IMAGE2D_MAX_WIDTH", clGetDeviceInfo,
                  d->id, CL_DEVICE_IMAGE2D_MAX_WIDTH,
                  sizeof d->image2d_max_width, &d->image2d_max_width, NULL);
      CLFX_CHECK (error, fail, "CL_DEVICE_IMAGE2D_MAX_HEIGHT",
                  clGetDeviceInfo, d->id, CL_DEVICE_IMAGE2D_MAX_HEIGHT,
                  sizeof d->image2d_max_height, &d->image2d_max_height,
                  NULL);
    }
  ext[0] = '\0';
  if (clGetDeviceInfo (d->id, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL)
      != CL_SUCCESS)
    ext[0] = '\0';
  ext[sizeof ext - 1] = '\0';
  /* Deprecated after 1.2 but still answered; a failure only costs the
   * zero-copy path, so it is not an error. */
  {
    cl_bool unified = CL_FALSE;
    if (clGetDeviceInfo (d->id, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified,
                         &unified, NULL) == CL_SUCCESS)
      d->host_unified = unified == CL_TRUE;
  }
  d->fp16 = strstr (ext, "cl_khr_fp16") != NULL;
  d->fp64 = strstr (ext, "cl_khr_fp64") != NULL;
  d->type = (type & CL_DEVICE_TYPE_GPU)           ? "gpu"
            : (type & CL_DEVICE_TYPE_CPU)         ? "cpu"
            : (type & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator"
                                                  : "other";
  d->usable = d->image_support;
  if (! d->image_support)
    snprintf (d->skip_reason, sizeof d->skip_reason,
              "no image support (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE)");
  return true;
fail:
  return false;
}

/* Appends platform p's devices to list (the list grows to hold them). */
static bool
list_platform (ClfxDeviceList *list, cl_platform_id platform, cl_uint p,
               ClfxError *error)
{
  cl_device_id   *ids = NULL;
  ClfxDeviceInfo *grown;
  cl_uint         n_ids = 0;
  char            pname[128], pvendor[128], pversion[128];
  cl_int          st;
  bool            ok = true;

  platform_str (platform, CL_PLATFORM_NAME, pname, sizeof pname);
  platform_str (platform, CL_PLATFORM_VENDOR, pvendor, sizeof pvendor);
  platform_str (platform, CL_PLATFORM_VERSION, pversion, sizeof pversion);
  st = clfx_fault_take ("clGetDeviceIDs");
  if (st == CL_SUCCESS)
    st = clGetDeviceIDs (platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n_ids);
  if (st == CL_SUCCESS && n_ids > 0)
    {
      if (! (ids = calloc (n_ids, sizeof *ids)))
        return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      st = clGetDeviceIDs (platform, CL_DEVICE_TYPE_ALL, n_ids, ids, &n_ids);
    }
  if (st != CL_SUCCESS)
    {
      /* One broken platform must not hide the others: note it. */
      size_t len = strlen (list->notes);
      snprintf (list->notes + len, sizeof list->notes - len,
                "%splatform '%s': clGetDeviceIDs: %s", len ? "; " : "",
                pname, clfx_cl_error_name (st));
      free (ids);
      return true;
    }
  if (n_ids > 0
      && ! (grown = realloc (list->devices, (list->n_devices + n_ids)
                                              * sizeof *list->devices)))
    {
      free (ids);
      return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
    }
  if (n_ids > 0)
    list->devices = grown;
  for (cl_uint i = 0; ok && i < n_ids; i++)
    {
      ClfxDeviceInfo *d = &list->devices[list->n_devices];
      memset (d, 0, sizeof *d);
      d->platform = platform;
      d->id = ids[i];
      d->platform_index = (int) p;
      d->device_index = (int) i;
      memcpy (d->platform_name, pname, sizeof pname);
      memcpy (d->platform_vendor, pvendor, sizeof pvendor);
      memcpy (d->platform_version, pversion, sizeof pversion);
      ok = device_query (d, error);
      if (ok)
        list->n_devices++;
    }
  free (ids);
  return ok;
}

static bool list_all (ClfxDeviceList *list, ClfxError *error);

/* One enumeration at a time: PoCL 6 initialises its devices on the first
 * clGetDeviceIDs, and a second thread asking meanwhile is told there are
 * none (CL_DEVICE_NOT_FOUND; seen with the dialog's worker building
 * ahead while the dialog lists the devices). */
static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;

bool
clfx_device_list (ClfxDeviceList *list, ClfxError *error)
{
  bool ok;

  pthread_mutex_lock (&list_lock);
  ok = list_all (list, error);
  pthread_mutex_unlock (&list_lock);
  return ok;
}

static bool
list_all (ClfxDeviceList *list, ClfxError *error)
{
  cl_platform_id *platforms = NULL;
  cl_uint         n_platforms = 0;
  cl_int          st;

  memset (list, 0, sizeof *list);
  st = clfx_fault_take ("clGetPlatformIDs");
  if (st == CL_SUCCESS)
    st = clGetPlatformIDs (0, NULL, &n_platforms);
  if (st == CL_SUCCESS && n_platforms > 0)
    {
      if (! (platforms = calloc (n_platforms, sizeof *platforms)))
        return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      st = clGetPlatformIDs (n_platforms, platforms, &n_platforms);
    }
  if (st == CL_PLATFORM_NOT_FOUND_KHR || (st == CL_SUCCESS && ! n_platforms))
    {
      snprintf (list->notes, sizeof list->notes,
                "no OpenCL platform found (is an ICD installed under "
                "/etc/OpenCL/vendors?)");
      free (platforms);
      return true;
    }
  if (st != CL_SUCCESS)
    {
      free (platforms);
      return clfx_error_set_cl (error, st, "clGetPlatformIDs", NULL,
                                __FILE__, __LINE__);
    }
  for (cl_uint p = 0; p < n_platforms; p++)
    if (! list_platform (list, platforms[p], p, error))
      {
        free (platforms);
        clfx_device_list_free (list);
        return false;
      }
  free (platforms);
  return true;
}

void
clfx_device_list_free (ClfxDeviceList *list)
{
  if (! list)
    return;
  free (list->devices);
  memset (list, 0, sizeof *list);
}

static bool
contains_nocase (const char *hay, const char *needle)
{
  size_t n = strlen (needle);

  if (n == 0)
    return false;
  for (; *hay; hay++)
    {
      size_t i = 0;
      while (i < n && hay[i]
             && tolower ((unsigned char) hay[i])
                  == tolower ((unsigned char) needle[i]))
        i++;
      if (i == n)
        return true;
    }
  return false;
}

bool
clfx_device_is_reference (const char *request)
{
  return request && strcmp (request, "reference") == 0;
}

bool
clfx_device_native_encode (const ClfxDeviceInfo *d)
{
  return strstr (d->platform_name, "NVIDIA") != NULL;
}

bool
clfx_device_select (const ClfxDeviceList *list, const char *request,
                    const ClfxDeviceInfo **out, ClfxError *error)
{
  const ClfxDeviceInfo *unusable = NULL;
  char                  seen[512] = "";

  *out = NULL;
  if (! request || ! *request)
    request = "auto";
  if (clfx_device_is_reference (request))
    return true;

  if (strcmp (request, "auto") == 0)
    {
      for (size_t i = 0; i < list->n_devices; i++)
        if (list->devices[i].usable
            && strcmp (list->devices[i].type, "gpu") == 0)
          {
            *out = &list->devices[i];
            return true;
          }
      for (size_t i = 0; i < list->n_devices; i++)
        if (list->devices[i].usable)
          {
            *out = &list->devices[i];
            return true;
          }
      return clfx_error_set (error, CLFX_ERR_NO_DEVICE,
                             "no usable OpenCL device%s%s",
                             list->notes[0] ? ": " : "", list->notes);
    }

  /* A number: the device of that index in the list (clfx-bench
   * --list-devices' [N]), as batch jobs pick one device each; identical
   * devices (PoCL's POCL_DEVICES='cpu cpu') have no other name. */
  if (strspn (request, "0123456789") == strlen (request))
    {
      unsigned long k = strtoul (request, NULL, 10);
      if (k >= list->n_devices)
        return clfx_error_set (error, CLFX_ERR_NO_DEVICE,
                               "no OpenCL device %s: %zu device%s (0 to "
                               "%zu)%s%s", request, list->n_devices,
                               list->n_devices == 1 ? "" : "s",
                               list->n_devices ? list->n_devices - 1 : 0,
                               list->notes[0] ? "; " : "", list->notes);
      if (! list->devices[k].usable)
        return clfx_error_set (error, CLFX_ERR_NO_DEVICE,
                               "device %s is '%s', which cannot be used: %s",
                               request, list->devices[k].name,
                               list->devices[k].skip_reason);
      *out = &list->devices[k];
      return true;
    }
  for (size_t i = 0; i < list->n_devices; i++)
    {
      const ClfxDeviceInfo *d = &list->devices[i];
      size_t                len = strlen (seen);

      snprintf (seen + len, sizeof seen - len, "%s'%s' on '%s'",
                len ? ", " : "", d->name, d->platform_name);
      if (contains_nocase (d->platform_name, request)
          || contains_nocase (d->platform_vendor, request)
          || contains_nocase (d->name, request))
        {
          if (d->usable)
            {
              *out = d;
              return true;
            }
          if (! unusable)
            unusable = d;
        }
    }
  if (unusable)
    return clfx_error_set (error, CLFX_ERR_NO_DEVICE,
                           "device '%s' matches '%s', which cannot be used: "
                           "%s", request, unusable->name,
                           unusable->skip_reason);
  return clfx_error_set (error, CLFX_ERR_NO_DEVICE,
                         "no OpenCL device matches '%s' (devices: %s%s%s)",
                         request, seen[0] ? seen : "none",
                         list->notes[0] ? "; " : "", list->notes);
}
