// Matrix multiply: one thread per element of the result, each walking a
// row of a and a column of b.
__global__ void matmul(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y; // row
    int j = threadIdx.x; // column
    // out[i * size + j] = a[i * size + 0] * b[0 * size + j] + ...
}
