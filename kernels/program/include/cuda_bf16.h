/* cuda_bf16.h of a student's program on the simulator: __nv_bfloat16 and
 * __nv_bfloat162 are gpulab's (kernels/sim/shim_fp.h), through progrt.h. */
#include "kernels/program/progrt.h"
#ifndef __CUDA_BF16_H__
#define __CUDA_BF16_H__
typedef ::gpulab_sim::__nv_bfloat16 nv_bfloat16;
typedef ::gpulab_sim::__nv_bfloat162 nv_bfloat162;
#endif
