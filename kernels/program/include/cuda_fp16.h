/* cuda_fp16.h of a student's program on the simulator: __half and __half2
 * are gpulab's (kernels/program/progrt.h); the header's short names come
 * with it, so a program that does not include it may name a kernel half. */
#include "kernels/program/progrt.h"
#ifndef __CUDA_FP16_H__
#define __CUDA_FP16_H__
typedef ::gpulab_sim::__half half;
typedef ::gpulab_sim::__half2 half2;
#endif
