// Tensor-core matrix arithmetic through nvcuda::wmma: each warp loads
// fragments of A and B, multiplies and accumulates, and stores the result;
// the half shapes (16x16x16, 32x8x16, 8x32x16) with float and half
// accumulators, row- and column-major operands, leading dimensions wider
// than the tile, 8-bit integers, tf32, and a 64x64 product of four warps.
// The inputs are small integers (tf32: numbers with 10 fraction bits), so
// every sum is exact and a GPU and the simulator print the same.
// EXPECT: elements per lane: a 16, b 16, acc 8, tf32 a 4, int8 a 8
// EXPECT: 16x16x16 half->float: 256 of 256 match, sum 20
// EXPECT: 32x8x16 half->half: 256 of 256 match, sum 277
// EXPECT: 8x32x16 half->float col-major store: 256 of 256 match, sum -290
// EXPECT: 16x16x16 int8->int: 256 of 256 match, sum 400
// EXPECT: 16x16x8 tf32: 256 of 256 match, first 8.0156326
// EXPECT: 64x64x64 four warps: 4096 of 4096 match, sum 1040389
// EXPECT: scaled accumulator: 256 of 256 match
// EXPECT: no error
// REJECT: leaked
// EXPECT: exit status 0
#include <cuda_fp16.h>
#include <mma.h>
#include <cstdio>

using namespace nvcuda;

static int va(int i, int k) { return (i + 2 * k) % 7 - 3; }
static int vb(int k, int j) { return (3 * k + j) % 5 - 2; }
static int vc(int i, int j) { return (i - j) % 4; }

// Idea: one warp computes D = A * B + C for one tile.
template <int M, int N, int K, class LA, class LB, class Acc>
__global__ void tile(const half *a, int lda, const half *b, int ldb, const Acc *c, Acc *d, int ldc,
                     wmma::layout_t out_layout)
{
    wmma::fragment<wmma::matrix_a, M, N, K, half, LA> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, half, LB> fb;
    wmma::fragment<wmma::accumulator, M, N, K, Acc> acc;
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    wmma::load_matrix_sync(acc, c, ldc, wmma::mem_row_major);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, out_layout == wmma::mem_row_major ? N : M, out_layout);
}

__global__ void sizes(int *out)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> t;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> i8;
    if (threadIdx.x == 0) {
        out[0] = a.num_elements;
        out[1] = b.num_elements;
        out[2] = c.num_elements;
        out[3] = t.num_elements;
        out[4] = i8.num_elements;
    }
}

// Idea: integer tensor cores: 8-bit inputs, 32-bit sums.
__global__ void int8_tile(const signed char *a, const signed char *b, int *d)
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

// Idea: tf32 keeps 10 fraction bits of a float; convert before the product.
__global__ void tf32_tile(const float *a, const float *b, float *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 16);
    for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

// Idea: a tiled product: each warp owns a 16x16 tile of C and walks K.
__global__ void gemm64(const half *a, const half *b, float *c, float scale)
{
    int warp = threadIdx.x / 32;
    int row = (blockIdx.y * 2 + warp / 2) * 16, col = (blockIdx.x * 2 + warp % 2) * 16;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < 64; k += 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
        wmma::load_matrix_sync(fa, a + row * 64 + k, 64);
        wmma::load_matrix_sync(fb, b + k * 64 + col, 64);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    for (int i = 0; i < acc.num_elements; i++) acc.x[i] *= scale;
    wmma::store_matrix_sync(c + row * 64 + col, acc, 64, wmma::mem_row_major);
}

template <class T> static T *dev(const T *h, int n)
{
    T *d;
    cudaMalloc(&d, n * sizeof(T));
    cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
    return d;
}

template <class T> static void back(T *h, const T *d, int n) { cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost); }

// A (M x K) row- or column-major with leading dimension lda; B likewise
template <int M, int N, int K, class LA, class LB, class Acc>
static void run_tile(const char *name, bool a_row, bool b_row, int lda, int ldb, wmma::layout_t out)
{
    static half ha[64 * 64], hb[64 * 64];
    static Acc hc[M * N], hd[M * N];
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++) ha[a_row ? i * lda + k : k * lda + i] = __float2half((float)va(i, k));
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) hb[b_row ? k * ldb + j : j * ldb + k] = __float2half((float)vb(k, j));
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) hc[i * N + j] = (Acc)(float)vc(i, j);
    half *da = dev(ha, 64 * 64), *db = dev(hb, 64 * 64);
    Acc *dc = dev(hc, M * N), *dd;
    cudaMalloc(&dd, M * N * sizeof(Acc));
    tile<M, N, K, LA, LB, Acc><<<1, 32>>>(da, lda, db, ldb, dc, dd, N, out);
    back(hd, dd, M * N);
    int match = 0;
    long sum = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int want = vc(i, j);
            for (int k = 0; k < K; k++) want += va(i, k) * vb(k, j);
            float got = (float)(out == wmma::mem_row_major ? hd[i * N + j] : hd[j * M + i]);
            match += got == (float)want;
            sum += want;
        }
    printf("%s: %d of %d match, sum %ld\n", name, match, M * N, sum);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFree(dd);
}

