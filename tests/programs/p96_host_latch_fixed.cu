// The latch of p96_host_latch opened before the launch: nothing waits for
// the host while a kernel runs, so the program ends the same on a GPU and
// on the simulator.
// EXPECT: released by the host: 1
// EXPECT: exit status 0
// REJECT: stopped: the time limit
#include <cstdio>

__global__ void clear(int *seen) { *seen = 0; }

// Idea: a latch the kernel finds open.
__global__ void wait_for_host(volatile int *latch, int *seen)
{
    while (*latch == 0) {
    }
    *seen = *latch;
}

int main()
{
    int *latch, *seen;
    cudaHostAlloc(&latch, sizeof(int), cudaHostAllocMapped);
    cudaMalloc(&seen, sizeof(int));
    *latch = 1; // open before the launch
    cudaStream_t s;
    cudaStreamCreate(&s);
    clear<<<1, 1, 0, s>>>(seen);
    wait_for_host<<<1, 1, 0, s>>>(latch, seen);
    cudaStreamSynchronize(s);
    int h = 0;
    cudaMemcpy(&h, seen, sizeof h, cudaMemcpyDeviceToHost);
    printf("released by the host: %d\n", h);
    cudaStreamDestroy(s);
    cudaFreeHost(latch);
    cudaFree(seen);
    return 0;
}
