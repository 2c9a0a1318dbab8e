// Skalarni produkt: veliko produktov, ena vsota. Blok sešteje produkte v
// skupnem pomnilniku; drevo z razpolavljanjem razdalj: log2(8) = 3 krogi.
#define TPB 8 // niti na blok, kot jih zažene check

__global__ void dot(float *out, const float *a, const float *b)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    // Vsaka nit shrani a[i] * b[i] v cache[i]; po pregradi blok sešteje
    // cache, ena nit pa zapiše out[0].
}
