// Members of a class that test __CUDA_ARCH__, each compiled once for the
// host and once for the device as nvcc does: constructors (in the class and
// outside it, one returning early), members defined outside their class
// (overloaded, with a default argument declared in the class), a static
// member, all in a namespace. A kernel and main build the same objects.
// EXPECT: device: s 2 1 t 7 11 get 103 4 kind 1
// EXPECT: host:   s 2 2 t 7 0 get 3 4 kind 0
// EXPECT: exit status 0
#include <cstdio>

namespace geo {
// Idea: one class for both sides, whose members know which side runs them.
struct Cell {
    int v, w;
    __host__ __device__ explicit Cell(int a) : v(a), w(0)
    {
#ifdef __CUDA_ARCH__
        w = 1;
#else
        w = 2;
#endif
    }
    __host__ __device__ Cell(int a, int b);
    __host__ __device__ int get(int add = 1) const;
    __host__ __device__ int get(float f) const;
    static __host__ __device__ int kind();
};

__host__ __device__ Cell::Cell(int a, int b) : v(a + b), w(0)
{
#ifdef __CUDA_ARCH__
    w = 10;
    if (v > 100) return;
    w += 1;
#endif
}

__host__ __device__ int Cell::get(int add) const
{
#ifdef __CUDA_ARCH__
    return v + add + 100;
#else
    return v + add;
#endif
}

// the overload that does not test it stays one function
__host__ __device__ int Cell::get(float f) const { return v + (int)f; }

__host__ __device__ int Cell::kind()
{
#ifdef __CUDA_ARCH__
    return 1;
#else
    return 0;
#endif
}
} // namespace geo

__global__ void build(int *out)
{
    geo::Cell s(2), t(3, 4);
    out[0] = s.v;
    out[1] = s.w;
    out[2] = t.v;
    out[3] = t.w;
    out[4] = s.get();
    out[5] = s.get(2.0f);
    out[6] = geo::Cell::kind();
}

int main()
{
    int *d, h[7];
    cudaMalloc(&d, sizeof h);
    build<<<1, 1>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("device: s %d %d t %d %d get %d %d kind %d\n", h[0], h[1], h[2], h[3], h[4], h[5], h[6]);
    geo::Cell s(2), t(3, 4);
    printf("host:   s %d %d t %d %d get %d %d kind %d\n", s.v, s.w, t.v, t.w, s.get(), s.get(2.0f),
           geo::Cell::kind());
    cudaFree(d);
    return 0;
}
