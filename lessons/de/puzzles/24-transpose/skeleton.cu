// Transponieren über Shared Memory: Ein Block dreht eine 8 x 8 große Kachel
// von a im Shared Memory, sodass er a und out entlang der Zeilen liest und schreibt.
#define TILE 8

__global__ void transpose(float *out, const float *a, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1]; // das + 1 verteilt eine Spalte auf 8 Bänke
    // a[blockIdx.y * TILE + threadIdx.y][blockIdx.x * TILE + threadIdx.x] nach
    // tile[threadIdx.y][threadIdx.x] laden (wenn innerhalb von a), auf den Block
    // warten, dann tile[threadIdx.x][threadIdx.y] an seine Stelle in out schreiben.
}
