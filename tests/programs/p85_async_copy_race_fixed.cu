// The correct twin of p85_async_copy_race.cu (the reads wait for the
// barrier's phase): race check stays silent, and the GPU prints the same.
// RUN: set race-check on
// EXPECT: cudaSuccess: out[0] 1, out[63] 0
// REJECT: simulator:
#define CORRECT 1
#include "p85_async_copy_race.cu"
