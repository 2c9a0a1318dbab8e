// The correct twin of p186: a std::vector's data copied to device memory
// and back, one registered with cudaHostRegister and handed to a kernel
// (the kernels' to use), and a vector's pointer handed to a kernel that
// never touches it. No message.
// EXPECT: copied: 2 4 512
// EXPECT: registered: 3 3
// EXPECT: untouched: 7
// REJECT: host memory
#include <cstdio>
#include <vector>

// each thread doubles one element
__global__ void twice(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= 2;
}

// reads only when asked to: the pointer alone is not an access
__global__ void maybe(const float *host, float *out, int use)
{
    out[0] = use ? host[0] : 7.0f;
}

int main()
{
    const int n = 256;
    std::vector<float> h(n);
    for (int i = 0; i < n; i++) h[i] = (float)(i + 1);
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    twice<<<1, n>>>(d, n);
    cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("copied: %g %g %g\n", h[0], h[1], h[n - 1]);

    std::vector<float> r(n, 1.5f);
    cudaHostRegister(r.data(), n * sizeof(float), cudaHostRegisterDefault);
    twice<<<1, n>>>(r.data(), n);
    cudaDeviceSynchronize();
    printf("registered: %g %g\n", r[0], r[n - 1]);
    cudaHostUnregister(r.data());

    float out;
    maybe<<<1, 1>>>(h.data(), d, 0);
    cudaMemcpy(&out, d, sizeof out, cudaMemcpyDeviceToHost);
    printf("untouched: %g\n", out);
    cudaFree(d);
    return 0;
}
