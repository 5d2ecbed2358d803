/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-graph-private.h: the graph's state, shared by clfx-graph.c (what
 * variants call) and the clfx-exec*.c files (the executors that drive
 * them). */
#ifndef CLFX_GRAPH_PRIVATE_H
#define CLFX_GRAPH_PRIVATE_H

#include "clfx-context.h"
#include "clfx-graph.h"

typedef struct
{
  char   name[48];
  cl_mem mem;
  size_t bytes;       /* buffers */
  int    width, height; /* images */
  bool   table;       /* uploaded once per run */
} ClfxGraphMem;

struct ClfxGraph
{
  ClfxContext       *ctx;
  const ClfxVariant *variant;
  const ClfxParams  *params;
  const ClfxPlan    *plan;
  const ClfxImage   *src;
  const ClfxImage   *dst;
  ClfxTile           tile;
  /* The current source image and its CLFX_SRC_ARGS. */
  cl_mem             src_mem;
  cl_int4            src_view;
  cl_int             src_flags;
  cl_long            src_pitch;   /* buffer form: bytes per row */
  bool               src_buffer;  /* the source is a buffer, not an image */
  /* Kernels decode 16-bit sRGB codes through the context's table
   * (clfx-io.h, CLFX_DECODED_AT_LOAD): the source's fifth argument. */
  bool               src_lut;
  /* The current result buffer and its CLFX_DST_ARGS (rect = tile.out). */
  cl_mem             dst_mem;
  cl_long            dst_offset, dst_pitch;
  /* Build options from the images' own formats. */
  char               options[256];
  int                rows_per_item;
  ClfxGraphMem      *mems;
  int                n_mems, cap_mems;
  /* Objects replaced by a larger one or a later piece's: released when
   * the run ends, not while queued kernels may still read them (some
   * drivers, NVIDIA's, wait for those kernels in the release, which would
   * stall the stream). */
  cl_mem            *retired;
  int                n_retired, cap_retired;
  /* CPU devices: the context's host blocks under this run's memory
   * objects (clfx_scratch_take), given back when the run ends. */
  void             **scratch;
  int                n_scratch, cap_scratch;
  ClfxProbes        *probes; /* NULL: probes are not recorded */
  /* Passes over the tiles (clfx_graph_pass): -1 in one piece. */
  int                pass;
  int                tile_index;
};

/* Sets up g for a run of plan's variant on ctx; gray_in_rgba and
 * src_buffer say how the source is carried. */
void clfx_graph_init (ClfxGraph *g, ClfxContext *ctx, const ClfxParams *p,
                      const ClfxPlan *plan, const ClfxImage *src,
                      const ClfxImage *dst, bool gray_in_rgba,
                      bool src_buffer, ClfxProbes *probes);

/* Whether ctx reads sources from buffers (CPU devices, or CLFX_DEV source=). */
bool clfx_context_source_buffer (const ClfxContext *ctx);
/* Releases the intermediates (OpenCL keeps them alive until the queued
 * commands that use them complete). */
void clfx_graph_release (ClfxGraph *g);

#endif
