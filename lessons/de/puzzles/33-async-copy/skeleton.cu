// Asynchrone Kopien: der Warp summiert eine Zeile in Abschnitten von 32 floats,
// die cuda::memcpy_async in den Shared Memory kopiert, zwei Abschnitte unterwegs.
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
    // Für jeden Abschnitt c: zuerst die noch nicht begonnenen Kopien der Abschnitte bis
    // c + 1 starten (producer_acquire, cuda::memcpy_async(block, buf[f % 2],
    // row + f * T, sizeof(float) * len, pipe), producer_commit; der letzte Abschnitt
    // ist kürzer), dann consumer_wait, buf[c % 2][lane] addieren, wenn lane im
    // Abschnitt liegt, consumer_release. Dann die Summe des Warps zu Lane 0.
}
