// The twin of p65: block 0 calls __threadfence() between the value and the
// volatile flag, so a block that sees the flag up sees the value too (a
// fence and a flag: release and acquire). The flag's volatile accesses do
// not race with each other, and the race check stays silent.
// RUN: set race-check on
// EXPECT: consistent
// REJECT: data race
#include <cstdio>

__global__ void publish(int *value, volatile int *flag, int *seen)
{
    // block 0 produces, block 1 consumes; the flag starts at 0
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        *value = 42;
        __threadfence();
        *flag = 1;
    } else {
        *seen = *flag ? *value : -1;
    }
}

int main()
{
    int *d_value, *d_flag, *d_seen, seen = 0, zero = 0;
    cudaMalloc(&d_value, sizeof(int));
    cudaMalloc(&d_flag, sizeof(int));
    cudaMalloc(&d_seen, sizeof(int));
    cudaMemcpy(d_flag, &zero, sizeof zero, cudaMemcpyHostToDevice);
    cudaMemcpy(d_value, &zero, sizeof zero, cudaMemcpyHostToDevice);
    publish<<<2, 32>>>(d_value, d_flag, d_seen);
    cudaMemcpy(&seen, d_seen, sizeof seen, cudaMemcpyDeviceToHost);
    // the flag down (-1) or the value with it: anything else is a bug
    printf("%s\n", seen == -1 || seen == 42 ? "consistent" : "inconsistent");
    cudaFree(d_value);
    cudaFree(d_flag);
    cudaFree(d_seen);
    return 0;
}
