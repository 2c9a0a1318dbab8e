// Asynchronous copies: the warp sums a row in chunks of 32 floats that
// cuda::memcpy_async copies into shared memory, two chunks in flight.
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
    int lane = threadIdx.x, chunks = (cols + T - 1) / T;
    float sum = 0.0f;
    // For each chunk c: first start the copies of the chunks up to c + 1 not
    // yet started (producer_acquire, cuda::memcpy_async(block, buf[f % 2],
    // row + f * T, sizeof(float) * len, pipe), producer_commit; the last
    // chunk is shorter), then consumer_wait, add buf[c % 2][lane] if lane is
    // inside the chunk, consumer_release. Then the warp's sum to lane 0.
}
