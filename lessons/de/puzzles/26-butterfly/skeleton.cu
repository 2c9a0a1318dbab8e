// Butterfly-All-Reduce: __shfl_xor_sync tauscht Werte zwischen Lanes, deren
// Indizes sich in einem Bit unterscheiden; nach fünf Runden hat jede Lane die Summe.
__global__ void butterfly(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // v = a[i] innerhalb von a, 0 dahinter; fünf Runden d = 16, 8, 4, 2, 1:
    // v += __shfl_xor_sync(0xffffffff, v, d); dann out[i] = v (i < size).
}
