// Inline assembly in host code is the host compiler's business, as under
// nvcc: here an empty asm statement that only keeps the compiler from moving
// memory accesses across it (a compiler barrier). The simulator refuses
// inline assembly in device code only (PTX: p26), so this program runs.
// EXPECT: sum 4950
#include <cstdio>

__global__ void add(const int *x, int *sum, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(sum, x[i]);
}

static void host_barrier(void)
{
    asm volatile("" ::: "memory");
}

int main()
{
    const int n = 100;
    int h[n];
    for (int i = 0; i < n; i++) h[i] = i;
    host_barrier();
    int *x, *sum, s = 0;
    cudaMalloc(&x, sizeof h);
    cudaMalloc(&sum, sizeof(int));
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(sum, 0, sizeof(int));
    add<<<(n + 31) / 32, 32>>>(x, sum, n);
    cudaMemcpy(&s, sum, sizeof s, cudaMemcpyDeviceToHost);
    printf("sum %d\n", s);
    cudaFree(x);
    cudaFree(sum);
    return 0;
}
