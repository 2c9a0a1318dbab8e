// Fused multiply-add: nvcc turns a*b + c in device code into one fma
// instruction, rounded once, unless built with -fmad=false; host code keeps
// both roundings. The simulator contracts device code the same way. a = 1 +
// 2^-12: a*a = 1 + 2^-11 + 2^-24 needs one bit more than a float has, so the
// rounded product loses 2^-24 and the fused result keeps it. Printed as
// multiples of 2^-24: 1 where the product was fused, 0 where it was rounded.
// EXPECT: a*b + c 1 | a*b - c 1 | c - a*b -1
// EXPECT: p = a*b used twice: p + c 1, p - c 1
// EXPECT: p = a*b stored too: p + c 0
// EXPECT: through a __host__ __device__ helper 1
// EXPECT: __fmul_rn(a, b) + c 0 | __fadd_rn(a*b, c) 0 | fmaf 1
// EXPECT: __fmul_ru(a, b) + c 2 | __fadd_rd(a*b, c) -0
// EXPECT: double: a*b + c 1
// EXPECT: host: a*b + c 0 | helper 0
// In a sum of two products each compiler fuses one and rounds the other,
// and here they pick differently (c*d = -(1 + 2^-11) is exact, so fusing it
// gives 0): nvcc 13.0 fuses c*d in both orders, g++ a*b.
// EXPECT-GPU: a*b + c*d 0 | c*d + a*b 0
// EXPECT-SIM: a*b + c*d 1 | c*d + a*b 1
// EXPECT: exit status 0
#include <cstdio>

__host__ __device__ inline float mad_helper(float a, float b, float c) { return a * b + c; }

__global__ void contract(const float *in, const double *din, float *out, float *stored, double *dout)
{
    /* each case its own copy of a (in[3 + i]), so that no product is
     * shared between cases */
    const float *a = in + 3;
    float c = in[0], d = in[1], e = in[2]; /* c = -(1 + 2^-11), d = 1, e = -c */
    out[0] = a[0] * a[0] + c;
    out[1] = a[1] * a[1] - e;
    out[2] = e - a[2] * a[2];
    out[3] = a[3] * a[3] + c * d;
    out[4] = c * d + a[4] * a[4];
    float p = a[5] * a[5];
    out[5] = p + c;
    out[6] = p - e;
    float q = a[6] * a[6];
    stored[0] = q;
    out[7] = q + c;
    out[8] = mad_helper(a[7], a[7], c);
    out[9] = __fmul_rn(a[8], a[8]) + c;
    out[10] = __fadd_rn(a[9] * a[9], c);
    out[11] = fmaf(a[10], a[10], c);
    out[12] = __fmul_ru(a[11], a[11]) + c;
    out[13] = __fadd_rd(a[12] * a[12], c);
    dout[0] = din[0] * din[0] + din[1];
}

int main()
{
    float h_in[3 + 13] = {-(1.0f + 0x1p-11f), 1.0f, 1.0f + 0x1p-11f};
    for (int i = 3; i < 3 + 13; i++) h_in[i] = 1.0f + 0x1p-12f;
    double h_din[2] = {1.0 + 0x1p-27, -(1.0 + 0x1p-26)}; /* the same in double: 2^-54 */
    float *in, *out, *stored, h[14], hs;
    double *din, *dout, hd;
    cudaMalloc(&in, sizeof h_in);
    cudaMalloc(&din, sizeof h_din);
    cudaMalloc(&out, sizeof h);
    cudaMalloc(&stored, sizeof hs);
    cudaMalloc(&dout, sizeof hd);
    cudaMemcpy(in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    cudaMemcpy(din, h_din, sizeof h_din, cudaMemcpyHostToDevice);
    contract<<<1, 1>>>(in, din, out, stored, dout);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hd, dout, sizeof hd, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 14; i++) h[i] *= 0x1p24f;
    printf("a*b + c %g | a*b - c %g | c - a*b %g\n", h[0], h[1], h[2]);
    printf("a*b + c*d %g | c*d + a*b %g\n", h[3], h[4]);
    printf("p = a*b used twice: p + c %g, p - c %g\n", h[5], h[6]);
    printf("p = a*b stored too: p + c %g\n", h[7]);
    printf("through a __host__ __device__ helper %g\n", h[8]);
    printf("__fmul_rn(a, b) + c %g | __fadd_rn(a*b, c) %g | fmaf %g\n", h[9], h[10], h[11]);
    printf("__fmul_ru(a, b) + c %g | __fadd_rd(a*b, c) %g\n", h[12], h[13]);
    printf("double: a*b + c %g\n", hd * 0x1p54);
    volatile float va = h_in[3], vc = h_in[0];
    float a = va, c = vc;
    printf("host: a*b + c %g | helper %g\n", (a * a + c) * 0x1p24f, mad_helper(a, a, c) * 0x1p24f);
    cudaFree(in);
    cudaFree(din);
    cudaFree(out);
    cudaFree(stored);
    cudaFree(dout);
    return 0;
}
