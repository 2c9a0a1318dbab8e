// Preslikava v 2D: dvodimenzionalni blok, threadIdx.x za stolpec in
// threadIdx.y za vrstico, nad tabelo, shranjeno vrstico za vrstico.
__global__ void map2d(float *out, const float *a, int size)
{
    int i = threadIdx.y; // vrstica
    int j = threadIdx.x; // stolpec
    // Zapišite out[i][j], torej out[i * size + j], za i, j < size.
}
