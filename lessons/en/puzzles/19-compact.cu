// Stream compaction: keep the positive elements, in order, packed at the
// front of out. Where does a kept element go? To the number of kept
// elements before it: an exclusive scan of the flags (1 kept, 0 not).
#define TPB 16 // threads per block, as check launches them

__global__ void compact(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    // Load v = a[t] (only t < size), flag = 1 when v > 0, else 0.
    // Scan the flags in cache as in puzzle 12 (inclusive); cache[TPB - 1] is
    // then the count. A kept v goes to out[cache[t] - 1]; the threads
    // count <= t < size write out[t] = 0.
}
