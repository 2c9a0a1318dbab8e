// Präfixsumme: In Runde r addiert jeder Thread den Wert, der 2^r Plätze links
// von ihm liegt. Wert lesen, warten, dann addieren und erneut warten, damit
// kein Thread einen Platz überschreibt, den ein anderer Thread noch nicht
// gelesen hat.
#define TPB 16 // Threads pro Block, so wie check sie startet

__global__ void scan(float *out, const float *a)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    // Laden Sie a[i] nach cache[i]; für offset = 1, 2, 4, 8: cache[i - offset]
    // addieren (wenn i >= offset); dann out[i] schreiben.
}
