// A divergent barrier written on one line: threads 0-15 wait at the first
// __syncthreads(), threads 16-31 at the second. They are two barriers, and
// CUDA requires every thread of the block to reach the same one: on a GPU
// the result is undefined (a hang, or a barrier that lets threads through
// early). Barriers are told apart by where they are written, not by line.
// EXPECT-SIM: split: block 0: threads 0-15 wait at __syncthreads (line 20) while threads 16-31 wait at line 20, another barrier written on the same line: every thread of a block must reach the same barrier
// EXPECT-SIM: split: cudaErrorLaunchFailure
#include <cstdio>
#ifndef CORRECT
#define WHO (t < 16)
#else
#define WHO true
#endif

__global__ void split(int *out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = t;
    if (WHO) { __syncthreads(); } if (!WHO) { __syncthreads(); }
    out[t] = s[31 - t];
}

int main()
{
    int *d, h[32];
    cudaMalloc(&d, sizeof h);
    split<<<1, 32>>>(d);
    cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("split: %s\n", cudaGetErrorName(e));
    cudaFree(d);
    return 0;
}
