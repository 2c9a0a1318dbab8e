// Združevanje: vsak izhod potrebuje več sosednjih vhodov; če vsak vhod
// enkrat naložimo v skupni pomnilnik, si sosedje delijo nalaganja.
#define TPB 8 // niti na blok, kot jih zažene check

__global__ void pool(float *out, const float *a)
{
    __shared__ float cache[TPB];
    int i = threadIdx.x;
    // Enkrat naložite a[i], počakajte na pregradi, nato seštejte do tri
    // sosede iz cache.
}
