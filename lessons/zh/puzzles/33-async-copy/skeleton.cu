// 异步复制：线程束按每段 32 个浮点数累加一行，各段由 cuda::memcpy_async
// 复制到共享内存，同时有两段在进行中。
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
    // 对每一段 c：先开始直到 c + 1 的尚未开始的各段复制
    // （producer_acquire，cuda::memcpy_async(block, buf[f % 2], row + f * T,
    // sizeof(float) * len, pipe)，producer_commit；最后一段更短），
    // 然后 consumer_wait，若 lane 在该段之内则加上 buf[c % 2][lane]，
    // consumer_release。最后把线程束的和汇总到通道 0。
}
