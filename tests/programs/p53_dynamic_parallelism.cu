// Dynamic parallelism: a kernel launches kernels. Each level halves the
// range and launches a child grid for each half, down to ranges of 4; the
// children finish before their parent's grid counts as finished, so the
// host sees every leaf's work after one synchronize.
// EXPECT: leaves 16, every element marked: yes
// EXPECT: exit status 0
#include <cstdio>

__global__ void split(int *data, int *leaves, int lo, int hi)
{
    if (hi - lo <= 4) {
        for (int i = lo; i < hi; i++) data[i] = 1;
        atomicAdd(leaves, 1);
        return;
    }
    int mid = (lo + hi) / 2;
    split<<<1, 1>>>(data, leaves, lo, mid);
    split<<<1, 1>>>(data, leaves, mid, hi);
}

int main()
{
    int *d, *leaves, h[64], nl = 0;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&leaves, sizeof(int));
    cudaMemset(d, 0, sizeof h);
    cudaMemset(leaves, 0, sizeof(int));
    split<<<1, 1>>>(d, leaves, 0, 64);
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(&nl, leaves, sizeof nl, cudaMemcpyDeviceToHost);
    int all = 1;
    for (int i = 0; i < 64; i++) all &= h[i] == 1;
    printf("leaves %d, every element marked: %s\n", nl, all ? "yes" : "no");
    return 0;
}
