// The correct twin of p88_dynamic_shared_rows.cu (the launch gives the
// padded rows' bytes): nothing to report, on the simulator and the GPU alike.
// EXPECT: transpose: cudaSuccess
// EXPECT: wrong elements: 0
// REJECT: simulator:
#define CORRECT 1
#include "p88_dynamic_shared_rows.cu"
