// Scan čez veliko blokov v enem zagonu: vsak blok naredi scan svoje ploščice
// 64 elementov, nato prišteje vsoto vseh ploščic pred njo, ki jo v carry
// objavi (in to sporoči v ready) blok prejšnje ploščice.
#define TPB 64 // niti na blok, kot jih zažene check

__global__ void scan_device(float *out, const float *a, float *ticket, float *ready, float *carry, int size)
{
    __shared__ float warp_total, before;
    __shared__ int tile; // ploščica tega bloka: vzeta z atomicAdd(ticket, 1.0f)
    // 1. Nit 0 vzame ploščico; blok počaka nanjo.
    // 2. v = a[tile * TPB + t] (0 za size); vsak snop naredi scan z
    //    __shfl_up_sync; snop 1 prišteje vsoto snopa 0 (skupni pomnilnik, po pregradi).
    // 3. Nit TPB - 1 počaka na ready[tile - 1], atomarno prebere carry[tile - 1],
    //    objavi carry[tile] in nato ready[tile] (vmes fence).
    // 4. out[i] = v + prenesena vsota pred to ploščico, za i < size.
}
