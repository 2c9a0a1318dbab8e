// Register tiling: each thread computes a 2 x 2 block of out in four
// registers, so one value read from a serves two products, and one of b too.
__global__ void matmul_reg(float *out, const float *a, const float *b, int size)
{
    int r0 = blockIdx.y * 8 + threadIdx.y, c0 = blockIdx.x * 8 + threadIdx.x;
    // Rows r0 and r0 + 4, columns c0 and c0 + 4: four sums. For each k,
    // read a[r][k] for both rows and b[k][c] for both columns (0 outside the
    // matrices) and add the four products; then write the sums inside out.
}
