// Map in 2D: ein zweidimensionaler Block, threadIdx.x für die Spalte und
// threadIdx.y für die Zeile, über einem Zeile für Zeile gespeicherten Array.
__global__ void map2d(float *out, const float *a, int size)
{
    int i = threadIdx.y; // Zeile
    int j = threadIdx.x; // Spalte
    // Schreiben Sie out[i][j], also out[i * size + j], für i, j < size.
}