int main()
{
    int *dsz, sz[5];
    cudaMalloc(&dsz, sizeof sz);
    sizes<<<1, 32>>>(dsz);
    back(sz, dsz, 5);
    printf("elements per lane: a %d, b %d, acc %d, tf32 a %d, int8 a %d\n", sz[0], sz[1], sz[2], sz[3], sz[4]);

    run_tile<16, 16, 16, wmma::row_major, wmma::col_major, float>("16x16x16 half->float", true, false, 32, 16,
                                                                   wmma::mem_row_major);
    run_tile<32, 8, 16, wmma::row_major, wmma::row_major, half>("32x8x16 half->half", true, true, 16, 8,
                                                                 wmma::mem_row_major);
    run_tile<8, 32, 16, wmma::col_major, wmma::row_major, float>("8x32x16 half->float col-major store", false, true,
                                                                  8, 40, wmma::mem_col_major);

    // int8
    signed char ia[256], ib[256];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 16; k++) {
            ia[i * 16 + k] = (signed char)(va(i, k) * 40);
            ib[i * 16 + k] = (signed char)(vb(i, k) * 50);
        }
    signed char *dia = dev(ia, 256), *dib = dev(ib, 256);
    int *did, hid[256];
    cudaMalloc(&did, sizeof hid);
    int8_tile<<<1, 32>>>(dia, dib, did);
    back(hid, did, 256);
    int match = 0;
    long sum = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            int want = 0;
            for (int k = 0; k < 16; k++) want += ia[i * 16 + k] * ib[k * 16 + j];
            match += hid[i * 16 + j] == want;
            sum += want / 100;
        }
    printf("16x16x16 int8->int: %d of 256 match, sum %ld\n", match, sum);

    // tf32: 1 + 3/4096 becomes 1 + 1/1024
    float ta[16 * 8], tb[8 * 16], td[256];
    for (int i = 0; i < 128; i++) ta[i] = tb[i] = 1.0f + 3.0f / 4096.0f;
    float *dta = dev(ta, 128), *dtb = dev(tb, 128), *dtd;
    cudaMalloc(&dtd, sizeof td);
    tf32_tile<<<1, 32>>>(dta, dtb, dtd);
    back(td, dtd, 256);
    double t = 1.0 + 1.0 / 1024.0;
    match = 0;
    for (int i = 0; i < 256; i++) match += td[i] == (float)(8.0 * t * t);
    printf("16x16x8 tf32: %d of 256 match, first %.7f\n", match, td[0]);

    // 64x64x64, four warps a block, four blocks
    static half ga[4096], gb[4096];
    static float gc[4096];
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++) {
            ga[i * 64 + j] = __float2half((float)va(i, j));
            gb[i * 64 + j] = __float2half((float)vb(i, j));
        }
    half *dga = dev(ga, 4096), *dgb = dev(gb, 4096);
    float *dgc;
    cudaMalloc(&dgc, sizeof gc);
    gemm64<<<dim3(2, 2), 128>>>(dga, dgb, dgc, 1.0f);
    back(gc, dgc, 4096);
    match = 0;
    sum = 0;
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++) {
            int want = 0;
            for (int k = 0; k < 64; k++) want += va(i, k) * vb(k, j);
            match += gc[i * 64 + j] == (float)want;
            sum += want + 254;
        }
    printf("64x64x64 four warps: %d of 4096 match, sum %ld\n", match, sum);
    gemm64<<<dim3(2, 2), 128>>>(dga, dgb, dgc, 2.0f);
    static float gc2[4096];
    back(gc2, dgc, 4096);
    match = 0;
    for (int i = 0; i < 256; i++) match += gc2[i * 16] == 2.0f * gc[i * 16];
    printf("scaled accumulator: %d of 256 match\n", match);
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    cudaFree(dsz);
    cudaFree(dia);
    cudaFree(dib);
    cudaFree(did);
    cudaFree(dta);
    cudaFree(dtb);
    cudaFree(dtd);
    cudaFree(dga);
    cudaFree(dgb);
    cudaFree(dgc);
    return 0;
}
