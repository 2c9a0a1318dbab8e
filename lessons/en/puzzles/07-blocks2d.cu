// Blocks in 2D: a grid of two-dimensional blocks covers a matrix; the last
// row and column of blocks stick out past its edge.
__global__ void blocks2d(float *out, const float *a, int size)
{
    // Row i from the y coordinates, column j from the x coordinates,
    // then write out[i * size + j] when both are inside the matrix.
}
