// The twin of p124_copy_unwritten.cu: the kernel writes all 1000 floats,
// so the copies bring only written bytes and nothing is reported.
// RUN: set check all
// EXPECT: out[599] = 1198.0
// REJECT: simulator:
#define WRITTEN size
#include "p124_copy_unwritten.cu"
