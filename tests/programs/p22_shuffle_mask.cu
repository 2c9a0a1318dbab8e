// A shuffle that reads from a lane the mask leaves out: undefined in CUDA.
// The mask names only the lower 16 lanes, yet lane 15 asks lane 16.
// EXPECT-SIM: lane 15 reads lane 16 with __shfl_down_sync (line 11), but the mask 0x0000ffff leaves lane 16 out
#include <cstdio>

__global__ void lower_half(int *out)
{
    int v = threadIdx.x;
    unsigned mask = 0x0000ffffu;
    if (threadIdx.x < 16) {
        v += __shfl_down_sync(mask, v, 1);
        out[threadIdx.x] = v;
    }
}

int main()
{
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    lower_half<<<1, 32>>>(d);
    printf("synchronize: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
