// Arbeitseffizienter Scan (Blelloch): Der Aufwärtsdurchlauf addiert Paare
// in einem Baum, bis der letzte Platz die Summe aller enthält; diesen leeren,
// dann geht der Abwärtsdurchlauf den Baum zurück, und jeder Knoten gibt die
// Summe seines linken Kindes an das rechte weiter. 2n - 2 Additionen für n
// Elemente, wo der Scan aus Rätsel 12 n log2 n braucht.
#define TPB 8       // Threads pro Block, so wie check sie startet
#define N (2 * TPB) // Plätze: zwei pro Thread

__global__ void scan_exclusive(float *out, const float *a, int size)
{
    __shared__ float s[N];
    int t = threadIdx.x;
    // Laden Sie a[2t] und a[2t + 1] nach s (0 hinter size).
    // Aufwärts, d = 1, 2, 4, 8: Platz k = (t + 1) * 2 * d - 1 addiert, wenn
    // k < N, den Platz k - d. Dann s[N - 1] leeren.
    // Abwärts, d = 8, 4, 2, 1: Der linke Platz k - d nimmt s[k], und s[k]
    // addiert den alten Wert des linken Platzes.
    // Eine Barriere vor jeder Runde; dann out schreiben (nur i < size).
}
