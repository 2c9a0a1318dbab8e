// Layer Norm in zwei Durchläufen: erst der Mittelwert der Zeile, dann der
// Mittelwert der quadrierten Abweichungen davon. Die Abkürzung „Mittelwert
// von x^2 minus Mittelwert^2“ subtrahiert zwei große, fast gleiche Zahlen
// und verliert die Varianz.
#define TPB 8 // Threads pro Block, so wie check sie startet

__global__ void layernorm(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x, row = blockIdx.y;
    // Laden Sie x = a[row * cols + t] einmal (Threads t >= cols: 0).
    // 1. Die Zeile mit einem Baum in cache summieren; mean = sum / cols.
    //    Jeder Thread liest es; warten, bevor cache wieder benutzt wird.
    // 2. d = x - mean (0 hinter cols); d * d mit einem zweiten Baum
    //    summieren; var = diese Summe / cols.
    // 3. out[row * cols + t] = d / sqrtf(var + 0.00001f) (nur t < cols).
}
