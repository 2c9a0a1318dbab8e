// Pozornost po ploščicah: ključi in vrednosti gredo skozi skupni pomnilnik po
// 8, sprotni softmax (sprotni maksimum, vsota in utežene vsote, preračunane,
// ko maksimum zraste) pa potrebuje en sam prehod po ključih.
#define T 8     // ključev na ploščico
#define DMAX 16 // d je največ 16

__global__ void attention_tiled(float *out, const float *q, const float *k, const float *v, int n, int m, int d)
{
    __shared__ float ks[T][DMAX], vs[T][DMAX];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // q[i] v registre (0 za i >= n: vsaka nit pomaga nalagati ploščice).
    // Za vsako ploščico t0 = 0, T, 2T, ... pod m: naložite ks in vs (0 za m),
    // počakajte, posodobite sprotni maksimum, vsoto in acc[c] za ključe
    // ploščice, počakajte znova. Nato out[i][c] = acc[c] / sum za i < n.
}
