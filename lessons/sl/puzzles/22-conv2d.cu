// 2D konvolucija z robom: izhodna ploščica bloka potrebuje vhodno
// ploščico, na vsaki strani širšo za en element. Ploščico z robom in uteži
// enkrat naložite v skupni pomnilnik; nato vsaka nit bere svojih 9 sosedov
// od tam namesto iz globalnega pomnilnika.
#define T 4       // blok ima T x T niti, kot jih zažene check
#define H (T + 2) // ploščica z robom

__global__ void conv2d(float *out, const float *a, const float *b, int size)
{
    __shared__ float tile[H][H];
    __shared__ float w[3][3];
    int tx = threadIdx.x, ty = threadIdx.y;
    // Vogal ploščice v a je vrstica blockIdx.y * T - 1, stolpec
    // blockIdx.x * T - 1. 16 niti naloži njenih 36 vrednosti (0 zunaj a)
    // in 9 uteži b; ena pregrada; nato element [i][j] ploščice bloka sešteje
    // tile[ty + di][tx + dj] * w[di][dj] za di, dj od 0 do 2.
}
