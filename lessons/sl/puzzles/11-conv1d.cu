// 1D konvolucija: blok potrebuje svoje elemente in obrobo K - 1 elementov
// naslednjega bloka. Ploščico in obrobo enkrat naložite v skupni pomnilnik;
// nobena nit ne sme brati globalnega pomnilnika več kot dvakrat.
#define TPB 8 // niti na blok, kot jih zažene check
#define K 4   // uteži v b

__global__ void conv1d(float *out, const float *a, const float *b, int size)
{
    __shared__ float tile[TPB + K - 1];
    __shared__ float w[K];
    int t = threadIdx.x;
    int i = blockIdx.x * TPB + t;
    // Napolnite tile (a od prvega elementa tega bloka naprej, 0 za koncem)
    // in w, počakajte, nato za i < size
    //     out[i] = tile[t] * w[0] + ... + tile[t + K - 1] * w[K - 1].
}
