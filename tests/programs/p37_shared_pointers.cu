// One past the end of every kind of shared array, through pointers and a
// device function, in one launch: the dynamic array (extern __shared__), a
// static array, and a row of an array of arrays given to a device function.
// On the H200 only the write past buf (the block's last shared bytes) fails
// the launch; the other two hit other arrays unseen. The simulator reports
// all three: array, declaration, size, line and how far past the end.
// EXPECT-SIM: shared_k: block 0, thread 63, at line 28 writes 4 bytes 0 bytes past the end of the dynamic shared array buf (256 bytes, declared at line 23), through a pointer
// EXPECT-SIM: shared_k: block 0, thread 63, at line 30 writes 4 bytes 0 bytes past the end of shared array tile[64] (256 bytes, declared at line 24), through a pointer
// EXPECT-SIM: shared_k: block 0, thread 31, at line 19 writes 4 bytes 0 bytes past the end of shared array s[2][32] (256 bytes, declared at line 25), through a pointer
// EXPECT-SIM: shared_k: cudaErrorIllegalAddress
// EXPECT-GPU: shared_k: cudaErrorIllegalAddress
#include <cstdio>
#ifdef CORRECT
#define PAST 0
#else
#define PAST 1
#endif

__device__ void fill(int *row, int i, int v) { row[i] = v; }

__global__ void shared_k(float *out)
{
    extern __shared__ float buf[];
    __shared__ float tile[64];
    __shared__ int s[2][32];
    int t = threadIdx.x;
    float *p = buf;
    p[t + PAST] = t;
    float *q = &tile[0];
    q[t + PAST] = 2 * t;
    if (t < 32) {
        fill(s[0], t, t);
        fill(s[1], t + PAST, t);
    }
    __syncthreads();
    if (t < 63) out[t] = buf[t] + tile[t] + (t < 32 ? s[0][t] + s[1][t] : 0);
}

int main()
{
    float *f;
    cudaMalloc(&f, 64 * sizeof(float));
    shared_k<<<1, 64, 64 * sizeof(float)>>>(f);
    printf("shared_k: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(f);
    return 0;
}
// MEMCHECK: what it expects comes from the simulator's memory checks
