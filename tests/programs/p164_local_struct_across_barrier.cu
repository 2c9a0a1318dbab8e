// A struct declared inside a kernel, whose variable lives across a
// barrier: each thread keeps its own.
// EXPECT: pairs: 0+0 1+10 2+20 3+30 | 31+310
// EXPECT: exit status 0
#include <cstdio>

// Idea: a kernel may declare its own types; its threads' variables of
// them keep their values across __syncthreads() like any other.
__global__ void pairs(int *out)
{
    struct pair {
        int a, b;
    };
    __shared__ int tens[32];
    pair p = {(int)threadIdx.x, 0};
    tens[threadIdx.x] = 10 * threadIdx.x;
    __syncthreads();
    p.b = tens[p.a];
    out[2 * threadIdx.x] = p.a;
    out[2 * threadIdx.x + 1] = p.b;
}

int main()
{
    int *d, h[64];
    cudaMalloc(&d, sizeof h);
    pairs<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("pairs: %d+%d %d+%d %d+%d %d+%d | %d+%d\n", h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[62], h[63]);
    cudaFree(d);
    return 0;
}
