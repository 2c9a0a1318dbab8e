// The correct twin of p40_leak.cu: both allocations are freed.
// EXPECT: sum 512
// REJECT: simulator:
#define CORRECT 1
#include "p40_leak.cu"
