// Reference solution of puzzle 31 (device-wide scan): a chained scan in one
// launch; the tiles go to the blocks in the order they start.
#define TPB 64

__global__ void scan_device(float *out, const float *a, float *ticket, float *ready, float *carry, int size)
{
    __shared__ float warp_total, before;
    __shared__ int tile;
    int t = threadIdx.x, lane = t % 32;
    if (t == 0) tile = (int)atomicAdd(ticket, 1.0f);
    __syncthreads();
    int i = tile * TPB + t;
    float v = i < size ? a[i] : 0.0f;
    for (int d = 1; d < 32; d *= 2) { // a warp's inclusive scan
        float u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += u;
    }
    if (t == 31) warp_total = v;
    __syncthreads();
    if (t >= 32) v += warp_total; // v: the tile's scan; thread 63 holds its total
    if (t == TPB - 1) {
        float prev = 0.0f;
        if (tile > 0) { // a block that started earlier has the tile before: it will publish
            while (atomicAdd(&ready[tile - 1], 0.0f) == 0.0f) {
            }
            prev = atomicAdd(&carry[tile - 1], 0.0f);
        }
        atomicExch(&carry[tile], prev + v);
        __threadfence(); // carry[tile] is seen before ready[tile]
        atomicExch(&ready[tile], 1.0f);
        before = prev;
    }
    __syncthreads();
    if (i < size) out[i] = v + before;
}
