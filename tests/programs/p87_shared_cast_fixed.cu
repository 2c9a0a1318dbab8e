// The correct twin of p87_shared_cast.cu (the clearing loop stops at
// i < 64): nothing to report, on the simulator and the GPU alike.
// EXPECT: sum of 256 floats: 256.0
// EXPECT: sum of 256 ints: 256
// EXPECT: histogram: cudaSuccess
// EXPECT: bin 0: 16, bin 255: 16, total: 4096
// REJECT: simulator:
#define CORRECT 1
#include "p87_shared_cast.cu"
