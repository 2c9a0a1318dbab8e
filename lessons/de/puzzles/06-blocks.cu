// Blöcke: Ein Block fasst nur begrenzt viele Threads, größere Arrays brauchen
// also mehrere Blöcke; blockIdx und blockDim geben jedem Thread seinen
// globalen Index.
__global__ void blocks(float *out, const float *a, int size)
{
    // Berechnen Sie i aus blockIdx.x, blockDim.x und threadIdx.x
    // und schreiben Sie dann out[i], wenn i < size.
}
