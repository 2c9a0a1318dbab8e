// Broadcast: Eine Spalte und eine Zeile ergeben ein ganzes Raster von
// Ergebnissen; jeder Eingabewert wird von einer ganzen Zeile oder Spalte von
// Threads verwendet.
__global__ void broadcast(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y; // Zeile
    int j = threadIdx.x; // Spalte
    // Schreiben Sie out[i * size + j] für i, j < size.
}
