/* models.c - GPUs that `set model` can describe on a machine without one.
 *
 * The per-SM limits are the published ones (NVIDIA's CUDA C++ Programming
 * Guide, "Technical Specifications per Compute Capability", and the device
 * attributes those GPUs report); memory bandwidth is the datasheet figure.
 * Allocation units and sub-partitions follow the compute capability
 * (occ_arch_units). A model is only a description: the simulator runs the
 * kernels the same way whatever model is chosen; the model decides the
 * occupancy figures and the launch limits the simulator checks. */
#include "kernels/lab.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define KiB 1024L
#define MiB (1024L * KiB)

static const occ_model models[] = {
    /* name, title, cc, SMs, warp, threads/block, threads/SM, blocks/SM,
     * regs/SM, regs/block, regs/thread, reg unit, sub-partitions,
     * smem/SM, smem/block, smem/block opt-in, reserved/block, smem unit, GB/s,
     * L2 bytes, persisting-L2 maximum, access-policy window maximum.
     * The L2 figures are what cudaGetDeviceProperties reports: measured on an
     * H200 (CUDA 13.0, driver 580.159.04); for the others the published L2
     * size, and 0 for the persisting-L2 figures, which were not measured
     * (GPUs before compute capability 8.0 have no persisting L2). */
    {"h200", "NVIDIA H200 SXM, Hopper, 141 GB HBM3e", 9, 0, 132, 32, 1024, 2048, 32,
     65536, 65536, 255, 256, 4, 228 * KiB, 48 * KiB, 227 * KiB, 1 * KiB, 128, 4800, 60 * MiB, 39321600, 128 * MiB},
    {"h100", "NVIDIA H100 SXM, Hopper, 80 GB HBM3", 9, 0, 132, 32, 1024, 2048, 32,
     65536, 65536, 255, 256, 4, 228 * KiB, 48 * KiB, 227 * KiB, 1 * KiB, 128, 3350, 50 * MiB, 0, 0},
    {"b200", "NVIDIA B200, Blackwell, 180 GB HBM3e", 10, 0, 148, 32, 1024, 2048, 32,
     65536, 65536, 255, 256, 4, 228 * KiB, 48 * KiB, 227 * KiB, 1 * KiB, 128, 8000, 0, 0, 0},
    {"a100", "NVIDIA A100 SXM, Ampere, 80 GB HBM2e", 8, 0, 108, 32, 1024, 2048, 32,
     65536, 65536, 255, 256, 4, 164 * KiB, 48 * KiB, 163 * KiB, 1 * KiB, 128, 2039, 40 * MiB, 0, 0},
    {"l4", "NVIDIA L4, Ada Lovelace, 24 GB GDDR6", 8, 9, 58, 32, 1024, 1536, 24,
     65536, 65536, 255, 256, 4, 100 * KiB, 48 * KiB, 99 * KiB, 1 * KiB, 128, 300, 48 * MiB, 0, 0},
    {"rtx4090", "NVIDIA GeForce RTX 4090, Ada Lovelace, 24 GB GDDR6X", 8, 9, 128, 32, 1024, 1536, 24,
     65536, 65536, 255, 256, 4, 100 * KiB, 48 * KiB, 99 * KiB, 1 * KiB, 128, 1008, 72 * MiB, 0, 0},
    {"rtx3090", "NVIDIA GeForce RTX 3090, Ampere, 24 GB GDDR6X", 8, 6, 82, 32, 1024, 1536, 16,
     65536, 65536, 255, 256, 4, 100 * KiB, 48 * KiB, 99 * KiB, 1 * KiB, 128, 936, 6 * MiB, 0, 0},
    {"t4", "NVIDIA T4, Turing, 16 GB GDDR6", 7, 5, 40, 32, 1024, 1024, 16,
     65536, 65536, 255, 256, 4, 64 * KiB, 48 * KiB, 64 * KiB, 0, 256, 320,
     4 * MiB, 0, 0},
    {"v100", "NVIDIA V100 SXM2, Volta, 32 GB HBM2", 7, 0, 80, 32, 1024, 2048, 32,
     65536, 65536, 255, 256, 4, 96 * KiB, 48 * KiB, 96 * KiB, 0, 256, 900,
     6 * MiB, 0, 0},
    {"gtx1080", "NVIDIA GeForce GTX 1080, Pascal, 8 GB GDDR5X", 6, 1, 20, 32, 1024, 2048, 32,
     65536, 65536, 255, 256, 4, 96 * KiB, 48 * KiB, 48 * KiB, 0, 256, 320,
     2 * MiB, 0, 0},
};

int occ_model_count(void)
{
    return (int)(sizeof models / sizeof models[0]);
}

const occ_model *occ_model_at(int i)
{
    return i >= 0 && i < occ_model_count() ? &models[i] : NULL;
}

const occ_model *occ_model_find(const char *name)
{
    if (!name) return NULL;
    for (int i = 0; i < occ_model_count(); i++) {
        const char *a = models[i].name, *b = name;
        while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b)) a++, b++;
        if (!*a && !*b) return &models[i];
    }
    return NULL;
}

void occ_model_names(char *buf, size_t len)
{
    size_t off = 0;
    if (len == 0) return;
    buf[0] = 0;
    for (int i = 0; i < occ_model_count() && off < len; i++)
        off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", models[i].name);
}

/* Units that the device attributes do not report. Registers go to warps in
 * units of 256 on every architecture gpulab builds for; shared memory is
 * rounded to 256 bytes up to Volta/Turing and 128 bytes from Ampere on; the
 * register file is split over four schedulers (two on GP100); from Ampere on
 * the driver keeps 1 KiB of shared memory for every resident block. */
int occ_arch_units(int cc_major, int cc_minor, occ_model *m)
{
    m->reg_alloc_unit = 256;
    m->sub_partitions = 4;
    m->max_regs_per_thread = 255;
    if (cc_major < 3 || cc_major > 12) {
        m->smem_alloc_unit = 128;
        return -1;
    }
    m->smem_alloc_unit = cc_major >= 8 ? 128 : 256;
    if (cc_major == 6 && cc_minor == 0) m->sub_partitions = 2;
    return 0;
}
