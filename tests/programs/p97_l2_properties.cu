// The L2 cache as a program sees it: its size, how much of it may be kept
// for persisting accesses and how large an access-policy window may be. The
// simulator reports the H200's numbers (its default model); another GPU its
// own (an H100: 50 MiB of L2, 32768000 bytes persisting), and on both the
// persisting maximum is 5/8 of the L2. A program that sizes its buffers
// from l2CacheSize, or skips its test when there is no persisting L2, does
// the same on both. Asking to keep more than the persisting maximum fails,
// and the old limit stays. The simulator has no cache: the window is kept,
// and the kernel's result is the same.
// EXPECT: L2: attribute agrees
// EXPECT-SIM: L2: attribute agrees, 62914560 bytes
// EXPECT: persisting L2 maximum: attribute agrees
// EXPECT-SIM: persisting L2 maximum: attribute agrees, 39321600 bytes
// EXPECT: persisting L2 maximum is 5/8 of the L2
// EXPECT: access-policy window at most 134217728 bytes (attribute agrees)
// EXPECT: limit set to the maximum: cudaSuccess, now the maximum
// EXPECT: limit set to twice the maximum: cudaErrorInvalidValue, still the maximum
// EXPECT: window on the stream: cudaSuccess
// EXPECT: sum of 1048576 ones: 1048576
#include <cstdio>

__global__ void count_ones(const int *x, int n, unsigned long long *sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] == 1) atomicAdd(sum, 1ULL);
}

static const char *agrees(int attr, int value)
{
    int v = -1;
    cudaDeviceGetAttribute(&v, (cudaDeviceAttr)attr, 0);
    return v == value ? "agrees" : "differs";
}

int main()
{
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("L2: attribute %s, %d bytes\n", agrees(cudaDevAttrL2CacheSize, p.l2CacheSize), p.l2CacheSize);
    printf("persisting L2 maximum: attribute %s, %d bytes\n",
           agrees(cudaDevAttrMaxPersistingL2CacheSize, p.persistingL2CacheMaxSize), p.persistingL2CacheMaxSize);
    if ((long long)p.persistingL2CacheMaxSize * 8 == (long long)p.l2CacheSize * 5)
        printf("persisting L2 maximum is 5/8 of the L2\n");
    else
        printf("persisting L2 maximum is %.4f of the L2\n", (double)p.persistingL2CacheMaxSize / p.l2CacheSize);
    printf("access-policy window at most %d bytes (attribute %s)\n", p.accessPolicyMaxWindowSize,
           agrees(cudaDevAttrMaxAccessPolicyWindowSize, p.accessPolicyMaxWindowSize));

    size_t limit = 0;
    cudaError_t e = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, p.persistingL2CacheMaxSize);
    cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize);
    printf("limit set to the maximum: %s, now %s\n", cudaGetErrorName(e),
           limit == (size_t)p.persistingL2CacheMaxSize ? "the maximum" : "another value");
    e = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 2 * (size_t)p.persistingL2CacheMaxSize);
    cudaGetLastError();
    cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize);
    printf("limit set to twice the maximum: %s, %s\n", cudaGetErrorName(e),
           limit == (size_t)p.persistingL2CacheMaxSize ? "still the maximum" : "changed");

    const int n = 1 << 20;
    int *x;
    unsigned long long *sum, host = 0;
    cudaMalloc(&x, n * sizeof(int));
    cudaMalloc(&sum, sizeof *sum);
    cudaMemset(sum, 0, sizeof *sum);
    int *ones = new int[n];
    for (int i = 0; i < n; i++) ones[i] = 1;
    cudaMemcpy(x, ones, n * sizeof(int), cudaMemcpyHostToDevice);

    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamAttrValue a = {};
    a.accessPolicyWindow.base_ptr = x;
    a.accessPolicyWindow.num_bytes = n * sizeof(int);
    a.accessPolicyWindow.hitRatio = 1.0f;
    a.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    a.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    printf("window on the stream: %s\n",
           cudaGetErrorName(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &a)));
    count_ones<<<(n + 255) / 256, 256, 0, s>>>(x, n, sum);
    cudaStreamSynchronize(s);
    cudaMemcpy(&host, sum, sizeof host, cudaMemcpyDeviceToHost);
    printf("sum of %d ones: %llu\n", n, host);
    cudaCtxResetPersistingL2Cache();
    cudaStreamDestroy(s);
    cudaFree(x);
    cudaFree(sum);
    delete[] ones;
    return 0;
}
