/* gpu_fns.h - the GPU entry points a family's table of variants names, in a
 * build with the CUDA toolkit and in one without (-DGPULAB_CUDA=OFF, which
 * defines GPULAB_NO_CUDA). Without it a family has its simulator build and
 * its CPU rows only: a kernel row names no _gpu or _gput entry, a library
 * row (thrust, CUB, cuBLAS) none at all (LAB_GPU_FN), and the device layer
 * (kernels/device/device_nocuda.c) says why there is no GPU. Included by
 * the families' *_algo.c after kernels/family.h. */
#ifndef GPULAB_GPU_FNS_H
#define GPULAB_GPU_FNS_H

#include "kernels/family.h"

#ifdef GPULAB_NO_CUDA
#  undef LAB_DECLARE_KERNEL
#  undef LAB_KERNEL_FNS
#  define LAB_DECLARE_KERNEL(name) int name##_sim(lab_job *job)
#  define LAB_KERNEL_FNS(name) .gpu = NULL, .gpu_traced = NULL, .sim = name##_sim
#  define LAB_GPU_FN(fn) NULL
#else
#  define LAB_GPU_FN(fn) fn
#endif

#endif
