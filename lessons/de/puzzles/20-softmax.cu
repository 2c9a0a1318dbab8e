// Softmax, numerisch stabil: exp(a - m) mit m dem Maximum der Zeile läuft
// nie über (jeder Exponent ist <= 0) und ergibt dieselben Anteile, denn der
// Faktor exp(-m) kürzt sich zwischen Zähler und Summe.
#define TPB 8 // Threads pro Block, so wie check sie startet

__global__ void softmax(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x, row = blockIdx.y;
    // Laden Sie x = a[row * cols + t] einmal (Threads t >= cols: -INFINITY).
    // 1. Das Maximum m der Zeile: ein Baum in cache mit fmaxf, wie Rätsel 10.
    // 2. Jeder Thread liest m; warten, bevor cache wieder benutzt wird.
    // 3. e = expf(x - m) (0 hinter cols), ihre Summe mit einem zweiten Baum.
    // 4. out[row * cols + t] = e / sum (nur t < cols).
}
