// must fail: race. No barrier between the rounds of the down-sweep: a
// thread reads a slot another thread is still swapping in the same round
// or the round before.
#define TPB 8
#define N (2 * TPB)

__global__ void scan_exclusive(float *out, const float *a, int size)
{
    __shared__ float s[N];
    int t = threadIdx.x;
    s[2 * t] = 2 * t < size ? a[2 * t] : 0.0f;
    s[2 * t + 1] = 2 * t + 1 < size ? a[2 * t + 1] : 0.0f;
    for (int d = 1; d < N; d *= 2) {
        __syncthreads();
        int k = (t + 1) * 2 * d - 1;
        if (k < N) s[k] += s[k - d];
    }
    if (t == 0) s[N - 1] = 0.0f;
    __syncthreads();
    for (int d = N / 2; d >= 1; d /= 2) {
        int k = (t + 1) * 2 * d - 1;
        if (k < N) {
            float left = s[k - d];
            s[k - d] = s[k];
            s[k] += left;
        }
    }
    __syncthreads();
    if (2 * t < size) out[2 * t] = s[2 * t];
    if (2 * t + 1 < size) out[2 * t + 1] = s[2 * t + 1];
}
