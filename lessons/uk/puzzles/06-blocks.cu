// Блоки: блок вміщує обмежену кількість потоків, тож більшим масивам потрібно
// кілька блоків; blockIdx і blockDim дають кожному потоку його глобальний
// індекс.
__global__ void blocks(float *out, const float *a, int size)
{
    // Обчисліть i з blockIdx.x, blockDim.x і threadIdx.x,
    // потім запишіть out[i], якщо i < size.
}
