// Managed memory hints in CUDA 12's forms, with a device number where CUDA
// 13 takes a memory location: CUDA 13 removed them, so nvcc 13 refuses this
// program, while the simulator, which has CUDA 13's forms too (p169), keeps
// these for the courses written for CUDA 12. The OLCF course's unified
// memory exercise prefetches this way.
// EXPECT-SIM: advise 0 0 prefetch 0 0 sum 4950
// EXPECT-SIM: exit status 0
// FAILS-GPU
// EXPECT-GPU: cudaMemLocation
#include <cstdio>

// Idea: one array for host and device; the hints only say where it should live.
__global__ void inc(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += i;
}

int main()
{
    const int n = 100;
    int *a;
    cudaMallocManaged(&a, n * sizeof(int));
    for (int i = 0; i < n; i++) a[i] = 0;
    int r1 = cudaMemAdvise(a, n * sizeof(int), cudaMemAdviseSetPreferredLocation, 0);
    int r2 = cudaMemAdvise(a, n * sizeof(int), cudaMemAdviseSetAccessedBy, 0);
    int p1 = cudaMemPrefetchAsync(a, n * sizeof(int), 0);
    inc<<<1, 128>>>(a, n);
    int p2 = cudaMemPrefetchAsync(a, n * sizeof(int), cudaCpuDeviceId);
    cudaDeviceSynchronize();
    int sum = 0;
    for (int i = 0; i < n; i++) sum += a[i];
    printf("advise %d %d prefetch %d %d sum %d\n", r1, r2, p1, p2, sum);
    cudaFree(a);
    return 0;
}
