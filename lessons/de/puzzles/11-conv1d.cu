// 1D-Faltung: Jeder Block braucht seine eigenen Elemente und dazu einen Halo
// aus K - 1 Elementen, die zum nächsten Block gehören. Laden Sie Kachel und
// Halo einmal ins Shared Memory; kein Thread darf den globalen Speicher mehr
// als zweimal lesen.
#define TPB 8 // Threads pro Block, so wie check sie startet
#define K 4   // Gewichte in b

__global__ void conv1d(float *out, const float *a, const float *b, int size)
{
    __shared__ float tile[TPB + K - 1];
    __shared__ float w[K];
    int t = threadIdx.x;
    int i = blockIdx.x * TPB + t;
    // Füllen Sie tile (a ab dem ersten Element dieses Blocks, 0 jenseits
    // des Endes) und w, warten Sie, dann für i < size
    //     out[i] = tile[t] * w[0] + ... + tile[t + K - 1] * w[K - 1].
}
