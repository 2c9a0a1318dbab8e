// A std::vector's data handed to a kernel: host memory, which a kernel
// cannot reach on a GPU whose pageableMemoryAccess is 0 (the H200's), so
// the launch fails with an illegal address and the vector keeps its values.
// MEMCHECK
// EXPECT: launch: an illegal memory access was encountered
// EXPECT: v[0] = 1
// EXPECT-SIM: twice: block 0, thread 0 reads 4 bytes
// EXPECT-SIM: byte 0 of the 1024 bytes a library container (a std::vector's data, say) allocated with operator new, given to the kernel at line 23
// EXPECT-SIM: thrust::device_vector for a vector, at p186_vector_in_kernel.cu:17
#include <cstdio>
#include <vector>

// each thread doubles one element
__global__ void twice(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= 2;
}

int main()
{
    std::vector<float> v(256, 1.0f);
    twice<<<1, 256>>>(v.data(), 256);
    cudaError_t e = cudaDeviceSynchronize();
    printf("launch: %s\n", cudaGetErrorString(e));
    printf("v[0] = %g\n", v[0]);
    return 0;
}
