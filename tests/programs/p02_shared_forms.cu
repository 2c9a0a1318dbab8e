// Every way of declaring shared memory inside a kernel: several arrays in one
// declaration, static, volatile, a scalar, a 2D array and an aligned one.
// EXPECT: sums 8128 8128 8128 8128
// EXPECT: count 128 rows 127
#include <cstdio>

#define N 128

__global__ void forms(const int *in, int *out)
{
    __shared__ int a[N], b[N];
    static __shared__ int c[N];
    volatile __shared__ int d[N];
    __shared__ int count;
    __shared__ float grid2[2][N];
    __shared__ __align__(16) unsigned char bytes[N];
    int t = threadIdx.x;
    if (t == 0) count = 0;
    a[t] = in[t];
    b[t] = in[t];
    c[t] = in[t];
    d[t] = in[t];
    grid2[1][t] = (float)t;
    bytes[t] = (unsigned char)t;
    __syncthreads();
    atomicAdd(&count, 1);
    for (int s = N / 2; s > 0; s /= 2) {
        if (t < s) {
            a[t] += a[t + s];
            b[t] += b[t + s];
            c[t] += c[t + s];
            d[t] += d[t + s];
        }
        __syncthreads();
    }
    if (t == 0) {
        out[0] = a[0]; out[1] = b[0]; out[2] = c[0]; out[3] = d[0];
        out[4] = count;
        out[5] = (int)grid2[1][N - 1] == bytes[N - 1] ? N - 1 : -1;
    }
}

int main()
{
    int h[N], r[6];
    for (int i = 0; i < N; i++) h[i] = i;
    int *in, *out;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof r);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    forms<<<1, N>>>(in, out);
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("sums %d %d %d %d\n", r[0], r[1], r[2], r[3]);
    printf("count %d rows %d\n", r[4], r[5]);
    return 0;
}
