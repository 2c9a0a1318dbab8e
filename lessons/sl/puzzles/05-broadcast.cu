// Razširjanje: stolpec in vrstica se združita v celo mrežo rezultatov;
// vsako vhodno vrednost uporabi cela vrstica ali cel stolpec niti.
__global__ void broadcast(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y; // vrstica
    int j = threadIdx.x; // stolpec
    // Zapišite out[i * size + j] za i, j < size.
}
