// Delovno učinkovit scan (Blelloch): prehod navzgor sešteva pare v drevesu,
// dokler zadnje mesto ne vsebuje vsote vseh; počistite ga, nato gre prehod
// navzdol po drevesu nazaj in vsako vozlišče preda vsoto svojega levega
// otroka desnemu. 2n - 2 seštevanj za n elementov, scan iz uganke 12 jih
// naredi n log2 n.
#define TPB 8       // niti na blok, kot jih zažene check
#define N (2 * TPB) // mest: dve na nit

__global__ void scan_exclusive(float *out, const float *a, int size)
{
    __shared__ float s[N];
    int t = threadIdx.x;
    // Naložite a[2t] in a[2t + 1] v s (0 za size).
    // Prehod navzgor, d = 1, 2, 4, 8: mesto k = (t + 1) * 2 * d - 1, kadar je
    // k < N, prišteje mesto k - d. Nato počistite s[N - 1].
    // Prehod navzdol, d = 8, 4, 2, 1: levo mesto k - d dobi s[k], s[k] pa
    // prišteje staro vrednost levega mesta.
    // Pregrada pred vsakim krogom; nato zapišite out (samo i < size).
}
