// The correct twin of p42_two_barriers_one_line.cu: every thread reaches
// the first barrier of the line, and none the second.
// EXPECT: split: cudaSuccess
// REJECT: simulator:
#define CORRECT 1
#include "p42_two_barriers_one_line.cu"
