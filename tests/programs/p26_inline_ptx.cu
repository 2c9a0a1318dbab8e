// Inline PTX runs only on an NVIDIA GPU: the simulator refuses the file
// before compiling it, with the line and the reason.
// EXPECT-SIM: p26_inline_ptx.cu:11: inline assembly (asm, PTX) runs only on an NVIDIA GPU
// EXPECT-GPU: lanes 0 1 2
// FAILS-SIM
#include <cstdio>

__global__ void lanes(int *out)
{
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    out[threadIdx.x] = (int)lane;
}

int main()
{
    int *d, h[3];
    cudaMalloc(&d, sizeof h);
    lanes<<<1, 3>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("lanes %d %d %d\n", h[0], h[1], h[2]);
    return 0;
}
