// cuRAND's host API: a generator fills device memory with a whole array of
// random numbers at once, then a kernel uses them. The default XORWOW
// generator, Philox and Sobol32 in two dimensions; the integers are
// printed in hex and the floats bit for bit. With every check on, the
// kernel's reads of what the generator wrote count as reads of written memory.
// RUN: set check all
// REJECT: nothing has written
// EXPECT: xorwow: d1abb97b 0x1.03bc88p-2
// EXPECT: xorwow: 63941d00 0x1.f9cc38p-4
// EXPECT: xorwow: 77638b42 0x1.85d712p-1
// EXPECT: pi is about 3.1367 (3212 of 4096 points inside)
// EXPECT: philox normal: -2.2237
// EXPECT: philox normal: -0.9201
// EXPECT: philox normal: -2.7434
// EXPECT: sobol: 0x1.004p-2
// EXPECT: sobol: 0x1.000008p-12
// EXPECT: sobol: 0x1p-2
#include <cstdio>
#include <curand.h>

#define CURAND_OK(call)                                                          \
    do {                                                                         \
        curandStatus_t st = (call);                                              \
        if (st != CURAND_STATUS_SUCCESS) {                                       \
            printf("%s failed: %d (line %d)\n", #call, (int)st, __LINE__);       \
            return 1;                                                            \
        }                                                                        \
    } while (0)

// a kernel that reads what the generator wrote: points inside the circle
__global__ void inside(const float *xy, int n, unsigned *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && xy[i] * xy[i] + xy[n + i] * xy[n + i] <= 1.0f) atomicAdd(count, 1u);
}

int main()
{
    const int n = 4096;
    float *xy, h[8];
    unsigned *ints, h_ints[8], *count, h_count = 0;
    cudaMalloc(&xy, 2 * n * sizeof(float));
    cudaMalloc(&ints, n * sizeof(unsigned));
    cudaMalloc(&count, sizeof(unsigned));
    cudaMemset(count, 0, sizeof(unsigned));

    curandGenerator_t gen;
    CURAND_OK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
    CURAND_OK(curandSetPseudoRandomGeneratorSeed(gen, 2026ULL));
    CURAND_OK(curandGenerate(gen, ints, n));
    CURAND_OK(curandGenerateUniform(gen, xy, 2 * n));
    cudaMemcpy(h_ints, ints + n - 8, sizeof h_ints, cudaMemcpyDeviceToHost);
    cudaMemcpy(h, xy, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i += 3) printf("xorwow: %08x %a\n", h_ints[i], h[i]);
    inside<<<(n + 255) / 256, 256>>>(xy, n, count);
    cudaMemcpy(&h_count, count, sizeof h_count, cudaMemcpyDeviceToHost);
    printf("pi is about %.4f (%u of %d points inside)\n", 4.0 * h_count / n, h_count, n);
    CURAND_OK(curandDestroyGenerator(gen));

    CURAND_OK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
    CURAND_OK(curandSetPseudoRandomGeneratorSeed(gen, 7ULL));
    CURAND_OK(curandGenerateNormal(gen, xy, 2 * n, 0.0f, 1.0f));
    cudaMemcpy(h, xy + 100, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i += 3) printf("philox normal: %.4f\n", h[i]);
    CURAND_OK(curandDestroyGenerator(gen));

    CURAND_OK(curandCreateGenerator(&gen, CURAND_RNG_QUASI_SOBOL32));
    CURAND_OK(curandSetQuasiRandomGeneratorDimensions(gen, 2));
    CURAND_OK(curandGenerateUniform(gen, xy, 2 * n));
    cudaMemcpy(h, xy + n - 4, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i += 3) printf("sobol: %a\n", h[i]);
    CURAND_OK(curandDestroyGenerator(gen));

    cudaFree(xy); cudaFree(ints); cudaFree(count);
    return 0;
}
