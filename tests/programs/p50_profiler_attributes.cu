// cudaProfilerStart/Stop mark the part a profiler records (they succeed
// with no profiler attached), and cudaFuncGetAttributes reports what a
// kernel may be launched with.
// EXPECT: profiler start: no error, stop: no error
// EXPECT: scale: at most 1024 threads per block
// EXPECT: 0 1 2 3 scaled: 0 3 6 9
// EXPECT: exit status 0
#include <cstdio>
#include <cuda_profiler_api.h>

__global__ void scale(float *p, float by) { p[threadIdx.x] *= by; }

int main()
{
    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, scale);
    printf("scale: at most %d threads per block\n", attr.maxThreadsPerBlock);
    float h[4] = {0, 1, 2, 3}, *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    cudaError_t a = cudaProfilerStart();
    scale<<<1, 4>>>(d, 3.0f);
    cudaError_t b = cudaProfilerStop();
    printf("profiler start: %s, stop: %s\n", cudaGetErrorString(a), cudaGetErrorString(b));
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("0 1 2 3 scaled: %g %g %g %g\n", h[0], h[1], h[2], h[3]);
    return 0;
}
