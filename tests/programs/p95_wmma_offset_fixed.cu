// Tensor-core fragments loaded and stored at pointers 16 bytes past a
// 32-byte boundary, in global and in shared memory, as NVIDIA's
// immaTensorCoreGemm sample does: the CUDA Programming Guide asks for a
// 256-bit aligned pointer, the H200 takes any 16-byte boundary, and so does
// the simulator. Small integers: every sum is exact, so a GPU and the
// simulator print the same.
// EXPECT: half, global +16 bytes: 256 of 256 match, sum 20
// EXPECT: half, shared +16 bytes: 256 of 256 match, sum 20
// EXPECT: int8, global +16 bytes: 256 of 256 match, sum 20
// EXPECT: no error
// EXPECT: exit status 0
#include <cuda_fp16.h>
#include <mma.h>
#include <cstdio>

using namespace nvcuda;

static int va(int i, int k) { return (i + 2 * k) % 7 - 3; }
static int vb(int k, int j) { return (3 * k + j) % 5 - 2; }

// Idea: a fragment's pointer needs 16-byte alignment on the hardware; here
// a, b and d start 16 bytes into their allocations.
__global__ void tile_global(const half *a, const half *b, float *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

// Idea: the same in shared memory, the tiles 16 bytes (8 halves) into the array.
__global__ void tile_shared(const half *a, const half *b, float *d)
{
    __shared__ __align__(32) half sa[8 + 256], sb[8 + 256];
    __shared__ __align__(32) float sd[4 + 256];
    for (int e = threadIdx.x; e < 256; e += 32) {
        sa[8 + e] = a[e];
        sb[8 + e] = b[e];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, sa + 8, 16);
    wmma::load_matrix_sync(fb, sb + 8, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(sd + 4, acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int e = threadIdx.x; e < 256; e += 32) d[e] = sd[4 + e];
}

// Idea: 8-bit integer fragments, 16 bytes into their allocations.
__global__ void tile_int8(const signed char *a, const signed char *b, int *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::fill_fragment(acc, 0);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

template <class T> static void report(const char *what, const T *h)
{
    int match = 0;
    long sum = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            int want = 0;
            for (int k = 0; k < 16; k++) want += va(i, k) * vb(k, j);
            match += (float)h[i * 16 + j] == (float)want;
            sum += (long)h[i * 16 + j];
        }
    printf("%s: %d of 256 match, sum %ld\n", what, match, sum);
}

int main()
{
    half ha[256], hb[256];
    signed char ca[256], cb[256];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 16; k++) {
            ha[i * 16 + k] = __float2half((float)va(i, k));
            hb[i * 16 + k] = __float2half((float)vb(i, k));
            ca[i * 16 + k] = (signed char)va(i, k);
            cb[i * 16 + k] = (signed char)vb(i, k);
        }
    // cudaMalloc's memory starts at a 256-byte boundary: 16 bytes in is
    // 16-byte aligned and not 32-byte aligned
    char *base;
    cudaMalloc(&base, 8192);
    half *da = (half *)(base + 16), *db = (half *)(base + 1024 + 16);
    float *dd = (float *)(base + 2048 + 16);
    signed char *ia = (signed char *)(base + 4096 + 16), *ib = (signed char *)(base + 4608 + 16);
    int *id = (int *)(base + 5120 + 16);
    cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
    cudaMemcpy(ia, ca, sizeof ca, cudaMemcpyHostToDevice);
    cudaMemcpy(ib, cb, sizeof cb, cudaMemcpyHostToDevice);

    float hd[256];
    tile_global<<<1, 32>>>(da, db, dd);
    cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost);
    report("half, global +16 bytes", hd);
    tile_shared<<<1, 32>>>(da, db, dd);
    cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost);
    report("half, shared +16 bytes", hd);
    int hi[256];
    tile_int8<<<1, 32>>>(ia, ib, id);
    cudaMemcpy(hi, id, sizeof hi, cudaMemcpyDeviceToHost);
    report("int8, global +16 bytes", hi);
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    cudaFree(base);
    return 0;
}
