// Thread 0 starts an asynchronous copy of the whole tile into shared
// memory; the other threads read the tile without waiting at the barrier.
// On a GPU they may read the tile before the copy lands (old values); on
// the simulator the copy is made at once, so the output looks right, and
// race check says what is wrong: the reads are not ordered after the copy's
// writes. The fixed program waits (arrive_and_wait) before reading.
// RUN: set race-check on
// EXPECT-SIM: data race on shared array tile (declared at line 17), element 2: thread 0 writes it at line 20 and thread 1 reads it at line 25
// SIM-ONLY
#include <cuda/barrier>
#include <cstdio>

// Idea: an asynchronous copy's data may be read only after its barrier phase.
__global__ void shift(const int *in, int *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ alignas(16) int tile[64];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    if (threadIdx.x == 0) cuda::memcpy_async(tile, in, cuda::aligned_size_t<16>(sizeof(int) * 64), bar);
#ifdef CORRECT
    bar.arrive_and_wait();
    out[threadIdx.x] = tile[(threadIdx.x + 1) % 64];
#else
    out[threadIdx.x] = tile[(threadIdx.x + 1) % 64];
    bar.arrive_and_wait();
#endif
}

int main()
{
    int h[64], *in, *out;
    for (int i = 0; i < 64; i++) h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    shift<<<1, 64>>>(in, out);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("%s: out[0] %d, out[63] %d\n", cudaGetErrorName(cudaGetLastError()), h[0], h[63]);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
