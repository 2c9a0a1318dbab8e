// A reduction that relies on warp lockstep: the last steps inside a warp
// read a neighbour's element while the neighbour writes its own, with no
// __syncwarp() in between. Lane after lane, as the simulator's fixed order
// runs them, the sum comes out wrong; on a GPU it may come out right or not.
// RUN: set race-check on
// EXPECT-SIM: block 0: data race on shared array s (declared at line 18)
// EXPECT-SIM: thread 0 reads it at line 25 and thread 1 writes it at line 25
// EXPECT-SIM: both in warp 0
// EXPECT-SIM: __syncwarp()
// EXPECT-SCHEDULE: block 0: data race on shared array s (declared at line 18)
// EXPECT-SCHEDULE: reads it at line 25 and thread
// EXPECT-SCHEDULE: writes it at line 25
// EXPECT-SCHEDULE: both in warp 0
#include <cstdio>

__global__ void sum32(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    s[t + 32] = 0;
    __syncwarp();
    // every lane adds its partner's element in place
    for (int k = 16; k > 0; k /= 2)
        s[t] += s[t + k];
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
