// Every thread's variables keep their values across __syncthreads(): a
// scalar, an array, a struct and a const, declared before a barrier and
// used after it, some changed in a loop of barriers whose bounds come from
// blockDim and from values every thread computes alike. Blocks of 64 and
// 128 threads; a template kernel launched with and without its argument; a
// thread that returns after the last barrier.
// EXPECT: tree: 2016 6176 10336 14496 | one block of 128: 8128
// EXPECT: carried: 5 6 7 8 | -252 5 6 7
// EXPECT: template: 1.5 3 4.5 | deduced: 7 14 21
// EXPECT: last: 31 | untouched: -1
// EXPECT: exit status 0
#include <cstdio>

struct pair2 {
    int lo, hi;
};

// Idea: a tree sum in shared memory, one barrier per step; `tid` and `mine`
// live from the first region to the last.
__global__ void tree(const int *in, int *out)
{
    extern __shared__ int s[];
    const int tid = threadIdx.x;
    int mine = in[blockIdx.x * blockDim.x + tid];
    s[tid] = mine;
    __syncthreads();
    for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
        if (tid < d) s[tid] += s[tid + d];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0] + mine;
}

// Idea: an array, a struct and a counter carried through a loop of
// barriers whose trip count every thread computes alike.
__global__ void carry(int *out, int rounds)
{
    __shared__ int board[64];
    int t = threadIdx.x;
    int first = rounds * blockIdx.x, last = first + rounds;
    int hist[3] = {t, 0, 0};
    pair2 p = {t, t};
    int steps = 0;
    for (int r = first; r < last; r++) {
        board[t] = hist[0] + r;
        __syncthreads();
        hist[1] += board[(t + 1) % 64] - board[t];
        p.hi += 1;
        steps++;
        __syncthreads();
    }
    out[blockIdx.x * 64 + t] = hist[0] + hist[1] + (p.hi - p.lo) - steps;
}

// Idea: a template kernel's lane form is a template too.
template <class T>
__global__ void scale(T *v, T f)
{
    __shared__ T tmp[32];
    T x = v[threadIdx.x] * f;
    tmp[threadIdx.x] = x;
    __syncthreads();
    v[threadIdx.x] = tmp[threadIdx.x];
}

// Idea: a thread that returns after the last barrier ends; the others go on.
__global__ void last_word(int *out)
{
    __shared__ int top;
    if (threadIdx.x == 0) top = 0;
    __syncthreads();
    atomicMax(&top, threadIdx.x);
    __syncthreads();
    if (threadIdx.x != 0) return;
    out[0] = top;
}

int main()
{
    int h[256], *in, *out;
    for (int i = 0; i < 256; i++) h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, 256 * sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    tree<<<4, 64, 64 * sizeof(int)>>>(in, out);
    int r[4];
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("tree: %d %d %d %d | ", r[0], r[1], r[2], r[3]);
    tree<<<1, 128, 128 * sizeof(int)>>>(in, out);
    cudaMemcpy(r, out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("one block of 128: %d\n", r[0]);

    carry<<<2, 64>>>(out, 5);
    int c[128];
    cudaMemcpy(c, out, sizeof c, cudaMemcpyDeviceToHost);
    printf("carried: %d %d %d %d | %d %d %d %d\n", c[0], c[1], c[2], c[3], c[63], c[64], c[65], c[66]);

    float f[32], *fv;
    for (int i = 0; i < 32; i++) f[i] = (float)(i + 1);
    cudaMalloc(&fv, sizeof f);
    cudaMemcpy(fv, f, sizeof f, cudaMemcpyHostToDevice);
    scale<float><<<1, 32>>>(fv, 1.5f);
    cudaMemcpy(f, fv, sizeof f, cudaMemcpyDeviceToHost);
    printf("template: %g %g %g | ", f[0], f[1], f[2]);
    int iv[32], *ivd;
    for (int i = 0; i < 32; i++) iv[i] = i + 1;
    cudaMalloc(&ivd, sizeof iv);
    cudaMemcpy(ivd, iv, sizeof iv, cudaMemcpyHostToDevice);
    scale<<<1, 32>>>(ivd, 7);
    cudaMemcpy(iv, ivd, sizeof iv, cudaMemcpyDeviceToHost);
    printf("deduced: %d %d %d\n", iv[0], iv[1], iv[2]);

    int two[2] = {-1, -1};
    cudaMemcpy(out, two, sizeof two, cudaMemcpyHostToDevice);
    last_word<<<1, 32>>>(out);
    cudaMemcpy(two, out, sizeof two, cudaMemcpyDeviceToHost);
    printf("last: %d | untouched: %d\n", two[0], two[1]);
    cudaFree(in);
    cudaFree(out);
    cudaFree(fv);
    cudaFree(ivd);
    return 0;
}
