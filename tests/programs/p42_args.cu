// The arguments of main: `set args` keeps them for every run that names
// none (run ARGS passes its own), as a student runs ./prog 3 4.
// RUN: set args "3 4"
// EXPECT: argc 3: 3 * 4 = 12
// EXPECT: exit status 0
#include <cstdio>
#include <cstdlib>

__global__ void mul(int *r, int a, int b) { *r = a * b; }

int main(int argc, char **argv)
{
    if (argc != 3) {
        printf("usage: %s A B (argc %d)\n", argv[0], argc);
        return 2;
    }
    int a = atoi(argv[1]), b = atoi(argv[2]), *d, h = 0;
    cudaMalloc(&d, sizeof(int));
    mul<<<1, 1>>>(d, a, b);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("argc %d: %d * %d = %d\n", argc, a, b, h);
    return 0;
}
