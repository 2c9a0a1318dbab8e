// Множення матриць плитками: блок завантажує у спільну пам’ять шматок
// TILE x TILE з a і з b, по одному значенню кожного на потік, а потім кожен
// потік повторно використовує всю плитку. Кожне значення з глобальної пам’яті
// читається один раз на блок, а не один раз на потік.
#define TILE 4 // блок має TILE x TILE потоків, як його запускає check

__global__ void matmul_tiled(float *out, const float *a, const float *b,
                             int size)
{
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE];
    int i = blockIdx.y * TILE + threadIdx.y; // рядок out
    int j = blockIdx.x * TILE + threadIdx.x; // стовпець out
    // Для кожної плитки t = 0, TILE, 2 * TILE, ..., меншої за size:
    //   завантажте ta[threadIdx.y][threadIdx.x] = a[i][t + threadIdx.x] і
    //   tb[threadIdx.y][threadIdx.x] = b[t + threadIdx.y][j]
    //   (0 поза матрицею),
    //   зачекайте, додайте TILE добутків, зачекайте знову.
    // Потім запишіть out[i * size + j], якщо i та j лежать усередині матриці.
}
