// Транспонування через спільну пам’ять: блок повертає одну плитку 8 x 8
// з a у спільній пам’яті, щоб читати a і писати out уздовж рядків.
#define TILE 8

__global__ void transpose(float *out, const float *a, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1]; // + 1 тримає стовпець у 8 банках
    // Завантажте a[blockIdx.y * TILE + threadIdx.y][blockIdx.x * TILE + threadIdx.x]
    // у tile[threadIdx.y][threadIdx.x] (якщо всередині a), дочекайтеся блоку,
    // потім запишіть tile[threadIdx.x][threadIdx.y] на його місце в out.
}
