// A student's tiled matrix multiply, C = A x B with 512 x 512 floats and
// tiles of 16 x 16 in shared memory: each block loads a tile of A and of B,
// waits, multiplies them, and waits again before the next pair. Checked
// against the CPU on a few entries. bench/memcheck.sh times it on the
// simulator under each `set check` mode.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TILE 16

__global__ void matmul(const float *a, const float *b, float *c, int n)
{
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        ta[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
        tb[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++) sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = sum;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 512;
    std::vector<float> a((size_t)n * n), b((size_t)n * n), c((size_t)n * n);
    for (size_t i = 0; i < a.size(); i++) {
        a[i] = (float)(i % 7) - 3;
        b[i] = (float)(i % 5) - 2;
    }
    float *da, *db, *dc;
    size_t bytes = a.size() * sizeof(float);
    cudaMalloc(&da, bytes);
    cudaMalloc(&db, bytes);
    cudaMalloc(&dc, bytes);
    cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice);
    dim3 block(TILE, TILE), grid(n / TILE, n / TILE);
    matmul<<<grid, block>>>(da, db, dc, n);
    cudaError_t e = cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i += 97)
        for (int j = 0; j < n; j += 89) {
            float want = 0;
            for (int k = 0; k < n; k++) want += a[(size_t)i * n + k] * b[(size_t)k * n + j];
            if (fabsf(want - c[(size_t)i * n + j]) > 1e-3f * (1 + fabsf(want))) bad++;
        }
    printf("matmul %dx%d: %s, %s\n", n, n, cudaGetErrorName(e), bad ? "wrong" : "ok");
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return bad != 0;
}
