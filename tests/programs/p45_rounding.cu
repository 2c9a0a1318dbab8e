// The rounding intrinsics: the same sum, product and quotient done in each
// of the four rounding modes (rn nearest even, rz towards zero, ru up, rd
// down). 1 + 2^-24 lies between two floats: up and down differ by one ulp.
// EXPECT: add rn 1 rz 1 ru 1.00000012 rd 1
// EXPECT: add of negatives rn -1 rz -1 ru -1 rd -1.00000012
// EXPECT: 1/3 rz 0.333333313 ru 0.333333343
// EXPECT: sqrt(2) rd 1.41421354 ru 1.41421366
// EXPECT: double 1/3 rd 0.33333333333333331 ru 0.33333333333333337
// EXPECT: double sqrt(2) rz 1.4142135623730949 rd 1.4142135623730949 ru 1.4142135623730951
// EXPECT: double rcp(3) rz 0.33333333333333331 ru 0.33333333333333337
// EXPECT: exit status 0
#include <cstdio>

__global__ void modes(float *f, double *d)
{
    float one = 1.0f, tiny = 5.9604645e-8f; /* 2^-24 */
    f[0] = __fadd_rn(one, tiny);
    f[1] = __fadd_rz(one, tiny);
    f[2] = __fadd_ru(one, tiny);
    f[3] = __fadd_rd(one, tiny);
    f[4] = __fadd_rn(-one, -tiny);
    f[5] = __fadd_rz(-one, -tiny);
    f[6] = __fadd_ru(-one, -tiny);
    f[7] = __fadd_rd(-one, -tiny);
    f[8] = __fdiv_rz(1.0f, 3.0f);
    f[9] = __fdiv_ru(1.0f, 3.0f);
    f[10] = __fsqrt_rd(2.0f);
    f[11] = __fsqrt_ru(2.0f);
    d[0] = __ddiv_rd(1.0, 3.0);
    d[1] = __ddiv_ru(1.0, 3.0);
    d[2] = __dsqrt_rz(2.0);
    d[3] = __dsqrt_rd(2.0);
    d[4] = __dsqrt_ru(2.0);
    d[5] = __drcp_rz(3.0);
    d[6] = __drcp_ru(3.0);
}

int main()
{
    float *f, hf[12];
    double *d, hd[7];
    cudaMalloc(&f, sizeof hf);
    cudaMalloc(&d, sizeof hd);
    modes<<<1, 1>>>(f, d);
    cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
    cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
    printf("add rn %.9g rz %.9g ru %.9g rd %.9g\n", hf[0], hf[1], hf[2], hf[3]);
    printf("add of negatives rn %.9g rz %.9g ru %.9g rd %.9g\n", hf[4], hf[5], hf[6], hf[7]);
    printf("1/3 rz %.9g ru %.9g\n", hf[8], hf[9]);
    printf("sqrt(2) rd %.9g ru %.9g\n", hf[10], hf[11]);
    printf("double 1/3 rd %.17g ru %.17g\n", hd[0], hd[1]);
    printf("double sqrt(2) rz %.17g rd %.17g ru %.17g\n", hd[2], hd[3], hd[4]);
    printf("double rcp(3) rz %.17g ru %.17g\n", hd[5], hd[6]);
    return 0;
}
