// Stream Compaction: die positiven Elemente behalten, in ihrer Reihenfolge
// dicht am Anfang von out. Wohin kommt ein behaltenes Element? An die Zahl
// der behaltenen Elemente vor ihm: ein exklusiver Scan der Flags (1 behalten,
// 0 nicht).
#define TPB 16 // Threads pro Block, so wie check sie startet

__global__ void compact(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    // Laden Sie v = a[t] (nur t < size), flag = 1, wenn v > 0, sonst 0.
    // Scannen Sie die Flags in cache wie in Rätsel 12 (inklusiv); dann ist
    // cache[TPB - 1] die Anzahl. Ein behaltenes v kommt nach
    // out[cache[t] - 1]; die Threads count <= t < size schreiben out[t] = 0.
}
