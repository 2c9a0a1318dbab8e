// Ein Scan über viele Blöcke in einem Start: jeder Block scannt seine Kachel
// von 64 Elementen und addiert dann die Summe aller Kacheln vor ihr, die der
// Block der vorigen Kachel in carry veröffentlicht (und in ready meldet).
#define TPB 64 // Threads pro Block, wie check sie startet

__global__ void scan_device(float *out, const float *a, float *ticket, float *ready, float *carry, int size)
{
    __shared__ float warp_total, before;
    __shared__ int tile; // die Kachel dieses Blocks: gezogen mit atomicAdd(ticket, 1.0f)
    // 1. Thread 0 nimmt die Kachel; der Block wartet darauf.
    // 2. v = a[tile * TPB + t] (0 hinter size); jeder Warp scannt mit
    //    __shfl_up_sync; Warp 1 addiert die Summe von Warp 0 (Shared, nach einer Barriere).
    // 3. Thread TPB - 1 wartet auf ready[tile - 1], liest carry[tile - 1] atomar,
    //    veröffentlicht carry[tile] und dann ready[tile] (ein Fence dazwischen).
    // 4. out[i] = v + der Übertrag vor dieser Kachel, für i < size.
}
