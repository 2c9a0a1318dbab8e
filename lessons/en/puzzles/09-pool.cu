// Pooling: every output needs several neighbouring inputs; loading each
// input once into shared memory lets the neighbours share the loads.
#define TPB 8 // threads per block, as check launches them

__global__ void pool(float *out, const float *a)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    // Load a[i] once, wait at a barrier, then add up to three
    // neighbours from cache.
}
