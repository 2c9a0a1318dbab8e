// Спільна пам’ять: невеликий масив, спільний для потоків одного блоку, і
// бар’єр (__syncthreads), перш ніж будь-який потік прочитає записане іншим.
#define TPB 4 // потоків у блоці, як їх запускає check

__global__ void shared(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    // 1. Скопіюйте a[i] у cache[t].
    // 2. Зачекайте, доки кожен потік блоку не запише свою комірку.
    // 3. Нехай n = (t + 1) % TPB: запишіть out[blockIdx.x * blockDim.x + n]
    //    = cache[n] + 10.
}
