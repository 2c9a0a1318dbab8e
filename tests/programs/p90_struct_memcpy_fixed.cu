// The correct twin of p90_struct_memcpy.cu (the guard is i < n): nothing
// to report, on the simulator and the GPU alike.
// EXPECT: memcpy: cudaSuccess
// EXPECT: last record: 99 101
// REJECT: simulator:
#define LAST(n) (i < (n))
#include "p90_struct_memcpy.cu"
