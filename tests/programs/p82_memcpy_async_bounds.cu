// cuda::memcpy_async reads global memory like any load: a block that copies
// a whole tile of 64 floats from the last, shorter part of an array (1000
// floats) reads past its end. On a GPU nothing stops it; the simulator's
// memory check sees each piece of the copy and names the line, the thread
// and how far past the allocation it went. The fixed program copies only
// what is there and fills the rest.
// EXPECT-SIM: tail: block 15, thread 10, at line 29 reads 16 bytes at byte 4000 of in (4000 bytes from cudaMalloc at line 42)
// EXPECT-SIM: first launch: cudaErrorIllegalAddress
// MEMCHECK
// SIM-ONLY
#include <cuda/barrier>
#include <cstdio>

// Idea: an asynchronous copy is still an access: stay inside the array.
__global__ void tail(const float *in, float *out, int n)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ alignas(16) float tile[64];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    int base = blockIdx.x * 64;
#ifdef CORRECT
    if (base + threadIdx.x * 4 + 4 <= n)
        cuda::memcpy_async(&tile[threadIdx.x * 4], in + base + threadIdx.x * 4, cuda::aligned_size_t<16>(16), bar);
    else
        for (int i = 0; i < 4; i++) tile[threadIdx.x * 4 + i] = 0;
#else
    if (threadIdx.x < 16)
        cuda::memcpy_async(&tile[threadIdx.x * 4], in + base + threadIdx.x * 4, cuda::aligned_size_t<16>(16), bar);
#endif
    bar.arrive_and_wait();
    float s = 0;
    for (int i = 0; i < 4; i++) s += tile[threadIdx.x * 4 + i];
    out[blockIdx.x * 16 + threadIdx.x] = s;
}

int main()
{
    const int n = 1000;
    float h[n], *in, *out, r[256];
    for (int i = 0; i < n; i++) h[i] = 1.0f;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, 256 * sizeof(float));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    tail<<<16, 16>>>(in, out, n);
    printf("first launch: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    float s = 0;
    for (int i = 0; i < 250; i++) s += r[i];
    printf("sum of the first 250 partial sums: %.1f\n", s);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
