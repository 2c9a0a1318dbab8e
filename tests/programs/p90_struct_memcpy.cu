// Records copied whole, with memcpy and with a struct assignment, by a kernel
// whose guard is `i <= n` (the classic off-by-one): thread 100 copies the
// 28-byte record after the last. On a GPU nothing stops it (the padding or
// the next allocation is read and overwritten); the simulator checks every
// byte memcpy and the assignment touch, at their lines.
// EXPECT-SIM: copy_memcpy: block 3, thread 4, at line 31 reads 16 bytes at byte 2800 of in (2800 bytes from cudaMalloc at line 42): 0 bytes past its end
// EXPECT-SIM: copy_memcpy: block 3, thread 4, at line 31 writes 16 bytes at byte 2800 of out (2800 bytes from cudaMalloc at line 43): 0 bytes past its end
// EXPECT-SIM: memcpy: cudaErrorIllegalAddress
#include <cstdio>
#include <cstring>

#ifndef LAST
#define LAST(n) (i <= (n))
#endif

struct Particle {
    int id;
    float pos[3], vel[3];
};

// Idea: a struct copy is an access of every byte of the struct.
__global__ void copy_assign(const Particle *in, Particle *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (LAST(n)) out[i] = in[i];
}

__global__ void copy_memcpy(const Particle *in, Particle *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (LAST(n)) memcpy(&out[i], &in[i], sizeof(Particle));
}

int main()
{
    const int n = 100;
    Particle h[n], r[n], *in, *out;
    for (int i = 0; i < n; i++) {
        h[i].id = i;
        for (int k = 0; k < 3; k++) h[i].pos[k] = i + k, h[i].vel[k] = -k;
    }
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
#ifdef ASSIGN
    copy_assign<<<4, 32>>>(in, out, n);
    printf("assignment: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
#else
    copy_memcpy<<<4, 32>>>(in, out, n);
    printf("memcpy: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
#endif
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("last record: %d %.0f\n", r[n - 1].id, r[n - 1].pos[2]);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
// MEMCHECK: what it expects comes from the simulator's memory checks
