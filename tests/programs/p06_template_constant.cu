// A kernel template instantiated for two types and two block sizes, and
// __constant__ memory filled with cudaMemcpyToSymbol.
// EXPECT: float 256: 1040.0
// EXPECT: double 128: 1040.0
// EXPECT: scale back 2.5
#include <cstdio>

__constant__ float c_scale[2];

template <typename T, int BLOCK>
__global__ void scaled_sum(const T *in, T *out, int n)
{
    __shared__ T s[BLOCK];
    int t = threadIdx.x;
    T v = 0;
    for (int i = t; i < n; i += BLOCK) v += in[i] * (T)c_scale[0];
    s[t] = v;
    __syncthreads();
    for (int k = BLOCK / 2; k > 0; k /= 2) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) *out = s[0];
}

template <typename T, int BLOCK> T run(int n)
{
    T *h = new T[n], *d, *o, r;
    for (int i = 0; i < n; i++) h[i] = (T)(i + 1);
    cudaMalloc(&d, n * sizeof(T));
    cudaMalloc(&o, sizeof(T));
    cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
    scaled_sum<T, BLOCK><<<1, BLOCK>>>(d, o, n);
    cudaMemcpy(&r, o, sizeof(T), cudaMemcpyDeviceToHost);
    cudaFree(d);
    cudaFree(o);
    delete[] h;
    return r;
}

int main()
{
    float scale[2] = {0.5f, 0}, back[2];
    cudaMemcpyToSymbol(c_scale, scale, sizeof scale);
    printf("float 256: %.1f\n", run<float, 256>(64));
    printf("double 128: %.1f\n", run<double, 128>(64));
    scale[1] = 2.5f;
    cudaMemcpyToSymbol(c_scale, &scale[1], sizeof(float), sizeof(float));
    cudaMemcpyFromSymbol(back, c_scale, sizeof back);
    printf("scale back %.1f\n", back[1]);
    return 0;
}
