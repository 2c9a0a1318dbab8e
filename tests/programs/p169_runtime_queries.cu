// Runtime calls a course uses around its kernels: what memory a pointer is
// in, hints about managed memory in CUDA 13's form, copies to and from
// symbols on a stream and a symbol's address and size, 3D pitched memory,
// the cache and bank preferences, and the device and stream queries.
// EXPECT: pointers: device 2 0 dev=p host=null; managed 3 0 dev=p host=p; pinned 1 0 dev=p host=p; malloc 0 -2 dev=null host=p
// EXPECT: advise: 0 0 0 prefetch 0; on cudaMalloc memory 1
// EXPECT: symbols: size 64 sum 120 scaled 240
// EXPECT: 3d: pitch ok, 96 rows, sum 76800
// EXPECT: config: cache 2 banks 1
// EXPECT: device: chosen 0 init 0 stream 0 ids differ 1 record 0 occupancy ok
// EXPECT: exit status 0
#include <cstdio>
#include <cstdlib>

__constant__ int weights[16];
__device__ int scale_by;

// Idea: the weights live in constant memory, set from the host on a stream.
__global__ void weigh(const int *in, int *out)
{
    int i = threadIdx.x;
    out[i] = in[i] * weights[i] * scale_by;
}

// Idea: a 3D array in pitched rows; each thread sums one row.
__global__ void row_sums(cudaPitchedPtr p, int width, int *sums)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x; /* rows of all slices, one after another */
    const int *r = (const int *)((const char *)p.ptr + row * p.pitch);
    int s = 0;
    for (int x = 0; x < width; x++) s += r[x];
    sums[row] = s;
}

static const char *ptr_name(const void *q, const void *p) { return q == p ? "p" : q ? "other" : "null"; }

static void show(const char *what, const void *p)
{
    cudaPointerAttributes a;
    cudaError_t rc = cudaPointerGetAttributes(&a, p);
    printf("%s %d %d dev=%s host=%s", what, rc == cudaSuccess ? (int)a.type : -100, a.device,
           ptr_name(a.devicePointer, p), ptr_name(a.hostPointer, p));
}

int main()
{
    /* pointers */
    int *d, *m, *h, *c = (int *)malloc(64);
    cudaMalloc(&d, 64 * sizeof(int));
    cudaMallocManaged(&m, 64 * sizeof(int));
    cudaMallocHost(&h, 64 * sizeof(int));
    printf("pointers: ");
    show("device", d + 3);
    printf("; ");
    show("managed", m);
    printf("; ");
    show("pinned", h);
    printf("; ");
    show("malloc", c);
    printf("\n");

    /* hints, CUDA 13's form */
    cudaMemLocation dev = {cudaMemLocationTypeDevice, 0};
    int a1 = cudaMemAdvise(m, 64 * sizeof(int), cudaMemAdviseSetReadMostly, dev);
    int a2 = cudaMemAdvise(m, 64 * sizeof(int), cudaMemAdviseSetPreferredLocation, dev);
    int a3 = cudaMemAdvise(m, 64 * sizeof(int), cudaMemAdviseSetAccessedBy, dev);
    int pf = cudaMemPrefetchAsync(m, 64 * sizeof(int), dev, 0, 0);
    int bad = cudaMemAdvise(d, 64 * sizeof(int), cudaMemAdviseSetReadMostly, dev);
    cudaGetLastError();
    printf("advise: %d %d %d prefetch %d; on cudaMalloc memory %d\n", a1, a2, a3, pf, bad);

    /* symbols on a stream */
    cudaStream_t s1, s2;
    cudaStreamCreate(&s1);
    cudaStreamCreate(&s2);
    int w[16], in[16], out[16], two = 2;
    for (int i = 0; i < 16; i++) w[i] = 1, in[i] = i;
    cudaMemcpyToSymbolAsync(weights, w, sizeof w, 0, cudaMemcpyHostToDevice, s1);
    int *scale_p;
    size_t wsize;
    cudaGetSymbolAddress((void **)&scale_p, scale_by);
    cudaGetSymbolSize(&wsize, weights);
    cudaMemcpy(scale_p, &two, sizeof two, cudaMemcpyHostToDevice);
    cudaMemcpyAsync(d, in, sizeof in, cudaMemcpyHostToDevice, s1);
    weigh<<<1, 16, 0, s1>>>(d, d + 16);
    cudaMemcpyAsync(out, d + 16, sizeof out, cudaMemcpyDeviceToHost, s1);
    int back[16];
    cudaMemcpyFromSymbolAsync(back, weights, sizeof back, 0, cudaMemcpyDeviceToHost, s1);
    cudaStreamSynchronize(s1);
    int sum = 0, scaled = 0;
    for (int i = 0; i < 16; i++) sum += in[i] * back[i], scaled += out[i];
    printf("symbols: size %zu sum %d scaled %d\n", wsize, sum, scaled);

    /* 3D pitched memory: 4 slices of 24 rows of 100 ints, all ones but 8 per row */
    cudaExtent e = make_cudaExtent(100 * sizeof(int), 24, 4);
    cudaPitchedPtr p;
    cudaMalloc3D(&p, e);
    cudaMemset3D(p, 0, e);
    cudaMemset2DAsync(p.ptr, p.pitch, 1, 8, 96, s2); /* the first two ints of each row: 0x01010101 */
    int *sums;
    cudaMalloc(&sums, 96 * sizeof(int));
    row_sums<<<3, 32, 0, s2>>>(p, 100, sums);
    int hs[96], total = 0;
    cudaMemcpy(hs, sums, sizeof hs, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 96; i++) total += hs[i] / 0x01010101 * 400;
    printf("3d: pitch %s, %d rows, sum %d\n", p.pitch >= e.width ? "ok" : "short", (int)(e.height * e.depth), total);

    /* preferences */
    cudaFuncCache cache;
    cudaSharedMemConfig banks;
    cudaDeviceSetCacheConfig(cudaFuncCachePreferL1);
    cudaDeviceGetCacheConfig(&cache);
    cudaDeviceGetSharedMemConfig(&banks);
    printf("config: cache %d banks %d\n", (int)cache, (int)banks);

    /* the device and streams */
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int chosen = -1, sdev = -1, blocks = 0;
    cudaChooseDevice(&chosen, &prop);
    int init = cudaInitDevice(0, 0, 0);
    cudaStreamGetDevice(s1, &sdev);
    unsigned long long id1 = 0, id2 = 0;
    cudaStreamGetId(s1, &id1);
    cudaStreamGetId(s2, &id2);
    cudaEvent_t ev;
    cudaEventCreate(&ev);
    int rec = cudaEventRecordWithFlags(ev, s2, cudaEventRecordDefault);
    cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, row_sums, 256, 0, cudaOccupancyDefault);
    printf("device: chosen %d init %d stream %d ids differ %d record %d occupancy %s\n", chosen, init, sdev,
           id1 != id2, rec, blocks > 0 ? "ok" : "none");

    cudaEventDestroy(ev);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaFree(sums);
    cudaFree(p.ptr);
    cudaFree(d);
    cudaFree(m);
    cudaFreeHost(h);
    free(c);
    return 0;
}
