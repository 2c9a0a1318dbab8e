// Every thread adds to one __shared__ counter with `total += x`: a
// read-modify-write by many threads. No barrier between the read and the
// write fixes it; an atomic (or a reduction) does.
// RUN: set race-check on
// EXPECT-SIM: block 0: data race on shared array total (declared at line 17), element 0
// EXPECT-SIM: thread 1 writes it at line 22 and thread 2 reads it at line 22
// EXPECT-SIM: make the update atomic
// REJECT: separate the two with __syncthreads()
// EXPECT-SCHEDULE: block 0: data race on shared array total (declared at line 17), element 0
// EXPECT-SCHEDULE: writes it at line 22 and thread
// EXPECT-SCHEDULE: reads it at line 22
// EXPECT-SCHEDULE: make the update atomic
#include <cstdio>

__global__ void count(const int *in, int *out)
{
    __shared__ int total;
    int t = threadIdx.x;
    if (t == 0) total = 0;
    __syncthreads();
    if (in[t] > 0)
        total += in[t];
    __syncthreads();
    if (t == 0) *out = total;
}

int main()
{
    int h[128], *d, *o, r = 0;
    for (int i = 0; i < 128; i++) h[i] = i % 3;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&o, sizeof r);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    count<<<1, 128>>>(d, o);
    cudaMemcpy(&r, o, sizeof r, cudaMemcpyDeviceToHost);
    printf("total %d\n", r);
    cudaFree(d);
    cudaFree(o);
    return 0;
}
