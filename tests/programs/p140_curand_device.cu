// cuRAND's device API: each thread keeps its own generator state. XORWOW
// (curandState) with one subsequence per thread, Philox4_32_10 with offsets,
// and Sobol32's quasi-random points from the host API's direction vectors.
// The integers and uniform floats are printed bit for bit.
// EXPECT: xorwow  0: 7485b394 0x1.b6d4d6p-1 0x1.9c7984be571aep-3 0.6577
// EXPECT: xorwow  9: 3dc012df 0x1.73745ap-1 0x1.efb279a9db9d2p-1 0.3765
// EXPECT: xorwow 18: 520348f8 0x1.4a3c4ap-1 0x1.e29b4eec0b07ep-1 1.1111
// EXPECT: xorwow 27: 2d2e9aff 0x1.7f8de2p-2 0x1.996b67e66b9b8p-1 -0.2348
// EXPECT: xorwow 36: 80d2c7f3 0x1.797c44p-1 0x1.8b64c93578fa2p-3 -0.6444
// EXPECT: xorwow 45: 7c042dea 0x1.a9ff1cp-3 0x1.2b8bf6bce064cp-1 0.2973
// EXPECT: xorwow 54: 8869954f 0x1.6e165p-1 0x1.73ed65fee4d1p-1 0.2211
// EXPECT: xorwow 63: cadcc4de 0x1.b107dep-2 0x1.da8ab7027e8ccp-1 0.6314
// EXPECT: philox  0: 9ceaf053 77f5493b 12bf50ad 5742b3d7 0x1.f9b642p-1 0x1.4ee9b3f8p-2
// EXPECT: philox  9: ab095064 c486cc67 19b02197 42489300 0x1.feb228p-1 0x1.611b30fep-1
// EXPECT: philox 18: f09664a7 fcefbc35 f7b5636b 58919074 0x1.228104p-2 0x1.2efacc82p-1
// EXPECT: philox 27: c5e47046 071bf119 05ce1601 e70af6ac 0x1.7b9572p-2 0x1.e538a6cp-1
// EXPECT: philox 36: ba6a78d6 9be1c092 184f25d6 bc78d09e 0x1.efb446p-1 0x1.a3a8c5fap-1
// EXPECT: philox 45: b675c217 a07f0321 44f939e0 21474e25 0x1.675588p-3 0x1.cb5e340ap-1
// EXPECT: philox 54: 28ef467b 2bd5a546 ab8e78cd 329e1f66 0x1.021912p-1 0x1.82c631fp-1
// EXPECT: philox 63: 262a60cc 6c0efbad 750e05d2 0e3e21aa 0x1.9f648p-1 0x1.7412238p-2
// EXPECT: sobol  0: 00000000 0x1p-1
// EXPECT: sobol  9: cc000000 0x1.98p-2
// EXPECT: sobol 18: 82000000 0x1p-7
// EXPECT: sobol 27: d9000000 0x1.9p-4
// EXPECT: sobol 36: 41000000 0x1.82p-1
// EXPECT: sobol 45: d3800000 0x1.cep-2
// EXPECT: sobol 54: e3800000 0x1.8ep-2
// EXPECT: sobol 63: c6800000 0x1.ap-6
#include <cstdio>
#include <curand.h>
#include <curand_kernel.h>

__global__ void xorwow(unsigned *ints, float *u, double *d, float *nrm, unsigned long long seed)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    curandState s;
    curand_init(seed, t, 3, &s);   // subsequence t, 3 numbers skipped
    ints[t] = curand(&s);
    u[t] = curand_uniform(&s);
    d[t] = curand_uniform_double(&s);
    nrm[t] = curand_normal(&s);
}

__global__ void philox(uint4 *ints, float *u, double *d, unsigned long long seed)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    curandStatePhilox4_32_10_t s;
    curand_init(seed, t, t % 5, &s);
    ints[t] = curand4(&s);
    u[t] = curand_uniform(&s);
    d[t] = curand_uniform_double(&s);
}

__global__ void sobol(curandDirectionVectors32_t *dirs, unsigned *ints, float *u)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    curandStateSobol32_t s;
    curand_init(dirs[t % 2], t * 7, &s);   // dimension t % 2, point 7t
    ints[t] = curand(&s);
    u[t] = curand_uniform(&s);
}

int main()
{
    const int n = 64;
    unsigned *ints, h_ints[n];
    float *u, h_u[n], *nrm, h_nrm[n];
    double *d, h_d[n];
    uint4 *q, h_q[n];
    cudaMalloc(&ints, n * sizeof(unsigned));
    cudaMalloc(&u, n * sizeof(float));
    cudaMalloc(&d, n * sizeof(double));
    cudaMalloc(&nrm, n * sizeof(float));
    cudaMalloc(&q, n * sizeof(uint4));

    xorwow<<<2, 32>>>(ints, u, d, nrm, 1234ULL);
    cudaMemcpy(h_ints, ints, sizeof h_ints, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_u, u, sizeof h_u, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_d, d, sizeof h_d, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_nrm, nrm, sizeof h_nrm, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i += 9)
        printf("xorwow %2d: %08x %a %a %.4f\n", i, h_ints[i], h_u[i], h_d[i], h_nrm[i]);

    philox<<<2, 32>>>(q, u, d, 42ULL);
    cudaMemcpy(h_q, q, sizeof h_q, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_u, u, sizeof h_u, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_d, d, sizeof h_d, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i += 9)
        printf("philox %2d: %08x %08x %08x %08x %a %a\n", i, h_q[i].x, h_q[i].y, h_q[i].z, h_q[i].w, h_u[i], h_d[i]);

    curandDirectionVectors32_t *host_dirs, *dirs;
    if (curandGetDirectionVectors32(&host_dirs, CURAND_DIRECTION_VECTORS_32_JOEKUO6) != CURAND_STATUS_SUCCESS) {
        printf("no direction vectors\n");
        return 1;
    }
    cudaMalloc(&dirs, 2 * sizeof(curandDirectionVectors32_t));
    cudaMemcpy(dirs, host_dirs, 2 * sizeof(curandDirectionVectors32_t), cudaMemcpyHostToDevice);
    sobol<<<2, 32>>>(dirs, ints, u);
    cudaMemcpy(h_ints, ints, sizeof h_ints, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_u, u, sizeof h_u, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i += 9) printf("sobol %2d: %08x %a\n", i, h_ints[i], h_u[i]);

    cudaFree(ints); cudaFree(u); cudaFree(d); cudaFree(nrm); cudaFree(q); cudaFree(dirs);
    return 0;
}
