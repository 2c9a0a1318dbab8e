// Skupni pomnilnik: majhna tabela, ki si jo delijo niti enega bloka, in
// pregrada (__syncthreads), preden nit prebere, kar je zapisala druga nit.
#define TPB 4 // niti na blok, kot jih zažene check

__global__ void shared(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    // 1. Prekopirajte a[i] v cache[t].
    // 2. Počakajte, da vsaka nit bloka zapiše svoje mesto.
    // 3. Naj bo n = (t + 1) % TPB: zapišite out[blockIdx.x * blockDim.x + n]
    //    = cache[n] + 10.
}
