// A bitonic sort step: every element is compared with its partner i ^ j and
// the pair is ordered up or down by bit k of i: one step of a sorting network.
__global__ void bitonic_step(float *out, const float *a, int j, int k, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // Inside a: the partner p = i ^ j; up = (i & k) == 0;
    // out[i] = the smaller of a[i] and a[p] when (i < p) == up, else the larger.
}
