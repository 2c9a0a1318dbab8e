// A tensor-core fragment loaded from a pointer 8 bytes past a 16-byte
// boundary: the hardware loads fragments in 16-byte pieces, and CUDA leaves
// the result undefined. The simulator fails the launch with
// cudaErrorMisalignedAddress and names the call, its line and the rule.
// SIM-ONLY
// EXPECT: exit status 1
// EXPECT: wmma::load_matrix_sync (line 23) with pointer
// EXPECT: the pointer must be a multiple of 16 bytes
// EXPECT: misaligned address
#include <cuda_fp16.h>
#include <mma.h>
#include <cstdio>
#include <cstdlib>

using namespace nvcuda;

// Idea: the tile starts 8 bytes (4 halves) into the allocation.
__global__ void tile(const half *a, const half *b, float *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::fill_fragment(acc, 0.0f);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

int main()
{
    half h[260];
    for (int i = 0; i < 260; i++) h[i] = __float2half((float)(i % 5 - 2));
    half *da;
    float *dd;
    cudaMalloc(&da, sizeof h);
    cudaMalloc(&dd, 256 * sizeof(float));
    cudaMemcpy(da, h, sizeof h, cudaMemcpyHostToDevice);
    tile<<<1, 32>>>(da + 4, da, dd);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    cudaFree(da);
    cudaFree(dd);
    return e == cudaSuccess ? 0 : 1;
}
