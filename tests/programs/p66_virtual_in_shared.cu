// An object with a virtual function placed in shared memory by placement
// new: thread 0 constructs it (the constructor stores its virtual table
// pointer), a barrier, then every thread calls it. The race check must see
// the constructor's store, so the calls read written memory: no report.
// RUN: set race-check on
// EXPECT: sum 2016
// REJECT: before any thread
// REJECT: data race
#include <cstdio>
#include <new>

struct Adder {
    int base;
    __device__ Adder(int b) : base(b) {}
    __device__ virtual int add(int x) const { return base + x; }
};

__global__ void use(int *out)
{
    __shared__ __align__(16) unsigned char buf[sizeof(Adder)];
    __shared__ Adder *obj;
    if (threadIdx.x == 0) obj = new (buf) Adder(0);
    __syncthreads();
    atomicAdd(out, obj->add(threadIdx.x));
}

int main()
{
    int h = 0, *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice);
    use<<<1, 64>>>(d);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("sum %d\n", h);
    cudaFree(d);
    return 0;
}
