// Correct code that copies 16-byte structs whose members are 8 bytes (two
// pointers: alignment 8) to addresses that are multiples of 8 but not 16:
// into a shared array of structs, and a cuda::barrier's completion function
// of two pointers, which init places after the barrier's state. A GPU
// copies them in 8-byte pieces; the simulator, whose compiler copies them
// with one 16-byte access, must not call that misaligned (a float4 at such
// an address is another matter: p41).
// EXPECT: pairs: 7 at both ends
// EXPECT: completion: sum 64
// EXPECT: exit status 0
// REJECT: simulator:
#include <cuda/barrier>
#include <cstdio>

struct two {
    int *a;
    int *b;
};
struct holder {
    long tag;  // 8 bytes: every t below starts 8 bytes past a multiple of 16
    two t;
};

// Idea: a struct's alignment is its widest member's, not its size.
__global__ void pairs(int *out)
{
    __shared__ holder h[4];
    if (threadIdx.x < 4) h[threadIdx.x] = holder{threadIdx.x, two{out, out + 1}};
    __syncthreads();
    if (threadIdx.x == 0) *h[0].t.a = 7;
    if (threadIdx.x == 1) *h[3].t.b = 7;
}

struct add_up {
    int *vals;
    int *out;
    __device__ void operator()() noexcept
    {
        int s = 0;
        for (int i = 0; i < 64; i++) s += vals[i];
        *out = s;
    }
};

__global__ void completion(int *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block, add_up> bar;
    __shared__ int vals[64];
    if (threadIdx.x == 0) init(&bar, blockDim.x, add_up{vals, out});
    __syncthreads();
    vals[threadIdx.x] = 1;
    bar.arrive_and_wait();
}

int main()
{
    int *d, r[3] = {0, 0, 0};
    cudaMalloc(&d, sizeof r);
    cudaMemset(d, 0, sizeof r);
    pairs<<<1, 32>>>(d);
    completion<<<1, 64>>>(d + 2);
    cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost);
    if (r[0] == 7 && r[1] == 7) printf("pairs: 7 at both ends\n");
    printf("completion: sum %d\n", r[2]);
    cudaFree(d);
    return 0;
}
