// A kernel's parameters are each thread's own variables: every thread
// starts from the values the launch passed, whatever the threads before it
// did to theirs. Here each thread changes its scalar and its struct (whose
// array is too big for registers) before using them, through
// <<< >>>, through cudaLaunchKernel and through a template kernel whose
// type the call deduces.
// EXPECT: <<<>>>: 10 11 12 13 14 15 16 17 | 40 40 40 40 40 40 40 40
// EXPECT: cudaLaunchKernel: 10 11 12 13 14 15 16 17 | 40 40 40 40 40 40 40 40
// EXPECT: template: 20 22 24 26 28 30 32 34
// EXPECT: exit status 0
#include <cstdio>

struct Table {
    int v[16];
    int scale;
};

// Idea: a parameter is a per-thread copy of the launch's argument.
__global__ void own_copies(int *out, int base, Table t)
{
    int i = threadIdx.x;
    base += i;           /* this thread's base only */
    t.v[3] += 10 * i;    /* this thread's copy of the table */
    t.scale *= 2;
    out[i] = base;
    out[8 + i] = t.v[3] - 10 * i + t.scale;
}

template <class T> __global__ void doubled(T *out, T start)
{
    start += (T)threadIdx.x;
    out[threadIdx.x] = start * 2;
}

static void show(const char *how, const int *h)
{
    printf("%s:", how);
    for (int i = 0; i < 8; i++) printf(" %d", h[i]);
    printf(" |");
    for (int i = 8; i < 16; i++) printf(" %d", h[i]);
    printf("\n");
}

int main()
{
    int *d, h[16];
    cudaMalloc(&d, sizeof h);
    Table t = {};
    t.v[3] = 20;
    t.scale = 10;
    own_copies<<<1, 8>>>(d, 10, t);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    show("<<<>>>", h);

    cudaMemset(d, 0, sizeof h);
    int base = 10;
    void *args[] = {&d, &base, &t};
    cudaLaunchKernel((const void *)own_copies, dim3(1), dim3(8), args, 0, nullptr);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    show("cudaLaunchKernel", h);

    doubled<<<1, 8>>>(d, 10);
    cudaMemcpy(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("template:");
    for (int i = 0; i < 8; i++) printf(" %d", h[i]);
    printf("\n");
    cudaFree(d);
    return 0;
}
