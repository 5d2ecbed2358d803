/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-program.h: kernel sources (embedded or from CLFX_KERNEL_DIR), the
 * cache key and the on-disk binary cache. */
#ifndef CLFX_PROGRAM_H
#define CLFX_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clfx-error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  const char *name;     /* "resize.cl", "clfx-common.h" */
  const char *contents;
} ClfxKernelFile;

/* Generated at build time from kernels/ (tools/embed-kernels.py). */
extern const ClfxKernelFile clfx_kernel_files[];

/* The full text of program `name` ("resize") with every #include "x"
 * replaced by the file's text (each file once).  Read from
 * $CLFX_KERNEL_DIR when set, else from the embedded copy.  free() it. */
char *clfx_program_source (const char *name, ClfxError *error);
/* The same for one kernel file by its file name ("clfx-srgb.h"): for a
 * tool that builds a kernel of its own around the kernels' helpers. */
char *clfx_kernel_source (const char *file, ClfxError *error);

/* 64-bit FNV-1a, chained: pass the previous value as `h` (start with
 * CLFX_HASH_INIT). */
#define CLFX_HASH_INIT 0xcbf29ce484222325ULL
uint64_t clfx_hash (uint64_t h, const void *data, size_t len);
uint64_t clfx_hash_str (uint64_t h, const char *s);

/* Binary cache entry: a header (magic, key, payload length and payload
 * hash) and the payload.  Load returns false with a reason when the entry
 * is missing, truncated, for another key or corrupt; the caller then
 * rebuilds and stores a fresh entry.  Store writes a temporary file and
 * renames it, so readers never see half an entry. */
bool clfx_cache_load  (const char *path, uint64_t key, unsigned char **data,
                       size_t *len, char *why, size_t why_len);
/* Loading an entry hands its bytes to the driver, which may crash on
 * them (a binary that passes our checks can still be malformed for the
 * driver): begin marks the entry as being loaded (a file beside it holding
 * this process's id, made exclusively), end clears the mark.  begin
 * refuses, with the reason, an entry whose mark a process left that no
 * longer runs (its load never finished: the entry and the mark are
 * deleted, so one crash costs one run, not every run after) or that
 * another process is loading now (build from source instead).  Threads
 * of one process loading the same entry (device all, a program on two
 * devices of a kind) take turns: begin waits for the other's end. */
bool clfx_cache_load_begin (const char *path, char *why, size_t why_len);
void clfx_cache_load_end   (const char *path);
bool clfx_cache_store (const char *path, uint64_t key,
                       const unsigned char *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
