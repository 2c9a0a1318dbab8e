// Korak bitonskega urejanja: vsak element se primerja s partnerjem i ^ j, par
// pa se uredi navzgor ali navzdol po bitu k števila i: en korak omrežja.
__global__ void bitonic_step(float *out, const float *a, int j, int k, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // Znotraj a: partner p = i ^ j; up = (i & k) == 0;
    // out[i] = manjši od a[i] in a[p], ko je (i < p) == up, sicer večji.
}
