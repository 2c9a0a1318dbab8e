// Reference solution of puzzle 5 (broadcast).
__global__ void broadcast(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y;
    int j = threadIdx.x;
    if (i < size && j < size) out[i * size + j] = a[i] + b[j];
}
