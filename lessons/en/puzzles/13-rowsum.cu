// Sum along an axis: one block per row, each block reducing its row in
// shared memory; blockIdx.y says which row.
#define TPB 8 // threads per block, as check launches them

__global__ void rowsum(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int row = blockIdx.y;
    int t = threadIdx.x;
    // Load a[row * cols + t] (0 past the end of the row), add cache up,
    // and let one thread write out[row].
}
