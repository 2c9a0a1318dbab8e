// Asinhrone kopije: snop sešteje vrstico po kosih po 32 float, ki jih
// cuda::memcpy_async kopira v skupni pomnilnik, dva kosa na poti.
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
    // Za vsak kos c: najprej začnite še nezačete kopije kosov do c + 1
    // (producer_acquire, cuda::memcpy_async(block, buf[f % 2], row + f * T,
    // sizeof(float) * len, pipe), producer_commit; zadnji kos je krajši),
    // nato consumer_wait, prištejte buf[c % 2][lane], če je lane znotraj
    // kosa, consumer_release. Nato vsota snopa v stezo 0.
}
