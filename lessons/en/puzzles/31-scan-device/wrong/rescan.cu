// must fail: limit. Right values, but the last thread adds up every element before its tile itself instead of waiting for the carry: its reads grow with the array.
#define TPB 64

__global__ void scan_device(float *out, const float *a, float *ticket, float *ready, float *carry, int size)
{
    __shared__ float warp_total, before;
    int t = threadIdx.x, lane = t % 32, tile = blockIdx.x;
    int i = tile * TPB + t;
    float v = i < size ? a[i] : 0.0f;
    for (int d = 1; d < 32; d *= 2) {
        float u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += u;
    }
    if (t == 31) warp_total = v;
    __syncthreads();
    if (t >= 32) v += warp_total;
    if (t == TPB - 1) {
        float prev = 0.0f;
        for (int j = 0; j < tile * TPB; j++) prev += a[j];
        before = prev;
    }
    __syncthreads();
    if (i < size) out[i] = v + before;
}
