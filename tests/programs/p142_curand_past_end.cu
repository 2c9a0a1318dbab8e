// A cuRAND generator asked for more numbers than its output holds: xy has
// room for 2n floats and the call asks for 3n. On an H200 the call returns
// success and the generator's kernel writes the extra 4 KiB past the end of
// the allocation unseen (cudaMalloc hands out memory in large pieces;
// compute-sanitizer's memcheck named nothing, 2026-12-03). The simulator
// refuses the call before it writes, naming the line, the allocation and the
// sizes; the program sees CURAND_STATUS_LAUNCH_FAILURE (201).
// EXPECT-SIM: simulator: line 23: curandGenerateUniform: 12288 bytes from the output
// EXPECT-SIM: run past the end of its allocation xy (from cudaMalloc at line 19): it holds 8192 bytes from there (8192 in all)
// EXPECT-SIM: status 201, no error
// EXPECT-GPU: status 0, no error
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
    curandStatus_t st = curandGenerateUniform(gen, xy, 3 * n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("status %d, %s\n", (int)st, cudaGetErrorString(e));
    curandDestroyGenerator(gen);
    cudaFree(xy);
    return 0;
}
