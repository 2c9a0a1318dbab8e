// A student's program for the automatic trace of warp collectives: a warp's
// sum by shuffles, a ballot, then the two warps' sums through shared memory
// after a barrier. Its lines are what the tests look for.
#include <cstdio>

__global__ void wsum(const int *in, int *out, unsigned *votes)
{
    __shared__ int part[2];
    int t = threadIdx.x, lane = t % 32;
    int v = in[t];
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    unsigned big = __ballot_sync(0xffffffffu, v > 40);
    if (lane == 0) {
        part[t / 32] = v;
        votes[t / 32] = big;
    }
    __syncthreads();
    if (t == 0) out[0] = part[0] + part[1];
}

int main()
{
    const int n = 64;
    int h[n], *d_in, *d_out;
    unsigned *d_votes;
    for (int i = 0; i < n; i++) h[i] = i;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, sizeof(int));
    cudaMalloc(&d_votes, 2 * sizeof(unsigned));
    cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
    wsum<<<1, n>>>(d_in, d_out, d_votes);
    cudaMemcpy(h, d_out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("sum = %d\n", h[0]);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_votes);
    return 0;
}
