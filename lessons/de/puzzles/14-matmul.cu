// Matrixmultiplikation: ein Thread pro Element des Ergebnisses, jeder läuft
// eine Zeile von a und eine Spalte von b entlang.
__global__ void matmul(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y; // Zeile
    int j = threadIdx.x; // Spalte
    // out[i * size + j] = a[i * size + 0] * b[0 * size + j] + ...
}
