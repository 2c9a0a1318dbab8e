// printf from device code (one line per thread that prints) and __half
// arithmetic, which rounds to 11 significant bits.
// EXPECT: thread 0 of block 1 sees 10
// EXPECT: thread 0 of block 0 sees 0
// EXPECT: half: 1 + 1/2048 = 1, 1 + 1/1024 = 1.000977
#include <cstdio>
#include <cuda_fp16.h>

__global__ void hello(const int *v)
{
    __shared__ int s[4];
    s[threadIdx.x] = v[blockIdx.x * 4 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) printf("thread %d of block %d sees %d\n", threadIdx.x, blockIdx.x, s[0]);
}

__global__ void halves(float *out)
{
    __half one = __float2half(1.0f);
    __half a = __hadd(one, __float2half(1.0f / 2048));
    __half b = one + __float2half(1.0f / 1024);
    out[0] = __half2float(a);
    out[1] = __half2float(b);
}

int main()
{
    int h[8] = {0, 1, 2, 3, 10, 11, 12, 13}, *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    hello<<<2, 4>>>(d);
    cudaDeviceSynchronize();
    float *o, r[2];
    cudaMalloc(&o, sizeof r);
    halves<<<1, 1>>>(o);
    cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
    printf("half: 1 + 1/2048 = %g, 1 + 1/1024 = %f\n", r[0], r[1]);
    return 0;
}
