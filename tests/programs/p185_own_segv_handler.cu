// A program with its own SIGSEGV handler (to print something before it
// dies): the simulator keeps device memory closed to host code only while
// its own handler is in place, so the program's copies and launches run as
// on a GPU and its handler is never called. A correct twin of p178.
// EXPECT: sum 8256
// EXPECT: after the handler: 16256
// REJECT: handler called
// REJECT: device memory
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

static void on_segv(int)
{
    const char m[] = "handler called\n";
    if (write(2, m, sizeof m - 1) < 0) _exit(3);
    _exit(2);
}

// each thread adds its index to one element
__global__ void add_index(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += i;
}

int main()
{
    const int n = 128;
    int h[n], *d;
    for (int i = 0; i < n; i++) h[i] = 1;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    add_index<<<1, n>>>(d, n);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int sum = 0;
    for (int i = 0; i < n; i++) sum += h[i];
    printf("sum %d\n", sum);
    // from here on the program's own handler is the one in place
    signal(SIGSEGV, on_segv);
    cudaMemset(d, 0, sizeof h);
    add_index<<<1, n>>>(d, n);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int *e;
    cudaMalloc(&e, sizeof h);
    cudaMemcpy(e, h, sizeof h, cudaMemcpyHostToDevice);
    add_index<<<1, n>>>(e, n);
    cudaMemcpy(h, e, sizeof h, cudaMemcpyDeviceToHost);
    sum = 0;
    for (int i = 0; i < n; i++) sum += h[i];
    printf("after the handler: %d\n", sum);
    cudaFree(d);
    cudaFree(e);
    return 0;
}
