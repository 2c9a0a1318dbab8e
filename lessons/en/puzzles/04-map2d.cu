// Map in 2D: a two-dimensional block, threadIdx.x for the column and
// threadIdx.y for the row, over an array stored row after row.
__global__ void map2d(float *out, const float *a, int size)
{
    int i = threadIdx.y; // row
    int j = threadIdx.x; // column
    // Write out[i][j], which is out[i * size + j], for i, j < size.
}
