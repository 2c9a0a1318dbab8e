// cuRAND's MRG32k3a generator in a kernel: L'Ecuyer's combined recurrence,
// each thread on its own subsequence (2^76 numbers apart) with an offset.
// The integers and uniform numbers are printed bit for bit; the normal ones
// to four decimals (the GPU's Box-Muller uses its approximate sine and cosine).
// EXPECT: mrg  0: be013ba0 0x1.a672fcp-2 0x1.3a6fc9c0b543cp-2 -0.5390 0.3740 2.9584
// EXPECT: mrg  9: 508e1262 0x1.fe1208p-1 0x1.20927a039795ap-2 0.2850 1.3925 2.7941
// EXPECT: mrg 18: 3db408da 0x1.1b68cep-1 0x1.5592c186dcdp-2 0.0825 0.4247 2.0310
// EXPECT: mrg 27: 218a6975 0x1.561fa2p-2 0x1.68350ea61351p-6 -1.1962 0.5886 1.1809
// EXPECT: mrg 36: e9b143d5 0x1.847bf6p-3 0x1.e813fb7e78506p-2 -0.2895 2.2007 1.9722
// EXPECT: mrg 45: 69f90d9d 0x1.261ab2p-4 0x1.7bdcd7521f4bdp-2 -0.0613 -0.5383 2.0037
// EXPECT: mrg 54: 18bb4374 0x1.2204fap-2 0x1.cc8e0e8ffff9fp-2 -2.6882 -0.7781 2.6334
// EXPECT: mrg 63: bcbb6535 0x1.b5cfe2p-2 0x1.382e079edd944p-4 -0.3654 -0.6868 4.3131
// EXPECT: seed 0: 545508615 1368065476 1327943825 3546985268, after 1000 more: 2109854442, a sequence later: 1195945210
#include <cstdio>
#include <curand_kernel.h>

__global__ void mrg(unsigned *ints, float *u, double *d, float *nrm, double *nd, float *ln)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    curandStateMRG32k3a_t s;
    curand_init(2026ULL + (t % 3), t, t % 7, &s);
    ints[t] = curand(&s);
    u[t] = curand_uniform(&s);
    d[t] = curand_uniform_double(&s);
    nrm[t] = curand_normal(&s);
    nd[t] = curand_normal_double(&s);
    ln[t] = curand_log_normal(&s, 1.0f, 0.5f);
}

__global__ void seed_zero(unsigned *ints)
{
    curandStateMRG32k3a_t s;
    curand_init(0ULL, 0ULL, 0ULL, &s);
    for (int i = 0; i < 4; i++) ints[i] = curand(&s);
    skipahead(1000ULL, &s);
    ints[4] = curand(&s);
    skipahead_sequence(1ULL, &s);
    ints[5] = curand(&s);
}

int main()
{
    const int n = 64;
    unsigned *ints, h_ints[n];
    float *u, h_u[n], *nrm, h_nrm[n], *ln, h_ln[n];
    double *d, h_d[n], *nd, h_nd[n];
    cudaMalloc(&ints, sizeof h_ints);
    cudaMalloc(&u, sizeof h_u);
    cudaMalloc(&d, sizeof h_d);
    cudaMalloc(&nrm, sizeof h_nrm);
    cudaMalloc(&nd, sizeof h_nd);
    cudaMalloc(&ln, sizeof h_ln);
    mrg<<<2, 32>>>(ints, u, d, nrm, nd, ln);
    cudaMemcpy(h_ints, ints, sizeof h_ints, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_u, u, sizeof h_u, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_d, d, sizeof h_d, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_nrm, nrm, sizeof h_nrm, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_nd, nd, sizeof h_nd, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_ln, ln, sizeof h_ln, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i += 9)
        printf("mrg %2d: %08x %a %a %.4f %.4f %.4f\n", i, h_ints[i], h_u[i], h_d[i], h_nrm[i], h_nd[i], h_ln[i]);
    seed_zero<<<1, 1>>>(ints);
    cudaMemcpy(h_ints, ints, 6 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    printf("seed 0: %u %u %u %u, after 1000 more: %u, a sequence later: %u\n", h_ints[0], h_ints[1], h_ints[2],
           h_ints[3], h_ints[4], h_ints[5]);
    cudaFree(ints); cudaFree(u); cudaFree(d); cudaFree(nrm); cudaFree(nd); cudaFree(ln);
    return 0;
}
