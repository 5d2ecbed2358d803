/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-cl.h: the one place that includes the OpenCL headers, so every file
 * agrees on the API level.  We target 1.2 (images, samplers as objects) and
 * look up newer entry points only where a device reports them. */
#ifndef CLFX_CL_H
#define CLFX_CL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#endif
#include <CL/cl.h>

/* From cl_ext.h (cl_khr_icd); the loader returns it when no ICD is found. */
#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

#endif
