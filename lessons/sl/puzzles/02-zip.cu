// Zadrga: dva vhoda, prehojena vzporedno; element i vsakega se sreča v niti i.
__global__ void zip(float *out, const float *a, const float *b)
{
    int i = threadIdx.x;
    // Tu zapišite out[i] (ena vrstica).
}
