// Увага, напряму: кожен потік бере один запит, оцінює його з кожним ключем,
// перетворює оцінки на ваги стійким softmax (найбільша оцінка віднімається
// перед exp) і додає значення з цими вагами.
#define DMAX 16 // d щонайбільше 16

__global__ void attention(float *out, const float *q, const float *k, const float *v, int n, int m, int d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // 1. q[i][0..d-1] у масив у регістрах (лише i < n).
    // 2. найбільша оцінка s[i][j] = (q[i] . k[j]) / sqrt(d) за j < m.
    // 3. для кожного j: w = expf(s[i][j] - найбільша); sum += w; acc[c] += w * v[j][c].
    // 4. out[i][c] = acc[c] / sum.
}
