// Gekachelte Attention: Schlüssel und Werte gehen zu je 8 durchs Shared
// Memory, und ein Online-Softmax (laufendes Maximum, Summe und gewichtete
// Summen, neu skaliert, wenn das Maximum wächst) braucht einen Durchgang.
#define T 8     // Schlüssel pro Kachel
#define DMAX 16 // d ist höchstens 16

__global__ void attention_tiled(float *out, const float *q, const float *k, const float *v, int n, int m, int d)
{
    __shared__ float ks[T][DMAX], vs[T][DMAX];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // q[i] in Register (0 für i >= n: jeder Thread hilft beim Laden der Kacheln).
    // Für jede Kachel t0 = 0, T, 2T, ... unter m: ks und vs laden (0 nach m),
    // warten, laufendes Maximum, Summe und acc[c] mit den Schlüsseln der Kachel
    // aktualisieren, erneut warten. Dann out[i][c] = acc[c] / sum für i < n.
}
