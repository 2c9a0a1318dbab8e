// Гістограма з приватизацією: блок рахує свої елементи у власній гістограмі
// в спільній пам’яті, де атомарні операції дешеві й змагаються лише потоки
// блоку, а потім додає кожен кошик до глобальної однією атомарною операцією.
#define TPB 16 // потоків у блоці, як їх запускає check
#define BINS 8

__global__ void histogram(float *out, const float *a, int size)
{
    __shared__ float h[BINS];
    int t = threadIdx.x, i = blockIdx.x * TPB + t;
    // Очистіть h (потоки t < BINS); зачекайте; atomicAdd(&h[(int)a[i]], 1.0f)
    // для i < size; зачекайте; потоки t < BINS: atomicAdd(&out[t], h[t]).
}
