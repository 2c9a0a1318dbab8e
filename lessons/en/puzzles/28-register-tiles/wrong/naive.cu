// must fail: limit. Four results, each with its own loop: right values, but 8 reads per k instead of 4.
__global__ void matmul_reg(float *out, const float *a, const float *b, int size)
{
    int r0 = blockIdx.y * 8 + threadIdx.y, c0 = blockIdx.x * 8 + threadIdx.x;
    for (int dr = 0; dr < 8; dr += 4)
        for (int dc = 0; dc < 8; dc += 4) {
            int r = r0 + dr, c = c0 + dc;
            if (r >= size || c >= size) continue;
            float s = 0;
            for (int k = 0; k < size; k++) s += a[r * size + k] * b[k * size + c];
            out[r * size + c] = s;
        }
}
