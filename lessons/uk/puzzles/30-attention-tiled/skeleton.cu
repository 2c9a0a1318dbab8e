// Увага плитками: ключі й значення проходять через спільну пам’ять по 8, а
// online softmax (поточні максимум, сума і зважені суми, перемасштабовані,
// коли максимум росте) обходиться одним проходом за ключами.
#define T 8     // ключів у плитці
#define DMAX 16 // d щонайбільше 16

__global__ void attention_tiled(float *out, const float *q, const float *k, const float *v, int n, int m, int d)
{
    __shared__ float ks[T][DMAX], vs[T][DMAX];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // q[i] у регістри (0 для i >= n: кожен потік допомагає вантажити плитки).
    // Для кожної плитки t0 = 0, T, 2T, ... нижче m: завантажте ks і vs (0 після m),
    // зачекайте, оновіть поточні максимум, суму і acc[c] для ключів плитки,
    // зачекайте знову. Потім out[i][c] = acc[c] / sum для i < n.
}
