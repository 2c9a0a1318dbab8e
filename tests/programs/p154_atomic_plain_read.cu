// A stack in shared memory, as the newdelete sample's Vector has it: the
// threads push with atomicAdd, then each pops after a plain read of the
// top index (`if (top >= 0)`). The read is not atomic, so it races with the
// other threads' atomicAdd(&top, -1): an atomic is atomic only against
// other atomics. The result comes out right here, as it does on the GPU;
// the race check names the pair and says how to read it.
// RUN: set race-check on
// EXPECT: popped 64 items, sum 4032
// EXPECT-SIM: data race on shared array top
// EXPECT-SIM: atomically updates it at line 28
// EXPECT-SIM: and thread 1 reads it at line 27
// EXPECT-SIM: read it with an atomic too (atomicAdd(&x, 0), or a cuda::atomic_ref load)
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
    /* pop: a plain read of the top before the atomic */
    int e = -1;
    if (top >= 0) {
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
