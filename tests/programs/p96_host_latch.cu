// A kernel that holds its stream until the host, after the launch, writes
// a flag in mapped host memory (NVIDIA's UnifiedMemoryPerf sample does this
// so that all the work is queued before any of it starts). On the GPU the
// launch returns at once and the host sets the flag. On the simulator a
// launch ends before the host goes on, the order CUDA_LAUNCH_BLOCKING=1
// gives on a GPU, so the kernel waits for ever: the time limit stops it and
// gpulab names the cause. gpulab calls a stop a wait when the kernel ran
// 1000 times as long as its size needs at the earlier launch's rate; a
// one-thread launch took up to 4.4 ms in the sanitizer build on a busy
// machine, hence a limit of 10 s rather than 3.
// RUN: set time-limit 10
// FAILS-SIM
// EXPECT-GPU: released by the host: 1
// EXPECT-GPU: exit status 0
// EXPECT-SIM: kernel wait_for_host (launched at line 40) was running
// EXPECT-SIM: a value the host writes after the launch
// EXPECT-SIM: CUDA_LAUNCH_BLOCKING=1
// REJECT: a kernel that is only big
#include <cstdio>

__global__ void clear(int *seen) { *seen = 0; }

// Idea: a latch: the kernel spins until the host opens it.
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
    *latch = 0;
    cudaStream_t s;
    cudaStreamCreate(&s);
    clear<<<1, 1, 0, s>>>(seen);
    wait_for_host<<<1, 1, 0, s>>>(latch, seen);
    *latch = 1; // the host opens the latch while the kernel runs
    cudaStreamSynchronize(s);
    int h = 0;
    cudaMemcpy(&h, seen, sizeof h, cudaMemcpyDeviceToHost);
    printf("released by the host: %d\n", h);
    cudaStreamDestroy(s);
    cudaFreeHost(latch);
    cudaFree(seen);
    return 0;
}
