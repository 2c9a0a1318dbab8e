// The cost of watching the host's own memory (bench/hostwatch.sh): a kernel
// whose threads read a local array through a pointer in a loop, every read
// an access outside device memory, run while a small malloc'd array (low in
// the heap) and a large one (mapped high) are alive (argument 1) or after
// they were freed (argument 0).
#include <cstdio>
#include <cstdlib>

// Idea: a local array read through a pointer stays in the thread's memory.
__device__ __noinline__ float pick(const float *loc, int i)
{
    return loc[i & 15];
}

__global__ void work(float *out, int iters)
{
    float acc = 0, loc[16];
    for (int j = 0; j < 16; j++) loc[j] = threadIdx.x + j;
    for (int i = 0; i < iters; i++) acc += pick(loc, i + threadIdx.x) * 0.5f + blockIdx.x;
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main(int argc, char **argv)
{
    int live = argc > 1 && argv[1][0] == '1';
    float *small = (float *)malloc(64), *big = (float *)malloc(64 << 20), *d;
    small[0] = big[0] = 1;
    if (!live) {
        free(small);
        free(big);
    }
    cudaMalloc(&d, 256 * 256 * sizeof(float));
    for (int r = 0; r < 3; r++) work<<<256, 256>>>(d, 400);
    cudaDeviceSynchronize();
    cudaFree(d);
    if (live) {
        free(small);
        free(big);
    }
    printf("host allocations %s during the launches\n", live ? "alive" : "freed");
    return 0;
}
