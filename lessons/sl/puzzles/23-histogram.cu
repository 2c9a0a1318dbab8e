// Histogram s privatizacijo: blok prešteje svoje elemente v lastnem
// histogramu v skupnem pomnilniku, kjer so atomarne operacije poceni in
// tekmujejo le niti bloka, nato vsak razred z eno atomarno operacijo
// prišteje globalnemu.
#define TPB 16 // niti na blok, kot jih zažene check
#define BINS 8

__global__ void histogram(float *out, const float *a, int size)
{
    __shared__ float h[BINS];
    int t = threadIdx.x, i = blockIdx.x * TPB + t;
    // Počistite h (niti t < BINS); počakajte; atomicAdd(&h[(int)a[i]], 1.0f)
    // za i < size; počakajte; niti t < BINS: atomicAdd(&out[t], h[t]).
}
