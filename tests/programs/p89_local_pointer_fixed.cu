// The correct twin of p89_local_pointer.cu (the window is j < width):
// nothing to report, on the simulator and the GPU alike.
// EXPECT: window: cudaSuccess
// EXPECT: thread 0: 22, thread 31: 1014
// REJECT: simulator:
#define LAST(width) (j < (width))
#include "p89_local_pointer.cu"
