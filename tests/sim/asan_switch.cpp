/* asan_switch.cpp - the sanitizer build (make asan) checks a GPU thread's
 * stack across the points where the simulator switches fibers: each thread
 * keeps a local array across two __syncthreads and a warp shuffle, then
 * reads element argv[1] of it. 3 is inside (no report: the switches leave
 * no stale shadow behind); 4 is one past the end, which AddressSanitizer
 * must report as a stack-buffer-overflow (the switches keep the frames' red
 * zones: while a switch cleared the stack's shadow, this read went unseen).
 * Compiled as a kernel source is (-DGPULAB_SIM). */
#define GPULAB_SIM 1
#include "kernels/kern.h"

#include <stdio.h>
#include <stdlib.h>

#include "tests/sim/simtest_job.h"

static __global__ void keep_k(int *out, int idx)
{
    volatile int local[4];
    for (int k = 0; k < 4; k++) local[k] = (int)threadIdx.x + k;
    __syncthreads();
    int v = __shfl_down_sync(0xffffffffu, (int)threadIdx.x, 1);
    __syncthreads();
    volatile int *p = local; /* through a pointer: for AddressSanitizer, not UBSan's bounds check */
    out[blockIdx.x * blockDim.x + threadIdx.x] = p[idx] + v;
}

int main(int argc, char **argv)
{
    int idx = argc > 1 ? atoi(argv[1]) : 0;
    int *d, out[2 * 64];
    lab_job *j = fresh_job(0);
    if (cudaMalloc(&d, sizeof out) != cudaSuccess) return 1;
    if (sim_launch(j, "keep_k", __FILE__, __LINE__, dim3(2), dim3(64), 0, [=]() { keep_k(d, idx); }) != 0) {
        printf("launch failed: %s\n", j->err);
        return 1;
    }
    if (cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    cudaFree(d);
    /* thread 0 of block 1 with idx 3: local[3] = 0 + 3, lane 1's index 1 */
    printf("out[64] = %d\n", out[64]);
    return out[64] == 3 + 1 ? 0 : 1;
}
