// Shared Memory: ein kleines Array, das sich die Threads eines Blocks teilen,
// und eine Barriere (__syncthreads), bevor ein Thread liest, was ein anderer
// geschrieben hat.
#define TPB 4 // Threads pro Block, so wie check sie startet

__global__ void shared(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    // 1. Kopieren Sie a[i] nach cache[t].
    // 2. Warten Sie, bis jeder Thread des Blocks seinen Platz geschrieben hat.
    // 3. Sei n = (t + 1) % TPB: Schreiben Sie out[blockIdx.x * blockDim.x + n]
    //    = cache[n] + 10.
}
