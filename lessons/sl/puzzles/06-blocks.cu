// Bloki: blok vsebuje omejeno število niti, zato večje tabele zahtevajo
// več blokov; blockIdx in blockDim dasta vsaki niti njen globalni indeks.
__global__ void blocks(float *out, const float *a, int size)
{
    // Izračunajte i iz blockIdx.x, blockDim.x in threadIdx.x,
    // nato zapišite out[i], kadar je i < size.
}
