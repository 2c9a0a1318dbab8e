// The correct twin of p37_shared_pointers.cu: every index inside its array.
// EXPECT: shared_k: cudaSuccess
// REJECT: simulator:
#define CORRECT 1
#include "p37_shared_pointers.cu"
