// Zip: zwei Eingaben im Gleichschritt, Element i jeder Eingabe trifft in
// Thread i zusammen.
__global__ void zip(float *out, const float *a, const float *b)
{
    int i = threadIdx.x;
    // Schreiben Sie hier out[i] (eine Zeile).
}
