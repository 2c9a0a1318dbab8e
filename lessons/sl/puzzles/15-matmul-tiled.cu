// Množenje matrik s ploščicami: blok naloži kos TILE x TILE matrike a in
// matrike b v skupni pomnilnik, vsaka nit po eno vrednost vsake, nato pa
// vsaka nit znova uporabi celo ploščico. Vsaka globalna vrednost se prebere
// enkrat na blok namesto enkrat na nit.
#define TILE 4 // blok ima TILE x TILE niti, kot ga zažene check

__global__ void matmul_tiled(float *out, const float *a, const float *b,
                             int size)
{
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE];
    int i = blockIdx.y * TILE + threadIdx.y; // vrstica out
    int j = blockIdx.x * TILE + threadIdx.x; // stolpec out
    // Za vsako ploščico t = 0, TILE, 2 * TILE, ... pod size:
    //   naložite ta[threadIdx.y][threadIdx.x] = a[i][t + threadIdx.x] in
    //   tb[threadIdx.y][threadIdx.x] = b[t + threadIdx.y][j]
    //   (0 zunaj matrike),
    //   počakajte, prištejte TILE produktov, spet počakajte.
    // Nato zapišite out[i * size + j], kadar sta i in j znotraj matrike.
}
