// Ploščica v registrih: vsaka nit izračuna blok 2 x 2 matrike out v štirih
// registrih, zato ena prebrana vrednost a da dva produkta, in vrednost b tudi.
__global__ void matmul_reg(float *out, const float *a, const float *b, int size)
{
    int r0 = blockIdx.y * 8 + threadIdx.y, c0 = blockIdx.x * 8 + threadIdx.x;
    // Vrstici r0 in r0 + 4, stolpca c0 in c0 + 4: štiri vsote. Za vsak k
    // preberite a[r][k] za obe vrstici in b[k][c] za oba stolpca (0 zunaj
    // matrik) in prištejte štiri produkte; nato zapišite vsote znotraj out.
}
