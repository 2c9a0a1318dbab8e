// The kernel the generic animation's tests draw (tests/access/test_access.c
// builds its trace by hand, with these lines).
__global__ void shift(const int *a, int *out)
{
    __shared__ int s[8];
    int i = threadIdx.x;
    s[i] = a[i];
    __syncthreads();
    out[i / 2] = s[(i + 1) % 8]; // two threads write each out[k]: a race
}

__global__ void half(const int *a, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 32 < 16) out[i] = a[i] * 2;
}
