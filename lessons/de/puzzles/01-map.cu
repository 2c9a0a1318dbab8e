// Map: ein Thread pro Element, jeder tut dasselbe mit seinem eigenen Element.
__global__ void map(float *out, const float *a)
{
    int i = threadIdx.x;
    // Schreiben Sie hier out[i] (eine Zeile).
}
