// The correct twin of p91_struct_assign.cu (the guard is i < n): nothing
// to report, on the simulator and the GPU alike.
// EXPECT: assignment: cudaSuccess
// EXPECT: last record: 99 101
// REJECT: simulator:
#define ASSIGN 1
#define LAST(n) (i < (n))
#include "p90_struct_memcpy.cu"
