// Tensor-core element types beyond half: __nv_bfloat16 (16x16x16, float
// sums), double (8x8x4, fused multiply-adds), unsigned 8-bit integers, and
// satf, which clamps an int accumulator that overflows instead of wrapping
// (the CUDA headers declare satf for 8-bit integer inputs only). The inputs
// are small numbers with few fraction bits, so every sum is exact and a GPU
// and the simulator print the same.
// EXPECT: elements per lane: bf16 a 8, double a 1, double acc 2, u8 b 8
// EXPECT: 16x16x16 bf16->float: 256 of 256 match, sum 127.688
// EXPECT: 8x8x4 double: 64 of 64 match, sum 9.125
// EXPECT: 16x16x16 u8->int: 256 of 256 match, largest 921010
// EXPECT: int accumulator without satf: -2147483648; with satf: 2147483647
// EXPECT: no error
// REJECT: leaked
// EXPECT: exit status 0
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <cstdio>

using namespace nvcuda;

__global__ void sizes(int *out)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> bf;
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> da;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> dc;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> u8;
    if (threadIdx.x == 0) {
        out[0] = bf.num_elements;
        out[1] = da.num_elements;
        out[2] = dc.num_elements;
        out[3] = u8.num_elements;
    }
}

// Idea: bfloat16 keeps float's range with 8 bits of precision; sums in float.
__global__ void bf16_tile(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.5f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

// Idea: double-precision tensor cores: an 8x8 tile, k = 4 a step.
__global__ void dmma_tile(const double *a, const double *b, const double *c, double *d)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
    wmma::load_matrix_sync(acc, c, 8, wmma::mem_row_major);
    for (int k = 0; k < 8; k += 4) {
        wmma::load_matrix_sync(fa, a + k, 8);
        wmma::load_matrix_sync(fb, b + k * 8, 8);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(d, acc, 8, wmma::mem_row_major);
}

// Idea: unsigned 8-bit inputs reach 255 * 255 per product without wrapping.
__global__ void u8_tile(const unsigned char *a, const unsigned char *b, int *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::fill_fragment(acc, 0);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

// Idea: satf saturates: an overflowing int sum clamps (d: without, d + 256: with).
__global__ void satf_tile(const signed char *a, const signed char *b, const int *c, int *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc, sat;
    wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(sat, fa, fb, acc, true);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
    wmma::store_matrix_sync(d + 256, sat, 16, wmma::mem_row_major);
}

template <class T> static T *dev(const T *h, int n)
{
    T *d;
    cudaMalloc(&d, n * sizeof(T));
    cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
    return d;
}

template <class T> static void back(T *h, T *d, int n)
{
    cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
    cudaFree(d);
}

template <class T> static T *out(int n)
{
    T *d;
    cudaMalloc(&d, n * sizeof(T));
    return d;
}

int main()
{
    int sz[4];
    int *dsz = out<int>(4);
    sizes<<<1, 32>>>(dsz);
    back(sz, dsz, 4);
    printf("elements per lane: bf16 a %d, double a %d, double acc %d, u8 b %d\n", sz[0], sz[1], sz[2], sz[3]);

    // bf16: A row-major, B column-major, values with three fraction bits
    __nv_bfloat16 ba[256], bb[256];
    float fa[256], fb[256], fd[256];
    for (int i = 0; i < 256; i++) {
        fa[i] = (float)((i * 7) % 9 - 4) * 0.125f;
        fb[i] = (float)((i * 5) % 7 - 3) * 0.25f;
        ba[i] = __float2bfloat16(fa[i]);
        bb[i] = __float2bfloat16(fb[i]);
    }
    __nv_bfloat16 *dba = dev(ba, 256), *dbb = dev(bb, 256);
    float *dfd = out<float>(256);
    bf16_tile<<<1, 32>>>(dba, dbb, dfd);
    back(fd, dfd, 256);
    cudaFree(dba);
    cudaFree(dbb);
    int match = 0;
    double fsum = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            float want = 0.5f;
            for (int k = 0; k < 16; k++) want += fa[i * 16 + k] * fb[j * 16 + k];
            match += fd[i * 16 + j] == want;
            fsum += want;
        }
    printf("16x16x16 bf16->float: %d of 256 match, sum %g\n", match, fsum);

    // double 8x8x4, two steps of k
    double da[64], db[64], dc[64], dd[64];
    for (int i = 0; i < 64; i++) {
        da[i] = ((i * 3) % 11 - 5) * 0.5;
        db[i] = ((i * 5) % 13 - 6) * 0.25;
        dc[i] = (i % 5 - 2) * 0.125;
    }
    double *dda = dev(da, 64), *ddb = dev(db, 64), *ddc = dev(dc, 64), *ddd = out<double>(64);
    dmma_tile<<<1, 32>>>(dda, ddb, ddc, ddd);
    back(dd, ddd, 64);
    cudaFree(dda);
    cudaFree(ddb);
    cudaFree(ddc);
    match = 0;
    double dsum = 0;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            double want = dc[i * 8 + j];
            for (int k = 0; k < 8; k++) want += da[i * 8 + k] * db[k * 8 + j];
            match += dd[i * 8 + j] == want;
            dsum += want;
        }
    printf("8x8x4 double: %d of 64 match, sum %g\n", match, dsum);

    // unsigned 8-bit, up to 255 * 255 * 16
    unsigned char ua[256], ub[256];
    for (int i = 0; i < 256; i++) {
        ua[i] = (unsigned char)(255 - (i * 13) % 40);
        ub[i] = (unsigned char)(255 - (i * 7) % 30);
    }
    unsigned char *dua = dev(ua, 256), *dub = dev(ub, 256);
    int ud[256];
    int *dud = out<int>(256);
    u8_tile<<<1, 32>>>(dua, dub, dud);
    back(ud, dud, 256);
    cudaFree(dua);
    cudaFree(dub);
    match = 0;
    int largest = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            int want = 0;
            for (int k = 0; k < 16; k++) want += ua[i * 16 + k] * ub[j * 16 + k];
            match += ud[i * 16 + j] == want;
            if (want > largest) largest = want;
        }
    printf("16x16x16 u8->int: %d of 256 match, largest %d\n", match, largest);

    // int: C at the largest int plus 16 products of 1 wraps, or clamps
    signed char ia[256], ib[256];
    int ic[256], io[512];
    for (int i = 0; i < 256; i++) {
        ia[i] = ib[i] = 1;
        ic[i] = 2147483647 - 15;
    }
    signed char *dia = dev(ia, 256), *dib = dev(ib, 256);
    int *dic = dev(ic, 256), *dio = out<int>(512);
    satf_tile<<<1, 32>>>(dia, dib, dic, dio);
    back(io, dio, 512);
    cudaFree(dia);
    cudaFree(dib);
    cudaFree(dic);
    printf("int accumulator without satf: %d; with satf: %d\n", io[0], io[256]);

    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", e == cudaSuccess ? "no error" : cudaGetErrorString(e));
    return 0;
}
