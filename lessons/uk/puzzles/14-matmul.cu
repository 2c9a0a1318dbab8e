// Множення матриць: один потік на елемент результату, і кожен проходить
// рядок a і стовпець b.
__global__ void matmul(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y; // рядок
    int j = threadIdx.x; // стовпець
    // out[i * size + j] = a[i * size + 0] * b[0 * size + j] + ...
}
