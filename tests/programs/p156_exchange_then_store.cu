// A flag raised with atomicExch whose old value nobody reads, then set
// again with a plain store by the same thread, while another thread adds to
// it atomically. The plain store races with the other thread's atomic: an
// atomic is atomic only against other atomics. (The store right after the
// exchange, to the same word, must still be seen as the thread's own
// access: the exchange's value is unused, so the compiler keeps only its
// store.)
// RUN: set race-check on
// EXPECT: flag is 2 or 12: yes
// EXPECT-SIM: data race on shared array flag
// EXPECT-SIM: thread 0 writes it at line 25
// EXPECT-SIM: atomically updates it at line 27
#include <cstdio>

__global__ void raise_flag(int *out)
{
    __shared__ int flag;
    if (threadIdx.x == 0) flag = 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        /* the old value is not used */
        atomicExch(&flag, 1);
        /* a plain store: not atomic, so it races with thread 32's atomicAdd
         * (write it with atomicExch too) */
        flag = 2;
    } else if (threadIdx.x == 32) {
        atomicAdd(&flag, 10);
    }
    __syncthreads();
    if (threadIdx.x == 0) *out = flag;
}

int main()
{
    int *d, h = -1;
    cudaMalloc(&d, sizeof h);
    raise_flag<<<1, 64>>>(d);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    printf("flag is 2 or 12: %s\n", h == 2 || h == 12 ? "yes" : "no");
    return 0;
}
