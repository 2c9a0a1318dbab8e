// Blocks of unequal length that meet through nothing: each block sums its
// 256 values with a shared-memory tree (a barrier per step), block 0 forty
// times over, the others once. On the simulator with several worker
// threads (`set sim-threads`) block 0 is still running while the next
// blocks end; what the recording gives its readers (`trace`, `profile`,
// the estimated GPU time) is still in block order, as with one worker.
// EXPECT: sum of the partial sums: 2147450880 (expected 2147450880)
// EXPECT: block 0 summed its values 40 times
#include <cstdio>
#include <cuda_runtime.h>

__global__ void uneven(const int *in, long long *partial, int *rounds_done)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    int rounds = blockIdx.x == 0 ? 40 : 1;
    int sum = 0;
    for (int r = 0; r < rounds; r++) {
        s[t] = in[i];
        __syncthreads();
        for (unsigned k = blockDim.x / 2; k > 0; k /= 2) {
            if (t < k) s[t] += s[t + k];
            __syncthreads();
        }
        sum = s[0];
        __syncthreads(); // s[0] is read before the next round overwrites it
    }
    if (t == 0) {
        partial[blockIdx.x] = sum;
        rounds_done[blockIdx.x] = rounds;
    }
}

int main()
{
    const int n = 1 << 16, nb = n / 256;
    int *in, *rounds;
    long long *partial;
    cudaMallocManaged(&in, n * sizeof *in);
    cudaMallocManaged(&partial, nb * sizeof *partial);
    cudaMallocManaged(&rounds, nb * sizeof *rounds);
    long long want = 0;
    for (int i = 0; i < n; i++) {
        in[i] = 65535 - i;
        want += in[i];
    }
    uneven<<<nb, 256>>>(in, partial, rounds);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("uneven: %s\n", cudaGetErrorString(e));
        return 1;
    }
    long long total = 0;
    for (int b = 0; b < nb; b++) total += partial[b];
    printf("sum of the partial sums: %lld (expected %lld)\n", total, want);
    printf("block 0 summed its values %d times\n", rounds[0]);
    cudaFree(in);
    cudaFree(partial);
    cudaFree(rounds);
    return 0;
}
