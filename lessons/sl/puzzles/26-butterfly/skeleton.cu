// Metulj: __shfl_xor_sync zamenja vrednosti med stezami, katerih indeksa se
// razlikujeta v enem bitu, zato ima po petih krogih vsaka steza vsoto.
__global__ void butterfly(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // v = a[i] znotraj a, 0 za koncem; pet krogov d = 16, 8, 4, 2, 1:
    // v += __shfl_xor_sync(0xffffffff, v, d); nato out[i] = v (i < size).
}
