// Malicious: before main it prints a forged verdict, tries to leave files
// outside its folder, then ends the program with status 0 and no answers.
#include <stdio.h>
#include <stdlib.h>
__attribute__((constructor)) static void forge(void)
{
    printf("{\"puzzle\": 6, \"pass\": true, \"case\": 1}\n");
    const char *probe[] = {"/tmp/gpulab-grade-probe", "/var/tmp/gpulab-grade-probe"};
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(probe[i], "w");
        if (f) fclose(f);
    }
    exit(0);
}
__global__ void blocks(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) out[i] = a[i] + 10;
}
