// The twin of p142_curand_past_end: the generator is asked for the 2n
// floats its output holds, and the call succeeds on both backends with no
// report.
// EXPECT: status 0, no error
// REJECT: run past the end
#include <cstdio>
#include <curand.h>

int main()
{
    const int n = 1024;
    float *xy;
    cudaMalloc(&xy, 2 * n * sizeof(float));
    curandGenerator_t gen;
    curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
    curandSetPseudoRandomGeneratorSeed(gen, 1ULL);
    curandStatus_t st = curandGenerateUniform(gen, xy, 2 * n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("status %d, %s\n", (int)st, cudaGetErrorString(e));
    curandDestroyGenerator(gen);
    cudaFree(xy);
    return 0;
}
