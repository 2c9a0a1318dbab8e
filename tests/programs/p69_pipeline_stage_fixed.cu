// The twin of p69: each consumer reads its element of the stage after
// consumer_wait, and the producers copy into a stage again only after
// producer_acquire (the consumers released it): the stages' phases order
// every copy before its reads and every read before the next copy. And a
// cuda::barrier's completion function, which runs after every arrival of
// the phase and before any wait for it returns, reads what all wrote.
// RUN: set race-check on
// EXPECT: producer/consumer: 36508 of 36508
// EXPECT: completion saw 64, then 64
// REJECT: data race
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void roles(const int *in, int *out, int tiles)
{
    constexpr int stages = 2;
    __shared__ int tile[stages][96];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
    auto block = cg::this_thread_block();
    bool producer = threadIdx.x < 32;
    auto pipe = cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer
                                                            : cuda::pipeline_role::consumer);
    int sum = 0;
    for (int i = 0; i < tiles; i++) {
        int st = i % stages;
        if (producer) {
            pipe.producer_acquire();
            for (int j = threadIdx.x; j < 96; j += 32)
                cuda::memcpy_async(&tile[st][j], &in[i * 96 + j], sizeof(int), pipe);
            pipe.producer_commit();
        } else {
            pipe.consumer_wait();  // the stage's copies are complete now
            sum += tile[st][threadIdx.x - 32];
            pipe.consumer_release();
        }
    }
    atomicAdd(out, sum);
}

struct count_ones {
    int *vals;  // 64 values, then their sum
    __device__ void operator()() noexcept
    {
        int s = 0;
        for (int i = 0; i < 64; i++) s += vals[i];
        vals[64] = s;
    }
};

__global__ void completion(int *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block, count_ones> bar;
    __shared__ int vals[65];
    if (threadIdx.x == 0) init(&bar, blockDim.x, count_ones{vals});
    __syncthreads();
    vals[threadIdx.x] = 1;
    bar.arrive_and_wait();  // the completion adds them up
    if (threadIdx.x == 0) out[0] = vals[64];
    bar.arrive_and_wait();
    if (threadIdx.x == 0) out[1] = vals[64];
}

int main()
{
    const int tiles = 8, n = tiles * 96;
    int h[n], *in, *out, r = 0;
    long want = 0;
    for (int i = 0; i < n; i++) {
        h[i] = i % 97;
        want += h[i];
    }
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(out, 0, sizeof(int));
    roles<<<1, 128>>>(in, out, tiles);
    cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("producer/consumer: %d of %ld\n", r, want);
    int two[2];
    int *d2;
    cudaMalloc(&d2, sizeof two);
    completion<<<1, 64>>>(d2);
    cudaMemcpy(two, d2, sizeof two, cudaMemcpyDeviceToHost);
    printf("completion saw %d, then %d\n", two[0], two[1]);
    cudaFree(d2);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
