// must fail: bounds. Every copy is a whole chunk of 32 floats: the last chunk of the last row reads past the end of a.
#include <cooperative_groups.h>
#include <cuda/pipeline>
namespace cg = cooperative_groups;
#define T 32

__global__ void row_sums(float *out, const float *a, int rows, int cols)
{
    __shared__ float buf[2][T];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    const float *row = a + blockIdx.x * cols;
    int lane = threadIdx.x, chunks = (cols + T - 1) / T, fetched = 0;
    float sum = 0.0f;
    for (int c = 0; c < chunks; c++) {
        for (; fetched < chunks && fetched < c + 2; fetched++) { // up to two chunks in flight
            int len = T;
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[fetched % 2], row + fetched * T, sizeof(float) * len, pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait(); // chunk c has landed
        if (lane < min(T, cols - c * T)) sum += buf[c % 2][lane];
        pipe.consumer_release(); // its buffer may be filled again
    }
    for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffffu, sum, d);
    if (lane == 0) out[blockIdx.x] = sum;
}
