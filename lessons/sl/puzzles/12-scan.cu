// Predponska vsota: v krogu r vsaka nit prišteje vrednost 2^r mest levo od
// sebe. Preberite vrednost, počakajte, nato prištejte in spet počakajte,
// da nobena nit ne prepiše mesta, ki ga druga nit še ni prebrala.
#define TPB 16 // niti na blok, kot jih zažene check

__global__ void scan(float *out, const float *a)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    // Naložite a[i] v cache[i]; za offset = 1, 2, 4, 8: prištejte
    // cache[i - offset] (kadar je i >= offset); nato zapišite out[i].
}
