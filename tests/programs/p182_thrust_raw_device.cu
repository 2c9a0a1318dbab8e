// thrust's algorithms on memory from cudaMalloc, through
// thrust::device_pointer_cast, and a device_ptr's element read and written
// from host code (thrust copies it, on the GPU as here): not host code
// touching device memory, so no message. A correct twin of p178.
// THRUST
// EXPECT: sum 5050
// EXPECT: sorted: 1 2 3 ... 100
// EXPECT: first 7 last 100
// REJECT: device memory
// REJECT: killed
#include <cstdio>
#include <thrust/device_ptr.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/functional.h>

int main()
{
    const int n = 100;
    int *raw;
    cudaMalloc(&raw, n * sizeof(int));
    thrust::device_ptr<int> d = thrust::device_pointer_cast(raw);
    thrust::sequence(d, d + n, 1);
    printf("sum %d\n", thrust::reduce(d, d + n));
    thrust::sort(d, d + n, thrust::greater<int>());
    thrust::sort(d, d + n);
    int h[n];
    cudaMemcpy(h, raw, sizeof h, cudaMemcpyDeviceToHost);
    printf("sorted: %d %d %d ... %d\n", h[0], h[1], h[2], h[n - 1]);
    d[0] = 7;
    int first = d[0], last = d[n - 1];
    printf("first %d last %d\n", first, last);
    cudaFree(raw);
    return 0;
}
