// Трансляція (broadcast): стовпець і рядок разом дають цілу таблицю
// результатів; кожне вхідне значення використовують усі потоки рядка або
// стовпця.
__global__ void broadcast(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y; // рядок
    int j = threadIdx.x; // стовпець
    // Запишіть out[i * size + j] для i, j < size.
}
