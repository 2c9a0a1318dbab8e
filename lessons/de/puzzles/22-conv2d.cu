// 2D-Faltung mit Halo: Die Ausgabekachel eines Blocks braucht die
// Eingabekachel, auf jeder Seite ein Element breiter. Laden Sie die Kachel
// mit ihrem Halo und die Gewichte einmal in den Shared Memory; dann liest
// jeder Thread seine 9 Nachbarn dort statt im globalen Speicher.
#define T 4       // der Block hat T x T Threads, so wie check sie startet
#define H (T + 2) // die Kachel mit ihrem Halo

__global__ void conv2d(float *out, const float *a, const float *b, int size)
{
    __shared__ float tile[H][H];
    __shared__ float w[3][3];
    int tx = threadIdx.x, ty = threadIdx.y;
    // Die Ecke der Kachel in a ist Zeile blockIdx.y * T - 1, Spalte
    // blockIdx.x * T - 1. Die 16 Threads laden ihre 36 Werte (0 außerhalb
    // von a) und die 9 Gewichte von b; eine Barriere; dann addiert Element
    // [i][j] der Kachel tile[ty + di][tx + dj] * w[di][dj] für di, dj 0..2.
}
