// Метелик: __shfl_xor_sync обмінює значення між лініями, чиї індекси
// відрізняються одним бітом, тож після п’яти раундів кожна лінія має суму.
__global__ void butterfly(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // v = a[i] всередині a, 0 за кінцем; п’ять раундів d = 16, 8, 4, 2, 1:
    // v += __shfl_xor_sync(0xffffffff, v, d); потім out[i] = v (i < size).
}
