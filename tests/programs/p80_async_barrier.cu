// libcu++'s arrive/wait barrier in shared memory, as the CUDA Programming
// Guide uses it: one thread initialises it, every thread arrives and waits
// (split into arrive, other work, wait), a phase with a completion function,
// arrive_and_drop leaving later phases, and cuda::memcpy_async of tiles into
// shared memory completed through the barrier (aligned_size_t sizes, one
// thread alone and the whole block as a group).
// EXPECT: tile sums: 8128 24512 40896 57280
// EXPECT: split arrive/wait: 2016 2016
// EXPECT: completion ran 3 times, last phase saw 64
// EXPECT: after drop: 32 threads left, phase 2 sum 496
// EXPECT: block copy: 130048 first 0 last 2047
// EXPECT: exit status 0
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cstdio>

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// Idea: memcpy_async moves a tile from global to shared memory; the barrier
// phase completes when every thread arrived and the copies landed.
__global__ void tile_sums(const int *in, int *out)
{
    __shared__ block_barrier bar;
    __shared__ alignas(16) int tile[128];
    __shared__ int partial[128];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    // each thread copies four ints (16 bytes)
    const int *src = in + blockIdx.x * 128 + threadIdx.x * 4;
    if (threadIdx.x < 32)
        cuda::memcpy_async(&tile[threadIdx.x * 4], src, cuda::aligned_size_t<16>(16), bar);
    bar.arrive_and_wait();
    partial[threadIdx.x] = tile[threadIdx.x];
    bar.arrive_and_wait();
    for (int s = 64; s > 0; s /= 2) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        bar.arrive_and_wait();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

// Idea: arrive, do independent work, then wait for the others' arrivals.
__global__ void split(int *out)
{
    __shared__ block_barrier bar;
    __shared__ int vals[64];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    vals[threadIdx.x] = threadIdx.x;
    block_barrier::arrival_token t = bar.arrive();
    int mine = threadIdx.x * 2;           // work that needs no one else
    bar.wait(std::move(t));
    int sum = 0;
    for (int i = 0; i < 64; i++) sum += vals[i];
    if (threadIdx.x == 0) out[0] = sum;
    if (threadIdx.x == 63) out[1] = sum + mine - 126;
}

struct on_phase {
    int *count;
    int *seen;
    const int *vals;
    __device__ void operator()() noexcept
    {
        // runs once per phase, by one thread, before any waiter goes on
        int s = 0;
        for (int i = 0; i < 64; i++) s += vals[i];
        *seen = s;
        (*count)++;
    }
};

// Idea: a completion function runs once when a phase completes.
__global__ void completion(int *out)
{
    using cbar = cuda::barrier<cuda::thread_scope_block, on_phase>;
    __shared__ cbar bar;
    __shared__ int vals[64];
    __shared__ int count, seen;
    if (threadIdx.x == 0) {
        count = 0;
        init(&bar, blockDim.x, on_phase{&count, &seen, vals});
    }
    __syncthreads();
    for (int phase = 0; phase < 3; phase++) {
        vals[threadIdx.x] = phase == 2 ? 1 : 0;
        bar.arrive_and_wait();
    }
    if (threadIdx.x == 0) {
        out[0] = count;
        out[1] = seen;
    }
}

// Idea: arrive_and_drop: a thread leaves, later phases expect one fewer.
__global__ void drop(int *out)
{
    __shared__ block_barrier bar;
    __shared__ int vals[64];
    __shared__ int left;
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
        left = 0;
    }
    __syncthreads();
    vals[threadIdx.x] = threadIdx.x;
    if (threadIdx.x >= 32) {
        bar.arrive_and_drop();
        return;
    }
    bar.arrive_and_wait();          // phase 1: all 64
    atomicAdd(&left, 1);
    bar.arrive_and_wait();          // phase 2: the 32 that stayed
    int s = 0;
    for (int i = 0; i < 32; i++) s += vals[i];
    if (threadIdx.x == 0) {
        out[0] = left;
        out[1] = s;
    }
}

// Idea: the whole block shares one memcpy_async (cooperative groups).
__global__ void block_copy(const int *in, long long *out)
{
    __shared__ block_barrier bar;
    __shared__ alignas(16) int buf[2048];
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, buf, in, sizeof(buf), bar);
    bar.arrive_and_wait();
    if (threadIdx.x == 0) {
        long long s = 0;
        for (int i = 0; i < 2048; i++) s += buf[i] % 128;
        out[0] = s;
        out[1] = buf[0];
        out[2] = buf[2047];
    }
}

int main()
{
    int h[2048];
    for (int i = 0; i < 2048; i++) h[i] = i;
    int *d_in, *d_out;
    long long *d_ll;
    cudaMalloc(&d_in, sizeof h);
    cudaMalloc(&d_out, 8 * sizeof(int));
    cudaMalloc(&d_ll, 3 * sizeof(long long));
    cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
    int r[8];

    tile_sums<<<4, 128>>>(d_in, d_out);
    cudaMemcpy(r, d_out, 4 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("tile sums: %d %d %d %d\n", r[0], r[1], r[2], r[3]);

    split<<<1, 64>>>(d_out);
    cudaMemcpy(r, d_out, 2 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("split arrive/wait: %d %d\n", r[0], r[1]);

    completion<<<1, 64>>>(d_out);
    cudaMemcpy(r, d_out, 2 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("completion ran %d times, last phase saw %d\n", r[0], r[1]);

    drop<<<1, 64>>>(d_out);
    cudaMemcpy(r, d_out, 2 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("after drop: %d threads left, phase 2 sum %d\n", r[0], r[1]);

    long long ll[3];
    block_copy<<<1, 256>>>(d_in, d_ll);
    cudaMemcpy(ll, d_ll, sizeof ll, cudaMemcpyDeviceToHost);
    printf("block copy: %lld first %lld last %lld\n", ll[0], ll[1], ll[2]);

    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_ll);
    return 0;
}
