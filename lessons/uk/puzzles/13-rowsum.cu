// Сума вздовж осі: один блок на рядок, і кожен блок редукує свій рядок
// у спільній пам’яті; blockIdx.y вказує, який це рядок.
#define TPB 8 // потоків у блоці, як їх запускає check

__global__ void rowsum(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int row = blockIdx.y;
    int t = threadIdx.x;
    // Завантажте a[row * cols + t] (0 за кінцем рядка), підсумуйте cache
    // і нехай один потік запише out[row].
}
