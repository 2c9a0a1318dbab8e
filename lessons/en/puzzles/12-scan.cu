// Prefix sum: in round r every thread adds the value 2^r places to its
// left. Read the value, wait, then add and wait again, so that no thread
// overwrites a slot another thread has not read yet.
#define TPB 16 // threads per block, as check launches them

__global__ void scan(float *out, const float *a)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    // Load a[i] into cache[i]; for offset = 1, 2, 4, 8: add cache[i - offset]
    // (when i >= offset); then write out[i].
}
