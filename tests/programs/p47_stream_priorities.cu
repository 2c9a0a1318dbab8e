// Stream priorities and flags: the device's range (a lower number is a
// higher priority), streams made with a priority and with the non-blocking
// flag, and what they report back.
// EXPECT: priorities from 0 (least) to -5 (greatest)
// EXPECT: high stream: priority -5, flags 1
// EXPECT: low stream: priority 0, flags 0
// EXPECT: both results right: 1 1
// EXPECT: exit status 0
#include <cstdio>

__global__ void square(int *p) { p[threadIdx.x] = threadIdx.x * threadIdx.x; }

int main()
{
    int least, greatest;
    cudaDeviceGetStreamPriorityRange(&least, &greatest);
    printf("priorities from %d (least) to %d (greatest)\n", least, greatest);
    cudaStream_t hi, lo;
    cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, greatest);
    cudaStreamCreateWithPriority(&lo, cudaStreamDefault, least);
    int p;
    unsigned f;
    cudaStreamGetPriority(hi, &p);
    cudaStreamGetFlags(hi, &f);
    printf("high stream: priority %d, flags %u\n", p, f);
    cudaStreamGetPriority(lo, &p);
    cudaStreamGetFlags(lo, &f);
    printf("low stream: priority %d, flags %u\n", p, f);
    int *a, *b, ha[32], hb[32];
    cudaMalloc(&a, sizeof ha);
    cudaMalloc(&b, sizeof hb);
    square<<<1, 32, 0, lo>>>(a);
    square<<<1, 32, 0, hi>>>(b);
    cudaMemcpyAsync(ha, a, sizeof ha, cudaMemcpyDeviceToHost, lo);
    cudaMemcpyAsync(hb, b, sizeof hb, cudaMemcpyDeviceToHost, hi);
    cudaDeviceSynchronize();
    printf("both results right: %d %d\n", ha[31] == 961, hb[5] == 25);
    cudaStreamDestroy(hi);
    cudaStreamDestroy(lo);
    return 0;
}
