// Host code that reads a pitched device array right after cudaMemcpy2D
// filled it (a bug: on a GPU the program dies there with a segmentation
// fault). The copy opens the rows it writes and closes them at its end, and
// the message names the array by its variable.
// FAILS
// EXPECT: copied in
// EXPECT: the program was killed by SIGSEGV
// EXPECT-SIM: in host code at p184_host_reads_pitched.cu:22
// EXPECT-SIM: reads byte 4 of d (1536 bytes from cudaMallocPitch at line 19), device memory
// REJECT: row 0
#include <cstdio>

int main()
{
    int rows[300];
    for (int i = 0; i < 300; i++) rows[i] = i;
    int *d;
    size_t pitch;
    cudaMallocPitch(&d, &pitch, 100 * sizeof(int), 3);
    cudaMemcpy2D(d, pitch, rows, 100 * sizeof(int), 100 * sizeof(int), 3, cudaMemcpyHostToDevice);
    printf("copied in\n");
    printf("row 0: %d\n", d[1]);
    cudaFree(d);
    return 0;
}
