// One past the end of each kind of array a kernel can reach, in one kernel
// (a failed launch would stop the next ones), each with a size that is not a
// multiple of 16 bytes: cudaMallocManaged memory (5 ints), a __device__ array
// indexed directly (3 ints), a three-dimensional shared array through a
// pointer (2 x 2 x 3 ints), the dynamic shared array through a pointer (5
// floats from the launch) and a local array indexed directly (3 floats). On
// a GPU none of these stops the kernel; the simulator reports each once,
// with its line.
// EXPECT-SIM: kinds: block 0, thread 0, at line 31 writes 4 bytes at byte 20 of m (20 bytes from cudaMallocManaged at line 47): 0 bytes past its end
// EXPECT-SIM: kinds: block 0, thread 0, at line 32: index 3 is outside the array of type 'int [3]'
// EXPECT-SIM: kinds: block 0, thread 0, at line 36 writes 4 bytes 0 bytes past the end of shared array c[2][2][3] (48 bytes, declared at line 29), through a pointer
// EXPECT-SIM: kinds: block 0, thread 0, at line 38 writes 4 bytes 0 bytes past the end of the dynamic shared array s (20 bytes, declared at line 28), through a pointer
// EXPECT-SIM: kinds: block 0, thread 0, at line 40: index 3 is outside the array of type 'float [3]'
// EXPECT-SIM: kinds: cudaErrorIllegalAddress
// REJECT: through a pointer past the end of the array it points into
// REJECT: of dv (12 bytes
// MEMCHECK
#include <cstdio>

#ifndef PAST
#define PAST 1
#endif

__device__ int dv[3];

__global__ void kinds(int *m, int k)
{
    extern __shared__ float s[];
    __shared__ int c[2][2][3];
    float w[3] = {1, 2, 3};
    m[4 + k] = 1;
    dv[2 + k] = 2;
    int *pc = &c[0][0][0];
    for (int i = 0; i < 12; i++)
        pc[i] = i;
    pc[11 + k] = 3;
    float *ps = s;
    ps[4 + k] = 4;
    float sum = 0;
    sum += w[2 + k];
    if (!PAST) m[0] = (int)sum + dv[2] + c[1][1][2] + (int)s[4];
}

int main()
{
    int *m;
    cudaMallocManaged(&m, 5 * sizeof(int));
    kinds<<<1, 1, 5 * sizeof(float)>>>(m, PAST);
    printf("kinds: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    if (!PAST) printf("m[0] = %d\n", m[0]);
    cudaFree(m);
    return 0;
}
