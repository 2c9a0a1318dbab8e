// Device memory never given back: the program frees `a` but not `b`. A GPU
// frees it when the program ends; compute-sanitizer --leak-check full and
// the simulator list it, with the line of its cudaMalloc.
// EXPECT-SIM: simulator: 1 allocation was never freed (a leak: each cudaMalloc needs its cudaFree):
// EXPECT-SIM: leaked: b (2048 bytes from cudaMalloc at line 20)
// REJECT: leaked: a (
// EXPECT: sum 512
#include <cstdio>

__global__ void ones(int *a, int *b)
{
    a[threadIdx.x] = 1;
    b[threadIdx.x] = 1;
}

int main()
{
    int *a, *b, h[512];
    cudaMalloc(&a, 512 * sizeof(int));
    cudaMalloc(&b, 512 * sizeof(int));
    ones<<<1, 512>>>(a, b);
    cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
    int sum = 0;
    for (int i = 0; i < 512; i++) sum += h[i];
    printf("sum %d\n", sum);
    cudaFree(a);
#ifdef CORRECT
    cudaFree(b);
#endif
    return 0;
}
// MEMCHECK: what it expects comes from the simulator's memory checks
