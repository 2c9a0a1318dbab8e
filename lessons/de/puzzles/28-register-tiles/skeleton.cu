// Register-Kacheln: jeder Thread berechnet einen 2 x 2 großen Block von out in
// vier Registern, sodass ein gelesener Wert von a zwei Produkten dient, einer von b auch.
__global__ void matmul_reg(float *out, const float *a, const float *b, int size)
{
    int r0 = blockIdx.y * 8 + threadIdx.y, c0 = blockIdx.x * 8 + threadIdx.x;
    // Zeilen r0 und r0 + 4, Spalten c0 und c0 + 4: vier Summen. Für jedes k
    // a[r][k] für beide Zeilen und b[k][c] für beide Spalten lesen (0 außerhalb
    // der Matrizen) und die vier Produkte addieren; dann die Summen in out schreiben.
}
