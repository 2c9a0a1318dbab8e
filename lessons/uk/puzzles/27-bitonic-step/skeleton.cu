// Крок бітонного сортування: кожен елемент порівнюється з партнером i ^ j,
// і пара впорядковується вгору чи вниз за бітом k числа i: один крок мережі.
__global__ void bitonic_step(float *out, const float *a, int j, int k, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // Всередині a: партнер p = i ^ j; up = (i & k) == 0;
    // out[i] = менше з a[i] і a[p], якщо (i < p) == up, інакше більше.
}
