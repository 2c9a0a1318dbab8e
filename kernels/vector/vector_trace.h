/* vector_trace.h - the vector family's trace vocabulary, public: the marks
 * its distance kernels record, for the renderer of a sum per block in shared
 * memory (viz/render_blocksum.c) and the tests. */
#ifndef GPULAB_VECTOR_TRACE_H
#define GPULAB_VECTOR_TRACE_H

/* TRACE_MARK kinds of the distance kernels: a block's partial sum
 * (b = blockIdx.x, v = the sum, v2 = the slots it adds up). */
#define DIST_MARK_PARTIAL 1

#endif
