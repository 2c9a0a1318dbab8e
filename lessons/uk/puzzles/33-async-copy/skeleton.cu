// Асинхронні копії: варп підсумовує рядок частинами по 32 float, які
// cuda::memcpy_async копіює в спільну пам’ять, дві частини в дорозі.
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
    // Для кожної частини c: спершу почніть ще не початі копії частин до c + 1
    // (producer_acquire, cuda::memcpy_async(block, buf[f % 2], row + f * T,
    // sizeof(float) * len, pipe), producer_commit; остання частина коротша),
    // потім consumer_wait, додайте buf[c % 2][lane], якщо lane в межах
    // частини, consumer_release. Потім сума варпа до лінії 0.
}
