// Host functions in stream order: cudaLaunchHostFunc and
// cudaStreamAddCallback run on the host after the stream's earlier work,
// so they see the kernel's result copied back.
// EXPECT: host function sees 32
// EXPECT: callback sees 64, status no error
// EXPECT: exit status 0
#include <cstdio>

__global__ void add(int *p, int v) { atomicAdd(p, v); }

struct box {
    int value;
};

void CUDART_CB after_first(void *user)
{
    printf("host function sees %d\n", ((box *)user)->value);
}

void CUDART_CB after_second(cudaStream_t, cudaError_t status, void *user)
{
    printf("callback sees %d, status %s\n", ((box *)user)->value, cudaGetErrorString(status));
}

int main()
{
    int *d;
    box b{0};
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMalloc(&d, sizeof(int));
    cudaMemsetAsync(d, 0, sizeof(int), s);
    add<<<1, 32, 0, s>>>(d, 1);
    cudaMemcpyAsync(&b.value, d, sizeof(int), cudaMemcpyDeviceToHost, s);
    cudaLaunchHostFunc(s, after_first, &b);
    add<<<1, 32, 0, s>>>(d, 1);
    cudaMemcpyAsync(&b.value, d, sizeof(int), cudaMemcpyDeviceToHost, s);
    cudaStreamAddCallback(s, after_second, &b, 0);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
    return 0;
}
