// A student's program for the generic animation's tests: a reversal through
// shared memory, then pairs of threads adding into one global cell without
// an atomic (a race). Its lines are what the tests look for.
#include <cstdio>

__global__ void reverse(const int *in, int *out, int *sum, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[n - 1 - t];
    sum[t / 2] += s[t];
}

int main()
{
    const int n = 64;
    int h[n], *d_in, *d_out, *d_sum;
    for (int i = 0; i < n; i++) h[i] = i;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_out, n * sizeof(int));
    cudaMalloc(&d_sum, n / 2 * sizeof(int));
    cudaMemset(d_sum, 0, n / 2 * sizeof(int));
    cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
    reverse<<<1, n>>>(d_in, d_out, d_sum, n);
    cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
    printf("out[0] = %d\n", h[0]);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_sum);
    return 0;
}
