// A file of kernels only cannot run by itself: the message says that the
// program needs a main that launches them, not what the linker said.
// FAILS
// EXPECT: the program has no main(): run, compare, trace and animate run a whole program
// REJECT: undefined reference
__global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}
