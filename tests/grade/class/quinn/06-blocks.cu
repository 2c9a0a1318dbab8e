// Malicious: includes a file outside its folder.
#include "/etc/shadow"
__global__ void blocks(float *out, const float *a, int size) {}
