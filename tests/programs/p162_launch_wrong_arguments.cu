// A launch with one argument too few: the compiler's message names the
// launch's line and the kernel's declaration, and nothing of how the
// simulator makes the call (no template backtrace through its runtime).
// FAILS
// EXPECT-SIM: p162_launch_wrong_arguments.cu:21:
// EXPECT-SIM: error: too few arguments to function 'void scale(float*, float, int)'
// EXPECT-SIM: p162_launch_wrong_arguments.cu:12:
// EXPECT-GPU: p162_launch_wrong_arguments.cu(21): error: too few arguments in function call
// REJECT: required from 'void sim_
// REJECT: std::apply
// EXPECT: was not run
__global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

int main()
{
    float *x = nullptr;
    scale<<<1, 32>>>(x, 2.0f);
    return 0;
}
