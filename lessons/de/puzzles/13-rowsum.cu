// Summe entlang einer Achse: ein Block pro Zeile, jeder Block reduziert seine
// Zeile im Shared Memory; blockIdx.y gibt an, welche Zeile.
#define TPB 8 // Threads pro Block, so wie check sie startet

__global__ void rowsum(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int row = blockIdx.y;
    int t = threadIdx.x;
    // Laden Sie a[row * cols + t] (0 jenseits des Zeilenendes), summieren Sie
    // cache auf und lassen Sie einen Thread out[row] schreiben.
}
