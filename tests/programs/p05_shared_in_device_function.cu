// Shared memory declared inside a __device__ function (one array per block,
// whichever function declares it) and a 3D shared array.
// EXPECT: scan 0 1 3 6 10 15 21 28
// EXPECT: cube 7
#include <cstdio>

__device__ int inclusive_scan(int v)
{
    __shared__ int buf[64];
    int t = threadIdx.x;
    buf[t] = v;
    __syncthreads();
    for (int d = 1; d < blockDim.x; d *= 2) {
        int add = t >= d ? buf[t - d] : 0;
        __syncthreads();
        buf[t] += add;
        __syncthreads();
    }
    return buf[t];
}

__global__ void scan(int *out, int *cube_out)
{
    __shared__ int cube[2][2][2];
    int t = threadIdx.x;
    out[t] = inclusive_scan(t);
    if (t < 8) cube[t / 4][(t / 2) % 2][t % 2] = t;
    __syncthreads();
    if (t == 0) *cube_out = cube[1][1][1];
}

int main()
{
    int *d, *c, h[64], hc;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&c, sizeof hc);
    scan<<<1, 64>>>(d, c);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hc, c, sizeof hc, cudaMemcpyDeviceToHost);
    printf("scan");
    for (int i = 0; i < 8; i++) printf(" %d", h[i]);
    printf("\ncube %d\n", hc);
    return 0;
}
