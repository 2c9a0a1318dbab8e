// The twin of p154: the pop reads the top index with an atomic
// (atomicAdd(&top, 0)), so every access to it is atomic and none races.
// RUN: set race-check on
// EXPECT: popped 64 items, sum 4032
// REJECT: data race
#include <cstdio>

__global__ void push_pop(int *out)
{
    __shared__ int top;
    __shared__ int items[64];
    if (threadIdx.x == 0) top = -1;
    __syncthreads();
    /* push */
    int i = atomicAdd(&top, 1);
    items[i + 1] = 2 * (int)threadIdx.x;
    __syncthreads();
    /* pop: the top read with an atomic */
    int e = -1;
    if (atomicAdd(&top, 0) >= 0) {
        int idx = atomicAdd(&top, -1);
        if (idx >= 0) e = items[idx];
    }
    out[threadIdx.x] = e;
}

int main()
{
    int *d, h[64];
    cudaMalloc(&d, sizeof h);
    push_pop<<<1, 64>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    int n = 0, sum = 0;
    for (int k = 0; k < 64; k++)
        if (h[k] >= 0) {
            n++;
            sum += h[k];
        }
    printf("popped %d items, sum %d\n", n, sum);
    return 0;
}
