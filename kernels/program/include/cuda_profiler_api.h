/* cuda_profiler_api.h of a student's program on the simulator: profiling
 * marks have nothing to mark on the simulator, so they succeed and do
 * nothing, as with no profiler attached. */
#include "kernels/program/progrt.h"
#ifndef __CUDA_PROFILER_API_H__
#define __CUDA_PROFILER_API_H__
static inline cudaError_t cudaProfilerStart(void) { return ::gpulab_sim::sim_sticky_error(); }
static inline cudaError_t cudaProfilerStop(void) { return ::gpulab_sim::sim_sticky_error(); }
#endif
