// The correct twin of p82_memcpy_async_bounds.cu (copies only what is
// there): nothing to report, on the simulator and the GPU alike.
// EXPECT: first launch: cudaSuccess
// EXPECT: sum of the first 250 partial sums: 1000.0
// REJECT: simulator:
#define CORRECT 1
#include "p82_memcpy_async_bounds.cu"
