// Stiskanje toka: obdržite pozitivne elemente po vrsti, strnjene na začetku
// out. Kam gre obdržan element? Na mesto, enako številu obdržanih elementov
// pred njim: izključujoči scan zastavic (1 obdrži, 0 ne).
#define TPB 16 // niti na blok, kot jih zažene check

__global__ void compact(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    // Naložite v = a[t] (samo t < size), flag = 1, kadar je v > 0, sicer 0.
    // Naredite scan zastavic v cache kot v uganki 12 (vključujoči); nato je
    // cache[TPB - 1] število. Obdržan v gre v out[cache[t] - 1]; niti
    // count <= t < size zapišejo out[t] = 0.
}
