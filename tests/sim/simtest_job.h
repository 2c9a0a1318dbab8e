/* simtest_job.h - for the C++ tests that launch through the shim directly
 * (test_sim_shim.cpp, test_sim_grid.cpp): a fresh job on the simulator. */
#ifndef GPULAB_SIMTEST_JOB_H
#define GPULAB_SIMTEST_JOB_H

#include "kernels/kern.h"

static lab_config cfg;
static lab_job job;

/* A job for one launch, with race-check on or off. */
static inline lab_job *fresh_job(int race)
{
    lab_config_defaults(&cfg);
    cfg.race_check = race;
    memset(&job, 0, sizeof job);
    job.cfg = &cfg;
    job.backend = LAB_BACKEND_SIM;
    return &job;
}

#endif
