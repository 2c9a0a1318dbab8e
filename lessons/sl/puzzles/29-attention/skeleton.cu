// Pozornost, neposredno: vsaka nit vzame eno poizvedbo, jo oceni z vsakim
// ključem, ocene spremeni v uteži s stabilnim softmaxom (največja ocena se
// odšteje pred exp) in sešteje vrednosti z utežmi.
#define DMAX 16 // d je največ 16

__global__ void attention(float *out, const float *q, const float *k, const float *v, int n, int m, int d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // 1. q[i][0..d-1] v tabelo v registrih (le i < n).
    // 2. največja ocena s[i][j] = (q[i] . k[j]) / sqrt(d) po j < m.
    // 3. za vsak j: w = expf(s[i][j] - največja); sum += w; acc[c] += w * v[j][c].
    // 4. out[i][c] = acc[c] / sum.
}
