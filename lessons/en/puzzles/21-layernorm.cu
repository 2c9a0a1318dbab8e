// Layer norm, two passes: the mean of the row first, then the mean of the
// squared deviations from it. The shortcut "mean of x^2 minus mean^2"
// subtracts two large, nearly equal numbers and loses the variance.
#define TPB 8 // threads per block, as check launches them

__global__ void layernorm(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x, row = blockIdx.y;
    // Load x = a[row * cols + t] once (threads t >= cols: 0).
    // 1. Sum the row by a tree in cache; mean = sum / cols. Every thread
    //    reads it; wait before cache is used again.
    // 2. d = x - mean (0 past cols); sum d * d by a second tree;
    //    var = that sum / cols.
    // 3. out[row * cols + t] = d / sqrtf(var + 0.00001f) (only t < cols).
}
