// Vsota po osi: en blok na vrstico, vsak blok reducira svojo vrstico v
// skupnem pomnilniku; blockIdx.y pove, katero vrstico.
#define TPB 8 // niti na blok, kot jih zažene check

__global__ void rowsum(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int row = blockIdx.y;
    int t = threadIdx.x;
    // Naložite a[row * cols + t] (0 za koncem vrstice), seštejte cache
    // in naj ena nit zapiše out[row].
}
