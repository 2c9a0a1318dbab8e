// An allocation too big for the race check's shadow (12 bytes for
// every byte): the race check covers its first part and says so, and the
// program runs to its end. Two blocks write the first element (a race the
// check sees) and the last one (past the part it covers).
// RUN: set race-check on
// EXPECT-SIM: the race check covers only the first
// EXPECT-SIM: of big (1073741824 bytes from cudaMalloc at line 28)
// EXPECT-SIM: blocks 0 and 1: data race on big (1073741824 bytes from cudaMalloc at line 28), element 0 (bytes 0-3): block 0, thread 0 writes it at line 20 and block 1, thread 0 writes it at line 20
// EXPECT-SIM: races in the rest of it are not reported
// EXPECT-SCHEDULE: the race check covers only the first
// EXPECT-SCHEDULE: data race on big (1073741824 bytes from cudaMalloc at line 28), element 0
// EXPECT: first 1, last 1
// REJECT: element 268435455
// REJECT: bad_alloc
#include <cstdio>

__global__ void both_blocks(int *a, size_t n)
{
    if (threadIdx.x != 0) return;
    a[0] = 1;      // two blocks write it: one owner would do
    a[n - 1] = 1;  // the same, but past what the shadow covers
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
