// A kernel of one's own on a thrust::device_vector's memory, through
// thrust::raw_pointer_cast, with the classic off-by-one guard `i <= n`: the
// thread of i = n writes one int past the vector's 1001 (4004 bytes, not a
// multiple of 16). On a GPU the write lands in the allocation's padding, with
// no error; on the simulator a device_vector's memory comes from its
// cudaMalloc, so memcheck names the vector's allocation and its line.
// EXPECT-SIM: scale: block 3, thread 233, at line 26 writes 4 bytes at byte 4004 of an allocation of 4004 bytes from thrust::device_vector at line 40: 0 bytes past its end (valid bytes are 0 to 4003)
// EXPECT-SIM: scale: cudaErrorIllegalAddress
// EXPECT-SIM: copy back: cudaErrorIllegalAddress
// EXPECT-SIM: leaked: an allocation of 4004 bytes from thrust::device_vector at line 40
// THRUST
// MEMCHECK
#include <thrust/device_malloc.h>
#include <thrust/device_free.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <cstdio>

#ifndef GUARD
#define GUARD(i, n) ((i) <= (n))
#endif

__global__ void scale(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (GUARD(i, n)) v[i] = 3 * v[i];
}

int main()
{
    const int n = 1001;
    static int h[n];
    for (int i = 0; i < n; i++) h[i] = i;
    // thrust::device_malloc's memory is device memory too
    thrust::device_ptr<int> d = thrust::device_malloc<int>(n);
    cudaError_t e = cudaMemcpy(d.get(), h, sizeof h, cudaMemcpyHostToDevice);
    printf("copy into device_malloc: %s, sum %d\n", cudaGetErrorName(e), thrust::reduce(d, d + n));
    thrust::device_free(d);
    // cudaMemcpy into a device_vector's memory, as into cudaMalloc's
    thrust::device_vector<int> v(n);
    int *raw = thrust::raw_pointer_cast(v.data());
    printf("copy in: %s\n", cudaGetErrorName(cudaMemcpy(raw, h, sizeof h, cudaMemcpyHostToDevice)));
    scale<<<(n + 255) / 256, 256>>>(raw, n);
    printf("scale: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    e = cudaMemcpy(h, raw, sizeof h, cudaMemcpyDeviceToHost);
    printf("copy back: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess) printf("h[1000] = %d, sum %d\n", h[1000], thrust::reduce(v.begin(), v.end()));
    return 0;
}
