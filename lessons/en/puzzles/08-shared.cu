// Shared memory: a small array shared by the threads of one block, and a
// barrier (__syncthreads) before any thread reads what another one wrote.
#define TPB 4 // threads per block, as check launches them

__global__ void shared(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    // 1. Copy a[i] into cache[t].
    // 2. Wait until every thread of the block has written its slot.
    // 3. Let n = (t + 1) % TPB: write out[blockIdx.x * blockDim.x + n]
    //    = cache[n] + 10.
}
