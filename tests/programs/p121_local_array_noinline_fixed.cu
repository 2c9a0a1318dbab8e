// The correct twin of p121_local_array_noinline.cu (fill() writes the 8 ints
// of a, before() reads w[0]): nothing to report, on the simulator and the GPU
// alike.
// EXPECT: sums: cudaSuccess
// EXPECT: thread 1: 36, weight 1.0
// REJECT: simulator:
#define COUNT 8
#define FIRST 0
#include "p121_local_array_noinline.cu"
