// Množenje matrik: ena nit na element rezultata, vsaka prehodi vrstico a
// in stolpec b.
__global__ void matmul(float *out, const float *a, const float *b, int size)
{
    int i = threadIdx.y; // vrstica
    int j = threadIdx.x; // stolpec
    // out[i * size + j] = a[i * size + 0] * b[0 * size + j] + ...
}
