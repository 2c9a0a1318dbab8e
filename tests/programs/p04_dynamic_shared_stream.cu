// Dynamic shared memory: extern __shared__ with the size from the launch,
// two views of the same bytes, and the fourth launch argument, a stream.
// EXPECT: block sums 496 1520 2544 3568
// EXPECT: first two 0 1
#include <cstdio>

__global__ void blocksum(const int *in, int *out)
{
    extern __shared__ int s[];
    extern __shared__ __align__(16) unsigned char raw[];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0] + (raw[0] == (unsigned char)s[0] ? 0 : 1000000);
}

int main()
{
    const int B = 32, G = 4;
    int h[B * G], r[G];
    for (int i = 0; i < B * G; i++) h[i] = i;
    int *in, *out;
    cudaStream_t st;
    cudaStreamCreate(&st);
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof r);
    cudaMemcpyAsync(in, h, sizeof h, cudaMemcpyHostToDevice, st);
    blocksum<<<G, B, B * sizeof(int), st>>>(in, out);
    cudaMemcpyAsync(r, out, sizeof r, cudaMemcpyDeviceToHost, st);
    cudaStreamSynchronize(st);
    printf("block sums %d %d %d %d\n", r[0], r[1], r[2], r[3]);
    printf("first two %d %d\n", h[0], h[1]);
    cudaStreamDestroy(st);
    return 0;
}
