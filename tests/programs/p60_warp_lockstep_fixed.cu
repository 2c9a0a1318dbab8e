// The twin of p60: each step reads the partner's element, waits for the
// whole warp (__syncwarp), and only then writes; the next step waits again.
// RUN: set race-check on
// EXPECT: sum 32
// REJECT: data race
#include <cstdio>

__global__ void sum32(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    s[t + 32] = 0;
    __syncwarp();
    for (int k = 16; k > 0; k /= 2) {
        int v = s[t] + s[t + k];
        __syncwarp();
        s[t] = v;
        __syncwarp();
    }
    if (t == 0) *out = s[0];
}

int main()
{
    int h[32], *d, *o, r = 0;
    for (int i = 0; i < 32; i++) h[i] = 1;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&o, sizeof r);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    sum32<<<1, 32>>>(d, o);
    cudaMemcpy(&r, o, sizeof r, cudaMemcpyDeviceToHost);
    printf("sum %d\n", r);
    cudaFree(d);
    cudaFree(o);
    return 0;
}
