// The correct twin of p39_uninitialised.cu: the copy fills all of `in`.
// RUN: set check all
// EXPECT: scale: cudaSuccess
// REJECT: simulator:
#define CORRECT 1
#include "p39_uninitialised.cu"
