// The correct twin of p178 and p179: every way a program reaches device
// memory from the host without touching it through the pointer -- copies
// both ways, device to device, 2D and asynchronous, cudaMemset, arithmetic
// on a device pointer -- and memory the host may read and write: managed
// and pinned. No message, and the same sums on both backends.
// EXPECT: sum 1: 523776
// EXPECT: sum 2: 524800
// EXPECT: rows: 0 1 2 100 101 102
// EXPECT: managed: 2046 pinned: 7
// REJECT: device memory
// REJECT: killed
#include <cstdio>

// each thread adds one to one element
__global__ void inc(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1;
}

int main()
{
    const int n = 1024;
    int *h = new int[n];
    for (int i = 0; i < n; i++) h[i] = i - 1;
    int *d, *e;
    cudaMalloc(&d, n * sizeof(int));
    cudaMalloc(&e, n * sizeof(int));
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    inc<<<n / 256, 256>>>(d, n);
    cudaMemcpy(e, d, n * sizeof(int), cudaMemcpyDeviceToDevice);
    // the second half through an offset pointer, asynchronously on a stream
    cudaStream_t s;
    cudaStreamCreate(&s);
    int *half = e + n / 2;
    cudaMemcpyAsync(h + n / 2, half, n / 2 * sizeof(int), cudaMemcpyDeviceToHost, s);
    cudaMemcpy(h, e, n / 2 * sizeof(int), cudaMemcpyDeviceToHost);
    cudaStreamSynchronize(s);
    long sum = 0;
    for (int i = 0; i < n; i++) sum += h[i];
    printf("sum 1: %ld\n", sum);
    cudaMemset(d, 0, n * sizeof(int));
    inc<<<n / 256, 256>>>(d, n);
    inc<<<n / 256, 256>>>(e, n);
    cudaMemcpy(h, e, n * sizeof(int), cudaMemcpyDeviceToHost);
    sum = 0;
    for (int i = 0; i < n; i++) sum += h[i];
    printf("sum 2: %ld\n", sum);

    // a pitched 2D array: three rows of 100 ints, copied in and out
    int rows[300], back[300];
    for (int i = 0; i < 300; i++) rows[i] = i;
    int *p;
    size_t pitch;
    cudaMallocPitch(&p, &pitch, 100 * sizeof(int), 3);
    cudaMemcpy2D(p, pitch, rows, 100 * sizeof(int), 100 * sizeof(int), 3, cudaMemcpyHostToDevice);
    cudaMemcpy2D(back, 100 * sizeof(int), p, pitch, 100 * sizeof(int), 3, cudaMemcpyDeviceToHost);
    printf("rows: %d %d %d %d %d %d\n", back[0], back[1], back[2], back[100], back[101], back[102]);

    // managed memory: the host reads what the kernel wrote
    int *m;
    cudaMallocManaged(&m, n * sizeof(int));
    for (int i = 0; i < n; i++) m[i] = 2 * i - 1;
    inc<<<n / 256, 256>>>(m, n);
    cudaDeviceSynchronize();
    int *pin;
    cudaMallocHost(&pin, sizeof(int));
    *pin = 6;
    inc<<<1, 1>>>(pin, 1);
    cudaDeviceSynchronize();
    printf("managed: %d pinned: %d\n", m[n - 1], *pin);

    cudaFree(p);
    cudaFree(m);
    cudaFreeHost(pin);
    cudaFree(d);
    cudaFree(e);
    cudaStreamDestroy(s);
    delete[] h;
    return 0;
}
