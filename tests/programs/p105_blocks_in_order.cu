// Blocks that meet only through global atomics, fences and printf: on the
// simulator the output is the same whatever `set sim-threads` says, the
// order a one-worker run gives (block 0 first). On a GPU the tickets, the
// last block and the float sum's last digits may come in another order.
// SIM-ONLY
// MEMCHECK
// EXPECT-SIM: block 0 says hello
// EXPECT-SIM: block 63 says hello
// EXPECT-SIM: tickets in block order: yes
// EXPECT-SIM: the last block to finish: 63 (total 4192224)
// EXPECT-SIM: sum of 2^16 ints: 2147450880
// EXPECT-SIM: float sum: 131072.0469
// EXPECT-SIM: block 5 wrote past the end
// EXPECT-SIM: writes 4 bytes at byte 256 of arr
// EXPECT-SIM: the same error in 2 threads of 2 blocks: block 5 thread 0, block 9 thread 0]
#include <cstdio>
#include <cuda_runtime.h>

// printf from many blocks, and a ticket from a global counter (atomicAdd's
// return value: the order blocks reach it)
__global__ void tickets(unsigned *counter, unsigned *ticket)
{
    if (threadIdx.x == 0) {
        printf("block %d says hello\n", blockIdx.x);
        ticket[blockIdx.x] = atomicAdd(counter, 1u);
    }
}

// the lecture's reduction: a shared-memory tree, one atomicAdd per block
__global__ void reduce(const int *in, unsigned long long *sum, float *fsum)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    s[t] = in[i];
    __syncthreads();
    for (unsigned k = 1; k < blockDim.x; k *= 2) {
        if (t % (2 * k) == 0) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) {
        atomicAdd(sum, (unsigned long long)s[0]);
        // float addition is not associative: the order of the blocks shows
        atomicAdd(fsum, blockIdx.x % 2 ? 1e-3f : 1024.0f);
    }
}

// the last block (threadfence + atomicInc) adds the others' partial sums
__global__ void last_block(const int *in, int *partial, unsigned *done, int *total, int *last)
{
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = in[blockIdx.x];
        __threadfence();
        unsigned n = atomicInc(done, gridDim.x);
        if (n == gridDim.x - 1) {
            int s = 0;
            for (unsigned b = 0; b < gridDim.x; b++) s += partial[b];
            *total = s;
            *last = blockIdx.x;
        }
    }
}

// an index one past the end in two blocks: memcheck's grouped report
__global__ void past_end(int *a, int n)
{
    if (threadIdx.x == 0 && (blockIdx.x == 5 || blockIdx.x == 9)) {
        if (blockIdx.x == 5) printf("block 5 wrote past the end\n");
        a[n] = 1;
    }
}

int main()
{
    const int nb = 64, n = 1 << 16;
    unsigned *counter, *ticket, *done;
    int *in, *partial, *total, *last, *arr;
    unsigned long long *sum;
    float *fsum;
    cudaMallocManaged(&counter, sizeof *counter);
    cudaMallocManaged(&ticket, nb * sizeof *ticket);
    cudaMallocManaged(&done, sizeof *done);
    cudaMallocManaged(&in, n * sizeof *in);
    cudaMallocManaged(&partial, nb * sizeof *partial);
    cudaMallocManaged(&total, sizeof *total);
    cudaMallocManaged(&last, sizeof *last);
    cudaMallocManaged(&sum, sizeof *sum);
    cudaMallocManaged(&fsum, sizeof *fsum);
    cudaMallocManaged(&arr, nb * sizeof *arr);
    *counter = 0;
    *done = 0;
    *sum = 0;
    *fsum = 0;
    for (int i = 0; i < n; i++) in[i] = 65535 - i % 65536;

    tickets<<<nb, 32>>>(counter, ticket);
    cudaDeviceSynchronize();
    int inorder = 1;
    for (int b = 0; b < nb; b++) inorder &= ticket[b] == (unsigned)b;
    printf("tickets in block order: %s\n", inorder ? "yes" : "no");

    last_block<<<nb, 32>>>(in, partial, done, total, last);
    cudaDeviceSynchronize();
    printf("the last block to finish: %d (total %d)\n", *last, *total);

    reduce<<<n / 256, 256>>>(in, sum, fsum);
    cudaDeviceSynchronize();
    printf("sum of 2^16 ints: %llu\n", *sum);
    printf("float sum: %.4f\n", *fsum);

    past_end<<<16, 32>>>(arr, nb);
    cudaError_t e = cudaDeviceSynchronize();
    printf("past_end: %s\n", cudaGetErrorString(e));
    return 0;
}
