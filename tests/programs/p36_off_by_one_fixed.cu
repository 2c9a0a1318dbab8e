// The correct twin of p36_off_by_one.cu (i < n): nothing to report.
// EXPECT: first launch: cudaSuccess
// EXPECT: copy back: cudaSuccess
// EXPECT: out[1000] = 1010
// REJECT: simulator:
#define CORRECT 1
#include "p36_off_by_one.cu"
