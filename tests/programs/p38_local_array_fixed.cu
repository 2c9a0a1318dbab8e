// The correct twin of p38_local_array.cu: the last index is 3.
// EXPECT: taps: cudaSuccess
// REJECT: simulator:
#define LAST 3
#include "p38_local_array.cu"
