// A pitched 2D allocation: rows padded to the pitch, copied with cudaMemcpy2D.
// EXPECT: pitch ok, corner 1139
#include <cstdio>

__global__ void add_xy(float *p, size_t pitch, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float *row = (float *)((char *)p + y * pitch);
        row[x] += x + 10 * y;
    }
}

int main()
{
    const int w = 100, h = 30;
    static float host[h][w];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) host[y][x] = 750;
    float *d;
    size_t pitch;
    cudaMallocPitch(&d, &pitch, w * sizeof(float), h);
    cudaMemcpy2D(d, pitch, host, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);
    dim3 b(32, 8), g((w + 31) / 32, (h + 7) / 8);
    add_xy<<<g, b>>>(d, pitch, w, h);
    cudaMemcpy2D(host, w * sizeof(float), d, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost);
    printf("pitch %s, corner %.0f\n", pitch >= w * sizeof(float) ? "ok" : "too small", host[h - 1][w - 1]);
    cudaFree(d);
    return 0;
}
