// The correct twin of p123_every_array_kind.cu (every index is the last
// element's): nothing to report, on the simulator and the GPU alike.
// EXPECT: kinds: cudaSuccess
// EXPECT: m[0] = 12
// REJECT: simulator:
#define PAST 0
#include "p123_every_array_kind.cu"
