// A block's pipeline with two stages: warp 0 copies tiles into shared
// memory (memcpy_async, producer_commit), the other warps add them up
// (consumer_wait, consumer_release). Here a consumer reads its element of
// the stage before consumer_wait: before the producers' commit of that
// stage completed, so it may read the old tile (or nothing yet). On the
// simulator the copy is made when it is issued, so the sum may look right;
// the race check says what is wrong.
// RUN: set race-check on
// EXPECT-SIM: block 0: data race on shared array tile (declared at line 22), element [0][0]: thread 0 writes it at line 34 and thread 32 reads it at line 37
// EXPECT-SIM: read only after waiting for the phase the writer arrived at (consumer_wait after
// EXPECT-SCHEDULE: data race on shared array tile (declared at line 22), element
// EXPECT-SCHEDULE: read only after waiting for the phase the writer arrived at
#include <cooperative_groups.h>
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
            int v = tile[st][threadIdx.x - 32];  // too early: before the stage's wait
            pipe.consumer_wait();
            sum += v;
            pipe.consumer_release();
        }
    }
    atomicAdd(out, sum);
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
    cudaFree(in);
    cudaFree(out);
    return 0;
}
