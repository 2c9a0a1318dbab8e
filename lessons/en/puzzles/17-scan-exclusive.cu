// Work-efficient scan (Blelloch): the up-sweep adds pairs in a tree until
// the last slot holds the total; clear it, then the down-sweep walks the
// tree back, each node handing its left child's sum to the right. 2n - 2
// additions for n elements, where the scan of puzzle 12 makes n log2 n.
#define TPB 8       // threads per block, as check launches them
#define N (2 * TPB) // slots: two per thread

__global__ void scan_exclusive(float *out, const float *a, int size)
{
    __shared__ float s[N];
    int t = threadIdx.x;
    // Load a[2t] and a[2t + 1] into s (0 past size).
    // Up-sweep, d = 1, 2, 4, 8: slot k = (t + 1) * 2 * d - 1, when k < N,
    // adds slot k - d. Then clear s[N - 1].
    // Down-sweep, d = 8, 4, 2, 1: the left slot k - d takes s[k], and s[k]
    // adds the left slot's old value.
    // A barrier before every round; then write out (only i < size).
}
