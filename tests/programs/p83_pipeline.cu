// Staged copies into shared memory: a thread's own cuda::pipeline with two
// stages in flight, a block's pipeline whose producer warp fills stages that
// three consumer warps use (pipeline_shared_state, producer and consumer
// roles), cooperative_groups::memcpy_async with cg::wait, and the
// __pipeline_memcpy_async primitives.
// EXPECT: thread pipeline: 130816 130816
// EXPECT: producer/consumer: 1569792 of 1569792
// EXPECT: cg copy: 261632
// EXPECT: primitives: 32385 zero-filled 0
// EXPECT: no error
// EXPECT: exit status 0
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cstdio>

namespace cg = cooperative_groups;

// Idea: double buffering: copy stage s+1 while computing on stage s.
__global__ void own_pipeline(const int *in, int *out, int stages)
{
    __shared__ int buf[2][128];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const auto one = cuda::aligned_size_t<alignof(int)>(sizeof(int));
    int t = threadIdx.x, sum = 0;
    pipe.producer_acquire();
    cuda::memcpy_async(&buf[0][t], &in[t], one, pipe);
    pipe.producer_commit();
    for (int s = 0; s < stages; s++) {
        if (s + 1 < stages) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[(s + 1) % 2][t], &in[(s + 1) * 128 + t], one, pipe);
            pipe.producer_commit();
            cuda::pipeline_consumer_wait_prior<1>(pipe);
        } else {
            cuda::pipeline_consumer_wait_prior<0>(pipe);
        }
        sum += buf[s % 2][t];
        pipe.consumer_release();
    }
    atomicAdd(out, sum);
}

// Idea: one warp produces, the others consume, stage by stage.
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
            pipe.consumer_wait();
            sum += tile[st][threadIdx.x - 32];
            pipe.consumer_release();
        }
    }
    atomicAdd(out, sum);
}

// Idea: the block shares one copy; cg::wait waits for it and syncs.
__global__ void group_copy(const int *in, int *out)
{
    __shared__ int buf[1024];
    auto block = cg::this_thread_block();
    cg::memcpy_async(block, buf, in, sizeof(int) * 1024);
    cg::wait(block);
    int s = 0;
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s += buf[i];
    atomicAdd(out, s);
}

// Idea: the sm_80 primitives: 16-byte copies, the last 4 bytes zero-filled.
__global__ void primitives(const int *in, int *out)
{
    __shared__ alignas(16) int buf[256];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&buf[t * 4], &in[t * 4], 16, t == 63 ? 4 : 0);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    if (t == 0) {
        int s = 0;
        for (int i = 0; i < 256; i++) s += buf[i];
        out[0] = s;
        out[1] = buf[255];
    }
}

int main()
{
    static int h[8 * 128 * 96];
    for (int i = 0; i < 8 * 128 * 96; i++) h[i] = i % 512;
    int *d, *o, r[2];
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&o, 2 * sizeof(int));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);

    cudaMemset(o, 0, sizeof(int));
    own_pipeline<<<1, 128>>>(d, o, 4);
    cudaMemcpy(r, o, sizeof(int), cudaMemcpyDeviceToHost);
    long want = 0;
    for (int i = 0; i < 4 * 128; i++) want += h[i];
    printf("thread pipeline: %d %ld\n", r[0], want);

    cudaMemset(o, 0, sizeof(int));
    roles<<<1, 128>>>(d, o, 64);
    cudaMemcpy(r, o, sizeof(int), cudaMemcpyDeviceToHost);
    want = 0;
    for (int i = 0; i < 64 * 96; i++) want += h[i];
    printf("producer/consumer: %d of %ld\n", r[0], want);

    cudaMemset(o, 0, sizeof(int));
    group_copy<<<1, 256>>>(d, o);
    cudaMemcpy(r, o, sizeof(int), cudaMemcpyDeviceToHost);
    printf("cg copy: %d\n", r[0]);

    primitives<<<1, 64>>>(d, o);
    cudaMemcpy(r, o, 2 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("primitives: %d zero-filled %d\n", r[0], r[1]);
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(d);
    cudaFree(o);
    return 0;
}
