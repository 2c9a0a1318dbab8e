// A volatile flag without a fence: block 0 writes a value and then raises a
// volatile flag; block 1 reads the value when it sees the flag up. volatile
// makes the flag's accesses relaxed ones (PTX), which do not race with each
// other, but nothing orders the value's write before the flag's: a GPU may
// make the flag visible first. The race is on the value, not on the flag.
// RUN: set race-check on
// EXPECT-SIM: blocks 0 and 1: data race on d_value (4 bytes from cudaMalloc at line 30), element 0 (bytes 0-3): block 0, thread 0 writes it at line 20 and block 1, thread 0 reads it at line 23
// EXPECT-SIM: one block reads what another block writes in the same launch
// EXPECT-SIM: __threadfence()
// EXPECT-SCHEDULE: data race on d_value (4 bytes from cudaMalloc at line 30), element 0
// EXPECT: consistent
// REJECT: data race on d_flag
#include <cstdio>

__global__ void publish(int *value, volatile int *flag, int *seen)
{
    // block 0 produces, block 1 consumes; the flag starts at 0
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        *value = 42;
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
