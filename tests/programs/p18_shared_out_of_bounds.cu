// An index one past the end of a shared array: on a GPU it silently reads or
// writes a neighbour's data; the simulator names the array and the thread.
// EXPECT-SIM: index 64 is outside shared array s[64] (declared at line 9)
// EXPECT-SIM: thread 63
#include <cstdio>

__global__ void shift(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    out[t] = s[t + 1];
}

int main()
{
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    shift<<<1, 64>>>(d);
    printf("synchronize: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
