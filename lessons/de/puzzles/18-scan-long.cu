// Ein Scan, länger als der Block: Der Block geht das Array in Kacheln von
// TPB Elementen durch, scannt jede Kachel im Shared Memory und addiert die
// Summe der Kacheln davor, die er in einem Register von Kachel zu Kachel
// mitnimmt.
#define TPB 8 // Threads pro Block, so wie check sie startet

__global__ void scan_long(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    float carry = 0.0f; // die Summe der schon bearbeiteten Kacheln
    for (int base = 0; base < size; base += TPB) {
        // Laden Sie a[base + t] nach cache[t] (0 hinter size), scannen Sie
        // die Kachel wie in Rätsel 12, schreiben Sie out[base + t] = carry +
        // cache[t] (wenn im Bereich), addieren Sie die Summe der Kachel
        // cache[TPB - 1] zu carry und warten Sie, bevor die nächste Kachel
        // cache überschreibt.
    }
}
