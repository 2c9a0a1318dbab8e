// Guards: Ein Start hat meist mehr Threads als Elemente; die überzähligen
// Threads dürfen nicht über das Ende der Arrays hinaus lesen oder schreiben.
__global__ void guard(float *out, const float *a, int size)
{
    int i = threadIdx.x;
    // Schreiben Sie hier out[i], nur für die Threads, die ein Element haben.
}
