/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-exec-private.h: what the executor's files share: a device's share
 * of the run (DevRun), the helpers of clfx-exec.c that the streamed run
 * (clfx-exec-stream.c) and the tiled run (clfx-exec-tiles.c) call, and
 * the cut of a run into pieces (clfx-exec-plan.c). */
#ifndef CLFX_EXEC_PRIVATE_H
#define CLFX_EXEC_PRIVATE_H

#include "clfx-exec.h"
#include "clfx-graph-private.h"

/* Bytes per streamed band unless CLFX_DEV band-bytes says otherwise: large
 * enough that a band's enqueues (a few microseconds each) are noise next
 * to its transfer (0.6 ms at the H200's 55 GB/s), small enough that the
 * first band's upload and the last band's download, which nothing
 * overlaps, are a small part of the whole. */
#define CLFX_BAND_BYTES_DEFAULT ((size_t) 32 << 20)

typedef struct
{
  ClfxContext      *ctx;
  const ClfxParams *p;
  const ClfxPlan   *plan;
  const ClfxImage  *src;
  ClfxImage        *dst;
  const ClfxTile   *tiles;
  int               n_tiles;
  bool              tiled;
  ClfxProbes       *probes;
  ClfxTimings       t;
  ClfxError         error;
  bool              ok;
} DevRun;

/* ---- clfx-exec.c ---------------------------------------------------------- */

void   exec_release_event (cl_event *ev);
bool   exec_track_kept (ClfxContext *ctx, cl_event *ev, ClfxEventKind kind,
                        const char *tag, ClfxError *error);
bool   exec_wait_event (cl_event ev, const char *what, ClfxError *error);
size_t exec_device_pixel (const ClfxImage *img, bool gray_in_rgba);
bool   exec_check_rows (const unsigned char *p, size_t row, size_t pitch,
                        size_t g, int rows, bool lead, size_t base,
                        ClfxError *error);
void   exec_copy_out_rows (ClfxContext *ctx, ClfxImage *dst, int x, int y,
                           int width, int rows, const unsigned char *p,
                           size_t pitch);
bool   exec_run_tile (ClfxGraph *g, cl_event wait, cl_event *done,
                      ClfxError *error);
cl_mem exec_source_object (ClfxContext *ctx, bool buffer,
                           const cl_image_format *fmt, int width, int height,
                           void *host, size_t pitch, bool writable,
                           ClfxError *error);
bool   exec_write_source_rows (ClfxContext *ctx, cl_mem mem, bool buffer,
                               int width, int y0, int rows, const void *from,
                               size_t from_pitch, size_t dev_row,
                               cl_event *ev, ClfxError *error);

/* ---- the runs and their pieces --------------------------------------------- */

/* r's bands, streamed (clfx-exec-stream.c). */
bool exec_stream_run (DevRun *r);
/* r's tiles, after the variant's statistics passes over them
 * (clfx-exec-tiles.c). */
bool exec_tiles_run (DevRun *r);
/* The pieces of a run of plan on ctx and its n_devices - 1 peers: bands
 * of whole result rows where the whole image fits, else the largest grid
 * of tiles that each fit; *tiled says which (clfx-exec-plan.c). */
ClfxTile *exec_plan_tiles (const ClfxContext *ctx, const ClfxVariant *v,
                           const ClfxPlan *plan, const ClfxImage *src,
                           const ClfxImage *dst, int n_devices, bool *tiled,
                           int *count, ClfxError *error);

#endif
