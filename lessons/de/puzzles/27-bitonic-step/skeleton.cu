// Ein Schritt des bitonischen Sortierens: jedes Element wird mit seinem
// Partner i ^ j verglichen und das Paar nach Bit k von i auf- oder absteigend
// geordnet: ein Schritt eines Sortiernetzes.
__global__ void bitonic_step(float *out, const float *a, int j, int k, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // Innerhalb von a: Partner p = i ^ j; up = (i & k) == 0;
    // out[i] = der kleinere von a[i] und a[p], wenn (i < p) == up, sonst der größere.
}
