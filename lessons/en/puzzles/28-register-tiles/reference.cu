// Reference solution of puzzle 28 (register-tiles): a 2 x 2 tile of sums in registers.
__global__ void matmul_reg(float *out, const float *a, const float *b, int size)
{
    int r0 = blockIdx.y * 8 + threadIdx.y, c0 = blockIdx.x * 8 + threadIdx.x;
    float s00 = 0, s01 = 0, s10 = 0, s11 = 0;
    for (int k = 0; k < size; k++) {
        float a0 = r0 < size ? a[r0 * size + k] : 0, a1 = r0 + 4 < size ? a[(r0 + 4) * size + k] : 0;
        float b0 = c0 < size ? b[k * size + c0] : 0, b1 = c0 + 4 < size ? b[k * size + c0 + 4] : 0;
        s00 += a0 * b0;
        s01 += a0 * b1;
        s10 += a1 * b0;
        s11 += a1 * b1;
    }
    if (r0 < size && c0 < size) out[r0 * size + c0] = s00;
    if (r0 < size && c0 + 4 < size) out[r0 * size + c0 + 4] = s01;
    if (r0 + 4 < size && c0 < size) out[(r0 + 4) * size + c0] = s10;
    if (r0 + 4 < size && c0 + 4 < size) out[(r0 + 4) * size + c0 + 4] = s11;
}
