/* nocuda.h - the few CUDA runtime names the host C files use, for a gpulab
 * built without the CUDA toolkit (-DGPULAB_CUDA=OFF). Such a build has no
 * GPU (kernels/device/device_nocuda.c: lab_gpu_available() is always 0), so
 * every path that reaches these calls is behind a check that fails first;
 * should one be reached, it answers cudaErrorNoDevice. With the toolkit,
 * its own header is included instead. */
#ifndef GPULAB_DEVICE_NOCUDA_H
#define GPULAB_DEVICE_NOCUDA_H

#include <stddef.h>

typedef enum cudaError { cudaSuccess = 0, cudaErrorNoDevice = 100 } cudaError_t;
enum cudaDeviceAttr { cudaDevAttrReservedSharedMemoryPerBlock = 111 };
struct cudaFuncAttributes {
    size_t sharedSizeBytes, localSizeBytes;
    int maxThreadsPerBlock, numRegs, maxDynamicSharedSizeBytes;
};

static inline const char *cudaGetErrorString(cudaError_t e)
{
    (void)e;
    return "gpulab was built without the CUDA toolkit";
}
static inline cudaError_t cudaGetLastError(void) { return cudaSuccess; }
static inline cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int dev)
{
    (void)v, (void)a, (void)dev;
    return cudaErrorNoDevice;
}
static inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *func)
{
    (void)a, (void)func;
    return cudaErrorNoDevice;
}
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int block,
                                                                        size_t dyn)
{
    (void)n, (void)func, (void)block, (void)dyn;
    return cudaErrorNoDevice;
}

#endif
