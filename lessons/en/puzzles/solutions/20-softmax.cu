// Reference solution of puzzle 20 (softmax): the row's maximum by a tree,
// then exp(a - max) and their sum by a second tree in the same shared
// array, a barrier between the two so that no thread still reads the max.
#define TPB 8

__global__ void softmax(float *out, const float *a, int cols)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x, row = blockIdx.y;
    float x = t < cols ? a[row * cols + t] : -INFINITY;
    cache[t] = x;
    __syncthreads();
    for (int stride = TPB / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] = fmaxf(cache[t], cache[t + stride]);
        __syncthreads();
    }
    float m = cache[0];
    __syncthreads();
    float e = t < cols ? expf(x - m) : 0.0f;
    cache[t] = e;
    __syncthreads();
    for (int stride = TPB / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] += cache[t + stride];
        __syncthreads();
    }
    if (t < cols) out[row * cols + t] = e / cache[0];
}
