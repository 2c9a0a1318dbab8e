// Transponiranje prek skupnega pomnilnika: blok obrne eno ploščico 8 x 8
// iz a v skupnem pomnilniku, tako da bere a in piše out po vrsticah.
#define TILE 8

__global__ void transpose(float *out, const float *a, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1]; // + 1 drži stolpec v 8 bankah
    // Naložite a[blockIdx.y * TILE + threadIdx.y][blockIdx.x * TILE + threadIdx.x]
    // v tile[threadIdx.y][threadIdx.x] (ko je znotraj a), počakajte na blok,
    // nato zapišite tile[threadIdx.x][threadIdx.y] na njegovo mesto v out.
}
