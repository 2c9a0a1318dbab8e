// The correct twin of p122_device_arrays_pointer.cu (t < 10 and t < 5):
// nothing to report, on the simulator and the GPU alike.
// EXPECT: bump: cudaSuccess
// EXPECT: hist[9] = 18, out[4] = 2.5
// REJECT: simulator:
#define LAST(n) ((n) - 1)
#include "p122_device_arrays_pointer.cu"
