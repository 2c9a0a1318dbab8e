// __syncthreads() inside a branch that only some threads take: undefined on
// a GPU (it may hang or give wrong sums); the simulator stops and says which
// threads wait where.
// EXPECT-SIM: threads 0-15 wait at __syncthreads (line 16)
// EXPECT-SIM: every thread of a block must reach
// EXPECT-SIM: synchronize: unspecified launch failure
#include <cstdio>

__global__ void half_barrier(int *out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = t;
    if (t < 16) {
        s[t] += s[t + 16];
        __syncthreads();
    }
    if (t == 0) *out = s[0];
}

int main()
{
    int *d;
    cudaMalloc(&d, sizeof(int));
    half_barrier<<<1, 32>>>(d);
    printf("synchronize: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
