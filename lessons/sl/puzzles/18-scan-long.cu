// Scan, daljši od bloka: blok gre po tabeli po ploščicah s TPB elementi,
// naredi scan ploščice v skupnem pomnilniku in prišteje vsoto ploščic
// pred njo, ki jo od ploščice do ploščice nosi v registru.
#define TPB 8 // niti na blok, kot jih zažene check

__global__ void scan_long(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int t = threadIdx.x;
    float carry = 0.0f; // vsota že obdelanih ploščic
    for (int base = 0; base < size; base += TPB) {
        // Naložite a[base + t] v cache[t] (0 za size), naredite scan
        // ploščice kot v uganki 12, zapišite out[base + t] = carry + cache[t]
        // (kadar je v mejah), prištejte vsoto ploščice cache[TPB - 1] k carry
        // in počakajte, preden naslednja ploščica prepiše cache.
    }
}
