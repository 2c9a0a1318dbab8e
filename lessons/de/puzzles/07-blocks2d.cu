// Blöcke in 2D: Ein Grid aus zweidimensionalen Blöcken deckt eine Matrix ab;
// die letzte Zeile und die letzte Spalte von Blöcken ragen über ihren Rand.
__global__ void blocks2d(float *out, const float *a, int size)
{
    // Zeile i aus den y-Koordinaten, Spalte j aus den x-Koordinaten, dann
    // out[i * size + j] schreiben, wenn beide innerhalb der Matrix liegen.
}
