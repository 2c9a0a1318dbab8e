// The runtime's error codes: a launch with a block of 2048 threads in x is
// refused (CUDA 13 on an H200 says invalid argument, and the error lasts only
// until read), a copy past the end of an allocation is refused, and the names
// and strings of the codes.
// EXPECT: launch: cudaErrorInvalidValue (invalid argument)
// EXPECT: peek again: cudaErrorInvalidValue, then get: cudaSuccess
// EXPECT: copy: cudaErrorInvalidValue
// EXPECT: after: no error
#include <cstdio>

__global__ void nothing(int *p) { if (p) p[threadIdx.x] = 1; }

int main()
{
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    nothing<<<1, 2048>>>(d);
    cudaError_t e = cudaPeekAtLastError();
    printf("launch: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    e = cudaPeekAtLastError();
    cudaError_t g = cudaGetLastError();
    printf("peek again: %s, then get: %s\n", cudaGetErrorName(e), cudaGetErrorName(cudaGetLastError()));
    (void)g;
    int h[128];
    e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("copy: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    nothing<<<1, 64>>>(d);
    printf("after: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
