// p90_struct_memcpy.cu's off-by-one with a struct assignment instead of
// memcpy (`out[i] = in[i]`): the compiler copies the 28 bytes as one block,
// and the simulator checks each of them, at the assignment's line.
// EXPECT-SIM: copy_assign: block 3, thread 4, at line 25 reads 16 bytes at byte 2800 of in (2800 bytes from cudaMalloc at line 42): 0 bytes past its end
// EXPECT-SIM: copy_assign: block 3, thread 4, at line 25 writes 16 bytes at byte 2800 of out (2800 bytes from cudaMalloc at line 43): 0 bytes past its end
// EXPECT-SIM: assignment: cudaErrorIllegalAddress
// MEMCHECK
#define ASSIGN 1
#include "p90_struct_memcpy.cu"
