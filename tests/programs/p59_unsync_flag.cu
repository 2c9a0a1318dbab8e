// An unsynchronised flag: thread 0 fills a value and raises a flag in shared
// memory; the other warps look at the flag without a barrier. In the fixed
// order warp 0 runs first and every reader sees the value, on a GPU (or in
// another order) some see the flag down, or the flag up before the value.
// RUN: set race-check on
// EXPECT-SIM: data race on shared array ready (declared at line 17), element 0: thread 0 writes it at line 21 and thread 32 reads it at line 24
// EXPECT-SIM: a producer and a consumer
// EXPECT-SIM: put __syncthreads() between the write and the read
// EXPECT-SCHEDULE: data race on shared array ready (declared at line 17), element 0
// EXPECT-SCHEDULE: reads it at line 24 and thread 0 writes it at line 21
// EXPECT-SCHEDULE: a producer and a consumer
#include <cstdio>

__global__ void publish(int *out)
{
    __shared__ int value;
    __shared__ int ready;
    int t = threadIdx.x;
    if (t == 0) {
        value = 42;
        ready = 1;
    }
    if (t >= 32)
        out[t - 32] = ready ? value : -1;
}

int main()
{
    int h[32], *d;
    cudaMalloc(&d, sizeof h);
    publish<<<1, 64>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("out[0] = %d\n", h[0]);
    cudaFree(d);
    return 0;
}
