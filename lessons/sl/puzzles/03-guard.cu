// Varovalni pogoji: zagon ima navadno več niti, kot je elementov; odvečne
// niti ne smejo brati ali pisati čez konec tabel.
__global__ void guard(float *out, const float *a, int size)
{
    int i = threadIdx.x;
    // Tu zapišite out[i], le za niti, ki imajo element.
}
