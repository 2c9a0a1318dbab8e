// The twin of p70: each element has one owner. The race check still says
// that it covers only the first part of the allocation, and reports no race.
// RUN: set race-check on
// EXPECT-SIM: the race check covers only the first
// EXPECT: first 1, last 1
// REJECT: data race
// REJECT: bad_alloc
#include <cstdio>

__global__ void both_blocks(int *a, size_t n)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) a[0] = 1;      // one owner for each element
    if (blockIdx.x == 1) a[n - 1] = 1;
}

int main()
{
    const size_t bytes = 1ull << 30, n = bytes / sizeof(int);
    int *big, first = 0, last = 0;
    cudaMalloc(&big, bytes);
    both_blocks<<<2, 32>>>(big, n);
    cudaMemcpy(&first, big, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&last, big + n - 1, sizeof(int), cudaMemcpyDeviceToHost);
    printf("first %d, last %d\n", first, last);
    cudaFree(big);
    return 0;
}
