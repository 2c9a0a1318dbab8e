// Skalarprodukt: viele Produkte, eine Summe. Der Block addiert seine Produkte
// im Shared Memory; ein Baum mit halbierter Schrittweite braucht log2(8) = 3
// Runden.
#define TPB 8 // Threads pro Block, so wie check sie startet

__global__ void dot(float *out, const float *a, const float *b)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    // Jeder Thread legt a[i] * b[i] in cache[i] ab; nach einer Barriere
    // summiert der Block cache auf, und ein Thread schreibt out[0].
}
