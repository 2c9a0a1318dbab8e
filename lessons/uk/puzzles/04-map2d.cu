// Відображення у 2D: двовимірний блок, threadIdx.x для стовпця і
// threadIdx.y для рядка, над масивом, що зберігається рядок за рядком.
__global__ void map2d(float *out, const float *a, int size)
{
    int i = threadIdx.y; // рядок
    int j = threadIdx.x; // стовпець
    // Запишіть out[i][j], тобто out[i * size + j], для i, j < size.
}
