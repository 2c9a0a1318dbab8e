// Gekachelte Matrixmultiplikation: Der Block lädt eine TILE x TILE große
// Kachel von a und von b ins Shared Memory, einen Wert von jedem pro Thread,
// und jeder Thread verwendet danach die ganze Kachel. Jeder globale Wert wird
// einmal pro Block statt einmal pro Thread gelesen.
#define TILE 4 // der Block hat TILE x TILE Threads, so wie check ihn startet

__global__ void matmul_tiled(float *out, const float *a, const float *b,
                             int size)
{
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE];
    int i = blockIdx.y * TILE + threadIdx.y; // Zeile von out
    int j = blockIdx.x * TILE + threadIdx.x; // Spalte von out
    // Für jede Kachel t = 0, TILE, 2 * TILE, ... unterhalb von size:
    // ta[threadIdx.y][threadIdx.x] = a[i][t + threadIdx.x] und
    // tb[threadIdx.y][threadIdx.x] = b[t + threadIdx.y][j] laden (0 außerhalb
    // der Matrix), warten, die TILE Produkte addieren, erneut warten. Dann
    // out[i * size + j] schreiben, wenn i und j innerhalb der Matrix liegen.
}
