// p157_fused_multiply_add.cu opened with -fmad=false: every product and sum
// rounded apart on both backends, as nvcc -fmad=false compiles it.
// OPEN-SIM: -fmad=false
// OPEN-GPU: -fmad=false
// EXPECT: a*b + c 0 | a*b - c 0 | c - a*b 0
// EXPECT: a*b + c*d 0 | c*d + a*b 0
// EXPECT: p = a*b used twice: p + c 0, p - c 0
// EXPECT: through a __host__ __device__ helper 0
// EXPECT: __fmul_rn(a, b) + c 0 | __fadd_rn(a*b, c) 0 | fmaf 1
// EXPECT: double: a*b + c 0
// EXPECT: exit status 0
#include "p157_fused_multiply_add.cu"
