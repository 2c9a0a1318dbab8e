// p172's program done right, three ways: the host array copied to cudaMalloc
// memory and back; one array from cudaMallocManaged, which host and kernel
// share; and an array from new[] pinned and mapped with cudaHostRegister.
// Host memory from malloc, new[], a realloc'd array and an array at file
// scope is used on the host beside them (and copied from), so a kernel
// never sees it.
// EXPECT: copied: 1 2 3 4 ... 256
// EXPECT: managed: 1 2 3 4 ... 256
// EXPECT: registered: 1 2 3 4 ... 256
// EXPECT: host sum: 32640
// EXPECT: from a file-scope array: 11 21 31 41 ... 2561
// EXPECT: exit status 0
#include <cstdio>
#include <cstdlib>

// Idea: a kernel touches device memory (cudaMalloc, cudaMallocManaged, or
// host memory pinned and mapped for it), never the host's own.
__global__ void increment(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1;
}

int tens[256];

static void show(const char *what, const int *a, int n)
{
    printf("%s: %d %d %d %d ... %d\n", what, a[0], a[1], a[2], a[3], a[n - 1]);
}

int main()
{
    const int n = 256;
    int *h = (int *)malloc(n * sizeof(int)), *d;
    for (int i = 0; i < n; i++) h[i] = i;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    increment<<<2, 128>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    show("copied", h, n);
    cudaFree(d);

    int *m;
    cudaMallocManaged(&m, n * sizeof(int));
    for (int i = 0; i < n; i++) m[i] = i;
    increment<<<2, 128>>>(m, n);
    cudaDeviceSynchronize();
    show("managed", m, n);
    cudaFree(m);

    int *r = new int[n], *dr;
    for (int i = 0; i < n; i++) r[i] = i;
    cudaHostRegister(r, n * sizeof(int), cudaHostRegisterMapped);
    cudaHostGetDevicePointer((void **)&dr, r, 0);
    increment<<<2, 128>>>(dr, n);
    cudaDeviceSynchronize();
    show("registered", r, n);
    cudaHostUnregister(r);
    delete[] r;

    // host-only memory, grown with realloc and summed on the host
    h = (int *)realloc(h, 2 * n * sizeof(int));
    long sum = 0;
    for (int i = 0; i < n; i++) sum += h[i] - 1;
    printf("host sum: %ld\n", sum);
    free(h);

    // an array at file scope is host memory: copied to the device and back
    for (int i = 0; i < n; i++) tens[i] = 10 * (i + 1);
    cudaMalloc(&d, sizeof tens);
    cudaMemcpy(d, tens, sizeof tens, cudaMemcpyHostToDevice);
    increment<<<2, 128>>>(d, n);
    cudaMemcpy(tens, d, sizeof tens, cudaMemcpyDeviceToHost);
    cudaFree(d);
    printf("from a file-scope array: %d %d %d %d ... %d\n", tens[0], tens[1], tens[2], tens[3], tens[n - 1]);
    return 0;
}
