// The narrow number types as cuda_fp16.h and cuda_bf16.h define them: half2
// arithmetic (both halves at once, each rounded to half), conversions, a
// warp sum of half2 values, and __nv_bfloat16 rounding to nearest even.
// EXPECT: half2 a*b+c = (7, 13.5)
// EXPECT: half 1/3 = 0.333252
// EXPECT: warp sum of half2 = (32, 64)
// EXPECT: bf16(1.00390625) = 1 (rounded to even), bf16(1.01171875) = 1.015625
// EXPECT: bf16 sum 3.5, product 3
// EXPECT: exit status 0
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void narrow(float *out)
{
    half2 a = __floats2half2_rn(1.5f, 2.5f), b = __floats2half2_rn(4.0f, 5.0f), c(__float2half(1.0f), __float2half(1.0f));
    half2 r = a * b + c;
    out[0] = __low2float(r);
    out[1] = __high2float(r);
    out[2] = __half2float(__hdiv(__float2half(1.0f), __float2half(3.0f)));
    half2 v = __floats2half2_rn(1.0f, 2.0f);
    for (int d = 16; d > 0; d /= 2) v = __hadd2(v, __shfl_down_sync(0xffffffffu, v, d));
    if (threadIdx.x == 0) {
        out[3] = __low2float(v);
        out[4] = __high2float(v);
    }
    __nv_bfloat16 x = __float2bfloat16(1.00390625f), y = __float2bfloat16(1.01171875f);
    out[5] = __bfloat162float(x);
    out[6] = __bfloat162float(y);
    __nv_bfloat16 p = __float2bfloat16(1.5f), q = __float2bfloat16(2.0f);
    out[7] = __bfloat162float(p + q);
    out[8] = __bfloat162float(p * q);
}

int main()
{
    float *d, h[9];
    cudaMalloc(&d, sizeof h);
    narrow<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("half2 a*b+c = (%g, %g)\n", h[0], h[1]);
    printf("half 1/3 = %g\n", h[2]);
    printf("warp sum of half2 = (%g, %g)\n", h[3], h[4]);
    printf("bf16(1.00390625) = %.8g (rounded to even), bf16(1.01171875) = %.8g\n", h[5], h[6]);
    printf("bf16 sum %g, product %g\n", h[7], h[8]);
    cudaFree(d);
    return 0;
}
