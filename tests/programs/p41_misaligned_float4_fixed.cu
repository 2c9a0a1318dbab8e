// The correct twin of p41_misaligned_float4.cu: in + 4 is 16-byte aligned.
// EXPECT: sum4: cudaSuccess
// REJECT: simulator:
#define SHIFT 4
#include "p41_misaligned_float4.cu"
