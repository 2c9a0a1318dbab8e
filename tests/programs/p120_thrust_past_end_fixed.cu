// The correct twin of p120_thrust_past_end.cu (the guard is i < n): nothing
// to report; cudaMemcpy to and from a device_vector's memory works, and thrust
// sums what the kernel wrote.
// EXPECT: copy into device_malloc: cudaSuccess, sum 500500
// EXPECT: copy in: cudaSuccess
// EXPECT: scale: cudaSuccess
// EXPECT: copy back: cudaSuccess
// EXPECT: h[1000] = 3000, sum 1501500
// REJECT: simulator:
// THRUST
#define GUARD(i, n) ((i) < (n))
#include "p120_thrust_past_end.cu"
