// The CUDA headers' contract: a helper header included with <...> from
// beside the program compiles its CUDA parts only where the toolkit's guard
// macros say the runtime's headers were read, and its version check sees
// the toolkit's version, as under nvcc.
// EXPECT: runtime header seen: yes
// EXPECT: driver types seen: yes
// EXPECT: CUDART_VERSION at least 12000: yes
// EXPECT: __CUDACC__ defined: yes
// EXPECT: bad copy: cudaErrorInvalidValue at p36_cuda_headers.cu:31
// EXPECT: exit status 0
#include <cuda_runtime.h>
#include <p36_checks.h>

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

int main()
{
    printf("runtime header seen: %s\n", P36_HAVE_RUNTIME ? "yes" : "no");
    printf("driver types seen: %s\n", P36_HAVE_DRIVER_TYPES ? "yes" : "no");
    printf("CUDART_VERSION at least 12000: %s\n", CUDART_VERSION >= 12000 ? "yes" : "no");
#ifdef __CUDACC__
    printf("__CUDACC__ defined: yes\n");
#endif
    int *d, h[4];
    P36_CHECK(cudaMalloc(&d, sizeof h));
    fill<<<1, 4>>>(d, 7);
    P36_CHECK(cudaGetLastError());
    P36_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int r = 0;
    /* a copy into the null pointer is refused with cudaErrorInvalidValue */
    r = P36_CHECK(cudaMemcpy(NULL, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("values %d %d %d %d (checks failed: %d)\n", h[0], h[1], h[2], h[3], r);
    cudaFree(d);
    return 0;
}
