// Guards: a launch usually has more threads than elements; the extra
// threads must not read or write past the end of the arrays.
__global__ void guard(float *out, const float *a, int size)
{
    int i = threadIdx.x;
    // Write out[i] here, only for the threads that have an element.
}
