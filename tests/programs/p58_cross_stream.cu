// Two streams with nothing between them: the second stream's kernel reads
// what the first stream's kernel writes, but streams run independently, so
// the reader may run first, or at the same time.
// RUN: set race-check on
// EXPECT-SIM: data race on b (1024 bytes from cudaMalloc at line 29)
// EXPECT-SIM: produce (an earlier launch) writes it at line 16 and consume, block 0, thread 0 reads it at line 22
// EXPECT-SIM: cudaStreamWaitEvent
// EXPECT-SCHEDULE: data race on b (1024 bytes from cudaMalloc at line 29)
// EXPECT-SCHEDULE: produce (an earlier launch) writes it at line 16 and consume
// EXPECT-SCHEDULE: reads it at line 22
// EXPECT-SCHEDULE: cudaStreamWaitEvent
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
    cudaStreamCreate(&s1);
    cudaStreamCreate(&s2);
    produce<<<n / 64, 64, 0, s1>>>(b);
    consume<<<n / 64, 64, 0, s2>>>(b, c);
    cudaDeviceSynchronize();
    cudaMemcpy(h, c, sizeof h, cudaMemcpyDeviceToHost);
    printf("c[5] = %g\n", h[5]);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaFree(b);
    cudaFree(c);
    return 0;
}
