/* clfx-parallel.h: split rows over threads for the CPU reference paths. */
#ifndef CLFX_PARALLEL_H
#define CLFX_PARALLEL_H

#ifdef __cplusplus
extern "C" {
#endif

/* Calls fn (data, y0, y1) for disjoint row ranges covering [0, rows), on
 * up to the number of online CPUs (or $CLFX_THREADS) threads, and waits. */
void clfx_parallel_rows (int rows, void (*fn) (void *data, int y0, int y1),
                         void *data);

#ifdef __cplusplus
}
#endif

#endif
