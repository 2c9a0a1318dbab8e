// A float4 load from an address that is not a multiple of 16: `in + 1` is
// 4 bytes past a 16-byte boundary. A GPU loads a float4 with one 16-byte
// instruction that needs a 16-byte aligned address: every thread faults and
// the launch fails with cudaErrorMisalignedAddress. The simulator says so
// for each thread, grouped.
// EXPECT-SIM: sum4: block 0, thread 0, at line 16 reads 16 bytes at byte 4 of in (4160 bytes from cudaMalloc at line 25), an address that is not a multiple of 16: on a GPU a 16-byte access must be aligned to 16 bytes, and the launch fails with cudaErrorMisalignedAddress
// EXPECT-SIM: [the same error in 256 threads of 1 block: block 0 thread 0, block 0 thread 1, block 0 thread 2, block 0 thread 3, ...]
// EXPECT: sum4: cudaErrorMisalignedAddress
#include <cstdio>
#ifndef SHIFT
#define SHIFT 1
#endif

__global__ void sum4(const float *in, float *out)
{
    float4 v = reinterpret_cast<const float4 *>(in + SHIFT)[threadIdx.x];
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

int main()
{
    const int n = 1040;
    float h[n], *in, *out;
    for (int i = 0; i < n; i++) h[i] = 1;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, 256 * sizeof(float));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    sum4<<<1, 256>>>(in, out);
    printf("sum4: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(out);
    return 0;
}
// MEMCHECK: what it expects comes from the simulator's memory checks
