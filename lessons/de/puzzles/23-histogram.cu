// Histogramm mit Privatisierung: Ein Block zählt seine Elemente in einem
// eigenen Histogramm im Shared Memory, wo Atomics billig sind und nur die
// Threads des Blocks konkurrieren, und addiert dann jedes Fach mit einem
// Atomic zum globalen.
#define TPB 16 // Threads pro Block, so wie check sie startet
#define BINS 8

__global__ void histogram(float *out, const float *a, int size)
{
    __shared__ float h[BINS];
    int t = threadIdx.x, i = blockIdx.x * TPB + t;
    // h leeren (Threads t < BINS); warten; atomicAdd(&h[(int)a[i]], 1.0f)
    // für i < size; warten; Threads t < BINS: atomicAdd(&out[t], h[t]).
}
