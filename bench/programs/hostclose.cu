// The cost of keeping device memory closed to host code (bench/hostclose.sh):
// many short launches and small copies over four 16 MiB arrays, each launch
// and copy opening what it touches and closing it again at its end, with
// the arrays from cudaMalloc (argument 1: closed between launches) or from
// cudaMallocManaged (argument 0: the host may touch them, never closed).
#include <cstdio>
#include <cstdlib>

// Idea: a tiny kernel, so that what a launch costs around its threads shows.
__global__ void touch(float *a, float *b, float *c, float *d, int i)
{
    int t = threadIdx.x;
    a[i + t] += 1;
    b[i + t] += a[i + t];
    c[i + t] += b[i + t];
    d[i + t] += c[i + t];
}

int main(int argc, char **argv)
{
    int device = argc > 1 && argv[1][0] == '1';
    int launches = argc > 2 ? atoi(argv[2]) : 2000;
    const size_t n = 4u << 20; /* floats: 16 MiB an array */
    float *a[4];
    for (int k = 0; k < 4; k++) {
        if (device) cudaMalloc(&a[k], n * sizeof(float));
        else cudaMallocManaged(&a[k], n * sizeof(float));
        cudaMemset(a[k], 0, n * sizeof(float));
    }
    float sum = 0, x;
    for (int r = 0; r < launches; r++) {
        int i = (int)((r * 4099u) % (n - 32));
        touch<<<1, 32>>>(a[0], a[1], a[2], a[3], i);
        cudaMemcpy(&x, a[3] + i, sizeof x, cudaMemcpyDeviceToHost);
        sum += x;
    }
    printf("%d launches on %s memory: %g\n", launches, device ? "device" : "managed", sum);
    for (int k = 0; k < 4; k++) cudaFree(a[k]);
    return 0;
}
