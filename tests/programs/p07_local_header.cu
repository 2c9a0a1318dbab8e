// A local header with the HANDLE_ERROR macro of CUDA by Example and a
// __host__ __device__ helper; the error it reports names this file's line.
// EXPECT: squares 0 1 4 9 16
// EXPECT: p07_local_header.cu at line 28
// EXPECT: exit status 1
#include "p07_util.cuh"

__global__ void squares(int *out)
{
    out[threadIdx.x] = square(threadIdx.x);
}

int main()
{
    int *d, h[5];
    HANDLE_ERROR(cudaMalloc((void **)&d, sizeof h));
    squares<<<1, 5>>>(d);
    HANDLE_ERROR(cudaGetLastError());
    HANDLE_ERROR(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("squares");
    for (int i = 0; i < 5; i++) printf(" %d", h[i]);
    printf("\n");
    fflush(stdout);
    /* copying more than the allocation holds fails on the GPU too */



    HANDLE_ERROR(cudaMemcpy(h, d, 1000, cudaMemcpyDeviceToHost));
    return 0;
}
