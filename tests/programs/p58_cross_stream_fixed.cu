// The twin of p58: an event recorded after the producer and waited for by
// the consumer's stream orders the two kernels across the streams.
// RUN: set race-check on
// EXPECT: c[5] = 2
// REJECT: data race
#include <cstdio>

__global__ void produce(float *b)
{
    b[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

__global__ void consume(const float *b, float *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = b[i] + 1.0f;
}

int main()
{
    const int n = 256;
    float h[n], *b, *c;
    cudaMalloc(&b, sizeof h);
    cudaMalloc(&c, sizeof h);
    cudaStream_t s1, s2;
    cudaEvent_t made;
    cudaStreamCreate(&s1);
    cudaStreamCreate(&s2);
    cudaEventCreate(&made);
    produce<<<n / 64, 64, 0, s1>>>(b);
    cudaEventRecord(made, s1);
    cudaStreamWaitEvent(s2, made, 0);
    consume<<<n / 64, 64, 0, s2>>>(b, c);
    cudaDeviceSynchronize();
    cudaMemcpy(h, c, sizeof h, cudaMemcpyDeviceToHost);
    printf("c[5] = %g\n", h[5]);
    cudaEventDestroy(made);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaFree(b);
    cudaFree(c);
    return 0;
}
