// Відображення (map): один потік на елемент, і кожен робить те саме
// зі своїм власним елементом.
__global__ void map(float *out, const float *a)
{
    int i = threadIdx.x;
    // Запишіть тут out[i] (один рядок).
}
